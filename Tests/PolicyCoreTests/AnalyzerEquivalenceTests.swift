import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// Compares two policies (which must compile).
func equivalence(_ old: String, _ new: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
  -> EquivalenceResult
{
  PolicyEquivalence.compare(
    try compiled(old, sourceLocation: sourceLocation), try compiled(new, sourceLocation: sourceLocation))
}

/// Whether both policies really decide differently on the counterexample.
func verified(_ counterexample: Counterexample, _ old: CompiledPolicy, _ new: CompiledPolicy) -> Bool {
  let oldDecision = old.decide(counterexample.witness.facts(for: old))
  let newDecision = new.decide(counterexample.witness.facts(for: new))
  return oldDecision == counterexample.old && newDecision == counterexample.new
    && oldDecision.shouldAsk != newDecision.shouldAsk
}

@Suite("analyzer: policy equivalence (policyc diff)")
struct AnalyzerEquivalenceTests {
  @Test(
    "equivalent rewrites are proven equivalent",
    arguments: [
      ("ask when days >= 30", "ask when days > 29"),
      ("ask loyal when days >= 30\nnever no when declined", "never no when declined\nask loyal when days >= 30"),
      ("ask when not (declined or rated)", "ask when not declined and not rated"),
      ("ask when since(last_prompt) >= 8w", "ask when since(last_prompt) >= 56d"),
      ("ask when since(last_prompt) >= 8w", "ask when not has last_prompt or since(last_prompt) >= 1344h"),
      (
        "ask when (sessions_since_prompt ?? 5) > 4",
        "ask when not has sessions_since_prompt or sessions_since_prompt >= 5"
      ),
      ("ask when (average_score(3) ?? 0) >= 75", "let score = average_score(3)\nask when has score and score >= 75"),
      ("let engaged = days >= 14 and uses >= 10\nask when engaged", "ask when uses > 9 and days > 13"),
      ("ask when max(days, total_days) >= 30", "ask when days >= 30 or total_days >= 30"),
      ("ask when min(days, total_days) < 30", "ask when days < 30 or total_days < 30"),
      (
        "fact plan: string\nask when plan in [\"pro\", \"team\"]",
        "fact plan: string\nask when plan == \"team\" or plan == \"pro\""
      ),
      ("ask when version >= v3.0 and version < v3.0.3", "ask when version >= 3.0.0.0 and not (version >= v3.0.3)"),
      ("ask when first_use < now", "ask when since(first_use) > 0s"),
      (
        "never a when declined\nnever b when rated\nask when days > 3",
        "never ab when rated or declined\nask when days >= 4"
      ),
      ("ask when days > 3\nask when days > 5", "ask when days > 3"),
      ("ask when uses / days > 3 and days > 0", "ask when days > 0 and uses / days > 3"),
      ("ask when uses / days > 3", "ask when days != 0 and uses / days > 3"),
      ("ask when session_score > 100", "ask when session_score >= 100.000001"),
      ("ask when uses >= 3", "ask when uses >= 3 and uses >= -1"),
    ])
  func equivalent(old: String, new: String) throws {
    #expect(try equivalence(old, new) == .equivalent)
    #expect(try equivalence(new, old) == .equivalent)
  }

  @Test(
    "real changes give a verified counterexample",
    arguments: [
      ("ask when days >= 30", "ask when days > 30", "`days` = 30"),
      ("ask when days >= 30 and not declined", "ask when days >= 30", "`days` = 30, `declined` = true"),
      // Versions have up to four parts: 3.0.0.1 is in the range but not in the list.
      (
        "ask when version >= v3.0 and version < v3.0.3", "ask when version in [v3.0, v3.0.1, v3.0.2]",
        "`version` = v3.0.0.1"
      ),
      ("ask when since(last_prompt) >= 8w", "ask when since(last_prompt) >= 7w", "`last_prompt` 7w before now"),
      ("never when since(last_prompt) < 8w\nask when true", "ask when true", "`last_prompt` 1d before now"),
      ("ask when version >= v3.0", "ask when version >= v3.0.1", "`version` = v3.0"),
      // Converting `uses` to a number faults beyond 9223372036854: the rule then does not hold.
      ("ask when uses > 2.5", "ask when uses >= 3", "`uses` = 9223372036855"),
      ("ask when uses / days > 3", "ask when uses / days > 3 and days >= 0", "`days` = -1, `uses` = -4"),
      (
        "ask when version > last_prompt_version ?? v0.0",
        "ask when not has last_prompt_version or version > last_prompt_version",
        "`version` = v0.0, `last_prompt_version` absent"
      ),
      (
        "fact plan: string\nask when plan != \"free\"", "fact plan: string\nask when plan in [\"pro\", \"team\"]",
        "`plan` = \"other\""
      ),
    ])
  func different(old: String, new: String, facts: String) throws {
    let oldPolicy = try compiled(old)
    let newPolicy = try compiled(new)
    guard case .different(let counterexample) = PolicyEquivalence.compare(oldPolicy, newPolicy) else {
      Issue.record("expected a difference")
      return
    }
    #expect(verified(counterexample, oldPolicy, newPolicy))
    #expect(counterexample.witness.summary() == facts)
  }

  @Test("opaque conditions that hide whether a difference is real give `unknown`, never a guess")
  func unknown() throws {
    // `uses * 2 == 7` never holds, but arithmetic is not modelled: no facts show a difference.
    guard case .unknown(let reason) = try equivalence("ask when uses * 2 == 7", "ask when false") else {
      Issue.record("expected unknown")
      return
    }
    #expect(reason.hasPrefix("a difference may exist, but no facts that show it were found"))
    #expect(reason.contains("`uses * 2 == 7`"))
  }

  @Test("identical opaque conditions are the same unknown, faults included")
  func sharedOpaque() throws {
    #expect(try equivalence("ask when uses * 2 > days", "ask when uses * 2 > days") == .equivalent)
    // A faulting ask rule does not hold, whichever operand faults first.
    #expect(
      try equivalence("ask when uses * 2 == 7 and days > 3", "ask when days >= 4 and uses * 2 == 7") == .equivalent)
    // A never rule that faults, or an ask rule that faults: either way the policy does not ask.
    #expect(
      try equivalence("never when uses * 2 > days\nask when true", "ask when not (uses * 2 > days)") == .equivalent)
  }

  @Test("operand order matters in a never rule when an operand can fault")
  func faultOrder() throws {
    let old = try compiled("never n when uses * 2 == 7 and days > 3\nask when true")
    let new = try compiled("never n when days > 3 and uses * 2 == 7\nask when true")
    guard case .different(let counterexample) = PolicyEquivalence.compare(old, new) else {
      Issue.record("expected a difference")
      return
    }
    #expect(verified(counterexample, old, new))
    #expect(counterexample.old.firstFault?.kind == .overflow)
    #expect(counterexample.new.shouldAsk)
  }

  @Test("a fact with two types cannot be compared")
  func incomparable() throws {
    #expect(
      try equivalence("fact plan: string\nask when plan == \"pro\"", "fact plan: int\nask when plan == 3")
        == .incomparable("fact `plan` is a `string` in the first policy but an `int` in the second"))
  }

  @Test("a fact optional in one policy only is present in the comparison")
  func optionality() throws {
    #expect(
      try equivalence("fact trial: int?\nask when (trial ?? 0) > 3", "fact trial: int\nask when trial > 3")
        == .equivalent)
  }

  @Test("policies too large, or a search too long, give `unknown`")
  func limits() throws {
    let old = try compiled("ask when days > 3 and uses > 4")
    let new = try compiled("ask when days > 3")
    guard
      case .unknown(let reason) = PolicyEquivalence.compare(old, new, options: AnalysisOptions(maximumConditions: 3))
    else {
      Issue.record("expected unknown")
      return
    }
    #expect(reason == "test.policy is too large to analyse (7 conditions; the limit is 3)")
    #expect(
      PolicyEquivalence.compare(old, new, options: AnalysisOptions(searchSteps: 2))
        == .unknown("the policies are too complex to compare within the analysis limits"))
  }

  @Test("the shipped examples: review.policy against itself and against the one-liner")
  func examples() throws {
    let review = try compiled(try String(contentsOf: Examples.url("review.policy"), encoding: .utf8))
    #expect(PolicyEquivalence.compare(review, review) == .equivalent)
    let oneLiner = try compiled(try String(contentsOf: Examples.url("one-liner.policy"), encoding: .utf8))
    guard case .different(let counterexample) = PolicyEquivalence.compare(review, oneLiner) else {
      Issue.record("expected a difference")
      return
    }
    #expect(verified(counterexample, review, oneLiner))
  }
}

// MARK: - Property test

/// The package's seeded generator (SplitMix64).
typealias AnalyzerRandom = SeededGenerator

/// Random small policies over a few facts, and random facts near their thresholds.
struct AnalyzerPolicyGenerator {
  var random: AnalyzerRandom
  static let operators = ["<", "<=", ">", ">=", "==", "!="]

  mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

  mutating func atom() -> String {
    switch Int.random(in: 0..<9, using: &random) {
    case 0: return "days \(pick(Self.operators)) \(pick([10, 29, 30, 31]))"
    case 1: return "uses \(pick(Self.operators)) \(pick([5, 20, 21]))"
    case 2: return pick(["declined", "not declined", "rated"])
    case 3: return "since(last_prompt) \(pick(["<", ">=", ">"])) \(pick(["7d", "1w", "8w", "56d"]))"
    case 4: return "version \(pick(Self.operators)) \(pick(["v2.0", "2.0.1", "v3.0"]))"
    case 5: return "(average_score(3) ?? 0) \(pick([">=", "<"])) \(pick(["75", "74.5"]))"
    case 6: return "uses \(pick([">", "<="])) \(pick(["2.5", "20.5"]))"
    case 7: return "has last_reminder"
    default: return "max(days, total_days) \(pick([">=", "<"])) \(pick([30, 60]))"
    }
  }

  mutating func condition() -> String {
    let count = Int.random(in: 1...3, using: &random)
    let joiner = pick([" and ", " or "])
    return (0..<count).map { _ in atom() }.joined(separator: joiner)
  }

  mutating func policy() -> [String] {
    var rules = ["ask a when \(condition())"]
    if Bool.random(using: &random) { rules.append("never n when \(condition())") }
    if Bool.random(using: &random) { rules.append("ask b when \(condition())") }
    return rules
  }

  /// A variant of `rules`: reordered, one number or operator changed, or unchanged.
  mutating func variant(_ rules: [String]) -> [String] {
    var result = rules
    switch Int.random(in: 0..<5, using: &random) {
    case 0: result.shuffle(using: &random)
    case 3:
      // One operand of one rule replaced by a fresh one.
      let index = Int.random(in: 0..<result.count, using: &random)
      let parts = result[index].components(separatedBy: " when ")
      var operands = parts[1].components(separatedBy: " and ")
      if operands.count == 1 { operands = parts[1].components(separatedBy: " or ") }
      let position = Int.random(in: 0..<operands.count, using: &random)
      let joiner = parts[1].contains(" or ") && !parts[1].contains(" and ") ? " or " : " and "
      operands[position] = atom()
      result[index] = parts[0] + " when " + operands.joined(separator: joiner)
    case 1:
      let index = Int.random(in: 0..<result.count, using: &random)
      let replacements = [
        ("30", "29"), (">=", ">"), ("8w", "56d"), ("<=", "<"), ("7d", "1w"), ("75", "74.5"), ("20", "21"),
      ]
      let (from, to) = pick(replacements)
      if let range = result[index].range(of: from) { result[index].replaceSubrange(range, with: to) }
    case 2:
      let index = Int.random(in: 0..<result.count, using: &random)
      result[index] = result[index].replacingOccurrences(of: " and ", with: " or ")
    default: break
    }
    return result
  }

  /// Random facts, many of them on or next to the thresholds used above.
  mutating func facts(for policy: CompiledPolicy) throws -> Facts {
    let now = Timestamp(millisecondsSince1970: 1_767_225_600_000)
    var facts = policy.makeFacts(now: now)
    let day: Int64 = 86_400_000
    func set(_ name: String, _ value: Value?) throws {
      guard policy.layout.slot(named: name) != nil else { return }
      if let value { try facts.set(name, to: value) } else { try facts.setAbsent(name) }
    }
    try set("days", .int(pick([0, 9, 10, 11, 28, 29, 30, 31, 32, 59, 60, 61, -5])))
    try set("total_days", .int(pick([0, 29, 30, 31, 59, 60, 61, 100])))
    try set("uses", .int(pick([0, 2, 3, 4, 5, 6, 19, 20, 21, 22, -3, 9_223_372_036_855, Int64.max])))
    try set("declined", .bool(Bool.random(using: &random)))
    try set("rated", .bool(Bool.random(using: &random)))
    try set("first_use", .instant(now))
    try set("install_date", .instant(now))
    let ages: [Int64?] = [
      nil, 0, 6 * day, 7 * day - 1, 7 * day, 7 * day + 1, 56 * day - 1, 56 * day, 56 * day + 1, -day,
    ]
    try set(
      "last_prompt", pick(ages).map { .instant(Timestamp(millisecondsSince1970: now.millisecondsSince1970 - $0)) })
    try set("last_reminder", Bool.random(using: &random) ? nil : .instant(now))
    try set(
      "version", .version(pick(["1.9", "2.0", "2.0.1", "2.0.2", "3.0", "2.9.9"].compactMap(Version.init(parsing:)))))
    let scores: [Value?] = [
      nil, .number(Number(scaled: 74_500_000)), .number(Number(scaled: 74_499_999)),
      .number(Number(scaled: 75_000_000)), .number(Number(scaled: 0)),
    ]
    if let slot = policy.layout.slot(named: "average_score(3)") {
      let score = pick(scores)
      if let score { try facts.set(slot: slot, to: score) } else { try facts.setAbsent("average_score(3)") }
    }
    return facts
  }
}

@Suite("analyzer: equivalence property test")
struct AnalyzerEquivalencePropertyTests {
  @Test("random policy pairs: `equivalent` never disagrees on random facts; every counterexample verifies")
  func randomPairs() throws {
    var generator = AnalyzerPolicyGenerator(random: AnalyzerRandom(seed: 20_261_122))
    var counts: [String: Int] = [:]
    for _ in 0..<500 {
      let rules = generator.policy()
      let other = generator.variant(rules)
      let old = try compiled(rules.joined(separator: "\n"))
      let new = try compiled(other.joined(separator: "\n"))
      let result = PolicyEquivalence.compare(old, new)
      switch result {
      case .equivalent:
        counts["equivalent", default: 0] += 1
        for _ in 0..<150 {
          let oldFacts = try generator.facts(for: old)
          // The same values, for the other layout.
          var newFacts = new.makeFacts(now: oldFacts.now)
          for slot in new.layout.slots.indices {
            let name = new.layout.slots[slot].name
            if let value = oldFacts.value(of: name) {
              try newFacts.set(slot: slot, to: value)
            } else if new.layout.slots[slot].isOptional {
              try newFacts.setAbsent(name)
            }
          }
          let a = old.decide(oldFacts)
          let b = new.decide(newFacts)
          #expect(a.shouldAsk == b.shouldAsk, "\(rules) vs \(other) said equivalent but differ")
          if a.shouldAsk != b.shouldAsk { return }
        }
      case .different(let counterexample):
        counts["different", default: 0] += 1
        #expect(verified(counterexample, old, new), "\(rules) vs \(other)")
      case .unknown(let reason):
        Issue.record("unknown for \(rules) vs \(other): \(reason)")
      case .incomparable(let reason):
        Issue.record("incomparable: \(reason)")
      }
    }
    // Both kinds of answers are exercised.
    #expect(counts["equivalent", default: 0] >= 100)
    #expect(counts["different", default: 0] >= 100)
  }

  @Test("random single policies: no logic warning is contradicted")
  func randomAnalyses() throws {
    var generator = AnalyzerPolicyGenerator(random: AnalyzerRandom(seed: 7))
    for _ in 0..<150 {
      let rules = generator.policy()
      let policy = try compiled(rules.joined(separator: "\n"))
      let report = PolicyAnalyzer.analyze(policy)
      for finding in report.findings {
        let rule = policy.rules.firstIndex { $0.range == finding.owner }
        switch finding.diagnostic.code {
        case .ruleNeverHolds:
          // No random facts make it count as holding.
          let index = try #require(rule)
          for _ in 0..<100 {
            let decision = policy.decide(try generator.facts(for: policy))
            if policy.rules[index].kind == .ask {
              #expect(!decision.decidingRules.contains(index), "\(rules): \(finding.diagnostic.message)")
            }
          }
        default: break
        }
      }
    }
  }
}
