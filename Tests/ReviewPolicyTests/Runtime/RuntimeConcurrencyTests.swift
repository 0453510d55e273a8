import Dispatch
import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

/// Many threads on one manager: no lost increments, and the file holds exactly the manager's state.
@Suite("runtime: concurrency")
struct RuntimeConcurrencyTests {
  typealias F = RuntimeFixtures
  static let threads = 8

  /// The expected totals of `run` for `calls` calls per thread.
  struct Totals: Equatable {
    var uses = 0
    var events = 0
    var eventsByName: [String: Int] = [:]
    var sessions = 1
    var prompts = 0
  }

  /// Makes `calls` mixed calls on each of `threads` threads; returns the totals they must add up to.
  ///
  /// No call ends a session, and one is started first, so actions never start one:
  /// every count is determined by the calls alone, whatever the interleaving.
  static func run(_ manager: ReviewManager, calls: Int) -> Totals {
    manager.sessionStarted()
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for call in 0..<calls {
        switch call % 10 {
        case 0: manager.appLaunched()
        case 1: manager.appEnteredForeground()
        case 2: manager.significantEvent("e\(thread % 3)")
        case 3: manager.significantEvent(mayPrompt: false)
        case 4: manager.sessionStarted()
        case 5: manager.action(score: thread.isMultiple(of: 2) ? 1 : -1, isBad: call % 100 == 5, mayPrompt: false)
        case 6: manager.promptIfAppropriate()
        case 7: manager.recordWithoutPrompt(call % 20 == 7 ? .remindLater : .dismissed)
        case 8: _ = manager.explainCurrentDecision()
        default: manager.significantEvent("shared")
        }
      }
    }
    var totals = Totals()
    for thread in 0..<threads {
      for call in 0..<calls {
        switch call % 10 {
        case 0, 1: totals.uses += 1
        case 2:
          totals.events += 1
          totals.eventsByName["e\(thread % 3)", default: 0] += 1
          totals.prompts += 1
        case 3: totals.events += 1
        case 4: totals.sessions += 1
        case 6: totals.prompts += 1
        case 9:
          totals.events += 1
          totals.eventsByName["shared", default: 0] += 1
          totals.prompts += 1
        default: break
        }
      }
    }
    return totals
  }

  /// Checks `state` against `totals`; `log` holds every decision: each check asked (one prompt)
  /// unless another thread's prompt was showing, and then its decision says so.
  static func check(
    _ state: ReviewState, _ totals: Totals, log: RuntimeLogCollector,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let blocked = log.decisions.filter { $0.summary == ReviewTracker.promptShowingSummary }.count
    let asked = log.decisions.filter { $0.decision?.shouldAsk == true }.count
    #expect(asked + blocked == totals.prompts, sourceLocation: sourceLocation)
    #expect(asked > 0 && asked == state.totalPrompts, sourceLocation: sourceLocation)
    #expect((state.uses, state.totalUses) == (totals.uses, totals.uses), sourceLocation: sourceLocation)
    #expect((state.events, state.totalEvents) == (totals.events, totals.events), sourceLocation: sourceLocation)
    #expect(state.eventsByName == totals.eventsByName, sourceLocation: sourceLocation)
    #expect(state.totalEventsByName == totals.eventsByName, sourceLocation: sourceLocation)
    #expect((state.sessions, state.totalSessions) == (totals.sessions, totals.sessions), sourceLocation: sourceLocation)
    #expect(state.currentSession?.number == totals.sessions, sourceLocation: sourceLocation)
    #expect(state.prompts == asked, sourceLocation: sourceLocation)
    #expect(state.promptHistory.count == min(asked, ReviewLimits.promptHistory), sourceLocation: sourceLocation)
    #expect(
      state.recentSessions.count == min(totals.sessions - 1, ReviewLimits.sessionHistory),
      sourceLocation: sourceLocation)
    #expect(state.responses.count == ReviewLimits.responseHistory, sourceLocation: sourceLocation)
  }

  @Test("8 threads x 5,000 mixed calls on one manager over a memory store: exact totals")
  func inMemory() throws {
    let store = InMemoryReviewStore()
    let presented = RuntimeCounter()
    let presenter = ClosurePresenter { _, _ in presented.increment() }
    let log = RuntimeLogCollector()
    let manager = try F.manager(store: store, presenter: presenter, logger: log.logger)
    let totals = Self.run(manager, calls: 5000)
    #expect(totals.uses == 8000)
    #expect(totals.events == 12_000)
    #expect(totals.eventsByName == ["e0": 1500, "e1": 1500, "e2": 1000, "shared": 4000])
    #expect(totals.sessions == 4001)
    #expect(totals.prompts == 12_000)
    let state = manager.currentState
    Self.check(state, totals, log: log)
    #expect(store.storedState == state)
    #expect(presented.value == state.totalPrompts)
    #expect(log.decisions.count == totals.prompts)
    #expect(log.entries(.problem).isEmpty)
  }

  @Test("8 threads x 200 mixed calls on one manager over a JSON file: exact totals, and the file decodes to the state")
  func jsonFile() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let log = RuntimeLogCollector()
    let manager = try F.manager(store: JSONFileStore(url: url), logger: log.logger)
    let totals = Self.run(manager, calls: 200)
    #expect(totals.uses == 320)
    #expect(totals.events == 480)
    let state = manager.currentState
    Self.check(state, totals, log: log)
    #expect(log.entries(.problem).isEmpty)
    guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect(loaded == state)
    // The journal's changes folded into the state file, as the store writes it whole.
    try JSONFileStore(url: url).compact()
    let decoded = try JSONDecoder().decode(ReviewState.self, from: Data(contentsOf: url))
    #expect(decoded == state)
    #expect(try directory.contents() == ["review-state.json"])
  }

  @Test("concurrent policy updates and decisions: every update is accepted and the last one stored is running")
  func concurrentUpdates() throws {
    let store = InMemoryReviewStore()
    let manager = try F.manager(policy: "ask when uses < 0", store: store)
    let accepted = RuntimeCounter()
    DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
      for call in 0..<50 {
        if call % 5 == 0 {
          if manager.updatePolicy("ask when uses >= \(thread)").isAccepted { accepted.increment() }
        } else if call % 5 == 1 {
          manager.resetPolicy()
        } else {
          manager.appLaunched()
          manager.promptIfAppropriate()
        }
      }
    }
    #expect(accepted.value == Self.threads * 10)
    let running = String(decoding: manager.currentPolicy.source.bytes, as: UTF8.self)
    let stored = store.storedState?.policySource
    if manager.policyOrigin == .update {
      #expect(stored == running)
    } else {
      #expect(stored == nil)
      #expect(running == "ask when uses < 0")
    }
    #expect(manager.currentState.uses == Self.threads * 30)
  }
}
