/// What checking an expression produced.
enum Checked {
  /// A value.
  case value(TypedExpr)
  /// A constant list (from a list literal or a `let` that names one); the element type is nil when empty.
  case list(PolicyType?, [Value])
}

extension Checker {
  // MARK: - Entry points

  /// Checks `expr`, which must be a value (not a list); nil after an error.
  mutating func checkValue(_ expr: Expr) -> TypedExpr? {
    switch check(expr) {
    case .value(let typed): return typed
    case .list:
      report(
        .error(
          .misplacedList, "a list can only appear on the right of `in`", at: expr.range,
          help: ["test membership with `x in \(written(expr))`"]))
      return nil
    case nil: return nil
    }
  }

  /// Checks `expr` and requires a value that cannot be absent.
  mutating func checkPresent(_ expr: Expr) -> TypedExpr? {
    guard let typed = checkValue(expr) else { return nil }
    return requirePresent(typed, expr)
  }

  /// Reports `PC206` when `typed` can be absent.
  mutating func requirePresent(_ typed: TypedExpr, _ expr: Expr) -> TypedExpr? {
    guard typed.isOptional else { return typed }
    let text = written(expr)
    var help: [String] = []
    if case .name = expr.kind {
      help.append("guard it: `has \(text) and ...`")
    }
    help.append("or give a default: `\(text) ?? \(defaultExample(for: typed.type))`")
    if typed.type == .instant {
      help.append("or measure the time since it with `since(\(text))`, which is infinite when it never happened")
    }
    report(.error(.unguardedAbsentValue, "`\(text)` can be absent", at: expr.range, help: help))
    return nil
  }

  func defaultExample(for type: PolicyType) -> String {
    switch type {
    case .bool: "false"
    case .int: "0"
    case .number: "0.0"
    case .duration: "0s"
    case .instant: "now"
    case .version: "v0.0"
    case .string: "\"\""
    }
  }

  /// Checks a `bool` operand; `context` names what needs it, as in "`and`".
  mutating func requireBool(_ expr: Expr, context: @autoclosure () -> String) -> TypedExpr? {
    guard let typed = checkPresent(expr) else { return nil }
    guard typed.type == .bool else {
      var help = ["compare it, for example `\(written(expr)) \(typed.type == .string ? "==" : ">=") \(sampleLiteral(for: typed.type))`"]
      if typed.type == .instant { help = ["compare the time since it: `since(\(written(expr))) >= 30d`"] }
      report(
        .error(
          .notBoolean, "\(context()) must be a `bool`, but `\(written(expr))` is \(article(typed.type))",
          at: expr.range, help: help))
      return nil
    }
    return typed
  }

  func sampleLiteral(for type: PolicyType) -> String {
    switch type {
    case .bool: "true"
    case .int: "20"
    case .number: "4.5"
    case .duration: "30d"
    case .instant: "now"
    case .version: "v2.0"
    case .string: "\"value\""
    }
  }

  func article(_ type: PolicyType) -> String {
    switch type {
    case .int, .instant: "an `\(type)`"
    default: "a `\(type)`"
    }
  }

  // MARK: - Dispatch

  /// Checks any expression.
  mutating func check(_ expr: Expr) -> Checked? {
    switch expr.kind {
    case .literal(let literal):
      if case .string(let text) = literal { _ = layout.intern(text) }
      return .value(TypedExpr(.constant(literal.value), literal.value.type, range: expr.range))
    case .name(let identifier):
      return checkName(identifier)
    case .call(let name, let arguments):
      return checkCall(name, arguments, expr).map(Checked.value)
    case .has(let identifier):
      return checkHas(identifier, expr).map(Checked.value)
    case .list(let elements):
      return checkList(elements, expr)
    case .unary(.not, let operand):
      return requireBool(operand, context: "the operand of `not`").map {
        .value(TypedExpr(.not($0), .bool, range: expr.range))
      }
    case .unary(.negate, let operand):
      return checkNegate(operand, expr).map(Checked.value)
    case .binary(let op, let lhs, let rhs):
      return checkBinary(op, lhs, rhs, expr).map(Checked.value)
    case .logical(let op, let operands):
      return checkLogical(op, operands, expr).map(Checked.value)
    case .parenthesized(let inner):
      switch check(inner) {
      case .value(var typed):
        // The tree drops parentheses; explanations and messages quote `writtenRange`.
        typed.writtenRange = expr.range
        return .value(typed)
      case .list(let type, let values): return .list(type, values)
      case nil: return nil
      }
    case .error:
      return nil
    }
  }

  // MARK: - Names

  mutating func checkName(_ identifier: Identifier) -> Checked? {
    let name = identifier.name
    if name == Builtin.nowName {
      return .value(TypedExpr(.now, .instant, range: identifier.range))
    }
    if let index = letsByName[name] {
      lets[index].isUsed = true
      if let values = lets[index].listValues {
        return .list(lets[index].listType, values)
      }
      guard let value = lets[index].value else { return nil }
      return .value(
        TypedExpr(
          .letValue(index), value.type, isOptional: value.isOptional && !present.contains(name),
          range: identifier.range))
    }
    if let slot = layout.slot(named: name) {
      usedSlots.insert(slot)
      let definition = layout.slots[slot]
      return .value(
        TypedExpr(
          .fact(slot), definition.type, isOptional: definition.isOptional && !present.contains(name),
          range: identifier.range))
    }
    reportUnknownName(identifier)
    return nil
  }

  mutating func reportUnknownName(_ identifier: Identifier) {
    // A full report takes no more diagnostics: skip the suggestions, which cost an edit distance
    // per known name (a 2 MB line of 290,000 unknown names spent over a second on them).
    guard !bag.isFull else { return }
    let name = identifier.name
    if brokenNames.contains(name) || name.isEmpty { return }
    if let position = allLetPositions[name] {
      usedBeforeDefinition.insert(name)
      report(
        .error(
          .useBeforeDefinition, "`\(name)` is used before its definition on line \(line(position.start))",
          at: identifier.range, help: ["move `let \(name) = ...` above this line"]))
      return
    }
    if let family = schema.family(named: name) {
      report(
        .error(
          .invalidFactKey, "`\(name)` needs a key (\(family.keyMeaning))", at: identifier.range,
          help: ["write `\(name)(\(sampleKey(for: family)))`"]))
      return
    }
    if let builtin = Builtin(rawValue: name) {
      report(
        .error(
          .unknownName, "`\(name)` is a function and needs arguments", at: identifier.range,
          help: ["call it: `\(builtin.signature)`"]))
      return
    }
    var help: [String] = []
    if TokenKind.keywords.contains(name.lowercased()) {
      help.append("keywords are lowercase: write `\(name.lowercased())`")
    } else if PolicyType(rawValue: name) != nil {
      help.append("type names are only used in `fact` declarations")
    } else if let suggestion = EditDistance.suggestion(for: name, among: candidateNames()) {
      help.append("did you mean `\(suggestion)`?")
    } else {
      help.append("declare app-specific facts with `fact \(name): <type>`; `policyc facts` lists the standard ones")
    }
    report(.error(.unknownName, "unknown name `\(name)`", at: identifier.range, help: help))
  }

  func sampleKey(for family: FactFamilyDefinition) -> String {
    switch family.keyType {
    case .int: "3"
    case .duration: "365d"
    default: "\"purchase\""
    }
  }

  mutating func checkHas(_ identifier: Identifier, _ expr: Expr) -> TypedExpr? {
    let name = identifier.name
    guard !name.isEmpty else { return nil }
    let source: PresenceSource
    let isOptional: Bool
    if let index = letsByName[name], let value = lets[index].value {
      lets[index].isUsed = true
      source = .letValue(index)
      isOptional = value.isOptional
    } else if let index = letsByName[name] {
      lets[index].isUsed = true
      if lets[index].listValues != nil {
        report(
          .error(
            .misplacedList, "`\(name)` is a list and is never absent", at: expr.range,
            help: ["`has` tests a fact or `let` that can be absent; test membership with `x in \(name)`"]))
      }
      return nil  // a broken `let` was already reported
    } else if let slot = layout.slot(named: name) {
      usedSlots.insert(slot)
      source = .fact(slot)
      isOptional = layout.slots[slot].isOptional
    } else if name == Builtin.nowName {
      report(.warning(.alwaysPresent, "`now` is always present, so `has now` is always true", at: expr.range, help: ["remove the test"]))
      return TypedExpr(.constant(.bool(true)), .bool, range: expr.range)
    } else {
      reportUnknownName(identifier)
      return nil
    }
    if !isOptional {
      report(
        .warning(
          .alwaysPresent, "`\(name)` is never absent, so `has \(name)` is always true", at: expr.range,
          help: ["remove the test"]))
    }
    return TypedExpr(.has(source), .bool, range: expr.range)
  }

  // MARK: - Calls

  mutating func checkCall(_ name: Identifier, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    if let builtin = Builtin(rawValue: name.name) {
      switch builtin {
      case .since: return checkSince(arguments, expr)
      case .min, .max: return checkExtremum(isMinimum: builtin == .min, name.name, arguments, expr)
      }
    }
    if let function = BuiltinFunction(name: name.name) {
      return checkFunction(function, arguments, expr)
    }
    if let family = schema.family(named: name.name) {
      return checkFamilyMember(family, arguments, expr)
    }
    if layout.slot(named: name.name) != nil || letsByName[name.name] != nil || name.name == Builtin.nowName {
      report(
        .error(
          .invalidFactKey, "`\(name.name)` is not a function", at: expr.range,
          help: ["write `\(name.name)` without parentheses"]))
      return nil
    }
    let candidates = Builtin.functionNames + schema.families.map(\.name)
    let help = EditDistance.suggestion(for: name.name, among: candidates).map { ["did you mean `\($0)`?"] }
      ?? ["the functions are \(Builtin.functionNames.map { "`\($0)`" }.joined(separator: ", "))"]
    report(.error(.unknownFunction, "unknown function `\(name.name)`", at: name.range, help: help))
    return nil
  }

  mutating func checkSince(_ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count == 1 else {
      report(
        .error(
          .wrongArgumentCount, "`since` takes 1 argument, but \(arguments.count) were given", at: expr.range,
          help: ["write `since(last_prompt)`"]))
      return nil
    }
    guard let argument = checkValue(arguments[0]) else { return nil }
    guard argument.type == .instant else {
      var help = ["`since` measures the time from an instant to now, as in `since(last_prompt) >= 8w`"]
      if argument.type == .duration || argument.type == .int {
        help = ["`\(written(arguments[0]))` is already \(article(argument.type)); compare it directly"]
      }
      report(
        .error(
          .wrongArgumentType, "`since` needs an `instant`, but `\(written(arguments[0]))` is \(article(argument.type))",
          at: arguments[0].range, help: help))
      return nil
    }
    return TypedExpr(.since(argument), .duration, range: expr.range)
  }

  /// A call of a ``BuiltinFunction``: its arity, then present arguments of one accepted type.
  mutating func checkFunction(_ function: BuiltinFunction, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    let name = function.name
    guard arguments.count == function.arity else {
      let count = "\(function.arity) argument\(function.arity == 1 ? "" : "s")"
      report(
        .error(
          .wrongArgumentCount,
          "`\(name)` takes \(count), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given",
          at: expr.range, help: ["write `\(function.signature)`"]))
      return nil
    }
    var typed: [TypedExpr] = []
    for argument in arguments {
      guard let value = checkPresent(argument) else { return nil }
      typed.append(value)
    }
    let accepted = function.argumentTypes
    // "an `int`, `number` or `duration`"
    let kinds = accepted.enumerated().map { $0.offset == 0 ? article($0.element) : "`\($0.element)`" }
    let list = kinds.count > 1 ? kinds.dropLast().joined(separator: ", ") + " or " + (kinds.last ?? "") : kinds.joined()
    for (index, value) in typed.enumerated() where !accepted.contains(value.type) || value.type != typed[0].type {
      let needs = accepted.contains(value.type) ? "arguments of one type" : list
      report(
        .error(
          .wrongArgumentType, "`\(name)` needs \(needs), but `\(written(arguments[index]))` is \(article(value.type))",
          at: arguments[index].range, help: ["write `\(function.signature)`"]))
      return nil
    }
    return TypedExpr(.call(function, typed), function.resultType(for: typed[0].type), range: expr.range)
  }

  mutating func checkExtremum(isMinimum: Bool, _ name: String, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count >= 2 else {
      report(
        .error(
          .wrongArgumentCount, "`\(name)` takes at least 2 arguments, but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given",
          at: expr.range, help: ["write `\(name)(a, b)`"]))
      return nil
    }
    var typed: [TypedExpr] = []
    var failed = false
    for argument in arguments {
      if let value = checkPresent(argument) { typed.append(value) } else { failed = true }
    }
    guard !failed else { return nil }
    for (index, value) in typed.enumerated() where !value.type.isOrdered {
      report(
        .error(
          .wrongArgumentType, "`\(name)` needs ordered values, but `\(written(arguments[index]))` is \(article(value.type))",
          at: arguments[index].range, help: ["`\(name)` works on ints, numbers, durations, instants and versions"]))
      return nil
    }
    let types = Set(typed.map(\.type))
    var resultType = typed[0].type
    if types == [.int, .number] {
      resultType = .number
      typed = typed.map { $0.type == .int ? TypedExpr(.promote($0), .number, range: $0.writtenRange) : $0 }
    } else if types.count > 1 {
      let index = typed.firstIndex { $0.type != typed[0].type } ?? 1
      report(
        .error(
          .wrongArgumentType,
          "`\(name)` needs arguments of one type, but `\(written(arguments[0]))` is \(article(typed[0].type)) and `\(written(arguments[index]))` is \(article(typed[index].type))",
          at: arguments[index].range, help: unitHelp(typed[0], arguments[0], typed[index], arguments[index])))
      return nil
    }
    return TypedExpr(.extremum(isMinimum: isMinimum, typed), resultType, range: expr.range)
  }

  mutating func checkFamilyMember(_ family: FactFamilyDefinition, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count == 1 else {
      report(
        .error(
          .wrongArgumentCount, "`\(family.name)` takes 1 key (\(family.keyMeaning)), but \(arguments.count) were given",
          at: expr.range, help: ["write `\(family.name)(\(sampleKey(for: family)))`"]))
      return nil
    }
    guard let key = literalValue(arguments[0]), key.type == family.keyType else {
      report(
        .error(
          .invalidFactKey, "the key of `\(family.name)` must be \(article(family.keyType)) literal (\(family.keyMeaning))",
          at: arguments[0].range, help: ["write `\(family.name)(\(sampleKey(for: family)))`"]))
      return nil
    }
    if key.isNotPositive {
      report(
        .error(
          .invalidFactKey, "the key of `\(family.name)` must be positive", at: arguments[0].range,
          help: ["write `\(family.name)(\(sampleKey(for: family)))`"]))
      return nil
    }
    let memberName = FactLayout.memberName(family: family.name, key: key)
    let slot =
      layout.slot(named: memberName)
      ?? layout.addSlot(
        name: memberName, type: family.type, isOptional: family.isOptional,
        origin: .family(name: family.name, key: key), defaultValue: family.defaultValue, meaning: family.meaning)
    usedSlots.insert(slot)
    return TypedExpr(.fact(slot), family.type, isOptional: family.isOptional, range: expr.range)
  }

  /// The value of a literal, or of `-` applied to a numeric literal; nil for anything else.
  func literalValue(_ expr: Expr) -> Value? {
    switch expr.kind {
    case .literal(let literal): return literal.value
    case .unary(.negate, let inner):
      guard case .literal(let literal) = inner.kind else { return nil }
      switch literal {
      case .number(let value): return .number(Number(scaled: 0 - value.scaled))
      case .duration(let value, _): return .duration(TimeSpan(milliseconds: 0 - value.milliseconds))
      case .int, .bool, .version, .string: return nil  // `-` before an int literal is folded by the parser
      }
    case .parenthesized(let inner): return literalValue(inner)
    default: return nil
    }
  }

  // MARK: - Lists

  mutating func checkList(_ elements: [Expr], _ expr: Expr) -> Checked? {
    var values: [Value] = []
    var failed = false
    for element in elements {
      guard let value = literalValue(element) else {
        if element.kind != .error {
          report(
            .error(
              .invalidListElement, "list elements must be literals, but `\(written(element))` is not",
              at: element.range, help: ["compare separately and join with `or`"]))
        }
        failed = true
        continue
      }
      values.append(value)
    }
    guard !failed else { return nil }
    let types = Set(values.map(\.type))
    if types == [.int, .number] {
      for (index, value) in values.enumerated() {
        guard case .int(let integer) = value else { continue }
        guard let number = Number(exactly: integer) else {
          report(numberOutOfRange(elements[index]))
          return nil
        }
        values[index] = .number(number)
      }
    } else if types.count > 1, let firstType = values.first?.type,
      let index = values.firstIndex(where: { $0.type != firstType })
    {
      report(
        .error(
          .invalidListElement,
          "list elements must have one type, but `\(written(elements[0]))` is \(article(firstType)) and `\(written(elements[index]))` is \(article(values[index].type))",
          at: elements[index].range, help: ["use elements of one type"]))
      return nil
    }
    for value in values {
      if case .string(let text) = value { _ = layout.intern(text) }
    }
    return .list(values.first?.type, values)
  }

  /// `PC211` for an int list element that is compared with numbers but is too large to be one.
  func numberOutOfRange(_ element: Expr, value: Int64? = nil) -> Diagnostic {
    let text = value.map(String.init) ?? written(element)
    return .error(
      .invalidListElement, "`\(text)` is compared with numbers but is too large to be a number",
      at: element.range, help: ["numbers range up to about 9.2 trillion; use a smaller value"])
  }

  // MARK: - Operators

  mutating func checkNegate(_ operand: Expr, _ expr: Expr) -> TypedExpr? {
    guard let typed = checkPresent(operand) else { return nil }
    guard [.int, .number, .duration].contains(typed.type) else {
      report(
        .error(
          .invalidOperands, "`-` needs an int, number or duration, but `\(written(operand))` is \(article(typed.type))",
          at: expr.range, help: ["only ints, numbers and durations can be negated"]))
      return nil
    }
    return TypedExpr(.negate(typed), typed.type, range: expr.range)
  }

  mutating func checkLogical(_ op: LogicalOperator, _ operands: [Expr], _ expr: Expr) -> TypedExpr? {
    let saved = present
    defer { present = saved }
    var typed: [TypedExpr] = []
    var failed = false
    for operand in operands {
      if let value = requireBool(operand, context: "each operand of `\(op.rawValue)`") {
        typed.append(value)
      } else {
        failed = true
      }
      // Later operands run only when this one was true (`and`) or false (`or`).
      let facts = Checker.presence(of: operand)
      present.formUnion(op == .and ? facts.whenTrue : facts.whenFalse)
    }
    return failed ? nil : TypedExpr(.logical(op, typed), .bool, range: expr.range)
  }

  /// The names known present when `expr` is true, and when it is false.
  static func presence(of expr: Expr) -> (whenTrue: Set<String>, whenFalse: Set<String>) {
    switch expr.kind {
    case .has(let identifier): return ([identifier.name], [])
    case .unary(.not, let operand):
      let inner = presence(of: operand)
      return (inner.whenFalse, inner.whenTrue)
    case .parenthesized(let inner): return presence(of: inner)
    case .logical(let op, let operands):
      let parts = operands.map(presence(of:))
      let unionTrue = parts.reduce(into: Set<String>()) { $0.formUnion($1.whenTrue) }
      let unionFalse = parts.reduce(into: Set<String>()) { $0.formUnion($1.whenFalse) }
      let intersectTrue = parts.dropFirst().reduce(parts.first?.whenTrue ?? []) { $0.intersection($1.whenTrue) }
      let intersectFalse = parts.dropFirst().reduce(parts.first?.whenFalse ?? []) { $0.intersection($1.whenFalse) }
      return op == .and ? (unionTrue, intersectFalse) : (intersectTrue, unionFalse)
    case .literal, .name, .call, .list, .unary(.negate, _), .binary, .error: return ([], [])
    }
  }

  mutating func checkBinary(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    switch op {
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
      return checkComparison(op, lhs, rhs, expr)
    case .in, .notIn:
      return checkMembership(negated: op == .notIn, lhs, rhs, expr)
    case .coalesce:
      return checkCoalesce(lhs, rhs, expr)
    case .add, .subtract, .multiply, .divide, .remainder:
      return checkArithmetic(op, lhs, rhs, expr)
    }
  }

  mutating func checkComparison(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkPresent(lhs)
    let right = checkPresent(rhs)
    guard var l = left, var r = right else { return nil }
    if l.type != r.type {
      if l.type == .int && r.type == .number {
        l = TypedExpr(.promote(l), .number, range: l.writtenRange)
      } else if l.type == .number && r.type == .int {
        r = TypedExpr(.promote(r), .number, range: r.writtenRange)
      } else {
        report(
          .error(
            .incomparableTypes, "`\(written(expr))` compares \(article(l.type)) with \(article(r.type))",
            at: expr.range, help: unitHelp(l, lhs, r, rhs)))
        return nil
      }
    }
    let comparison = ComparisonOperator(op) ?? .equal
    if comparison != .equal && comparison != .notEqual && !l.type.isOrdered {
      let help =
        l.type == .bool
        ? "compare `bool` values with `==` or `!=`, or use `not`"
        : "strings can only be compared with `==`, `!=` and `in`"
      report(
        .error(
          .unorderedType, "`\(op.rawValue)` needs ordered values, but `\(written(lhs))` is \(article(l.type))",
          at: expr.range, help: [help]))
      return nil
    }
    return TypedExpr(.compare(comparison, l, r), .bool, range: expr.range)
  }

  /// Advice for two operands of different types: a missing unit, `since`, a version literal.
  func unitHelp(_ l: TypedExpr, _ lhs: Expr, _ r: TypedExpr, _ rhs: Expr) -> [String] {
    for (a, aExpr, b, bExpr) in [(l, lhs, r, rhs), (r, rhs, l, lhs)] {
      let aText = written(aExpr)
      let bText = written(bExpr)
      switch (a.type, b.type) {
      case (.duration, .int), (.duration, .number):
        if case .literal(let literal) = bExpr.kind, case .int(let count) = literal {
          return ["add a unit to the number: `\(count)d` for \(count) days, `\(count)h` for hours, `\(count)w` for weeks"]
        }
        return ["`\(bText)` is \(article(b.type)); turn it into a duration by multiplying by a unit, as in `\(bText) * 1d`"]
      case (.instant, .duration):
        return ["to compare how long ago `\(aText)` was, write `since(\(aText))`"]
      case (.instant, .int), (.instant, .number):
        return ["to compare how long ago `\(aText)` was, write `since(\(aText))` and give the number a unit, as in `30d`"]
      case (.version, .number), (.version, .int):
        if case .literal = bExpr.kind {
          return ["write versions with a `v`: `v\(bText)\(b.type == .int ? ".0" : "")`"]
        }
        return ["`\(bText)` is \(article(b.type)), not a version"]
      case (.version, .string):
        if case .literal(.string(let text)) = bExpr.kind, let version = Version(parsing: text) {
          return ["write versions without quotes: `v\(version)`"]
        }
        return ["versions are written like `v2.1`"]
      case (.bool, .int):
        return ["write `\(aText) == true` or `\(aText) == false`, or use `\(aText)` and `not \(aText)`"]
      default:
        continue
      }
    }
    return ["both sides must have the same type"]
  }

  mutating func checkMembership(negated: Bool, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkPresent(lhs)
    let right = check(rhs)
    guard var l = left, let right else { return nil }
    guard case .list(let elementType, var values) = right else {
      report(
        .error(
          .misplacedList, "the right of `\(negated ? "not in" : "in")` must be a list", at: rhs.range,
          help: ["write a list of literals, as in `country in [\"US\", \"CA\"]`"]))
      return nil
    }
    guard let elementType else {
      report(
        .warning(
          .emptyList, "`\(written(expr))` tests an empty list, so it is always \(negated ? "true" : "false")",
          at: rhs.range, help: ["add elements or remove the test"]))
      return TypedExpr(.membership(negated: negated, l, []), .bool, range: expr.range)
    }
    if l.type == .int && elementType == .number {
      l = TypedExpr(.promote(l), .number, range: l.writtenRange)
    } else if l.type == .number && elementType == .int {
      for (index, value) in values.enumerated() {
        guard case .int(let integer) = value else { continue }
        guard let number = Number(exactly: integer) else {
          report(numberOutOfRange(rhs, value: integer))
          return nil
        }
        values[index] = .number(number)
      }
    } else if l.type != elementType {
      report(
        .error(
          .incomparableTypes, "`\(written(expr))` looks for \(article(l.type)) in a list of `\(elementType)` values",
          at: expr.range, help: ["the value and the list elements must have the same type"]))
      return nil
    }
    return TypedExpr(.membership(negated: negated, l, values), .bool, range: expr.range)
  }

  mutating func checkCoalesce(_ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkValue(lhs)
    let right = checkValue(rhs)
    guard var l = left, var r = right else { return nil }
    if !l.isOptional {
      report(
        .warning(
          .needlessDefault, "`\(written(lhs))` is never absent, so the default `\(written(rhs))` is never used",
          at: rhs.range, help: ["remove `?? \(written(rhs))`"]))
    }
    if l.type != r.type {
      if l.type == .number && r.type == .int, !r.isOptional {
        r = TypedExpr(.promote(r), .number, range: r.writtenRange)
      } else if l.type == .int && r.type == .number, !l.isOptional {
        l = TypedExpr(.promote(l), .number, range: l.writtenRange)
      } else {
        report(
          .error(
            .incomparableTypes, "the default `\(written(rhs))` is \(article(r.type)), but `\(written(lhs))` is \(article(l.type))",
            at: rhs.range, help: ["give a default of the same type, such as `\(defaultExample(for: l.type))`"]))
        return nil
      }
    }
    return TypedExpr(.coalesce(l, r), l.type, isOptional: r.isOptional, range: expr.range)
  }

  mutating func checkArithmetic(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkPresent(lhs)
    let right = checkPresent(rhs)
    guard var l = left, var r = right else { return nil }
    if (op == .divide || op == .remainder), let divisor = literalValue(rhs), isZero(divisor) {
      report(
        .error(
          .divisionByZero, "`\(written(expr))` divides by zero", at: rhs.range,
          help: ["division by zero has no value"]))
      return nil
    }
    // int mixed with number: promote the int.
    if l.type == .int && r.type == .number { l = TypedExpr(.promote(l), .number, range: l.writtenRange) }
    if l.type == .number && r.type == .int { r = TypedExpr(.promote(r), .number, range: r.writtenRange) }
    let result: (Arithmetic, PolicyType)?
    switch (op, l.type, r.type) {
    case (.add, .int, .int): result = (.addInt, .int)
    case (.subtract, .int, .int): result = (.subtractInt, .int)
    case (.multiply, .int, .int): result = (.multiplyInt, .int)
    case (.divide, .int, .int): result = (.divideInt, .int)
    case (.remainder, .int, .int): result = (.remainderInt, .int)
    case (.add, .number, .number): result = (.addNumber, .number)
    case (.subtract, .number, .number): result = (.subtractNumber, .number)
    case (.multiply, .number, .number): result = (.multiplyNumber, .number)
    case (.divide, .number, .number): result = (.divideNumber, .number)
    case (.add, .duration, .duration): result = (.addDuration, .duration)
    case (.subtract, .duration, .duration): result = (.subtractDuration, .duration)
    case (.multiply, .duration, .int): result = (.multiplyDuration, .duration)
    case (.multiply, .int, .duration): result = (.multiplyIntByDuration, .duration)
    case (.divide, .duration, .int): result = (.divideDurationByInt, .duration)
    case (.divide, .duration, .duration): result = (.divideDurations, .int)
    case (.add, .instant, .duration): result = (.addToInstant, .instant)
    case (.add, .duration, .instant): result = (.addInstantToDuration, .instant)
    case (.subtract, .instant, .duration): result = (.subtractFromInstant, .instant)
    case (.subtract, .instant, .instant): result = (.subtractInstants, .duration)
    default: result = nil
    }
    guard let (operation, type) = result else {
      let verb: String
      switch op {
      case .add: verb = "add"
      case .subtract: verb = "subtract"
      case .multiply: verb = "multiply"
      case .divide: verb = "divide"
      default: verb = "take the remainder of"
      }
      var help = unitHelp(l, lhs, r, rhs)
      if l.type == .instant && r.type == .instant && op == .add {
        help = ["subtract instants to get the duration between them: `\(written(lhs)) - \(written(rhs))`"]
      } else if l.type == .duration && r.type == .duration && op == .multiply {
        help = ["multiply a duration by an int, as in `2 * 1d`"]
      } else if help == ["both sides must have the same type"] {
        help = ["`\(op.rawValue)` works on ints, numbers and durations, and adds durations to instants"]
      }
      report(
        .error(
          .invalidOperands, "cannot \(verb) \(article(l.type)) and \(article(r.type)) in `\(written(expr))`",
          at: expr.range, help: help))
      return nil
    }
    return TypedExpr(.arithmetic(operation, l, r), type, range: expr.range)
  }

  func isZero(_ value: Value) -> Bool {
    switch value {
    case .int(let integer): integer == 0
    case .number(let number): number.scaled == 0
    case .duration(let span): span.milliseconds == 0
    default: false
    }
  }
}
