extension Parser {
  /// Parses an expression.
  ///
  /// `expression = or_expression ;`
  mutating func parseExpression() -> Expr {
    parseOr()
  }

  /// Parses a chain of `or`, kept flat.
  ///
  /// `or_expression = and_expression { "or" and_expression } ;`
  mutating func parseOr() -> Expr {
    let first = parseAnd()
    guard at(.orKeyword) else { return first }
    var operands = [first]
    while eat(.orKeyword) != nil {
      operands.append(parseAnd())
    }
    return node(.logical(.or, operands), first.range.union(operands[operands.count - 1].range))
  }

  /// Parses a chain of `and`, kept flat.
  ///
  /// `and_expression = not_expression { "and" not_expression } ;`
  mutating func parseAnd() -> Expr {
    let first = parseNot()
    guard at(.andKeyword) else { return first }
    var operands = [first]
    while eat(.andKeyword) != nil {
      operands.append(parseNot())
    }
    return node(.logical(.and, operands), first.range.union(operands[operands.count - 1].range))
  }

  /// Parses prefix `not`, by a loop rather than recursion.
  ///
  /// `not_expression = { "not" } comparison ;`
  mutating func parseNot() -> Expr {
    var starts: [Int] = []
    while at(.notKeyword) && peek().kind != .inKeyword {
      starts.append(advance().range.start)
      if starts.count > limits.maximumNestingDepth {
        report(ParserMessages.nestingTooDeep(at: tokens[index - 1].range, limit: limits.maximumNestingDepth))
        return Expr(.error, range: tokens[index - 1].range)
      }
    }
    var result = parseComparison()
    for start in starts.reversed() {
      result = node(.unary(.not, result), SourceRange(start: start, end: result.range.end))
    }
    return result
  }

  /// Parses one comparison or membership test; comparisons do not chain.
  ///
  /// `comparison = coalescing [ comparison_operator coalescing | [ "not" ] "in" coalescing ] ;`
  /// `comparison_operator = "==" | "!=" | "<" | "<=" | ">" | ">=" ;`
  mutating func parseComparison() -> Expr {
    let lhs = parseCoalescing()
    let op: BinaryOperator
    if let comparison = comparisonOperator(current.kind) {
      advance()
      op = comparison
    } else if at(.inKeyword) {
      advance()
      op = .in
    } else if at(.notKeyword) && peek().kind == .inKeyword {
      advance()
      advance()
      op = .notIn
    } else {
      return lhs
    }
    let rhs = parseCoalescing()
    let result = node(.binary(op, lhs, rhs), lhs.range.union(rhs.range))
    if comparisonOperator(current.kind) != nil || at(.inKeyword) {
      let middle = source.text(in: rhs.range)
      let chain = source.text(in: SourceRange(start: lhs.range.start, end: current.range.end))
      report(
        ParserMessages.chainedComparison(
          chain, operator: op, middle: middle, next: text(of: current), at: current.range))
    }
    return result
  }

  func comparisonOperator(_ kind: TokenKind) -> BinaryOperator? {
    switch kind {
    case .equal: .equal
    case .notEqual: .notEqual
    case .less: .less
    case .lessEqual: .lessEqual
    case .greater: .greater
    case .greaterEqual: .greaterEqual
    default: nil
    }
  }

  /// Parses `??`, which groups to the right: `a ?? b ?? c` is `a ?? (b ?? c)`.
  ///
  /// `coalescing = additive { "??" additive } ;`
  mutating func parseCoalescing() -> Expr {
    let first = parseAdditive()
    guard at(.coalesce) else { return first }
    var operands = [first]
    while eat(.coalesce) != nil {
      operands.append(parseAdditive())
    }
    var result = operands[operands.count - 1]
    for lhs in operands.dropLast().reversed() {
      result = node(.binary(.coalesce, lhs, result), lhs.range.union(result.range))
    }
    return result
  }

  /// Parses `+` and `-`, grouping to the left.
  ///
  /// `additive = multiplicative { ( "+" | "-" ) multiplicative } ;`
  mutating func parseAdditive() -> Expr {
    var result = parseMultiplicative()
    while at(.plus) || at(.minus) {
      let op: BinaryOperator = advance().kind == .plus ? .add : .subtract
      let rhs = parseMultiplicative()
      result = node(.binary(op, result, rhs), result.range.union(rhs.range))
    }
    return result
  }

  /// Parses `*`, `/` and `%`, grouping to the left.
  ///
  /// `multiplicative = unary { ( "*" | "/" | "%" ) unary } ;`
  mutating func parseMultiplicative() -> Expr {
    var result = parseUnary()
    while at(.star) || at(.slash) || at(.percent) {
      let kind = advance().kind
      let op: BinaryOperator = kind == .star ? .multiply : (kind == .slash ? .divide : .remainder)
      let rhs = parseUnary()
      result = node(.binary(op, result, rhs), result.range.union(rhs.range))
    }
    return result
  }

  /// Parses prefix `-`, by a loop rather than recursion.
  ///
  /// `unary = { "-" } primary ;`
  mutating func parseUnary() -> Expr {
    var starts: [Int] = []
    while at(.minus) {
      starts.append(advance().range.start)
      if starts.count > limits.maximumNestingDepth {
        report(ParserMessages.nestingTooDeep(at: tokens[index - 1].range, limit: limits.maximumNestingDepth))
        return Expr(.error, range: tokens[index - 1].range)
      }
    }
    // `-9223372036854775808` is the one integer whose magnitude alone does not fit. Zero is not
    // folded: a folded `-0` would be the literal `0`, so `--0` (negate that literal) would print
    // as `-0` and reparse as the literal alone, a different tree (found by the pipeline fuzzer).
    var result: Expr
    if let start = starts.last, at(.integer),
      !source.bytes[current.range.start..<current.range.end].allSatisfy({ $0 == UInt8(ascii: "0") })
    {
      result = integerLiteral(advance(), negatedFrom: start)
      starts.removeLast()
    } else {
      result = parsePrimary()
    }
    for start in starts.reversed() {
      result = node(.unary(.negate, result), SourceRange(start: start, end: result.range.end))
    }
    return result
  }

  /// Parses a literal, a name, a call, `has`, a list or a parenthesized expression.
  ///
  /// `primary = literal | identifier | call | "has" identifier | list | "(" expression ")" ;`
  /// `literal = integer | number | duration | version | string | "true" | "false" ;`
  mutating func parsePrimary() -> Expr {
    let token = current
    switch token.kind {
    case .integer:
      advance()
      return integerLiteral(token)
    case .number:
      advance()
      return numberLiteral(token)
    case .duration:
      advance()
      return durationLiteral(token)
    case .version:
      advance()
      return versionLiteral(token)
    case .string:
      advance()
      let value = StringLiteral.unquoted(source.bytes[token.range.start..<token.range.end])
      return Expr(.literal(.string(value)), range: token.range)
    case .trueKeyword, .falseKeyword:
      advance()
      return Expr(.literal(.bool(token.kind == .trueKeyword)), range: token.range)
    case .identifier:
      advance()
      let name = Identifier(text(of: token), range: token.range)
      if at(.leftParen) { return parseCall(name) }
      return Expr(.name(name), range: token.range)
    case .hasKeyword:
      advance()
      let name = parseName(after: "has")
      return Expr(.has(name), range: SourceRange(start: token.range.start, end: previousEnd))
    case .leftBracket:
      return parseList()
    case .leftParen:
      return parseParenthesized()
    default:
      reportExpectedExpression()
      return Expr(.error, range: .empty(at: token.range.start))
    }
  }

  /// Parses a call's arguments.
  ///
  /// `call = identifier "(" [ expression { "," expression } [ "," ] ] ")" ;`
  mutating func parseCall(_ name: Identifier) -> Expr {
    let open = advance()
    let arguments = parseSequence(open: open, close: .rightParen)
    return node(.call(name, arguments), SourceRange(start: name.range.start, end: previousEnd))
  }

  /// Parses a list literal.
  ///
  /// `list = "[" [ expression { "," expression } [ "," ] ] "]" ;`
  mutating func parseList() -> Expr {
    let open = advance()
    let elements = parseSequence(open: open, close: .rightBracket)
    return node(.list(elements), SourceRange(start: open.range.start, end: previousEnd))
  }

  /// Parses a parenthesized expression.
  ///
  /// `"(" expression ")"`
  mutating func parseParenthesized() -> Expr {
    let open = advance()
    guard enterNesting(at: open) else { return Expr(.error, range: open.range) }
    let inner = parseExpression()
    nesting -= 1
    expectClosing(.rightParen, opener: open)
    return node(.parenthesized(inner), SourceRange(start: open.range.start, end: previousEnd))
  }

  /// Parses comma-separated expressions up to `close`, which it consumes.
  mutating func parseSequence(open: Token, close: TokenKind) -> [Expr] {
    guard enterNesting(at: open) else { return [] }
    defer { nesting -= 1 }
    var elements: [Expr] = []
    while !at(close) && !at(.endOfFile) && !isPanicking {
      let start = index
      let element = parseExpression()
      if elements.count == limits.maximumListLength {
        report(ParserMessages.listTooLong(at: element.range, limit: limits.maximumListLength))
      } else {
        elements.append(element)
      }
      if eat(.comma) == nil { break }
      if index == start { break }
    }
    expectClosing(close, opener: open)
    return elements
  }

  /// Counts one more level of parentheses, reporting `PC113` past the limit.
  mutating func enterNesting(at open: Token) -> Bool {
    guard nesting < limits.maximumNestingDepth else {
      report(ParserMessages.nestingTooDeep(at: open.range, limit: limits.maximumNestingDepth))
      return false
    }
    nesting += 1
    return true
  }

  /// Consumes the closing `)` or `]`, or reports which opener it would close.
  ///
  /// When the line ends without the closer and the next declaration (or the end of the file)
  /// follows, the caret goes on the opener itself, with a note where the next declaration begins.
  mutating func expectClosing(_ kind: TokenKind, opener: Token) {
    if eat(kind) != nil { return }
    let insertion = SourceEdit.insert(kind == .rightParen ? ")" : "]", at: previousEnd)
    if let next = nextDeclarationAfterLineEnd() {
      report(
        ParserMessages.unclosedDelimiterAtOpener(
          kind, next: next.range, nextIsEndOfFile: next.kind == .endOfFile, fix: insertion, at: opener.range))
      return
    }
    report(
      ParserMessages.unclosedDelimiter(
        kind, openedOnLine: source.location(of: opener.range.start).line, found: describe(current), fix: insertion,
        at: at(.endOfFile) ? .empty(at: previousEnd) : current.range))
  }

  /// Reports that an expression was expected at the current token.
  ///
  /// An operator that ends its line, followed by the next declaration or the end of the file,
  /// is the mistake: the caret goes on it, with a note where the next declaration begins.
  mutating func reportExpectedExpression() {
    let token = current
    if index > 0, ParserMessages.danglingOperatorKinds.contains(tokens[index - 1].kind),
      let next = nextDeclarationAfterLineEnd()
    {
      let operatorToken = tokens[index - 1]
      report(
        ParserMessages.danglingOperator(
          operatorToken.kind, text: text(of: operatorToken), line: source.location(of: operatorToken.range.start).line,
          next: next.range, nextIsEndOfFile: next.kind == .endOfFile, at: operatorToken.range))
      return
    }
    report(
      ParserMessages.expectedExpression(
        found: token.kind, text: text(of: token),
        at: token.kind == .endOfFile ? .empty(at: previousEnd) : token.range))
  }

  /// The current token when it starts the next declaration (or ends the file) on a later line
  /// than the last token consumed: the sign that the previous line was left unfinished.
  func nextDeclarationAfterLineEnd() -> Token? {
    guard index > 0, at(.endOfFile) || current.kind.startsDeclaration else { return nil }
    if at(.endOfFile) { return current }
    let previousLine = source.lineIndex(of: tokens[index - 1].range.end)
    return source.lineIndex(of: current.range.start) > previousLine ? current : nil
  }

  // MARK: - Literals

  /// The literal of the digits `token`; `minus` is the offset of a `-` before it (spaces and
  /// comments may come between), which makes the literal negative and starts its range.
  mutating func integerLiteral(_ token: Token, negatedFrom minus: Int? = nil) -> Expr {
    let negated = minus != nil
    let range = SourceRange(start: minus ?? token.range.start, end: token.range.end)
    var magnitude: UInt64 = 0
    var overflow = false
    for byte in source.bytes[token.range.start..<token.range.end] {
      let (shifted, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (added, o2) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      if o1 || o2 { overflow = true; break }
      magnitude = added
    }
    let limit = negated ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
    if overflow || magnitude > limit {
      report(ParserMessages.integerTooLarge(source.text(in: range), digits: token.range.length, at: range))
      return Expr(.error, range: range)
    }
    let value: Int64 = negated ? (magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)) : Int64(magnitude)
    return Expr(.literal(.int(value)), range: range)
  }

  mutating func numberLiteral(_ token: Token) -> Expr {
    let written = text(of: token)
    guard let value = Number(parsing: written) else {
      report(ParserMessages.invalidNumber(written, at: token.range))
      return Expr(.error, range: token.range)
    }
    return Expr(.literal(.number(value)), range: token.range)
  }

  mutating func durationLiteral(_ token: Token) -> Expr {
    let written = text(of: token)
    let unit = written.utf8.last.flatMap(DurationUnit.init(byte:)) ?? .seconds
    var count: Int64 = 0
    var valid = true
    for byte in written.utf8.dropLast() {
      let (shifted, o1) = count.multipliedReportingOverflow(by: 10)
      let (added, o2) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
      if o1 || o2 { valid = false; break }
      count = added
    }
    guard valid, let span = TimeSpan(count, unit) else {
      report(ParserMessages.durationTooLong(written, at: token.range))
      return Expr(.error, range: token.range)
    }
    return Expr(.literal(.duration(span, unit)), range: token.range)
  }

  mutating func versionLiteral(_ token: Token) -> Expr {
    let written = text(of: token)
    switch Version.parse(written) {
    case .success(let version):
      return Expr(.literal(.version(version)), range: token.range)
    case .failure(let error):
      report(ParserMessages.invalidVersion(written, error, at: token.range))
      return Expr(.error, range: token.range)
    }
  }
}
