/// The result of parsing one file: the tree and the lexical and syntax diagnostics.
package struct ParsedPolicy: Sendable {
  /// The source that was parsed.
  package var source: SourceFile
  /// The syntax tree; parts that failed to parse are ``Expr/Kind/error`` nodes.
  package var file: PolicyFile
  /// Lexical and syntax diagnostics, in the order found.
  package var diagnostics: [Diagnostic]
  /// Whether the size or a count limit stopped the parse: the tree is partial and not checked.
  var exceededLimit = false
}

/// A recursive-descent parser for the policy grammar (see Grammar.md).
///
/// The parser never throws. On an error it reports one diagnostic, enters
/// panic mode (suppressing further reports) and skips to the next `fact`,
/// `let`, `ask` or `never`, so each broken declaration yields one error.
/// Recursion happens only through parentheses, calls and lists, and is capped
/// at ``PolicyLimits/maximumNestingDepth``; `and`/`or` chains and binary operator
/// chains are parsed by loops.
package struct Parser {
  let source: SourceFile
  var tokens: [Token]
  var index = 0
  var bag: DiagnosticBag
  var isPanicking = false
  /// How many parentheses, calls and lists enclose the current position.
  var nesting = 0
  /// The limits enforced.
  let limits: PolicyLimits
  /// Whether a limit on counts (``PolicyLimits/maximumRules`` and the like) stopped parsing.
  var stoppedAtLimit = false

  /// Parses `source` into a syntax tree and diagnostics, within `limits`.
  package static func parse(_ source: SourceFile, limits: PolicyLimits = .file) -> ParsedPolicy {
    var bag = DiagnosticBag()
    guard source.bytes.count <= limits.maximumSize else {
      bag.report(ParserMessages.fileTooLarge(size: source.bytes.count, limits: limits))
      return ParsedPolicy(
        source: source, file: PolicyFile(declarations: [], comments: []), diagnostics: bag.diagnostics,
        exceededLimit: true)
    }
    var lexer = Lexer(source: source, limits: limits)
    lexer.lex(into: &bag)
    var parser = Parser(source: source, tokens: lexer.tokens, bag: bag, limits: limits)
    let declarations = parser.parsePolicy()
    return ParsedPolicy(
      source: source, file: PolicyFile(declarations: declarations, comments: lexer.comments),
      diagnostics: parser.bag.diagnostics, exceededLimit: parser.stoppedAtLimit)
  }

  init(source: SourceFile, tokens: [Token], bag: DiagnosticBag, limits: PolicyLimits = .file) {
    self.source = source
    self.tokens = tokens
    self.bag = bag
    self.limits = limits
  }

  // MARK: - Token helpers

  /// The current token.
  var current: Token { tokens[index] }

  /// The token `offset` places ahead, or the end-of-file token.
  func peek(_ offset: Int = 1) -> Token {
    tokens[min(index + offset, tokens.count - 1)]
  }

  /// Whether the current token is of `kind`.
  func at(_ kind: TokenKind) -> Bool { current.kind == kind }

  /// Consumes and returns the current token (the end-of-file token is never consumed).
  @discardableResult
  mutating func advance() -> Token {
    let token = current
    if token.kind != .endOfFile { index += 1 }
    return token
  }

  /// Consumes the current token if it is of `kind`.
  mutating func eat(_ kind: TokenKind) -> Token? {
    at(kind) ? advance() : nil
  }

  /// The end offset of the last consumed token.
  var previousEnd: Int { index > 0 ? tokens[index - 1].range.end : 0 }

  /// The source text of `token`.
  func text(of token: Token) -> String { source.text(in: token.range) }

  /// How a token is named in messages: "`)`", "keyword `when`", "the end of the file".
  func describe(_ token: Token) -> String {
    ParserMessages.describe(token.kind, text: text(of: token))
  }

  // MARK: - Errors and recovery

  /// Reports `diagnostic` unless already panicking, then panics.
  ///
  /// A token the lexer already rejected gets no second report.
  mutating func report(_ diagnostic: Diagnostic) {
    if !isPanicking && current.kind != .invalid {
      bag.report(diagnostic)
    }
    isPanicking = true
  }

  /// Skips to the next token that starts a declaration, then leaves panic mode.
  mutating func synchronize() {
    while !at(.endOfFile) && !current.kind.startsDeclaration && !atEventDeclaration {
      advance()
    }
    isPanicking = false
  }

  /// Builds a node, reporting `PC113` when it nests deeper than the limit.
  mutating func node(_ kind: Expr.Kind, _ range: SourceRange) -> Expr {
    let expression = Expr(kind, range: range)
    if expression.depth > limits.maximumNestingDepth {
      report(ParserMessages.nestingTooDeep(at: range, limit: limits.maximumNestingDepth))
      return Expr(.error, range: range)
    }
    return expression
  }
}
