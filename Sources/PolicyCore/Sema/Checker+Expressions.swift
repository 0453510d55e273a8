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
      report(CheckerMessages.listOutsideIn(written(expr), at: expr.range))
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
    var isName = false
    if case .name = expr.kind { isName = true }
    report(CheckerMessages.unguardedAbsentValue(written(expr), isName: isName, type: typed.type, at: expr.range))
    return nil
  }

  /// Checks a `bool` operand; `context` names what needs it, as in "`and`".
  mutating func requireBool(_ expr: Expr, context: @autoclosure () -> String) -> TypedExpr? {
    guard let typed = checkPresent(expr) else { return nil }
    guard typed.type == .bool else {
      report(CheckerMessages.notBoolean(operand(typed, expr), context: context(), at: expr.range))
      return nil
    }
    return typed
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
      return requireBool(operand, context: CheckerMessages.notOperandContext).map {
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
      report(CheckerMessages.useBeforeDefinition(name, definedOnLine: line(position.start), at: identifier.range))
      return
    }
    if let family = schema.family(named: name) {
      report(CheckerMessages.missingKey(family, at: identifier.range))
      return
    }
    if let builtin = Builtin(rawValue: name) {
      report(CheckerMessages.functionWithoutArguments(builtin, at: identifier.range))
      return
    }
    if let (family, event) = eventNamed(like: name) {
      let forms = schema.families.filter { $0.keyType == .string && $0.keyMeaning == family.keyMeaning }.map(\.name)
      report(
        CheckerMessages.unknownNameLikeKey(name, family: family.name, key: event, forms: forms, at: identifier.range))
      return
    }
    var diagnostic = CheckerMessages.unknownName(name, candidates: candidateNames(), at: identifier.range)
    if diagnostic.fixIts.isEmpty, name.hasSuffix("s"), name.count > 2 {
      let forms = schema.families.filter { $0.keyType == .string }
      if let first = forms.first {
        diagnostic.help.append(
          CheckerMessages.keyedFormAdvice(
            key: String(name.dropLast()), keyMeaning: first.keyMeaning,
            forms: forms.filter { $0.keyMeaning == first.keyMeaning }.map(\.name)))
      }
    }
    report(diagnostic)
  }

  /// The string-keyed family and key the policy uses elsewhere that `name` spells, give or take a
  /// plural: `purchases` when the policy reads `events("purchase")`.
  func eventNamed(like name: String) -> (FactFamilyDefinition, String)? {
    for slot in layout.slots {
      guard case .family(let familyName, .string(let key)) = slot.origin, let family = schema.family(named: familyName),
        !key.isEmpty, [key, key + "s", key + "es"].contains(name)
      else { continue }
      return (family, key)
    }
    return nil
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
        report(CheckerMessages.hasOnList(name, at: expr.range))
      }
      return nil  // a broken `let` was already reported
    } else if let slot = layout.slot(named: name) {
      usedSlots.insert(slot)
      source = .fact(slot)
      isOptional = layout.slots[slot].isOptional
    } else if name == Builtin.nowName {
      report(CheckerMessages.hasNow(at: expr.range))
      return TypedExpr(.constant(.bool(true)), .bool, range: expr.range)
    } else {
      reportUnknownName(identifier)
      return nil
    }
    if !isOptional {
      report(CheckerMessages.alwaysPresent(name, at: expr.range))
    }
    return TypedExpr(.has(source), .bool, range: expr.range)
  }

  // MARK: - Calls

  mutating func checkCall(_ name: Identifier, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    if let builtin = Builtin(rawValue: name.name) {
      switch builtin {
      case .since: return checkSince(arguments, expr)
      case .min, .max: return checkExtremum(isMinimum: builtin == .min, name.name, arguments, expr)
      case .bucket: return checkBucket(arguments, expr)
      }
    }
    if let function = BuiltinFunction(name: name.name) {
      return checkFunction(function, arguments, expr)
    }
    if let family = schema.family(named: name.name) {
      return checkFamilyMember(family, arguments, expr)
    }
    if layout.slot(named: name.name) != nil || letsByName[name.name] != nil || name.name == Builtin.nowName {
      report(CheckerMessages.notAFunction(name.name, at: expr.range))
      return nil
    }
    report(CheckerMessages.unknownFunction(name.name, families: schema.families.map(\.name), at: name.range))
    return nil
  }

  mutating func checkSince(_ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count == 1 else {
      report(
        CheckerMessages.sinceArgumentCount(
          arguments.count, instant: exampleInstant(preferring: arguments.first), at: expr.range))
      return nil
    }
    guard let argument = checkValue(arguments[0]) else { return nil }
    guard argument.type == .instant else {
      report(
        CheckerMessages.sinceArgumentType(
          operand(argument, arguments[0]), instant: exampleInstant(), at: arguments[0].range))
      return nil
    }
    return TypedExpr(.since(argument), .duration, range: expr.range)
  }

  /// `bucket("name")`: one argument, a string literal, hashed now so evaluation only mixes.
  mutating func checkBucket(_ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count == 1 else {
      report(CheckerMessages.bucketArgumentCount(arguments.count, at: expr.range))
      return nil
    }
    var argument = arguments[0]
    while case .parenthesized(let inner) = argument.kind { argument = inner }
    guard case .literal(.string(let name)) = argument.kind else {
      // Checked first, so its names count as used and its own mistakes are reported instead.
      if checkValue(arguments[0]) != nil {
        report(CheckerMessages.bucketArgumentNotLiteral(written(arguments[0]), at: arguments[0].range))
      }
      return nil
    }
    bucketNames.insert(name)
    return TypedExpr(.bucket(name: name, hash: Bucket.nameHash(name)), .int, range: expr.range)
  }

  /// A call of a ``BuiltinFunction``: its arity, then present arguments of one accepted type.
  mutating func checkFunction(_ function: BuiltinFunction, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count == function.arity else {
      report(CheckerMessages.functionArgumentCount(function, count: arguments.count, at: expr.range))
      return nil
    }
    var typed: [TypedExpr] = []
    for argument in arguments {
      guard let value = checkPresent(argument) else { return nil }
      typed.append(value)
    }
    let accepted = function.argumentTypes
    for (index, value) in typed.enumerated() where !accepted.contains(value.type) || value.type != typed[0].type {
      report(
        CheckerMessages.functionArgumentType(
          function, operand(value, arguments[index]), at: arguments[index].range))
      return nil
    }
    return TypedExpr(.call(function, typed), function.resultType(for: typed[0].type), range: expr.range)
  }

  mutating func checkExtremum(isMinimum: Bool, _ name: String, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count >= 2 else {
      report(CheckerMessages.extremumArgumentCount(name, count: arguments.count, at: expr.range))
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
        CheckerMessages.extremumUnorderedArgument(name, operand(value, arguments[index]), at: arguments[index].range))
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
        CheckerMessages.extremumMixedArguments(
          name, first: operand(typed[0], arguments[0]), other: operand(typed[index], arguments[index]),
          at: arguments[index].range))
      return nil
    }
    return TypedExpr(.extremum(isMinimum: isMinimum, typed), resultType, range: expr.range)
  }

  mutating func checkFamilyMember(_ family: FactFamilyDefinition, _ arguments: [Expr], _ expr: Expr) -> TypedExpr? {
    guard arguments.count == 1 else {
      report(CheckerMessages.familyKeyCount(family, count: arguments.count, at: expr.range))
      return nil
    }
    guard let key = literalValue(arguments[0]), key.type == family.keyType else {
      report(CheckerMessages.familyKeyType(family, at: arguments[0].range))
      return nil
    }
    if key.isNotPositive {
      report(CheckerMessages.familyKeyNotPositive(family, at: arguments[0].range))
      return nil
    }
    if family.keyIsEventName, case .string(let event) = key, !isKnownEvent(event) {
      // The sorted names (and the did-you-mean over them) only for an error that is reported.
      if !bag.isFull, let known = knownEventNames {
        report(
          CheckerMessages.unknownEvent(
            event, known: known, fromDeclarations: !declaredEvents.isEmpty, declaredAt: firstEventDeclaration,
            at: arguments[0].range))
      }
      return nil
    }
    // Keys that agree on the family's key length name one member: the one the host reads.
    let memberKey = family.memberKey(key)
    if case .string(let text) = key, case .string(let cut) = memberKey, cut != text {
      report(CheckerMessages.cutFactKey(family, key: text, cut: cut, at: arguments[0].range))
    }
    let memberName = FactLayout.memberName(family: family.name, key: memberKey)
    let slot =
      layout.slot(named: memberName)
      ?? layout.addSlot(
        name: memberName, type: family.type, isOptional: family.isOptional,
        origin: .family(name: family.name, key: memberKey), defaultValue: family.defaultValue, meaning: family.meaning)
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
        if !element.isError {
          report(CheckerMessages.nonLiteralListElement(written(element), at: element.range))
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
      let first = CheckerMessages.Operand(expr: elements[0], written: written(elements[0]), type: firstType)
      let other = CheckerMessages.Operand(
        expr: elements[index], written: written(elements[index]), type: values[index].type)
      report(CheckerMessages.mixedListElements(first: first, other: other, at: elements[index].range))
      return nil
    }
    for value in values {
      if case .string(let text) = value { _ = layout.intern(text) }
    }
    return .list(values.first?.type, values)
  }

  /// `PC211` for an int list element that is compared with numbers but is too large to be one.
  func numberOutOfRange(_ element: Expr, value: Int64? = nil) -> Diagnostic {
    CheckerMessages.integerTooLargeForNumber(value.map(String.init) ?? written(element), at: element.range)
  }

  // MARK: - Operators

  mutating func checkNegate(_ operand: Expr, _ expr: Expr) -> TypedExpr? {
    guard let typed = checkPresent(operand) else { return nil }
    guard [.int, .number, .duration].contains(typed.type) else {
      report(CheckerMessages.invalidNegation(self.operand(typed, operand), at: expr.range))
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
      if let value = requireBool(operand, context: CheckerMessages.logicalOperandContext(op)) {
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
      // The common case, a chain without `has`: nothing to combine.
      if parts.allSatisfy({ $0.whenTrue.isEmpty && $0.whenFalse.isEmpty }) { return ([], []) }
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
        report(CheckerMessages.incomparableTypes(written(expr), operand(l, lhs), operand(r, rhs), at: expr.range))
        return nil
      }
    }
    let comparison = ComparisonOperator(op) ?? .equal
    if comparison != .equal && comparison != .notEqual && !l.type.isOrdered {
      report(CheckerMessages.unorderedComparison(op, operand(l, lhs), at: expr.range))
      return nil
    }
    return TypedExpr(.compare(comparison, l, r), .bool, range: expr.range)
  }

  mutating func checkMembership(negated: Bool, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkPresent(lhs)
    let right = check(rhs)
    guard var l = left, let right else { return nil }
    guard case .list(let elementType, var values) = right else {
      report(CheckerMessages.membershipWithoutList(negated: negated, at: rhs.range))
      return nil
    }
    guard let elementType else {
      report(CheckerMessages.emptyList(written(expr), negated: negated, at: rhs.range))
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
        CheckerMessages.membershipTypeMismatch(written(expr), type: l.type, elementType: elementType, at: expr.range))
      return nil
    }
    return TypedExpr(.membership(negated: negated, l, values), .bool, range: expr.range)
  }

  mutating func checkCoalesce(_ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkValue(lhs)
    let right = checkValue(rhs)
    guard var l = left, var r = right else { return nil }
    if !l.isOptional {
      report(CheckerMessages.needlessDefault(written(lhs), default: written(rhs), at: rhs.range))
    }
    if l.type != r.type {
      if l.type == .number && r.type == .int, !r.isOptional {
        r = TypedExpr(.promote(r), .number, range: r.writtenRange)
      } else if l.type == .int && r.type == .number, !l.isOptional {
        l = TypedExpr(.promote(l), .number, range: l.writtenRange)
      } else {
        report(CheckerMessages.defaultTypeMismatch(operand(l, lhs), default: operand(r, rhs), at: rhs.range))
        return nil
      }
    }
    return TypedExpr(.coalesce(l, r), l.type, isOptional: r.isOptional, range: expr.range)
  }

  mutating func checkArithmetic(_ op: BinaryOperator, _ lhs: Expr, _ rhs: Expr, _ expr: Expr) -> TypedExpr? {
    let left = checkPresent(lhs)
    let right = checkPresent(rhs)
    guard var l = left, var r = right else { return nil }
    if op == .divide || op == .remainder, let divisor = literalValue(rhs), isZero(divisor) {
      report(CheckerMessages.divisionByZero(written(expr), at: rhs.range))
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
      report(CheckerMessages.invalidArithmetic(op, written(expr), operand(l, lhs), operand(r, rhs), at: expr.range))
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
