import PolicyCore

/// A decision without its explanation: what ``ReviewManager/currentDecision()`` returns.
public struct CurrentDecision: Sendable, Equatable {
  /// The decision; nil when the facts could not be built (an app version that does not parse).
  public var decision: Decision?
  /// The rules that decided, named as in explanations: `ask loyal` for a named rule, otherwise
  /// its label (for example `rule 2`); empty when no rule decided. When a guardrail forbade
  /// asking, the guardrail (`guardrail never answered`).
  public var decidingRules: [String]
  /// The guardrail that forbade a prompt the running policy asks for (`never answered`, or
  /// `guardrails` when they could not be evaluated); nil when none did.
  public var guardrail: String?

  /// Whether the policy asks.
  public var shouldAsk: Bool { decision?.shouldAsk ?? false }

  /// The decision of `policy`, with its deciding rules named, or the guardrail that decided.
  init(_ decision: Decision?, of policy: CompiledPolicy, guardrail: GuardrailBlock? = nil) {
    self.decision = decision
    if let guardrail {
      self.guardrail = guardrail.name
      decidingRules = ["guardrail \(guardrail.name)"]
      return
    }
    decidingRules =
      (decision?.decidingRules).map { rules in
        rules.map { index in
          let rule = policy.rules[index]
          return rule.name.map { "\(rule.kind.rawValue) \($0)" } ?? rule.label
        }
      } ?? []
  }
}
