/// Renders an ``Explanation`` as text: the decision, each `let` with the conditions inside it
/// (or the facts it reads), then each rule with each condition, its status and the values it saw.
///
/// ```
/// decision: don't ask: `never too_soon` held
/// let engaged = false
///   failed      days >= 30                     days = 12
///   not needed  uses >= 20
/// never too_soon (line 3): held, decided
///   held        since(last_login) < 8w         since(last_login) = 2w 1d
/// ask loyal (line 4): not needed (not held)
///   failed      engaged                        engaged = false
/// ```
///
/// A condition that did not matter is "not needed": one after the operand that decided an
/// `and`/`or`, and one of an `or` that held through another operand (it is shown with the value
/// it saw), so the failed conditions are exactly those that kept a rule from holding.
public struct ExplanationRenderer: Sendable {
  /// Creates a renderer.
  public init() {}

  /// The explanation of `explanation`, a policy's decision on some facts.
  public func render(_ explanation: Explanation, of policy: CompiledPolicy) -> String {
    var output = "decision: " + summary(explanation.decision, policy) + "\n"
    if let fault = explanation.decision.firstFault {
      output += "fault: " + describe(fault, policy) + "\n"
    }
    for trace in explanation.lets {
      let checked = policy.lets[trace.index]
      let value =
        trace.fault.map { "fault (\(ExplanationRenderer.describe($0)))" } ?? trace.value.map(\.description) ?? "absent"
      output += "let \(checked.name) = \(value)\n"
      output += rows(trace.conditions, of: policy)
      if !trace.inputs.isEmpty {
        output += "  " + pad("reads", 12) + trace.inputs.map { shown($0, of: policy) }.joined(separator: ", ") + "\n"
      }
    }
    if explanation.omittedLets > 0 { output += "… \(explanation.omittedLets) more lets not shown\n" }
    for trace in explanation.rules {
      let rule = policy.rules[trace.index]
      let line = policy.source.location(of: rule.range.start).line
      var status: String
      switch trace.outcome {
      case .held: status = "held"
      case .notHeld: status = "not held"
      case .faulted(let kind): status = "faulted (\(ExplanationRenderer.describe(kind)))"
      }
      if !trace.isNeeded { status = "not needed (\(status))" }
      if trace.isDeciding { status += ", decided" }
      // An unnamed rule's label already says its line (`ask rule at line 3`).
      let name = rule.name.map { "\(rule.kind.rawValue) \($0) (line \(line))" } ?? rule.label
      output += "\(name): \(status)\n"
      output += rows(trace.conditions, of: policy)
    }
    if explanation.omittedRules > 0 { output += "… \(explanation.omittedRules) more rules not shown\n" }
    return output
  }

  /// One row per condition, indented under its rule or `let`: its status, its text and the
  /// values it saw.
  private func rows(_ conditions: [ConditionTrace], of policy: CompiledPolicy) -> String {
    let texts = conditions.map { policy.source.text(in: $0.range) }
    let width = min(48, texts.map(\.count).max() ?? 0)
    var output = ""
    for (condition, text) in zip(conditions, texts) {
      let statusText: String
      switch condition.shownStatus {
      case .held: statusText = "held"
      case .failed: statusText = "failed"
      case .notNeeded: statusText = "not needed"
      case .faulted: statusText = "faulted"
      }
      var row = "  " + pad(statusText, 12) + pad(text, width + 2)
      if condition.status == .faulted, let fault = condition.fault {
        row += ExplanationRenderer.describe(fault)
      } else {
        // Literals as written; anything else as `text = value`.
        row += condition.operands.filter { !$0.isConstant }.map { shown($0, of: policy) }.joined(separator: ", ")
      }
      while row.hasSuffix(" ") { row.removeLast() }
      output += row + "\n"
    }
    return output
  }

  /// An operand as `text = value`, or its value alone when that is how it is written.
  private func shown(_ operand: OperandValue, of policy: CompiledPolicy) -> String {
    let written = policy.source.text(in: operand.range)
    let value = operand.value?.description ?? "absent"
    return written == value ? value : "\(written) = \(value)"
  }

  /// One line: ask or not, and which rules decided.
  public func summary(_ decision: Decision, _ policy: CompiledPolicy) -> String {
    let names = decision.decidingRules.map { index -> String in
      let rule = policy.rules[index]
      return "`" + (rule.name.map { "\(rule.kind.rawValue) \($0)" } ?? rule.label) + "`"
    }
    switch decision.reason {
    case .neverRuleHeld:
      return "don't ask: \(names.joined(separator: ", ")) held"
    case .askRuleHeld:
      return "ask: \(names.joined(separator: ", ")) held"
    case .noAskRuleHeld:
      return "don't ask: no ask rule held"
    case .invalidFacts:
      return "don't ask: the facts could not be evaluated"
    }
  }

  /// A fault as text: what happened, in which expression, line and rule.
  package func describe(_ fault: Fault, _ policy: CompiledPolicy) -> String {
    var text = ExplanationRenderer.describe(fault.kind)
    if let rule = fault.rule {
      let location = policy.source.location(of: fault.range.start)
      text += " in `\(policy.source.text(in: fault.range))` (line \(location.line), rule \(policy.rules[rule].label))"
    }
    return text
  }

  /// A short phrase for a fault kind.
  static func describe(_ kind: FaultKind) -> String {
    switch kind {
    case .overflow: "arithmetic overflow"
    case .divisionByZero: "division by zero"
    case .infiniteDuration: "arithmetic on an infinite duration"
    case .missingFact: "a required fact has no value"
    case .foreignFacts: "the facts were made for another policy"
    }
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
