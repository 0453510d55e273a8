import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The guardrail property: over random policy updates and random histories, no decision asks
/// while a guardrail holds, the guardrail being checked independently on the facts.
@Suite("runtime: guardrail property")
struct RuntimeGuardrailPropertyTests {
  typealias F = RuntimeFixtures

  /// The guardrail sets tried, each with `never` rules only.
  static let guardrailSets = [
    "never answered when declined_any or rated_any\nnever yearly_cap when prompts_within(365d) >= 3",
    "never spacing when since(last_prompt) < 14d\nnever early when total_days < 3",
    "never tired when total_prompts >= 2 or declined",
    "never quiet when events < 2 and uses < 4\nnever answered when declined_any",
  ]

  /// Generates random policies over the review facts, and random steps.
  struct Generator {
    var random: SeededGenerator

    mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    mutating func atom() -> String {
      let n = below(6)
      return pick([
        "uses >= \(n)", "events >= \(n)", "days >= \(n * 5)", "sessions >= \(n)", "total_uses > \(n * 2)",
        "declined", "not declined", "rated", "declined_any", "not declined_any", "rated_any", "not rated_any",
        "prompts_within(30d) < \(n)", "prompts_within(365d) >= \(n)", "total_prompts <= \(n)",
        "since(last_prompt) >= \(n * 10)d", "total_days >= \(n * 20)", "true", "uses >= 0",
      ])
    }

    mutating func condition() -> String {
      var text = atom()
      for _ in 0..<below(3) {
        text += pick([" and ", " or "]) + atom()
      }
      return below(4) == 0 ? "not (\(text))" : text
    }

    /// A policy of 1 to 4 rules, mostly `ask` rules, some of them unconditional enough to ask often.
    mutating func policy() -> String {
      var rules: [String] = []
      for index in 0..<(1 + below(4)) {
        let kind = below(4) == 0 ? "never" : "ask"
        rules.append("\(kind) r\(index) when \(condition())")
      }
      if below(2) == 0 { rules.append("ask often when uses >= 0") }
      return rules.joined(separator: "\n")
    }
  }

  /// The guardrails' own verdict on `state` at `now`, by evaluating them alone: held, faulted or
  /// not evaluable (all three forbid asking).
  static func guardrailHolds(_ guardrails: CompiledPolicy, state: ReviewState, now: Date) -> Bool {
    let tracker = ReviewTracker(policy: guardrails, appVersion: "1.0", state: state)
    guard let decision = tracker.decision(at: Timestamp(now)) else { return true }
    switch decision.reason {
    case .noAskRuleHeld, .askRuleHeld: return false
    case .neverRuleHeld, .invalidFacts: return true
    }
  }

  /// Whether the running policy alone would ask on `state` at `now`.
  static func policyAsks(_ policy: CompiledPolicy, state: ReviewState, now: Date) -> Bool {
    ReviewTracker(policy: policy, appVersion: "1.0", state: state).decision(at: Timestamp(now))?.shouldAsk ?? false
  }

  @Test("no decision asks while a guardrail holds, over random updates and histories")
  func noPromptWhileGuardrailHolds() throws {
    var generator = Generator(random: SeededGenerator(seed: 0x5EED_2026))
    var exercised = 0
    var asked = 0
    for round in 0..<120 {
      let guardrailSource = Self.guardrailSets[round % Self.guardrailSets.count]
      let guardrails = try #require(
        PolicyCompiler.compile(guardrailSource, path: "guardrails.policy", schema: ReviewSchema.standard).policy)
      let clock = RuntimeTestClock()
      let presenter = RuntimeRecordingPresenter()
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 0", store: InMemoryReviewStore(), clock: clock.function,
          texts: .english, presenter: presenter, guardrails: guardrailSource))
      for step in 0..<40 {
        presenter.setAnswer(generator.pick([.rated, .declined, .remindLater, .unknown, nil]))
        // A random call that records without prompting, then (sometimes) a prompt check.
        var checks = true
        switch generator.below(9) {
        case 0: _ = manager.updatePolicy(generator.policy())
        case 1: manager.appLaunched()
        case 2: manager.appEnteredForeground()
        case 3: manager.significantEvent(mayPrompt: false)
        case 4: checks = true
        case 5: manager.action(score: Double(generator.below(50)), mayPrompt: false)
        case 6: manager.sessionStarted()
        case 7:
          clock.advance(days: Double(1 + generator.below(60)))
          checks = generator.below(2) == 0
        default:
          clock.advance(seconds: Double(generator.below(4000)))
          if generator.below(6) == 0 { manager.recordWithoutPrompt(generator.pick([.declined, .rated])) }
        }
        guard checks else { continue }
        // The guardrails' verdict on the facts the next decision sees, computed without the manager.
        let now = clock.now
        let state = manager.currentState
        let holds = Self.guardrailHolds(guardrails, state: state, now: now)
        if holds && Self.policyAsks(manager.currentPolicy, state: state, now: now) { exercised += 1 }
        if holds {
          #expect(!manager.wouldAsk(), "round \(round) step \(step)")
          #expect(!manager.currentDecision().shouldAsk, "round \(round) step \(step)")
          #expect(manager.explainCurrentDecision().decision?.shouldAsk != true, "round \(round) step \(step)")
        }
        let prompted = manager.promptIfAppropriate()
        if prompted { asked += 1 }
        #expect(!(holds && prompted), "round \(round) step \(step): asked while a guardrail held")
      }
    }
    // The property was put to the test: guardrails stopped policies that asked, and prompts happened.
    #expect(exercised > 60, "\(exercised)")
    #expect(asked > 50, "\(asked)")
  }
}
