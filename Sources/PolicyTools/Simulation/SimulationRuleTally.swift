import PolicyAnalysis
import PolicyCore
import ReviewAnalysis

/// How one rule fared at a policy's prompt checks: counts only, so merging is exact and order-free.
public struct SimulationRuleTally: Sendable, Hashable {
  /// Checks at which the rule's condition held.
  public var held = 0
  /// Checks at which evaluating the rule faulted.
  public var faulted = 0
  /// Per atomic condition (in ``CompiledPolicy/conditionRanges(ofRule:)`` order): checks at which it held.
  public var conditionHeld: [Int]
  /// Per atomic condition: checks at which it was evaluated (not skipped by `and`/`or`).
  public var conditionEvaluated: [Int]
  /// Per atomic condition: checks at which no ask rule held and this condition failed (ask rules only).
  public var conditionBlocked: [Int]

  /// An empty tally for a rule of `conditions` atomic conditions.
  public init(conditions: Int) {
    conditionHeld = Array(repeating: 0, count: conditions)
    conditionEvaluated = Array(repeating: 0, count: conditions)
    conditionBlocked = Array(repeating: 0, count: conditions)
  }

  /// Adds `other`'s counts (a tally of the same rule).
  public mutating func merge(_ other: SimulationRuleTally) {
    held += other.held
    faulted += other.faulted
    for index in conditionHeld.indices where other.conditionHeld.indices.contains(index) {
      conditionHeld[index] += other.conditionHeld[index]
      conditionEvaluated[index] += other.conditionEvaluated[index]
      conditionBlocked[index] += other.conditionBlocked[index]
    }
  }
}

/// What a policy's rules did at its prompt checks.
public struct SimulationCheckTally: Sendable, Hashable {
  /// The users whose checks are counted here (all of them, or a sample: ``SimulationSetup/explainStride``).
  public var users = 0
  /// Prompt checks (policy decisions) of those users.
  public var checks = 0
  /// Checks that asked.
  public var asked = 0
  /// Checks at which a `never` rule held.
  public var blockedByNever = 0
  /// Checks at which no `never` rule held and no `ask` rule held.
  public var noAskRuleHeld = 0
  /// One tally per rule, in source order.
  public var rules: [SimulationRuleTally]

  /// An empty tally for `policy` (none for a policy that does not compile).
  public init(policy: CompiledPolicy?) {
    rules =
      (policy?.rules.indices).map { indices in
        indices.map { SimulationRuleTally(conditions: policy?.conditionRanges(ofRule: $0).count ?? 0) }
      } ?? []
  }

  /// Counts one check, explained.
  mutating func add(_ explanation: Explanation, of policy: CompiledPolicy) {
    checks += 1
    if explanation.decision.shouldAsk { asked += 1 }
    var neverHeld = false
    var askHeld = false
    for trace in explanation.rules where rules.indices.contains(trace.index) {
      let kind = policy.rules[trace.index].kind
      switch trace.outcome {
      case .held:
        rules[trace.index].held += 1
        switch kind {
        case .never: neverHeld = true
        case .ask: askHeld = true
        }
      case .notHeld: break
      case .faulted: rules[trace.index].faulted += 1
      }
      for (index, condition) in trace.conditions.enumerated()
      where rules[trace.index].conditionHeld.indices.contains(index) {
        switch condition.status {
        case .held:
          rules[trace.index].conditionHeld[index] += 1
          rules[trace.index].conditionEvaluated[index] += 1
        case .failed, .faulted:
          rules[trace.index].conditionEvaluated[index] += 1
        case .notNeeded: break
        }
      }
    }
    if neverHeld {
      blockedByNever += 1
    } else if !askHeld {
      noAskRuleHeld += 1
      for trace in explanation.rules where rules.indices.contains(trace.index) && policy.rules[trace.index].kind == .ask
      {
        for (index, condition) in trace.conditions.enumerated()
        where condition.status != .held && condition.status != .notNeeded
          && rules[trace.index].conditionBlocked.indices.contains(index)
        {
          rules[trace.index].conditionBlocked[index] += 1
        }
      }
    }
  }

  /// Adds `other`'s counts (a tally of the same policy).
  public mutating func merge(_ other: SimulationCheckTally) {
    users += other.users
    checks += other.checks
    asked += other.asked
    blockedByNever += other.blockedByNever
    noAskRuleHeld += other.noAskRuleHeld
    for index in rules.indices where other.rules.indices.contains(index) { rules[index].merge(other.rules[index]) }
  }
}
