/// A type of the policy language.
public enum PolicyType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `true` or `false`.
  case bool
  /// A 64-bit signed integer; overflow is a fault.
  case int
  /// A decimal with six fractional digits (``Number``).
  case number
  /// A length of time (``TimeSpan``); literals such as `30d`.
  case duration
  /// A point in time (``Timestamp``).
  case instant
  /// An app version (``Version``); literals such as `v2.1`.
  case version
  /// Text.
  case string

  /// The type's name as written in policies.
  public var description: String { rawValue }

  /// Whether values of this type have an order (`<`, `>=`, `min`, `max`).
  var isOrdered: Bool {
    switch self {
    case .int, .number, .duration, .instant, .version: true
    case .bool, .string: false
    }
  }
}

/// A value of the policy language.
public enum Value: Sendable, Hashable, CustomStringConvertible {
  /// A `bool`.
  case bool(Bool)
  /// An `int`.
  case int(Int64)
  /// A `number`.
  case number(Number)
  /// A `duration`.
  case duration(TimeSpan)
  /// An `instant`.
  case instant(Timestamp)
  /// A `version`.
  case version(Version)
  /// A `string`.
  case string(String)

  /// The value's type.
  public var type: PolicyType {
    switch self {
    case .bool: .bool
    case .int: .int
    case .number: .number
    case .duration: .duration
    case .instant: .instant
    case .version: .version
    case .string: .string
    }
  }

  /// Whether the value is an int or duration at or below zero (keys must be positive).
  var isNotPositive: Bool {
    switch self {
    case .int(let integer): integer <= 0
    case .duration(let span): span.milliseconds <= 0
    default: false
    }
  }

  /// The 64-bit word that stores a one-word value, as the evaluator keeps it: `bool` as 0 or
  /// 1, `int` itself, `number` scaled, `duration` and `instant` in milliseconds; nil for
  /// versions (two words) and strings (interned per policy).
  package var storageWord: Int64? {
    switch self {
    case .bool(let flag): flag ? 1 : 0
    case .int(let integer): integer
    case .number(let number): number.scaled
    case .duration(let span): span.milliseconds
    case .instant(let instant): instant.millisecondsSince1970
    case .version, .string: nil
    }
  }

  /// The value of `type` stored as `word` (see ``storageWord``); nil for versions and strings.
  package init?(storageWord word: Int64, type: PolicyType) {
    switch type {
    case .int: self = .int(word)
    case .number: self = .number(Number(scaled: word))
    case .duration: self = .duration(TimeSpan(milliseconds: word))
    case .instant: self = .instant(Timestamp(millisecondsSince1970: word))
    case .bool: self = .bool(word != 0)
    case .version, .string: return nil
    }
  }

  /// How this value compares with `other`, a value of the same type: -1, 0 or 1, as the
  /// language's comparisons order them (`false` before `true`). Strings are unordered: equal
  /// gives 0, different gives 1.
  package func ordering(comparedWith other: Value) -> Int {
    switch (self, other) {
    case (.version(let l), .version(let r)): return l < r ? -1 : (l == r ? 0 : 1)
    case (.string(let l), .string(let r)): return l == r ? 0 : 1
    default:
      let l = storageWord ?? 0
      let r = other.storageWord ?? 0
      return l < r ? -1 : (l == r ? 0 : 1)
    }
  }

  /// The value for display, close to how it is written in a policy: `30d`, `1d 2h`,
  /// `v2.1`, `"free"`; instants are ISO-8601 text and the infinite duration is `infinite`.
  public var description: String {
    switch self {
    case .bool(let value): String(value)
    case .int(let value): String(value)
    case .number(let value): value.description
    case .duration(let value): value.description
    case .instant(let value): value.description
    case .version(let value): "v" + value.description
    case .string(let value): StringLiteral.quoted(value)
    }
  }
}

/// Quoting and unquoting of string literals.
package enum StringLiteral {
  /// The literal for `text`, with `"` and `\` escaped and line breaks and tabs as escapes.
  package static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The text of a lexed string literal (quotes included), with escapes resolved.
  static func unquoted(_ bytes: ArraySlice<UInt8>) -> String {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = bytes.startIndex + 1
    let end = bytes.endIndex - 1
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\") && index + 1 < end {
        switch bytes[index + 1] {
        case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): result.append(UInt8(ascii: "\t"))
        default: result.append(bytes[index + 1])
        }
        index += 2
      } else {
        result.append(byte)
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
