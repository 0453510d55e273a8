import Dispatch
import Foundation
import ReliabilitySupport
import ReviewPolicy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The pass/fail thresholds of `review-stress hostile` (issue 23, "Done when").
enum HostileThresholds {
  /// An update is accepted or rejected within this many milliseconds.
  static let answerMilliseconds = 100.0
  /// Cold init (a new manager over the state the update left) within this many milliseconds.
  static let coldInitMilliseconds = 5.0
  /// How many relaunches cold init is the best of.
  static let coldInitRuns = 5
  /// Every later call costs at most this many milliseconds (the mean of each kind of call).
  static let callMilliseconds = 1.0
  /// A child's peak resident memory (VmHWM) stays under this many MiB.
  static let peakMiB = 128
  /// An extension that records one event over the state grows by at most this many MiB over one
  /// that records over an empty state (a widget's whole budget is about 30 MB).
  static let extensionGrowthMiB = 10
  /// One logger entry (summary and details) stays under this many bytes.
  static let logEntryBytes = 64 * 1024
  /// A child that has not finished after this many seconds is killed (and the shape fails).
  static let childTimeoutSeconds = 60.0
  /// A child whose resident memory passes this many MiB is killed (and the shape fails).
  static let childMemoryCapMiB = 6 * 1024
}

/// `review-stress hostile`: every shape of ``HostileShapes`` at every size, each in a fresh child
/// process (`hostile-child`) so its memory is its own: a manager over a ``JSONFileStore`` with an
/// honest bundled policy and the guardrail `never answered when declined_any or rated_any` records
/// uses, events and a "no thanks", takes the update (timed), is relaunched (cold init timed), makes
/// tracked calls with a logger (timed per call), is relaunched again; the counts, the answer and
/// the guardrail must survive, within ``HostileThresholds``. Then an extension process
/// (`hostile-extension`) records one event over the state left behind, its memory compared with one
/// over an empty state. Prints one table row per shape and size; exits 1 when any check failed.
struct HostileCommand {
  let shapes: [HostileShape]
  let sizes: [Int]
  let timeout: Double

  /// Reads `--shape NAME` (default every shape), `--sizes A,B` (bytes; default ``HostileShapes/sizes``)
  /// and `--timeout S` (per child; default ``HostileThresholds/childTimeoutSeconds``).
  init(arguments: [String]) {
    let options = OptionParser(arguments, command: "hostile", valued: ["--shape", "--sizes", "--timeout"])
    if let name = options.text("--shape") {
      guard let shape = HostileShapes.shape(named: name) else { usageError("no hostile shape `\(name)`") }
      shapes = [shape]
    } else {
      shapes = HostileShapes.all
    }
    if let list = options.text("--sizes") {
      let parsed = list.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 && $0 <= 16 << 20 }
      guard !parsed.isEmpty else { usageError("`--sizes` needs byte counts separated by commas") }
      sizes = parsed
    } else {
      sizes = HostileShapes.sizes
    }
    timeout = Double(options.integer("--timeout", default: Int(HostileThresholds.childTimeoutSeconds), in: 1...3600))
  }

  /// Runs every shape at every size; returns the exit status.
  func run() -> Int32 {
    #if DEBUG
      FileHandle.standardError.write(
        Data("review-stress: warning: a debug build; use `-c release` for real figures\n".utf8))
    #endif
    guard let executable = KillTest.executable() else {
      FileHandle.standardError.write(Data("review-stress: error: cannot find this executable\n".utf8))
      return 2
    }
    print(
      "hostile: \(shapes.count) shapes x \(sizes.map { HostileCommand.size($0) }.joined(separator: ", ")); "
        + "update limit \(HostileCommand.size(HostileShapes.updateLimit)); thresholds: answer <= "
        + "\(HostileThresholds.answerMilliseconds) ms, cold init <= \(HostileThresholds.coldInitMilliseconds) ms, "
        + "call <= \(HostileThresholds.callMilliseconds) ms, peak RSS < \(HostileThresholds.peakMiB) MiB, "
        + "extension growth <= \(HostileThresholds.extensionGrowthMiB) MiB, child timeout \(Int(timeout)) s")
    let baseline = extensionPeak(executable: executable, folder: nil)
    print("extension baseline (one event over an empty state): peak RSS \(baseline.map { "\($0 / 1024) MiB" } ?? "?")")
    print(
      "shape            size      answer       ms  cold ms  launch ms  event ms  wouldAsk ms  prompt ms  peak MiB  ext +MiB  log max  survived / failures"
    )
    var failed = 0
    for shape in shapes {
      for size in sizes {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
          "review-hostile-\(getpid())-\(shape.name)-\(size)")
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var row = runChild(
          executable: executable, arguments: ["hostile-child", shape.name, String(size), folder.path])
        if row.values["done"] != nil {
          let peak = extensionPeak(executable: executable, folder: folder)
          if let peak, let baseline {
            let growth = max(0, peak - baseline)
            row.values["ext"] = String(format: "%.1f", Double(growth) / 1024)
            if growth > HostileThresholds.extensionGrowthMiB * 1024 {
              row.failures.append("extension grows by \(growth / 1024) MiB")
            }
          } else {
            row.failures.append("the extension process failed")
          }
        }
        if !row.failures.isEmpty { failed += 1 }
        print(row.line(shape: shape.name, size: size))
      }
    }
    print("hostile: \(shapes.count * sizes.count - failed) of \(shapes.count * sizes.count) passed")
    return failed == 0 ? 0 : 1
  }

  /// `bytes` as `64 KiB` or `1 MiB`.
  static func size(_ bytes: Int) -> String {
    bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) B"
  }

  /// What one child reported.
  struct Row {
    var values: [String: String] = [:]
    var failures: [String] = []
    var survived: [String] = []

    func line(shape: String, size: Int) -> String {
      func value(_ key: String) -> String { values[key] ?? "-" }
      let answer = values["accepted"].map { $0 == "yes" ? "accepted" : "rejected" } ?? "none"
      let fields = [
        shape.padding(toLength: 16, withPad: " ", startingAt: 0),
        HostileCommand.size(size).padding(toLength: 8, withPad: " ", startingAt: 0),
        answer.padding(toLength: 8, withPad: " ", startingAt: 0),
        value("update_ms").leftPadded(9), value("cold_ms").leftPadded(8), value("launch_ms").leftPadded(10),
        value("event_ms").leftPadded(9), value("wouldask_ms").leftPadded(12), value("prompt_ms").leftPadded(10),
        value("peak_mib").leftPadded(9), value("ext").leftPadded(9), value("log_max").leftPadded(8),
      ]
      // What survived, once per kind (each is checked after both relaunches).
      var kept: [String] = []
      for item in survived {
        let kind = String(item.prefix { $0 != " " })
        if !kept.contains(kind) { kept.append(kind) }
      }
      let verdict =
        failures.isEmpty
        ? "PASS " + kept.joined(separator: ", ") : "FAIL " + failures.joined(separator: "; ")
      return fields.joined(separator: " ") + "  " + verdict
    }
  }

  /// Runs `review-stress <arguments>` under the timeout and the memory cap; parses its `key value` lines.
  func runChild(executable: URL, arguments: [String]) -> Row {
    var row = Row()
    let outcome = ChildRun.run(executable: executable, arguments: arguments, timeout: timeout)
    for line in outcome.output.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard let key = parts.first else { continue }
      let rest = parts.count > 1 ? parts[1] : ""
      switch key {
      case "fail": row.failures.append(rest)
      case "survived": row.survived.append(rest)
      default: row.values[key] = rest
      }
    }
    if let problem = outcome.problem {
      let stage = row.values["stage"].map { " during \($0)" } ?? ""
      row.failures.append(problem + stage)
    }
    if outcome.peakKiB > 0 && row.values["peak_mib"] == nil { row.values["peak_mib"] = ">\(outcome.peakKiB / 1024)" }
    return row
  }

  /// The peak RSS in KiB of an extension that records one event over the state in `folder` (nil: an empty state).
  func extensionPeak(executable: URL, folder: URL?) -> Int? {
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("review-hostile-empty-\(getpid())")
    if folder == nil {
      try? FileManager.default.removeItem(at: empty)
      try? FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    }
    defer { if folder == nil { try? FileManager.default.removeItem(at: empty) } }
    let outcome = ChildRun.run(
      executable: executable, arguments: ["hostile-extension", (folder ?? empty).path], timeout: timeout)
    guard outcome.problem == nil else { return nil }
    for line in outcome.output.split(separator: "\n") where line.hasPrefix("peak_kib ") {
      return Int(line.dropFirst(9))
    }
    return nil
  }
}

extension String {
  /// This text right-aligned in `width` columns.
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}

/// One child process run to its end, killed at a timeout or a memory cap.
enum ChildRun {
  /// What the child printed, its peak RSS as seen from outside, and what went wrong with it.
  struct Outcome {
    var output = ""
    var peakKiB = 0
    var problem: String?
  }

  /// Runs `executable arguments`, polling its memory every 20 ms.
  static func run(executable: URL, arguments: [String], timeout: Double) -> Outcome {
    var outcome = Outcome()
    let start = DispatchTime.now().uptimeNanoseconds
    let child: StartedChild
    switch StartedChild.start(executable, arguments) {
    case .success(let started): child = started
    case .failure(let problem):
      outcome.problem = problem.description
      return outcome
    }
    let (process, reader, errorReader) = (child.process, child.output, child.errors)
    while process.isRunning {
      let resident = ProcessMemory.kibibytes("VmRSS", pid: process.processIdentifier) ?? 0
      outcome.peakKiB = max(outcome.peakKiB, resident)
      if resident > HostileThresholds.childMemoryCapMiB * 1024 {
        outcome.problem = "killed at \(resident / 1024) MiB (cap \(HostileThresholds.childMemoryCapMiB) MiB)"
        kill(process.processIdentifier, SIGKILL)
        break
      }
      if seconds(since: start) > timeout {
        outcome.problem = "killed after \(Int(timeout)) s (timeout)"
        kill(process.processIdentifier, SIGKILL)
        break
      }
      usleep(20_000)
    }
    process.waitUntilExit()
    outcome.output = reader.finish()
    let errorText = errorReader.finish()
    if outcome.problem == nil && !(process.terminationReason == .exit && process.terminationStatus == 0) {
      let how = process.terminationReason == .exit ? "exit" : "signal"
      outcome.problem =
        "the child ended with \(how) \(process.terminationStatus)"
        + (errorText.isEmpty ? "" : ": " + String(errorText.suffix(200)).replacingOccurrences(of: "\n", with: " "))
    }
    return outcome
  }
}

/// Reads `/proc/<pid>/status` (Linux); nil elsewhere.
enum ProcessMemory {
  /// The value in KiB of `key` (`VmRSS`, `VmHWM`) for `pid` (nil: this process).
  static func kibibytes(_ key: String, pid: Int32? = nil) -> Int? {
    let path = "/proc/\(pid.map(String.init) ?? "self")/status"
    // A /proc file has no size: read it to its end rather than by its length.
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    // `readToEnd()` throws where `readDataToEndOfFile()` traps: a child that exits between the
    // open and the read makes the read fail with ESRCH.
    guard let data = try? handle.readToEnd() else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
      return Int(line.dropFirst(key.count + 1).split { $0 == " " || $0 == "\t" }.first ?? "")
    }
    return nil
  }
}
