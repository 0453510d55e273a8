import Dispatch
import Foundation
import ReliabilitySupport
import ReviewPolicy

/// `review-stress hostile-child <shape> <bytes> <folder>`: one shape at one size, in a process of
/// its own (see ``HostileCommand``). Prints `key value` lines as it goes (`stage` before each step,
/// so a parent that kills it knows where), `survived ...` and `fail ...` lines, and `done` last.
enum HostileChild {
  /// Counts the logger's entries and keeps the largest one's size.
  final class LogMeter: @unchecked Sendable {
    // @unchecked: the vars are only touched under `lock`.
    private let lock = NSLock()
    private var entries = 0
    private var largest = 0

    /// The logger to install.
    var logger: @Sendable (ReviewLogEntry) -> Void {
      { [self] entry in
        let size = entry.summary.utf8.count + entry.details.utf8.count
        lock.lock()
        entries += 1
        largest = max(largest, size)
        lock.unlock()
      }
    }

    /// How many entries, and the largest one's size in bytes.
    var reading: (entries: Int, largest: Int) {
      lock.lock()
      defer { lock.unlock() }
      return (entries, largest)
    }
  }

  static func say(_ key: String, _ value: String) {
    writeUnbuffered("\(key) \(value)\n")
  }

  static func milliseconds(_ seconds: Double) -> String {
    String(format: seconds * 1000 < 10 ? "%.3f" : "%.1f", seconds * 1000)
  }

  /// Runs the shape; returns 0 when it ran to its end (the checks' verdicts are in the output).
  static func run(arguments: [String]) -> Int32 {
    guard arguments.count == 3, let shape = HostileShapes.shape(named: arguments[0]), let bytes = Int(arguments[1])
    else { usageError("`hostile-child` takes a shape, a size in bytes and a folder") }
    let folder = URL(fileURLWithPath: arguments[2])
    let source = shape.source(bytes: bytes)
    let meter = LogMeter()
    func manager() throws -> ReviewManager {
      try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: HostileShapes.bundledPolicy,
          store: JSONFileStore(url: folder.appendingPathComponent("review-state.json")), texts: .english,
          logger: meter.logger, guardrails: HostileShapes.guardrails))
    }
    func fail(_ what: String) { say("fail", what) }
    do {
      // The user: three launches, five events, a prompt answered "no thanks".
      say("stage", "setup")
      var expected: KeptRecord
      do {
        let first = try manager()
        for _ in 0..<3 { first.appLaunched() }
        for _ in 0..<5 { first.significantEvent("export", mayPrompt: false) }
        guard first.promptIfAppropriate() else {
          fail("the bundled policy did not ask")
          return 0
        }
        guard case .success = first.record(.declined) else {
          fail("the answer was refused")
          return 0
        }
        expected = KeptRecord(first.currentState)

        say("stage", "update")
        let start = DispatchTime.now().uptimeNanoseconds
        let result = first.updatePolicy(source)
        let took = seconds(since: start)
        say("accepted", result.isAccepted ? "yes" : "no")
        say("update_ms", milliseconds(took))
        say("diagnostics", "\(result.diagnostics.count)")
        if took * 1000 > HostileThresholds.answerMilliseconds {
          fail("update answered in \(milliseconds(took)) ms")
        }
        if result.isAccepted && (shape.alwaysRejected || bytes > HostileShapes.updateLimit) {
          fail("accepted over the update limit")
        }
        if KeptRecord(first.currentState) != expected { fail("the update changed the counts in memory") }
      }

      // Relaunch: a new manager over the folder, the best of `coldInitRuns` (the least disturbed
      // by other work on the machine), the last one kept.
      say("stage", "relaunch")
      var cold = Double.infinity
      var relaunched: ReviewManager?
      for _ in 0..<HostileThresholds.coldInitRuns {
        let start = DispatchTime.now().uptimeNanoseconds
        relaunched = try manager()
        cold = min(cold, seconds(since: start))
      }
      guard let second = relaunched else { return 0 }
      say("cold_ms", milliseconds(cold))
      if cold * 1000 > HostileThresholds.coldInitMilliseconds { fail("cold init took \(milliseconds(cold)) ms") }
      check(KeptRecord(second.currentState), expected, after: "the relaunch")

      // Tracked calls, timed: each kind until 20 calls or 2 s.
      say("stage", "calls")
      var asked = false
      func time(_ key: String, _ call: () -> Bool) -> Int {
        var count = 0
        let begin = DispatchTime.now().uptimeNanoseconds
        repeat {
          if call() { asked = true }
          count += 1
        } while count < 20 && seconds(since: begin) < 2
        let each = seconds(since: begin) / Double(count)
        say(key, milliseconds(each))
        if each * 1000 > HostileThresholds.callMilliseconds { fail("\(key.dropLast(3)) took \(milliseconds(each)) ms") }
        return count
      }
      let launches = time("launch_ms") {
        second.appLaunched()
        return false
      }
      let events = time("event_ms") { second.significantEvent("export") }
      _ = time("wouldask_ms") { second.wouldAsk() }
      _ = time("prompt_ms") { second.promptIfAppropriate() }
      if asked { fail("the user who declined was asked") } else { say("survived", "guardrail") }
      expected.uses += launches
      expected.events += events
      expected.export += events

      say("stage", "relaunch 2")
      let third = try manager()
      check(KeptRecord(third.currentState), expected, after: "the second relaunch")
      if third.promptIfAppropriate() || third.wouldAsk() { fail("asked after the second relaunch") }
    } catch {
      fail("cannot create the manager: \(error)")
    }
    let peak = ProcessMemory.kibibytes("VmHWM") ?? 0
    say("peak_mib", "\(peak / 1024)")
    if peak > HostileThresholds.peakMiB * 1024 { fail("peak RSS \(peak / 1024) MiB") }
    let log = meter.reading
    say("log_entries", "\(log.entries)")
    say("log_max", "\(log.largest)")
    if log.largest > HostileThresholds.logEntryBytes { fail("a log entry of \(log.largest) bytes") }
    say("done", "")
    return 0
  }

  /// Says what of `expected` survived in `kept`, and fails for what did not.
  static func check(_ kept: KeptRecord, _ expected: KeptRecord, after: String) {
    if kept.uses == expected.uses && kept.events == expected.events && kept.export == expected.export {
      say("survived", "counts (\(after))")
    } else {
      say(
        "fail",
        "counts lost after \(after): uses \(kept.uses)/\(expected.uses), events \(kept.events)/\(expected.events)")
    }
    if kept.declined == expected.declined && kept.responses >= expected.responses && kept.prompts >= expected.prompts {
      say("survived", "answer (\(after))")
    } else {
      say("fail", "the \"no thanks\" lost after \(after)")
    }
  }
}

/// `review-stress hostile-extension <folder>`: an extension's process: a manager over the state in
/// the folder records one event; prints its peak RSS (`peak_kib`).
enum HostileExtension {
  static func run(arguments: [String]) -> Int32 {
    guard arguments.count == 1 else { usageError("`hostile-extension` takes a folder") }
    let url = URL(fileURLWithPath: arguments[0]).appendingPathComponent("review-state.json")
    do {
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: HostileShapes.bundledPolicy, store: JSONFileStore(url: url),
          texts: .english, guardrails: HostileShapes.guardrails))
      manager.significantEvent("widget", mayPrompt: false)
    } catch {
      writeUnbuffered("cannot create the manager: \(error)\n", to: 2)
      return 2
    }
    writeUnbuffered("peak_kib \(ProcessMemory.kibibytes("VmHWM") ?? 0)\n")
    return 0
  }
}
