import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Prompts as they really happened: a prompt is recorded only once its presenter reports it shown,
/// an app extension never records one, every answer to a shown prompt is kept however late, and no
/// check asks while a prompt is showing.
@Suite("runtime: presentation")
struct RuntimePresentationTests {
  typealias F = RuntimeFixtures

  /// Keeps the reply of the last request, so a test reports for the presenter when it chooses.
  final class HeldReply: @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    private let lock = NSLock()
    private var replies: [PromptReply] = []

    var presenter: ClosurePresenter {
      ClosurePresenter.reporting { [self] _, reply in
        lock.lock()
        replies.append(reply)
        lock.unlock()
      }
    }

    var count: Int {
      lock.lock()
      defer { lock.unlock() }
      return replies.count
    }

    var last: PromptReply? {
      lock.lock()
      defer { lock.unlock() }
      return replies.last
    }
  }

  @Test("a presenter's answer refused (an answer outside the prompt took it) closes the prompt; the next check asks")
  func refusedAnswerClosesPrompt() throws {
    let held = HeldReply()
    // The clock stands still: nothing but the answer can close the prompt.
    let manager = try F.manager(presenter: held.presenter)
    #expect(manager.promptIfAppropriate())
    held.last?.shown()
    // A "Send feedback" row while the prompt is up: the prompt takes it as its outcome.
    manager.recordWithoutPrompt(.feedback)
    let before = held.count
    held.last?.answer(.rated)
    #expect(manager.currentState.rated == false, "refused: the prompt had an answer")
    #expect(manager.promptIfAppropriate(), "the refused answer closed the prompt; a check asks again")
    #expect(held.count == before + 1)
    held.last?.answer(.rated)
    #expect(manager.currentState.rated)
  }

  @Test("a presenter that could not present records no prompt, logs once per episode, and the check can ask again")
  func notPresented() throws {
    let log = RuntimeLogCollector()
    let attempts = RuntimeCounter()
    let presenter = ClosurePresenter.reporting { _, reply in
      attempts.increment()
      reply.notPresented("no foreground-active window scene")
    }
    let manager = try F.manager(presenter: presenter, logger: log.logger)
    #expect(manager.significantEvent())
    #expect(manager.promptIfAppropriate())
    #expect(attempts.value == 2)
    let state = manager.currentState
    #expect(state.promptHistory.isEmpty && state.prompts == 0 && state.totalPrompts == 0)
    #expect(state.responses.isEmpty)
    #expect(log.entries(.promptShown).isEmpty)
    let notPresented = log.entries(.promptNotPresented)
    #expect(notPresented.count == 1)
    #expect(notPresented.first?.summary.hasSuffix("no foreground-active window scene") == true)
    // The policy's waits did not start: the facts are those of a user never asked.
    #expect(manager.currentFacts()?.facts.value(of: "prompts") == .int(0))
  }

  @Test("after a shown prompt, the next \"not presented\" starts a new episode and is logged again")
  func notPresentedEpisodes() throws {
    let log = RuntimeLogCollector()
    let held = HeldReply()
    let manager = try F.manager(presenter: held.presenter, logger: log.logger)
    #expect(manager.promptIfAppropriate())
    held.last?.notPresented("no scene")
    #expect(manager.promptIfAppropriate())
    held.last?.notPresented("no scene")
    #expect(log.entries(.promptNotPresented).count == 1)
    #expect(manager.promptIfAppropriate())
    held.last?.shown()
    held.last?.answer(.remindLater)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.remindLater])
    #expect(manager.promptIfAppropriate())
    held.last?.notPresented("no scene")
    #expect(log.entries(.promptNotPresented).count == 2)
    // A report after "not presented" changes nothing.
    held.last?.answer(.rated)
    #expect(!manager.currentState.rated && manager.currentState.totalPrompts == 1)
  }

  @Test("the system presenter with no active scene records no prompt; with one, asked, outcome unknown")
  func systemPresenterWithoutScene() async throws {
    let hasScene = RuntimeFlag()
    let requests = RuntimeCounter()
    let attempts = RuntimeCounter()
    let presenter = SystemReviewPresenter(unavailable: "no foreground-active window scene") {
      attempts.increment()
      guard hasScene.value else { return false }
      requests.increment()
      return true
    }
    let log = RuntimeLogCollector()
    let manager = try F.manager(presenter: presenter, logger: log.logger)
    guard case .notPresented(let reason) = await manager.askIfAppropriate() else {
      Issue.record("expected notPresented")
      return
    }
    #expect(reason == "no foreground-active window scene")
    #expect(manager.currentState.totalPrompts == 0 && requests.value == 0)
    // Through the synchronous calls as well: two checks (each after the last request was
    // reported on; until then a check does not ask), nothing recorded.
    #expect(manager.promptIfAppropriate())
    try await Self.settle { attempts.value >= 2 }
    try await Self.settle { manager.promptIfAppropriate() }
    try await Self.settle { attempts.value >= 3 }
    #expect(attempts.value == 3 && manager.currentState.totalPrompts == 0)
    #expect(log.entries(.promptNotPresented).count == 1)
    hasScene.value = true
    guard case .outcomeUnknown(.unknown) = await manager.askIfAppropriate() else {
      Issue.record("expected outcomeUnknown")
      return
    }
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.unknown] && requests.value == 1)
  }

  @Test("a request the presenter has not reported on blocks other checks, until the prompt timeout")
  func silentPresenter() throws {
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let held = HeldReply()
    let manager = try F.manager(clock: clock, presenter: held.presenter, logger: log.logger)
    #expect(manager.promptIfAppropriate())
    #expect(!manager.promptIfAppropriate())
    #expect(log.decisions.last?.summary == ReviewTracker.promptShowingSummary)
    #expect(held.count == 1 && manager.currentState.totalPrompts == 0)
    clock.advance(seconds: 601)
    #expect(manager.promptIfAppropriate())
    #expect(held.count == 2)
    #expect(log.entries(.promptNotPresented).map(\.summary).last?.hasSuffix(ManagerMessages.presenterSilent) == true)
    // The first presenter's late report is ignored; the second's counts.
    held.last?.answer(.declined)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.declined])
  }

  @Test("an app extension counts and decides over the shared store, but never presents or records a prompt")
  func appExtension() async throws {
    let store = InMemoryReviewStore()
    let presenter = RuntimeRecordingPresenter(answer: .rated)
    let log = RuntimeLogCollector()
    let widget = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: "ask when events >= 2", store: store, clock: { F.start }, texts: .english,
        presenter: presenter, logger: log.logger, process: .appExtension))
    #expect(!widget.significantEvent("share"))
    #expect(!widget.significantEvent("share"))
    #expect(!widget.promptIfAppropriate())
    guard case .notPresented(let reason) = await widget.askIfAppropriate() else {
      Issue.record("expected notPresented")
      return
    }
    #expect(reason == ManagerMessages.extensionNeverPrompts)
    #expect(presenter.requests.isEmpty)
    let state = store.storedState
    #expect(state?.events == 2 && state?.totalPrompts == 0 && state?.promptHistory.isEmpty == true)
    // Decided and logged: the policy asks, the extension says why nothing was shown (once).
    #expect(log.decisions.last?.summary.hasPrefix(ManagerMessages.extensionNeverPrompts) == true)
    #expect(log.entries(.promptNotPresented).count == 1)
    // The app, over the same store, asks at its next check and records the prompt.
    let app = try F.manager(policy: "ask when events >= 2", store: store, presenter: presenter)
    #expect(app.promptIfAppropriate())
    #expect(store.storedState?.promptHistory.map(\.outcome) == [.rated])
  }

  @Test("the alert still up after a return to the foreground: no check asks, and its late answer is recorded")
  func alertAcrossForeground() throws {
    let clock = RuntimeTestClock()
    let held = HeldReply()
    let manager = try F.manager(clock: clock, presenter: held.presenter)
    #expect(manager.significantEvent())
    held.last?.shown()
    clock.advance(seconds: 3600)
    manager.appEnteredForeground()
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.unknown])
    #expect(!manager.promptIfAppropriate())
    clock.advance(seconds: 3 * 3600)
    held.last?.answer(.declined)
    let state = manager.currentState
    #expect(state.promptHistory.map(\.outcome) == [.declined] && state.declined && state.declinedAny)
    #expect(state.responses.map(\.response) == [.unknown, .declined])
    #expect(manager.promptIfAppropriate())
    #expect(held.count == 2)
  }

  @Test("leaving the app with an alert up follows promptLeftShowing hours later, and a later answer still counts")
  func leftShowingAnyTime() throws {
    for meaning in [ReviewManager.PromptLeftShowing.declined, .dismissed] {
      let clock = RuntimeTestClock()
      let held = HeldReply()
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: InMemoryReviewStore(), clock: clock.function,
          texts: .english, presenter: held.presenter, promptLeftShowing: meaning))
      #expect(manager.significantEvent())
      held.last?.shown()
      clock.advance(seconds: 5 * 3600)
      #expect(manager.appLeftForegroundWithPromptShowing())
      #expect(manager.currentState.promptHistory.map(\.outcome) == [meaning == .declined ? .declined : .dismissed])
      #expect(!manager.appLeftForegroundWithPromptShowing())
      held.last?.answer(.rated)
      // Declined is an answer (a second one is refused); dismissed leaves the answer to come.
      #expect(manager.currentState.rated == (meaning == .dismissed))
    }
  }

  @Test("a presenter that answers without reporting shown records the prompt and its answer")
  func answerImpliesShown() throws {
    let log = RuntimeLogCollector()
    let events = RuntimeCounter()
    let presenter = ClosurePresenter.reporting { _, reply in reply.answer(.feedback) }
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: InMemoryReviewStore(), clock: { F.start },
        texts: .english, presenter: presenter, logger: log.logger,
        events: ReviewEvents(shown: { _ in events.increment() })))
    #expect(manager.promptIfAppropriate())
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.feedback])
    #expect(log.entries(.promptShown).count == 1 && events.value == 1)
  }

  @Test("merging two copies: a late answer on one side wins over \"outcome unknown\" on the other, either way")
  func mergeKeepsLateAnswer() {
    var closed = ReviewState()
    closed.recordPrompt(at: F.at(0), outcome: .pending)
    var answered = closed
    closed.record(.unknown, at: F.at(1))
    answered.record(.unknown, at: F.at(1))
    answered.record(.declined, at: F.at(2), prompt: 0)
    #expect(closed.merged(with: answered).promptHistory.map(\.outcome) == [.declined])
    #expect(answered.merged(with: closed).promptHistory.map(\.outcome) == [.declined])
    #expect(closed.merged(with: answered).declinedAny && answered.merged(with: closed).declinedAny)
  }

  @Test("the SwiftUI modifier's installed request: each scene removes only its own")
  @MainActor
  func installedRequestOwners() {
    let previous = SystemReviewPresenter.installedRequest
    defer { SystemReviewPresenter.installedRequest = previous }
    let calls = RuntimeCounter()
    SystemReviewPresenter.install({ calls.increment() }, owner: "scene-a")
    SystemReviewPresenter.install({ calls.increment() }, owner: "scene-b")
    SystemReviewPresenter.uninstall(owner: "scene-a")
    SystemReviewPresenter.installedRequest?()
    #expect(calls.value == 1)
    SystemReviewPresenter.uninstall(owner: "scene-b")
    #expect(SystemReviewPresenter.installedRequest == nil)
  }

  /// Waits (up to a second) until `done`, for work the presenter started on the main actor.
  static func settle(until done: () -> Bool) async throws {
    var waited = 0
    while !done() && waited < 1000 {
      try await Task.sleep(nanoseconds: 1_000_000)
      waited += 1
    }
  }
}

/// A flag shared with a presenter.
final class RuntimeFlag: @unchecked Sendable {
  // @unchecked: `flag` is only touched under `lock`.
  private let lock = NSLock()
  private var flag = false

  var value: Bool {
    get {
      lock.lock()
      defer { lock.unlock() }
      return flag
    }
    set {
      lock.lock()
      flag = newValue
      lock.unlock()
    }
  }
}
