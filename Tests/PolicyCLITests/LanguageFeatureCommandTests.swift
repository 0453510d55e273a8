import Foundation
import Testing

@testable import PolicyCLI
@testable import PolicyCore

/// Fact defaults and `bucket("name")` through the tools: eval, explain, test, simulate, analyze.
@Suite("policyc: fact defaults and buckets")
struct LanguageFeatureCommandTests {
  static let policy = """
    fact plan: string = "free"
    never answered when declined or rated
    ask rollout when bucket("new-ask") < 10 and plan == "free"

    """

  /// A seed whose `new-ask` bucket is below 10, and one whose bucket is not.
  static let (inside, outside): (UInt64, UInt64) = {
    let seeds = UInt64(1)...UInt64(10_000)
    return (
      seeds.first { Bucket.value(seed: $0, name: "new-ask") < 10 } ?? 0,
      seeds.first { Bucket.value(seed: $0, name: "new-ask") >= 10 } ?? 0
    )
  }()

  func eval(_ facts: String, command: String = "eval") -> RunResult {
    runPolicyc([command, "p.policy", "--facts", "f.json"], files: ["p.policy": Self.policy, "f.json": facts])
  }

  @Test("eval reads `seed` (or `install_seed`) and uses the declared default of `plan`")
  func evalSeed() {
    let asks = eval(#"{"now": "2026-03-01T12:00:00Z", "seed": \#(Self.inside)}"#)
    #expect(asks.status == 0)
    #expect(
      asks.standardOutput.hasPrefix(
        "decision: ask: `ask rollout` held\nnow: 2026-03-01T12:00:00Z\nseed: \(Self.inside)\n"))
    #expect(asks.standardOutput.contains("`plan` = \"free\""), "\(asks.standardOutput)")
    let skips = eval(#"{"now": "2026-03-01T12:00:00Z", "install_seed": \#(Self.outside)}"#)
    #expect(skips.standardOutput.hasPrefix("decision: don't ask: no ask rule held\n"), "\(skips.standardOutput)")
    let bad = eval(#"{"seed": "twelve"}"#)
    #expect(bad.status != 0)
    #expect((bad.standardOutput + bad.standardError).contains("`seed` must be an integer"), "\(bad)")
  }

  @Test("explain shows the bucket's value and marks the unneeded `or` branch")
  func explainBucket() {
    let value = Bucket.value(seed: Self.outside, name: "new-ask")
    let result = eval(#"{"now": "2026-03-01T12:00:00Z", "seed": \#(Self.outside)}"#, command: "explain")
    #expect(result.standardOutput.contains("bucket(\"new-ask\") = \(value)"), "\(result.standardOutput)")
  }

  @Test("test files take a seed in facts cases and in history cases")
  func testFiles() {
    let tests = """
      {"policy": "p.policy", "now": "2026-03-01T00:00:00Z", "cases": [
        {"name": "in", "facts": {"seed": \(Self.inside)}, "expect": "ask"},
        {"name": "out", "facts": {"seed": \(Self.outside)}, "expect": "dont_ask"},
        {"name": "history in", "facts": {"seed": \(Self.inside)}, "history": ["launch"], "expect": "ask"},
        {"name": "history out", "facts": {"seed": \(Self.outside)}, "history": ["launch"], "expect": "dont_ask"}
      ]}
      """
    let result = runPolicyc(["test", "p.test.json"], files: ["p.policy": Self.policy, "p.test.json": tests])
    #expect(result.status == 0, "\(result)")
    #expect(result.standardOutput.hasSuffix("4 passed, 0 failed\n"), "\(result.standardOutput)")
  }

  @Test("simulate gives each user a seed: a 10% rollout asks about 10% of users; defaults need no note")
  func simulateRollout() throws {
    let policy = "fact plan: string = \"free\"\nask when bucket(\"new-ask\") < 10 and plan == \"free\"\n"
    let run = simulate(["r.policy", "--users", "2000", "--days", "3", "--seed", "5"], files: ["r.policy": policy])
    #expect(run.result.status == 0, "\(run.result)")
    #expect(run.result.standardError == "")
    let line = try #require(run.result.standardOutput.split(separator: "\n").first { $0.hasPrefix("users asked ") })
    let count = try #require(Int(line.split(separator: "(").last?.dropLast() ?? ""))
    #expect((160...240).contains(count), "\(line)")
    // Reproducible: the same seed, the same report.
    let again = simulate(["r.policy", "--users", "2000", "--days", "3", "--seed", "5"], files: ["r.policy": policy])
    #expect(again.result.standardOutput == run.result.standardOutput)
  }
}
