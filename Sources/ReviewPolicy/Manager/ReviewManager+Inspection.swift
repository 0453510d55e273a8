import Foundation
import PolicyCore

extension ReviewManager {
  /// A copy of the tracked state.
  public var currentState: ReviewState {
    snapshot().state
  }

  /// The running policy.
  public var currentPolicy: CompiledPolicy {
    snapshot().policy
  }

  /// Whether the running policy is the bundled one or a stored update.
  public var policyOrigin: PolicyOrigin {
    snapshot().active.origin
  }

  /// The running policy and its snapshot of facts now (nil when the app version does not
  /// parse), without recording anything: for tools that explain or test decisions.
  public func currentFacts() -> (policy: CompiledPolicy, facts: Facts)? {
    let now = Timestamp(configuration.clock())
    let snapshot = snapshot()
    // `facts(at:)` sees the state as of the app version without recording anything.
    guard case .success(let built) = snapshot.facts(at: now) else { return nil }
    return (snapshot.policy, built)
  }

  /// Whether the policy would ask now: a cheap, read-only check that records nothing, writes
  /// nothing to the store and builds no explanation (for example, to show a "Rate us" hint only
  /// when a prompt would be welcome). A debug ``Configuration/alwaysAsk`` is not applied here.
  public func wouldAsk() -> Bool {
    let now = Timestamp(configuration.clock())
    let snapshot = snapshot()
    return snapshot.decision(at: now)?.shouldAsk ?? false
  }

  /// The decision the policy would make now and the names of the rules that decided it, without
  /// recording anything or building an explanation (see ``explainCurrentDecision()`` for that).
  public func currentDecision() -> CurrentDecision {
    let now = Timestamp(configuration.clock())
    let snapshot = snapshot()
    let (decision, guardrail) = snapshot.guardedDecision(at: now)
    return CurrentDecision(decision, of: snapshot.policy, guardrail: guardrail)
  }

  /// The decision the policy would make now, explained, without recording anything.
  public func explainCurrentDecision() -> ReviewExplanation {
    let now = Timestamp(configuration.clock())
    let snapshot = snapshot()
    return snapshot.explanation(at: now)
  }
}
