/// Writes compact JSON with keys in the order given, so output is deterministic.
package struct JSONWriter: Sendable {
  /// An empty writer.
  package init() {}

  /// The JSON written so far.
  package private(set) var output = ""
  private var needsComma = [false]

  private mutating func separate() {
    if needsComma[needsComma.count - 1] { output += "," }
    needsComma[needsComma.count - 1] = true
  }

  /// Writes an object; `body` writes key-value pairs.
  package mutating func object(_ body: (inout JSONWriter) -> Void) {
    separate()
    output += "{"
    needsComma.append(false)
    body(&self)
    needsComma.removeLast()
    output += "}"
  }

  /// Writes an array; `body` writes the elements.
  package mutating func array(_ body: (inout JSONWriter) -> Void) {
    separate()
    output += "["
    needsComma.append(false)
    body(&self)
    needsComma.removeLast()
    output += "]"
  }

  /// Writes a key; the next call writes its value.
  package mutating func key(_ name: String) {
    separate()
    output += JSONWriter.quoted(name) + ":"
    needsComma[needsComma.count - 1] = false
  }

  /// Writes a string value.
  package mutating func string(_ value: String) {
    separate()
    output += JSONWriter.quoted(value)
  }

  /// Writes an integer value.
  package mutating func number(_ value: Int) {
    separate()
    output += String(value)
  }

  /// Writes a Boolean value.
  package mutating func bool(_ value: Bool) {
    separate()
    output += value ? "true" : "false"
  }

  /// Writes `null`.
  package mutating func null() {
    raw("null")
  }

  /// Writes `text`, which must be one JSON value (for extensions that add value kinds).
  package mutating func raw(_ text: String) {
    separate()
    output += text
  }

  /// A JSON string literal for `text`.
  package static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
