/// A fault raised while walking the tree.
struct EvaluationFault: Error {
  var kind: FaultKind
}

/// The tree-walking explainer: evaluates checked trees directly, recording every atomic
/// condition with the values it saw (``CompiledPolicy/explain(_:)``). The differential tests hold
/// it to the same results as the compiled program.
struct TracingEvaluator {
  let policy: CompiledPolicy
  let facts: Facts
  var letValues: [Int: Result<Value?, EvaluationFault>] = [:]
  var conditions: [ConditionTrace] = []
  var fault: FaultKind?

  init(policy: CompiledPolicy, facts: Facts) {
    self.policy = policy
    self.facts = facts
  }

  /// Walks the logical structure of a condition, recording atoms; nil when not evaluated or faulted.
  mutating func walk(_ expr: TypedExpr, evaluate: Bool) -> Bool? {
    switch expr.node {
    case .not(let inner) where !TracingEvaluator.isAtom(inner):
      return walk(inner, evaluate: evaluate).map { !$0 }
    case .logical(let op, let operands):
      var decided: Bool?
      let first = conditions.count
      var decidingStart = first
      for operand in operands {
        let start = conditions.count
        let value = walk(operand, evaluate: evaluate && decided == nil && fault == nil)
        if decided == nil, let value, value == (op == .or) {
          decided = value
          decidingStart = start
        }
      }
      guard evaluate && fault == nil else { return nil }
      if op == .or && decided == true {
        // The operand that held decided the `or`: the ones before it failed, but they did not matter.
        for index in first..<decidingStart { conditions[index].isNeeded = false }
      }
      return decided ?? (op == .and)
    default:
      let index = conditions.count
      conditions.append(ConditionTrace(range: expr.range, status: .notNeeded, operands: [], fault: nil))
      guard evaluate && fault == nil else { return nil }
      do {
        let operands = try operandValues(expr)
        guard case .bool(let result)? = try value(expr) else { return nil }
        conditions[index].status = result ? .held : .failed
        conditions[index].operands = operands
        return result
      } catch {
        conditions[index].status = .faulted
        conditions[index].fault = error.kind
        fault = error.kind
        return nil
      }
    }
  }

  /// Whether `expr` is an atomic condition (not a chain or a negated chain).
  static func isAtom(_ expr: TypedExpr) -> Bool {
    switch expr.node {
    case .logical: false
    case .not(let inner): isAtom(inner)
    case .constant, .fact, .letValue, .now, .has, .compare, .membership, .arithmetic, .negate, .coalesce, .since,
      .extremum, .promote, .call, .bucket:
      true
    }
  }

  /// The values an atom shows: both sides of a comparison, the subject of `in`, the fact of `has`.
  func operandValues(_ expr: TypedExpr) throws(EvaluationFault) -> [OperandValue] {
    switch expr.node {
    case .not(let inner):
      return try operandValues(inner)
    case .compare(_, let lhs, let rhs):
      return [try operand(lhs), try operand(rhs)]
    case .membership(_, let operand, _):
      return [try self.operand(operand)]
    case .has(.fact(let slot)):
      return [OperandValue(range: expr.range, value: facts.value(atSlot: slot))]
    case .has(.letValue(let index)):
      return [OperandValue(range: expr.range, value: try letValue(index))]
    case .fact, .letValue:
      return [OperandValue(range: expr.range, value: try value(expr))]
    case .constant, .now, .logical, .arithmetic, .negate, .coalesce, .since, .extremum, .promote, .call, .bucket:
      return []
    }
  }

  func operand(_ expr: TypedExpr) throws(EvaluationFault) -> OperandValue {
    var isConstant = false
    if case .constant = expr.node { isConstant = true }
    if case .promote(let inner) = expr.node, case .constant = inner.node { isConstant = true }
    return OperandValue(range: expr.writtenRange, value: try value(expr), isConstant: isConstant)
  }

  /// The facts, `let`s and buckets `expr` reads, each once (by its text), in source order, with
  /// its value (nil when absent, or when it faulted).
  func inputs(of expr: TypedExpr) -> [OperandValue] {
    var inputs: [OperandValue] = []
    var seen: Set<String> = []
    expr.forEachNode { node in
      switch node.node {
      case .fact, .letValue, .has, .bucket:
        guard seen.insert(policy.source.text(in: node.range)).inserted else { return }
        inputs.append(OperandValue(range: node.range, value: (try? value(node)) ?? nil))
      case .constant, .now, .not, .negate, .promote, .since, .membership, .compare, .arithmetic, .coalesce, .logical,
        .extremum, .call:
        return
      }
    }
    return inputs
  }

  func letValue(_ index: Int) throws(EvaluationFault) -> Value? {
    switch letValues[index] {
    case .success(let value): return value
    case .failure(let fault): throw fault
    case nil: throw EvaluationFault(kind: .missingFact)
    }
  }

  // MARK: - Values

  /// The value of `expr`, nil when absent.
  func value(_ expr: TypedExpr) throws(EvaluationFault) -> Value? {
    switch expr.node {
    case .constant(let value):
      return value
    case .fact(let slot):
      return facts.value(atSlot: slot)
    case .letValue(let index):
      return try letValue(index)
    case .now:
      return .instant(facts.now)
    case .has(.fact(let slot)):
      return .bool(facts.isPresent(slot: slot))
    case .has(.letValue(let index)):
      return .bool(try letValue(index) != nil)
    case .not(let inner):
      guard case .bool(let flag)? = try value(inner) else { throw EvaluationFault(kind: .missingFact) }
      return .bool(!flag)
    case .logical(let op, let operands):
      for operand in operands {
        guard case .bool(let flag)? = try value(operand) else { throw EvaluationFault(kind: .missingFact) }
        if flag == (op == .or) { return .bool(flag) }
      }
      return .bool(op == .and)
    case .compare(let op, let lhs, let rhs):
      let left = try present(lhs)
      let right = try present(rhs)
      return .bool(op.holds(forOrdering: left.ordering(comparedWith: right)))
    case .membership(let negated, let operand, let values):
      let subject = try present(operand)
      return .bool(values.contains(subject) != negated)
    case .arithmetic(let operation, let lhs, let rhs):
      let left = try TracingEvaluator.word(try present(lhs))
      let right = try TracingEvaluator.word(try present(rhs))
      let (result, fault) = ArithmeticKernel.apply(operation, left, right)
      if let fault { throw EvaluationFault(kind: fault) }
      return TracingEvaluator.value(word: result, type: expr.type)
    case .negate(let operand):
      let (result, fault) = ArithmeticKernel.negate(
        try TracingEvaluator.word(try present(operand)), isDuration: operand.type == .duration)
      if let fault { throw EvaluationFault(kind: fault) }
      return TracingEvaluator.value(word: result, type: expr.type)
    case .promote(let operand):
      let (result, fault) = ArithmeticKernel.promote(try TracingEvaluator.word(try present(operand)))
      if let fault { throw EvaluationFault(kind: fault) }
      return .number(Number(scaled: result))
    case .coalesce(let lhs, let rhs):
      if let left = try value(lhs) { return left }
      return try value(rhs)
    case .since(let instant):
      guard let start = try value(instant) else { return .duration(.infinite) }
      let (result, fault) = ArithmeticKernel.apply(
        .subtractInstants, facts.now.millisecondsSince1970, try TracingEvaluator.word(start))
      if let fault { throw EvaluationFault(kind: fault) }
      return .duration(TimeSpan(milliseconds: result))
    case .call(let function, let arguments):
      var words: [Int64] = [0, 0]
      for (index, argument) in arguments.prefix(2).enumerated() {
        words[index] = try TracingEvaluator.word(try present(argument))
      }
      let (result, fault) = function.apply(words[0], words[1], type: arguments.first?.type ?? expr.type)
      if let fault { throw EvaluationFault(kind: fault) }
      return TracingEvaluator.value(word: result, type: expr.type)
    case .bucket(_, let hash):
      return .int(Bucket.value(seed: facts.seed, nameHash: hash))
    case .extremum(let isMinimum, let operands):
      var best = try present(operands[0])
      for operand in operands.dropFirst() {
        let next = try present(operand)
        let ordering = next.ordering(comparedWith: best)
        if isMinimum ? ordering < 0 : ordering > 0 { best = next }
      }
      return best
    }
  }

  func present(_ expr: TypedExpr) throws(EvaluationFault) -> Value {
    guard let result = try value(expr) else { throw EvaluationFault(kind: .missingFact) }
    return result
  }

  /// The storage word of a one-word value; versions and strings have none (the checker never
  /// lets them reach arithmetic).
  static func word(_ value: Value) throws(EvaluationFault) -> Int64 {
    guard let word = value.storageWord else { throw EvaluationFault(kind: .missingFact) }
    return word
  }

  /// The value of an arithmetic result of `type`.
  static func value(word: Int64, type: PolicyType) -> Value {
    Value(storageWord: word, type: type) ?? .int(word)
  }
}
