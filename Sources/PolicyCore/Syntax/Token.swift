/// The kind of a ``Token``.
package enum TokenKind: UInt8, Sendable, Hashable, CaseIterable {
  /// A name: ASCII letter or `_`, then letters, digits or `_`.
  case identifier
  /// An integer literal such as `30`.
  case integer
  /// A number literal with a fractional part such as `7.5`.
  case number
  /// A duration literal such as `30d`.
  case duration
  /// A version literal such as `v2.1` or `2.1.3`.
  case version
  /// A string literal such as `"purchase"`.
  case string

  /// The keyword `ask`.
  case askKeyword
  /// The keyword `never`.
  case neverKeyword
  /// The keyword `when`.
  case whenKeyword
  /// The keyword `let`.
  case letKeyword
  /// The keyword `fact`.
  case factKeyword
  /// The keyword `and`.
  case andKeyword
  /// The keyword `or`.
  case orKeyword
  /// The keyword `not`.
  case notKeyword
  /// The keyword `in`.
  case inKeyword
  /// The keyword `has`.
  case hasKeyword
  /// The keyword `true`.
  case trueKeyword
  /// The keyword `false`.
  case falseKeyword

  /// `(`
  case leftParen
  /// `)`
  case rightParen
  /// `[`
  case leftBracket
  /// `]`
  case rightBracket
  /// `,`
  case comma
  /// `:`
  case colon
  /// `?`
  case questionMark
  /// `=`
  case assign
  /// `==`
  case equal
  /// `!=`
  case notEqual
  /// `<`
  case less
  /// `<=`
  case lessEqual
  /// `>`
  case greater
  /// `>=`
  case greaterEqual
  /// `+`
  case plus
  /// `-`
  case minus
  /// `*`
  case star
  /// `/`
  case slash
  /// `%`
  case percent
  /// `??`
  case coalesce

  /// Text the lexer could not turn into a token; a diagnostic was reported for it.
  case invalid
  /// The end of the file.
  case endOfFile

  /// The keyword spelled `text`, if `text` is a keyword.
  static func keyword(_ text: Substring.UTF8View) -> TokenKind? {
    keyword(bytes: text)
  }

  /// The keyword spelled by `bytes`, or nil: compares the word packed into one integer, with
  /// no string built (the lexer calls this for every word).
  static func keyword<Bytes: Collection<UInt8>>(bytes: Bytes) -> TokenKind? {
    var packed: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      // Every keyword has at most 5 letters, and none has a zero byte (which would pack to nothing).
      guard shift < 40, byte != 0 else { return nil }
      packed |= UInt64(byte) << shift
      shift += 8
    }
    switch packed {
    case Packed.ask: return .askKeyword
    case Packed.never: return .neverKeyword
    case Packed.when: return .whenKeyword
    case Packed.let: return .letKeyword
    case Packed.fact: return .factKeyword
    case Packed.and: return .andKeyword
    case Packed.or: return .orKeyword
    case Packed.not: return .notKeyword
    case Packed.in: return .inKeyword
    case Packed.has: return .hasKeyword
    case Packed.true: return .trueKeyword
    case Packed.false: return .falseKeyword
    default: return nil
    }
  }

  /// Keywords packed little-endian into integers, as ``keyword(bytes:)`` packs words
  /// (`ask` is 0x6b_7361: `a` in the low byte).
  private enum Packed {
    static let ask: UInt64 = 0x6b_7361  // "ask"
    static let never: UInt64 = 0x72_6576_656e  // "never"
    static let when: UInt64 = 0x6e65_6877  // "when"
    static let `let`: UInt64 = 0x74_656c  // "let"
    static let fact: UInt64 = 0x7463_6166  // "fact"
    static let and: UInt64 = 0x64_6e61  // "and"
    static let or: UInt64 = 0x726f  // "or"
    static let not: UInt64 = 0x74_6f6e  // "not"
    static let `in`: UInt64 = 0x6e69  // "in"
    static let has: UInt64 = 0x73_6168  // "has"
    static let `true`: UInt64 = 0x6575_7274  // "true"
    static let `false`: UInt64 = 0x65_736c_6166  // "false"
  }

  /// Every keyword, as written.
  package static let keywords: [String] = [
    "and", "ask", "fact", "false", "has", "in", "let", "never", "not", "or", "true", "when",
  ]

  /// Whether the token is a keyword.
  var isKeyword: Bool {
    switch self {
    case .askKeyword, .neverKeyword, .whenKeyword, .letKeyword, .factKeyword, .andKeyword,
      .orKeyword, .notKeyword, .inKeyword, .hasKeyword, .trueKeyword, .falseKeyword:
      true
    case .identifier, .integer, .number, .duration, .version, .string, .leftParen, .rightParen,
      .leftBracket, .rightBracket, .comma, .colon, .questionMark, .assign, .equal, .notEqual,
      .less, .lessEqual, .greater, .greaterEqual, .plus, .minus, .star, .slash, .percent,
      .coalesce, .invalid, .endOfFile:
      false
    }
  }

  /// Whether the token starts a declaration (`fact`, `let`, `ask`, `never`).
  var startsDeclaration: Bool {
    self == .factKeyword || self == .letKeyword || self == .askKeyword || self == .neverKeyword
  }
}

/// One token: a kind and the bytes it covers. The text is a slice of the source.
struct Token: Sendable, Equatable {
  /// What the token is.
  var kind: TokenKind
  /// Where the token is.
  var range: SourceRange
}

/// A `#` comment, kept beside the tokens for the formatter.
package struct Comment: Sendable, Equatable {
  /// The bytes of the comment, from `#` to the end of the line (line break excluded).
  package var range: SourceRange
  /// Whether code precedes the comment on its line.
  package var isTrailing: Bool
}
