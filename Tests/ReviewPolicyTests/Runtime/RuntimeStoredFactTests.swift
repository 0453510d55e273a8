import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

private typealias F = RuntimeFixtures

/// `feedback_any`, the stored fact added by its declaration alone (ReviewSchema.declarations, its
/// property in ReviewState and the answer that sets it): the binder, the per-version reset, merging,
/// the codec and the analyzer's bounds all follow from the declaration.
@Suite("runtime: a stored fact from its declaration (feedback_any)")
struct RuntimeStoredFactTests {
  /// A tracker over `policy` at version `appVersion`.
  private func tracker(_ policy: String, _ appVersion: String = "1.0") throws -> ReviewTracker {
    let compiled = try #require(PolicyCompiler.compile(policy, schema: ReviewSchema.standard).policy)
    return ReviewTracker(policy: compiled, appVersion: appVersion)
  }

  @Test("feedback in one version is feedback_any in every later one, and the policy reads it")
  func lifetimeFlag() throws {
    var tracker = try tracker("ask when uses >= 1 and not feedback_any and not feedback")
    tracker.appear(at: F.at(0), countingUse: true)
    let asked = tracker.promptIfAppropriate(at: F.at(1))
    #expect(asked)
    let answer = tracker.record(.feedback, at: F.at(2))
    #expect((try? answer.get()) != nil)
    #expect(tracker.state.feedback && tracker.state.feedbackAny)
    var moved = tracker.moving(to: "2.0")
    moved.appear(at: F.at(F.day), countingUse: true)
    #expect(!moved.state.feedback)
    #expect(moved.state.feedbackAny)
    guard case .success(let facts) = moved.facts(at: F.at(F.day)) else {
      Issue.record("no facts")
      return
    }
    #expect(facts.value(of: "feedback") == .bool(false))
    #expect(facts.value(of: "feedback_any") == .bool(true))
    let askedAgain = moved.promptIfAppropriate(at: F.at(F.day + 1))
    #expect(!askedAgain)
  }

  @Test("left out of the stored JSON while false, read as false when absent; Foundation agrees byte for byte")
  func coding() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    for flag in [false, true] {
      var state = RuntimeStoreTests.fullState
      state.feedback = flag
      state.feedbackAny = flag
      let fast = ReviewStateJSON.encode(state)
      #expect(fast == Array(try encoder.encode(state)))
      #expect(String(decoding: fast, as: UTF8.self).contains("\"feedbackAny\":true") == flag)
      #expect(fast.withUnsafeBufferPointer { ReviewStateJSON.decode($0) } == state)
      #expect(try JSONDecoder().decode(ReviewState.self, from: Data(fast)) == state)
    }
  }

  @Test("a state stored before feedback_any existed loads with it set from this version's feedback or an answer kept")
  func olderStates() throws {
    var state = RuntimeStoreTests.fullState
    state.feedbackAny = false
    state.feedback = false
    #expect(!state.sanitized().feedbackAny)
    state.feedback = true
    #expect(state.sanitized().feedbackAny)
    state.feedback = false
    state.responses.append(ResponseRecord(response: .feedback, date: F.at(3), version: "1.0"))
    #expect(state.sanitized().feedbackAny)
    // Through a store: the JSON written before the key existed.
    let bytes = ReviewStateJSON.encode(state)
    #expect(!String(decoding: bytes, as: UTF8.self).contains("feedbackAny"))
    guard case .success(let loaded) = ReviewStateCoding.decode(Data(bytes)) else {
      Issue.record("did not load")
      return
    }
    #expect(loaded.feedbackAny)
  }

  @Test("merging keeps either side's feedback_any; a store that lost it is behind")
  func merging() {
    var memory = RuntimeStoreTests.fullState
    memory.feedbackAny = true
    var stored = memory
    stored.feedbackAny = false
    #expect(stored.merged(with: memory).feedbackAny)
    #expect(memory.merged(with: stored).feedbackAny)
    #expect(stored.isBehind(memory))
    #expect(!memory.isBehind(stored))
  }

  @Test("the analyzer learns feedback ⇒ feedback_any from the declaration")
  func bound() {
    #expect(ReviewSchema.standard.bounds.contains { $0.lower == "feedback" && $0.upper == "feedback_any" })
    #expect(ReviewSchema.scopes.last?.facts.contains("feedback_any") == true)
  }
}
