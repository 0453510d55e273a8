/// The kind of a ``Token``.
public enum TokenKind: UInt8, Sendable, Hashable, CaseIterable {
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
  public static func keyword(_ text: Substring.UTF8View) -> TokenKind? {
    switch String(decoding: text, as: UTF8.self) {
    case "ask": .askKeyword
    case "never": .neverKeyword
    case "when": .whenKeyword
    case "let": .letKeyword
    case "fact": .factKeyword
    case "and": .andKeyword
    case "or": .orKeyword
    case "not": .notKeyword
    case "in": .inKeyword
    case "has": .hasKeyword
    case "true": .trueKeyword
    case "false": .falseKeyword
    default: nil
    }
  }

  /// Every keyword, as written.
  public static let keywords: [String] = [
    "and", "ask", "fact", "false", "has", "in", "let", "never", "not", "or", "true", "when",
  ]

  /// Whether the token is a keyword.
  public var isKeyword: Bool {
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
  public var startsDeclaration: Bool {
    self == .factKeyword || self == .letKeyword || self == .askKeyword || self == .neverKeyword
  }
}

/// One token: a kind and the bytes it covers. The text is a slice of the source.
public struct Token: Sendable, Hashable {
  /// What the token is.
  public var kind: TokenKind
  /// Where the token is.
  public var range: SourceRange

  /// Creates a token.
  public init(kind: TokenKind, range: SourceRange) {
    self.kind = kind
    self.range = range
  }
}

/// A `#` comment, kept beside the tokens for the formatter.
public struct Comment: Sendable, Hashable {
  /// The bytes of the comment, from `#` to the end of the line (line break excluded).
  public var range: SourceRange
  /// Whether code precedes the comment on its line.
  public var isTrailing: Bool

  /// Creates a comment.
  public init(range: SourceRange, isTrailing: Bool) {
    self.range = range
    self.isTrailing = isTrailing
  }
}
