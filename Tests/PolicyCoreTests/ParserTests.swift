import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// The syntax tree of a whole file as S-expressions, one declaration a line; requires no diagnostics.
private func tree(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
  let parsed = parse(text)
  #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics.map(\.message))", sourceLocation: sourceLocation)
  return Sexp.dump(parsed.file)
}

/// The diagnostic codes of parsing `text`.
private func parseCodes(_ text: String) -> [DiagnosticCode] {
  parse(text).diagnostics.map(\.code)
}

private func onlyDiagnostic(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
  -> Diagnostic
{
  let diagnostics = parse(text).diagnostics
  #expect(
    diagnostics.count == 1, "\(diagnostics.map { "\($0.code.rawValue) \($0.message)" })", sourceLocation: sourceLocation
  )
  return try #require(diagnostics.first, sourceLocation: sourceLocation)
}

@Suite("Parser: declarations")
struct ParserDeclarationTests {
  @Test("policy = { declaration } EOF ;  (parsePolicy)")
  func policy() throws {
    #expect(parse("").file.declarations.isEmpty)
    #expect(parse("  # only a comment\n").file.declarations.isEmpty)
    #expect(parse("  # only a comment\n").file.comments.count == 1)
    // Newlines have no meaning: a declaration ends where the next begins.
    #expect(
      tree("fact plan: string let x = 1 never when declined ask when x > 0") == """
        (fact plan string)
        (let x 1)
        (never declined)
        (ask (> x 0))
        """)
    #expect(tree("ask when days\n  >= 30\nnever when\n rated") == "(ask (>= days 30))\n(never rated)")
  }

  @Test("policy: after an error the parser skips to the next declaration, one error per broken declaration")
  func recovery() {
    let parsed = parse("ask when days >= \nlet x = = 3\nnever when rated\nask when (uses > 2")
    #expect(parsed.diagnostics.map(\.code) == [.expectedExpression, .expectedExpression, .unclosedDelimiter])
    #expect(parsed.file.declarations.count == 4)
    #expect(Sexp.dump(parsed.file.declarations[2]) == "(never rated)")
  }

  @Test(
    "policy: text after a complete declaration is PC111 with advice",
    arguments: [
      ("days >= 30 uses >= 20", "join conditions with `and` or `or`; start a new rule with `ask` or `never`"),
      ("days >= 30 AND uses >= 20", "keywords are lowercase: write `and`"),
      ("days >= 30)", "remove the `)` or add the `(` it closes"),
      ("ask when days = 3", "`=` only defines a `let`; write `==` to test whether two values are equal"),
      ("let x = 3 when x", "a rule starts with `ask` or `never`: `ask when <condition>`"),
    ])
  func trailingText(text: String, help: String) throws {
    let diagnostic = try onlyDiagnostic(text)
    #expect(diagnostic.code == .unexpectedToken)
    #expect(diagnostic.help == [help])
  }

  @Test("policy: an uppercase `NOT` read as a name is explained")
  func uppercaseNot() throws {
    let diagnostic = try onlyDiagnostic("NOT declined")
    #expect(diagnostic.code == .unexpectedToken)
    #expect(diagnostic.message == "unexpected `declined` after `NOT`")
    #expect(diagnostic.help == ["keywords are lowercase: write `not declined`"])
    #expect(diagnostic.range == SourceRange(start: 0, end: 12))
  }

  @Test("declaration = fact_declaration | let_declaration | rule | bare_condition ;  (parseDeclaration)")
  func declaration() throws {
    let file = parse("fact a: int\nlet b = a\nask when b > 1\nnever when b < 0").file
    guard file.declarations.count == 4,
      case .fact = file.declarations[0], case .let = file.declarations[1],
      case .rule(let ask) = file.declarations[2], case .rule(let never) = file.declarations[3]
    else {
      Issue.record("unexpected declarations \(file.declarations)")
      return
    }
    #expect(ask.kind == .ask && !ask.isBare)
    #expect(never.kind == .never && !never.isBare)
    guard case .rule(let bare) = try #require(parse("days > 1").file.declarations.first) else {
      Issue.record("a bare condition is a rule")
      return
    }
    #expect(bare.isBare && bare.kind == .ask && bare.name == nil)
  }

  @Test("fact_declaration = \"fact\" identifier \":\" type_name [ \"?\" ] ;  (parseFactDeclaration)")
  func factDeclaration() throws {
    #expect(tree("fact plan: string fact trial_end: instant?") == "(fact plan string)\n(fact trial_end instant?)")
    let parsed = parse("fact trial_end: instant?")
    guard case .fact(let fact) = try #require(parsed.file.declarations.first) else {
      Issue.record("not a fact")
      return
    }
    #expect(fact.name.range == SourceRange(start: 5, end: 14))
    #expect(fact.typeRange == SourceRange(start: 16, end: 24))
    #expect(fact.range == SourceRange(start: 0, end: 24))
    #expect(fact.isOptional && fact.type == .instant)

    let missingColon = try onlyDiagnostic("fact plan string")
    #expect(missingColon.code == .expectedToken)
    #expect(missingColon.message == "expected `:` and a type after the fact name, found `string`")
    let keyword = try onlyDiagnostic("fact and: int")
    #expect(keyword.code == .expectedName)
    #expect(keyword.message == "`and` is a keyword and cannot be used as a name")
    #expect(keyword.range == SourceRange(start: 5, end: 8))
  }

  @Test(
    "type_name = \"bool\" | \"int\" | \"number\" | \"duration\" | \"instant\" | \"version\" | \"string\" ;  (parseTypeName)"
  )
  func typeName() throws {
    for type in PolicyType.allCases {
      #expect(tree("fact x: \(type.rawValue)") == "(fact x \(type.rawValue))")
    }
    let alias = try onlyDiagnostic("fact plan: text")
    #expect(alias.code == .unknownType)
    #expect(alias.message == "unknown type `text`")
    #expect(alias.help == ["did you mean `string`?"])
    #expect(alias.range == SourceRange(start: 11, end: 15))
    #expect(try onlyDiagnostic("fact n: integer").help == ["did you mean `int`?"])
    #expect(try onlyDiagnostic("fact n: strng").help == ["did you mean `string`?"])
    #expect(try onlyDiagnostic("fact n: 3").code == .expectedToken)
  }

  @Test("let_declaration = \"let\" identifier \"=\" expression ;  (parseLetDeclaration)")
  func letDeclaration() throws {
    #expect(tree("let engaged = days >= 14 and uses >= 10") == "(let engaged (and (>= days 14) (>= uses 10)))")
    let doubled = try onlyDiagnostic("let x == 3")
    #expect(doubled.code == .expectedToken)
    #expect(doubled.message == "expected `=` after `let x`, found `==`")
    #expect(doubled.help == ["a definition uses a single `=`: `let x = ...`"])
    #expect(try onlyDiagnostic("let and = 3").code == .expectedName)
    #expect(try onlyDiagnostic("let = 3").code == .expectedName)
  }

  @Test("rule = ( \"ask\" | \"never\" ) [ identifier ] \"when\" expression ;  (parseRule)")
  func rule() throws {
    #expect(tree("ask when rated never too_soon when declined") == "(ask rated)\n(never too_soon declined)")
    let parsed = parse("ask loyal when days >= 30")
    guard case .rule(let rule) = try #require(parsed.file.declarations.first) else {
      Issue.record("not a rule")
      return
    }
    #expect(rule.name?.name == "loyal")
    #expect(rule.name?.range == SourceRange(start: 4, end: 9))
    #expect(rule.condition.range == SourceRange(start: 15, end: 25))
    #expect(rule.range == SourceRange(start: 0, end: 25))

    let ifInsteadOfWhen = try onlyDiagnostic("ask if days > 3")
    #expect(ifInsteadOfWhen.code == .expectedToken)
    #expect(ifInsteadOfWhen.message == "expected `when` after `ask`, found `if`")
    #expect(ifInsteadOfWhen.help == ["write `ask when` instead of `ask if`"])
    let quoted = try onlyDiagnostic("never \"loyal\" when rated")
    #expect(quoted.help == ["rule names are identifiers such as `loyal_users`, without quotes"])
    #expect(try onlyDiagnostic("ask when").code == .expectedExpression)
  }

  @Test("bare_condition = expression ;  (parseBareCondition), only as the file's only rule")
  func bareCondition() throws {
    #expect(tree("fact plan: string\nplan == \"pro\"") == "(fact plan string)\n(bare (== plan \"pro\"))")
    #expect(tree("let x = 3\nfact y: int\ndays > x") == "(let x 3)\n(fact y int)\n(bare (> days x))")
    // After a `fact` or `let`, a bare condition must start on a new line.
    #expect(parseCodes("let x = days >= 30 uses >= 20") == [.unexpectedToken])
    let parsed = parse("days > 3\nask when rated")
    #expect(parsed.diagnostics.map(\.code) == [.bareConditionNotAlone])
    #expect(parsed.diagnostics.first?.range == SourceRange(start: 0, end: 8))
    #expect(parsed.diagnostics.first?.help == ["start it with `ask when` or `never when`"])
  }
}

@Suite("Parser: expressions")
struct ParserExpressionTests {
  @Test("expression = or_expression ;  (parseExpression)")
  func expression() throws {
    #expect(try sexp("declined") == "declined")
    #expect(try sexp("(declined)") == "(paren declined)")
  }

  @Test("or_expression = and_expression { \"or\" and_expression } ;  (parseOr), kept flat")
  func orExpression() throws {
    #expect(try sexp("a or b or c") == "(or a b c)")
    #expect(try sexp("a or (b or c)") == "(or a (paren (or b c)))")
    let expr = try parseExpression("a or b or c")
    #expect(expr.range == SourceRange(start: 0, end: 11))
    #expect(expr.depth == 2)
  }

  @Test("and_expression = not_expression { \"and\" not_expression } ;  (parseAnd), binds tighter than `or`")
  func andExpression() throws {
    #expect(try sexp("a and b and c") == "(and a b c)")
    #expect(try sexp("a and b or c and d") == "(or (and a b) (and c d))")
    #expect(try sexp("a or b and c or d") == "(or a (and b c) d)")
  }

  @Test("not_expression = { \"not\" } comparison ;  (parseNot), binds tighter than `and`")
  func notExpression() throws {
    #expect(try sexp("not a") == "(not a)")
    #expect(try sexp("not not a") == "(not (not a))")
    #expect(try sexp("not a and b") == "(and (not a) b)")
    #expect(try sexp("not uses > 3") == "(not (> uses 3))")
    #expect(try sexp("not x in [1]") == "(not (in x [1]))")
    let expr = try parseExpression("not not a")
    #expect(expr.range == SourceRange(start: 0, end: 9))
  }

  @Test(
    "comparison = coalescing [ comparison_operator coalescing | [ \"not\" ] \"in\" coalescing ] ;  (parseComparison)")
  func comparison() throws {
    for op in ["==", "!=", "<", "<=", ">", ">="] {
      #expect(try sexp("a \(op) b") == "(\(op) a b)")
    }
    #expect(try sexp("country in [\"US\", \"CA\"]") == "(in country [\"US\" \"CA\"])")
    #expect(try sexp("country not in [\"US\"]") == "(not in country [\"US\"])")
    #expect(try sexp("a + 1 >= b * 2") == "(>= (+ a 1) (* b 2))")
    let expr = try parseExpression("days >= 30")
    guard case .binary(_, let lhs, let rhs) = expr.kind else {
      Issue.record("not a binary node")
      return
    }
    #expect(lhs.range == SourceRange(start: 0, end: 4))
    #expect(rhs.range == SourceRange(start: 8, end: 10))
    #expect(expr.range == SourceRange(start: 0, end: 10))
  }

  @Test(
    "comparison: comparisons do not chain (PC118)",
    arguments: [
      ("1 < days < 5", "`1 < days <` chains two comparisons"), ("a == b == c", "`a == b ==` chains two comparisons"),
      ("a in [1] in [2]", "`a in [1] in` chains two comparisons"),
      ("a < b in [1]", "`a < b in` chains two comparisons"),
    ])
  func chainedComparison(text: String, message: String) throws {
    let diagnostic = try onlyDiagnostic(text)
    #expect(diagnostic.code == .chainedComparison)
    #expect(diagnostic.message == message)
  }

  @Test("comparison: the help of PC118 shows the two comparisons")
  func chainedComparisonHelp() throws {
    let diagnostic = try onlyDiagnostic("1 < days < 5")
    #expect(diagnostic.help == ["compare twice and join with `and`: `... < days and days < ...`"])
    #expect(diagnostic.range == SourceRange(start: 9, end: 10))
  }

  @Test("coalescing = additive { \"??\" additive } ;  (parseCoalescing), grouping to the right")
  func coalescing() throws {
    #expect(try sexp("a ?? b") == "(?? a b)")
    #expect(try sexp("a ?? b ?? c") == "(?? a (?? b c))")
    #expect(try sexp("x ?? 0 >= 3") == "(>= (?? x 0) 3)")
    #expect(try sexp("a ?? b + 1") == "(?? a (+ b 1))")
    let expr = try parseExpression("a ?? b ?? c")
    guard case .binary(.coalesce, _, let rhs) = expr.kind else {
      Issue.record("not a coalescing node")
      return
    }
    #expect(rhs.range == SourceRange(start: 5, end: 11))
    #expect(expr.range == SourceRange(start: 0, end: 11))
  }

  @Test("additive = multiplicative { ( \"+\" | \"-\" ) multiplicative } ;  (parseAdditive), grouping to the left")
  func additive() throws {
    #expect(try sexp("a + b") == "(+ a b)")
    #expect(try sexp("a - b + c") == "(+ (- a b) c)")
    #expect(try sexp("a - b - c") == "(- (- a b) c)")
    #expect(try sexp("a + b * c") == "(+ a (* b c))")
    #expect(try sexp("a - -1") == "(- a -1)")
  }

  @Test("multiplicative = unary { ( \"*\" | \"/\" | \"%\" ) unary } ;  (parseMultiplicative), grouping to the left")
  func multiplicative() throws {
    #expect(try sexp("a * b") == "(* a b)")
    #expect(try sexp("a / b * c % d") == "(% (* (/ a b) c) d)")
    #expect(try sexp("a * b + c * d") == "(+ (* a b) (* c d))")
  }

  @Test("unary = { \"-\" } primary ;  (parseUnary), binding tightest")
  func unary() throws {
    #expect(try sexp("-a") == "(neg a)")
    #expect(try sexp("- - a") == "(neg (neg a))")
    #expect(try sexp("-a * b") == "(* (neg a) b)")
    #expect(try sexp("-7.5") == "(neg num:7.5)")
    #expect(try sexp("-(a)") == "(neg (paren a))")
    // A minus directly before an integer literal is folded into the literal.
    #expect(try sexp("-5") == "-5")
    #expect(try sexp("--5") == "(neg -5)")
    let expr = try parseExpression("- - a")
    #expect(expr.range == SourceRange(start: 0, end: 5))
  }

  /// Fuzz/regressions/pipeline/minus-space-integer.policy: the digits were read from the `-`
  /// onwards, and the space between (byte 0x20 minus "0") trapped on UInt8 overflow.
  @Test("unary: a minus separated from its integer by spaces or a comment folds into the literal (fuzz regression)")
  func minusSpaceInteger() throws {
    #expect(try sexp("days > - 4") == "(> days -4)")
    #expect(try sexp("days > -  # four\n 4") == "(> days -4)")
    #expect(try sexp("days > - 9223372036854775808") == "(> days -9223372036854775808)")
    let expr = try parseExpression("- 4")
    #expect(expr.range == SourceRange(start: 0, end: 3))
    let tooLarge = try onlyDiagnostic("ask when days > - 9223372036854775809")
    #expect(tooLarge.code == .integerTooLarge)
    #expect(tooLarge.message == "integer `- 9223372036854775809` does not fit in 64 bits")
  }

  @Test(
    "unary: `-0` stays a negation of the literal 0, so `--0` prints and reparses as the same tree (pipeline fuzzer)")
  func negativeZero() throws {
    // Fuzz/regressions/pipeline/negated-negative-zero.policy: `a---0` formatted to `a - -0`,
    // which reparsed as `a - 0`; the formatter refused it as a change of meaning.
    #expect(try sexp("-0") == "(neg 0)")
    #expect(try sexp("days - --0") == "(- days (neg (neg 0)))")
    #expect(try sexp("days > -00") == "(> days (neg 0))")
    #expect(try sexp("days > -10") == "(> days -10)")
    let formatter = PolicyFormatter()
    for text in ["a---nuemrb--------0-s", "ask when days - ---0 > -0\n", "ask when uses > --0\n"] {
      let parsed = Parser.parse(SourceFile(path: "p.policy", text: text))
      guard case .success(let once) = formatter.format(parsed) else {
        // The fuzzer's input has unknown names: it parses without syntax errors, so it formats.
        Issue.record("\(text.debugDescription) did not format")
        continue
      }
      let reparsed = Parser.parse(SourceFile(path: "p.policy", text: once))
      #expect(SyntaxDump.dump(reparsed.file) == SyntaxDump.dump(parsed.file), "\(once)")
      #expect(formatter.format(reparsed) == .success(once))
    }
  }

  @Test("unary: -9223372036854775808 is the one integer whose magnitude alone does not fit")
  func minimumInteger() throws {
    let expr = try parseExpression("-9223372036854775808")
    guard case .literal(let literal) = expr.kind else {
      Issue.record("not a literal: \(expr.kind)")
      return
    }
    #expect(literal == .int(.min))
    #expect(expr.range == SourceRange(start: 0, end: 20))
    #expect(try sexp("days > -9223372036854775808") == "(> days -9223372036854775808)")
    #expect(try sexp("9223372036854775807") == "9223372036854775807")
    let tooLarge = try onlyDiagnostic("9223372036854775808")
    #expect(tooLarge.code == .integerTooLarge)
    #expect(tooLarge.message == "integer `9223372036854775808` does not fit in 64 bits")
    #expect(try onlyDiagnostic("-9223372036854775809").code == .integerTooLarge)
    #expect(try onlyDiagnostic(String(repeating: "9", count: 400)).code == .integerTooLarge)
  }

  @Test("primary = literal | identifier | call | \"has\" identifier | list | \"(\" expression \")\" ;  (parsePrimary)")
  func primary() throws {
    #expect(try sexp("days") == "days")
    #expect(try sexp("has last_prompt") == "(has last_prompt)")
    #expect(try sexp("since(last_prompt)") == "(call since last_prompt)")
    #expect(try sexp("[1]") == "[1]")
    #expect(try sexp("(1)") == "(paren 1)")
    let has = try parseExpression("has last_prompt")
    #expect(has.range == SourceRange(start: 0, end: 15))
    let missing = try onlyDiagnostic("ask when )")
    #expect(missing.code == .expectedExpression)
    #expect(missing.message == "expected an expression, found `)`")
    #expect(missing.help == ["put an expression inside the parentheses"])
    #expect(try onlyDiagnostic("ask when has 3").code == .expectedName)
  }

  @Test("literal = integer | number | duration | version | string | \"true\" | \"false\" ;  (parsePrimary)")
  func literal() throws {
    #expect(try sexp("30") == "30")
    #expect(try sexp("7.5") == "num:7.5")
    #expect(try sexp("45s") == "dur:45000ms/s")
    #expect(try sexp("90m") == "dur:5400000ms/m")
    #expect(try sexp("12h") == "dur:43200000ms/h")
    #expect(try sexp("30d") == "dur:2592000000ms/d")
    #expect(try sexp("8w") == "dur:4838400000ms/w")
    #expect(try sexp("v2.1") == "v2.1.0.0")
    #expect(try sexp("2.1.3") == "v2.1.3.0")
    #expect(try sexp("v1.2.3.4") == "v1.2.3.4")
    #expect(try sexp(#""a\"b\n""#) == #""a\"b\n""#)
    #expect(try sexp("true") == "true")
    #expect(try sexp("false") == "false")
    #expect(try onlyDiagnostic("0.1234567").code == .invalidNumber)
    #expect(try onlyDiagnostic("0.1234567").message == "number `0.1234567` has more than 6 decimal places")
    #expect(try onlyDiagnostic("99999999999999.5").message == "number `99999999999999.5` is too large")
    #expect(try onlyDiagnostic("99999999999999999999d").message == "duration `99999999999999999999d` is too long")
    #expect(try onlyDiagnostic("v1.2.3.4.5").message == "version `v1.2.3.4.5` has more than 4 parts")
    #expect(try onlyDiagnostic("v1.4294967296").message == "version `v1.4294967296` has a part larger than 4294967295")
  }

  @Test("call = identifier \"(\" [ expression { \",\" expression } [ \",\" ] ] \")\" ;  (parseCall)")
  func call() throws {
    #expect(try sexp("f()") == "(call f)")
    #expect(try sexp("min(a, b)") == "(call min a b)")
    #expect(try sexp("min(a, b,)") == "(call min a b)")
    #expect(try sexp("max(a + 1, min(b, c))") == "(call max (+ a 1) (call min b c))")
    #expect(try sexp("events(\"purchase\") >= 3") == "(>= (call events \"purchase\") 3)")
    let expr = try parseExpression("min(a, b)")
    #expect(expr.range == SourceRange(start: 0, end: 9))
    #expect(try onlyDiagnostic("min(a b)").code == .unclosedDelimiter)
    #expect(try onlyDiagnostic("min(a,,b)").code == .expectedExpression)
  }

  @Test("list = \"[\" [ expression { \",\" expression } [ \",\" ] ] \"]\" ;  (parseList)")
  func list() throws {
    #expect(try sexp("x in []") == "(in x [])")
    #expect(try sexp("x in [1, 2, 3]") == "(in x [1 2 3])")
    #expect(try sexp("x in [1, 2, 3,]") == "(in x [1 2 3])")
    #expect(try sexp("x in [-1, -2.5]") == "(in x [-1 (neg num:2.5)])")
    let expr = try parseExpression("x in [1, 2]")
    guard case .binary(.in, _, let list) = expr.kind else {
      Issue.record("not a membership node")
      return
    }
    #expect(list.range == SourceRange(start: 5, end: 11))
    let unclosed = try onlyDiagnostic("ask when x in [1, 2")
    #expect(unclosed.code == .unclosedDelimiter)
    #expect(unclosed.message == "`[` is never closed")
    #expect(unclosed.range == SourceRange(start: 14, end: 15))
    let unclosedMidLine = try onlyDiagnostic("ask when x in [1, 2 3]")
    #expect(unclosedMidLine.message == "expected `]` to close the `[` on line 1, found `3`")
    #expect(try onlyDiagnostic("ask when x in [,]").code == .expectedExpression)
  }

  @Test("list: 4096 elements are fine, 4097 are too many")
  func listLimit() {
    let fits = "x in [" + Array(repeating: "1", count: Limits.maximumListLength).joined(separator: ",") + "]"
    #expect(parse(fits).diagnostics.isEmpty)
    let tooLong = "x in [" + Array(repeating: "1", count: Limits.maximumListLength + 1).joined(separator: ",") + "]"
    #expect(parseCodes(tooLong) == [.listTooLong])
  }

  @Test("\"(\" expression \")\"  (parseParenthesized): parentheses are kept")
  func parenthesized() throws {
    #expect(try sexp("(a or b) and c") == "(and (paren (or a b)) c)")
    #expect(try sexp("((a))") == "(paren (paren a))")
    #expect(try sexp("(a + b) * c") == "(* (paren (+ a b)) c)")
    let expr = try parseExpression("(a or b) and c")
    guard case .logical(_, let operands) = expr.kind else {
      Issue.record("not a chain")
      return
    }
    #expect(operands[0].range == SourceRange(start: 0, end: 8))
    let unclosed = try onlyDiagnostic("ask when (days > 3\nnever when rated")
    #expect(unclosed.code == .unclosedDelimiter)
    #expect(unclosed.message == "`(` is never closed")
    #expect(unclosed.range == SourceRange(start: 9, end: 10))
    #expect(unclosed.help == ["add `)` where the parenthesized expression ends"])
    #expect(unclosed.notes == [DiagnosticNote("the next declaration begins here", at: SourceRange(start: 19, end: 24))])
    #expect(unclosed.fixIts == [FixIt("add `)`", edits: [.insert(")", at: 18)])])
  }

  @Test("precedence: or < and < not < comparison < ?? < + - < * / % < unary -")
  func precedence() throws {
    #expect(try sexp("not a or b and c == d ?? e + f * -g") == "(or (not a) (and b (== c (?? d (+ e (* f (neg g)))))))")
    #expect(try sexp("-g * f + e ?? d == c and b or not a") == "(or (and (== (?? (+ (* (neg g) f) e) d) c) b) (not a))")
    #expect(try sexp("a % b - c") == "(- (% a b) c)")
    #expect(try sexp("a ?? b < c ?? d") == "(< (?? a b) (?? c d))")
  }
}

@Suite("Parser: limits")
struct ParserLimitTests {
  private static func nested(_ levels: Int) -> String {
    String(repeating: "(", count: levels) + "rated" + String(repeating: ")", count: levels)
  }

  @Test("nesting: an expression 64 levels deep is accepted, 65 is PC113")
  func nestingLimit() throws {
    let deepest = try parseExpression(Self.nested(Limits.maximumNestingDepth - 1))
    #expect(deepest.depth == Limits.maximumNestingDepth)
    let tooDeep = try onlyDiagnostic(Self.nested(Limits.maximumNestingDepth))
    #expect(tooDeep.code == .nestingTooDeep)
    #expect(tooDeep.message == "expression nests more than 64 levels deep")
    #expect(tooDeep.help == ["split it into `let` definitions"])
    #expect(tooDeep.range.length == 1)
    #expect(try onlyDiagnostic(Self.nested(65)).code == .nestingTooDeep)
  }

  @Test("nesting: a megabyte of `(` gives one located error")
  func hugeNesting() throws {
    let diagnostics = parse(String(repeating: "(", count: 1_000_000)).diagnostics
    #expect(diagnostics.map(\.code) == [.nestingTooDeep])
    #expect(diagnostics.first?.range.start == Limits.maximumNestingDepth)
  }

  @Test("nesting: prefix operators count, by loops not recursion")
  func prefixNesting() {
    #expect(parse(String(repeating: "not ", count: 63) + "rated").diagnostics.isEmpty)
    #expect(parseCodes(String(repeating: "not ", count: 64) + "rated") == [.nestingTooDeep])
    #expect(parseCodes(String(repeating: "not ", count: 100_000) + "rated") == [.nestingTooDeep])
    #expect(parse(String(repeating: "-", count: 62) + "a > 0").diagnostics.isEmpty)
    #expect(parseCodes(String(repeating: "-", count: 63) + "a > 0") == [.nestingTooDeep])
    #expect(parseCodes(String(repeating: "- ", count: 100_000) + "a > 0") == [.nestingTooDeep])
  }

  @Test("a chain of 10,000 `and` terms stays one flat node, with no nesting error")
  func longAndChain() throws {
    let text = (0..<10_000).map { "x\($0 % 7) > \($0)" }.joined(separator: " and ")
    let expr = try parseExpression(text)
    guard case .logical(.and, let operands) = expr.kind else {
      Issue.record("not an `and` chain")
      return
    }
    #expect(operands.count == 10_000)
    #expect(expr.depth == 3)
  }

  @Test("200,000 terms of `or` over `and` chains stay flat")
  func longMixedChain() throws {
    let text = (0..<100_000).map { _ in "a and b" }.joined(separator: " or ")
    let expr = try parseExpression(text)
    guard case .logical(.or, let operands) = expr.kind else {
      Issue.record("not an `or` chain")
      return
    }
    #expect(operands.count == 100_000)
    #expect(expr.depth == 3)
  }

  @Test("too many errors stop at 100 with PC199")
  func tooManyErrors() {
    let text = (0..<150).map { _ in "ask when )" }.joined(separator: "\n")
    let diagnostics = parse(text).diagnostics
    #expect(diagnostics.count == Limits.maximumErrors + 1)
    #expect(diagnostics.last?.code == .tooManyErrors)
  }

  @Test("a file over 2 MiB is PC100 and is not parsed")
  func fileTooLarge() {
    let parsed = parse(String(repeating: " ", count: Limits.maximumFileSize + 1))
    #expect(parsed.diagnostics.map(\.code) == [.fileTooLarge])
    #expect(parse(String(repeating: " ", count: Limits.maximumFileSize)).diagnostics.isEmpty)
  }
}
