import PolicyCore

/// A fact schema as a table (`policyc facts`), JSON (`policyc facts --format json`) or a Markdown
/// reference page (`policyc facts --format markdown`, in SchemaReport+Markdown.swift).
package enum SchemaReport {
  /// One fact or keyed family.
  struct Row {
    var name: String
    var type: String
    var isOptional: Bool
    var unit: String?
    var meaning: String
    var defaultValue: String?
    var example: String
  }

  /// The facts, then the keyed families (`events(event_name)`).
  static func rows(of schema: FactSchema) -> [Row] {
    let plain = schema.facts.map { fact in
      Row(
        name: fact.name, type: fact.type.rawValue + (fact.isOptional ? "?" : ""), isOptional: fact.isOptional,
        unit: fact.unit, meaning: fact.meaning, defaultValue: fact.defaultValue?.description,
        example: fact.example ?? "")
    }
    let keyed = schema.families.map { family in
      Row(
        name: "\(family.name)(\(String(family.keyMeaning.map { $0 == " " ? "_" : $0 })))",
        type: family.type.rawValue + (family.isOptional ? "?" : ""),
        isOptional: family.isOptional, unit: family.unit, meaning: family.meaning,
        defaultValue: family.defaultValue?.description, example: family.example ?? "")
    }
    return plain + keyed
  }

  /// Every fact with its name, type (`?` when it can be absent), unit, meaning and an example, in aligned columns.
  package static func table(_ schema: FactSchema) -> String {
    let header = ["NAME", "TYPE", "UNIT", "MEANING", "EXAMPLE"]
    let cells = rows(of: schema).map { [$0.name, $0.type, $0.unit ?? "-", $0.meaning, $0.example] }
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
    output += "`--format markdown` prints the full reference, docs/facts.md.\n"
    return output
  }

  /// Every fact as a JSON object (name, type, canBeAbsent, unit, meaning, default, example), one line.
  package static func json(_ schema: FactSchema) -> String {
    var writer = JSONWriter()
    writer.array {
      for row in rows(of: schema) {
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
    return writer.output + "\n"
  }
}
