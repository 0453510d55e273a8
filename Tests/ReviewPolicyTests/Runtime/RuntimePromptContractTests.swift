import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The prompt contract: a prompt is never pending for ever, a prompt left on screen means what
/// the app configures, an answer with no prompt on screen is refused, and `mayPrompt` has one default.
@Suite("runtime: the prompt contract")
struct RuntimePromptContractTests {
  typealias F = RuntimeFixtures

  static func manager(
    store: any ReviewStore = InMemoryReviewStore(), clock: RuntimeTestClock, presenter: (any ReviewPresenter)? = nil,
    logger: (@Sendable (ReviewLogEntry) -> Void)? = nil, promptTimeout: TimeInterval? = 600,
    promptLeftShowing: ReviewManager.PromptLeftShowing = .dismissed
  ) throws -> ReviewManager {
    try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: store, clock: clock.function, texts: .english,
        presenter: presenter, logger: logger, promptTimeout: promptTimeout, promptLeftShowing: promptLeftShowing))
  }

  @Test("a prompt never answered is recorded as asked, outcome unknown, at the next launch")
  func unansweredAtNextLaunch() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let first = try Self.manager(store: store, clock: clock, presenter: RuntimeRecordingPresenter(answer: nil))
    #expect(first.promptIfAppropriate())
    #expect(store.storedState?.promptHistory.map(\.outcome) == [.pending])
    // The app is killed with the prompt on screen; the next launch closes it.
    clock.advance(seconds: 30)
    let second = try Self.manager(store: store, clock: clock)
    second.appLaunched()
    let state = second.currentState
    #expect(state.promptHistory.map(\.outcome) == [.unknown])
    #expect(state.responses == [ResponseRecord(response: .unknown, date: F.at(30_000), version: "1.0")])
    #expect(!state.rated && !state.declined && state.uses == 1)
    #expect(store.storedState == state)
    // A late answer from the old presenter is refused.
    #expect(refusal(second.record(.rated)) == .noPromptShowing(.rated))
    #expect(!second.currentState.rated)
  }

  @Test("a prompt never answered is recorded as outcome unknown at the next foreground, even when the use is vetoed")
  func unansweredAtForeground() throws {
    let clock = RuntimeTestClock()
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: InMemoryReviewStore(), clock: clock.function,
        texts: .english, shouldCountUse: { _ in false }))
    #expect(manager.promptIfAppropriate())
    clock.advance(seconds: 5)
    manager.appEnteredForeground()
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.unknown])
    #expect(manager.currentState.uses == 0)
  }

  @Test("without a presenter, a prompt past its timeout is closed as unknown, and a later answer is still kept")
  func timeout() throws {
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let manager = try Self.manager(clock: clock, logger: log.logger, promptTimeout: 60)
    #expect(manager.promptIfAppropriate())
    clock.advance(seconds: 59)
    #expect(manager.currentState.promptHistory.last?.outcome == .pending)
    clock.advance(seconds: 2)
    manager.significantEvent(mayPrompt: false)
    let state = manager.currentState
    #expect(state.promptHistory.map(\.outcome) == [.unknown])
    #expect(state.responses == [ResponseRecord(response: .unknown, date: F.at(60_000), version: "1.0")])
    // The timeout lifted the block on asking again...
    clock.advance(seconds: 1)
    #expect(!manager.currentState.rated)
    // ...and the app's late "rate" (the user tapped its own alert) is the prompt's outcome.
    #expect(refusal(manager.record(.rated)) == nil)
    #expect(manager.currentState.rated)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.rated])
    #expect(log.entries(.problem).isEmpty)
    // A second answer to the same prompt is refused.
    #expect(refusal(manager.record(.declined)) == .noPromptShowing(.declined))
    #expect(!manager.currentState.declined)
  }

  @Test("the default timeout is 10 minutes; an answer within it is accepted")
  func defaultTimeout() throws {
    #expect(ReviewManager.Configuration(appVersion: "1", bundledPolicy: "").promptTimeout == 600)
    let clock = RuntimeTestClock()
    let manager = try Self.manager(clock: clock)
    #expect(manager.promptIfAppropriate())
    clock.advance(seconds: 599)
    #expect(refusal(manager.record(.rated)) == nil)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.rated])
    #expect(manager.currentState.rated)
  }

  @Test("no timeout: the prompt waits until the next launch or foreground")
  func noTimeout() throws {
    let clock = RuntimeTestClock()
    let manager = try Self.manager(clock: clock, promptTimeout: nil)
    #expect(manager.promptIfAppropriate())
    clock.advance(days: 30)
    manager.sessionStarted()
    #expect(manager.currentState.promptHistory.last?.outcome == .pending)
    #expect(refusal(manager.record(.declined)) == nil)
    #expect(manager.currentState.declined)
  }

  @Test(
    "a prompt left on screen when the app left the foreground means what the configuration says",
    arguments: [(ReviewManager.PromptLeftShowing.dismissed, PromptOutcome.dismissed), (.declined, .declined)])
  func leftShowing(meaning: ReviewManager.PromptLeftShowing, outcome: PromptOutcome) throws {
    let clock = RuntimeTestClock()
    let manager = try Self.manager(clock: clock, promptLeftShowing: meaning)
    #expect(!manager.appLeftForegroundWithPromptShowing())  // nothing on screen: nothing recorded
    #expect(manager.currentState.responses.isEmpty)
    #expect(manager.promptIfAppropriate())
    clock.advance(seconds: 3)
    #expect(manager.appLeftForegroundWithPromptShowing())
    let state = manager.currentState
    #expect(state.promptHistory.map(\.outcome) == [outcome])
    #expect(state.declined == (meaning == .declined))
    #expect(state.lastDecline == (meaning == .declined ? F.at(3000) : nil))
    #expect(!manager.appLeftForegroundWithPromptShowing())
    // The next foreground finds nothing left to close.
    manager.appEnteredForeground()
    #expect(manager.currentState.promptHistory.map(\.outcome) == [outcome])
  }

  @Test("an answer with no prompt on screen is refused with a typed error, logged, and writes nothing")
  func answerWithoutPromptRefused() throws {
    let store = RuntimeCountingStore()
    let log = RuntimeLogCollector()
    let clock = RuntimeTestClock()
    let manager = try Self.manager(store: store, clock: clock, logger: log.logger)
    manager.appLaunched()
    let before = manager.currentState
    let accesses = store.accesses
    for response in ReviewResponse.allCases {
      #expect(refusal(manager.record(response)) == .noPromptShowing(response))
    }
    #expect(manager.currentState == before)
    #expect(store.accesses == accesses + ReviewResponse.allCases.count)  // one transaction each, nothing saved
    #expect(log.entries(.problem).count == ReviewResponse.allCases.count)
    #expect(log.entries(.problem).first?.summary.contains("no review prompt is showing") == true)
    // Answered once, a prompt takes no second answer.
    #expect(manager.promptIfAppropriate())
    #expect(refusal(manager.record(.remindLater)) == nil)
    #expect(refusal(manager.record(.rated)) == .noPromptShowing(.rated))
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.remindLater])
    #expect(!manager.currentState.rated)
    // An answer outside a prompt is the app's to record explicitly.
    manager.recordWithoutPrompt(.rated)
    #expect(manager.currentState.rated)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.remindLater])
  }

  @Test("an answer outside a prompt counts for this version even with an earlier version's prompt pending")
  func answerOutsidePromptCountsForThisVersion() throws {
    // Fuzz/regressions/store/no-thanks-with-old-prompt-pending.json: the "no thanks" went to the
    // pending prompt of version 1.0 and was lost for 2.0.
    let policy = try #require(
      PolicyCompiler.compile("never when declined\nask when true\n", schema: ReviewSchema.standard).policy)
    var state = ReviewState()
    state.recordPrompt(at: Timestamp(millisecondsSince1970: 1_000), outcome: .pending)
    state.promptHistory[0].version = "1.0"
    var tracker = ReviewTracker(policy: policy, appVersion: "2.0", state: state)
    let now = Timestamp(millisecondsSince1970: 86_400_000)
    tracker.recordWithoutPrompt(.declined, at: now)
    #expect(tracker.state.declined)
    #expect(tracker.state.declinedAny)
    #expect(tracker.state.promptHistory.first?.outcome == .declined)
    #expect(tracker.state.responses.last?.version == "2.0")
    let asks = tracker.promptIfAppropriate(at: now)
    #expect(!asks)
  }

  @Test("a prompt shown with the clock set back before the version's first use: its no thanks counts for this version")
  func answerWithClockBehindFirstUse() throws {
    // Fuzz/regressions/store/answer-with-clock-behind-first-use.json: the prompt's date was before
    // the version's first use, so the answer was taken for an earlier build's prompt and the
    // version's "no thanks" was lost; `never when declined` then asked again.
    let policy = try #require(
      PolicyCompiler.compile("never when declined\nask when true\n", schema: ReviewSchema.standard).policy)
    let day: Int64 = 86_400_000
    var state = ReviewState()
    state.version = "1.0"
    state.firstUse = Timestamp(millisecondsSince1970: 10 * day)
    var tracker = ReviewTracker(policy: policy, appVersion: "1.0", state: state)
    let setBack = Timestamp(millisecondsSince1970: 5 * day)
    let asked = tracker.promptIfAppropriate(at: setBack)
    #expect(asked)
    #expect(tracker.state.promptHistory.map(\.outcome) == [.pending])
    let answer = tracker.record(.declined, at: setBack)
    #expect((try? answer.get()) != nil)
    #expect(tracker.state.declined)
    #expect(tracker.state.responses.last?.version == "1.0")
    let again = tracker.promptIfAppropriate(at: setBack)
    #expect(!again)
    // Once the clock is right again the version's "no thanks" still holds.
    let later = tracker.promptIfAppropriate(at: Timestamp(millisecondsSince1970: 12 * day))
    #expect(!later)
  }

  @Test("a presenter's \"No thanks\" 3 hours after its alert appeared is recorded and respected")
  func lateAnswer() throws {
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let held = RuntimeHeldAnswer()
    let presenter = ClosurePresenter { _, respond in held.keep(respond) }
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: "ask when not declined", store: InMemoryReviewStore(),
        clock: clock.function, texts: .english, presenter: presenter, logger: log.logger))
    #expect(manager.significantEvent())
    // The alert is up: no check asks again, however long it stays (no timeout for a presenter's prompt).
    clock.advance(seconds: 3 * 3600)
    #expect(!manager.promptIfAppropriate())
    #expect(log.decisions.last?.summary == ReviewTracker.promptShowingSummary)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.pending])
    held.answer(.declined)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.declined])
    #expect(manager.currentState.declined && manager.currentState.declinedAny)
    #expect(log.entries(.problem).isEmpty)
    // Respected: `ask when not declined` no longer asks, now or after a relaunch.
    #expect(!manager.promptIfAppropriate())
    manager.appLaunched()
    #expect(!manager.promptIfAppropriate())
    #expect(manager.currentState.totalPrompts == 1)
  }

  @Test("mayPrompt defaults to true for significant events and actions alike")
  func mayPromptDefaults() throws {
    let presenter = RuntimeRecordingPresenter(answer: .remindLater)
    let manager = try F.manager(presenter: presenter)
    #expect(manager.significantEvent())
    #expect(manager.action(score: 1))
    #expect(!manager.significantEvent(mayPrompt: false))
    #expect(!manager.action(score: 1, mayPrompt: false))
    #expect(presenter.requests.count == 2)
  }

  @Test("the tracker holds the contract: pure, with no timeout unless set")
  func trackerContract() throws {
    let compiled = try #require(PolicyCompiler.compile(F.alwaysPolicy, schema: ReviewSchema.standard).policy)
    var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
    #expect(tracker.promptTimeout == nil)
    let refused = tracker.record(.rated, at: F.at(0))
    #expect(refusal(refused) == .noPromptShowing(.rated))
    let asked = tracker.promptIfAppropriate(at: F.at(0))
    #expect(asked)
    #expect(tracker.isPromptShowing(at: F.at(86_400_000)))
    tracker.promptTimeout = TimeSpan(milliseconds: 1000)
    #expect(tracker.isPromptShowing(at: F.at(999)))
    #expect(!tracker.isPromptShowing(at: F.at(1000)))
    tracker.promptTimeout = nil
    let closed = tracker.appear(at: F.at(5000), countingUse: true)
    #expect(closed)
    #expect(tracker.state.promptHistory.map(\.outcome) == [.unknown])
    #expect(tracker.state.uses == 1)
    let closedAgain = tracker.appear(at: F.at(6000), countingUse: false)
    #expect(!closedAgain)
    #expect(tracker.state.uses == 1)
  }
}

/// The error of a refused answer; nil when the answer was accepted.
func refusal(_ result: Result<Void, PromptAnswerError>) -> PromptAnswerError? {
  if case .failure(let error) = result { return error }
  return nil
}

/// Keeps a presenter's `respond` to answer later.
final class RuntimeHeldAnswer: @unchecked Sendable {
  // @unchecked: `respond` is only touched under `lock`.
  private let lock = NSLock()
  private var respond: (@Sendable (ReviewResponse) -> Void)?

  func keep(_ respond: @escaping @Sendable (ReviewResponse) -> Void) {
    lock.lock()
    self.respond = respond
    lock.unlock()
  }

  func answer(_ response: ReviewResponse) {
    lock.lock()
    let respond = self.respond
    lock.unlock()
    respond?(response)
  }
}
