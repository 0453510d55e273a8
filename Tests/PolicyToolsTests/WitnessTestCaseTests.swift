import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy
import Testing

@testable import PolicyTools

/// Every witness the analyzer prints for a review policy (an etiquette warning's example, a
/// `diff` counterexample) satisfies the schema's relations, and comes with a passing `policyc
/// test` case: its history replays through the review manager to its facts. The builder may decline
/// only for a limit of a test file (a history too long, a device clock set back): at most 2% of
/// the witnesses; any other refusal fails the test, listed.
@Suite("witness test cases")
struct WitnessTestCaseTests {
  /// Comparisons over the review facts, mixing scopes and families, with a constant placeholder `#`.
  static let comparisons = [
    "days >= #", "days < #", "total_days >= #", "total_days < #", "uses >= #", "total_uses > #",
    "sessions >= #", "total_sessions < #", "prompts >= #", "prompts < #", "total_prompts >= #",
    "total_prompts < #", "prompts_within(7d) >= #", "prompts_within(365d) < #", "since(last_prompt) < #d",
    "since(last_prompt) >= #d", "declined", "not declined", "rated", "rated_any", "not declined_any",
    "since(install_date) >= #d", "since(first_use) < #d", "events(\"export\") >= #",
    "total_events(\"export\") >= #", "sessions_since_prompt >= #", "has previous_version",
    "not has previous_version", "version > \"1.#\"", "since(last_decline) < #d", "has last_prompt",
    "not has last_prompt", "since(last_rating) >= #d", "(average_score(3) ?? 0) >= #", "session_score > #",
  ]

  static func policy(_ generator: inout SeededGenerator) -> String {
    var lines: [String] = []
    let rules = Int(generator.next() % 3) + 1
    for index in 0..<rules {
      let kind = index > 0 && generator.next() % 3 == 0 ? "never" : "ask"
      let count = Int(generator.next() % 3) + 1
      let parts = (0..<count).map { _ in
        let template = comparisons[Int(generator.next() % UInt64(comparisons.count))]
        return template.replacingOccurrences(of: "#", with: String(generator.next() % 40))
      }
      lines.append("\(kind) r\(index) when " + parts.joined(separator: " and "))
    }
    if !lines.contains(where: { $0.hasPrefix("ask") }) { lines.append("ask last when days >= 3") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The policy without its rule `index`, when it still has an `ask` rule.
  static func dropping(_ text: String, rule index: Int) -> String? {
    var lines = text.split(separator: "\n").map(String.init)
    guard lines.count > 1, lines.indices.contains(index) else { return nil }
    lines.remove(at: index)
    guard lines.contains(where: { $0.hasPrefix("ask") }) else { return nil }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("400 random review policies: every example and counterexample is real and has a test case that passes")
  func randomPolicies() throws {
    let environment = PolicyEnvironment.standard
    var generator = SeededGenerator(seed: 2025)
    var made = 0
    var witnesses = 0
    var unreal: [String] = []
    var refused: [String] = []
    var limited = 0
    func check(_ witness: Witness, _ policy: CompiledPolicy, _ what: String) {
      witnesses += 1
      let broken = ReviewSchema.standard.brokenRelations(in: witness.assignment, now: witness.now)
      if !broken.isEmpty { unreal.append("\(what): breaks \(broken.map(\.relation.reason))") }
      // A case is made only when it passes `policyc test` (WitnessTestCase.make runs it).
      switch WitnessTestCase.make(for: witness, named: what, policy: policy, environment: environment) {
      case .success: made += 1
      case .failure(let refusal) where refusal.exceedsLimits: limited += 1
      case .failure(let refusal): refused.append("\(what) (\(witness.summary())): \(refusal.reason)")
      }
    }
    for _ in 0..<400 {
      let text = Self.policy(&generator)
      guard let policy = environment.compile(text).policy else { continue }
      for finding in environment.analyze(policy).findings {
        if let witness = finding.witness { check(witness, policy, "\(finding.diagnostic.code) of\n\(text)") }
      }
      let dropped = Int(generator.next() % UInt64(policy.rules.count))
      guard let otherText = Self.dropping(text, rule: dropped), let other = environment.compile(otherText).policy
      else { continue }
      if case .different(let counterexample) = PolicyDiff.compare(policy, other) {
        check(counterexample.witness, policy, "a counterexample (old) of\n\(text)")
        check(counterexample.witness, other, "a counterexample (new) of\n\(otherText)")
      }
    }
    if let path = ProcessInfo.processInfo.environment["WITNESS_FAILURES"] {
      let counts =
        "\(witnesses) witnesses, \(made) test cases, \(refused.count) refused, \(limited) beyond limits, \(unreal.count) unreal"
      try ([counts] + unreal + refused).joined(separator: "\n====\n").write(
        toFile: path, atomically: true, encoding: .utf8)
    }
    #expect(unreal.isEmpty, "\(unreal.count) witnesses break a relation; first: \(unreal.prefix(3))")
    #expect(
      refused.isEmpty,
      "\(refused.count) of \(witnesses) witnesses have no history; \(refused.prefix(4).joined(separator: "\n\n"))")
    #expect(limited * 50 <= witnesses, "\(limited) of \(witnesses) witnesses are beyond a test file's limits")
    #expect(made + limited == witnesses)
    #expect(made >= 400, "test cases made: \(made)")
  }

  @Test(
    "facts the analysis left open and the policy does not read are not claimed: the case is built without them")
  func openFactsAreNotClaimed() throws {
    // A PC322 example whose open (neutral) facts hold two answers of an earlier version given after
    // the update, while its three prompts are all at the install instant: no history gives those
    // open facts, and none is needed (Fuzz/regressions/analyzer/history-open-answer-facts.policy).
    let environment = PolicyEnvironment.standard
    let text = """
      ask paying when days >= 2 and uses >= 5
        and ((sessions_since_bad ?? 0) > 2 or since(last_bad_session) > 2d)
        and (not has last_prompt_version or version > last_prompt_version)
        and (sessions_since_prompt ?? 5) > 4 and since(last_prompt) > 8w
        and (average_score(3) ?? -1) >= 75
      """
    let policy = try #require(environment.compile(text).policy)
    let finding = try #require(
      environment.analyze(policy).findings.first { $0.diagnostic.code.rawValue == "PC322" && $0.witness != nil })
    let witness = try #require(finding.witness)
    let reading = WitnessHistory.reading(policy)
    let open = witness.facts.filter { !$0.isConstrained && !reading.contains($0.name) }.map { $0.name }
    #expect(open.contains("rated_any") && open.contains("last_rating"), "open facts: \(open)")
    // Every fact claimed: refused; the claimed ones only: a case that passes `policyc test`.
    if case .success = WitnessHistory.build(facts: witness.assignment, now: witness.now) {
      Issue.record("the example no longer needs its open facts dropped; pick another")
    }
    let made = WitnessTestCase.make(for: witness, named: "PC322", policy: policy, environment: environment)
    #expect(throws: Never.self) { try made.get() }
    let history = try made.get().history
    let replayed = try history.replay(policy: policy, policyText: text, environment: environment).get()
    for fact in witness.facts where fact.isConstrained || reading.contains(fact.name) {
      #expect(replayed.value(of: fact.name) == fact.value, "\(fact.name)" as Testing.Comment)
    }
  }

  @Test(
    "a counterexample of policies declaring other events: each case records the other policy's events unnamed, and passes"
  )
  func eventsOnlyTheOtherPolicyReads() throws {
    // Fuzz/regressions/analyzer/diff-counterexample-event-one-policy-reads.policy: the history
    // records `expo9rt` events, which the new policy does not declare (its test case refused them).
    let environment = PolicyEnvironment.standard
    let old = try #require(environment.compile("event expo9rt\nask a when events(\"expo9rt\") >= 75\n").policy)
    let new = try #require(
      environment.compile("event export\nask a when events(\"export\") >= 75 and events >= 80\n").policy)
    guard case .different(let counterexample) = PolicyDiff.compare(old, new) else {
      Issue.record("no counterexample")
      return
    }
    let witness = counterexample.witness
    let counts = Dictionary(
      witness.assignment.compactMap { fact -> (String, Int64)? in
        guard case .int(let count) = fact.value else { return nil }
        return (fact.name, count)
      }, uniquingKeysWith: { first, _ in first })
    #expect((counts["events(\"expo9rt\")"] ?? 0) + (counts["events(\"export\")"] ?? 0) >= 75, "\(counts)")
    for (policy, foreign) in [(old, "export"), (new, "expo9rt")] {
      let made = WitnessTestCase.make(for: witness, named: "counterexample", policy: policy, environment: environment)
      let history = try made.get().history
      #expect(!history.steps.contains { $0.contains(foreign) }, "\(history.steps)")
      // The events the other policy names still count in `events`.
      let replayed = try history.replay(
        policy: policy, policyText: String(decoding: policy.source.bytes, as: UTF8.self), environment: environment
      ).get()
      if let events = counts["events"] { #expect(replayed.value(of: "events") == .int(events)) }
    }
  }

  @Test(
    "prompts the tracker forgot: a window longer than since(first_use) holds fewer of them only when the last prompt came over 730 days after first use"
  )
  func forgottenPrompts() throws {
    let environment = PolicyEnvironment.standard
    func compared(_ within: String) throws -> EquivalenceResult {
      let old = try #require(environment.compile("ask a when prompts >= 3 and \(within)").policy)
      let new = try #require(
        environment.compile("ask a when prompts >= 3 and \(within) and prompts_within(1000d) >= 3").policy)
      return PolicyDiff.compare(old, new)
    }
    // Within 730 days of first use every prompt of this version is remembered: the same.
    #expect(try compared("since(first_use) < 700d") == .equivalent)
    // Beyond, a user whose last prompt came over 730 days after first use has forgotten ones.
    guard case .different(let counterexample) = try compared("since(first_use) < 1000d") else {
      Issue.record("no counterexample")
      return
    }
    let witness = counterexample.witness
    #expect(ReviewSchema.standard.brokenRelations(in: witness.assignment, now: witness.now).isEmpty)
    let instants = Dictionary(
      witness.facts.compactMap { fact -> (String, Int64)? in
        guard case .instant(let instant)? = fact.value else { return nil }
        return (fact.name, instant.millisecondsSince1970)
      }, uniquingKeysWith: { first, _ in first })
    let (firstUse, lastPrompt) = (try #require(instants["first_use"]), try #require(instants["last_prompt"]))
    #expect(lastPrompt - firstUse > 730 * 86_400_000)
    let policy = try #require(environment.compile("ask a when prompts >= 3 and since(first_use) < 1000d").policy)
    let made = WitnessTestCase.make(for: witness, named: "forgotten", policy: policy, environment: environment)
    #expect(throws: Never.self) { try made.get() }
  }
}
