import PolicyCore
import PolicyTools
import ReviewPolicy

/// `policyc facts`: the review vocabulary as a table, JSON or a Markdown reference, from the schema
/// the checker uses.
enum FactsCommand: Command {
  static let name = "facts"
  static let summary = "List the facts policies can use"
  static let usage = "USAGE: policyc facts [--format text|json|markdown]\n"

  static let help = """
    OVERVIEW: list the facts review policies can use

    Prints the standard review schema: each fact's name, type (`?` when it
    can be absent), unit, meaning and an example condition. Keyed facts such
    as `events(event_name)` take a literal key: `events("purchase")`.

    `--format markdown` prints the complete reference (docs/facts.md is its
    output): the facts grouped by scope with their defaults and when they are
    absent, the bounds between them and how they behave when the device
    clock moves.

    USAGE: policyc facts [--format text|json|markdown]

    OPTIONS:
      --format <format>  `text` (default), `json` or `markdown`
      -h, --help         Show this help

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, values: ["format"], flags: [], help: help) { return status }
    guard command.arguments.operands.isEmpty else {
      return command.usageError("unexpected argument `\(command.arguments.operands[0])`")
    }
    guard let format = command.format(among: ["text", "json", "markdown"]) else { return PolicyCLI.usageError }
    let schema = ReviewSchema.standard
    let output =
      switch format {
      case "json": SchemaReport.json(schema)
      case "markdown": SchemaReport.markdown(schema, page: .review)
      default: SchemaReport.table(schema)
      }
    io.write(output, to: .standardOutput)
    return PolicyCLI.success
  }
}
