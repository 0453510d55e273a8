import Testing

@testable import PolicyCore

/// All permutations of `items` (Heap's algorithm).
func permutations<T>(_ items: [T]) -> [[T]] {
  var result: [[T]] = []
  var items = items
  func generate(_ n: Int) {
    if n <= 1 {
      result.append(items)
      return
    }
    for index in 0..<n {
      generate(n - 1)
      items.swapAt(n % 2 == 0 ? index : 0, n - 1)
    }
  }
  generate(items.count)
  return result
}

@Suite("Decision")
struct DecisionTests {
  @Test("no rule holds: don't ask, with no deciding rules")
  func noRuleHolds() throws {
    let (_, decision) = try decide("ask loyal when days >= 30\nnever answered when declined")
    #expect(!decision.shouldAsk)
    #expect(decision.reason == .noAskRuleHeld)
    #expect(decision.decidingRules.isEmpty)
    #expect(decision.decidingRules.count == 0)
    #expect(decision.firstFault == nil)
    #expect(decision.faultCount == 0)
  }

  @Test("a policy without rules never asks")
  func noRules() throws {
    for text in ["", "# nothing\n", "let x = days\nfact plan: string"] {
      let (policy, decision) = try decide(text)
      #expect(policy.rules.isEmpty)
      #expect(!decision.shouldAsk)
      #expect(decision.reason == .noAskRuleHeld)
    }
  }

  @Test("an ask rule that holds asks, and is named")
  func askHolds() throws {
    let (policy, decision) = try decide("ask loyal when days >= 30\nnever answered when declined") {
      try $0.set("days", to: .int(30))
    }
    #expect(decision.shouldAsk)
    #expect(decision.reason == .askRuleHeld)
    #expect(Array(decision.decidingRules) == [0])
    #expect(decidingNames(decision, policy) == ["loyal"])
  }

  @Test("never beats ask, whatever the order")
  func neverBeatsAsk() throws {
    for text in [
      "ask loyal when days >= 30\nnever answered when declined",
      "never answered when declined\nask loyal when days >= 30",
    ] {
      let (policy, decision) = try decide(text) {
        try $0.set("days", to: .int(100))
        try $0.set("declined", to: .bool(true))
      }
      #expect(!decision.shouldAsk)
      #expect(decision.reason == .neverRuleHeld)
      #expect(decidingNames(decision, policy) == ["answered"])
    }
  }

  @Test("every deciding rule is named: all the never rules that held")
  func allNeverRulesNamed() throws {
    let (policy, decision) = try decide(
      """
      never a when declined
      ask x when true
      never b when days > 5
      never c when rated
      never d when uses > 1
      """
    ) {
      try $0.set("declined", to: .bool(true))
      try $0.set("days", to: .int(6))
      try $0.set("uses", to: .int(2))
    }
    #expect(decision.reason == .neverRuleHeld)
    #expect(decidingNames(decision, policy) == ["a", "b", "d"])
    #expect(decision.decidingRules.count == 3)
    #expect(Array(decision.decidingRules) == [0, 2, 4])
  }

  @Test("every deciding rule is named: all the ask rules that held (unnamed ones by line)")
  func allAskRulesNamed() throws {
    let (policy, decision) = try decide(
      """
      ask when days > 1
      ask b when uses > 1
      ask c when rated
      never n when declined
      ask when true
      """
    ) {
      try $0.set("days", to: .int(2))
      try $0.set("uses", to: .int(2))
    }
    #expect(decision.shouldAsk)
    #expect(decidingNames(decision, policy) == ["ask rule at line 1", "b", "ask rule at line 5"])
    #expect(policy.rules[0].name == nil)
    #expect(policy.rules[1].name == "b")
  }

  @Test("twelve deciding rules are all named, whatever the rule order")
  func manyDecidingRules() throws {
    let text = (0..<12).map { "never r\($0) when true" }.joined(separator: "\n") + "\nask when true"
    let (policy, decision) = try decide(text)
    #expect(decision.reason == .neverRuleHeld)
    #expect(decision.decidingRules.count == 12)
    #expect(decidingNames(decision, policy) == Set((0..<12).map { "r\($0)" }))
    #expect(decision.decidingRules.count == 12)
    // Rule order must not change which rules are named.
    let reversed = (0..<12).reversed().map { "never r\($0) when true" }.joined(separator: "\n") + "\nask when true"
    let (reversedPolicy, reversedDecision) = try decide(reversed)
    #expect(decidingNames(reversedDecision, reversedPolicy) == decidingNames(decision, policy))
  }

  @Test(
    "deciding rules on both sides of the 64-rule word and the 256-rule inline set are all named",
    arguments: ["ask", "never"])
  func decidingRulesPastSixtyFour(kind: String) throws {
    // The evaluator returns rules 0 to 63 in one word and inserts later ones into the set: every
    // boundary (63/64, 255/256) and a last rule.
    let holding: Set<Int> = [0, 1, 62, 63, 64, 65, 127, 128, 255, 256, 257, 298, 299]
    let text = (0..<300).map { "\(kind) r\($0) when \(holding.contains($0) ? "true" : "false")" }
      .joined(separator: "\n")
    let (policy, decision) = try decide(text)
    #expect(decision.shouldAsk == (kind == "ask"))
    #expect(decision.reason == (kind == "ask" ? .askRuleHeld : .neverRuleHeld))
    #expect(decision.decidingRules.count == holding.count)
    #expect(Array(decision.decidingRules) == holding.sorted())
    #expect(decidingNames(decision, policy) == Set(holding.map { "r\($0)" }))
    for rule in 0..<300 { #expect(decision.decidingRules.contains(rule) == holding.contains(rule)) }
  }

  @Test("rule order never changes the decision or the deciding rules (every permutation)")
  func ruleOrder() throws {
    let rules = [
      "never answered when declined or rated",
      "never too_soon when since(last_prompt) < 8w",
      "ask loyal when days >= 30 and uses >= 20",
      "ask fan when events(\"export\") >= 3",
      "never overflow when sessions * 4611686018427387904 > 0",
    ]
    let scenarios: [(String, (inout Facts) throws -> Void)] = [
      ("nothing", { _ in }),
      (
        "loyal",
        {
          try $0.set("days", to: .int(40)); try $0.set("uses", to: .int(25))
        }
      ),
      (
        "loyal and fan",
        {
          try $0.set("days", to: .int(40)); try $0.set("uses", to: .int(1))
          try $0.set(family: "events", key: .string("export"), to: .int(3))
        }
      ),
      (
        "fan, recently prompted",
        {
          try $0.set(family: "events", key: .string("export"), to: .int(3))
          try $0.set("last_prompt", to: .instant(Timestamp(millisecondsSince1970: testNow.millisecondsSince1970 - day)))
        }
      ),
      (
        "declined, overflow",
        {
          try $0.set("declined", to: .bool(true)); try $0.set("sessions", to: .int(3))
        }
      ),
      (
        "overflow",
        {
          try $0.set("sessions", to: .int(3)); try $0.set("days", to: .int(40)); try $0.set("uses", to: .int(25))
        }
      ),
    ]
    var expected: [String: (Bool, DecisionReason, Set<String>, Int)] = [:]
    for order in permutations(rules) {
      let policy = try compiled(order.joined(separator: "\n"))
      for (name, configure) in scenarios {
        var facts = try standardFacts(policy)
        try configure(&facts)
        let decision = policy.decide(facts)
        let observed = (decision.shouldAsk, decision.reason, decidingNames(decision, policy), decision.faultCount)
        if let first = expected[name] {
          #expect(observed == first, "\(name): \(order)")
        } else {
          expected[name] = observed
        }
      }
    }
    #expect(expected.count == scenarios.count)
    // The scenarios cover every outcome.
    #expect(Set(expected.values.map(\.1)) == [.noAskRuleHeld, .askRuleHeld, .neverRuleHeld])
  }

  @Test("fail closed: a faulted never rule holds, and the fault names its rule and range")
  func faultedNeverRule() throws {
    let (policy, decision) = try decide("ask loyal when days >= 1\nnever capped when uses * 1000 > days") {
      try $0.set("days", to: .int(5))
      try $0.set("uses", to: .int(.max / 10))
    }
    #expect(!decision.shouldAsk)
    #expect(decision.reason == .neverRuleHeld)
    #expect(decidingNames(decision, policy) == ["capped"])
    #expect(decision.faultCount == 1)
    let fault = try #require(decision.firstFault)
    #expect(fault.kind == .overflow)
    #expect(fault.rule == 1)
    #expect(policy.source.text(in: fault.range) == "uses * 1000")
  }

  @Test("fail closed: a faulted ask rule does not hold; the fault is still reported")
  func faultedAskRule() throws {
    let text = "ask big when uses + 1 > 0\nask loyal when days >= 30\nnever answered when declined"
    let (policy, decision) = try decide(text) {
      try $0.set("uses", to: .int(.max))
    }
    #expect(!decision.shouldAsk)
    #expect(decision.reason == .noAskRuleHeld)
    #expect(decision.decidingRules.isEmpty)
    #expect(decision.faultCount == 1)
    #expect(decision.firstFault?.rule == 0)
    #expect(decision.firstFault?.kind == .overflow)
    #expect(policy.source.text(in: decision.firstFault!.range) == "uses + 1")

    // Another ask rule that holds still asks; the fault is reported alongside.
    let (other, asks) = try decide(text) {
      try $0.set("uses", to: .int(.max))
      try $0.set("days", to: .int(30))
    }
    #expect(asks.shouldAsk)
    #expect(decidingNames(asks, other) == ["loyal"])
    #expect(asks.faultCount == 1)
    #expect(asks.firstFault?.rule == 0)
  }

  static let faults: [(String, Int64, FaultKind, String)] = [
    ("days * 4611686018427387904 > 0", 2, .overflow, "days * 4611686018427387904"),
    ("-days < 0", .min, .overflow, "-days"),
    ("days - 1 < 0", .min, .overflow, "days - 1"),
    ("days > 1.5", .max, .overflow, "days"),
    ("uses / days > 0", 0, .divisionByZero, "uses / days"),
    ("uses % days > 0", 0, .divisionByZero, "uses % days"),
    ("days / -1 > 0", .min, .overflow, "days / -1"),
    (
      "session_score / (session_score - session_score) > 0", 0, .divisionByZero,
      "session_score / (session_score - session_score)"
    ),
    (
      "since(last_prompt) - since(last_reminder) > 1d", 0, .infiniteDuration,
      "since(last_prompt) - since(last_reminder)"
    ),
    ("since(last_prompt) / 1d > 3", 0, .infiniteDuration, "since(last_prompt) / 1d"),
    ("now - since(last_prompt) < now", 0, .infiniteDuration, "now - since(last_prompt)"),
    ("since(last_prompt) * 0 > 1d", 0, .infiniteDuration, "since(last_prompt) * 0"),
    ("-since(last_prompt) < 1d", 0, .infiniteDuration, "-since(last_prompt)"),
    ("since(first_use) * 4611686018427387904 > 1d", 0, .overflow, "since(first_use) * 4611686018427387904"),
  ]

  @Test("fail closed: each kind of fault, in an ask rule and in a never rule", arguments: faults)
  func faultKinds(condition: String, days: Int64, kind: FaultKind, range: String) throws {
    let configure: (inout Facts) throws -> Void = { facts in
      try facts.set("days", to: .int(days))
      try facts.set("uses", to: .int(7))
    }
    let (askPolicy, ask) = try decide("ask when " + condition, configure)
    #expect(!ask.shouldAsk)
    #expect(ask.reason == .noAskRuleHeld)
    #expect(ask.faultCount == 1)
    #expect(ask.firstFault?.kind == kind)
    #expect(ask.firstFault?.rule == 0)
    #expect(ask.firstFault.map { askPolicy.source.text(in: $0.range) } == range)
    let (_, never) = try decide("never when \(condition)\nask when true", configure)
    #expect(!never.shouldAsk)
    #expect(never.reason == .neverRuleHeld)
    #expect(Array(never.decidingRules) == [0])
    #expect(never.firstFault?.kind == kind)
  }

  @Test("the first fault in rule order is reported and every faulted rule is counted")
  func faultCount() throws {
    let (policy, decision) = try decide(
      """
      never a when declined
      never b when uses / days > 1
      never c when days + 1 < 0
      ask d when uses * uses > 0
      """
    ) {
      try $0.set("days", to: .int(0))
      try $0.set("uses", to: .int(.max))
    }
    #expect(decision.reason == .neverRuleHeld)
    #expect(decidingNames(decision, policy) == ["b"])
    #expect(decision.faultCount == 1)
    #expect(decision.firstFault?.kind == .divisionByZero)
    #expect(decision.firstFault?.rule == 1)

    let (_, two) = try decide("never b when uses / days > 1\nnever c when uses + uses < 0\nask when true") {
      try $0.set("days", to: .int(0))
      try $0.set("uses", to: .int(.max))
    }
    #expect(two.faultCount == 2)
    #expect(two.firstFault?.rule == 0)
    #expect(two.firstFault?.kind == .divisionByZero)
    #expect(two.decidingRules.count == 2)
  }

  @Test("operands that `and`/`or` did not need are not evaluated and cannot fault")
  func shortCircuitAvoidsFaults() throws {
    let (_, and) = try decide("ask when declined and uses / days > 1") { try $0.set("days", to: .int(0)) }
    #expect(and.faultCount == 0)
    let (_, or) = try decide("ask when not declined or uses / days > 1") { try $0.set("days", to: .int(0)) }
    #expect(or.shouldAsk)
    #expect(or.faultCount == 0)
    let (_, evaluated) = try decide("ask when not declined and uses / days > 1") { try $0.set("days", to: .int(0)) }
    #expect(evaluated.faultCount == 1)
    #expect(!evaluated.shouldAsk)
  }

  @Test("missing required facts give invalidFacts before any rule runs")
  func missingFacts() throws {
    let policy = try compiled("ask when since(first_use) > 1d or true")
    let facts = policy.makeFacts(now: testNow)
    #expect(facts.missingFacts.contains("first_use"))
    let decision = policy.decide(facts)
    #expect(!decision.shouldAsk)
    #expect(decision.reason == .invalidFacts)
    #expect(decision.decidingRules.isEmpty)
    #expect(decision.firstFault == Fault(kind: .missingFact, rule: nil, range: .empty(at: 0)))
    // A required fact the policy does not read is not needed.
    let other = try compiled("ask when days >= 0")
    #expect(other.decide(other.makeFacts(now: testNow)).shouldAsk)
    // A declared fact has no default: it must be set.
    let declared = try compiled("fact plan: string\nask when plan != \"x\"")
    #expect(declared.decide(declared.makeFacts(now: testNow)).reason == .invalidFacts)
    var set = declared.makeFacts(now: testNow)
    try set.set("plan", to: .string("y"))
    #expect(declared.decide(set).shouldAsk)
  }

  @Test("facts made for another policy give invalidFacts")
  func foreignFacts() throws {
    let first = try compiled("ask when days >= 1")
    let second = try compiled("fact plan: string\nask when plan == \"pro\"")
    var facts = first.makeFacts(now: testNow)
    try facts.set("days", to: .int(5))
    #expect(first.decide(facts).shouldAsk)
    let decision = second.decide(facts)
    #expect(!decision.shouldAsk)
    #expect(decision.reason == .invalidFacts)
    #expect(decision.firstFault?.kind == .foreignFacts)
    // Even with the same facts but different string literals, the layout differs.
    let third = try compiled("fact plan: string\nask when plan == \"team\"")
    var planFacts = second.makeFacts(now: testNow)
    try planFacts.set("plan", to: .string("team"))
    #expect(third.decide(planFacts).reason == .invalidFacts)
    #expect(second.explain(planFacts).decision == second.decide(planFacts))
  }

  @Test("the schema's defaults are a fresh install: the one-liner does not ask, a loyal user is asked")
  func oneLiner() throws {
    let policy = try compiled("days >= 30 and uses >= 20 and not declined")
    var facts = policy.makeFacts(now: testNow)
    #expect(!policy.decide(facts).shouldAsk)
    try facts.set("days", to: .int(30))
    try facts.set("uses", to: .int(20))
    #expect(policy.decide(facts).shouldAsk)
    #expect(policy.decide(facts).decidingRules.map { policy.rules[$0].label } == ["ask rule at line 1"])
    try facts.set("declined", to: .bool(true))
    #expect(!policy.decide(facts).shouldAsk)
    #expect(policy.decide(facts).reason == .noAskRuleHeld)
  }
}
