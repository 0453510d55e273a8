import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// A store that counts its loads, saves and updates apart, to show what each manager call does to it.
final class RuntimeTransactionStore: ReviewStore, @unchecked Sendable {
  // @unchecked: the counts are only touched under `lock`; `inner` is thread-safe.
  private let lock = NSLock()
  private let inner = InMemoryReviewStore()
  private var storage = Counts()

  /// How often each operation ran.
  struct Counts: Equatable, CustomStringConvertible {
    var loads = 0
    var saves = 0
    var updates = 0
    var description: String { "\(loads) loads, \(saves) saves, \(updates) updates" }
  }

  /// The counts so far.
  var counts: Counts {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  private func count(_ operation: WritableKeyPath<Counts, Int>) {
    lock.lock()
    storage[keyPath: operation] += 1
    lock.unlock()
  }

  func load() -> StoreLoadResult {
    count(\.loads)
    return inner.load()
  }

  func save(_ state: ReviewState) throws(StoreSaveError) {
    count(\.saves)
    try inner.save(state)
  }

  func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    count(\.updates)
    try inner.update(body)
  }
}

/// Every manager call that records is one transaction on the store (``ReviewStore/update(_:)``):
/// what it reads and what it writes happen under one lock, so calls from other threads, managers
/// or processes cannot come between them. Read-only calls do not touch the store.
@Suite("runtime: one store transaction per call")
struct RuntimeTransactionTests {
  typealias F = RuntimeFixtures

  @Test("each call that records is exactly one update of the store, with no load or save of its own")
  func recordingCalls() throws {
    let store = RuntimeTransactionStore()
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: "ask when uses >= 1000000", store: store, clock: clock)
    let calls: [(String, () -> Void)] = [
      ("appLaunched", { manager.appLaunched() }),
      ("appEnteredForeground", { manager.appEnteredForeground() }),
      ("sessionStarted", { manager.sessionStarted() }),
      ("action", { manager.action(score: 10, mayPrompt: false) }),
      ("action that may prompt", { manager.action(score: 10) }),
      ("significantEvent", { manager.significantEvent("export", mayPrompt: false) }),
      ("significantEvent that may prompt", { manager.significantEvent("export") }),
      ("sessionEnded", { manager.sessionEnded() }),
      ("promptIfAppropriate", { manager.promptIfAppropriate() }),
      ("record with no prompt showing", { _ = manager.record(.rated) }),
      ("recordWithoutPrompt", { manager.recordWithoutPrompt(.declined) }),
      ("appLeftForegroundWithPromptShowing", { manager.appLeftForegroundWithPromptShowing() }),
      ("updatePolicy", { manager.updatePolicy("ask when uses >= 2000000") }),
      ("resetPolicy", { manager.resetPolicy() }),
      ("reset", { manager.reset() }),
    ]
    for (name, call) in calls {
      clock.advance(seconds: 60)
      var expected = store.counts
      expected.updates += 1
      call()
      #expect(store.counts == expected, "\(name)")
    }
  }

  @Test("read-only calls, app facts, a version move and a rejected update do not touch the store")
  func callsThatTouchNothing() throws {
    let store = RuntimeTransactionStore()
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: "fact plan: string = \"free\"\nask when uses >= 3", store: store, clock: clock)
    manager.appLaunched()
    let calls: [(String, () -> Void)] = [
      ("wouldAsk", { _ = manager.wouldAsk() }),
      ("currentDecision", { _ = manager.currentDecision() }),
      ("explainCurrentDecision", { _ = manager.explainCurrentDecision() }),
      ("currentFacts", { _ = manager.currentFacts() }),
      ("currentState", { _ = manager.currentState }),
      ("setFact", { manager.setFact("plan", .string("pro")) }),
      ("setAppVersion", { manager.setAppVersion("1.1") }),
      ("a rejected updatePolicy", { manager.updatePolicy("ask when dayz > 3") }),
    ]
    for (name, call) in calls {
      clock.advance(seconds: 60)
      let before = store.counts
      call()
      #expect(store.counts == before, "\(name)")
    }
  }

  @Test("a call that asks decides in one transaction, the prompt shown is recorded in the next, its answer in a third")
  func promptingCall() throws {
    let store = RuntimeTransactionStore()
    let presenter = RuntimeRecordingPresenter(answer: .remindLater)
    let manager = try F.manager(store: store, presenter: presenter)
    var expected = store.counts
    #expect(manager.significantEvent("export"))
    expected.updates += 3
    #expect(store.counts == expected)
    #expect(presenter.requests.count == 1)
    #expect(manager.currentState.promptHistory.last?.outcome == .remindLater)
  }
}
