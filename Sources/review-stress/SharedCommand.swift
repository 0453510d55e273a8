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

/// `review-stress shared`: several processes record into one state file at once, as an app and
/// its extensions do in an App Group container.
///
/// First P `writer` processes make E calls each (significant events named after the writer, and
/// a launch every tenth call) and exit; every total in the file must be exact. Then, with
/// `--kills K`, K rounds start P writers that record without end and kill them all with SIGKILL
/// at a random instant; after each round the file must load, and each writer's count must have
/// grown by what it reported as done, or by one more (the call in flight when it was killed).
struct SharedCommand {
  /// How many writer processes run at once.
  let processes: Int
  /// How many calls each writer makes in the exact round.
  let events: Int
  /// How many rounds of killed writers follow.
  let kills: Int
  /// The seed of the random kill delays.
  let seed: UInt64

  /// Reads the options of `shared`.
  init(arguments: [String]) {
    let options = OptionParser(arguments, command: "shared", valued: ["--processes", "--events", "--kills", "--seed"])
    processes = options.integer("--processes", default: 4, in: 1...64)
    events = options.integer("--events", default: 500, in: 1...10_000_000)
    kills = options.integer("--kills", default: 50, in: 0...1_000_000)
    seed = UInt64(options.integer("--seed", default: Int.random(in: 0...Int(UInt32.max)), in: 0...Int(Int32.max) * 2))
  }

  /// Runs the exact round and the kill rounds; returns the exit status (1 on any violation).
  func run() -> Int32 {
    guard let executable = KillTest.executable() else {
      FileHandle.standardError.write(Data("review-stress: error: cannot find this executable\n".utf8))
      return 2
    }
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "review-shared-\(UUID().uuidString)")
    let file = folder.appendingPathComponent("review-state.json")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      FileHandle.standardError.write(Data("review-stress: error: cannot create `\(folder.path)`\n".utf8))
      return 2
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    var violations: [String] = []

    // The exact round.
    print("shared: \(processes) processes x \(events) calls on `\(file.path)`")
    let start = DispatchTime.now().uptimeNanoseconds
    let writers = (0..<processes).map { index in
      Writer.start(executable: executable, file: file, name: "w\(index)", calls: events)
    }
    for writer in writers {
      let outcome = writer.finish()
      if outcome.status != 0 {
        violations.append("writer \(writer.name) exited with \(outcome.status): \(outcome.errors)")
      }
    }
    let elapsed = seconds(since: start)
    let uses = processes * ((events + 9) / 10)
    switch JSONFileStore(url: file).load() {
    case .loaded(let state):
      let names = (0..<processes).map { state.eventsByName["w\($0)"] ?? 0 }
      print(
        "  events \(grouped(state.totalEvents)) (expected \(grouped(processes * events))), uses \(grouped(state.totalUses)) (expected \(grouped(uses))), per process \(names)"
      )
      if state.totalEvents != processes * events || state.events != processes * events {
        violations.append("\(state.totalEvents) events in the file, expected \(processes * events)")
      }
      if state.totalUses != uses { violations.append("\(state.totalUses) uses in the file, expected \(uses)") }
      if names.contains(where: { $0 != events }) {
        violations.append("per-process counts \(names), expected \(events) each")
      }
    default:
      violations.append("the state file does not load after the exact round")
    }
    print(
      String(
        format: "  %.2f s, %.0f us per call with %d processes contending", elapsed,
        elapsed * 1e6 / Double(processes * (events + events / 10)), processes))

    // The kill rounds.
    if kills > 0 {
      print(
        "shared kill test: \(kills) rounds of \(processes) writers killed with SIGKILL 5-60 ms after starting, seed \(seed)"
      )
      var random = SeededGenerator(seed: seed)
      var base: [String: Int] = [:]
      if case .loaded(let state) = JSONFileStore(url: file).load() { base = state.eventsByName }
      var inFlight = 0
      for round in 1...kills {
        let killers = (0..<processes).map { index in
          Writer.start(executable: executable, file: file, name: "w\(index)", calls: nil)
        }
        usleep(UInt32(Int.random(in: 5_000...60_000, using: &random)))
        for writer in killers { writer.kill() }
        var reported: [String: Int] = [:]
        for writer in killers {
          let outcome = writer.finish()
          reported[writer.name] = outcome.done
          if !outcome.problems.isEmpty {
            violations.append("round \(round): \(writer.name) logged \(outcome.problems)")
          }
        }
        guard case .loaded(let state) = JSONFileStore(url: file).load() else {
          violations.append("round \(round): the state file does not load")
          break
        }
        for (name, done) in reported {
          let grown = (state.eventsByName[name] ?? 0) - (base[name] ?? 0)
          if grown != done && grown != done + 1 {
            violations.append("round \(round): \(name) reported \(done) events done, the file grew by \(grown)")
          }
          if grown == done + 1 { inFlight += 1 }
        }
        let sum = state.eventsByName.values.reduce(0, +)
        if sum != state.totalEvents {
          violations.append("round \(round): named events \(sum) != total \(state.totalEvents)")
        }
        base = state.eventsByName
      }
      print(
        "  \(kills) rounds, \(inFlight) kills landed after a save and before its report (counted once, as they should)")
    }
    for violation in violations.prefix(20) {
      FileHandle.standardError.write(Data("review-stress: \(violation)\n".utf8))
    }
    print(violations.isEmpty ? "shared: every total exact" : "shared: \(violations.count) violations")
    return violations.isEmpty ? 0 : 1
  }

  /// One writer process.
  final class Writer: @unchecked Sendable {
    // @unchecked: used from the one thread that runs the command.
    let name: String
    private let process: Process
    private let reader: PipeReader
    private let errorReader: PipeReader

    private init(name: String, process: Process, reader: PipeReader, errorReader: PipeReader) {
      self.name = name
      self.process = process
      self.reader = reader
      self.errorReader = errorReader
    }

    /// Starts `review-stress writer <file> <name> [calls]`.
    static func start(executable: URL, file: URL, name: String, calls: Int?) -> Writer {
      let process = Process()
      process.executableURL = executable
      process.arguments = ["writer", file.path, name] + (calls.map { [String($0)] } ?? [])
      let output = Pipe()
      let errors = Pipe()
      process.standardOutput = output
      process.standardError = errors
      process.standardInput = FileHandle.nullDevice
      let writer = Writer(
        name: name, process: process, reader: PipeReader(output.fileHandleForReading),
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

    /// Kills the writer with SIGKILL.
    func kill() {
      if process.isRunning { sendSignal(process.processIdentifier, SIGKILL) }
    }

    /// Waits for the writer to end; returns its status, the events it reported done and its problems.
    func finish() -> (status: Int32, done: Int, problems: [String], errors: String) {
      process.waitUntilExit()
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
      return (process.terminationStatus, done, problems, errors)
    }
  }
}

/// `kill(2)`, under a name no method shadows.
private func sendSignal(_ pid: Int32, _ signal: Int32) {
  kill(pid, signal)
}

/// `review-stress writer <state-file> <name> [calls]`: records significant events named `name`
/// (and a launch every tenth call) in a ``JSONFileStore`` shared with other writers, printing how
/// many calls have returned after each one; with `calls`, stops after that many and exits 0.
enum WriterProcess {
  /// Runs the writer; returns its exit status.
  static func run(arguments: [String]) -> Int32 {
    guard arguments.count == 2 || arguments.count == 3 else {
      usageError("`writer` takes a state file, a name and a count")
    }
    let url = URL(fileURLWithPath: arguments[0])
    let name = arguments[1]
    let calls = arguments.count == 3 ? Int(arguments[2]) : nil
    let manager: ReviewManager
    do {
      manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 1000000", appName: "Shared test",
          store: JSONFileStore(url: url), texts: .english,
          logger: { entry in
            guard entry.event == .problem else { return }
            writeUnbuffered("problem: \(entry.summary.replacingOccurrences(of: "\n", with: " "))\n")
          }))
    } catch {
      writeUnbuffered("problem: \(error)\n", to: 2)
      return 2
    }
    var done = 0
    while calls.map({ done < $0 }) ?? true {
      if done % 10 == 0 { manager.appLaunched() }
      manager.significantEvent(name, mayPrompt: false)
      done += 1
      writeUnbuffered("\(done)\n")
    }
    return 0
  }
}
