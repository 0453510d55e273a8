import Foundation

extension Workloads {
  // MARK: - W9: what ReviewManager adds to an app

  /// The bytes `ReviewManager` adds to a stripped executable, from `Scripts/size-budget.sh` (the
  /// smallest program that creates a manager and records an event, against the same program
  /// without it, both built as a release build does). Run from the repository root.
  func w9() throws -> BenchResult {
    let script = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("Scripts/size-budget.sh")
    guard FileManager.default.fileExists(atPath: script.path) else {
      throw BenchError.disagreement("W9 needs Scripts/size-budget.sh: run policy-bench from the repository root")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["bash", script.path, "--top", "0"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0, let bytes = Workloads.addedBytes(in: text) else {
      throw BenchError.disagreement("Scripts/size-budget.sh failed (exit \(process.terminationStatus)): \(text)")
    }
    let mebibytes = Double(bytes) / 1_048_576
    return BenchResult(
      name: "W9 size ReviewManager adds to an app", value: mebibytes, unit: "MiB", baseline: nil,
      target: "<= 1 MiB", met: bytes <= 1_048_576, allocations: nil)
  }

  /// The byte count of the script's first line, `ReviewManager adds 1,758,560 bytes (...)`.
  static func addedBytes(in output: String) -> Int? {
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("ReviewManager adds ") }) else {
      return nil
    }
    let digits = line.dropFirst("ReviewManager adds ".count).prefix { $0.isNumber || $0 == "," }
    return Int(digits.filter(\.isNumber))
  }
}
