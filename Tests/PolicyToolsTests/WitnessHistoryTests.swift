import Foundation
import ReviewAnalysis
import ReviewPolicy
import Testing

@testable import PolicyAnalysis
@testable import PolicyCore
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
    case .family(let family, let key):
      return AssignedFact(slot.name, family: family, key: key, facts.value(of: slot.name))
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
        let wait = Int64.random(
          in: 0...(Bool.random(using: &generator) ? 3_600_000 : 40 * 86_400_000), using: &generator)
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

/// Builds `facts` at `march`, replays the history and returns the replayed value of each fact given.
private func replayedValues(_ facts: [AssignedFact]) throws -> (history: WitnessHistory, values: [String: Value?]) {
  let (history, replayed) = try replayBuilt(facts).get()
  var values: [String: Value?] = [:]
  for fact in facts { values[fact.name] = replayed.value(of: fact.name) }
  return (history, values)
}

private func member(_ family: String, _ key: Value, _ value: Value?) -> AssignedFact {
  let written: String =
    switch key {
    case .string(let name): "\(family)(\"\(name)\")"
    default: "\(family)(\(key))"
    }
  return AssignedFact(written, family: family, key: key, value)
}

@Suite("WitnessHistory cases")
struct WitnessHistoryCaseTests {
  @Test("days 30 with total_days 45: an earlier version 15 days before this one")
  func days() throws {
    let facts = [AssignedFact("days", .int(30)), AssignedFact("total_days", .int(45))]
    let (history, values) = try replayedValues(facts)
    #expect(values["days"] == .int(30))
    #expect(values["total_days"] == .int(45))
    #expect(history.steps.contains { $0.hasPrefix("update ") })
  }

  @Test("prompts 2 with total_prompts 3 and prompts_within(365d) 2")
  func prompts() throws {
    let facts = [
      AssignedFact("prompts", .int(2)), AssignedFact("total_prompts", .int(3)),
      AssignedFact("prompts_within(365d)", family: "prompts_within", key: .duration(day(365)), .int(2)),
    ]
    let (history, values) = try replayedValues(facts)
    #expect(values["prompts"] == .int(2))
    #expect(values["total_prompts"] == .int(3))
    #expect(values["prompts_within(365d)"] == .int(2))
    #expect(history.promptsShown == 3)
  }

  @Test("rated with rated_any, and the last rating at a given instant")
  func rated() throws {
    let facts = [
      AssignedFact("rated", .bool(true)), AssignedFact("rated_any", .bool(true)),
      AssignedFact("last_rating", before(day(2))),
    ]
    let (history, values) = try replayedValues(facts)
    #expect(values["rated"] == .bool(true))
    #expect(values["rated_any"] == .bool(true))
    #expect(values["last_rating"] == before(day(2)))
    #expect(history.steps.contains("unprompted -> rate"))
  }

  @Test("the last prompt 3 weeks before now with 4 sessions since")
  func lastPrompt() throws {
    let facts = [
      AssignedFact("last_prompt", before(day(21))), AssignedFact("sessions_since_prompt", .int(4)),
      AssignedFact("total_sessions", .int(6)),
    ]
    let (_, values) = try replayedValues(facts)
    #expect(values["last_prompt"] == before(day(21)))
    #expect(values["sessions_since_prompt"] == .int(4))
    #expect(values["total_sessions"] == .int(6))
  }

  @Test("declined in an earlier version only: declined false, declined_any true, the decline before this version")
  func declinedEarlier() throws {
    let facts = [
      AssignedFact("declined", .bool(false)), AssignedFact("declined_any", .bool(true)),
      AssignedFact("last_decline", before(day(100))), AssignedFact("days", .int(10)),
      AssignedFact("version", .version(try #require(Version(parsing: "3.1")))),
      AssignedFact("previous_version", .version(try #require(Version(parsing: "3.0")))),
    ]
    let (history, values) = try replayedValues(facts)
    for fact in facts { #expect(values[fact.name] == fact.value, "\(fact.name)") }
    #expect(history.version == "3.0")
  }

  @Test(
    "declined false, declined_any true, the decline after this version's first use: a late answer to an earlier version's prompt"
  )
  func lateDecline() throws {
    let facts = [
      AssignedFact("declined", .bool(false)), AssignedFact("declined_any", .bool(true)),
      AssignedFact("last_decline", before(day(1))), AssignedFact("first_use", before(day(14))),
      AssignedFact("prompts", .int(0)), AssignedFact("rated", .bool(false)), AssignedFact("rated_any", .bool(false)),
    ]
    let (history, values) = try replayedValues(facts)
    for fact in facts { #expect(values[fact.name] == fact.value, "\(fact.name)") }
    #expect(history.steps.contains("late -> decline"), "\(history.steps)")
    let update = try #require(history.steps.firstIndex { $0.hasPrefix("update ") })
    let shown = try #require(history.steps.firstIndex { $0.hasPrefix("shown") })
    #expect(shown < update, "the prompt is the earlier version's: \(history.steps)")
  }

  @Test("both answers late, after prompts of this version: each takes a prompt of an earlier version of its own")
  func lateRatingAndDecline() throws {
    let facts = [
      AssignedFact("declined", .bool(false)), AssignedFact("declined_any", .bool(true)),
      AssignedFact("last_decline", before(day(3))), AssignedFact("rated", .bool(false)),
      AssignedFact("rated_any", .bool(true)), AssignedFact("last_rating", before(day(2))),
      AssignedFact("first_use", before(day(10))), AssignedFact("prompts", .int(1)),
      AssignedFact("last_prompt", before(day(1))), AssignedFact("total_prompts", .int(3)),
    ]
    let (history, values) = try replayedValues(facts)
    for fact in facts { #expect(values[fact.name] == fact.value, "\(fact.name)") }
    #expect(history.steps.filter { $0.hasPrefix("late -> ") }.count == 2, "\(history.steps)")
  }

  @Test(
    "more prompts than a history can repeat steps is refused as a limit first, whatever else the counts say (the analyzer campaign's finding)"
  )
  func promptsBeyondTheReplayLimit() {
    // Every prompt of this version, yet a window of the last 365 days holding 100 (the tracker
    // keeps so many): before the check, the prompts beyond the window were placed before this
    // version's first use and refused as impossible.
    let result = WitnessHistory.build(
      facts: [
        AssignedFact("prompts", .int(.max)), AssignedFact("total_prompts", .int(.max)),
        AssignedFact("prompts_within(365d)", family: "prompts_within", key: .duration(day(365)), .int(100)),
        AssignedFact("first_use", before(day(42))), AssignedFact("install_date", before(day(42))),
        AssignedFact("last_prompt", before(day(42))),
      ], now: march)
    guard case .failure(let refusal) = result else {
      Issue.record("built \(result)")
      return
    }
    #expect(refusal.exceedsLimits, "\(refusal.reason)")
    #expect(refusal.reason.contains("300000"), "\(refusal.reason)")
  }

  @Test(
    "an event name longer than the tracker keeps is written as the tracker counts it, cut; a name no step can write is refused as a limit"
  )
  func longAndUnwritableEventNames() throws {
    // The analyzer campaign's finding: `events("<137 bytes>")` = 8 was refused as impossible,
    // though the tracker counts any name under its first 128 bytes and `events` reads that count.
    let long = String(repeating: "e", count: 100) + " and " + String(repeating: "f", count: 40)
    let text = "ask when events(\"\(long)\") >= 3\n"
    let standard = PolicyEnvironment.standard
    let policy = try #require(standard.compile(text).policy)
    let facts = [member("events", .string(long), .int(3)), AssignedFact("events", .int(3))]
    let history = try WitnessHistory.build(facts: facts, now: march).get()
    let replayed = try history.replay(policy: policy, policyText: text, environment: standard).get()
    #expect(replayed.value(of: "events(\"\(long)\")") == .int(3))
    #expect(policy.decide(replayed).shouldAsk)
    // An app can record a name with quotes; a test-file step cannot write it: the replay's limit.
    let quoted = WitnessHistory.build(facts: [member("events", .string("say \"hi\""), .int(1))], now: march)
    guard case .failure(let refusal) = quoted else {
      Issue.record("built \(quoted)")
      return
    }
    #expect(refusal.exceedsLimits, "\(refusal.reason)")
    #expect(refusal.reason.contains("cannot be written in a history step"), "\(refusal.reason)")
  }

  @Test(
    "an earlier version's answer or prompt after this version's first use with no earlier prompt, or sessions against the order of their instants: a device clock set back, refused as a limit"
  )
  func clockSetBack() {
    let decline = WitnessHistory.build(
      facts: [
        AssignedFact("declined", .bool(false)), AssignedFact("declined_any", .bool(true)),
        AssignedFact("last_decline", before(day(1))), AssignedFact("first_use", before(day(14))),
        AssignedFact("total_prompts", .int(0)),
      ], now: march)
    let prompt = WitnessHistory.build(
      facts: [
        AssignedFact("prompts", .int(0)), AssignedFact("total_prompts", .int(1)),
        AssignedFact("last_prompt", before(day(1))), AssignedFact("first_use", before(day(14))),
      ], now: march)
    // Every session after a bad session 1 day ago, yet the first session 5 days ago.
    let sessions = WitnessHistory.build(
      facts: [
        AssignedFact("total_sessions", .int(3)), AssignedFact("first_session", before(day(5))),
        AssignedFact("last_bad_session", before(day(1))), AssignedFact("sessions_since_bad", .int(3)),
      ], now: march)
    // Every session after a prompt 1 day ago, yet the first session 5 days ago (found by the
    // strict analyzer campaign: `Fuzz/regressions/analyzer/diff-counterexample-sessions-since-prompt-before-first-session.policy`).
    let promptedFirst = WitnessHistory.build(
      facts: [
        AssignedFact("total_sessions", .int(5)), AssignedFact("first_session", before(day(5))),
        AssignedFact("last_prompt", before(day(1))), AssignedFact("sessions_since_prompt", .int(5)),
      ], now: march)
    for result in [decline, prompt, sessions, promptedFirst] {
      guard case .failure(let refusal) = result else {
        Issue.record("built \(result)")
        continue
      }
      #expect(refusal.exceedsLimits, "\(refusal.reason)")
      #expect(refusal.reason.contains("device clock set back"), "\(refusal.reason)")
    }
    if case .failure(let refusal) = decline { #expect(refusal.facts.contains("first_use")) }
    if case .failure(let refusal) = sessions { #expect(refusal.facts.contains("sessions_since_bad")) }
    if case .failure(let refusal) = promptedFirst {
      #expect(refusal.facts == ["first_session", "sessions_since_prompt"], "\(refusal.facts)")
    }
    // No session since a prompt 6 weeks ago, yet 3 since the first one 5 days ago: no tracker
    // history gives it, even with the clock set back, so it is no limit.
    let unreal = WitnessHistory.build(
      facts: [
        AssignedFact("total_sessions", .int(3)), AssignedFact("first_session", before(day(5))),
        AssignedFact("last_prompt", before(day(42))), AssignedFact("sessions_since_prompt", .int(0)),
      ], now: march)
    guard case .failure(let refusal) = unreal else {
      Issue.record("built \(unreal)")
      return
    }
    #expect(!refusal.exceedsLimits, "\(refusal.reason)")
  }

  @Test(
    "a prompt shown before any session, then the clock set back: every session follows the prompt, yet the first one is before it"
  )
  func promptBeforeEverySessionWithClockSetBack() throws {
    // What the refusal above calls a limit, a real tracker gives: the jump back moves the first
    // session earlier by the jump, and leaves a prompt that is not in the future where it was.
    let policy = try #require(compiled)
    var tracker = ReviewTracker(policy: policy, appVersion: "1.0")
    let start = march.millisecondsSince1970 - 10 * 86_400_000
    let at = { (hours: Int64) in Timestamp(millisecondsSince1970: start + hours * 3_600_000) }
    tracker.recordShownPrompt(at: at(0))
    tracker.startSession(at: at(1))
    tracker.startSession(at: at(72))
    // The clock is set back 2 days, to 1 day after the prompt.
    let now = at(24)
    tracker.startSession(at: now)
    let facts = try tracker.facts(at: now).get()
    #expect(facts.value(of: "total_sessions") == .int(3))
    #expect(facts.value(of: "sessions_since_prompt") == .int(3))
    #expect(facts.value(of: "last_prompt") == .instant(at(0)))
    #expect(facts.value(of: "first_session") == .instant(at(1 - 48)))
    let built = WitnessHistory.build(facts: assignment(facts, policy: policy), now: now)
    guard case .failure(let refusal) = built else {
      Issue.record("built \(built)")
      return
    }
    #expect(refusal.exceedsLimits, "\(refusal.reason)")
  }

  @Test(
    "no average with a session of an earlier version: the update ended that session, so no history gives it, and the refusal says why"
  )
  func noAverageAfterEarlierSession() throws {
    // The witness the strict analyzer campaign found (`Fuzz/regressions/analyzer/asks-too-often-average-score-after-one-session.policy`):
    // before the fix, the history ended the session at the update and replayed to an average of 0.
    let facts = [
      AssignedFact("total_sessions", .int(1)), AssignedFact("first_session", before(day(1))),
      AssignedFact("first_use", before(day(0))),
      AssignedFact("previous_version", .version(try #require(Version(parsing: "1.0")))),
      AssignedFact("version", .version(try #require(Version(parsing: "1.0.0.1")))),
      member("average_score", .int(3), nil),
    ]
    let built = WitnessHistory.build(facts: facts, now: march)
    guard case .failure(let refusal) = built else {
      Issue.record("built \(built)")
      return
    }
    #expect(!refusal.exceedsLimits, "\(refusal.reason)")
    #expect(refusal.facts.contains("average_score(3)"), "\(refusal.facts)")
    #expect(refusal.reason.contains("finished when the version changed"), "\(refusal.reason)")
    // The analyzer's relations rule the facts out, so no witness has them.
    #expect(
      ReviewSchema.standard.brokenRelations(in: facts + [AssignedFact("sessions", .int(0))], now: march).contains {
        $0.facts == ["total_sessions", "sessions"]
      })
  }

  @Test("events by name, sessions, bad sessions, scores and averages")
  func sessionsAndEvents() throws {
    let facts = [
      member("events", .string("a"), .int(3)), member("total_events", .string("a"), .int(5)),
      member("events", .string("b b"), .int(1)), AssignedFact("events", .int(6)),
      AssignedFact("sessions", .int(3)), AssignedFact("total_sessions", .int(5)),
      AssignedFact("first_session", before(day(40))), AssignedFact("last_bad_session", before(day(1))),
      AssignedFact("sessions_since_bad", .int(1)), AssignedFact("session_score", .number(Number(scaled: 12_500_000))),
      AssignedFact("session_bad", .bool(true)), member("average_score", .int(1), .number(Number(scaled: 150_000_000))),
      member("average_score", .int(3), .number(Number(scaled: -7_333_333))), AssignedFact("days", .int(20)),
    ]
    let (_, values) = try replayedValues(facts)
    for fact in facts { #expect(values[fact.name] == fact.value, "\(fact.name)") }
  }

  @Test("three versions: the last prompt in a version before the previous one")
  func threeVersions() throws {
    let facts = [
      AssignedFact("version", .version(try #require(Version(parsing: "3.0")))),
      AssignedFact("previous_version", .version(try #require(Version(parsing: "2.0")))),
      AssignedFact("last_prompt_version", .version(try #require(Version(parsing: "1.0")))),
      AssignedFact("prompts", .int(0)), AssignedFact("last_prompt", before(day(90))), AssignedFact("days", .int(5)),
    ]
    let (history, values) = try replayedValues(facts)
    for fact in facts { #expect(values[fact.name] == fact.value, "\(fact.name)") }
    #expect(history.version == "1.0")
  }

  @Test("refusals name the facts and the reason, and huge counts are refused before any step is made")
  func refusals() {
    func refusal(_ facts: [AssignedFact]) -> WitnessHistoryRefusal? {
      if case .failure(let refusal) = WitnessHistory.build(facts: facts, now: march) { return refusal }
      return nil
    }
    let huge = refusal([AssignedFact("uses", .int(9_000_000_000_000_000_000))])
    #expect(huge?.facts == ["uses"])
    #expect(huge?.reason.contains("at most 100000") == true)
    let days = refusal([AssignedFact("days", .int(30)), AssignedFact("total_days", .int(10))])
    #expect(days?.facts == ["days", "total_days"])
    let rated = refusal([AssignedFact("rated", .bool(true)), AssignedFact("rated_any", .bool(false))])
    #expect(rated?.facts == ["rated", "rated_any"])
    let oneVersion = refusal([
      AssignedFact("previous_version", nil), AssignedFact("uses", .int(3)), AssignedFact("total_uses", .int(5)),
    ])
    #expect(oneVersion?.facts == ["uses", "total_uses", "previous_version"])
    let lastPrompt = refusal([AssignedFact("total_prompts", .int(0)), AssignedFact("last_prompt", before(day(1)))])
    #expect(lastPrompt?.facts == ["last_prompt", "total_prompts"])
    let future = refusal([
      AssignedFact("last_rating", .instant(Timestamp(millisecondsSince1970: march.millisecondsSince1970 + 1)))
    ])
    #expect(future?.facts == ["last_rating"])
    let average = refusal([member("average_score", .int(2), .number(Number(scaled: 300_000_000)))])
    #expect(average?.facts == ["average_score(2)"])
    let unknown = refusal([AssignedFact("plan", .string("pro"))])
    #expect(unknown?.facts == ["plan"])
    let tooMany = refusal([
      AssignedFact("uses", .int(100_000)), AssignedFact("events", .int(100_000)),
      AssignedFact("sessions", .int(100_000)),
      AssignedFact("total_prompts", .int(100_000)),
    ])
    #expect(tooMany?.reason.contains("300000") == true)
  }

  @Test("a witness becomes a test case that policyc test runs and passes, its app facts given")
  func renderedTestCase() throws {
    let text = """
      fact plan: string
      ask loyal when plan == "pro" and days >= 30 and total_days >= 45 and prompts_within(365d) < 3
      never too_soon when has last_prompt and since(last_prompt) < 2w
      """
    let policy = try #require(environment.compile(text).policy)
    func witness(lastPrompt: TimeSpan) throws -> Witness {
      Witness(
        now: march,
        facts: [
          Witness.Fact(name: "plan", value: .string("pro"), isConstrained: true, isDeclared: true),
          Witness.Fact(name: "days", value: .int(30), isConstrained: true),
          Witness.Fact(name: "total_days", value: .int(45), isConstrained: true),
          Witness.Fact(
            name: "prompts_within(365d)", value: .int(2), isConstrained: true, family: "prompts_within",
            key: .duration(day(365))),
          Witness.Fact(name: "last_prompt", value: before(lastPrompt), isConstrained: true),
        ])
    }
    let asks = try WitnessHistory.replayed(
      for: try witness(lastPrompt: day(21)), policy: policy, policyText: text, environment: environment
    ).get()
    let blocked = try WitnessHistory.replayed(
      for: try witness(lastPrompt: day(3)), policy: policy, policyText: text, environment: environment
    ).get()
    #expect(asks.appFacts == [WitnessHistory.AppFact(name: "plan", value: .string("pro"))])
    let file = WitnessHistory.testFile(
      policy: "witness.policy",
      cases: [
        asks.testCase(name: "the loyal rule can ask", expectsAsk: true, deciding: ["loyal"]),
        blocked.testCase(name: "too soon after a prompt", expectsAsk: false, deciding: ["too_soon"]),
      ])
    let report = try PolicyTestSuite.run(
      SourceFile(path: "witness.test.json", text: file), at: "witness.test.json",
      environment: { _ in .success(environment) }, readFile: { _ in Array(text.utf8) }
    ).get()
    #expect(report.results.map(\.passed) == [true, true], "\(report.results.map(\.line))\n\(file)")
  }
}

@Suite("History steps for replays")
struct ReplayStepTests {
  @Test("`shown`, `unprompted -> <answer>` and `silent event` parse; `unprompted` needs one answer")
  func parse() {
    let range = SourceRange(start: 0, end: 0)
    func action(_ text: String) -> HistoryStep.Action? { try? HistoryStep.parse(text, range: range).get().action }
    guard case .shown? = action("shown -> decline") else { Issue.record("shown"); return }
    guard case .unprompted? = action("unprompted -> rate") else { Issue.record("unprompted"); return }
    guard case .late? = action("late -> decline") else { Issue.record("late"); return }
    #expect(action("late") == nil)
    #expect(action("late x 2 -> rate") == nil)
    guard case .silentEvent("b b")? = action("silent event \"b b\" x 3") else { Issue.record("silent"); return }
    guard case .silentEvent(nil)? = action("silent event") else { Issue.record("silent unnamed"); return }
    for wrong in ["unprompted", "unprompted x 2 -> rate", "shown now"] {
      guard case .failure(let problems) = HistoryStep.parse(wrong, range: range) else {
        Issue.record("`\(wrong)` parsed")
        continue
      }
      #expect(problems.diagnostics.map(\.code.rawValue) == ["PC406"], "\(wrong)")
    }
  }

  @Test("`shown -> decline` records a prompt whatever the policy says; `silent event` never lets it ask")
  func replay() throws {
    let text = "ask always when uses >= 0\nnever answered when declined_any"
    let policy = try #require(environment.compile(text).policy)
    let history = WitnessHistory(
      start: march, version: "1.0",
      steps: ["launch", "silent event a x 3", "shown -> decline", "unprompted -> feedback"],
      now: march)
    let facts = try history.replay(policy: policy, policyText: text, environment: environment).get()
    #expect(facts.value(of: "prompts") == .int(1))
    #expect(facts.value(of: "declined") == .bool(true))
    #expect(facts.value(of: "feedback") == .bool(true))
    #expect(facts.value(of: "events") == .int(3))
    #expect(history.promptsShown == 1)
  }

  @Test(
    "`late -> rate` answers the newest prompt without an answer, for the version it was shown in; with none, PC406"
  )
  func lateAnswer() throws {
    let text = "ask always when uses >= 0"
    let policy = try #require(environment.compile(text).policy)
    let steps = ["launch", "shown -> unknown", "wait 1d", "update 2.0", "wait 1d", "late -> rate"]
    let late = WitnessHistory(start: march, version: "1.0", steps: steps, now: march)
    let facts = try late.replay(policy: policy, policyText: text, environment: environment).get()
    #expect(facts.value(of: "rated") == .bool(false))
    #expect(facts.value(of: "rated_any") == .bool(true))
    #expect(
      facts.value(of: "last_rating")
        == .instant(Timestamp(millisecondsSince1970: march.millisecondsSince1970 + 2 * 86_400_000)))
    // The same answer in the prompt's own version is this version's.
    let here = WitnessHistory(
      start: march, version: "1.0", steps: ["shown -> unknown", "wait 1h", "late -> rate"], now: march)
    #expect(
      try here.replay(policy: policy, policyText: text, environment: environment).get().value(of: "rated")
        == .bool(true))
    // A second late answer has no prompt left without one.
    for steps in [["launch", "late -> decline"], ["shown -> unknown", "late -> rate", "late -> decline"]] {
      let history = WitnessHistory(start: march, version: "1.0", steps: steps, now: march)
      guard case .failure(let refusal) = history.replay(policy: policy, policyText: text, environment: environment)
      else {
        Issue.record("\(steps) replayed")
        continue
      }
      #expect(refusal.reason.contains("answers a prompt late"), "\(refusal.reason)")
    }
  }
}
