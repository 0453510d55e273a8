import Foundation
import PolicyCore
import PolicyTools
import Testing

@testable import PolicyCLI

/// `policyc simulate --fit`: a behaviour file from records, which `simulate --behaviour` runs.
@Suite("policyc simulate --fit")
struct SimulateFitCommandTests {
  static let policy = """
    never too_soon when since(last_prompt) < 4w
    ask when total_days >= 3

    """

  @Test("records of 300 simulated users give a behaviour file that simulate runs; notes on standard error")
  func fitThenSimulate() throws {
    let io = MemoryIO()
    io.addFile("p.policy", Self.policy)
    let simulated = io.run(["simulate", "p.policy", "--users", "300", "--days", "60", "--records", "r.jsonl"])
    #expect(simulated.status == 0, "\(simulated)")
    let lines = String(decoding: try #require(io.files["r.jsonl"]), as: UTF8.self).split(separator: "\n").count

    let fitted = ReplayCommandTests.run(["simulate", "--fit", "r.jsonl"], on: io)
    #expect(fitted.status == 0, "\(fitted)")
    #expect(
      fitted.standardError.hasPrefix(
        "policyc simulate: note: fitted 300 installs over 60 days from \(SimulationFormat.grouped(lines)) records ("))
    #expect(
      fitted.standardError.contains("policyc simulate: note: records carry no fact values: give `facts` by hand\n"))
    let object = try JSONSerialization.jsonObject(with: Data(fitted.standardOutput.utf8))
    let file = try #require(object as? [String: Any])
    #expect(
      Set(file.keys) == [
        "events", "releaseEvery", "sessionsPerDay", "answers", "heavyShare", "heavyOpenRate", "lightOpenRate",
        "badSessions",
      ])
    #expect(file["releaseEvery"] as? Int == 30)
    #expect((file["events"] as? [String: Double])?.keys.sorted() == ["export"])

    // `--output` writes the same file, and a simulation runs on it.
    io.addFile("r2.jsonl", bytes: try #require(io.files["r.jsonl"]))
    let written = ReplayCommandTests.run(["simulate", "--fit", "r2.jsonl", "--output", "fitted.json"], on: io)
    #expect(written.status == 0 && written.standardOutput == "", "\(written)")
    let onFile = MemoryIO()
    onFile.addFile("p.policy", Self.policy)
    onFile.addFile("fitted.json", fitted.standardOutput)
    let rerun = onFile.run(["simulate", "p.policy", "--behaviour", "fitted.json", "--users", "50", "--days", "30"])
    #expect(rerun.status == 0, "\(rerun)")
    #expect(rerun.standardOutput.contains("users asked"))
  }

  @Test("usage: no records is exit 2; simulation options with --fit are exit 2; no records in the file is exit 1")
  func usage() {
    let io = MemoryIO()
    io.addFile("empty.jsonl", "")
    let none = io.run(["simulate", "--fit"])
    #expect(none.status == 2)
    #expect(none.standardError.contains("give the records with `--fit <file>...`"))
    let mixed = ReplayCommandTests.run(["simulate", "--fit", "empty.jsonl", "--users", "5"], on: io)
    #expect(mixed.status == 2)
    #expect(mixed.standardError.contains("`--fit` takes only records files and `--output FILE`, not `--users`"))
    let empty = ReplayCommandTests.run(["simulate", "--fit", "empty.jsonl"], on: io)
    #expect(empty.status == 1)
    #expect(empty.standardError.contains("no records in `empty.jsonl`: nothing to fit"))
    #expect(empty.standardOutput == "")
  }
}
