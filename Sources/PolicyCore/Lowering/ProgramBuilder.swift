/// Lowers checked rules and `let`s to a flat ``Program``.
///
/// Conditions become jumps (`and`/`or` short-circuit without materialising
/// booleans), values go into fresh registers, and names are already slots.
/// Recursion follows the typed tree, whose depth the parser capped.
struct ProgramBuilder {
  private var program = Program()
  private let layout: FactLayout
  private var labelTargets: [Int] = []
  private var fixups: [(instruction: Int, label: Int)] = []
  private var nextRegister = 1
  private var firstScratchRegister = 1
  private var letValueRegisters: [Int: Int] = [:]
  private var letStateRegisters: [Int: Int] = [:]
  private var currentRange = SourceRange.empty(at: 0)

  private struct Label { var id: Int }

  init(layout: FactLayout) {
    self.layout = layout
  }

  /// Builds the program for a checked policy: its `let`s (evaluated first, in order), then its rules.
  static func build(_ checked: CheckedPolicy) -> Program {
    let (layout, lets, rules, usedSlots) = (checked.layout, checked.lets, checked.rules, checked.usedSlots)
    var builder = ProgramBuilder(layout: layout)
    // Registers for every used let come first, so rules can read them.
    for (index, checked) in lets.enumerated() where checked.isUsed {
      guard let value = checked.value else { continue }
      builder.letValueRegisters[index] = builder.nextRegister
      builder.nextRegister += value.type == .version ? 2 : 1
      builder.letStateRegisters[index] = builder.nextRegister
      builder.nextRegister += 1
    }
    builder.firstScratchRegister = builder.nextRegister
    for (index, checked) in lets.enumerated() {
      guard let value = checked.value, let valueRegister = builder.letValueRegisters[index],
        let stateRegister = builder.letStateRegisters[index]
      else { continue }
      builder.program.letEntries.append((builder.program.code.count, stateRegister))
      builder.emitLet(value, into: valueRegister)
    }
    for rule in rules {
      builder.program.ruleEntries.append(builder.program.code.count)
      builder.emitRule(rule.condition)
    }
    builder.resolveLabels()
    builder.program.registerCount = max(builder.program.registerCount, builder.nextRegister)
    var mask = Array(repeating: UInt64(0), count: max((layout.slots.count + 63) / 64, 1))
    for slot in usedSlots where !layout.slots[slot].isOptional {
      mask[slot >> 6] |= 1 << UInt64(slot & 63)
    }
    builder.program.requiredMask = mask
    return builder.program
  }

  // MARK: - Emission helpers

  @inline(never)
  private mutating func emit(_ instruction: Instruction) {
    program.code.append(instruction)
    program.ranges.append(currentRange)
  }

  private mutating func newLabel() -> Label {
    labelTargets.append(-1)
    return Label(id: labelTargets.count - 1)
  }

  private mutating func place(_ label: Label) {
    labelTargets[label.id] = program.code.count
  }

  @inline(never)
  private mutating func emitJump(_ op: Opcode, a: Int = 0, c: Int = 0, immediate: Int64 = 0, to label: Label) {
    fixups.append((program.code.count, label.id))
    emit(Instruction(op, a: a, b: 0, c: c, immediate: immediate))
  }

  private mutating func resolveLabels() {
    for (instruction, label) in fixups {
      program.code[instruction].b = Int32(truncatingIfNeeded: labelTargets[label])
    }
  }

  /// Frees every register allocated since `mark` (their values have been consumed).
  private mutating func release(to mark: Int) {
    nextRegister = mark
  }

  private mutating func newRegister(for type: PolicyType) -> Int {
    let register = nextRegister
    nextRegister += type == .version ? 2 : 1
    program.registerCount = max(program.registerCount, nextRegister)
    return register
  }

  // MARK: - Segments

  private mutating func emitRule(_ condition: TypedExpr) {
    nextRegister = firstScratchRegister
    currentRange = condition.range
    let otherwise = newLabel()
    emitBranch(condition, when: false, to: otherwise)
    emit(Instruction(.returnTrue))
    place(otherwise)
    emit(Instruction(.returnFalse))
  }

  private mutating func emitLet(_ value: TypedExpr, into register: Int) {
    nextRegister = firstScratchRegister
    currentRange = value.range
    let absent = newLabel()
    emitOptional(value, into: register, absent: absent)
    emit(Instruction(.returnTrue))
    place(absent)
    emit(Instruction(.returnFalse))
  }

  // MARK: - Conditions

  /// Emits code that jumps to `label` when `expr` evaluates to `when`, and falls through otherwise.
  private mutating func emitBranch(_ expr: TypedExpr, when: Bool, to label: Label) {
    currentRange = expr.range
    switch expr.node {
    case .constant(.bool(let value)):
      if value == when { emitJump(.jump, to: label) }
    case .not(let inner):
      emitBranch(inner, when: !when, to: label)
    case .logical(let op, let operands):
      // `and` jumping when false, or `or` jumping when true: every operand may jump straight out.
      let straight = (op == .and) != when
      if straight {
        for operand in operands { emitBranch(operand, when: when, to: label) }
      } else {
        let skip = newLabel()
        for operand in operands.dropLast() { emitBranch(operand, when: !when, to: skip) }
        if let last = operands.last { emitBranch(last, when: when, to: label) }
        place(skip)
      }
    case .has(.fact(let slot)):
      emitJump(when ? .jumpIfPresent : .jumpIfAbsent, a: slot, to: label)
    case .has(.letValue(let index)):
      let state = letStateRegisters[index] ?? 0
      emitJump(when ? .jumpIfLetPresent : .jumpIfLetAbsent, a: state, to: label)
    case .fact(let slot) where expr.type == .bool:
      emitJump(when ? .jumpIfFactTrue : .jumpIfFactFalse, a: layout.slots[slot].word, to: label)
    case .compare(let op, let lhs, let rhs):
      emitComparison(when ? op : op.negated, lhs, rhs, to: label)
    case .membership(let negated, let operand, let values):
      emitMembership(jumpIfIn: when != negated, operand, values, to: label)
    default:
      let mark = nextRegister
      let register = emitValue(expr)
      currentRange = expr.range
      emitJump(when ? .jumpIfTrue : .jumpIfFalse, a: register, to: label)
      release(to: mark)
    }
  }

  private mutating func emitComparison(_ op: ComparisonOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, to label: Label) {
    let mark = nextRegister
    defer { release(to: mark) }
    if lhs.type == .version, case .fact(let left) = lhs.node, case .fact(let right) = rhs.node {
      // Two version facts in one jump (read as `loadFactPair` reads them: a guard has made an
      // optional one present): `immediate` holds the orderings (less, equal, greater) that jump.
      let orderings: Int64 =
        (ProgramBuilder.holds(op, 0, 1) ? 1 : 0) | (ProgramBuilder.holds(op, 0, 0) ? 2 : 0)
        | (ProgramBuilder.holds(op, 1, 0) ? 4 : 0)
      emitJump(
        .jumpIfFactVersionsOrdered, a: layout.slots[left].word, c: layout.slots[right].word, immediate: orderings,
        to: label)
      return
    }
    if lhs.type == .version {
      let left = emitValue(lhs)
      let right = emitValue(rhs)
      let ordering = newRegister(for: .int)
      emit(Instruction(.compareVersions, a: ordering, b: left, c: right))
      emitJump(ProgramBuilder.registerImmediateJump(op), a: ordering, immediate: 0, to: label)
      return
    }
    if let (slot, constant, swapped) = sinceOfFact(lhs, rhs) {
      // `since(fact) OP constant` in one instruction (absent facts are infinitely long ago).
      let fused = swapped ? op.swapped : op
      emitJump(
        ProgramBuilder.sinceJump(fused), a: layout.slots[slot].word, c: layout.slots[slot].isOptional ? slot : -1,
        immediate: constant, to: label)
    } else if let (slot, fallback, constant, swapped) = coalescedFact(lhs, rhs) {
      // `(fact ?? fallback) OP constant` in one jump: an absent fact's outcome is known now.
      let fused = swapped ? op.swapped : op
      emitJump(
        ProgramBuilder.optionalFactJump(fused), a: layout.slots[slot].word,
        c: ProgramBuilder.holds(fused, fallback, constant) ? ~slot : slot, immediate: constant, to: label)
    } else if case .fact(let slot) = lhs.node, let constant = constantWord(rhs) {
      emitJump(ProgramBuilder.factJump(op), a: layout.slots[slot].word, immediate: constant, to: label)
    } else if case .fact(let slot) = rhs.node, let constant = constantWord(lhs) {
      emitJump(ProgramBuilder.factJump(op.swapped), a: layout.slots[slot].word, immediate: constant, to: label)
    } else if let constant = constantWord(rhs) {
      let left = emitValue(lhs)
      emitJump(ProgramBuilder.registerImmediateJump(op), a: left, immediate: constant, to: label)
    } else {
      let left = emitValue(lhs)
      let right = emitValue(rhs)
      emitJump(ProgramBuilder.registerJump(op), a: left, c: right, to: label)
    }
  }

  private mutating func emitMembership(jumpIfIn: Bool, _ operand: TypedExpr, _ values: [Value], to label: Label) {
    let mark = nextRegister
    defer { release(to: mark) }
    // The operand is evaluated even for an empty list: it may fault, and a fault must count.
    let register = emitValue(operand)
    if values.isEmpty {
      if !jumpIfIn { emitJump(.jump, to: label) }
      return
    }
    if operand.type == .version {
      var pairs: [(UInt64, UInt64)] = []
      for case .version(let version) in values { pairs.append((version.high, version.low)) }
      pairs = pairs.stablySorted { $0 < $1 }
      let location = Int64(program.setData.count) << 32 | Int64(pairs.count)
      program.setData += pairs.flatMap { [Int64(bitPattern: $0.0), Int64(bitPattern: $0.1)] }
      emitJump(jumpIfIn ? .jumpIfVersionIn : .jumpIfVersionNotIn, a: register, immediate: location, to: label)
    } else {
      var words: [Int64] = []
      for value in values {
        if let word = word(of: value) { words.append(word) }
      }
      let set = Set(words).stablySorted(by: <)
      let location = Int64(program.setData.count) << 32 | Int64(set.count)
      program.setData += set
      emitJump(jumpIfIn ? .jumpIfIn : .jumpIfNotIn, a: register, immediate: location, to: label)
    }
  }

  /// `since(fact)` against a constant duration, on either side: the fact's slot, the constant and
  /// whether the operands were swapped.
  private func sinceOfFact(_ lhs: TypedExpr, _ rhs: TypedExpr) -> (slot: Int, constant: Int64, swapped: Bool)? {
    func slot(_ expr: TypedExpr) -> Int? {
      switch expr.node {
      case .since(let inner):
        if case .fact(let slot) = inner.node { return slot }
        return nil
      default: return nil
      }
    }
    if let slot = slot(lhs), let constant = constantWord(rhs), constant != TimeSpan.infinite.milliseconds {
      return (slot, constant, false)
    }
    if let slot = slot(rhs), let constant = constantWord(lhs), constant != TimeSpan.infinite.milliseconds {
      return (slot, constant, true)
    }
    return nil
  }

  /// `(fact ?? constant)` against a constant, on either side: the optional fact's slot, the
  /// fallback's word, the constant and whether the operands were swapped.
  private func coalescedFact(
    _ lhs: TypedExpr, _ rhs: TypedExpr
  ) -> (slot: Int, fallback: Int64, constant: Int64, swapped: Bool)? {
    func parts(_ expr: TypedExpr) -> (slot: Int, fallback: Int64)? {
      guard case .coalesce(let value, let fallback) = expr.node,
        case .fact(let slot) = value.node, layout.slots[slot].isOptional,
        layout.slots[slot].type != .version, let word = constantWord(fallback)
      else { return nil }
      return (slot, word)
    }
    if let (slot, fallback) = parts(lhs), let constant = constantWord(rhs) { return (slot, fallback, constant, false) }
    if let (slot, fallback) = parts(rhs), let constant = constantWord(lhs) { return (slot, fallback, constant, true) }
    return nil
  }

  /// Whether `lhs OP rhs` holds for two storage words, as the fact-jump instructions compare them.
  static func holds(_ op: ComparisonOperator, _ lhs: Int64, _ rhs: Int64) -> Bool {
    switch op {
    case .equal: lhs == rhs
    case .notEqual: lhs != rhs
    case .less: lhs < rhs
    case .lessEqual: lhs <= rhs
    case .greater: lhs > rhs
    case .greaterEqual: lhs >= rhs
    }
  }

  static func sinceJump(_ op: ComparisonOperator) -> Opcode {
    switch op {
    case .equal: .jumpIfSinceEqual
    case .notEqual: .jumpIfSinceNotEqual
    case .less: .jumpIfSinceLess
    case .lessEqual: .jumpIfSinceLessEqual
    case .greater: .jumpIfSinceGreater
    case .greaterEqual: .jumpIfSinceGreaterEqual
    }
  }

  static func optionalFactJump(_ op: ComparisonOperator) -> Opcode {
    switch op {
    case .equal: .jumpIfOptionalFactEqual
    case .notEqual: .jumpIfOptionalFactNotEqual
    case .less: .jumpIfOptionalFactLess
    case .lessEqual: .jumpIfOptionalFactLessEqual
    case .greater: .jumpIfOptionalFactGreater
    case .greaterEqual: .jumpIfOptionalFactGreaterEqual
    }
  }

  static func factJump(_ op: ComparisonOperator) -> Opcode {
    switch op {
    case .equal: .jumpIfFactEqual
    case .notEqual: .jumpIfFactNotEqual
    case .less: .jumpIfFactLess
    case .lessEqual: .jumpIfFactLessEqual
    case .greater: .jumpIfFactGreater
    case .greaterEqual: .jumpIfFactGreaterEqual
    }
  }

  static func registerJump(_ op: ComparisonOperator) -> Opcode {
    switch op {
    case .equal: .jumpIfEqual
    case .notEqual: .jumpIfNotEqual
    case .less: .jumpIfLess
    case .lessEqual: .jumpIfLessEqual
    case .greater: .jumpIfGreater
    case .greaterEqual: .jumpIfGreaterEqual
    }
  }

  static func registerImmediateJump(_ op: ComparisonOperator) -> Opcode {
    switch op {
    case .equal: .jumpIfEqualImmediate
    case .notEqual: .jumpIfNotEqualImmediate
    case .less: .jumpIfLessImmediate
    case .lessEqual: .jumpIfLessEqualImmediate
    case .greater: .jumpIfGreaterImmediate
    case .greaterEqual: .jumpIfGreaterEqualImmediate
    }
  }

  // MARK: - Constants

  /// The storage word of a one-word constant, or nil when `expr` is not a constant.
  private func constantWord(_ expr: TypedExpr) -> Int64? {
    switch expr.node {
    case .constant(let value): return word(of: value)
    case .promote(let inner):
      guard case .constant(.int(let integer)) = inner.node, let number = Number(exactly: integer) else { return nil }
      return number.scaled
    default: return nil
    }
  }

  /// The storage word of a one-word value (strings become interned ids).
  private func word(of value: Value) -> Int64? {
    if case .string(let text) = value { return layout.stringIDs[text] ?? 0 }
    return value.storageWord
  }

  // MARK: - Values

  /// Emits code computing `expr` into a fresh register (two for a version) and returns it.
  private mutating func emitValue(_ expr: TypedExpr) -> Int {
    currentRange = expr.range
    switch expr.node {
    case .constant(.version(let version)):
      let register = newRegister(for: .version)
      emitVersionConstant(version, into: register)
      return register
    case .constant(let value):
      let register = newRegister(for: expr.type)
      emit(Instruction(.loadImmediate, a: register, immediate: word(of: value) ?? 0))
      return register
    case .fact(let slot):
      let register = newRegister(for: expr.type)
      emit(Instruction(expr.type == .version ? .loadFactPair : .loadFact, a: register, b: layout.slots[slot].word))
      return register
    case .letValue(let index):
      let register = newRegister(for: expr.type)
      emit(
        Instruction(
          expr.type == .version ? .loadLetPair : .loadLet, a: register, b: letValueRegisters[index] ?? 0,
          c: letStateRegisters[index] ?? 0))
      return register
    case .now:
      return 0
    case .has, .not, .logical, .compare, .membership:
      let register = newRegister(for: .bool)
      emit(Instruction(.loadImmediate, a: register, immediate: 0))
      let done = newLabel()
      emitBranch(expr, when: false, to: done)
      emit(Instruction(.loadImmediate, a: register, immediate: 1))
      place(done)
      release(to: register + 1)
      return register
    case .arithmetic(let operation, let lhs, let rhs):
      // The instruction reads both operands before it writes, so the result can reuse their registers.
      let mark = nextRegister
      let left = emitValue(lhs)
      let right = emitValue(rhs)
      release(to: mark)
      let register = newRegister(for: expr.type)
      currentRange = expr.range
      emit(Instruction(ProgramBuilder.opcode(for: operation), a: register, b: left, c: right))
      return register
    case .negate(let operand):
      let mark = nextRegister
      let source = emitValue(operand)
      release(to: mark)
      let register = newRegister(for: expr.type)
      currentRange = expr.range
      emit(Instruction(operand.type == .duration ? .negateDuration : .negateInt, a: register, b: source))
      return register
    case .promote(let operand):
      if let constant = constantWord(expr) {
        let register = newRegister(for: .number)
        emit(Instruction(.loadImmediate, a: register, immediate: constant))
        return register
      }
      let mark = nextRegister
      let source = emitValue(operand)
      release(to: mark)
      let register = newRegister(for: .number)
      currentRange = expr.range
      emit(Instruction(.promote, a: register, b: source))
      return register
    case .coalesce:
      let register = newRegister(for: expr.type)
      let absent = newLabel()
      emitOptional(expr, into: register, absent: absent)
      place(absent)  // unreachable: the checker only lets a value that cannot be absent get here
      release(to: register + (expr.type == .version ? 2 : 1))
      return register
    case .since(let instant):
      let register = newRegister(for: .duration)
      if instant.isOptional {
        let absent = newLabel()
        let done = newLabel()
        let source = newRegister(for: .instant)
        emitOptional(instant, into: source, absent: absent)
        currentRange = expr.range
        emit(Instruction(.subtractInstants, a: register, b: 0, c: source))
        emitJump(.jump, to: done)
        place(absent)
        emit(Instruction(.loadImmediate, a: register, immediate: TimeSpan.infinite.milliseconds))
        place(done)
      } else {
        let source = emitValue(instant)
        currentRange = expr.range
        emit(Instruction(.subtractInstants, a: register, b: 0, c: source))
      }
      release(to: register + 1)
      return register
    case .call(let function, let arguments):
      // The instruction reads its arguments before it writes, so the result can reuse their registers.
      let mark = nextRegister
      let first = arguments.first.map { emitValue($0) } ?? 0
      let second = arguments.count > 1 ? emitValue(arguments[1]) : 0
      release(to: mark)
      let register = newRegister(for: expr.type)
      currentRange = expr.range
      let type = arguments.first?.type ?? expr.type
      emit(
        Instruction(
          .callFunction, a: register, b: first, c: second, immediate: Int64(function.code) << 8 | Int64(type.code)))
      return register
    case .bucket(_, let hash):
      let register = newRegister(for: .int)
      emit(Instruction(.bucket, a: register, immediate: Int64(bitPattern: hash)))
      return register
    case .extremum(let isMinimum, let operands):
      var result = emitValue(operands[0])
      for operand in operands.dropFirst() {
        let next = emitValue(operand)
        let register = newRegister(for: expr.type)
        currentRange = expr.range
        let op: Opcode =
          expr.type == .version ? (isMinimum ? .minimumVersion : .maximumVersion) : (isMinimum ? .minimum : .maximum)
        emit(Instruction(op, a: register, b: result, c: next))
        result = register
      }
      return result
    }
  }

  private mutating func emitVersionConstant(_ version: Version, into register: Int) {
    emit(
      Instruction(
        .loadImmediatePair, a: register, b: Int(Int32(bitPattern: UInt32(version.low >> 32))),
        c: Int(Int32(bitPattern: UInt32(version.low & 0xFFFF_FFFF))), immediate: Int64(bitPattern: version.high)))
  }

  /// Emits code putting `expr` into `register`, or jumping to `absent` when it has no value.
  private mutating func emitOptional(_ expr: TypedExpr, into register: Int, absent: Label) {
    currentRange = expr.range
    let isPair = expr.type == .version
    switch expr.node {
    case .fact(let slot) where layout.slots[slot].isOptional:
      emitJump(.jumpIfAbsent, a: slot, to: absent)
      emit(Instruction(isPair ? .loadFactPair : .loadFact, a: register, b: layout.slots[slot].word))
    case .letValue(let index):
      let state = letStateRegisters[index] ?? 0
      emitJump(.jumpIfLetAbsent, a: state, to: absent)
      emit(Instruction(isPair ? .loadLetPair : .loadLet, a: register, b: letValueRegisters[index] ?? 0, c: state))
    case .coalesce(let lhs, let rhs):
      let useRight = newLabel()
      let done = newLabel()
      emitOptional(lhs, into: register, absent: useRight)
      emitJump(.jump, to: done)
      place(useRight)
      emitOptional(rhs, into: register, absent: absent)
      place(done)
    case .constant(.version(let version)):
      emitVersionConstant(version, into: register)
    case .constant(let value):
      emit(Instruction(.loadImmediate, a: register, immediate: word(of: value) ?? 0))
    default:
      let mark = nextRegister
      let value = emitValue(expr)
      emit(Instruction(isPair ? .movePair : .move, a: register, b: value))
      release(to: mark)
    }
  }

  static func opcode(for operation: Arithmetic) -> Opcode {
    switch operation {
    case .addInt, .addNumber: .addInt
    case .subtractInt, .subtractNumber: .subtractInt
    case .multiplyInt: .multiplyInt
    case .divideInt: .divideInt
    case .remainderInt: .remainderInt
    case .multiplyNumber: .multiplyNumber
    case .divideNumber: .divideNumber
    case .addDuration: .addDuration
    case .subtractDuration: .subtractDuration
    case .multiplyDuration: .multiplyDuration
    case .multiplyIntByDuration: .multiplyIntByDuration
    case .divideDurationByInt: .divideDurationByInt
    case .divideDurations: .divideDurations
    case .addToInstant: .addToInstant
    case .addInstantToDuration: .addInstantToDuration
    case .subtractFromInstant: .subtractFromInstant
    case .subtractInstants: .subtractInstants
    }
  }
}
