import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

private let hour: Int64 = 3_600_000
private let day: Int64 = 86_400_000

/// The standard facts a manager derives from a hand-built ``ReviewState`` at a fixed `now`,
/// read through `explainCurrentDecision()` of one-condition policies (`ask when <condition>`).
@Suite("runtime: fact derivation")
struct RuntimeFactTests {
  typealias F = RuntimeFixtures
  static let now = RuntimeFixtures.start

  /// A state with every fact set to a distinct value.
  static var richState: ReviewState {
    var state = ReviewState()
    state.version = "1.2.3-beta"
    state.firstUse = F.at(-(3 * day + 5 * hour))
    state.uses = 7
    state.events = 4
    state.eventsByName = ["export": 3, "share": 1]
    state.sessions = 3
    state.prompts = 1
    state.declined = false
    state.rated = true
    state.feedback = true
    state.lastReminder = F.at(-2 * hour)
    state.installDate = F.at(-(10 * day + 1000))
    state.previousVersion = "2.0 (45)"
    state.totalUses = 70
    state.totalEvents = 40
    state.totalEventsByName = ["export": 30, "share": 5, "old": 2]
    state.totalSessions = 30
    state.totalPrompts = 5
    state.declinedAny = true
    state.ratedAny = true
    state.lastDecline = F.at(-3 * day)
    state.lastRating = F.at(-day)
    state.currentSession = SessionRecord(
      number: 30, start: F.at(-hour), version: "1.2.3-beta", score: F.number("12.5"), isBad: true)
    state.recentSessions = [
      SessionRecord(number: 26, start: F.at(-5 * day), version: "1.2.3-beta", score: F.number("10")),
      SessionRecord(number: 27, start: F.at(-2 * day), version: "1.2.3-beta", score: F.number("20"), isBad: true),
      SessionRecord(number: 28, start: F.at(-day - hour), version: "1.2.3-beta", score: F.number("25")),
      SessionRecord(number: 29, start: F.at(-3 * hour), version: "1.2.3-beta", score: F.number("-5")),
    ]
    state.lastBadSession = state.recentSessions[1]
    state.promptHistory = [
      PromptRecord(date: F.at(-100 * day), version: "0.9", session: 5, outcome: .declined),
      PromptRecord(date: F.at(-8 * day), version: "1.1", session: 27, outcome: .rated),
      PromptRecord(date: F.at(-day), version: "1.2.0 (7)", session: 28, outcome: .pending),
    ]
    return state
  }

  // MARK: - Counts and flags

  @Test("per-version and lifetime counts, flags and days of a rich state")
  func countsAndFlags() {
    expectRuntimeFacts(
      [
        "days == 3", "total_days == 10",
        "uses == 7", "events == 4", "sessions == 3", "prompts == 1",
        "total_uses == 70", "total_events == 40", "total_sessions == 30", "total_prompts == 5",
        "not declined", "rated", "feedback", "declined_any", "rated_any",
      ], Self.richState, now: Self.now)
  }

  @Test("instants: first_use, install_date, last_reminder, last_decline, last_rating, last_prompt, last_bad_session")
  func instants() {
    expectRuntimeFacts(
      [
        "since(first_use) == 3d + 5h", "now - first_use == 77h",
        "since(install_date) == 10d + 1s",
        "since(last_reminder) == 2h", "has last_reminder",
        "since(last_decline) == 3d", "since(last_rating) == 1d",
        "since(last_prompt) == 1d", "has last_prompt",
        "since(last_bad_session) == 2d",
      ], Self.richState, now: Self.now)
  }

  @Test("versions: version and previous_version parsed leniently, last_prompt_version from the last prompt")
  func versions() {
    expectRuntimeFacts(
      [
        "version == v1.2.3", "version == 1.2.3", "version > v1.2",
        "has previous_version and previous_version == v2.0",
        "has last_prompt_version and last_prompt_version == 1.2.0",
      ], Self.richState, now: Self.now)
  }

  @Test("sessions: score and bad flag of the current session, counts since the last prompt and the last bad session")
  func sessionFacts() {
    expectRuntimeFacts(
      [
        "session_score == 12.5", "session_bad",
        "(sessions_since_prompt ?? -1) == 2",
        "(sessions_since_bad ?? -1) == 3",
      ], Self.richState, now: Self.now)
  }

  @Test("keyed facts: events(name), total_events(name) per version and lifetime")
  func eventsByName() {
    expectRuntimeFacts(
      [
        "events(\"export\") == 3", "events(\"share\") == 1", "events(\"old\") == 0", "events(\"never\") == 0",
        "total_events(\"export\") == 30", "total_events(\"share\") == 5", "total_events(\"old\") == 2",
        "total_events(\"never\") == 0",
      ], Self.richState, now: Self.now)
  }

  @Test("average_score(n): previous sessions only, up to n, exact decimal (truncated to 6 digits)")
  func averageScore() {
    expectRuntimeFacts(
      [
        // the current session (12.5) is not included
        "(average_score(1) ?? 0.0) == -5.0",
        "(average_score(2) ?? 0.0) == 10.0",
        "(average_score(3) ?? 0.0) == 13.333333",
        "(average_score(4) ?? 0.0) == 12.5",
        "(average_score(50) ?? 0.0) == 12.5",
      ], Self.richState, now: Self.now)
  }

  @Test("average_score(n) is absent without previous sessions, even with a scored current session")
  func averageScoreAbsent() {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(-day)
    state.totalSessions = 1
    state.sessions = 1
    state.currentSession = SessionRecord(number: 1, start: F.at(-hour), version: "1.0", score: F.number("80"))
    expectRuntimeFacts(
      ["(average_score(1) ?? -1.0) == -1.0", "(average_score(5) ?? -1.0) == -1.0", "session_score == 80.0"],
      state, now: Self.now)
  }

  @Test("average_score of thirds is exact: 1, 1, 2 averages 1.333333 and 0.1 + 0.2 averages 0.15")
  func averageScoreDecimals() {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(-day)
    state.recentSessions = [
      SessionRecord(number: 1, start: F.at(-3 * hour), version: "1.0", score: F.number("1")),
      SessionRecord(number: 2, start: F.at(-2 * hour), version: "1.0", score: F.number("1")),
      SessionRecord(number: 3, start: F.at(-hour), version: "1.0", score: F.number("2")),
    ]
    state.totalSessions = 3
    expectRuntimeFact("(average_score(3) ?? 0.0) == 1.333333", state, now: Self.now)
    state.recentSessions[1].score = F.number("0.1")
    state.recentSessions[2].score = F.number("0.2")
    expectRuntimeFact("(average_score(2) ?? 0.0) == 0.15", state, now: Self.now)
  }

  @Test("prompts_within(d) counts prompts strictly after now - d, all versions")
  func promptsWithin() {
    expectRuntimeFacts(
      [
        "prompts_within(1h) == 0", "prompts_within(7d) == 1",
        // the prompt exactly 8 days ago is not after now - 8d
        "prompts_within(8d) == 1", "prompts_within(9d) == 2",
        "prompts_within(100d) == 2", "prompts_within(101d) == 3", "prompts_within(1000w) == 3",
      ], Self.richState, now: Self.now)
  }

  // MARK: - Days

  static let wholeDayCases: [(elapsed: Int64, days: Int64)] = [
    (0, 0), (1, 0), (86_399_999, 0), (86_400_000, 1), (3 * 86_400_000 - 1, 2), (3 * 86_400_000, 3),
    (400 * 86_400_000 + 5, 400),
  ]

  @Test(
    "days and total_days are whole days rounded down",
    arguments: RuntimeFactTests.wholeDayCases)
  func wholeDays(elapsed: Int64, expected: Int64) {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(-elapsed)
    state.installDate = F.at(-elapsed)
    expectRuntimeFacts(["days == \(expected)", "total_days == \(expected)"], state, now: Self.now)
  }

  @Test("days and total_days are 0 when the clock went backwards")
  func clockWentBackwards() {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(5 * day)
    state.installDate = F.at(40 * day)
    expectRuntimeFacts(["days == 0", "total_days == 0"], state, now: Self.now)
  }

  @Test("days from extreme stored instants do not trap")
  func extremeInstants() {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = Timestamp(millisecondsSince1970: .min)
    state.installDate = Timestamp(millisecondsSince1970: .max)
    expectRuntimeFacts(["days == \(Int64.max / 86_400_000)", "total_days == 0"], state, now: Self.now)
  }

  @Test("total_days counts from first_use when a stored state has no install date (total_days >= days)")
  func installDateFallsBackToFirstUse() {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(-6 * day)
    expectRuntimeFacts(["days == 6", "total_days == 6", "since(install_date) == 6d"], state, now: Self.now)
  }

  // MARK: - A fresh install

  @Test("a fresh state: zero counts, first use and install date now, every optional fact absent")
  func freshState() {
    let state = ReviewState()
    expectRuntimeFacts(
      [
        "days == 0", "total_days == 0", "uses == 0", "events == 0", "sessions == 0", "prompts == 0",
        "total_uses == 0", "total_events == 0", "total_sessions == 0", "total_prompts == 0",
        "not declined", "not rated", "not feedback", "not declined_any", "not rated_any",
        "first_use == now", "install_date == now", "since(first_use) == 0s",
        "version == v2.0",
        "not has previous_version", "not has last_prompt", "not has last_prompt_version",
        "not has sessions_since_prompt", "not has last_reminder", "not has last_decline", "not has last_rating",
        "not has last_bad_session", "not has sessions_since_bad",
        // the time since something that never happened is infinite
        "since(last_prompt) >= 10000w", "since(last_reminder) >= 10000w",
        "session_score == 0.0", "not session_bad",
        "events(\"x\") == 0", "total_events(\"x\") == 0", "(average_score(3) ?? -1.0) == -1.0",
        "prompts_within(365d) == 0",
      ], state, now: Self.now, appVersion: "2.0 (45)")
  }

  // MARK: - Versions

  @Test(
    "the app version is parsed leniently",
    arguments: [
      ("1.2.3-beta", "v1.2.3"), ("2.0 (45)", "v2.0"), ("v3.1", "v3.1"), ("10", "v10.0"), ("1.2.3.4.5", "v1.2.3.4"),
      ("5.0b2", "v5.0"), ("7.", "v7.0"), ("2.1", "v2.1.0"),
    ])
  func lenientVersion(text: String, literal: String) {
    expectRuntimeFact("version == \(literal)", ReviewState(), now: Self.now, appVersion: text)
  }

  @Test("an app version that does not start with a number gives no facts: don't ask, and the reason")
  func unparsableVersion() throws {
    let explanation = try F.explain("uses >= 0", state: ReviewState(), now: Self.now, appVersion: "abc")
    #expect(explanation.decision == nil)
    #expect(explanation.summary == "don't ask: the app version `abc` does not start with a number")
    #expect(explanation.text == "decision: don't ask: the app version `abc` does not start with a number\n")
  }

  @Test("an unparsable previous or prompt version is absent, not an error")
  func unparsableOptionalVersions() {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(-day)
    state.previousVersion = "beta"
    state.totalSessions = 4
    state.promptHistory = [PromptRecord(date: F.at(-hour), version: "nightly", session: 4, outcome: .pending)]
    expectRuntimeFacts(
      [
        "not has previous_version", "not has last_prompt_version", "has last_prompt",
        "(sessions_since_prompt ?? -1) == 0",
      ], state, now: Self.now)
  }

  // MARK: - App facts

  @Test("app facts declared by the policy are bound from setFact; standard names cannot be overridden")
  func appFacts() throws {
    var state = ReviewState()
    state.version = "1.0"
    state.uses = 3
    state.firstUse = F.at(-day)
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0",
        bundledPolicy: "fact plan: string\nfact seats: int\nask when plan == \"pro\" and seats == 4 and uses == 3",
        store: InMemoryReviewStore(state), clock: { Self.now }, texts: .english))
    manager.setFact("plan", .string("pro"))
    manager.setFact("seats", .int(4))
    manager.setFact("uses", .int(99))
    let explanation = manager.explainCurrentDecision()
    #expect(explanation.decision?.shouldAsk == true, "\(explanation.text)")
    manager.setFact("seats", nil)
    let missing = manager.explainCurrentDecision()
    #expect(missing.decision?.shouldAsk == false)
    #expect(missing.decision?.reason == .invalidFacts)
    #expect(missing.text.contains("missing facts: `seats` (set them with `setFact`)"), "\(missing.text)")
  }

  @Test("an app fact of the wrong type is missing; an optional app fact never set is absent")
  func appFactTypesAndOptionals() throws {
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0",
        bundledPolicy: "fact plan: string\nfact trial_end: instant?\nask when plan == \"pro\" and not has trial_end",
        store: InMemoryReviewStore(), clock: { Self.now }, texts: .english))
    manager.setFact("plan", .int(3))
    let wrongType = manager.explainCurrentDecision()
    #expect(wrongType.decision?.reason == .invalidFacts)
    #expect(wrongType.text.contains("missing facts: `plan`"), "\(wrongType.text)")
    manager.setFact("plan", .string("pro"))
    #expect(manager.explainCurrentDecision().decision?.shouldAsk == true)
    manager.setFact("trial_end", .instant(F.at(day)))
    #expect(manager.explainCurrentDecision().decision?.shouldAsk == false)
    manager.setFact("trial_end", nil)
    #expect(manager.explainCurrentDecision().decision?.shouldAsk == true)
  }
}
