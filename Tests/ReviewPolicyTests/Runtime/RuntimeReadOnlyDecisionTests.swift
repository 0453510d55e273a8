import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// A store that counts every access, to prove that read-only calls touch nothing.
final class RuntimeCountingStore: ReviewStore, @unchecked Sendable {
  // @unchecked: `accesses` is only touched under `lock`; `inner` is thread-safe.
  private let lock = NSLock()
  private let inner = InMemoryReviewStore()
  private var count = 0

  /// Loads, saves and updates so far.
  var accesses: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  private func touch() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  func load() -> StoreLoadResult {
    touch()
    return inner.load()
  }

  func save(_ state: ReviewState) throws(StoreSaveError) {
    touch()
    try inner.save(state)
  }

  func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    touch()
    try inner.update(body)
  }
}

/// `wouldAsk()` and `currentDecision()`: the decision without an explanation, read-only.
@Suite("runtime: read-only decisions")
struct RuntimeReadOnlyDecisionTests {
  typealias F = RuntimeFixtures

  @Test(
    "wouldAsk and currentDecision agree with explainCurrentDecision over random histories, and change nothing",
    arguments: ["review", "armchair", "appirater", "reviewkit"])
  func agreeWithExplanation(policyName: String) throws {
    let source = try EquivPolicies.example(policyName)
    var random = EquivRandom(seed: 12)
    let clock = RuntimeTestClock()
    let store = RuntimeCountingStore()
    let manager = try F.manager(
      policy: source, store: store, clock: clock, presenter: RuntimeRecordingPresenter(answer: .remindLater))
    let policy = manager.currentPolicy
    var seen: Set<Bool> = []
    for step in 0..<400 {
      clock.advance(seconds: Double(random.next() % 40_000))
      switch random.next() % 8 {
      case 0: manager.appLaunched()
      case 1: manager.appEnteredForeground()
      case 2: manager.sessionStarted()
      case 3: manager.sessionEnded()
      case 4: manager.action(score: Double(random.next() % 160) - 10, mayPrompt: false)
      case 5: manager.significantEvent("export", mayPrompt: false)
      case 6:
        manager.setFact("plan", .string(random.next() % 2 == 0 ? "pro" : "free"))
        manager.setFact("crashed_this_session", .bool(false))
      default: manager.promptIfAppropriate()
      }
      let state = manager.currentState
      let accesses = store.accesses
      let explained = manager.explainCurrentDecision()
      let current = manager.currentDecision()
      let asks = manager.wouldAsk()
      #expect(current.decision == explained.decision, "step \(step)")
      #expect(asks == (explained.decision?.shouldAsk ?? false), "step \(step)")
      #expect(current.shouldAsk == asks, "step \(step)")
      seen.insert(asks)
      if let decision = current.decision {
        // The summary names the same rules, in the same order.
        #expect(explained.summary == ExplanationRenderer().summary(decision, policy), "step \(step)")
        for name in current.decidingRules { #expect(explained.summary.contains("`\(name)`"), "step \(step)") }
        #expect(current.decidingRules.count == decision.decidingRules.count)
      }
      #expect(store.accesses == accesses, "step \(step): a read-only call touched the store")
      #expect(manager.currentState == state, "step \(step): a read-only call changed the state")
    }
    #expect(seen == [false, true], "the history should reach both decisions")
  }

  @Test("currentDecision names the deciding rules: named rules with their kind, others by label")
  func decidingRuleNames() throws {
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: "never tired when uses > 3\nask loyal when uses >= 2\nask when uses >= 1", clock: clock)
    #expect(manager.currentDecision().decidingRules.isEmpty)
    #expect(!manager.wouldAsk())
    manager.appLaunched()
    manager.appLaunched()
    let asking = manager.currentDecision()
    #expect(asking.shouldAsk && manager.wouldAsk())
    #expect(asking.decidingRules.first == "ask loyal")
    #expect(asking.decidingRules.count == 2)
    for _ in 0..<2 { manager.appLaunched() }
    #expect(manager.currentDecision().decidingRules == ["never tired"])
    #expect(!manager.wouldAsk())
  }

  @Test("an app version that does not parse: no decision, no ask")
  func unparsableVersion() throws {
    let manager = try F.manager(appVersion: "beta")
    #expect(manager.currentDecision().decision == nil)
    #expect(manager.currentDecision().decidingRules.isEmpty)
    #expect(!manager.wouldAsk())
  }
}
