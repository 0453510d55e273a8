import Foundation
import ReliabilitySupport
import ReviewPolicy

/// `review-stress stress`: the reliability tests' concurrency workload (``StressWorkload``) at
/// any size, for release builds: T threads make C mixed calls each on one manager, and the
/// final state must match the plan exactly.
struct StressCommand {
  /// The threads calling at once.
  let threads: Int
  /// The calls per thread.
  let calls: Int
  /// `memory` (``InMemoryReviewStore``) or `file` (``JSONFileStore`` in a temporary folder).
  let store: String

  /// Reads the options of `stress`.
  init(arguments: [String]) {
    let options = OptionParser(arguments, command: "stress", valued: ["--threads", "--calls", "--store"])
    threads = options.integer("--threads", default: 8, in: 1...256)
    calls = options.integer("--calls", default: 100_000, in: 1...100_000_000)
    store = options.text("--store") ?? "memory"
    guard ["memory", "file"].contains(store) else { usageError("`--store` is `memory` or `file`") }
  }

  /// Runs the workload; returns the exit status (1 when any total is off).
  func run() -> Int32 {
    #if DEBUG
      FileHandle.standardError.write(
        Data("review-stress: warning: a debug build; use `-c release` for real figures\n".utf8))
    #endif
    let workload = StressWorkload(threads: threads, calls: calls)
    var folder: URL?
    let reviewStore: any ReviewStore
    if store == "file" {
      let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "review-stress-\(UUID().uuidString)")
      folder = directory
      reviewStore = JSONFileStore(url: directory.appendingPathComponent("review-state.json"))
    } else {
      reviewStore = InMemoryReviewStore()
    }
    defer { if let folder { try? FileManager.default.removeItem(at: folder) } }
    print("stress: \(threads) threads x \(grouped(calls)) mixed calls on one manager (\(store) store)")
    let manager: ReviewManager
    let observed: StressWorkload.Observed
    do {
      (manager, observed) = try workload.run(store: reviewStore)
    } catch {
      FileHandle.standardError.write(Data("review-stress: error: \(error)\n".utf8))
      return 2
    }
    let state = manager.currentState
    var failures = workload.failures(state: state, observed: observed, manager: manager)
    if case .loaded(let stored) = reviewStore.load() {
      if stored != state { failures.append("the stored state differs from the manager's") }
    } else {
      failures.append("the store holds no state")
    }
    let expected = workload.expected
    let total = threads * calls
    print(
      "\(grouped(total)) calls in \(String(format: "%.2f", observed.seconds)) s "
        + "(\(String(format: "%.1f", observed.seconds * 1e6 / Double(total))) µs per call)")
    print(
      "uses \(grouped(state.totalUses)), events \(grouped(state.totalEvents)) (\(state.totalEventsByName.count) names), "
        + "sessions \(grouped(state.totalSessions)), prompts \(grouped(state.totalPrompts)), "
        + "answers \(grouped(observed.asked + expected.recorded)) (\(grouped(observed.blocked)) checks blocked by a prompt showing), "
        + "policy updates \(expected.updates)")
    if failures.isEmpty {
      print("stress passed: every total is exact")
      return 0
    }
    print("stress FAILED:")
    for failure in failures.prefix(30) { print("  \(failure)") }
    return 1
  }
}
