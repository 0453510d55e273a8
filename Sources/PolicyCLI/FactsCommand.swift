import PolicyCore
import PolicyTools
import ReviewPolicy

/// `policyc facts`: the review vocabulary as a table, from the schema the checker uses.
enum FactsCommand: Command {
  static let name = "facts"
  static let summary = "List the facts policies can use"
  static let usage = "USAGE: policyc facts [--format text|json]\n"

  static let help = """
    OVERVIEW: list the facts review policies can use

    Prints the standard review schema: each fact's name, type (`?` when it
    can be absent), unit, meaning and an example condition. Keyed facts such
    as `events(event_name)` take a literal key: `events("purchase")`.

    USAGE: policyc facts [--format text|json]

    OPTIONS:
      --format <format>  `text` (default) or `json`
      -h, --help         Show this help

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, values: ["format"], flags: [], help: help) { return status }
    guard command.arguments.operands.isEmpty else {
      return command.usageError("unexpected argument `\(command.arguments.operands[0])`")
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    io.write(
      format == "text" ? SchemaReport.table(ReviewSchema.standard) : SchemaReport.json(ReviewSchema.standard),
      to: .standardOutput)
    return PolicyCLI.success
  }
}
