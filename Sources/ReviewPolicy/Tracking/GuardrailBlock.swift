import PolicyCore

/// A guardrail that forbids a prompt the running policy asks for.
struct GuardrailBlock: Sendable, Equatable {
  /// The rule that held, named as in explanations (`never answered`, or `rule 2`); nil when the
  /// guardrails could not be evaluated at all.
  var rule: String?
  /// Whether the rule faulted (a fault fails closed: it forbids).
  var faulted: Bool

  /// The name for logs and ``CurrentDecision/guardrail``: `never answered`, or `guardrails`.
  var name: String { rule ?? "guardrails" }

  /// One line, as a decision summary.
  var summary: String {
    guard let rule else { return "don't ask: the guardrails could not be evaluated (fails closed)" }
    return faulted ? "don't ask: guardrail `\(rule)` faulted (fails closed)" : "don't ask: guardrail `\(rule)` held"
  }

  /// The decision it makes: don't ask, because a `never` rule held.
  var decision: Decision {
    Decision(shouldAsk: false, reason: .neverRuleHeld, decidingRules: RuleIndices(), firstFault: nil, faultCount: 0)
  }
}
