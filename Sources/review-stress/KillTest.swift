import Dispatch
import Foundation
import PolicyCore
import ReliabilitySupport
import ReviewPolicy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `review-stress kill-test`: kills a recording child with SIGKILL at random instants and
/// checks after each kill that the state file loads, that no total went backwards and that
/// at most the event in flight is missing.
struct KillTest {
  /// How many children to kill.
  let kills: Int
  /// The seed of the random delays.
  let seed: UInt64
  /// The state file shared by every child; a fresh temporary folder's file by default.
  let stateFile: URL?
  /// Whether to keep the state folder afterwards.
  let keep: Bool
  /// Whether the children save with the deliberately unsafe ``InPlaceFileStore`` (the test must fail).
  let inPlace: Bool
  /// The shortest and longest wait between "ready" and the kill, in microseconds.
  let delay = 1_000...50_000

  /// Reads the options of `kill-test`.
  init(arguments: [String]) {
    let options = OptionParser(
      arguments, command: "kill-test", valued: ["--kills", "--seed", "--state-file"],
      switches: ["--keep", "--unsafe-in-place-store"])
    kills = options.integer("--kills", default: 200, in: 1...1_000_000)
    if let text = options.text("--seed") {
      guard let value = UInt64(text) else { usageError("`--seed` needs a whole number from 0 to \(UInt64.max)") }
      seed = value
    } else {
      seed = UInt64.random(in: 0...UInt64(UInt32.max))
    }
    stateFile = options.text("--state-file").map { URL(fileURLWithPath: $0) }
    keep = options.has("--keep")
    inPlace = options.has("--unsafe-in-place-store")
  }

  /// Where a kill landed, told apart by what it left behind.
  enum Landing: String, CaseIterable {
    /// Not inside a save's file operations: between calls, counting, encoding, or printing a total.
    case betweenSaves = "between saves, or before a save's journal line (nothing in flight stored)"
    /// After a save of the whole file created its temporary file and before it renamed it into place.
    case duringSave = "during a whole-file save, before its rename (its temporary file left behind)"
    /// After a save (its journal line or its rename) and before the child printed the total.
    case afterRename = "after a save's journal line or rename, before the child printed it (the file has 1 more)"
  }

  /// This executable, resolved from `CommandLine.arguments[0]`.
  static func executable() -> URL? {
    let name = CommandLine.arguments[0]
    if name.contains("/") {
      let url = URL(fileURLWithPath: name).standardizedFileURL
      return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return Bundle.main.executableURL
  }

  /// Runs every round; returns the exit status (1 on any violation).
  func run() -> Int32 {
    guard let executable = Self.executable() else {
      FileHandle.standardError.write(Data("review-stress: error: cannot find this executable\n".utf8))
      return 2
    }
    let folder: URL
    let file: URL
    if let stateFile {
      file = stateFile
      folder = stateFile.deletingLastPathComponent()
    } else {
      folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
        "review-kill-test-\(UUID().uuidString)")
      file = folder.appendingPathComponent("review-state.json")
    }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      FileHandle.standardError.write(Data("review-stress: error: cannot create `\(folder.path)`\n".utf8))
      return 2
    }
    defer { if !keep && stateFile == nil { try? FileManager.default.removeItem(at: folder) } }

    print("kill test: \(kills) kills of `\(executable.lastPathComponent) child \(file.path)`, seed \(seed)")
    if inPlace { print("the children save IN PLACE, not atomically: this run should find violations") }
    print(
      "each kill comes \(delay.lowerBound / 1000)-\(delay.upperBound / 1000) ms after the child reports it is ready")
    var random = SeededGenerator(seed: seed)
    var violations: [String] = []
    var landings: [Landing: Int] = [:]
    var previous = 0
    if case .loaded(let state) = JSONFileStore(url: file).load() { previous = state.totalEvents }
    let first = previous
    var reported = 0
    var killsAfterAnEvent = 0
    var maxInFlight = 0
    var temporaryFiles: Set<String> = Self.temporaryFiles(of: file)
    var startup: [Double] = []
    let start = DispatchTime.now().uptimeNanoseconds

    for round in 1...kills {
      let wait = UInt32(Int.random(in: delay, using: &random))
      let outcome = Self.killOnce(executable: executable, file: file, waitMicroseconds: wait, inPlace: inPlace)
      func fail(_ message: String) {
        violations.append("kill \(round): \(message)")
        FileHandle.standardError.write(Data("review-stress: kill \(round): \(message)\n".utf8))
      }
      if let error = outcome.error { fail(error) }
      if let ready = outcome.readyTotal, ready != previous {
        fail("the child loaded \(ready) events, but the file held \(previous) after the previous kill")
      }
      for problem in outcome.problems { fail("the child logged `\(problem)`") }
      startup.append(outcome.startupSeconds)
      // The totals the child printed: each one more than the last, from what it loaded.
      let base = outcome.readyTotal ?? previous
      for (offset, total) in outcome.totals.enumerated() where total != base + offset + 1 {
        fail("the child printed \(total) as its event \(offset + 1) after loading \(base)")
        break
      }
      let lastReported = outcome.totals.last ?? base
      if !outcome.totals.isEmpty { killsAfterAnEvent += 1 }
      reported += outcome.totals.count

      let now = Self.temporaryFiles(of: file)
      let left = now.subtracting(temporaryFiles)
      temporaryFiles = now
      var loaded = previous
      switch JSONFileStore(url: file).load() {
      case .loaded(let state):
        loaded = state.totalEvents
      case .empty:
        loaded = 0
        if lastReported > 0 { fail("the state file is gone after \(lastReported) durable events") }
      case .recovered(_, let problem):
        fail("the state file did not load: \(problem)")
        previous = 0
        continue
      }
      if loaded < lastReported {
        fail("the file holds \(loaded) events, but the child had printed \(lastReported) (durable)")
      }
      if loaded > lastReported + 1 {
        fail("the file holds \(loaded) events, more than \(lastReported) printed + 1 in flight")
      }
      if loaded < previous { fail("the total went backwards from \(previous) to \(loaded)") }
      maxInFlight = max(maxInFlight, loaded - lastReported)
      let landing: Landing = loaded == lastReported + 1 ? .afterRename : (left.isEmpty ? .betweenSaves : .duringSave)
      landings[landing, default: 0] += 1
      if left.count > 1 { fail("one kill left \(left.count) temporary files") }
      previous = loaded
    }

    let elapsed = seconds(since: start)
    let sortedStartup = startup.sorted()
    let median = sortedStartup.isEmpty ? 0 : sortedStartup[sortedStartup.count / 2]
    print(
      "kills: \(grouped(kills)), in \(String(format: "%.1f", elapsed)) s (median child start-up \(String(format: "%.1f", median * 1000)) ms)"
    )
    print(
      "events recorded: \(grouped(previous - first)) (the file's totalEvents went from \(grouped(first)) to \(grouped(previous))); \(grouped(reported)) printed as durable by the children"
    )
    print("kills after the child had recorded at least one event: \(grouped(killsAfterAnEvent)) of \(grouped(kills))")
    print("where the kills landed:")
    for landing in Landing.allCases {
      print(
        "  \(grouped(landings[landing] ?? 0).padding(toLength: 7, withPad: " ", startingAt: 0)) \(landing.rawValue)")
    }
    print("max in-flight difference (file total - last printed total): \(maxInFlight)")
    print(
      "temporary files of killed saves beside the state file: \(temporaryFiles.count) "
        + "(a load removes them once \(Int(JSONFileStore.abandonedSaveAge)) s old)")
    if keep || stateFile != nil { print("state folder kept: \(folder.path)") }
    if violations.isEmpty {
      print(
        "kill test passed: every kill left a loadable file, no total went backwards, at most the event in flight missing"
      )
      return 0
    }
    print("kill test FAILED: \(violations.count) violations")
    for violation in violations.prefix(20) { print("  \(violation)") }
    return 1
  }

  /// The temporary files a save of `file` creates (`.<name>.<random>.tmp`) now present beside it.
  static func temporaryFiles(of file: URL) -> Set<String> {
    let name = file.lastPathComponent
    let names = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
    return Set(names.filter { $0.hasPrefix(".\(name).") && $0.hasSuffix(".tmp") })
  }

  /// What one child did before it was killed.
  struct Outcome {
    /// The total the child loaded (its `ready` line), if it got that far.
    var readyTotal: Int?
    /// The totals it printed, in order: each is durable.
    var totals: [Int] = []
    /// Problems it logged.
    var problems: [String] = []
    /// Something that went wrong with the child itself (it did not start, died on its own, ...).
    var error: String?
    /// Seconds from launch to its `ready` line.
    var startupSeconds = 0.0
  }

  /// Starts a child, waits until it is ready, waits `waitMicroseconds`, kills it with SIGKILL
  /// and returns what it printed.
  static func killOnce(executable: URL, file: URL, waitMicroseconds: UInt32, inPlace: Bool) -> Outcome {
    var outcome = Outcome()
    let launched = DispatchTime.now().uptimeNanoseconds
    let child: StartedChild
    switch StartedChild.start(executable, ["child", file.path] + (inPlace ? ["--unsafe-in-place-store"] : [])) {
    case .success(let started): child = started
    case .failure(let problem):
      outcome.error = problem.description
      return outcome
    }
    let (process, reader, errorReader) = (child.process, child.output, child.errors)
    // Ready, or gone: either way the reader signals.
    if reader.ready.wait(timeout: .now() + 60) == .timedOut {
      outcome.error = "the child did not report ready within 60 s"
    }
    outcome.startupSeconds = seconds(since: launched)
    if process.isRunning {
      usleep(waitMicroseconds)
      kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    let text = reader.finish()
    let errorText = errorReader.finish()
    if outcome.error == nil && !(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL) {
      outcome.error =
        "the child ended by itself (\(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)): \(errorText)"
    }
    // Only complete lines: a line is written with one write(2) after the save it reports.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()
    for line in lines {
      if line.hasPrefix("ready ") {
        outcome.readyTotal = Int(line.dropFirst(6))
      } else if line.hasPrefix("problem: ") {
        outcome.problems.append(String(line.dropFirst(9)))
      } else if let total = Int(line) {
        outcome.totals.append(total)
      } else {
        outcome.error = "the child printed `\(line)`"
      }
    }
    if outcome.readyTotal == nil && outcome.error == nil { outcome.error = "the child never reported ready" }
    return outcome
  }
}

/// A child process started with its standard output and error read as they come (``PipeReader``)
/// and no standard input.
struct StartedChild {
  /// Why a child could not be started.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  let process: Process
  let output: PipeReader
  let errors: PipeReader

  /// Starts `executable arguments` and its two readers.
  static func start(_ executable: URL, _ arguments: [String]) -> Result<StartedChild, Failure> {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    let child = StartedChild(
      process: process, output: PipeReader(output.fileHandleForReading), errors: PipeReader(errors.fileHandleForReading)
    )
    do {
      try process.run()
    } catch {
      return .failure(Failure(description: "cannot start the child: \(error)"))
    }
    child.output.start()
    child.errors.start()
    return .success(child)
  }
}

/// Reads a pipe to its end on a thread of its own, so the child never blocks on a full pipe,
/// and signals ``ready`` at the first complete line (or at the end).
final class PipeReader: @unchecked Sendable {
  // @unchecked: `data` and `signalled` are only touched under `lock`.
  private let lock = NSLock()
  private let handle: FileHandle
  private var data = Data()
  private var signalled = false
  /// Signalled once the first line has arrived, or the pipe has ended.
  let ready = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  /// A reader of `handle`; call ``start()``.
  init(_ handle: FileHandle) {
    self.handle = handle
  }

  /// Starts reading on a new thread.
  func start() {
    Thread { [self] in
      while true {
        let chunk = handle.availableData
        lock.lock()
        data.append(chunk)
        let signal = !signalled && (chunk.isEmpty || data.contains(UInt8(ascii: "\n")))
        if signal { signalled = true }
        lock.unlock()
        if signal { ready.signal() }
        if chunk.isEmpty { break }
      }
      done.signal()
    }.start()
  }

  /// The last `count` bytes read so far, as text (the pipe may still be open).
  func tail(_ count: Int) -> String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data.suffix(count), as: UTF8.self)
  }

  /// Waits for the end of the pipe; returns everything read, as text.
  func finish() -> String {
    // The writer has exited, so the pipe ends soon. If the reading thread has not ended a minute
    // on (seen once under ThreadSanitizer, with no reading thread left), read the rest here
    // rather than wait for ever.
    if done.wait(timeout: .now() + 60) == .timedOut, let rest = try? handle.readToEnd() {
      lock.lock()
      data.append(rest)
      lock.unlock()
    }
    lock.lock()
    defer { lock.unlock() }
    try? handle.close()
    return String(decoding: data, as: UTF8.self)
  }
}
