import Foundation
import PolicyCore
import ReviewPolicy
import Testing

@testable import PolicyTools

/// A policy whose layout has every standard fact and members of every family: its facts at the
/// end of a history are the complete facts a witness could give.
private let everyFactPolicy = """
  fact plan: string = "free"
  ask everything when plan == "free" and days >= 0 and total_days >= 0 and uses >= 0 and total_uses >= 0
    and events >= 0 and total_events >= 0 and sessions >= 0 and total_sessions >= 0 and prompts >= 0
    and total_prompts >= 0 and (declined or declined_any or rated or rated_any or feedback or feedback_any or true)
    and since(first_use) >= 0s and since(install_date) >= 0s and version >= v0.1
    and (not has last_reminder or since(last_reminder) >= 0s) and (not has first_session or since(first_session) >= 0s)
    and (not has previous_version or previous_version >= v0.1) and (not has last_prompt or since(last_prompt) >= 0s)
    and (not has last_prompt_version or last_prompt_version >= v0.1) and (sessions_since_prompt ?? 0) >= 0
    and (not has last_decline or since(last_decline) >= 0s) and (not has last_rating or since(last_rating) >= 0s)
    and session_score >= -1000 and not session_bad and (not has last_bad_session or since(last_bad_session) >= 0s)
    and (sessions_since_bad ?? 0) >= 0 and events("a") >= 0 and total_events("a") >= 0 and events("b b") >= 0
    and total_events("b b") >= 0 and total_events("c") >= 0 and prompts_within(1d) >= 0 and prompts_within(30d) >= 0
    and prompts_within(365d) >= 0 and prompts_within(1000d) >= 0 and (average_score(1) ?? 0) >= -1000
    and (average_score(3) ?? 0) >= -1000 and (average_score(60) ?? 0) >= -1000
  """

/// The review environment with the events the histories record.
private let environment = PolicyEnvironment(eventNames: ["a", "b b", "c"])

/// The compiled policy.
private let compiled: CompiledPolicy? = environment.compile(everyFactPolicy).policy

/// The host facts of `facts` (every slot but the policy's own), as an assignment.
private func assignment(_ facts: Facts, policy: CompiledPolicy) -> [AssignedFact] {
  policy.layout.slots.compactMap { slot in
    switch slot.origin {
    case .declaration: return nil
    case .family(let family, let key): return AssignedFact(slot.name, family: family, key: key, facts.value(of: slot.name))
    default: return AssignedFact(slot.name, facts.value(of: slot.name))
    }
  }
}

/// 2026-03-01T00:00:00Z.
private let march = Timestamp(millisecondsSince1970: 1_772_323_200_000)

/// `facts` built at `now`, replayed under the every-fact policy, with the facts at the end.
private func replayBuilt(_ facts: [AssignedFact], now: Timestamp = march) -> Result<
  (history: WitnessHistory, facts: Facts), WitnessHistoryRefusal
> {
  guard let compiled else { return .failure(WitnessHistoryRefusal(facts: [], reason: "the test policy has errors")) }
  return WitnessHistory.build(facts: facts, now: now).flatMap { history in
    history.replay(policy: compiled, policyText: everyFactPolicy, environment: environment).map { (history, $0) }
  }
}

private func day(_ count: Int64) -> TimeSpan { TimeSpan(milliseconds: count * 86_400_000) }
private func before(_ span: TimeSpan, _ now: Timestamp = march) -> Value {
  .instant(Timestamp(millisecondsSince1970: now.millisecondsSince1970 - span.milliseconds))
}

@Suite("WitnessHistory")
struct WitnessHistoryTests {
  /// A random history in test-file syntax: launches, foregrounds, sessions, events (named and not,
  /// some of which let the policy prompt), prompts the policy asks for and prompts shown with
  /// every answer, answers outside prompts, actions with scores and bad sessions, waits and updates.
  static func randomHistory(_ generator: inout SeededGenerator) -> (steps: [String], version: String, span: Int64) {
    let versions = ["1.0", "1.1", "2.0", "2.0.1", "3.0"]
    let answers = ["rate", "decline", "remind", "feedback", "dismiss", "unknown"]
    var steps: [String] = []
    var span: Int64 = 0
    for _ in 0..<Int.random(in: 5...40, using: &generator) {
      let count = Int.random(in: 0...3, using: &generator) == 0 ? " x \(Int.random(in: 2...4, using: &generator))" : ""
      switch Int.random(in: 0...15, using: &generator) {
      case 0: steps.append("launch" + count)
      case 1: steps.append("foreground" + count)
      case 2, 3: steps.append("session" + count)
      case 4: steps.append("end session")
      case 5: steps.append("silent event" + ["", " a", " \"b b\"", " c"].randomElement(using: &generator)! + count)
      case 6: steps.append("event a" + count)
      case 7: steps.append("shown" + count + " -> " + answers.randomElement(using: &generator)!)
      case 8: steps.append("shown")
      case 9: steps.append("unprompted -> " + answers.randomElement(using: &generator)!)
      case 10: steps.append("prompt")
      case 11:
        let score = Double(Int.random(in: -3000...3000, using: &generator)) / 10
        steps.append("action \(score)" + (Bool.random(using: &generator) ? " bad" : "") + count)
      case 12, 13:
        let wait = Int64.random(in: 0...(Bool.random(using: &generator) ? 3_600_000 : 40 * 86_400_000), using: &generator)
        span += wait
        steps.append("wait \(TimeSpan(milliseconds: wait))")
      case 14: steps.append("update " + versions.randomElement(using: &generator)!)
      default:
        let wait = Int64.random(in: 100...800, using: &generator) * 86_400_000
        span += wait
        steps.append("wait \(TimeSpan(milliseconds: wait))")
      }
    }
    return (steps, versions.randomElement(using: &generator)!, span)
  }

  @Test(
    "2,000 random histories: their complete facts build a history that replays to the same facts, and so do parts of them, but for a few refused"
  )
  func randomHistories() throws {
    let policy = try #require(compiled)
    var generator = SeededGenerator(seed: 25)
    var failures: [String] = []
    var refusedParts: [String] = []
    var wrongParts: [String] = []
    for index in 0..<2_000 {
      let (steps, version, span) = Self.randomHistory(&generator)
      let start = Timestamp(millisecondsSince1970: 1_767_225_600_000 + Int64(index) * 1_000)
      let now = Timestamp(millisecondsSince1970: start.millisecondsSince1970 + span)
      let original = WitnessHistory(start: start, version: version, steps: steps, now: now)
      let facts = try original.replay(policy: policy, policyText: everyFactPolicy, environment: environment).get()
      let given = assignment(facts, policy: policy)
      #expect(ReviewSchema.standard.brokenRelations(in: given, now: now).isEmpty)
      // The complete facts: always a history, value for value (instants to the millisecond).
      switch WitnessHistory.build(facts: given, now: now) {
      case .success(let history):
        if case .failure(let refusal) = history.check(
          given, policy: policy, policyText: everyFactPolicy, environment: environment)
        {
          failures.append("\(index): \(refusal.reason)\n  \(steps)\n  \(history.steps)")
        }
      case .failure(let refusal): failures.append("\(index): \(refusal.reason)\n  \(steps)")
      }
      // A random part (a witness names only its policy's facts): a history, or for a few a refusal
      // (from the builder, or from the replay check that `replayed(for:...)` runs).
      let part = given.filter { _ in Bool.random(using: &generator) }
      switch WitnessHistory.build(facts: part, now: now) {
      case .success(let history):
        if case .failure(let refusal) = history.check(
          part, policy: policy, policyText: everyFactPolicy, environment: environment)
        {
          wrongParts.append("\(index): \(refusal.reason)")
        }
      case .failure(let refusal): refusedParts.append("\(index): \(refusal.reason)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failed; first: \(failures.prefix(3).joined(separator: "\n"))")
    #expect(refusedParts.count + wrongParts.count <= 20, "refused: \(refusedParts.prefix(5)), \(wrongParts.prefix(5))")
  }
}
