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
public struct OperandValue: Sendable, Equatable {
  /// The operand in the source.
  public var range: SourceRange
  /// The value, or nil when it was absent.
  public var value: Value?
  /// Whether the operand is a literal (shown as written rather than as a value).
  public var isConstant: Bool = false
}

/// One atomic condition (a comparison, `in`, `has`, a bool fact or `let`) and what it saw.
public struct ConditionTrace: Sendable, Equatable {
  /// The condition in the source.
  public var range: SourceRange
  /// Whether it held, failed, was not needed or faulted.
  public var status: ConditionStatus
  /// The values of its operands (both sides of a comparison; the tested value of `in` and `has`).
  public var operands: [OperandValue]
  /// The fault, when ``status`` is ``ConditionStatus/faulted``.
  public var fault: FaultKind?
  /// Whether the outcome depended on it: false for the conditions of the operands of an `or`
  /// that held through another operand. They were evaluated (``status`` says how they came out,
  /// for coverage), but they neither let the rule hold nor kept it from holding, so explanations
  /// show them as not needed.
  public var isNeeded = true

  /// The status explanations show: ``ConditionStatus/notNeeded`` when the condition was not
  /// needed, else ``status``.
  public var shownStatus: ConditionStatus { isNeeded ? status : .notNeeded }
}

/// How a rule came out in an explanation.
public enum RuleOutcome: Sendable, Equatable {
  /// The condition held.
  case held
  /// The condition did not hold.
  case notHeld
  /// Evaluating the condition faulted.
  case faulted(FaultKind)
}

/// One rule in an explanation.
public struct RuleTrace: Sendable, Equatable {
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
public struct LetTrace: Sendable, Equatable {
  /// The `let`'s index in ``CompiledPolicy/lets``.
  public var index: Int
  /// The value, nil when absent or faulted.
  public var value: Value?
  /// The fault, if computing it faulted.
  public var fault: FaultKind?
  /// The atomic conditions of a `bool` let, in source order, with the values they saw, as a
  /// rule's ``RuleTrace/conditions`` are; empty for a let of another type.
  public var conditions: [ConditionTrace] = []
  /// The facts and `let`s that a let of another type reads (`average_score(3)` in
  /// `let score = average_score(3) ?? 0`), each once, in source order, with its value; empty
  /// for a `bool` let.
  public var inputs: [OperandValue] = []
}

/// The answer to "why did it (not) ask?": the decision and, for every rule,
/// every condition with the values it saw.
public struct Explanation: Sendable, Equatable {
  /// The decision, exactly as ``CompiledPolicy/decide(_:)`` returns it.
  public var decision: Decision
  /// Every rule, in source order.
  public var rules: [RuleTrace]
  /// Every used `let`, in source order.
  public var lets: [LetTrace]
  /// How many rules were left out of ``rules`` (an explanation bounded with
  /// `explain(_:maximumRules:)`); 0 when every rule is there.
  public var omittedRules = 0
  /// How many used `let`s were left out of ``lets``, likewise.
  public var omittedLets = 0
}

extension CompiledPolicy {
  /// The ranges of the atomic conditions of rule `index`, in the order explanations list them.
  package func conditionRanges(ofRule index: Int) -> [SourceRange] {
    var ranges: [SourceRange] = []
    func walk(_ expr: TypedExpr) {
      switch expr.node {
      case .not(let inner) where !TracingEvaluator.isAtom(inner): walk(inner)
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
  ///
  /// - Parameter maximumRules: The most rules, and separately the most `let`s, traced: the first
  ///   ones in source order; the rest are counted in ``Explanation/omittedRules`` and
  ///   ``Explanation/omittedLets``. A log that explains every decision bounds its cost with it;
  ///   the decision itself always comes from every rule.
  public func explain(_ facts: Facts, maximumRules: Int = .max) -> Explanation {
    let decision = decide(facts)
    guard decision.reason != .invalidFacts else {
      return Explanation(decision: decision, rules: [], lets: [])
    }
    var walker = TracingEvaluator(policy: self, facts: facts)
    var letTraces: [LetTrace] = []
    for (index, checked) in lets.enumerated() where checked.isUsed {
      guard let value = checked.value else { continue }
      var trace: LetTrace
      do {
        let result = try walker.value(value)
        walker.letValues[index] = .success(result)
        trace = LetTrace(index: index, value: result, fault: nil)
      } catch {
        walker.letValues[index] = .failure(error)
        trace = LetTrace(index: index, value: nil, fault: error.kind)
      }
      // What the let saw, so an explanation goes on from `engaged = false` down to the facts.
      if value.type == .bool {
        walker.conditions = []
        walker.fault = nil
        _ = walker.walk(value, evaluate: true)
        trace.conditions = walker.conditions
      } else {
        trace.inputs = walker.inputs(of: value)
      }
      letTraces.append(trace)
    }
    let omittedLets = max(0, letTraces.count - max(maximumRules, 0))
    letTraces.removeLast(omittedLets)
    let neverHeld = decision.reason == .neverRuleHeld
    var traces: [RuleTrace] = []
    for (index, rule) in rules.enumerated() {
      guard traces.count < maximumRules else { break }
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
    return Explanation(
      decision: decision, rules: traces, lets: letTraces, omittedRules: rules.count - traces.count,
      omittedLets: omittedLets)
  }
}
