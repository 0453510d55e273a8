import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

private let hour: Int64 = 3_600_000
private let day: Int64 = 86_400_000

/// What the manager counts: uses, versions, sessions and scores, events, bounded histories, hostile states.
@Suite("runtime: tracking")
struct RuntimeTrackingTests {
  typealias F = RuntimeFixtures
  /// A policy that never asks (so tracking tests record no prompts).
  static let quietPolicy = "ask when uses < 0"

  // MARK: - Versions

  @Test("a new app version resets per-version facts, keeps lifetime facts and remembers the previous version")
  func newVersion() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let first = try F.manager(policy: F.alwaysPolicy, appVersion: "1.0", store: store, clock: clock)
    for _ in 0..<3 { first.appLaunched() }
    first.appEnteredForeground()
    first.significantEvent("export", mayPrompt: false)
    first.significantEvent("export", mayPrompt: false)
    first.significantEvent(mayPrompt: false)
    first.sessionStarted()
    first.sessionStarted()
    first.action(score: 10, mayPrompt: false)
    #expect(first.promptIfAppropriate())
    clock.advance(seconds: 60)
    first.record(.declined)
    first.recordWithoutPrompt(.rated)
    first.recordWithoutPrompt(.feedback)
    first.recordWithoutPrompt(.remindLater)
    let answered = F.date(60_000)

    clock.advance(days: 2)
    let second = try F.manager(policy: F.alwaysPolicy, appVersion: "2.0", store: store, clock: clock)
    // Before anything is counted, the decision already sees the new version.
    let before = second.explainCurrentDecision()
    #expect(before.decision?.shouldAsk == true)
    expectRuntimeFacts(
      [
        "uses == 0", "events == 0", "sessions == 0", "prompts == 0", "not declined", "not rated", "not feedback",
        "not has last_reminder", "days == 0", "total_days == 2", "version == v2.0",
        "has previous_version and previous_version == v1.0",
        "total_uses == 4", "total_events == 3", "total_sessions == 2", "total_prompts == 1",
        "declined_any", "rated_any", "has last_decline", "has last_rating", "has last_prompt",
        "events(\"export\") == 0", "total_events(\"export\") == 2",
      ], second.currentState, now: clock.now, appVersion: "2.0")

    second.appLaunched()
    let state = second.currentState
    #expect(state.version == "2.0")
    #expect(state.previousVersion == "1.0")
    #expect(state.firstUse == Timestamp(clock.now))
    #expect(state.installDate == F.at(0))
    #expect((state.uses, state.totalUses) == (1, 5))
    #expect((state.events, state.totalEvents) == (0, 3))
    #expect(state.eventsByName == [:])
    #expect(state.totalEventsByName == ["export": 2])
    #expect((state.sessions, state.totalSessions) == (0, 2))
    #expect((state.prompts, state.totalPrompts) == (0, 1))
    #expect((state.declined, state.rated, state.feedback) == (false, false, false))
    #expect((state.declinedAny, state.ratedAny) == (true, true))
    #expect(state.lastReminder == nil)
    #expect(state.lastDecline == Timestamp(answered))
    #expect(state.lastRating == Timestamp(answered))
    // The session in progress was ended by the version change.
    #expect(state.currentSession == nil)
    #expect(state.recentSessions.map(\.number) == [1, 2])
    #expect(state.recentSessions.last?.score == F.number("10"))
    #expect(state.promptHistory.count == 1)
    #expect(store.storedState == state)
  }

  @Test("going back to an earlier version is a version change too")
  func versionChangeBack() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    try F.manager(policy: Self.quietPolicy, appVersion: "1.0", store: store, clock: clock).appLaunched()
    try F.manager(policy: Self.quietPolicy, appVersion: "2.0", store: store, clock: clock).appLaunched()
    let back = try F.manager(policy: Self.quietPolicy, appVersion: "1.0", store: store, clock: clock)
    back.appLaunched()
    back.appLaunched()
    let state = back.currentState
    #expect((state.version, state.previousVersion) == ("1.0", "2.0"))
    #expect((state.uses, state.totalUses) == (2, 4))
  }

  // MARK: - Uses

  @Test("launches and foregrounds count as uses; the veto hook skips them and sees which kind")
  func useVeto() throws {
    final class Kinds: @unchecked Sendable {
      let lock = NSLock()
      var seen: [ReviewManager.UseKind] = []
    }
    let kinds = Kinds()
    let manager = try F.manager(
      policy: Self.quietPolicy,
      shouldCountUse: { kind in
        kinds.lock.lock()
        kinds.seen.append(kind)
        kinds.lock.unlock()
        return kind == .foreground
      })
    for _ in 0..<3 { manager.appLaunched() }
    manager.appEnteredForeground()
    manager.appEnteredForeground()
    let state = manager.currentState
    #expect((state.uses, state.totalUses) == (2, 2))
    #expect(kinds.seen == [.launch, .launch, .launch, .foreground, .foreground])
    // A vetoed launch still starts tracking the version.
    let vetoed = try F.manager(policy: Self.quietPolicy, appVersion: "4.2", shouldCountUse: { _ in false })
    vetoed.appLaunched()
    #expect(vetoed.currentState.version == "4.2")
    #expect(vetoed.currentState.firstUse == F.at(0))
    #expect(vetoed.currentState.uses == 0)
  }

  // MARK: - Sessions and scores

  @Test("sessions: start, actions add up, end joins the history, starting again ends the one in progress")
  func sessions() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: Self.quietPolicy, clock: clock)
    manager.sessionStarted()
    manager.action(score: 30, mayPrompt: false)
    manager.action(score: 20.25, mayPrompt: false)
    expectRuntimeFacts(
      ["sessions == 1", "total_sessions == 1", "session_score == 50.25", "(average_score(1) ?? -1.0) == -1.0"],
      manager.currentState, now: clock.now)
    clock.advance(seconds: 10)
    manager.sessionEnded()
    manager.sessionEnded()  // nothing in progress: no effect
    var state = manager.currentState
    #expect(state.currentSession == nil)
    #expect(
      state.recentSessions == [SessionRecord(number: 1, start: F.at(0), version: "1.0", score: F.number("50.25"))])
    expectRuntimeFacts(["session_score == 0.0", "(average_score(1) ?? -1.0) == 50.25"], state, now: clock.now)

    manager.sessionStarted()
    clock.advance(seconds: 10)
    manager.sessionStarted()
    state = manager.currentState
    #expect((state.sessions, state.totalSessions) == (3, 3))
    #expect(state.recentSessions.map(\.number) == [1, 2])
    #expect(state.currentSession == SessionRecord(number: 3, start: F.at(20_000), version: "1.0"))
    expectRuntimeFacts(["(average_score(2) ?? -1.0) == 25.125"], state, now: clock.now)
  }

  @Test("an action before any session starts the uncounted default session, as ReviewKit's")
  func actionStartsSession() throws {
    let manager = try F.manager(policy: Self.quietPolicy)
    manager.action(score: 5, mayPrompt: false)
    let state = manager.currentState
    #expect((state.sessions, state.totalSessions) == (0, 0))
    #expect(state.firstSession == nil)
    #expect(state.currentSession == SessionRecord(number: 0, start: F.at(0), version: "1.0", score: F.number("5")))
  }

  @Test("a state stored before first_session decodes unchanged; first_session reads session 1, else the install date")
  func firstSessionOfOlderStates() throws {
    var state = ReviewState()
    state.enter(version: "1.0", at: F.at(0))
    state.startSession(at: F.at(5000))
    #expect(state.firstSession == F.at(5000))
    state.startSession(at: F.at(9000))
    #expect(state.firstSession == F.at(5000))
    state.firstSession = nil  // as stored before the field existed
    let json = ReviewStateJSON.encode(state)
    #expect(!String(decoding: json, as: UTF8.self).contains("firstSession"))
    guard case .success(let loaded) = ReviewStateCoding.decode(Data(json)) else {
      Issue.record("the state did not decode")
      return
    }
    #expect(loaded == state)
    #expect(loaded.firstSessionStart == F.at(5000))
    expectRuntimeFacts(["since(first_session) == 5s"], loaded, now: F.date(10_000))
    var older = loaded
    older.recentSessions.removeAll { $0.number == 1 }  // session 1 has left the history
    #expect(older.firstSessionStart == F.at(0))
    #expect(ReviewState().firstSessionStart == nil)
  }

  @Test("an answer recorded right after an update belongs to the version the prompt was shown under")
  func answerAfterUpdate() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: "ask when uses >= 1 and not declined and not rated", clock: clock)
    manager.appLaunched()
    #expect(manager.promptIfAppropriate())  // shown under 1.0, no presenter: still on screen
    clock.advance(seconds: 5)
    manager.setAppVersion("1.1")  // the app was updated with the prompt on screen
    #expect(throws: Never.self) { try manager.record(.declined).get() }
    var state = manager.currentState
    #expect(state.version == "1.1")
    #expect(state.previousVersion == "1.0")
    #expect(!state.declined)  // 1.1 was not declined: no prompt was shown under it
    #expect(state.declinedAny)
    #expect(state.lastDecline == F.at(5000))
    #expect(state.lastPrompt?.outcome == .declined)
    #expect(state.responses.last == ResponseRecord(response: .declined, date: F.at(5000), version: "1.0"))
    expectRuntimeFacts(["not declined", "declined_any", "since(last_decline) == 0s"], state, now: clock.now)

    // The same in one version: the answer is this version's.
    manager.appLaunched()
    #expect(manager.promptIfAppropriate())
    clock.advance(seconds: 5)
    #expect(throws: Never.self) { try manager.record(.rated).get() }
    state = manager.currentState
    #expect(state.rated && state.ratedAny)
    #expect(state.responses.last == ResponseRecord(response: .rated, date: F.at(10_000), version: "1.1"))

    // A new build that starts a new version keeps the version string: the prompt's date tells.
    var tracker = ReviewTracker(policy: manager.currentPolicy, appVersion: "2.0")
    tracker.newVersionOnBuild = true
    tracker.move(to: "2.0", build: "7")
    tracker.countUse(at: F.at(20_000))
    let asked = tracker.promptIfAppropriate(at: F.at(20_000))
    #expect(asked)
    tracker.move(to: "2.0", build: "8")
    let answer = tracker.record(.remindLater, at: F.at(21_000))
    #expect(throws: Never.self) { try answer.get() }
    #expect(tracker.state.build == "8")
    #expect(tracker.state.lastReminder == nil)
    #expect(tracker.state.lastPrompt?.outcome == .remindLater)
    #expect(tracker.state.responses.last?.response == .remindLater)
  }

  @Test("a launch ends the session in progress: actions until the next session start go into a default session")
  func launchEndsSession() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: Self.quietPolicy, clock: clock)
    manager.appLaunched()
    clock.advance(seconds: 10)
    manager.sessionStarted()
    manager.action(score: 30, mayPrompt: false)
    clock.advance(seconds: 10)
    manager.appEnteredForeground()  // a foreground goes on with the session
    manager.action(score: 20, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("50"))
    clock.advance(seconds: 10)
    manager.appLaunched()
    var state = manager.currentState
    #expect(state.currentSession == nil)
    #expect(
      state.recentSessions == [SessionRecord(number: 1, start: F.at(10_000), version: "1.0", score: F.number("50"))])
    expectRuntimeFacts(["session_score == 0.0", "total_sessions == 1"], state, now: clock.now)
    clock.advance(seconds: 10)
    manager.action(score: 7, mayPrompt: false)
    state = manager.currentState
    #expect(state.currentSession == SessionRecord(number: 1, start: F.at(40_000), version: "1.0", score: F.number("7")))
    expectRuntimeFacts(
      ["session_score == 7.0", "total_sessions == 1", "sessions == 1", "since(first_session) == 30s"], state,
      now: clock.now)
    clock.advance(seconds: 10)
    manager.sessionStarted()
    state = manager.currentState
    #expect(state.recentSessions.map(\.number) == [1, 1])
    #expect(state.currentSession?.number == 2)
    expectRuntimeFacts(["(average_score(2) ?? -1.0) == 28.5", "since(first_session) == 40s"], state, now: clock.now)
  }

  @Test("scores stay within the default bounds -200...200, applied after each action")
  func defaultScoreBounds() throws {
    let manager = try F.manager(policy: Self.quietPolicy)
    manager.action(score: 150, mayPrompt: false)
    manager.action(score: 100, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("200"))
    manager.action(score: -50, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("150"))
    manager.action(score: -1000, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("-200"))
    manager.action(score: 0.5, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("-199.5"))
  }

  @Test("custom score bounds")
  func customScoreBounds() throws {
    let manager = try F.manager(policy: Self.quietPolicy, scoreBounds: 0...10)
    manager.action(score: -5, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("0"))
    manager.action(score: 25, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("10"))
    manager.action(score: -2.5, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == F.number("7.5"))
  }

  @Test("no score bounds: large totals, and infinite scores saturate instead of trapping")
  func noScoreBounds() throws {
    let manager = try F.manager(policy: Self.quietPolicy, scoreBounds: nil)
    for _ in 0..<3 { manager.action(score: 1_000_000_000_000, mayPrompt: false) }
    #expect(manager.currentState.currentSession?.score == F.number("3000000000000"))
    manager.action(score: .infinity, mayPrompt: false)
    manager.action(score: 1, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == Number(scaled: .max))
    manager.sessionStarted()
    manager.action(score: -.infinity, mayPrompt: false)
    manager.action(score: -1e300, mayPrompt: false)
    #expect(manager.currentState.currentSession?.score == Number(scaled: .min))
  }

  @Test("a NaN score adds nothing to the session")
  func nanScore() throws {
    let manager = try F.manager(policy: Self.quietPolicy, scoreBounds: nil)
    manager.action(score: 5, mayPrompt: false)
    manager.action(score: .nan, mayPrompt: false)
    #expect(manager.currentState.currentSession != nil)
    #expect(manager.currentState.currentSession?.score == F.number("5"))
  }

  @Test("a bad action marks the session bad for good; the bad session becomes last_bad_session when it ends")
  func stickyBadFlag() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: Self.quietPolicy, clock: clock)
    manager.sessionStarted()
    clock.advance(seconds: 5)
    manager.sessionStarted()
    manager.action(score: 1, isBad: true, mayPrompt: false)
    manager.action(score: 2, isBad: false, mayPrompt: false)
    expectRuntimeFacts(
      ["session_bad", "session_score == 3.0", "not has last_bad_session", "not has sessions_since_bad"],
      manager.currentState, now: clock.now)
    clock.advance(days: 1)
    manager.sessionEnded()
    expectRuntimeFacts(
      ["not session_bad", "since(last_bad_session) == 1d", "(sessions_since_bad ?? -1) == 0"],
      manager.currentState, now: clock.now)
    manager.sessionStarted()
    manager.action(score: 1, mayPrompt: false)
    manager.sessionStarted()
    expectRuntimeFacts(
      ["not session_bad", "since(last_bad_session) == 1d", "(sessions_since_bad ?? -1) == 2"],
      manager.currentState, now: clock.now)
    #expect(
      manager.currentState.lastBadSession
        == SessionRecord(number: 2, start: F.at(5000), version: "1.0", score: F.number("3"), isBad: true))
  }

  // MARK: - Events

  @Test("significant events by name: per version and lifetime; nil and empty names count in the totals only")
  func namedEvents() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: Self.quietPolicy, clock: clock)
    manager.significantEvent("export")
    manager.significantEvent("export")
    manager.significantEvent("share")
    manager.significantEvent()
    manager.significantEvent("")
    let state = manager.currentState
    #expect((state.events, state.totalEvents) == (5, 5))
    #expect(state.eventsByName == ["export": 2, "share": 1])
    #expect(state.totalEventsByName == ["export": 2, "share": 1])
    expectRuntimeFacts(
      ["events == 5", "events(\"export\") == 2", "total_events(\"share\") == 1", "events(\"\") == 0"], state,
      now: clock.now)
  }

  @Test("at most ReviewLimits.eventNames distinct names; further new names count in the totals only")
  func eventNameLimit() throws {
    let manager = try F.manager(policy: Self.quietPolicy)
    for index in 0..<ReviewLimits.eventNames { manager.significantEvent("event\(index)", mayPrompt: false) }
    manager.significantEvent("one too many", mayPrompt: false)
    manager.significantEvent("event0", mayPrompt: false)
    let state = manager.currentState
    #expect(ReviewLimits.eventNames == 200)
    #expect(state.eventsByName.count == 200)
    #expect(state.totalEventsByName.count == 200)
    #expect(state.eventsByName["one too many"] == nil)
    #expect(state.eventsByName["event0"] == 2)
    #expect(state.totalEventsByName["event199"] == 1)
    #expect((state.events, state.totalEvents) == (202, 202))
  }

  @Test("event names are cut to ReviewLimits.eventNameLength bytes at a character boundary")
  func longEventNames() throws {
    let manager = try F.manager(policy: Self.quietPolicy)
    let long = String(repeating: "a", count: 200)
    let accented = String(repeating: "é", count: 70)  // 140 bytes
    manager.significantEvent(long, mayPrompt: false)
    manager.significantEvent(String(repeating: "a", count: 129), mayPrompt: false)
    manager.significantEvent(accented, mayPrompt: false)
    let state = manager.currentState
    #expect(ReviewLimits.eventNameLength == 128)
    #expect(state.eventsByName == [String(repeating: "a", count: 128): 2, String(repeating: "é", count: 64): 1])
    // The policy's key is cut the same way.
    expectRuntimeFacts(
      ["events(\"\(long)\") == 2", "total_events(\"\(accented)\") == 1"], state, now: F.start)
  }

  // MARK: - Bounded histories

  @Test("after many sessions only the latest ReviewLimits.sessionHistory are kept, oldest first")
  func sessionHistoryBound() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: Self.quietPolicy, clock: clock)
    for index in 1...60 {
      manager.sessionStarted()
      manager.action(score: Double(index), mayPrompt: false)
      clock.advance(seconds: 60)
    }
    manager.sessionEnded()
    let state = manager.currentState
    #expect(state.recentSessions.count == ReviewLimits.sessionHistory)
    #expect(state.recentSessions.map(\.number) == Array(11...60))
    #expect((state.sessions, state.totalSessions) == (60, 60))
    // average of sessions 51...60
    expectRuntimeFacts(
      ["(average_score(10) ?? 0.0) == 55.5", "(average_score(100) ?? 0.0) == 35.5"], state, now: clock.now)
  }

  @Test("after many prompts at most ReviewLimits.promptHistory are kept; counts go on; the last prompt is kept")
  func promptHistoryBound() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(clock: clock)
    for _ in 0..<150 {
      #expect(manager.promptIfAppropriate())
      clock.advance(seconds: 3600)
    }
    let state = manager.currentState
    #expect(state.promptHistory.count == ReviewLimits.promptHistory)
    #expect((state.prompts, state.totalPrompts) == (150, 150))
    #expect(state.promptHistory.first?.date == F.at(50 * hour))
    #expect(state.promptHistory.last?.date == F.at(149 * hour))
    #expect(state.lastPrompt == state.promptHistory.last)
  }

  @Test("prompts older than ReviewLimits.promptRetention are dropped when a prompt is recorded")
  func promptRetention() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(clock: clock)
    manager.promptIfAppropriate()
    clock.advance(days: 100)
    manager.promptIfAppropriate()
    clock.advance(days: 700)
    manager.promptIfAppropriate()
    var state = manager.currentState
    #expect(state.promptHistory.map(\.date) == [F.at(100 * day), F.at(800 * day)])
    #expect(state.totalPrompts == 3)
    expectRuntimeFacts(
      ["prompts_within(730d) == 2", "prompts_within(1w) == 1", "total_prompts == 3"], state, now: clock.now)
    clock.advance(days: 2000)
    manager.promptIfAppropriate()
    state = manager.currentState
    #expect(state.promptHistory.map(\.date) == [F.at(2800 * day)])
    #expect(state.lastPrompt?.date == F.at(2800 * day))
  }

  @Test("after many answers only the latest ReviewLimits.responseHistory are kept")
  func responseHistoryBound() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: Self.quietPolicy, clock: clock)
    for _ in 0..<30 {
      manager.recordWithoutPrompt(.remindLater)
      clock.advance(seconds: 1)
    }
    let state = manager.currentState
    #expect(state.responses.count == ReviewLimits.responseHistory)
    #expect(state.responses.first?.date == F.at(10_000))
    #expect(state.responses.last?.date == F.at(29_000))
    #expect(state.lastReminder == F.at(29_000))
  }

  // MARK: - Hostile stored states

  static var hostileState: ReviewState {
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = F.at(-day)
    state.installDate = F.at(-day)
    state.uses = .max
    state.totalUses = .max
    state.events = -5
    state.totalEvents = .max
    state.eventsByName = ["x": .max, "y": -3]
    state.totalEventsByName = ["x": .max]
    state.sessions = .max
    state.totalSessions = .max
    state.prompts = -1
    state.totalPrompts = .max
    state.currentSession = SessionRecord(number: .max, start: F.at(-hour), version: "1.0", score: Number(scaled: .max))
    return state
  }

  @Test("counters saturate on a hostile in-memory state with Int.max and negative values")
  func saturatingCounters() throws {
    let store = InMemoryReviewStore(Self.hostileState)
    let manager = try F.manager(store: store)
    manager.appLaunched()
    manager.significantEvent("x", mayPrompt: false)
    manager.significantEvent("y", mayPrompt: false)
    manager.action(score: 1e9, mayPrompt: false)
    #expect(manager.promptIfAppropriate())
    manager.record(.rated)
    manager.sessionStarted()
    let state = manager.currentState
    #expect((state.uses, state.totalUses) == (.max, .max))
    // -5 events count as 0 before the first increment
    #expect((state.events, state.totalEvents) == (2, .max))
    #expect(state.eventsByName == ["x": .max, "y": 1])
    #expect(state.totalEventsByName == ["x": .max, "y": 1])
    #expect((state.sessions, state.totalSessions) == (.max, .max))
    #expect((state.prompts, state.totalPrompts) == (1, .max))
    #expect(state.recentSessions.last?.score == F.number("200"))
    #expect(state.currentSession?.number == .max)
    expectRuntimeFacts(
      [
        "uses == 9223372036854775807", "total_events == 9223372036854775807", "events(\"x\") == 9223372036854775807",
        "(sessions_since_prompt ?? -1) == 0", "rated",
      ], state, now: F.start)
  }

  @Test("a hostile stored file is sanitized on load: no negative counts, trimmed histories in their stored order")
  func sanitizedOnLoad() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("state.json")
    var state = Self.hostileState
    state.totalSessions = 3
    state.currentSession?.number = 99
    state.recentSessions = (1...80).reversed().map {
      SessionRecord(number: $0, start: F.at(Int64($0) * 1000), version: "1.0")
    }
    state.promptHistory = (0..<150).reversed().map {
      PromptRecord(date: F.at(Int64($0) * 1000), version: "1.0", session: 1, outcome: .unknown)
    }
    state.responses = (0..<40).map { ResponseRecord(response: .dismissed, date: F.at(Int64(40 - $0)), version: "1.0") }
    try ReviewStateCoding.encode(state).write(to: url)
    guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect((loaded.uses, loaded.events, loaded.prompts) == (.max, 0, 0))
    #expect(loaded.eventsByName == ["x": .max, "y": 0])
    #expect(loaded.totalSessions == 99)
    #expect(loaded.recentSessions.map(\.number) == Array((1...50).reversed()))
    #expect(loaded.promptHistory.count == 100)
    // The stored order is the order of recording (the clock may have gone back): kept, not sorted by date.
    #expect(loaded.promptHistory.map(\.date) == (0..<100).reversed().map { F.at(Int64($0) * 1000) })
    #expect(loaded.responses.map(\.date) == (1...20).reversed().map { F.at(Int64($0)) })
    let manager = try F.manager(store: JSONFileStore(url: url))
    manager.appLaunched()
    manager.significantEvent("y")
    #expect(manager.currentState.eventsByName["y"] == 1)
  }

  @Test("a stored prompt or bad session numbered beyond the session count does not trap the fact derivation")
  func hostileSessionNumbers() async throws {
    var hostile = ReviewState()
    hostile.version = "1.0"
    hostile.totalSessions = .max
    hostile.promptHistory = [PromptRecord(date: F.at(0), version: "1.0", session: -1, outcome: .pending)]
    // The stores accept such a state; sanitizing brings the session numbers within 0...total.
    guard case .success(let loaded) = ReviewStateCoding.decode(try ReviewStateCoding.encode(hostile)) else {
      Issue.record("the hostile state should decode")
      return
    }
    #expect(loaded.promptHistory.first?.session == 0)
    #expect(loaded.totalSessions == .max)
    // The policy does not even read sessions_since_prompt or sessions_since_bad: every decision traps.
    await #expect(processExitsWith: .success) {
      var state = ReviewState()
      state.version = "1.0"
      state.totalSessions = .max
      state.promptHistory = [
        PromptRecord(date: Timestamp(millisecondsSince1970: 0), version: "1.0", session: -1, outcome: .pending)
      ]
      state.lastBadSession = SessionRecord(number: -1, start: Timestamp(millisecondsSince1970: 0), version: "1.0")
      // Through the stores' decoding, which sanitizes what it loads.
      guard case .success(let loaded) = ReviewStateCoding.decode(try ReviewStateCoding.encode(state)) else {
        exit(3)
      }
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 0", store: InMemoryReviewStore(loaded), texts: .english))
      _ = manager.promptIfAppropriate()
    }
  }
}
