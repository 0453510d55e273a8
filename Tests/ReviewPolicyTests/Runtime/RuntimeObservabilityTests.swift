import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Every tracked call reaches the logger as a structured entry, and the callbacks fire.
@Suite("runtime: observability")
struct RuntimeObservabilityTests {
  typealias F = RuntimeFixtures

  /// Collects callback names from any thread.
  final class Calls: @unchecked Sendable {
    // @unchecked: `names` is only touched under `lock`.
    private let lock = NSLock()
    private var names: [String] = []

    var all: [String] {
      lock.lock()
      defer { lock.unlock() }
      return names
    }

    func add(_ name: String) {
      lock.lock()
      names.append(name)
      lock.unlock()
    }

    var events: ReviewEvents {
      ReviewEvents(
        shown: { _ in self.add("shown") }, rated: { self.add("rated") }, declined: { self.add("declined") },
        remindLater: { self.add("remindLater") }, feedback: { self.add("feedback") }, unknown: { self.add("unknown") })
    }
  }

  @Test("a scripted history logs exactly one entry per call, in order, and calls back shown and each answer")
  func scriptedHistory() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let calls = Calls()
    let presenter = RuntimeRecordingPresenter(answer: .remindLater)
    func manager(_ presenter: (any ReviewPresenter)?) throws -> ReviewManager {
      try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask loyal when uses >= 2", store: store, clock: clock.function,
          texts: .english, presenter: presenter, logger: log.logger, shouldCountUse: { $0 == .launch },
          events: calls.events))
    }
    let first = try manager(presenter)
    first.appLaunched()
    first.appEnteredForeground()  // vetoed
    first.sessionStarted()
    first.action(score: 5, mayPrompt: false)
    #expect(!first.significantEvent("export"))
    first.appLaunched()
    #expect(first.promptIfAppropriate())  // answered "remind me later" by the presenter
    #expect(refusal(first.record(.rated)) == .noPromptShowing(.rated))
    first.sessionEnded()
    #expect(first.updatePolicy("ask again when uses >= 2").isAccepted)
    #expect(!first.updatePolicy("ask when").isAccepted)
    first.recordWithoutPrompt(.feedback)
    // A prompt nobody answers, closed by the next launch.
    let silent = try manager(RuntimeRecordingPresenter(answer: nil))
    #expect(silent.significantEvent(mayPrompt: true))
    silent.appLaunched()
    #expect(!silent.appLeftForegroundWithPromptShowing())

    let entries = log.entries
    #expect(
      entries.map(\.event) == [
        .launch, .foreground, .sessionStart, .action, .significantEvent, .launch, .promptCheck, .promptShown,
        .response, .problem, .sessionEnd, .policyUpdated, .policyRejected, .response, .significantEvent, .promptShown,
        .launch, .response,
      ])
    #expect(
      entries.map(\.summary) == [
        "launch counted", "foreground not counted (vetoed)", "session started", "action scored 5.0",
        "don't ask: no ask rule held", "launch counted", "ask: `ask loyal` held", "prompt shown",
        "answer: remindLater", PromptAnswerError.noPromptShowing(.rated).description, "session ended", "policy updated",
        "policy update rejected", "answer outside a prompt: feedback", "ask: `ask again` held", "prompt shown",
        "launch counted", "prompt left unanswered: outcome unknown (closed by the launch)",
      ])
    #expect(entries.filter(\.isDecision).map(\.event) == [.significantEvent, .promptCheck, .significantEvent])
    #expect(entries.filter(\.isDecision).map { $0.decision?.shouldAsk } == [false, true, true])
    #expect(calls.all == ["shown", "remindLater", "feedback", "shown", "unknown"])
  }

  @Test("every tracked call reaches the logger as one structured entry: its event, names, answers and policy")
  func everyCallLogged() throws {
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let bundled = "fact plan: string\nask loyal when uses >= 1 and plan == \"pro\""
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: bundled, store: InMemoryReviewStore(), clock: clock.function,
        texts: .english, presenter: RuntimeRecordingPresenter(answer: .rated), logger: log.logger))
    manager.appLaunched()
    manager.appEnteredForeground()
    manager.sessionStarted()
    manager.action(score: 2, mayPrompt: false)
    #expect(!manager.significantEvent("export"))  // `plan` is not set: reported once
    manager.setFact("plan", .string("pro"))
    #expect(manager.promptIfAppropriate())  // shown, answered "rated"
    manager.sessionEnded()
    #expect(manager.updatePolicy("fact plan: string\nask when uses >= 1").isAccepted)
    #expect(!manager.updatePolicy("ask when").isAccepted)
    manager.resetPolicy()
    manager.setFact("plan", nil)
    #expect(refusal(manager.record(.declined)) == .noPromptShowing(.declined))
    manager.reset()

    let entries = log.entries
    #expect(
      entries.map(\.event) == [
        .launch, .foreground, .sessionStart, .action, .unsetFact, .significantEvent, .factSet, .promptCheck,
        .promptShown, .response, .sessionEnd, .policyUpdated, .policyRejected, .policyReset, .factSet, .problem,
        .reset,
      ])
    let bundledIdentity = PolicyIdentity(origin: .bundled, source: bundled)
    #expect(entries.filter(\.isDecision).map(\.policy) == [bundledIdentity, bundledIdentity])
    #expect(entries.first { $0.event == .unsetFact }?.name == "plan")
    #expect(entries.filter { $0.event == .factSet }.map(\.name) == ["plan", "plan"])
    #expect(
      entries.filter { $0.event == .factSet }.map(\.summary) == [
        "app fact `plan` set to \"pro\"", "app fact `plan` removed",
      ])
    #expect(entries.first { $0.event == .response }?.response == .rated)
    #expect(entries.first { $0.event == .policyUpdated }?.policy?.origin == .update)
    #expect(entries.first { $0.event == .policyRejected }?.diagnostics.isEmpty == false)
    #expect(entries.first { $0.event == .policyReset }?.policy == bundledIdentity)
    #expect(entries.last?.summary == "state reset: everything tracked was forgotten")
  }

  @Test("a prompt left showing calls back declined or unknown, as configured")
  func leftShowingCallbacks() throws {
    for (meaning, expected) in [(ReviewManager.PromptLeftShowing.declined, "declined"), (.dismissed, "unknown")] {
      let calls = Calls()
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: InMemoryReviewStore(), clock: { F.start },
          texts: .english, promptLeftShowing: meaning, events: calls.events))
      #expect(manager.promptIfAppropriate())
      #expect(manager.appLeftForegroundWithPromptShowing())
      #expect(calls.all == ["shown", expected])
    }
  }

  @Test("a prompt timed out is logged and called back as unknown by the next call, before its own entry")
  func timedOut() throws {
    let clock = RuntimeTestClock()
    let log = RuntimeLogCollector()
    let calls = Calls()
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: InMemoryReviewStore(), clock: clock.function,
        texts: .english, logger: log.logger, promptTimeout: 60, events: calls.events))
    #expect(manager.promptIfAppropriate())
    clock.advance(seconds: 61)
    manager.sessionStarted()
    #expect(
      log.entries.map(\.summary).suffix(2) == [
        "prompt left unanswered: outcome unknown (timed out)", "session started",
      ])
    #expect(calls.all == ["shown", "unknown"])
    manager.sessionEnded()
    #expect(calls.all == ["shown", "unknown"])
  }

  @Test("without a logger, calls build no log entry and still call back")
  func noLogger() throws {
    let calls = Calls()
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: F.alwaysPolicy, store: InMemoryReviewStore(), clock: { F.start },
        texts: .english, presenter: RuntimeRecordingPresenter(answer: .rated), events: calls.events))
    manager.appLaunched()
    #expect(manager.significantEvent())
    #expect(calls.all == ["shown", "rated"])
  }
}
