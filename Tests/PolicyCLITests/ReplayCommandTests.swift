import Foundation
import PolicyCore
import PolicyTools
import Testing

@testable import PolicyCLI

/// `policyc replay`, fed by `policyc simulate --records`.
@Suite("policyc replay")
struct ReplayCommandTests {
  static let policy = """
    ask new when bucket("new") < 50 and days >= 3 and uses >= 3
    ask old when days >= 10 and uses >= 8
    never capped when total_prompts >= 2

    """

  static let other = """
    ask later when days >= 7 and uses >= 5

    """

  /// A memory file system with both policies and the records of 150 simulated users.
  static func simulated() -> MemoryIO {
    let io = MemoryIO()
    io.addFile("two.policy", policy)
    io.addFile("other.policy", other)
    let result = io.run(["simulate", "two.policy", "--users", "150", "--days", "60", "--records", "r.jsonl"])
    #expect(result.status == 0, "\(result)")
    return io
  }

  /// Runs `arguments` on a fresh memory I/O holding `io`'s files (its streams start empty).
  static func run(_ arguments: [String], on io: MemoryIO) -> RunResult {
    let fresh = MemoryIO()
    for (path, bytes) in io.files { fresh.addFile(path, bytes: bytes) }
    return fresh.run(arguments)
  }

  @Test("simulate --records writes a manager's records; replay under the producing policy decides every check the same")
  func replaySameAndOther() throws {
    let io = Self.simulated()
    let records = String(decoding: try #require(io.files["r.jsonl"]), as: UTF8.self)
    let lines = records.split(separator: "\n")
    #expect(lines.count > 1000)
    #expect(lines.allSatisfy { $0.hasPrefix(#"{"schema":1,"install":""#) })
    let result = Self.run(["replay", "two.policy", "other.policy", "--records", "r.jsonl"], on: io)
    #expect(result.status == 0, "\(result)")
    #expect(result.standardError == "")
    let out = result.standardOutput
    #expect(out.hasPrefix("replayed \(SimulationFormat.grouped(lines.count)) records of 150 installs"))
    // Under its own policy every check is decided as it was; the other policy differs.
    let checks = try #require(out.firstMatch(of: /\((\d[\d,]*) prompt checks\)/)).1
    #expect(
      out.contains(
        "two.policy against what happened:\n  prompt checks decided the same: \(checks) of \(checks) (100.0%)\n  asked where the app did not: 0\n  did not ask where the app did: 0\n"
      ))
    #expect(out.contains("other.policy against what happened:\n  prompt checks decided the same: "))
    #expect(!out.contains("other.policy against what happened:\n  prompt checks decided the same: \(checks) of"))

    let json = Self.run(["replay", "two.policy", "--records", "r.jsonl", "--format", "json"], on: io)
    #expect(json.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["installs"] as? Int == 150)
    let policies = try #require(object["policies"] as? [[String: Any]])
    let comparison = try #require(policies.first?["comparison"] as? [String: Any])
    #expect(comparison["askedInstead"] as? Int == 0 && comparison["didNotAsk"] as? Int == 0)
    #expect(comparison["sameDecisions"] as? Int == object["checks"] as? Int)
  }

  @Test("--shard i/n parts merged with report --merge give the whole read-out and replay, byte for byte, for any n")
  func shardedThenMerged() {
    let io = Self.simulated()
    let wholeReport = Self.run(["report", "r.jsonl", "--policy", "two.policy", "--format", "json"], on: io)
    let wholeReplay = Self.run(["replay", "two.policy", "other.policy", "--records", "r.jsonl"], on: io)
    #expect(wholeReport.status == 0 && wholeReplay.status == 0)
    for count in [1, 2, 3, 7] {
      let parts = MemoryIO()
      for (path, bytes) in io.files { parts.addFile(path, bytes: bytes) }
      var reportParts: [String] = []
      var replayParts: [String] = []
      // The parts in a shuffled order: merging does not depend on it.
      for index in (1...count).reversed() {
        let report = Self.run(["report", "r.jsonl", "--policy", "two.policy", "--shard", "\(index)/\(count)"], on: io)
        let replay = Self.run(
          ["replay", "two.policy", "other.policy", "--records", "r.jsonl", "--shard", "\(index)/\(count)"], on: io)
        #expect(report.status == 0 && replay.status == 0)
        #expect(report.standardOutput.hasPrefix(#"{"partial":"report","version":1,"shard":"\#(index)/\#(count)""#))
        parts.addFile("report-\(index).json", report.standardOutput)
        parts.addFile("replay-\(index).json", replay.standardOutput)
        reportParts.append("report-\(index).json")
        replayParts.append("replay-\(index).json")
      }
      let mergedReport = Self.run(["report", "--merge", "--format", "json"] + reportParts, on: parts)
      #expect(mergedReport == wholeReport, "\(count) shards")
      let mergedReplay = Self.run(["report", "--merge"] + replayParts, on: parts)
      #expect(mergedReplay == wholeReplay, "\(count) shards")
      if count > 1 {
        // A part missing or given twice, or parts of both kinds, is PC412 and exit 1.
        let missing = Self.run(["report", "--merge"] + reportParts.dropLast(), on: parts)
        #expect(missing.status == 1 && missing.standardError.contains("error: missing shard 1/\(count) [PC412]"))
        let twice = Self.run(["report", "--merge"] + reportParts + [reportParts[0]], on: parts)
        #expect(twice.status == 1 && twice.standardError.contains("is given twice [PC412]"))
        let mixed = Self.run(["report", "--merge", reportParts[0]] + replayParts.dropFirst(), on: parts)
        #expect(mixed.status == 1 && mixed.standardError.contains("among parts of `policyc report` [PC412]"))
      }
    }
    #expect(Self.run(["report", "r.jsonl", "--shard", "0/3"], on: io).status == 2)
    #expect(Self.run(["report", "r.jsonl", "--shard", "2/3", "--format", "json"], on: io).status == 2)
    #expect(Self.run(["report", "--merge", "--sql"], on: io).status == 2)
    #expect(Self.run(["replay", "two.policy", "--records", "r.jsonl", "--shard", "4/3"], on: io).status == 2)
    #expect(Self.run(["report", "--merge", "two.policy"], on: io).standardError.contains("[PC401]"))
  }

  @Test("usage errors exit 2; a line that is not a record is located, counted and exits 1")
  func errors() {
    let io = Self.simulated()
    #expect(Self.run(["replay", "two.policy"], on: io).status == 2)
    #expect(Self.run(["replay", "--records", "r.jsonl"], on: io).status == 2)
    #expect(Self.run(["replay", "a.policy", "b.policy", "c.policy", "--records", "r.jsonl"], on: io).status == 2)
    #expect(Self.run(["replay", "two.policy", "--records", "r.jsonl", "--prompt-timeout", "x"], on: io).status == 2)
    #expect(Self.run(["replay", "two.policy", "--records", "missing.jsonl"], on: io).status == 1)
    io.addFile(
      "bad.jsonl",
      #"{"schema":1,"install":"a","time":"2026-01-01T00:00:00Z","event":"launch","app":"1.0"}"# + "\n{\"schema\":1,\n")
    let bad = Self.run(["replay", "two.policy", "--records", "bad.jsonl"], on: io)
    #expect(bad.status == 1)
    #expect(bad.standardError.hasPrefix("bad.jsonl:2:"))
    #expect(
      bad.standardOutput.hasPrefix(
        "replayed 1 records of 1 installs (0 prompt checks) from 1 file; 1 lines are not records"))
  }
}
