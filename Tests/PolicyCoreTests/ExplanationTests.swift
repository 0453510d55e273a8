import PolicyCore
import Testing

/// Explains `text` on standard facts changed by `configure`.
private func explain(
  _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ configure: (inout Facts) throws -> Void = { _ in }
) throws -> (CompiledPolicy, Explanation) {
  let policy = try compiled(text, sourceLocation: sourceLocation)
  var facts = try standardFacts(policy)
  try configure(&facts)
  let explanation = policy.explain(facts)
  #expect(explanation.decision == policy.decide(facts), sourceLocation: sourceLocation)
  return (policy, explanation)
}

/// Each condition as `text: status [operand values]`.
private func conditions(_ trace: RuleTrace, _ policy: CompiledPolicy) -> [String] {
  trace.conditions.map { condition in
    let operands = condition.operands.map { $0.value?.description ?? "absent" }
    return "\(policy.source.text(in: condition.range)): \(condition.status.rawValue)"
      + (operands.isEmpty ? "" : " \(operands)") + (condition.fault.map { " \($0)" } ?? "")
  }
}

@Suite("Explanation")
struct ExplanationTests {
  @Test("every atomic condition with its status and the values it saw")
  func oneLiner() throws {
    let (policy, explanation) = try explain("days >= 30 and uses >= 20 and not declined") {
      try $0.set("days", to: .int(31))
      try $0.set("uses", to: .int(5))
    }
    #expect(!explanation.decision.shouldAsk)
    let rule = try #require(explanation.rules.first)
    #expect(explanation.rules.count == 1)
    #expect(rule.outcome == .notHeld)
    #expect(!rule.isDeciding)
    #expect(rule.isNeeded)
    #expect(
      conditions(rule, policy) == [
        "days >= 30: held [\"31\", \"30\"]", "uses >= 20: failed [\"5\", \"20\"]", "not declined: notNeeded",
      ])
  }

  @Test("a bounded explanation traces the first rules and lets, counts the rest, and decides as the full one")
  func bounded() throws {
    let lets = (0..<10).map { "let l\($0) = uses >= \($0)\n" }.joined()
    let rules = (0..<40).map { "ask r\($0) when l\($0 % 10) and days >= \($0 + 100)\n" }.joined()
    let policy = try compiled(lets + rules + "never late when days >= 1000\n")
    var facts = try standardFacts(policy)
    try facts.set("days", to: .int(1000))
    try facts.set("uses", to: .int(3))
    let full = policy.explain(facts)
    let bounded = policy.explain(facts, maximumRules: 8)
    #expect(full.rules.count == 41 && full.omittedRules == 0 && full.omittedLets == 0)
    #expect(bounded.decision == full.decision && bounded.decision == policy.decide(facts))
    #expect(bounded.rules == Array(full.rules.prefix(8)) && bounded.omittedRules == 33)
    #expect(bounded.lets == Array(full.lets.prefix(8)) && bounded.omittedLets == 2)
    let text = ExplanationRenderer().render(bounded, of: policy)
    #expect(text.hasSuffix("… 33 more rules not shown\n"))
    #expect(text.contains("… 2 more lets not shown\n"))
    // The summary still names the deciding rule, which the bounded trace left out.
    #expect(text.hasPrefix("decision: " + ExplanationRenderer().summary(full.decision, policy)))
    #expect(!ExplanationRenderer().render(full, of: policy).contains("not shown"))
  }

  @Test("`or` stops at the first true operand; later conditions are not needed")
  func shortCircuit() throws {
    let (policy, explanation) = try explain("ask when declined or days < 5 or uses > 1000") {
      try $0.set("days", to: .int(2))
    }
    let rule = try #require(explanation.rules.first)
    #expect(rule.outcome == .held)
    #expect(rule.isDeciding)
    #expect(
      conditions(rule, policy) == [
        "declined: failed [\"false\"]", "days < 5: held [\"2\", \"5\"]", "uses > 1000: notNeeded",
      ])
  }

  @Test("a faulted condition records the fault; the rest is not needed")
  func faulted() throws {
    let (policy, explanation) = try explain("never capped when rated or uses * 1000 > 0 or declined") {
      try $0.set("uses", to: .int(.max))
    }
    let rule = try #require(explanation.rules.first)
    #expect(rule.outcome == .faulted(.overflow))
    #expect(rule.isDeciding)
    #expect(
      conditions(rule, policy) == [
        "rated: failed [\"false\"]", "uses * 1000 > 0: faulted overflow", "declined: notNeeded",
      ])
    #expect(explanation.decision.firstFault?.kind == .overflow)
  }

  @Test("`ask` rules are not needed once a `never` rule decided; they are still traced")
  func notNeeded() throws {
    let (_, explanation) = try explain("ask loyal when days >= 1\nnever answered when declined") {
      try $0.set("days", to: .int(3))
      try $0.set("declined", to: .bool(true))
    }
    #expect(explanation.rules.map(\.isNeeded) == [false, true])
    #expect(explanation.rules.map(\.outcome) == [.held, .held])
    #expect(explanation.rules.map(\.isDeciding) == [false, true])
    #expect(explanation.rules.map(\.index) == [0, 1])
  }

  @Test("`has`, `in`, absent values and versions are shown as seen")
  func operandValues() throws {
    let (policy, explanation) = try explain(
      """
      fact plan: string
      ask when has last_prompt_version or plan in ["pro", "team"] or version > v9.0 or since(last_prompt) < 1d
      """
    ) { try $0.set("plan", to: .string("enterprise")) }
    let rule = try #require(explanation.rules.first)
    #expect(
      conditions(rule, policy) == [
        "has last_prompt_version: failed [\"absent\"]", "plan in [\"pro\", \"team\"]: failed [\"\\\"enterprise\\\"\"]",
        "version > v9.0: failed [\"v3.1\", \"v9.0\"]", "since(last_prompt) < 1d: failed [\"infinite\", \"1d\"]",
      ])
  }

  @Test("lets are traced with their value or fault")
  func lets() throws {
    let (policy, explanation) = try explain(
      """
      let engaged = days >= 14
      let ratio = uses / days
      let spare = 1
      let maybe = last_prompt_version
      ask when engaged or ratio > 2 or has maybe
      """
    ) { try $0.set("days", to: .int(0)) }
    #expect(explanation.lets.map(\.index) == [0, 1, 3])
    #expect(explanation.lets.map(\.value) == [.bool(false), nil, nil])
    #expect(explanation.lets.map(\.fault) == [nil, .divisionByZero, nil])
    #expect(policy.lets.map(\.name) == ["engaged", "ratio", "spare", "maybe"])
    let rule = try #require(explanation.rules.first)
    #expect(rule.outcome == .faulted(.divisionByZero))
  }

  @Test("a `let` shows the conditions inside it, or the facts it reads, with their values, indented under it")
  func insideLets() throws {
    let (policy, explanation) = try explain(
      """
      let engaged = days >= 14 and uses >= 10
      let loved = engaged or events("export") >= 3
      let score = (average_score(3) ?? 0) + uses
      ask loyal when loved and score > 50
      """
    ) {
      try $0.set("days", to: .int(12))
      try $0.set("uses", to: .int(30))
    }
    #expect(
      explanation.lets.map { $0.conditions.map(\.shownStatus) } == [[.failed, .notNeeded], [.failed, .failed], []])
    #expect(explanation.lets[2].inputs.map { policy.source.text(in: $0.range) } == ["average_score(3)", "uses"])
    #expect(
      ExplanationRenderer().render(explanation, of: policy) == """
        decision: don't ask: no ask rule held
        let engaged = false
          failed      days >= 14  days = 12
          not needed  uses >= 10
        let loved = false
          failed      engaged                engaged = false
          failed      events("export") >= 3  events("export") = 0
        let score = 30
          reads       average_score(3) = absent, uses = 30
        ask loyal (line 4): not held
          failed      loved       loved = false
          not needed  score > 50

        """)
  }

  @Test("facts that cannot be evaluated give an explanation without rules")
  func invalidFacts() throws {
    let policy = try compiled("ask when since(first_use) > 1d")
    let explanation = policy.explain(policy.makeFacts(now: testNow))
    #expect(explanation.decision.reason == .invalidFacts)
    #expect(explanation.rules.isEmpty)
    #expect(explanation.lets.isEmpty)
  }

  @Test("an empty list: decide and explain agree when the tested value faults")
  func emptyListAgreement() throws {
    for text in [
      "ask when days * 2 not in []", "never when days * 2 in []\nask when true", "ask when days * 2 in [] or true",
    ] {
      let (_, explanation) = try explain(text) { try $0.set("days", to: .int(.max)) }
      let decision = explanation.decision
      let first = try #require(explanation.rules.first)
      let decideSaysHeld = decision.decidingRules.contains(0) && decision.firstFault == nil
      #expect(first.outcome == (decideSaysHeld ? .held : (decision.firstFault == nil ? .notHeld : .faulted(.overflow))))
      // Fail closed: the operand is evaluated left to right and its overflow faults the rule.
      #expect(decision.firstFault?.kind == .overflow)
      #expect(!decision.shouldAsk)
    }
  }
}

@Suite("Explanation rendering")
struct ExplanationRenderingTests {
  @Test("a negated fact is one condition that holds; literals are shown as written")
  func rendering() throws {
    let (policy, explanation) = try explain("days >= 30 and uses >= 20 and not declined") {
      try $0.set("days", to: .int(31))
      try $0.set("uses", to: .int(25))
    }
    #expect(explanation.decision.shouldAsk)
    #expect(
      ExplanationRenderer().render(explanation, of: policy) == """
        decision: ask: `ask rule at line 1` held
        ask rule at line 1: held, decided
          held        days >= 30    days = 31
          held        uses >= 20    uses = 25
          held        not declined  declined = false

        """)
  }
}

@Suite("Explanation: `or` branches not needed")
struct ExplanationOrNotNeededTests {
  /// Each condition as `text: shown status`.
  private func shown(_ trace: RuleTrace, _ policy: CompiledPolicy) -> [String] {
    trace.conditions.map { "\(policy.source.text(in: $0.range)): \($0.shownStatus.rawValue)" }
  }

  @Test("the branches before the one that held an `or` are not needed; their values are kept")
  func failedBranchesOfAnOrThatHeld() throws {
    let (policy, explanation) = try explain("ask when declined or days < 5 or uses > 1000") {
      try $0.set("days", to: .int(2))
    }
    let rule = try #require(explanation.rules.first)
    #expect(shown(rule, policy) == ["declined: notNeeded", "days < 5: held", "uses > 1000: notNeeded"])
    // The evaluation is still recorded (for coverage): `declined` failed, with the value it saw.
    #expect(rule.conditions.map(\.status) == [.failed, .held, .notNeeded])
    #expect(rule.conditions.map(\.isNeeded) == [false, true, true])
    #expect(rule.conditions[0].operands.map(\.value) == [.bool(false)])
  }

  @Test("inside an `and` that failed, only what really blocked is failed")
  func whyNamesOnlyTheBlocker() throws {
    let (policy, explanation) = try explain("ask when (declined or days < 5) and uses > 1000") {
      try $0.set("days", to: .int(2))
      try $0.set("uses", to: .int(7))
    }
    let rule = try #require(explanation.rules.first)
    #expect(rule.outcome == .notHeld)
    #expect(shown(rule, policy) == ["declined: notNeeded", "days < 5: held", "uses > 1000: failed"])
    #expect(
      ExplanationRenderer().render(explanation, of: policy) == """
        decision: don't ask: no ask rule held
        ask rule at line 1: not held
          not needed  declined     declined = false
          held        days < 5     days = 2
          failed      uses > 1000  uses = 7

        """)
  }

  @Test("a nested chain that failed inside an `or` that held is not needed as a whole")
  func nestedChain() throws {
    let (policy, explanation) = try explain("ask when (uses >= 20 and days >= 30) or events >= 3") {
      try $0.set("uses", to: .int(25))
      try $0.set("days", to: .int(10))
      try $0.set("events", to: .int(4))
    }
    let rule = try #require(explanation.rules.first)
    #expect(rule.outcome == .held)
    #expect(shown(rule, policy) == ["uses >= 20: notNeeded", "days >= 30: notNeeded", "events >= 3: held"])
  }

  @Test("an `or` that did not hold keeps every branch failed: each one blocked")
  func orThatFailed() throws {
    let (policy, explanation) = try explain("ask when declined or days < 5") { try $0.set("days", to: .int(9)) }
    let rule = try #require(explanation.rules.first)
    #expect(shown(rule, policy) == ["declined: failed", "days < 5: failed"])
    #expect(rule.conditions.map(\.isNeeded) == [true, true])
  }

  @Test("under `not`, the `or` that held decides through its holding branch only")
  func negatedOr() throws {
    let (policy, explanation) = try explain("ask when not (declined or rated) and days >= 1") {
      try $0.set("rated", to: .bool(true))
      try $0.set("days", to: .int(3))
    }
    let rule = try #require(explanation.rules.first)
    #expect(rule.outcome == .notHeld)
    #expect(shown(rule, policy) == ["declined: notNeeded", "rated: held", "days >= 1: notNeeded"])
  }
}
