import Foundation
import PolicyCLI
import PolicyTools
import Testing

@testable import PolicyCore

/// The repository's `Examples/` folder, found from this file's path.
private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Examples")

@Suite("PolicyTools in process")
struct PolicyToolsTests {
  @Test("running Examples/review.test.json in process: every case passes, as `policyc test` says")
  func exampleTests() throws {
    let path = examples.appendingPathComponent("review.test.json").path
    let report = try PolicyTestSuite.run(contentsOf: path).get()
    #expect(report.results.count == 12)
    #expect(report.passed == 12)
    #expect(report.failed == 0)
    #expect(report.results.allSatisfy { $0.line.hasPrefix("PASS  ") })
    let cli = policyc(["test", path])
    #expect(cli.status == 0)
    #expect(cli.output == report.results.map { $0.line + "\n" }.joined() + "12 passed, 0 failed\n")
  }

  @Test("a test file whose policy is missing fails with a located diagnostic in the test file")
  func missingPolicy() {
    let source = SourceFile(
      path: "t.test.json", text: #"{"policy": "nope.policy", "cases": [{"name": "a", "facts": {}, "expect": "ask"}]}"#)
    struct Missing: Error, CustomStringConvertible { var description: String { "gone" } }
    let result = PolicyTestSuite.run(
      source, at: "dir/t.test.json", environment: { _ in .success(.standard) },
      readFile: { path in
        #expect(path == "dir/nope.policy")
        throw Missing()
      })
    guard case .failure(let failure) = result else {
      Issue.record("expected a failure")
      return
    }
    #expect(failure.isUnreadablePolicy)
    #expect(failure.problems.count == 1)
    #expect(failure.problems.first?.diagnostics.first?.message == "cannot read the policy `nope.policy`: gone")
  }

  @Test("a small simulation in process gives the report `policyc simulate` prints, text and JSON")
  func simulation() throws {
    let path = examples.appendingPathComponent("review.policy").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let setup = SimulationSetup(
      users: 200, days: 60, seed: 7,
      policies: [
        SimulationPolicy(
          name: path, text: text, appFacts: [("plan", .string("free")), ("crashed_this_session", .bool(false))],
          defaultedFacts: ["plan", "crashed_this_session"])
      ])
    let report = SimulationReport.simulate(setup)
    #expect(report.policies.count == 1)
    #expect(report.outcome.tallies[0].asks > 0)
    let arguments = ["simulate", path, "--users", "200", "--days", "60", "--seed", "7"]
    let cli = policyc(arguments)
    #expect(cli.status == 0)
    #expect(cli.output == report.text())
    #expect(policyc(arguments + ["--format", "json"]).output == report.json())
    // The same setup gives the same report.
    #expect(SimulationReport.simulate(setup).outcome == report.outcome)
  }

  @Test("the line diff of `fmt --check`")
  func lineDiff() {
    #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n", path: "p") == "")
    #expect(
      LineDiff.unified(old: "a\nb\n", new: "a\nc\n", path: "p")
        == "--- p\n+++ p (formatted)\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
  }

  @Test("the located JSON reader reports the line of a mistake")
  func jsonReader() {
    let source = SourceFile(path: "f.json", text: "{\"a\": 1,\n \"a\": 2}")
    guard case .failure(let failure) = JSONParser.parse(source) else {
      Issue.record("a duplicate key is an error")
      return
    }
    #expect(source.location(of: failure.range.start).line == 2)
  }
}

@Suite("the package's one seeded generator")
struct SeededGeneratorTests {
  @Test("SeededGenerator is SplitMix64: Vigna's reference sequence from state 0, and mix is its output function")
  func reference() {
    var generator = SeededGenerator(seed: 0)
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    var other = SeededGenerator(seed: 12_345)
    let first = other.next()
    #expect(first == SeededGenerator.mix(12_345))
    #expect(other.state == 12_345 &+ SeededGenerator.increment)
  }
}
