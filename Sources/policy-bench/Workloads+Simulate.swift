// No Foundation here: its `OutputStream` would hide PolicyCLI's.
import PolicyCLI

extension Workloads {
  // MARK: - W5: policyc simulate

  /// `policyc simulate` on Examples/review.policy, timed end to end (compile, simulate on every
  /// core, report), in user-days per second; the median of up to three runs.
  func w5() throws -> BenchResult {
    let users = 10_000
    let days = 365
    let policy = examples.appendingPathComponent("review.policy").path
    let arguments = ["simulate", policy, "--users", "\(users)", "--days", "\(days)", "--format", "json"]
    var rates: [Double] = []
    for _ in 0..<min(samples, 3) {
      let io = QuietIO()
      let start = Measure.now()
      let status = PolicyCLI.run(arguments, io: io)
      let seconds = Double(Measure.now() - start) / 1e9
      guard status == PolicyCLI.success else { throw BenchError.disagreement("simulate failed: \(io.errors)") }
      rates.append(Double(users * days) / seconds)
    }
    let rate = Measure.median(rates)
    let cores = Measure.cores
    return BenchResult(
      name: "W5 simulate review.policy (\(cores) cores)", value: rate / 1e6, unit: "M user-days/s", baseline: nil,
      target: ">= 10 M user-days/s", met: rate >= 10e6, allocations: nil)
  }
}

/// The real file system with the output discarded (standard error is kept for failures).
final class QuietIO: CommandIO {
  /// Reads go to the real process.
  private let system = SystemIO()
  /// What the command wrote to standard error.
  private(set) var errors = ""

  func write(_ text: String, to stream: OutputStream) {
    if stream == .standardError { errors += text }
  }

  func readFile(_ path: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int) {
    try system.readFile(path, limit: limit)
  }

  func readStandardInput(limit: Int) -> (bytes: [UInt8], size: Int) { ([], 0) }

  func isDirectory(_ path: String) -> Bool { system.isDirectory(path) }

  func contentsOfDirectory(_ path: String) throws(FileReadError) -> [String] {
    try system.contentsOfDirectory(path)
  }

  func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileReadError) {
    throw FileReadError(reason: "the benchmark writes no files")
  }

  var environment: [String: String] { [:] }

  var isStandardOutputTerminal: Bool { false }
}
