import Foundation
import PolicyCore
import ReliabilitySupport
import Testing

@testable import ReviewPolicy

/// Eight real threads making mixed calls on one manager: every total is exact, prompts and
/// answers agree, no thread ever sees a total go backwards, and the store holds the final state.
///
/// The suite runs 8 x 25,000 calls (a debug build takes about 30 s for 8 x 100,000); the full
/// 8 x 100,000 runs in a release build with `swift run -c release review-stress stress` (`.ci/reliability`).
@Suite("reliability: concurrency")
struct ReliabilityConcurrencyTests {
  /// Threads calling at once.
  static let threads = 8
  /// Calls per thread.
  static let calls = 25_000

  @Test("8 threads x 25,000 mixed calls on one manager over a memory store: exact totals")
  func eightThreadsExactTotals() throws {
    let workload = StressWorkload(threads: Self.threads, calls: Self.calls)
    let store = InMemoryReviewStore()
    let (manager, observed) = try workload.run(store: store)
    let state = manager.currentState
    let failures = workload.failures(state: state, observed: observed, manager: manager)
    #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    #expect(store.storedState == state)
    // Every call that changes the state saves it before returning, and so does every answer.
    let expected = workload.expected
    let changing = (0..<Self.threads).reduce(0) { sum, thread in
      sum
        + (0..<Self.calls).filter { index in
          switch StressWorkload.call(thread: thread, index: index) {
          case .readState, .facts, .explain, .setFact: false
          default: true
          }
        }.count
    }
    // A prompt is saved when shown and again when answered; a bare check changes nothing itself
    // (asking or blocked by another thread's prompt), and an answer refused (the prompt already
    // took a direct answer) saves nothing.
    #expect(store.saveCount == 1 + changing - observed.bareChecks + 2 * observed.asked - observed.refusedAnswers)
    print(
      "reliability: concurrency: \(Self.threads) threads x \(Self.calls) calls in "
        + String(format: "%.2f s", observed.seconds) + ": uses \(state.totalUses), events \(state.totalEvents), "
        + "sessions \(state.totalSessions), prompts \(state.totalPrompts) (\(observed.blocked) checks blocked by a prompt showing), answers \(observed.asked + expected.recorded), "
        + "saves \(store.saveCount)")
  }

  @Test("the plan's totals are the ones worked out by hand")
  func planTotals() {
    let totals = StressWorkload(threads: 8, calls: 100_000).expected
    // Per thread and 100 calls: 20 uses, 30 events, 5 sessions, 10 policy checks, 5 answers.
    #expect(totals.uses == 160_000)
    #expect(totals.events == 240_000)
    #expect(totals.sessions == 40_001)
    #expect(totals.prompts == 80_000)
    // Thread 0 changes the policy 20 times: 14 updates and 6 resets.
    #expect(totals.updates == 14)
    #expect(totals.recorded == 40_000)
    #expect(totals.eventsByName["shared"] == 40_000)
    #expect(totals.eventsByName["e0"] == 3 * 2 * 5_000)
    #expect(totals.eventsByName["e2"] == 2 * 2 * 5_000)
    #expect(totals.eventsByName["name-7-3"].map { $0 > 0 } == true)
    #expect(totals.eventsByName.count == 3 + 1 + 8 * 7)
    #expect(totals.finalOrigin == .update)
    #expect(totals.recordedKinds == [.feedback, .dismissed, .remindLater, .unknown])
  }

  @Test("the checks catch a lost increment, a lost prompt and an unanswered last prompt")
  func checksCanFail() throws {
    let workload = StressWorkload(threads: 2, calls: 400)
    let (manager, observed) = try workload.run()
    let state = manager.currentState
    #expect(workload.failures(state: state, observed: observed, manager: manager).isEmpty)
    var lostEvent = state
    lostEvent.totalEvents -= 1
    #expect(
      workload.failures(state: lostEvent, observed: observed, manager: manager).contains { $0.hasPrefix("totalEvents") }
    )
    var lostName = state
    lostName.eventsByName["shared", default: 0] -= 1
    #expect(
      workload.failures(state: lostName, observed: observed, manager: manager).contains { $0.hasPrefix("eventsByName") }
    )
    var lostPrompt = observed
    lostPrompt.presented -= 1
    #expect(
      workload.failures(state: state, observed: lostPrompt, manager: manager).contains {
        $0.hasPrefix("prompts presented")
      })
    // A decision that did not ask but was not blocked by a showing prompt: a check lost.
    var lostCheck = observed
    lostCheck.decisionsNotAsking += 1
    #expect(
      workload.failures(state: state, observed: lostCheck, manager: manager).contains {
        $0.hasPrefix("decisions that did not ask")
      })
    var unanswered = state
    unanswered.promptHistory[unanswered.promptHistory.count - 1].outcome = .pending
    #expect(
      workload.failures(state: unanswered, observed: observed, manager: manager).contains {
        $0.hasPrefix("the last prompt")
      })
    var backwards = observed
    backwards.failures.append("thread 1 call 10: totals went backwards")
    #expect(!workload.failures(state: state, observed: backwards, manager: manager).isEmpty)
  }
}
