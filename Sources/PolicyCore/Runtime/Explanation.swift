/// How one atomic condition fared in an explanation.
public enum ConditionStatus: String, Sendable, Hashable {
  /// It was evaluated and held.
  case held
  /// It was evaluated and did not hold.
  case failed
  /// It was not evaluated: an earlier operand of `and`/`or` already decided, or the rule faulted before it.
  case notNeeded
  /// Evaluating it faulted.
  case faulted
}

/// The value of one operand of a condition, as seen during an explanation.
public struct OperandValue: Sendable, Hashable {
  /// The operand in the source.
  public var range: SourceRange
  /// The value, or nil when it was absent.
  public var value: Value?
  /// Whether the operand is a literal (shown as written rather than as a value).
  public var isConstant: Bool = false
}

/// One atomic condition (a comparison, `in`, `has`, a bool fact or `let`) and what it saw.
public struct ConditionTrace: Sendable, Hashable {
  /// The condition in the source.
  public var range: SourceRange
  /// Whether it held, failed, was not needed or faulted.
  public var status: ConditionStatus
  /// The values of its operands (both sides of a comparison; the tested value of `in` and `has`).
  public var operands: [OperandValue]
  /// The fault, when ``status`` is ``ConditionStatus/faulted``.
  public var fault: FaultKind?
}

/// How a rule came out in an explanation.
public enum RuleOutcome: Sendable, Hashable {
  /// The condition held.
  case held
  /// The condition did not hold.
  case notHeld
  /// Evaluating the condition faulted.
  case faulted(FaultKind)
}

/// One rule in an explanation.
public struct RuleTrace: Sendable, Hashable {
  /// The rule's index in ``CompiledPolicy/rules``.
  public var index: Int
  /// How it came out.
  public var outcome: RuleOutcome
  /// Whether it is one of the rules that decided.
  public var isDeciding: Bool
  /// Whether the decision needed it (`ask` rules are not needed once a `never` rule held).
  public var isNeeded: Bool
  /// Its atomic conditions, in source order.
  public var conditions: [ConditionTrace]
}

/// One `let` in an explanation.
public struct LetTrace: Sendable, Hashable {
  /// The `let`'s index in ``CompiledPolicy/lets``.
  public var index: Int
  /// The value, nil when absent or faulted.
  public var value: Value?
  /// The fault, if computing it faulted.
  public var fault: FaultKind?
}

/// The answer to "why did it (not) ask?": the decision and, for every rule,
/// every condition with the values it saw.
public struct Explanation: Sendable, Hashable {
  /// The decision, exactly as ``CompiledPolicy/decide(_:)`` returns it.
  public var decision: Decision
  /// Every rule, in source order.
  public var rules: [RuleTrace]
  /// Every used `let`, in source order.
  public var lets: [LetTrace]
}

extension CompiledPolicy {
  /// The ranges of the atomic conditions of rule `index`, in the order explanations list them.
  public func conditionRanges(ofRule index: Int) -> [SourceRange] {
    var ranges: [SourceRange] = []
    func walk(_ expr: TypedExpr) {
      switch expr.node {
      case .not(let inner) where !TracingEvaluator.isAtom(inner): walk(inner)
      case .parenthesized(let inner): walk(inner)
      case .logical(_, let operands): operands.forEach(walk)
      default: ranges.append(expr.range)
      }
    }
    if rules.indices.contains(index) { walk(rules[index].condition) }
    return ranges
  }

  /// Explains the decision for `facts`: every rule, every condition, the values seen.
  ///
  /// This walks the checked tree (allocating freely) and is meant for tools and
  /// logs; ``decide(_:)`` is the fast path. Both apply the same semantics.
  public func explain(_ facts: Facts) -> Explanation {
    let decision = decide(facts)
    guard decision.reason != .invalidFacts else {
      return Explanation(decision: decision, rules: [], lets: [])
    }
    var walker = TracingEvaluator(policy: self, facts: facts)
    var letTraces: [LetTrace] = []
    for (index, checked) in lets.enumerated() where checked.isUsed {
      guard let value = checked.value else { continue }
      do {
        let result = try walker.value(value)
        walker.letValues[index] = .success(result)
        letTraces.append(LetTrace(index: index, value: result, fault: nil))
      } catch {
        walker.letValues[index] = .failure(error)
        letTraces.append(LetTrace(index: index, value: nil, fault: error.kind))
      }
    }
    let neverHeld = decision.reason == .neverRuleHeld
    var traces: [RuleTrace] = []
    for (index, rule) in rules.enumerated() {
      walker.conditions = []
      walker.fault = nil
      let result = walker.walk(rule.condition, evaluate: true)
      let outcome: RuleOutcome =
        if let fault = walker.fault { .faulted(fault) } else { result == true ? .held : .notHeld }
      traces.append(
        RuleTrace(
          index: index, outcome: outcome, isDeciding: decision.decidingRules.contains(index),
          isNeeded: rule.kind == .never || !neverHeld, conditions: walker.conditions))
    }
    return Explanation(decision: decision, rules: traces, lets: letTraces)
  }
}

/// A fault raised while walking the tree.
struct EvaluationFault: Error {
  var kind: FaultKind
}

/// Evaluates checked trees directly, recording every atomic condition.
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
    case .parenthesized(let inner):
      return walk(inner, evaluate: evaluate)
    case .logical(let op, let operands):
      var decided: Bool?
      for operand in operands {
        let value = walk(operand, evaluate: evaluate && decided == nil && fault == nil)
        if decided == nil, let value, value == (op == .or) { decided = value }
      }
      guard evaluate && fault == nil else { return nil }
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

  /// Whether `expr` is an atomic condition (not a chain, a negated chain or parentheses around one).
  static func isAtom(_ expr: TypedExpr) -> Bool {
    switch expr.node {
    case .logical: false
    case .not(let inner), .parenthesized(let inner): isAtom(inner)
    default: true
    }
  }

  /// The values an atom shows: both sides of a comparison, the subject of `in`, the fact of `has`.
  func operandValues(_ expr: TypedExpr) throws(EvaluationFault) -> [OperandValue] {
    switch expr.node {
    case .not(let inner), .parenthesized(let inner):
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
    default:
      return []
    }
  }

  func operand(_ expr: TypedExpr) throws(EvaluationFault) -> OperandValue {
    var isConstant = false
    if case .constant = expr.node { isConstant = true }
    if case .promote(let inner) = expr.node, case .constant = inner.node { isConstant = true }
    return OperandValue(range: expr.range, value: try value(expr), isConstant: isConstant)
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
    case .parenthesized(let inner):
      return try value(inner)
    case .logical(let op, let operands):
      for operand in operands {
        guard case .bool(let flag)? = try value(operand) else { throw EvaluationFault(kind: .missingFact) }
        if flag == (op == .or) { return .bool(flag) }
      }
      return .bool(op == .and)
    case .compare(let op, let lhs, let rhs):
      let left = try present(lhs)
      let right = try present(rhs)
      return .bool(op.holds(forOrdering: TracingEvaluator.ordering(left, right)))
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
    case .extremum(let isMinimum, let operands):
      var best = try present(operands[0])
      for operand in operands.dropFirst() {
        let next = try present(operand)
        let ordering = TracingEvaluator.ordering(next, best)
        if isMinimum ? ordering < 0 : ordering > 0 { best = next }
      }
      return best
    }
  }

  func present(_ expr: TypedExpr) throws(EvaluationFault) -> Value {
    guard let result = try value(expr) else { throw EvaluationFault(kind: .missingFact) }
    return result
  }

  /// How `lhs` compares with `rhs` (same type): -1, 0 or 1. Unordered types compare equal or not.
  static func ordering(_ lhs: Value, _ rhs: Value) -> Int {
    switch (lhs, rhs) {
    case (.version(let l), .version(let r)): return l < r ? -1 : (l == r ? 0 : 1)
    case (.string(let l), .string(let r)): return l == r ? 0 : 1
    default:
      let l = (try? word(lhs)) ?? 0
      let r = (try? word(rhs)) ?? 0
      return l < r ? -1 : (l == r ? 0 : 1)
    }
  }

  static func word(_ value: Value) throws(EvaluationFault) -> Int64 {
    switch value {
    case .bool(let flag): return flag ? 1 : 0
    case .int(let integer): return integer
    case .number(let number): return number.scaled
    case .duration(let span): return span.milliseconds
    case .instant(let instant): return instant.millisecondsSince1970
    case .version, .string: throw EvaluationFault(kind: .missingFact)
    }
  }

  static func value(word: Int64, type: PolicyType) -> Value {
    switch type {
    case .int: .int(word)
    case .number: .number(Number(scaled: word))
    case .duration: .duration(TimeSpan(milliseconds: word))
    case .instant: .instant(Timestamp(millisecondsSince1970: word))
    case .bool: .bool(word != 0)
    case .version, .string: .int(word)
    }
  }
}
