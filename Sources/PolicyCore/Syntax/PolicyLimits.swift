/// The limits one compilation enforces: sizes and counts, each checked before the work it guards
/// (the size before lexing, counts as the parser goes) and each reported with its own located
/// error.
///
/// ``file`` holds the limits of a policy file (``Limits``), which `policyc` checks. A host that
/// compiles text it does not control can pass tighter ones, which also cap the counts the file
/// limits leave to ``maximumDeclarations`` alone: rules, `let`s, declared facts, declared event
/// names and expression nodes. A value: pass it to ``PolicyCompiler/compile(_:schema:limits:)``.
public struct PolicyLimits: Sendable, Hashable {
  /// What the text is called in messages: "file" (`file is 3000000 bytes`), "update", ...
  public var subject: String
  /// The largest text, in bytes (`PC100`).
  public var maximumSize: Int
  /// The deepest expression nesting; an `and`/`or` chain counts as one level (`PC113`).
  public var maximumNestingDepth: Int
  /// The longest identifier, in bytes (`PC114`).
  public var maximumIdentifierLength: Int
  /// The longest string literal, in bytes after escapes are resolved (`PC115`).
  public var maximumStringLength: Int
  /// The most declarations, `fact`, `let`, `event` and rules together (`PC116`).
  public var maximumDeclarations: Int
  /// The most elements in one list literal (`PC117`).
  public var maximumListLength: Int
  /// The most rules, `ask` and `never` together (`PC122`).
  public var maximumRules: Int
  /// The most `let` definitions (`PC123`).
  public var maximumLets: Int
  /// The most `fact` declarations (`PC124`).
  public var maximumFactDeclarations: Int
  /// The most event names declared with `event`, all declarations together (`PC125`).
  public var maximumEventDeclarations: Int
  /// The most expression nodes (names, literals, operators, calls...) in all declarations
  /// together (`PC126`).
  public var maximumExpressionNodes: Int

  /// Creates limits; the counts not given are bounded by `maximumDeclarations` alone.
  public init(
    subject: String, maximumSize: Int, maximumNestingDepth: Int, maximumIdentifierLength: Int,
    maximumStringLength: Int, maximumDeclarations: Int, maximumListLength: Int, maximumRules: Int = .max,
    maximumLets: Int = .max, maximumFactDeclarations: Int = .max, maximumEventDeclarations: Int = .max,
    maximumExpressionNodes: Int = .max
  ) {
    self.subject = subject
    self.maximumSize = maximumSize
    self.maximumNestingDepth = maximumNestingDepth
    self.maximumIdentifierLength = maximumIdentifierLength
    self.maximumStringLength = maximumStringLength
    self.maximumDeclarations = maximumDeclarations
    self.maximumListLength = maximumListLength
    self.maximumRules = maximumRules
    self.maximumLets = maximumLets
    self.maximumFactDeclarations = maximumFactDeclarations
    self.maximumEventDeclarations = maximumEventDeclarations
    self.maximumExpressionNodes = maximumExpressionNodes
  }

  /// The limits of a policy file, those of ``Limits`` (Grammar.md, "Limits").
  public static let file = PolicyLimits(
    subject: "file", maximumSize: Limits.maximumFileSize, maximumNestingDepth: Limits.maximumNestingDepth,
    maximumIdentifierLength: Limits.maximumIdentifierLength, maximumStringLength: Limits.maximumStringLength,
    maximumDeclarations: Limits.maximumDeclarations, maximumListLength: Limits.maximumListLength)

  /// A size in bytes as people read it: `2 MiB`, `64 KiB`, `1000 bytes`.
  static func describe(bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}
