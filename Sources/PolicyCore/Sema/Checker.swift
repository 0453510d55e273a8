/// The checker: resolves names against the schema and declarations, types every
/// expression, enforces guards on absent values and reports problems.
///
/// Each check returns nil after reporting an error, and callers that get nil
/// report nothing more about the same expression, so one mistake yields one
/// diagnostic. See "Types and typing rules" in Grammar.md.
struct Checker {
  let source: SourceFile
  let schema: FactSchema
  var bag: DiagnosticBag
  var layout = FactLayout()
  var lets: [CheckedLet] = []
  var letsByName: [String: Int] = [:]
  /// Every `let` in the file by name, with its position, to explain use before definition.
  var allLetPositions: [String: SourceRange] = [:]
  var declaredFactRanges: [Int: SourceRange] = [:]
  var usedSlots = Set<Int>()
  var rules: [CheckedRule] = []
  /// Names whose declaration had an error: using them reports nothing more.
  var brokenNames = Set<String>()
  /// `let`s used before their definition (already reported): not also reported as unused.
  var usedBeforeDefinition = Set<String>()
  /// Names known to be present at the current point (refined by `has` guards).
  var present = Set<String>()
  /// The event names the policy declares with `event`, with where each is first declared.
  var declaredEvents: [String: SourceRange] = [:]
  /// The first `event` declaration, for notes.
  var firstEventDeclaration: SourceRange?
  /// Whether an `event` declaration had a syntax error: event names are then not checked.
  var hasBrokenEventDeclaration = false
  /// The names of the `bucket("name")` calls typed so far.
  var bucketNames = Set<String>()
  /// Whether parsing reported errors (whole-file warnings are then skipped).
  let hasSyntaxErrors: Bool

  init(source: SourceFile, schema: FactSchema, bag: DiagnosticBag) {
    self.source = source
    self.schema = schema
    self.bag = bag
    self.hasSyntaxErrors = bag.hasErrors
  }

  mutating func report(_ diagnostic: Diagnostic) {
    bag.report(diagnostic)
  }

  /// What the checker produced: valid when it reported no error.
  var checkedPolicy: CheckedPolicy {
    var layout = layout
    layout.computeFingerprint()
    return CheckedPolicy(
      source: source, layout: layout, lets: lets, rules: rules, usedSlots: usedSlots,
      declaredEvents: declaredEvents.keys.stablySorted(by: <), relations: schema.relations,
      bucketNames: bucketNames.stablySorted(by: <))
  }

  /// Checks the whole file.
  mutating func check(_ file: PolicyFile) {
    layout = schema.baseLayout
    // Fact declarations apply to the whole file, wherever they are written.
    for case .fact(let declaration) in file.declarations {
      declareFact(declaration)
    }
    for case .events(let declaration) in file.declarations {
      declareEvents(declaration)
    }
    for case .let(let declaration) in file.declarations where !declaration.name.name.isEmpty {
      if allLetPositions[declaration.name.name] == nil {
        allLetPositions[declaration.name.name] = declaration.name.range
      }
    }
    var ruleNames: [String: SourceRange] = [:]
    for declaration in file.declarations {
      switch declaration {
      case .fact, .events:
        break
      case .let(let declaration):
        checkLet(declaration)
      case .rule(let rule):
        if let name = rule.name {
          if let first = ruleNames[name.name] {
            report(CheckerMessages.duplicateRuleName(name.name, first: first, at: name.range))
          } else {
            ruleNames[name.name] = name.range
          }
        }
        checkRule(rule)
      }
    }
    // After a syntax error, parts of the file are missing: whole-file warnings would be noise.
    if !hasSyntaxErrors {
      reportUnused()
      reportMissingAskRule(file)
    }
  }

  // MARK: - Declarations

  mutating func declareFact(_ declaration: FactDeclaration) {
    let name = declaration.name.name
    guard !name.isEmpty else { return }
    guard let type = declaration.type else {
      // The declaration is broken (already reported): uses of the name stay silent.
      brokenNames.insert(name)
      return
    }
    if let existing = layout.slot(named: name) {
      if case .declaration(let range) = layout.slots[existing].origin {
        report(
          CheckerMessages.factDeclaredTwice(
            name, first: declaredFactRanges[existing] ?? range, at: declaration.name.range))
      } else {
        report(
          CheckerMessages.factOfSchemaDeclared(name, type: layout.slots[existing].type, at: declaration.name.range))
      }
      return
    }
    if Builtin.reservedNames.contains(name) {
      report(CheckerMessages.builtinDeclaredAsFact(name, at: declaration.name.range))
      return
    }
    let slot = layout.addSlot(
      name: name, type: type, isOptional: declaration.isOptional, origin: .declaration(declaration.range),
      defaultValue: declaration.defaultValue.flatMap { checkFactDefault($0, name: name, type: type) }, meaning: "")
    declaredFactRanges[slot] = declaration.name.range
  }

  mutating func declareEvents(_ declaration: EventDeclaration) {
    guard !declaration.names.isEmpty else {
      hasBrokenEventDeclaration = true  // a syntax error, already reported
      return
    }
    if firstEventDeclaration == nil { firstEventDeclaration = declaration.range }
    for name in declaration.names where declaredEvents[name.name] == nil {
      declaredEvents[name.name] = name.range
      // The app says which events it records: a declared name it never records is a typo.
      if !schema.eventNames.isEmpty && !schema.eventNames.contains(name.name) && !bag.isFull {
        report(
          CheckerMessages.unknownEvent(
            name.name, known: schema.eventNames.stablySorted(by: <), fromDeclarations: false, declaredAt: nil,
            quoted: source.text(in: name.range).hasPrefix("\""), at: name.range))
      }
    }
  }

  /// Whether a family key may take the event name `event` (``knownEventNames`` without sorting
  /// them: a lookup per use).
  func isKnownEvent(_ event: String) -> Bool {
    guard !hasBrokenEventDeclaration else { return true }
    if !declaredEvents.isEmpty { return declaredEvents[event] != nil }
    if !schema.eventNames.isEmpty { return schema.eventNames.contains(event) }
    return true
  }

  /// The event names a family key may take: those the policy declares, else those the app
  /// records; nil when neither is known (any name is accepted) or a declaration is broken.
  var knownEventNames: [String]? {
    guard !hasBrokenEventDeclaration else { return nil }
    if !declaredEvents.isEmpty { return declaredEvents.keys.stablySorted(by: <) }
    if !schema.eventNames.isEmpty { return schema.eventNames.stablySorted(by: <) }
    return nil
  }

  /// The value of the default `expr` of fact `name` of `type`: a literal of that type (an int
  /// literal for a `number`); reports `PC218` and returns nil otherwise.
  mutating func checkFactDefault(_ expr: Expr, name: String, type: PolicyType) -> Value? {
    if expr.isError { return nil }  // a syntax error, already reported
    guard var value = literalValue(expr) else {
      report(CheckerMessages.invalidFactDefault(name, type: type, found: nil, at: expr.range))
      return nil
    }
    if type == .number, case .int(let integer) = value {
      guard let number = Number(exactly: integer) else {
        report(numberOutOfRange(expr))
        return nil
      }
      value = .number(number)
    }
    guard value.type == type else {
      report(CheckerMessages.invalidFactDefault(name, type: type, found: value.type, at: expr.range))
      return nil
    }
    return value
  }

  mutating func checkLet(_ declaration: LetDeclaration) {
    let name = declaration.name.name
    guard !name.isEmpty else { return }
    present = []
    let result = check(declaration.value)
    if layout.slot(named: name) != nil || Builtin.reservedNames.contains(name) || letsByName[name] != nil {
      if let index = letsByName[name] {
        report(
          CheckerMessages.letDefinedTwice(
            name, first: allLetPositions[name] ?? lets[index].range, at: declaration.name.range))
      } else if Builtin.reservedNames.contains(name) {
        report(CheckerMessages.builtinDefinedAsLet(name, at: declaration.name.range))
      } else {
        report(CheckerMessages.factDefinedAsLet(name, at: declaration.name.range))
      }
      return
    }
    var checked = CheckedLet(
      name: name, value: nil, listValues: nil, listType: nil, isUsed: false, range: declaration.range)
    switch result {
    case .value(let typed): checked.value = typed
    case .list(let type, let values): checked.listValues = values; checked.listType = type
    case nil: break  // already reported; uses of the name stay silent
    }
    letsByName[name] = lets.count
    lets.append(checked)
  }

  mutating func checkRule(_ rule: Rule) {
    present = []
    let line = source.location(of: rule.range.start).line
    let label = rule.name?.name ?? "\(rule.kind.rawValue) rule at line \(line)"
    guard let condition = requireBool(rule.condition, context: CheckerMessages.conditionContext(of: rule)) else {
      return
    }
    rules.append(
      CheckedRule(kind: rule.kind, name: rule.name?.name, label: label, condition: condition, range: rule.range))
  }

  // MARK: - Warnings

  mutating func reportUnused() {
    for checked in lets where !checked.isUsed && !usedBeforeDefinition.contains(checked.name) {
      let nameRange = allLetPositions[checked.name] ?? checked.range
      report(CheckerMessages.unusedLet(checked.name, at: nameRange))
    }
    for (slot, range) in declaredFactRanges.stablySorted(by: { $0.value < $1.value }) where !usedSlots.contains(slot) {
      report(CheckerMessages.unusedFact(layout.slots[slot].name, at: range))
    }
  }

  mutating func reportMissingAskRule(_ file: PolicyFile) {
    var hasAskRule = false
    var hasAnyRule = false
    for case .rule(let rule) in file.declarations {
      hasAnyRule = true
      if rule.kind == .ask { hasAskRule = true }
    }
    guard !hasAskRule else { return }
    let range = file.declarations.first?.range ?? .empty(at: source.hasByteOrderMark ? 3 : 0)
    report(CheckerMessages.noAskRule(hasRules: hasAnyRule, at: SourceRange(start: range.start, end: range.start)))
  }

  // MARK: - Names

  /// Names the checker can suggest for a misspelled `name`.
  func candidateNames() -> [String] {
    layout.slots.compactMap { slot in
      if case .family = slot.origin { return nil }
      return slot.name
    } + lets.map(\.name) + [Builtin.nowName]
  }

  /// The text of `expr` for messages, shortened.
  func written(_ expr: Expr) -> String {
    LiteralText.abbreviated(source.text(in: expr.range), limit: 40)
  }

  /// `expr`, checked as `typed`, as messages name it.
  func operand(_ typed: TypedExpr, _ expr: Expr) -> CheckerMessages.Operand {
    CheckerMessages.Operand(expr: expr, written: written(expr), type: typed.type)
  }

  /// The instant fact help text uses in examples of `since`: `written` when it names one (the
  /// argument the policy gave), else the schema's first, else the policy's first declared one;
  /// nil when there is none.
  func exampleInstant(preferring written: Expr? = nil) -> String? {
    if let written, case .name(let identifier) = written.kind, let slot = layout.slot(named: identifier.name),
      layout.slots[slot].type == .instant
    {
      return identifier.name
    }
    return layout.slots.first { slot in
      if case .family = slot.origin { return false }
      return slot.type == .instant
    }?.name
  }

  /// The line of `offset`, for messages.
  func line(_ offset: Int) -> Int {
    source.location(of: offset).line
  }
}
