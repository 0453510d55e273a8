import Dispatch
import Foundation
import ReliabilitySupport
import ReviewAnalysis
import ReviewPolicy

/// `review-stress updates`: the reliability tests' hostile policy updates (``HostileUpdateCorpus``)
/// timed in this build, to measure how long `updatePolicy(_:)` can hold its caller.
/// Each must be rejected, with the diagnostic the corpus names if any, and leave the running update in place.
struct UpdatesCommand {
  /// Reads the options of `updates` (there are none).
  init(arguments: [String]) {
    _ = OptionParser(arguments, command: "updates", valued: [])
  }

  /// Times every update; returns the exit status (1 when one was accepted or replaced the running policy).
  func run() -> Int32 {
    #if DEBUG
      FileHandle.standardError.write(
        Data("review-stress: warning: a debug build; use `-c release` for real figures\n".utf8))
    #endif
    let manager: ReviewManager
    // The analyzer runs on every update, as in an app that opted in: the worst case a caller waits.
    var configuration = ReviewManager.Configuration(
      appVersion: "1.0", bundledPolicy: "ask bundled when uses >= 100", store: InMemoryReviewStore(),
      texts: .english)
    configuration.analyzeUpdates()
    do {
      manager = try ReviewManager(configuration: configuration)
    } catch {
      FileHandle.standardError.write(Data("review-stress: error: \(error)\n".utf8))
      return 2
    }
    guard manager.updatePolicy(HostileUpdateCorpus.goodUpdate).isAccepted else {
      FileHandle.standardError.write(Data("review-stress: error: the good update was rejected\n".utf8))
      return 2
    }
    var rows: [(seconds: Double, line: String)] = []
    var failures: [String] = []
    for hostile in HostileUpdateCorpus.all {
      let start = DispatchTime.now().uptimeNanoseconds
      let result = manager.updatePolicy(hostile.source)
      let took = seconds(since: start)
      if result.isAccepted || !result.diagnostics.hasErrors { failures.append("\(hostile.name): accepted") }
      if let code = hostile.code, !result.diagnostics.contains(where: { $0.code == code }) {
        failures.append("\(hostile.name): no \(code.rawValue) among its diagnostics")
      }
      if manager.policyOrigin != .update
        || String(decoding: manager.currentPolicy.source.bytes, as: UTF8.self) != HostileUpdateCorpus.goodUpdate
      {
        failures.append("\(hostile.name): the running policy changed")
      }
      let line =
        String(
          format: "%9.1f ms  %10d bytes in  %4d diagnostics  %9d bytes out  ", took * 1000, hostile.source.utf8.count,
          result.diagnostics.count, result.renderedDiagnostics.utf8.count) + hostile.name
      rows.append((took, line))
    }
    let total = rows.reduce(0) { $0 + $1.seconds }
    let worst = rows.max { $0.seconds < $1.seconds }?.seconds ?? 0
    print(
      "updates: \(rows.count) hostile policy updates, \(rows.count - failures.count) rejected with the running policy kept"
    )
    print(
      String(
        format: "total %.2f s, mean %.1f ms, worst %.1f ms", total, total * 1000 / Double(max(rows.count, 1)),
        worst * 1000))
    for row in rows.sorted(by: { $0.seconds > $1.seconds }) { print(row.line) }
    if failures.isEmpty { return 0 }
    print("updates FAILED:")
    for failure in failures { print("  \(failure)") }
    return 1
  }
}
