import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Deciding, presenting and recording: prompts, answers, forced prompts, the logger, app facts.
@Suite("runtime: prompting")
struct RuntimePromptTests {
  typealias F = RuntimeFixtures
  static let loyal = "ask loyal when uses >= 2"
  static let quiet = "ask when uses < 0"

  @Test(
    "a presenter that counts as shown when called: the prompt is saved as pending before its code runs, the answer after"
  )
  func promptRecordedBeforePresenter() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let seenWhilePresenting = RuntimeCounter()
    let presenter = RuntimeRecordingPresenter(answer: .rated) { _ in
      let stored = store.storedState
      #expect(stored?.promptHistory.count == 1)
      #expect(stored?.promptHistory.last?.outcome == .pending)
      #expect(stored?.promptHistory.last?.date == F.at(5000))
      #expect(stored?.prompts == 1)
      #expect(stored?.totalPrompts == 1)
      #expect(stored?.rated == false)
      seenWhilePresenting.increment()
    }
    let manager = try F.manager(policy: Self.loyal, store: store, clock: clock, presenter: presenter)
    manager.appLaunched()
    #expect(!manager.significantEvent())
    manager.appLaunched()
    clock.advance(seconds: 5)
    #expect(manager.significantEvent("export"))
    #expect(seenWhilePresenting.value == 1)
    let state = manager.currentState
    #expect(state.promptHistory == [PromptRecord(date: F.at(5000), version: "1.0", session: 0, outcome: .rated)])
    #expect(state.responses == [ResponseRecord(response: .rated, date: F.at(5000), version: "1.0")])
    #expect((state.rated, state.ratedAny, state.lastRating) == (true, true, F.at(5000)))
    #expect(store.storedState == state)
  }

  static let responseCases: [(ReviewResponse, PromptOutcome)] = [
    (.rated, .rated), (.declined, .declined), (.remindLater, .remindLater), (.feedback, .feedback),
    (.dismissed, .dismissed), (.unknown, .unknown),
  ]

  @Test(
    "each presenter response sets the prompt's outcome and exactly its facts",
    arguments: RuntimePromptTests.responseCases)
  func responses(response: ReviewResponse, outcome: PromptOutcome) throws {
    let clock = RuntimeTestClock()
    let presenter = RuntimeRecordingPresenter(answer: response)
    let manager = try F.manager(clock: clock, presenter: presenter)
    clock.advance(seconds: 1)
    #expect(manager.promptIfAppropriate())
    let state = manager.currentState
    let at = F.at(1000)
    #expect(state.promptHistory.map(\.outcome) == [outcome])
    #expect(state.responses == [ResponseRecord(response: response, date: at, version: "1.0")])
    #expect(state.rated == (response == .rated))
    #expect(state.ratedAny == (response == .rated))
    #expect(state.lastRating == (response == .rated ? at : nil))
    #expect(state.declined == (response == .declined))
    #expect(state.declinedAny == (response == .declined))
    #expect(state.lastDecline == (response == .declined ? at : nil))
    #expect(state.lastReminder == (response == .remindLater ? at : nil))
    #expect(state.feedback == (response == .feedback))
    #expect((state.prompts, state.totalPrompts) == (1, 1))
  }

  @Test("a system prompt answering .unknown is never recorded as rated")
  func unknownIsNotRated() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(clock: clock, presenter: RuntimeRecordingPresenter(answer: .unknown))
    for _ in 0..<5 {
      manager.promptIfAppropriate()
      clock.advance(days: 1)
    }
    let state = manager.currentState
    #expect(state.promptHistory.map(\.outcome) == Array(repeating: .unknown, count: 5))
    #expect(!state.rated && !state.ratedAny && state.lastRating == nil)
    expectRuntimeFacts(["not rated", "not rated_any", "not has last_rating", "prompts == 5"], state, now: clock.now)
  }

  @Test("an answer only updates a pending prompt; later answers are kept as responses")
  func answersUpdateOnlyPendingPrompt() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(clock: clock)
    manager.recordWithoutPrompt(.declined)  // no prompt yet
    #expect(manager.currentState.promptHistory.isEmpty)
    #expect(manager.currentState.declined)
    manager.promptIfAppropriate()
    manager.record(.remindLater)
    manager.recordWithoutPrompt(.rated)
    let state = manager.currentState
    #expect(state.promptHistory.map(\.outcome) == [.remindLater])
    #expect(state.responses.map(\.response) == [.declined, .remindLater, .rated])
    #expect(state.rated && state.declined)
  }

  @Test("the prompt request carries the texts with the app name, the review URL and the explanation")
  func promptRequest() throws {
    let presenter = RuntimeRecordingPresenter()
    let url = URL(string: "https://apps.apple.com/app/id123?action=write-review")
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: Self.loyal, appName: "Darkroom", store: InMemoryReviewStore(),
        clock: { F.start }, texts: .english, reviewURL: url, presenter: presenter))
    manager.appLaunched()
    manager.appLaunched()
    #expect(manager.promptIfAppropriate())
    #expect(presenter.requests.count == 1)
    guard let request = presenter.requests.first else { return }
    #expect(
      request.texts
        == PromptTexts(
          title: "Enjoying Darkroom?",
          message: "If you like the app, would you take a moment to write a short review? It really helps. Thank you!",
          rateButton: "Rate now", remindButton: "Remind me later", declineButton: "No, thanks"))
    #expect(request.reviewURL == url)
    #expect(!request.isForced)
    #expect(request.explanation.decision?.shouldAsk == true)
    #expect(request.explanation.summary == "ask: `ask loyal` held")
    #expect(
      request.explanation.text
        == "decision: ask: `ask loyal` held\nask loyal (line 1): held, decided\n  held        uses >= 2  uses = 2\n")
    // The answer is still pending: no presenter response.
    #expect(manager.currentState.promptHistory.last?.outcome == .pending)
  }

  @Test("custom texts: every {app} is replaced by the app name")
  func customTexts() throws {
    let presenter = RuntimeRecordingPresenter()
    let texts = PromptTexts(
      title: "{app}!", message: "Love {app}? {app} loves you", rateButton: "Rate", remindButton: "Later",
      declineButton: "No")
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: F.alwaysPolicy, appName: "{app} Pro", store: InMemoryReviewStore(),
        texts: texts, presenter: presenter))
    manager.promptIfAppropriate()
    #expect(presenter.requests.first?.texts.title == "{app} Pro!")
    #expect(presenter.requests.first?.texts.message == "Love {app} Pro? {app} Pro loves you")
  }

  @Test("alwaysAsk forces a prompt the policy did not ask for, and does not record it")
  func alwaysAsk() throws {
    let presenter = RuntimeRecordingPresenter()
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: Self.quiet, presenter: presenter, logger: log.logger, alwaysAsk: true)
    #expect(manager.significantEvent())
    #expect(manager.promptIfAppropriate())
    #expect(presenter.requests.count == 2)
    #expect(presenter.requests.allSatisfy { $0.isForced })
    #expect(presenter.requests.first?.explanation.decision?.shouldAsk == false)
    let state = manager.currentState
    #expect((state.prompts, state.totalPrompts) == (0, 0))
    #expect(state.promptHistory.isEmpty)
    #expect(log.entries(.promptCheck).map(\.summary) == ["don't ask: no ask rule held (forced by alwaysAsk)"])
  }

  @Test("alwaysAsk with a policy that asks: presented, not forced, not recorded")
  func alwaysAskWhenPolicyAsks() throws {
    let presenter = RuntimeRecordingPresenter()
    let manager = try F.manager(presenter: presenter, alwaysAsk: true)
    #expect(manager.promptIfAppropriate())
    #expect(presenter.requests.map(\.isForced) == [false])
    #expect(manager.currentState.promptHistory.isEmpty)
    #expect(manager.currentState.totalPrompts == 0)
  }

  @Test("significantEvent(mayPrompt: false) counts without prompting")
  func eventWithoutPrompt() throws {
    let presenter = RuntimeRecordingPresenter()
    let log = RuntimeLogCollector()
    let manager = try F.manager(presenter: presenter, logger: log.logger)
    #expect(!manager.significantEvent("export", mayPrompt: false))
    #expect(!manager.action(score: 3, mayPrompt: false))
    #expect(presenter.requests.isEmpty)
    #expect(manager.currentState.events == 1)
    #expect(manager.currentState.promptHistory.isEmpty)
    #expect(log.decisions.isEmpty)
    #expect(manager.action(score: 3, mayPrompt: true))
    #expect(presenter.requests.count == 1)
    #expect(log.decisions.map(\.event) == [.action])
  }

  @Test("launches, foregrounds, sessions and answers never prompt, even with a policy that always asks")
  func lifecycleNeverPrompts() throws {
    let presenter = RuntimeRecordingPresenter()
    let log = RuntimeLogCollector()
    let manager = try F.manager(presenter: presenter, logger: log.logger)
    manager.appLaunched()
    manager.appEnteredForeground()
    manager.sessionStarted()
    manager.sessionEnded()
    manager.recordWithoutPrompt(.dismissed)
    #expect(presenter.requests.isEmpty)
    #expect(manager.currentState.totalPrompts == 0)
    #expect(log.decisions.isEmpty)
  }

  @Test("the logger receives each decision with its explanation text and decision")
  func loggerReceivesDecisions() throws {
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: Self.loyal, clock: clock, logger: log.logger)
    manager.appLaunched()
    #expect(!manager.significantEvent("a"))
    manager.appLaunched()
    clock.advance(seconds: 2)
    #expect(manager.promptIfAppropriate())
    let entries = log.decisions
    #expect(entries.map(\.event) == [.significantEvent, .promptCheck])
    guard entries.count == 2 else { return }
    #expect(entries[0].summary == "don't ask: no ask rule held")
    #expect(
      entries[0].details
        == "decision: don't ask: no ask rule held\nask loyal (line 1): not held\n  failed      uses >= 2  uses = 1\n")
    #expect(entries[0].decision?.shouldAsk == false)
    #expect(entries[0].decision?.reason == .noAskRuleHeld)
    #expect(entries[0].date == F.start)
    #expect(entries[1].summary == "ask: `ask loyal` held")
    #expect(
      entries[1].details
        == "decision: ask: `ask loyal` held\nask loyal (line 1): held, decided\n  held        uses >= 2  uses = 2\n")
    #expect(entries[1].decision?.shouldAsk == true)
    #expect(entries[1].date == F.date(2000))
  }

  @Test(
    "a policy with an app fact that was never set does not ask, and the explanation names the fact; setFact makes it ask"
  )
  func missingAppFact() throws {
    let presenter = RuntimeRecordingPresenter()
    let log = RuntimeLogCollector()
    let manager = try F.manager(
      policy: "fact plan: string\nask pro when plan == \"pro\"", presenter: presenter, logger: log.logger)
    #expect(!manager.promptIfAppropriate())
    #expect(presenter.requests.isEmpty)
    let entry = log.decisions.last
    #expect(entry?.summary == "don't ask: the facts could not be evaluated")
    #expect(entry?.decision?.reason == .invalidFacts)
    #expect(
      entry?.details.contains("missing facts: `plan` (set them with `setFact`)") == true, "\(entry?.details ?? "")")
    let explanation = manager.explainCurrentDecision()
    #expect(explanation.decision?.shouldAsk == false)
    #expect(explanation.text.contains("missing facts: `plan`"))

    manager.setFact("plan", .string("free"))
    #expect(!manager.promptIfAppropriate())
    manager.setFact("plan", .string("pro"))
    #expect(manager.promptIfAppropriate())
    #expect(presenter.requests.count == 1)
    #expect(manager.currentState.totalPrompts == 1)
  }

  @Test("an app version that does not parse never asks, explains why, and still counts")
  func unparsableAppVersion() throws {
    let presenter = RuntimeRecordingPresenter()
    let log = RuntimeLogCollector()
    let manager = try F.manager(appVersion: "abc", presenter: presenter, logger: log.logger)
    manager.appLaunched()
    #expect(!manager.significantEvent())
    #expect(!manager.promptIfAppropriate())
    #expect(presenter.requests.isEmpty)
    #expect(manager.currentState.totalPrompts == 0)
    #expect(manager.currentState.uses == 1)
    #expect(manager.currentState.events == 1)
    let summaries = log.decisions.map(\.summary)
    #expect(summaries == Array(repeating: "don't ask: the app version `abc` does not start with a number", count: 2))
    #expect(log.decisions.allSatisfy { $0.decision == nil })
    #expect(manager.explainCurrentDecision().summary == "don't ask: the app version `abc` does not start with a number")
  }

  @Test("a presenter that answers later, from another thread, records the answer")
  func asynchronousAnswer() async throws {
    final class Holder: @unchecked Sendable {
      private let lock = NSLock()
      private var stored: (@Sendable (ReviewResponse) -> Void)?
      func set(_ respond: @escaping @Sendable (ReviewResponse) -> Void) {
        lock.lock()
        stored = respond
        lock.unlock()
      }
      func get() -> (@Sendable (ReviewResponse) -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        return stored
      }
    }
    let holder = Holder()
    let presenter = ClosurePresenter { _, respond in holder.set(respond) }
    let manager = try F.manager(presenter: presenter)
    #expect(manager.promptIfAppropriate())
    #expect(manager.currentState.promptHistory.last?.outcome == .pending)
    let respond = holder.get()
    await Task.detached { respond?(.declined) }.value
    #expect(manager.currentState.promptHistory.last?.outcome == .declined)
    #expect(manager.currentState.declined)
  }
}
