import Foundation
import Testing

@testable import ReviewPolicy

/// A store that fails every save while ``failing`` is set, wrapping another store.
final class FaultInjectingStore: ReviewStore, @unchecked Sendable {
  // @unchecked: `isFailing` is only touched while holding `lock`; `inner` is Sendable.
  private let lock = NSLock()
  private var isFailing = false
  /// The wrapped store.
  let inner: any ReviewStore

  init(wrapping inner: any ReviewStore) { self.inner = inner }

  /// Whether saves fail (as on a full disk).
  var failing: Bool {
    get { lock.withLock { isFailing } }
    set { lock.withLock { isFailing = newValue } }
  }

  func load() -> StoreLoadResult { inner.load() }

  func save(_ state: ReviewState) throws(StoreSaveError) {
    if failing { throw StoreSaveError(detail: "no space left on device (injected)") }
    try inner.save(state)
  }

  func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    if failing { throw StoreSaveError(detail: "no space left on device (injected)") }
    try inner.update(body)
  }
}

/// Storage faults: saves that fail, then work again.
@Suite("Reliability: storage faults")
struct ReliabilityStorageFaultTests {
  typealias F = RuntimeFixtures

  @Test("a failed save keeps the state in memory, retries on the next change, and is reported once per episode")
  func failedSavesAreRetriedAndReportedOnce() throws {
    let inner = InMemoryReviewStore()
    let store = FaultInjectingStore(wrapping: inner)
    let log = RuntimeLogCollector()
    let manager = try F.manager(store: store, logger: log.logger)
    manager.appLaunched()
    store.failing = true
    for _ in 0..<5 { manager.appLaunched() }
    #expect(manager.currentState.uses == 6)
    #expect(log.entries(.problem).count == 1)
    #expect(log.entries(.problem).first?.summary.hasPrefix("cannot save the review state: no space left") == true)
    store.failing = false
    manager.appLaunched()
    guard case .loaded(let saved) = inner.load() else {
      Issue.record("expected the state to be saved once the store works again")
      return
    }
    #expect(saved.uses == 7)
    #expect(log.entries(.problem).count == 2)
    #expect(log.entries(.problem).last?.summary == "the review state is saved again")
    // A second episode is reported again.
    store.failing = true
    manager.appLaunched()
    manager.appLaunched()
    #expect(log.entries(.problem).count == 3)
  }
}
