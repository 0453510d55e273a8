import Foundation
import Testing

@testable import PolicyCore
@testable import ReviewPolicy

private typealias F = RuntimeFixtures

/// Rollouts: the install seed in the state, `bucket("name")` in decisions, its distribution.
@Suite("Runtime: install seeds and buckets")
struct RuntimeBucketTests {
  static let rollout = "ask when bucket(\"new-ask\") < 10"

  @Test("the first tracked call draws a seed; a relaunch keeps it and its bucket; a reset draws a new one")
  func stableAcrossRelaunches() throws {
    let store = InMemoryReviewStore()
    let first = try F.manager(policy: Self.rollout, store: store)
    #expect(first.currentState.installSeed == nil)
    first.appLaunched()
    let seed = try #require(first.currentState.installSeed)
    let expected = Bucket.value(seed: UInt64(bitPattern: seed), name: "new-ask") < 10
    #expect(first.wouldAsk() == expected)
    for version in ["1.0", "1.0", "2.0"] {
      let relaunched = try F.manager(policy: Self.rollout, appVersion: version, store: store)
      relaunched.appLaunched()
      #expect(relaunched.currentState.installSeed == seed)
      #expect(relaunched.wouldAsk() == expected)
    }
    first.reset()
    first.appLaunched()
    let fresh = try #require(first.currentState.installSeed)
    #expect(fresh != seed)  // 2^63 possible seeds
  }

  @Test("a stored seed is used as it is, and explanations show the bucket")
  func storedSeed() throws {
    var state = ReviewState()
    state.installSeed = 42
    let manager = try F.manager(policy: "ask rollout when bucket(\"new-ask\") < 100", store: InMemoryReviewStore(state))
    manager.appLaunched()
    #expect(manager.currentState.installSeed == 42)
    #expect(manager.wouldAsk())
    let rendered = manager.explainCurrentDecision().text
    #expect(rendered.contains("bucket(\"new-ask\") = \(Bucket.value(seed: 42, name: "new-ask"))"), "\(rendered)")
  }

  @Test("10,000 installs: `bucket(\"new-ask\") < 10` asks 10% ± 1%; two names jointly 1% ± 0.5%")
  func distribution() throws {
    let policy = try #require(
      PolicyCompiler.compile(
        "let a = bucket(\"new-ask\") < 10\nlet b = bucket(\"other\") < 10\n"
          + "ask first when a\nask both when a and b", path: "p.policy", schema: ReviewSchema.standard
      ).policy)
    let now = F.at(0)
    var first = 0
    var both = 0
    for _ in 0..<10_000 {
      var tracker = ReviewTracker(policy: policy, appVersion: "1.0")
      _ = tracker.appear(at: now, countingUse: true)  // a new install's first launch draws its seed
      let decision = try #require(tracker.decision(at: now))
      let names = Set(decision.decidingRules.map { policy.rules[$0].label })
      if names.contains("first") { first += 1 }
      if names.contains("both") { both += 1 }
    }
    #expect((900...1100).contains(first), "\(first) of 10,000")
    #expect((50...150).contains(both), "\(both) of 10,000")
  }

  @Test("the seed is stored in the JSON state, and a state stored without one still loads")
  func coding() throws {
    var state = ReviewState()
    state.installSeed = Int64.min
    let bytes = ReviewStateJSON.encode(state)
    #expect(String(decoding: bytes, as: UTF8.self).contains("\"installSeed\":-9223372036854775808"))
    #expect(bytes.withUnsafeBufferPointer { ReviewStateJSON.decode($0) } == state)
    #expect(try JSONDecoder().decode(ReviewState.self, from: Data(bytes)) == state)
    let old = Array(String(decoding: ReviewStateJSON.encode(ReviewState()), as: UTF8.self).utf8)
    #expect(!String(decoding: old, as: UTF8.self).contains("installSeed"))
    #expect(old.withUnsafeBufferPointer { ReviewStateJSON.decode($0) }?.installSeed == nil)
  }
}
