extension Parser {
  /// Parses a whole file.
  ///
  /// `policy = { declaration } EOF ;`
  mutating func parsePolicy() -> [Declaration] {
    var declarations: [Declaration] = []
    var reportedTooMany = false
    var counts = DeclarationCounts()
    while !at(.endOfFile) {
      let start = index
      var declaration = parseDeclaration()
      if !at(.endOfFile) && !current.kind.startsDeclaration && !atEventDeclaration
        && !mayStartBareCondition(after: declaration)
      {
        reportUnexpectedAfterDeclaration(declaration)
      }
      if isPanicking {
        // A declaration with a syntax error is kept only as a name, so later uses stay silent.
        declaration = declaration.withoutBody()
        synchronize()
      }
      if index == start { advance() }  // a declaration always consumes at least one token
      if declarations.count < limits.maximumDeclarations {
        declarations.append(declaration)
      } else if !reportedTooMany {
        reportedTooMany = true
        bag.report(ParserMessages.tooManyDeclarations(at: declaration.range, limits: limits))
      }
      // The counts of the limits stop the parse at once: nothing past them is worth reading.
      if let exceeded = counts.add(declaration, limits: limits) {
        bag.report(exceeded)
        stoppedAtLimit = true
        return declarations
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
    case .fact, .let, .events:
      return source.lineIndex(of: tokens[index - 1].range.end) < source.lineIndex(of: current.range.start)
    case .rule:
      return false
    }
  }

  /// Parses one declaration.
  ///
  /// `declaration = fact_declaration | let_declaration | event_declaration | rule | bare_condition ;`
  mutating func parseDeclaration() -> Declaration {
    switch current.kind {
    case .factKeyword: .fact(parseFactDeclaration())
    case .letKeyword: .let(parseLetDeclaration())
    case .askKeyword, .neverKeyword: .rule(parseRule())
    case .identifier where atEventDeclaration: .events(parseEventDeclaration())
    default: .rule(parseBareCondition())
    }
  }

  /// Whether the current token begins an event declaration: the word `event` followed by a name
  /// or a string. `event` is not reserved, so a fact named `event` still reads as one elsewhere.
  var atEventDeclaration: Bool {
    guard current.kind == .identifier, text(of: current) == "event" else { return false }
    let next = peek().kind
    return next == .identifier || next == .string
  }

  /// Parses the declaration of the event names the policy counts.
  ///
  /// `event_declaration = "event" event_name { "," event_name } ;`
  /// `event_name = identifier | string ;`
  mutating func parseEventDeclaration() -> EventDeclaration {
    let keyword = advance()
    var names: [Identifier] = []
    var comma: Token?
    repeat {
      if at(.identifier) {
        let token = advance()
        names.append(Identifier(text(of: token), range: token.range))
      } else if at(.string) {
        let token = advance()
        names.append(
          Identifier(StringLiteral.unquoted(source.bytes[token.range.start..<token.range.end]), range: token.range))
      } else {
        // After a comma, the mistake is the comma (a list ended early), not the next line's keyword.
        report(
          ParserMessages.expectedEventName(
            found: describe(current), afterComma: comma != nil,
            at: comma?.range ?? (at(.endOfFile) ? .empty(at: previousEnd) : current.range)))
        break
      }
      comma = eat(.comma)
    } while comma != nil
    return EventDeclaration(names: names, range: SourceRange(start: keyword.range.start, end: previousEnd))
  }

  /// Parses an app-specific fact declaration.
  ///
  /// `fact_declaration = "fact" identifier ":" type_name [ "?" ] [ "=" fact_default ] ;`
  mutating func parseFactDeclaration() -> FactDeclaration {
    let keyword = advance()
    let name = parseName(after: "fact")
    var type: PolicyType?
    var isOptional = false
    var typeRange = SourceRange.empty(at: previousEnd)
    var defaultValue: Expr?
    if eat(.colon) != nil {
      (type, isOptional, typeRange) = parseTypeName()
      if eat(.assign) != nil { defaultValue = parseFactDefault() }
    } else {
      report(ParserMessages.expectedFactType(found: describe(current), at: current.range))
    }
    return FactDeclaration(
      name: name, type: type, isOptional: isOptional, typeRange: typeRange, defaultValue: defaultValue,
      range: SourceRange(start: keyword.range.start, end: previousEnd))
  }

  /// Parses the default of a fact declaration: the checker requires a literal of the declared
  /// type, so only a signed primary is read (a rule on the next line is not taken in).
  ///
  /// `fact_default = unary ;`
  mutating func parseFactDefault() -> Expr {
    parseUnary()
  }

  /// Parses a type name in a fact declaration.
  ///
  /// `type_name = "bool" | "int" | "number" | "duration" | "instant" | "version" | "string" ;`
  mutating func parseTypeName() -> (PolicyType?, Bool, SourceRange) {
    guard at(.identifier) else {
      report(ParserMessages.expectedTypeName(found: describe(current), at: current.range))
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
      let suggestion =
        aliases[name.lowercased()]?.rawValue
        ?? EditDistance.suggestion(for: name, among: PolicyType.allCases.map(\.rawValue))
      report(ParserMessages.unknownType(name, suggestion: suggestion, at: token.range))
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
      report(
        ParserMessages.expectedAssign(
          name: name.name, found: describe(current), foundEquals: at(.equal), at: current.range))
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
      report(
        ParserMessages.expectedWhen(
          after: name?.name ?? kind.rawValue, rule: kind, found: current.kind, text: text(of: current),
          at: current.range))
      return Rule(
        kind: kind, name: name, condition: Expr(.error, range: .empty(at: previousEnd)), isBare: false,
        range: SourceRange(start: keyword.range.start, end: previousEnd))
    }
    let condition = parseExpression()
    return Rule(
      kind: kind, name: name, condition: condition, isBare: false,
      range: SourceRange(start: keyword.range.start, end: previousEnd))
  }

  /// Parses a file that is a single condition: it is one unnamed `ask` rule.
  ///
  /// `bare_condition = expression ;` (only when it is the file's only rule)
  mutating func parseBareCondition() -> Rule {
    let start = current.range.start
    let condition = parseExpression()
    return Rule(
      kind: .ask, name: nil, condition: condition, isBare: true, range: SourceRange(start: start, end: previousEnd))
  }

  /// Parses the name after `let`, `fact` or `has`, reporting a keyword or other token in its place.
  mutating func parseName(after keyword: String) -> Identifier {
    if at(.identifier) {
      let token = advance()
      return Identifier(text(of: token), range: token.range)
    }
    if current.kind.isKeyword {
      let token = current
      report(ParserMessages.keywordAsName(text(of: token), after: keyword, at: token.range))
      advance()
      return Identifier(text(of: token), range: token.range)
    }
    report(
      ParserMessages.expectedName(
        after: keyword, found: describe(current), at: at(.endOfFile) ? .empty(at: previousEnd) : current.range))
    return Identifier("", range: .empty(at: previousEnd))
  }

  // MARK: - Recovery helpers

  /// Reports text that follows a complete declaration but does not continue it.
  mutating func reportUnexpectedAfterDeclaration(_ declaration: Declaration) {
    let token = current
    let written = text(of: token)
    // `NOT muted`: an uppercase keyword was read as a name, so the next word looks unexpected.
    if index > 0, tokens[index - 1].kind == .identifier {
      let previous = tokens[index - 1]
      let previousText = text(of: previous)
      if ["not", "has"].contains(previousText.lowercased()) {
        report(
          ParserMessages.uppercaseKeyword(
            previousText, found: describe(token), text: written, at: previous.range.union(token.range)))
        return
      }
    }
    report(ParserMessages.unexpectedAfterDeclaration(declaration, found: token.kind, text: written, at: token.range))
  }

  /// Reports bare conditions in a file that has more than one rule.
  mutating func reportMisplacedBareConditions(_ declarations: [Declaration]) {
    var ruleCount = 0
    for case .rule in declarations { ruleCount += 1 }
    guard ruleCount > 1 else { return }
    for case .rule(let rule) in declarations where rule.isBare && !rule.condition.isError {
      bag.report(ParserMessages.bareConditionNotAlone(at: rule.condition.range))
    }
  }
}

/// What a policy has declared so far, against the counts of ``PolicyLimits``.
struct DeclarationCounts {
  var rules = 0
  var lets = 0
  var facts = 0
  var events = 0
  var nodes = 0

  /// Counts `declaration`; the diagnostic of the first count it takes past its limit, if any.
  mutating func add(_ declaration: Declaration, limits: PolicyLimits) -> Diagnostic? {
    let range = declaration.range
    switch declaration {
    case .rule(let rule):
      rules += 1
      nodes += rule.condition.nodeCount
      if rules > limits.maximumRules { return ParserMessages.tooManyRules(at: range, limits: limits) }
    case .let(let definition):
      lets += 1
      nodes += definition.value.nodeCount
      if lets > limits.maximumLets { return ParserMessages.tooManyLets(at: range, limits: limits) }
    case .fact(let fact):
      facts += 1
      nodes += fact.defaultValue?.nodeCount ?? 0
      if facts > limits.maximumFactDeclarations { return ParserMessages.tooManyFacts(at: range, limits: limits) }
    case .events(let list):
      events += list.names.count
      if events > limits.maximumEventDeclarations {
        let first = list.names[max(0, list.names.count - (events - limits.maximumEventDeclarations))]
        return ParserMessages.tooManyEvents(at: first.range, limits: limits)
      }
    }
    if nodes > limits.maximumExpressionNodes { return ParserMessages.tooManyNodes(at: range, limits: limits) }
    return nil
  }
}
