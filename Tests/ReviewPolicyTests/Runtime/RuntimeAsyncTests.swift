import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The async prompt check and presenters, and the platform-independent lifecycle logic behind the
/// Apple layer (scene phases, the system presenter), all on Linux.
@Suite("runtime: async prompt checks and the lifecycle behind the Apple layer")
struct RuntimeAsyncTests {
  typealias F = RuntimeFixtures

  /// An async presenter that answers `answer` (after moving the clock, if asked to) and counts its prompts.
  struct AnsweringPresenter: AsyncReviewPresenter {
    let answer: ReviewResponse
    let presented = RuntimeCounter()
    var clock: RuntimeTestClock?
    var delay: Double = 0

    func present(_ request: PromptRequest) async -> ReviewResponse {
      presented.increment()
      clock?.advance(seconds: delay)
      return answer
    }
  }

  static func manager(
    policy: String = F.alwaysPolicy, clock: RuntimeTestClock = RuntimeTestClock(), store: InMemoryReviewStore = .init(),
    presenter: (any ReviewPresenter)?, alwaysAsk: Bool = false, promptTimeout: TimeInterval? = 600,
    promptLeftShowing: ReviewManager.PromptLeftShowing = .dismissed
  ) throws -> ReviewManager {
    try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: policy, store: store, clock: clock.function, texts: .english,
        presenter: presenter, alwaysAsk: alwaysAsk, promptTimeout: promptTimeout,
        promptLeftShowing: promptLeftShowing))
  }

  // MARK: - askIfAppropriate

  @Test("a check the policy declines is not asked, with the decision and the rules that decided")
  func notAsked() async throws {
    let presenter = AnsweringPresenter(answer: .rated)
    let manager = try Self.manager(policy: "ask enough when uses >= 5", presenter: presenter)
    let outcome = await manager.askIfAppropriate()
    guard case .notAsked(let decision) = outcome else {
      Issue.record("expected notAsked, got \(outcome)")
      return
    }
    #expect(!decision.shouldAsk && decision.decision != nil)
    #expect(!outcome.isAsked && outcome.recordedResponse == nil)
    #expect(presenter.presented.value == 0)
    #expect(manager.currentState.promptHistory.isEmpty)
  }

  @Test(
    "an async presenter's answer is awaited, recorded and returned",
    arguments: [
      ReviewResponse.rated, .declined, .remindLater, .feedback,
    ])
  func answered(response: ReviewResponse) async throws {
    let presenter = AnsweringPresenter(answer: response)
    let manager = try Self.manager(presenter: presenter)
    let outcome = await manager.askIfAppropriate()
    guard case .answered(let recorded) = outcome else {
      Issue.record("expected answered, got \(outcome)")
      return
    }
    #expect(recorded == response && outcome.isAsked && outcome.recordedResponse == response)
    #expect(presenter.presented.value == 1)
    #expect(manager.currentState.promptHistory.map(\.outcome.rawValue) == [response.rawValue])
    #expect(manager.currentState.responses.map(\.response) == [response])
  }

  @Test("the system presenter requests on the main actor and the outcome is asked, outcome unknown")
  func systemPresenter() async throws {
    let requests = RuntimeCounter()
    let presenter = SystemReviewPresenter(unavailable: "no scene") {
      requests.increment()
      return true
    }
    let manager = try Self.manager(presenter: presenter)
    let outcome = await manager.askIfAppropriate()
    guard case .outcomeUnknown(.unknown) = outcome else {
      Issue.record("expected outcomeUnknown(.unknown), got \(outcome)")
      return
    }
    #expect(requests.value == 1)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.unknown])
    #expect(!manager.currentState.rated && !manager.currentState.declined)
  }

  @Test("the system presenter through the synchronous calls answers unknown too: the prompt is never left pending")
  func systemPresenterSynchronously() async throws {
    let requests = RuntimeCounter()
    let manager = try Self.manager(
      presenter: SystemReviewPresenter(unavailable: "no scene") {
        requests.increment()
        return true
      })
    #expect(manager.promptIfAppropriate())
    for _ in 0..<1000 where manager.currentState.promptHistory.last?.outcome != .unknown {
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.unknown])
    #expect(requests.value == 1)
  }

  @Test("the installed request (what the SwiftUI modifier installs) is what requestReviewAction calls")
  @MainActor
  func installedRequest() async throws {
    let requests = RuntimeCounter()
    let previous = SystemReviewPresenter.installedRequest
    defer { SystemReviewPresenter.installedRequest = previous }
    SystemReviewPresenter.installedRequest = { requests.increment() }
    let manager = try Self.manager(presenter: SystemReviewPresenter.requestReviewAction)
    let outcome = await manager.askIfAppropriate()
    #expect(outcome.recordedResponse == .unknown)
    #expect(requests.value == 1)
    // With nothing installed it requests nothing and reports "not presented": nothing is recorded.
    SystemReviewPresenter.installedRequest = nil
    manager.reset()
    guard case .notPresented(let reason) = await manager.askIfAppropriate() else {
      Issue.record("expected notPresented")
      return
    }
    #expect(reason.contains("no `requestReview` action is installed"))
    #expect(manager.currentState.promptHistory.isEmpty && manager.currentState.totalPrompts == 0)
    #expect(requests.value == 1)
  }

  static func request(_ manager: ReviewManager) -> PromptRequest {
    PromptRequest(
      texts: PromptTexts.english, reviewURL: nil, explanation: manager.explainCurrentDecision(), isForced: false)
  }

  @Test("a callback presenter's first answer counts; a second one is ignored, not a crash")
  func callbackPresenterAnswersTwice() async throws {
    let presenter = ClosurePresenter { _, respond in
      respond(.declined)
      respond(.rated)
    }
    let manager = try Self.manager(presenter: presenter)
    let outcome = await manager.askIfAppropriate()
    #expect(outcome.recordedResponse == .declined)
    #expect(manager.currentState.declined && !manager.currentState.rated)
  }

  @Test("a presenter that never answers ends the wait after the prompt timeout, and the next launch closes the prompt")
  func neverAnswered() async throws {
    let clock = RuntimeTestClock()
    let manager = try Self.manager(
      clock: clock, presenter: ClosurePresenter { _, _ in }, promptTimeout: 0.05)
    let outcome = await manager.askIfAppropriate()
    guard case .unanswered = outcome else {
      Issue.record("expected unanswered, got \(outcome)")
      return
    }
    #expect(outcome.isAsked)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.pending])
    clock.advance(seconds: 1)
    manager.appLaunched()
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.unknown])
  }

  @Test("cancelling the waiting task ends the wait as unanswered")
  func cancelled() async throws {
    let manager = try Self.manager(presenter: ClosurePresenter { _, _ in }, promptTimeout: nil)
    let task = Task { await manager.askIfAppropriate() }
    for _ in 0..<1000 where manager.currentState.promptHistory.isEmpty {
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    task.cancel()
    let outcome = await task.value
    guard case .unanswered = outcome else {
      Issue.record("expected unanswered, got \(outcome)")
      return
    }
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.pending])
  }

  @Test("an answer that comes after the prompt timeout (by the manager's clock) is recorded and returned as answered")
  func answeredLate() async throws {
    let clock = RuntimeTestClock()
    let presenter = AnsweringPresenter(answer: .rated, clock: clock, delay: 700)
    let manager = try Self.manager(clock: clock, presenter: presenter, promptTimeout: 600)
    let outcome = await manager.askIfAppropriate()
    guard case .answered(.rated) = outcome else {
      Issue.record("expected answered, got \(outcome)")
      return
    }
    #expect(manager.currentState.rated)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.rated])
  }

  @Test("with no presenter the request is returned for the app to show, and the prompt waits for record(_:)")
  func noPresenter() async throws {
    let manager = try Self.manager(presenter: nil)
    let outcome = await manager.askIfAppropriate()
    guard case .needsPresentation(let request) = outcome else {
      Issue.record("expected needsPresentation, got \(outcome)")
      return
    }
    #expect(!request.isForced)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.pending])
    #expect((try? manager.record(.remindLater).get()) != nil)
  }

  @Test("a forced (alwaysAsk) prompt's answer is returned and not recorded")
  func forced() async throws {
    let manager = try Self.manager(
      policy: "ask when uses >= 5", presenter: AnsweringPresenter(answer: .rated), alwaysAsk: true)
    let outcome = await manager.askIfAppropriate()
    guard case .forced(.rated?) = outcome else {
      Issue.record("expected forced(.rated), got \(outcome)")
      return
    }
    #expect(!manager.currentState.rated && manager.currentState.promptHistory.isEmpty)
  }

  @Test("the trigger is counted in the same call as the check")
  func triggers() async throws {
    let manager = try Self.manager(
      policy: "ask when events >= 2 and session_score >= 5", presenter: AnsweringPresenter(answer: .declined))
    #expect(!(await manager.askIfAppropriate(after: .significantEvent("export"))).isAsked)
    #expect(!(await manager.askIfAppropriate(after: .significantEvent())).isAsked)
    #expect(manager.currentState.events == 2 && manager.currentState.eventsByName["export"] == 1)
    let outcome = await manager.askIfAppropriate(after: .action(score: 5))
    #expect(outcome.recordedResponse == .declined)
    #expect(manager.currentState.declined)
  }

  @Test("an async presenter also serves the synchronous calls")
  func asyncPresenterSynchronously() async throws {
    let manager = try Self.manager(presenter: AnsweringPresenter(answer: .rated))
    #expect(manager.significantEvent("export"))
    for _ in 0..<1000 where !manager.currentState.rated {
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    #expect(manager.currentState.rated)
  }

  @Test("the wait's nanoseconds: nil for no limit, clamped when huge")
  func waitLimits() {
    #expect(AnswerWaiterTiming.nanoseconds(nil) == nil)
    #expect(AnswerWaiterTiming.nanoseconds(-1) == nil)
    #expect(AnswerWaiterTiming.nanoseconds(.nan) == nil)
    #expect(AnswerWaiterTiming.nanoseconds(.infinity) == nil)
    #expect(AnswerWaiterTiming.nanoseconds(0.5) == 500_000_000)
    #expect(AnswerWaiterTiming.nanoseconds(1e300) == 18_000_000_000_000_000_000)
  }

  // MARK: - Scene phases

  @Test("the first foreground is the launch; inactive and active in between are nothing; background and back count")
  func phaseTransitions() {
    var tracker = ScenePhaseTracker()
    #expect(tracker.scene("main", enteredPhase: .inactive) == .appLaunched)
    #expect(tracker.scene("main", enteredPhase: .active) == nil)
    #expect(tracker.scene("main", enteredPhase: .inactive) == nil)  // an alert, the notification centre
    #expect(tracker.scene("main", enteredPhase: .active) == nil)
    #expect(tracker.scene("main", enteredPhase: .inactive) == nil)
    #expect(tracker.scene("main", enteredPhase: .background) == .appLeftForeground)
    #expect(tracker.scene("main", enteredPhase: .background) == nil)
    #expect(tracker.scene("main", enteredPhase: .inactive) == .appEnteredForeground)
    #expect(tracker.scene("main", enteredPhase: .active) == nil)
    #expect(tracker.hasLaunched && tracker.isForeground)
  }

  @Test("a launch into the background (a background fetch) is counted when the app first comes to the foreground")
  func backgroundLaunch() {
    var tracker = ScenePhaseTracker()
    #expect(tracker.scene("app", enteredPhase: .background) == nil)
    #expect(!tracker.hasLaunched)
    #expect(tracker.scene("app", enteredPhase: .active) == .appLaunched)
    #expect(tracker.scene("app", enteredPhase: .background) == .appLeftForeground)
    #expect(tracker.scene("app", enteredPhase: .active) == .appEnteredForeground)
  }

  @Test("several scenes: the app is in the foreground while any is, and closing the last one leaves it")
  func severalScenes() {
    var tracker = ScenePhaseTracker()
    #expect(tracker.scene("a", enteredPhase: .active) == .appLaunched)
    #expect(tracker.scene("b", enteredPhase: .active) == nil)
    #expect(tracker.scene("a", enteredPhase: .background) == nil)
    #expect(tracker.scene("b", enteredPhase: .background) == .appLeftForeground)
    #expect(tracker.scene("b", enteredPhase: .active) == .appEnteredForeground)
    #expect(tracker.sceneDisconnected("a") == nil)
    #expect(tracker.sceneDisconnected("b") == .appLeftForeground)
    #expect(tracker.phases.isEmpty && !tracker.isForeground)
    #expect(tracker.sceneDisconnected("never seen") == nil)
  }

  @Test("a manager driven by scene phases counts one launch for two windows, foregrounds, and a prompt left showing")
  func managerScenes() throws {
    let clock = RuntimeTestClock()
    let manager = try Self.manager(
      policy: "ask when uses >= 1 and not declined", clock: clock, presenter: ClosurePresenter { _, _ in },
      promptLeftShowing: .declined)
    manager.scene("one", enteredPhase: .active)
    manager.scene("two", enteredPhase: .active)
    #expect(manager.currentState.uses == 1)
    #expect(manager.promptIfAppropriate())
    manager.scene("one", enteredPhase: .background)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.pending])
    manager.scene("two", enteredPhase: .background)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.declined])
    #expect(manager.currentState.declined)
    clock.advance(seconds: 60)
    manager.scene("two", enteredPhase: .active)
    #expect(manager.currentState.uses == 2)
    #expect(manager.scenePhases.phases == ["one": .background, "two": .active])
  }

  @Test("notifications drive the phases: the state now, then each posted name; cancelling stops")
  func notificationPhases() throws {
    let center = NotificationCenter()
    let foreground = Notification.Name("test.foreground")
    let background = Notification.Name("test.background")
    let clock = RuntimeTestClock()
    let manager = try Self.manager(clock: clock, presenter: ClosurePresenter { _, _ in })
    let observation = manager.observePhases(
      of: center, current: .inactive, notifications: [foreground: .inactive, background: .background])
    #expect(manager.currentState.uses == 1)
    #expect(manager.promptIfAppropriate())
    center.post(name: background, object: nil)
    #expect(manager.currentState.promptHistory.map(\.outcome) == [.dismissed])
    clock.advance(seconds: 60)
    center.post(name: foreground, object: nil)
    center.post(name: foreground, object: nil)
    #expect(manager.currentState.uses == 2)
    observation.cancel()
    center.post(name: background, object: nil)
    center.post(name: foreground, object: nil)
    #expect(manager.currentState.uses == 2)
  }
}
