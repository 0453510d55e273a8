import Dispatch
import Foundation
import PolicyCore
import ReliabilitySupport
import Testing

@testable import ReviewPolicy

/// Broken and adversarial policy updates given to `ReviewManager.updatePolicy(_:)`: none may
/// replace the running policy, each must come back with diagnostics, none may crash, and other
/// callers must keep working meanwhile. The time of each update is measured and printed (not
/// asserted: figures depend on the machine and the build).
@Suite("reliability: hostile policy updates")
struct ReliabilityPolicyUpdateTests {
  typealias F = RuntimeFixtures

  /// The running update every hostile one tries to replace.
  static let goodUpdate = HostileUpdateCorpus.goodUpdate

  /// What one update cost and returned.
  struct Measured {
    /// The update's name.
    var name: String
    /// Its size in UTF-8 bytes.
    var bytes: Int
    /// How long `updatePolicy(_:)` held the caller.
    var seconds: Double
    /// How many diagnostics came back.
    var diagnostics: Int
    /// The size of the rendered diagnostics.
    var renderedBytes: Int
  }

  @Test("hostile updates never replace the running policy, always return diagnostics, never crash; times printed")
  func hostileUpdates() throws {
    let store = InMemoryReviewStore()
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: "ask bundled when uses >= 100", store: store, logger: log.logger)
    #expect(manager.updatePolicy(Self.goodUpdate).isAccepted)
    manager.appLaunched()
    let decision = manager.explainCurrentDecision()
    #expect(decision.summary == "ask: `ask updated` held")

    // Another thread keeps recording events (without prompting, so the decision above stays
    // fixed) and measures how long each call takes while the updates compile.
    let probe = LatencyProbe(manager: manager)
    probe.start()
    var measured: [Measured] = []
    for (index, hostile) in HostileUpdateCorpus.all.enumerated() {
      let start = DispatchTime.now().uptimeNanoseconds
      let result = manager.updatePolicy(hostile.source)
      let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      measured.append(
        Measured(
          name: hostile.name, bytes: hostile.source.utf8.count, seconds: seconds, diagnostics: result.diagnostics.count,
          renderedBytes: result.renderedDiagnostics.utf8.count))
      let name = hostile.name
      #expect(!result.isAccepted, "\(name)")
      #expect(result.diagnostics.hasErrors, "\(name)")
      if let code = hostile.code {
        #expect(
          result.diagnostics.contains { $0.code == code },
          "\(name): \(Set(result.diagnostics.map(\.code.rawValue)).sorted())")
      }
      #expect(
        result.renderedDiagnostics.contains("update.policy:") && result.renderedDiagnostics.contains(" error: "),
        "\(name)")
      #expect(result.diagnostics.filter { $0.severity == .error }.count <= Limits.maximumErrors + 1, "\(name)")
      // The running policy, its decision on the same facts, and what is stored are unchanged.
      #expect(manager.policyOrigin == .update, "\(name)")
      #expect(String(decoding: manager.currentPolicy.source.bytes, as: UTF8.self) == Self.goodUpdate, "\(name)")
      let now = manager.explainCurrentDecision()
      #expect(now.summary == decision.summary && now.decision == decision.decision, "\(name)")
      #expect(store.storedState?.policySource == Self.goodUpdate, "\(name)")
      #expect(log.entries(.policyRejected).count == index + 1, "\(name)")
      #expect(log.entries(.policyUpdated).count == 1, "\(name)")
    }
    let probed = probe.stop()

    // Still fully working: a new good update is accepted, and survives a relaunch.
    #expect(probed.calls > 0)
    #expect(manager.currentState.events == probed.calls)
    let next = "ask next when uses >= 1 and events >= 0"
    #expect(manager.updatePolicy(next).isAccepted)
    let relaunched = try F.manager(policy: "ask bundled when uses >= 100", store: store)
    #expect(relaunched.policyOrigin == .update)
    #expect(String(decoding: relaunched.currentPolicy.source.bytes, as: UTF8.self) == next)

    let total = measured.reduce(0) { $0 + $1.seconds }
    let worst = measured.max { $0.seconds < $1.seconds }
    print("reliability: hostile policy updates: \(measured.count) rejected, none replaced the running policy")
    #if DEBUG
      print("  (a debug build: release is several times faster)")
    #endif
    print(
      String(
        format: "  total %.2f s, mean %.1f ms, worst %.1f ms", total, total * 1000 / Double(measured.count),
        (worst?.seconds ?? 0) * 1000) + " (\(worst?.name ?? "-"))")
    print(
      String(
        format: "  meanwhile another thread made %d calls; the slowest took %.1f ms", probed.calls,
        probed.worstSeconds * 1000))
    for entry in measured.sorted(by: { $0.seconds > $1.seconds }) {
      print(
        String(
          format: "  %9.1f ms  %10d bytes in  %4d diagnostics  %9d bytes out  ", entry.seconds * 1000, entry.bytes,
          entry.diagnostics, entry.renderedBytes) + entry.name)
    }
  }

  @Test("the hostile corpus is what it says: sizes and shapes")
  func corpusShape() {
    let byName = Dictionary(
      HostileUpdateCorpus.all.map { ($0.name, $0.source) }, uniquingKeysWith: { first, _ in first })
    #expect(byName.count == HostileUpdateCorpus.all.count, "names are unique")
    #expect(byName["a megabyte of `(`"]?.utf8.count == 1 << 20)
    #expect((byName["10 MB of comment"]?.utf8.count ?? 0) > 10 << 20)
    #expect(byName["100,000 rules"]?.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 100_000)
    #expect((byName["100,000 rules"]?.utf8.count ?? .max) <= Limits.maximumFileSize)
    #expect((byName["a 2 MB line of unknown names"]?.utf8.count ?? .max) <= Limits.maximumFileSize)
    #expect((byName["a 2 MB line of emoji"]?.utf8.count ?? .max) <= Limits.maximumFileSize)
    #expect(byName["a NUL inside a name"]?.utf8.contains(0) == true)
    #expect(byName["invalid UTF-8 before a rule"]?.unicodeScalars.contains("\u{FFFD}") == true)
    // Each valid piece they are built from does compile: the corpus fails for its hostile part.
    for valid in [
      Self.goodUpdate, "ask when uses>0", "ask x when uses>0", "let a = 1\nask when uses > 0", "ask when uses > 1",
    ] {
      #expect(PolicyCompiler.compile(valid, schema: ReviewSchema.standard).policy != nil, "\(valid)")
    }
  }
}

/// Calls `significantEvent(mayPrompt: false)` on another thread in a loop and keeps the slowest call.
final class LatencyProbe: @unchecked Sendable {
  // @unchecked: the mutable fields are only touched under `lock`.
  private let lock = NSLock()
  private let manager: ReviewManager
  private var running = true
  private var calls = 0
  private var worst: UInt64 = 0
  private let finished = DispatchSemaphore(value: 0)

  /// A probe of `manager`; call ``start()`` then ``stop()``.
  init(manager: ReviewManager) {
    self.manager = manager
  }

  /// Starts calling on a new thread.
  func start() {
    Thread { [self] in
      while true {
        lock.lock()
        let go = running
        lock.unlock()
        guard go else { break }
        let start = DispatchTime.now().uptimeNanoseconds
        manager.significantEvent("probe", mayPrompt: false)
        let took = DispatchTime.now().uptimeNanoseconds - start
        lock.lock()
        calls += 1
        worst = max(worst, took)
        lock.unlock()
        usleep(2_000)
      }
      finished.signal()
    }.start()
  }

  /// Stops the thread; returns its calls and the slowest call's time.
  func stop() -> (calls: Int, worstSeconds: Double) {
    lock.lock()
    running = false
    lock.unlock()
    finished.wait()
    lock.lock()
    defer { lock.unlock() }
    return (calls, Double(worst) / 1e9)
  }
}
