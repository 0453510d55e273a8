extension Parser {
  /// Parses a whole file.
  ///
  /// `policy = { declaration } EOF ;`
  mutating func parsePolicy() -> [Declaration] {
    var declarations: [Declaration] = []
    var reportedTooMany = false
    while !at(.endOfFile) {
      let start = index
      var declaration = parseDeclaration()
      if !at(.endOfFile) && !current.kind.startsDeclaration && !mayStartBareCondition(after: declaration) {
        reportUnexpectedAfterDeclaration(declaration)
      }
      if isPanicking {
        // A declaration with a syntax error is kept only as a name, so later uses stay silent.
        declaration = declaration.withoutBody()
        synchronize()
      }
      if index == start { advance() }  // a declaration always consumes at least one token
      if declarations.count < Limits.maximumDeclarations {
        declarations.append(declaration)
      } else if !reportedTooMany {
        reportedTooMany = true
        bag.report(
          .error(
            .tooManyDeclarations, "file has more than \(Limits.maximumDeclarations) declarations",
            at: declaration.range, help: ["split the policy into smaller files"]))
      }
    }
    reportMisplacedBareConditions(declarations)
    return declarations
  }

  /// Whether the current token may begin a bare condition after `declaration`:
  /// it follows a `fact` or `let` and is the first token on its line.
  func mayStartBareCondition(after declaration: Declaration) -> Bool {
    guard index > 0 else { return true }
    switch declaration {
    case .fact, .let:
      return source.lineIndex(of: tokens[index - 1].range.end) < source.lineIndex(of: current.range.start)
    case .rule:
      return false
    }
  }

  /// Parses one declaration.
  ///
  /// `declaration = fact_declaration | let_declaration | rule | bare_condition ;`
  mutating func parseDeclaration() -> Declaration {
    switch current.kind {
    case .factKeyword: .fact(parseFactDeclaration())
    case .letKeyword: .let(parseLetDeclaration())
    case .askKeyword, .neverKeyword: .rule(parseRule())
    default: .rule(parseBareCondition())
    }
  }

  /// Parses an app-specific fact declaration.
  ///
  /// `fact_declaration = "fact" identifier ":" type_name [ "?" ] ;`
  mutating func parseFactDeclaration() -> FactDeclaration {
    let keyword = advance()
    let name = parseName(after: "fact")
    var type: PolicyType?
    var isOptional = false
    var typeRange = SourceRange.empty(at: previousEnd)
    if eat(.colon) != nil {
      (type, isOptional, typeRange) = parseTypeName()
    } else {
      report(
        .error(
          .expectedToken, "expected `:` and a type after the fact name, found \(describe(current))",
          at: current.range, help: ["declare a fact like `fact plan: string` or `fact trial_end: instant?`"]))
    }
    return FactDeclaration(
      name: name, type: type, isOptional: isOptional, typeRange: typeRange,
      range: SourceRange(start: keyword.range.start, end: previousEnd))
  }

  /// Parses a type name in a fact declaration.
  ///
  /// `type_name = "bool" | "int" | "number" | "duration" | "instant" | "version" | "string" ;`
  mutating func parseTypeName() -> (PolicyType?, Bool, SourceRange) {
    guard at(.identifier) else {
      report(
        .error(
          .expectedToken, "expected a type after `:`, found \(describe(current))", at: current.range,
          help: ["the types are \(PolicyType.allCases.map { "`\($0)`" }.joined(separator: ", "))"]))
      return (nil, false, .empty(at: previousEnd))
    }
    let token = advance()
    let name = text(of: token)
    var type = PolicyType(rawValue: name)
    if type == nil {
      let aliases: [String: PolicyType] = [
        "integer": .int, "boolean": .bool, "float": .number, "double": .number, "decimal": .number,
        "date": .instant, "time": .instant, "timestamp": .instant, "datetime": .instant, "text": .string,
        "interval": .duration, "semver": .version,
      ]
      let suggestion = aliases[name.lowercased()]?.rawValue
        ?? EditDistance.suggestion(for: name, among: PolicyType.allCases.map(\.rawValue))
      report(
        .error(
          .unknownType, "unknown type `\(name)`", at: token.range,
          help: suggestion.map { ["did you mean `\($0)`?"] }
            ?? ["the types are \(PolicyType.allCases.map { "`\($0)`" }.joined(separator: ", "))"]))
      type = nil
    }
    let optional = eat(.questionMark) != nil
    return (type, optional, SourceRange(start: token.range.start, end: previousEnd))
  }

  /// Parses a named value.
  ///
  /// `let_declaration = "let" identifier "=" expression ;`
  mutating func parseLetDeclaration() -> LetDeclaration {
    let keyword = advance()
    let name = parseName(after: "let")
    var value = Expr(.error, range: .empty(at: previousEnd))
    if eat(.assign) != nil {
      value = parseExpression()
    } else {
      let help = at(.equal) ? "a definition uses a single `=`: `let \(name.name) = ...`" : "write `let \(name.name) = <expression>`"
      report(.error(.expectedToken, "expected `=` after `let \(name.name)`, found \(describe(current))", at: current.range, help: [help]))
    }
    return LetDeclaration(name: name, value: value, range: SourceRange(start: keyword.range.start, end: previousEnd))
  }

  /// Parses a rule.
  ///
  /// `rule = ( "ask" | "never" ) [ identifier ] "when" expression ;`
  mutating func parseRule() -> Rule {
    let keyword = advance()
    let kind: RuleKind = keyword.kind == .askKeyword ? .ask : .never
    var name: Identifier?
    if at(.identifier) && peek().kind == .whenKeyword {
      let token = advance()
      name = Identifier(text(of: token), range: token.range)
    }
    guard eat(.whenKeyword) != nil else {
      var help = "a rule reads `\(kind.rawValue) when <condition>` or `\(kind.rawValue) NAME when <condition>`"
      if at(.string) {
        help = "rule names are identifiers such as `loyal_users`, without quotes"
      } else if at(.identifier), ["if", "unless", "where", "while"].contains(text(of: current)) {
        help = "write `\(kind.rawValue) when` instead of `\(kind.rawValue) \(text(of: current))`"
      }
      report(
        .error(
          .expectedToken, "expected `when` after `\(name?.name ?? kind.rawValue)`, found \(describe(current))",
          at: current.range, help: [help]))
      return Rule(
        kind: kind, name: name, condition: Expr(.error, range: .empty(at: previousEnd)), isBare: false,
        range: SourceRange(start: keyword.range.start, end: previousEnd))
    }
    let condition = parseExpression()
    return Rule(kind: kind, name: name, condition: condition, isBare: false, range: SourceRange(start: keyword.range.start, end: previousEnd))
  }

  /// Parses a file that is a single condition: it is one unnamed `ask` rule.
  ///
  /// `bare_condition = expression ;` (only when it is the file's only rule)
  mutating func parseBareCondition() -> Rule {
    let start = current.range.start
    let condition = parseExpression()
    return Rule(kind: .ask, name: nil, condition: condition, isBare: true, range: SourceRange(start: start, end: previousEnd))
  }

  /// Parses the name after `let`, `fact` or `has`, reporting a keyword or other token in its place.
  mutating func parseName(after keyword: String) -> Identifier {
    if at(.identifier) {
      let token = advance()
      return Identifier(text(of: token), range: token.range)
    }
    if current.kind.isKeyword {
      let token = current
      report(
        .error(
          .expectedName, "`\(text(of: token))` is a keyword and cannot be used as a name", at: token.range,
          help: [
            keyword == "has"
              ? "write the name of a fact that can be absent after `has`, as in `has last_prompt`"
              : "choose another name, such as `\(text(of: token))_count`"
          ]))
      advance()
      return Identifier(text(of: token), range: token.range)
    }
    report(
      .error(
        .expectedName, "expected a name after `\(keyword)`, found \(describe(current))",
        at: at(.endOfFile) ? .empty(at: previousEnd) : current.range,
        help: ["names are ASCII letters, digits and `_`, such as `loyal_users`"]))
    return Identifier("", range: .empty(at: previousEnd))
  }

  // MARK: - Recovery helpers

  /// Reports text that follows a complete declaration but does not continue it.
  mutating func reportUnexpectedAfterDeclaration(_ declaration: Declaration) {
    let token = current
    let written = text(of: token)
    // `NOT declined`: an uppercase keyword was read as a name, so the next word looks unexpected.
    if index > 0, tokens[index - 1].kind == .identifier {
      let previous = tokens[index - 1]
      let previousText = text(of: previous)
      if ["not", "has"].contains(previousText.lowercased()) {
        report(
          .error(
            .unexpectedToken, "unexpected \(describe(token)) after `\(previousText)`",
            at: previous.range.union(token.range),
            help: ["keywords are lowercase: write `\(previousText.lowercased()) \(written)`"]))
        return
      }
    }
    var help: [String]
    if token.kind == .identifier, let keyword = ["and", "or", "not"].first(where: { $0 == written.lowercased() }) {
      help = ["keywords are lowercase: write `\(keyword)`"]
    } else if token.kind == .whenKeyword {
      help = ["a rule starts with `ask` or `never`: `ask when <condition>`"]
    } else if token.kind == .rightParen {
      help = ["remove the `)` or add the `(` it closes"]
    } else if token.kind == .rightBracket {
      help = ["remove the `]` or add the `[` it closes"]
    } else if token.kind == .assign {
      help = ["compare with `==`"]
    } else {
      help = ["join conditions with `and` or `or`; start a new rule with `ask` or `never`"]
    }
    let what: String
    switch declaration {
    case .fact: what = "the fact declaration"
    case .let: what = "the definition"
    case .rule: what = "the condition"
    }
    report(.error(.unexpectedToken, "unexpected \(describe(token)) after \(what)", at: token.range, help: help))
  }

  /// Reports bare conditions in a file that has more than one rule.
  mutating func reportMisplacedBareConditions(_ declarations: [Declaration]) {
    var ruleCount = 0
    for case .rule in declarations { ruleCount += 1 }
    guard ruleCount > 1 else { return }
    for case .rule(let rule) in declarations where rule.isBare && rule.condition.kind != .error {
      bag.report(
        .error(
          .bareConditionNotAlone, "a condition without `ask when` must be the only rule in the file",
          at: rule.condition.range, help: ["start it with `ask when` or `never when`"]))
    }
  }
}
