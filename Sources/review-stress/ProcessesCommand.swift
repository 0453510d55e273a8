import Dispatch
import Foundation
import PolicyCore
import ReviewPolicy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `review-stress processes`: the multi-process kill test (issue 15, part 3).
///
/// P `controlled-writer` processes record without end into one state file. In each round one
/// writer, chosen at random, is killed with SIGKILL while the others keep recording, then started
/// again. Rounds take turns among five kinds of kill: at a random instant, and at each point of
/// ``JSONFileStore/killPointHook`` (while holding the lock; a whole-file save's temporary file
/// written, before its rename; the old file renamed aside, the new one not yet in; the journal line
/// appended, before the unlock), where the writer, told over its standard input, stops and says so.
/// After each kill the file must load, no count may go backwards, and the killed writer's count
/// must have grown by the calls it reported done, plus the call in flight where that call had
/// saved (always 0 or 1; exactly known at each point). Every tenth round also leaves garbage or a
/// short value in the lock file (as a killed holder could): the others must keep recording. At
/// the end every writer is stopped and each one's count must be exact.
struct ProcessesCommand {
  /// How many writer processes record at once.
  let processes: Int
  /// How many kills.
  let kills: Int
  /// The seed of the choices of writer and instant.
  let seed: UInt64

  /// The kinds of kill, taken in turn.
  static let kinds = ["random", "locked", "temporary-written", "moved-aside", "journal-appended"]

  /// Reads the options of `processes`.
  init(arguments: [String]) {
    let options = OptionParser(arguments, command: "processes", valued: ["--processes", "--kills", "--seed"])
    processes = options.integer("--processes", default: 4, in: 2...64)
    kills = options.integer("--kills", default: 200, in: 0...1_000_000)
    seed = UInt64(options.integer("--seed", default: Int.random(in: 0...Int(UInt32.max)), in: 0...Int(Int32.max) * 2))
  }

  /// Runs the kill rounds and the final check; returns the exit status (1 on any violation).
  func run() -> Int32 {
    guard let executable = KillTest.executable() else {
      FileHandle.standardError.write(Data("review-stress: error: cannot find this executable\n".utf8))
      return 2
    }
    signal(SIGPIPE, SIG_IGN)  // a write to a killed writer's input must fail, not end this process
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "review-processes-\(UUID().uuidString)")
    let file = folder.appendingPathComponent("review-state.json")
    let lockPath = JSONFileStore(url: file).lockURL.path
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // A stale lock file from before, with a short garbage value in place of the generation.
      try Data("stale".utf8).write(to: URL(fileURLWithPath: lockPath))
    } catch {
      FileHandle.standardError.write(Data("review-stress: error: cannot create `\(folder.path)`\n".utf8))
      return 2
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    print(
      "processes: \(processes) writers on `\(file.path)`, \(kills) kills of one writer each with SIGKILL, seed \(seed)")
    let start = DispatchTime.now().uptimeNanoseconds
    var random = SeededGenerator(seed: seed)
    var violations: [String] = []
    var writers = (0..<processes).map { ControlledWriter.start(executable: executable, file: file, name: "w\($0)") }
    var bases = [Int](repeating: 0, count: processes)
    var killsByKind: [String: Int] = [:]
    var inFlightSaved = 0
    var garbage = 0
    var calls = 0
    var previous = ReviewState()
    for round in 0..<kills {
      let kind = ProcessesCommand.kinds[round % ProcessesCommand.kinds.count]
      let index = Int.random(in: 0..<processes, using: &random)
      let writer = writers[index]
      if kind == "random" {
        usleep(UInt32(Int.random(in: 1_000...30_000, using: &random)))
      } else {
        writer.send("arm \(kind)\n")
        if !writer.waitForLine("at \(kind)\n", seconds: 30) {
          violations.append("round \(round): \(writer.name) did not reach `\(kind)` within 30 s")
        }
      }
      writer.kill()
      let outcome = writer.finish()
      calls += outcome.done
      if !outcome.killed { violations.append("round \(round): \(writer.name) ended by itself: \(outcome.errors)") }
      if !outcome.problems.isEmpty { violations.append("round \(round): \(writer.name) logged \(outcome.problems)") }
      guard case .loaded(let state) = JSONFileStore(url: file).load() else {
        violations.append("round \(round) (\(kind)): the state file does not load after the kill")
        break
      }
      violations += Self.backwards(from: previous, to: state, at: "round \(round) (\(kind))")
      previous = state
      let grown = (state.eventsByName[writer.name] ?? 0) - bases[index]
      // At each chosen point the call in flight is known to have saved or not; at random, either.
      let allowed: Set<Int> =
        switch kind {
        case "random": [outcome.done, outcome.done + 1]
        case "journal-appended": [outcome.done + 1]
        default: [outcome.done]
        }
      if !allowed.contains(grown) {
        violations.append(
          "round \(round) (\(kind)): \(writer.name) reported \(outcome.done) calls done, its count grew by \(grown)")
      }
      if grown == outcome.done + 1 { inFlightSaved += 1 }
      killsByKind[kind, default: 0] += 1
      bases[index] = state.eventsByName[writer.name] ?? 0
      writers[index] = ControlledWriter.start(executable: executable, file: file, name: writer.name)
      if round % 10 == 5 {
        // Garbage or a short value in the lock file, written under the lock as a holder could.
        Self.spoil(lockPath, variant: garbage, using: &random)
        garbage += 1
        violations += Self.progress(of: writers, at: "round \(round), after garbage in the lock file")
      } else if kind == "locked" {
        violations += Self.progress(of: writers, at: "round \(round), after a kill holding the lock")
      }
    }
    // Stop every writer once each has recorded again (the one started last may not have yet); each
    // count must now be exact.
    violations += Self.progress(of: writers, at: "before the stop")
    for writer in writers { writer.send("stop\n") }
    var finals: [Int] = []
    for writer in writers {
      let outcome = writer.finish()
      calls += outcome.done
      finals.append(outcome.done)
      if outcome.killed || outcome.status != 0 {
        violations.append("\(writer.name) did not stop cleanly (status \(outcome.status)): \(outcome.errors)")
      }
      if !outcome.problems.isEmpty { violations.append("at the end: \(writer.name) logged \(outcome.problems)") }
    }
    if case .loaded(let state) = JSONFileStore(url: file).load() {
      violations += Self.backwards(from: previous, to: state, at: "at the end")
      for (index, writer) in writers.enumerated() {
        let count = state.eventsByName[writer.name] ?? 0
        if count != bases[index] + finals[index] {
          violations.append(
            "at the end: \(writer.name) has \(count) events, expected \(bases[index]) + \(finals[index]) done")
        }
        if finals[index] == 0 { violations.append("at the end: \(writer.name) recorded nothing in its last run") }
      }
      if state.eventsByName.values.reduce(0, +) != state.totalEvents {
        violations.append("at the end: named events do not add up to the total \(state.totalEvents)")
      }
      print("  events in the file: \(grouped(state.totalEvents)) (\(grouped(calls)) calls reported done)")
    } else {
      violations.append("the state file does not load at the end")
    }
    print("  kills by point: " + ProcessesCommand.kinds.map { "\($0) \(killsByKind[$0] ?? 0)" }.joined(separator: ", "))
    print("  calls in flight that had saved (counted once, as they should): \(inFlightSaved)")
    print("  garbage or short values left in the lock file: \(garbage + 1); the other writers kept recording")
    print(String(format: "  %.1f s", seconds(since: start)))
    for violation in violations.prefix(20) {
      FileHandle.standardError.write(Data("review-stress: \(violation)\n".utf8))
    }
    print(violations.isEmpty ? "processes: every count exact" : "processes: \(violations.count) violations")
    return violations.isEmpty ? 0 : 1
  }

  /// The counts that went backwards from `old` to `new`, described.
  static func backwards(from old: ReviewState, to new: ReviewState, at place: String) -> [String] {
    var found: [String] = []
    for (name, count) in old.eventsByName where (new.eventsByName[name] ?? 0) < count {
      found.append("\(place): \(name) went back from \(count) to \(new.eventsByName[name] ?? 0)")
    }
    if new.totalEvents < old.totalEvents || new.totalUses < old.totalUses {
      found.append(
        "\(place): totals went back from \(old.totalEvents) events, \(old.totalUses) uses to \(new.totalEvents), \(new.totalUses)"
      )
    }
    return found
  }

  /// Leaves garbage or a short value in the lock file, holding its lock as a writer would.
  static func spoil(_ path: String, variant: Int, using random: inout SeededGenerator) {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX) == 0 else { return }
    let bytes: [UInt8] =
      switch variant % 3 {
      case 0: (0..<24).map { _ in UInt8.random(in: 0...255, using: &random) }
      case 1: Array("abc".utf8)
      default: []
      }
    _ = ftruncate(descriptor, 0)
    _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
  }

  /// Waits until every writer has reported another call done; describes any that did not within 30 s.
  static func progress(of writers: [ControlledWriter], at place: String) -> [String] {
    let marks = writers.map { $0.tail() }
    let deadline = DispatchTime.now().uptimeNanoseconds + 30_000_000_000
    var waiting = Array(writers.indices)
    while !waiting.isEmpty && DispatchTime.now().uptimeNanoseconds < deadline {
      waiting.removeAll { index in
        let tail = writers[index].tail()
        return tail != marks[index] && tail.hasSuffix("\n")
      }
      if !waiting.isEmpty { usleep(500) }
    }
    return waiting.map { "\(place): \(writers[$0].name) recorded nothing for 30 s" }
  }
}

/// One `controlled-writer` process, with a pipe to its standard input.
final class ControlledWriter: @unchecked Sendable {
  // @unchecked: used from the one thread that runs the command.
  let name: String
  private let process: Process
  private let input: Pipe
  private let reader: PipeReader
  private let errorReader: PipeReader

  private init(name: String, process: Process, input: Pipe, reader: PipeReader, errorReader: PipeReader) {
    self.name = name
    self.process = process
    self.input = input
    self.reader = reader
    self.errorReader = errorReader
  }

  /// Starts `review-stress controlled-writer <file> <name>`.
  static func start(executable: URL, file: URL, name: String) -> ControlledWriter {
    let process = Process()
    process.executableURL = executable
    process.arguments = ["controlled-writer", file.path, name]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    let writer = ControlledWriter(
      name: name, process: process, input: input, reader: PipeReader(output.fileHandleForReading),
      errorReader: PipeReader(errors.fileHandleForReading))
    do {
      try process.run()
    } catch {
      FileHandle.standardError.write(Data("review-stress: cannot start a writer: \(error)\n".utf8))
    }
    writer.reader.start()
    writer.errorReader.start()
    return writer
  }

  /// Sends a command line to the writer (ignored when it has ended).
  func send(_ command: String) {
    writeUnbuffered(command, to: input.fileHandleForWriting.fileDescriptor)
  }

  /// The end of what the writer printed so far.
  func tail() -> String {
    reader.tail(48)
  }

  /// Waits until the writer's output ends with `line`; false after `seconds` or when it ended.
  func waitForLine(_ line: String, seconds: Int) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds) * 1_000_000_000
    while DispatchTime.now().uptimeNanoseconds < deadline {
      if reader.tail(line.utf8.count + 1).hasSuffix(line) { return true }
      if !process.isRunning { return false }
      usleep(200)
    }
    return false
  }

  /// Kills the writer with SIGKILL.
  func kill() {
    if process.isRunning { signalProcess(process.processIdentifier, SIGKILL) }
  }

  /// Waits for the writer to end; returns how, the calls it reported done and the problems it logged.
  func finish() -> (status: Int32, killed: Bool, done: Int, problems: [String], errors: String) {
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    let text = reader.finish()
    let errors = errorReader.finish()
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()  // only complete lines
    var done = 0
    var problems: [String] = []
    for line in lines {
      if line.hasPrefix("problem: ") {
        problems.append(String(line.dropFirst(9)))
      } else if let count = Int(line) {
        done = count
      }
    }
    let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    return (process.terminationStatus, killed, done, problems, errors)
  }
}

/// `kill(2)`, under a name no method shadows.
private func signalProcess(_ pid: Int32, _ signal: Int32) {
  kill(pid, signal)
}

/// `review-stress controlled-writer <state-file> <name>`: records significant events named `name`
/// (and a launch every tenth call) in a ``JSONFileStore`` shared with other writers, printing how
/// many calls have returned after each one, until told `stop` on its standard input (or the input
/// ends). `arm <point>` makes the next significant event stop at that point of
/// ``JSONFileStore/killPointHook``: the writer prints `at <point>` and waits there to be killed.
enum ControlledWriterProcess {
  /// What the parent asked for, shared by the input thread, the recording loop and the hook.
  final class Control: @unchecked Sendable {
    // @unchecked: every field is touched under `lock`.
    private let lock = NSLock()
    private var armed: String?
    private var recordingEvent = false
    private var stopped = false

    /// Reads commands from standard input on a thread of its own.
    func listen() {
      Thread { [self] in
        var pending = ""
        while true {
          let chunk = FileHandle.standardInput.availableData
          if chunk.isEmpty { break }
          pending += String(decoding: chunk, as: UTF8.self)
          while let end = pending.firstIndex(of: "\n") {
            let command = pending[..<end]
            pending = String(pending[pending.index(after: end)...])
            lock.lock()
            if command.hasPrefix("arm ") { armed = String(command.dropFirst(4)) }
            if command == "stop" { stopped = true }
            lock.unlock()
          }
        }
        lock.lock()
        stopped = true
        lock.unlock()
      }.start()
    }

    /// Whether the parent asked the writer to stop.
    var isStopped: Bool {
      lock.lock()
      defer { lock.unlock() }
      return stopped
    }

    /// Marks whether a significant event is being recorded (only those stop at a point).
    func setRecordingEvent(_ value: Bool) {
      lock.lock()
      recordingEvent = value
      lock.unlock()
    }

    /// Whether to stop at `point` now; disarms.
    func take(_ point: String) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      guard recordingEvent, armed == point else { return false }
      armed = nil
      return true
    }
  }

  /// Runs the writer; returns its exit status.
  static func run(arguments: [String]) -> Int32 {
    guard arguments.count == 2 else { usageError("`controlled-writer` takes a state file and a name") }
    let url = URL(fileURLWithPath: arguments[0])
    let name = arguments[1]
    let control = Control()
    JSONFileStore.killPointHook = { point in
      guard control.take(point) else { return }
      writeUnbuffered("at \(point)\n")
      while true { pause() }
    }
    let manager: ReviewManager
    do {
      manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 1000000", appName: "Processes test",
          store: JSONFileStore(url: url), texts: .english,
          logger: { entry in
            guard entry.event == .problem else { return }
            writeUnbuffered("problem: \(entry.summary.replacingOccurrences(of: "\n", with: " "))\n")
          }))
    } catch {
      writeUnbuffered("problem: \(error)\n", to: 2)
      return 2
    }
    control.listen()
    var done = 0
    while !control.isStopped {
      if done % 10 == 0 { manager.appLaunched() }
      control.setRecordingEvent(true)
      manager.significantEvent(name, mayPrompt: false)
      control.setRecordingEvent(false)
      done += 1
      writeUnbuffered("\(done)\n")
    }
    return 0
  }
}
