import PolicyCore

/// A JSON value the language server sends: built in memory, written by ``JSONWriter``.
///
/// Incoming messages are read with ``JSONParser`` into ``JSONNode``s; ``JSONNode`` gets small
/// accessors below for the fields the server reads.
package indirect enum LSPValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer.
  case int(Int)
  /// A string.
  case string(String)
  /// A number or other JSON written as is (a request id echoed back).
  case raw(String)
  /// An array.
  case array([LSPValue])
  /// An object, members in order.
  case object([(String, LSPValue)])

  /// The JSON text.
  package var json: String {
    var writer = JSONWriter()
    write(to: &writer)
    return writer.output
  }

  /// Writes the value to `writer`.
  package func write(to writer: inout JSONWriter) {
    switch self {
    case .null: writer.null()
    case .bool(let value): writer.bool(value)
    case .int(let value): writer.number(value)
    case .string(let value): writer.string(value)
    case .raw(let text): writer.raw(text)
    case .array(let elements): writer.array { for element in elements { element.write(to: &$0) } }
    case .object(let members):
      writer.object {
        for (key, value) in members {
          $0.key(key)
          value.write(to: &$0)
        }
      }
    }
  }

  /// Compares values member by member, keys in order.
  package static func == (lhs: LSPValue, rhs: LSPValue) -> Bool { lhs.json == rhs.json }

  /// Hashes the JSON text.
  package func hash(into hasher: inout Hasher) { hasher.combine(json) }
}

extension JSONNode {
  /// The value of member `key` of this object, if any.
  package subscript(_ key: String) -> JSONNode? { member(key)?.value }

  /// The string, if this is one.
  package var stringValue: String? {
    guard case .string(let text) = value else { return nil }
    return text
  }

  /// The integer, if this is a number without fraction or exponent that fits an `Int`.
  package var intValue: Int? {
    guard case .number(let text) = value else { return nil }
    return Int(text)
  }

  /// The boolean, if this is one.
  package var boolValue: Bool? {
    guard case .bool(let flag) = value else { return nil }
    return flag
  }

  /// The elements, if this is an array.
  package var arrayValue: [JSONNode]? {
    guard case .array(let elements) = value else { return nil }
    return elements
  }

  /// The value as JSON text to send back (an id): numbers as written, strings quoted, else nil.
  var idText: String? {
    switch value {
    case .number(let text): text
    case .string(let text): JSONWriter.quoted(text)
    case .null, .bool, .array, .object: nil
    }
  }
}
