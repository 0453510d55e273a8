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
    let rows = self.rows(of: ReviewSchema.standard)
    if format == "text" {
      io.write(table(rows), to: .standardOutput)
      return PolicyCLI.success
    }
    var writer = JSONWriter()
    writer.array {
      for row in rows {
        $0.object {
          $0.key("name"); $0.string(row.name)
          $0.key("type"); $0.string(row.type)
          $0.key("canBeAbsent"); $0.bool(row.isOptional)
          $0.key("unit"); if let unit = row.unit { $0.string(unit) } else { $0.null() }
          $0.key("meaning"); $0.string(row.meaning)
          $0.key("default"); if let value = row.defaultValue { $0.string(value) } else { $0.null() }
          $0.key("example"); $0.string(row.example)
        }
      }
    }
    io.write(writer.output + "\n", to: .standardOutput)
    return PolicyCLI.success
  }

  struct Row {
    var name: String
    var type: String
    var isOptional: Bool
    var unit: String?
    var meaning: String
    var defaultValue: String?
    var example: String
  }

  static func rows(of schema: FactSchema) -> [Row] {
    let plain = schema.facts.map { fact in
      Row(
        name: fact.name, type: fact.type.rawValue + (fact.isOptional ? "?" : ""), isOptional: fact.isOptional,
        unit: fact.unit, meaning: fact.meaning, defaultValue: fact.defaultValue?.description,
        example: fact.example ?? "")
    }
    let keyed = schema.families.map { family in
      Row(
        name: "\(family.name)(\(family.keyMeaning.replacingSpaces))", type: family.type.rawValue + (family.isOptional ? "?" : ""),
        isOptional: family.isOptional, unit: family.unit, meaning: family.meaning,
        defaultValue: family.defaultValue?.description, example: family.example ?? "")
    }
    return plain + keyed
  }

  static func table(_ rows: [Row]) -> String {
    let header = ["NAME", "TYPE", "UNIT", "MEANING", "EXAMPLE"]
    let cells = rows.map { [$0.name, $0.type, $0.unit ?? "-", $0.meaning, $0.example] }
    var widths = header.map(\.count)
    for row in cells {
      for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func line(_ row: [String]) -> String {
      var text = ""
      for (column, cell) in row.enumerated() {
        text += column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
      }
      return text + "\n"
    }
    var output = line(header)
    for row in cells { output += line(row) }
    output += "\n`?` after a type: the fact can be absent; see Grammar.md, \"Absent values\".\n"
    return output
  }
}

extension String {
  fileprivate var replacingSpaces: String {
    String(map { $0 == " " ? "_" : $0 })
  }
}
