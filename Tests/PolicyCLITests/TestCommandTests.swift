import Foundation
import PolicyCore
import Testing

@testable import PolicyCLI
@testable import PolicyTools

/// `policyc test`: exact output, exit codes and errors.
@Suite("policyc test")
struct TestCommandTests {
  static let policy = """
    never answered when declined or rated
    never too_soon when since(last_prompt) < 8w
    ask loyal when days >= 30 and uses >= 20

    """

  func run(_ tests: String, arguments: [String] = [], policy: String = TestCommandTests.policy) -> RunResult {
    runPolicyc(["test"] + arguments + ["dir/p.test.json"], files: ["dir/p.policy": policy, "dir/p.test.json": tests])
  }

  static let passing = """
    {"policy": "p.policy", "now": "2026-03-01T00:00:00Z", "cases": [
      {"name": "loyal", "facts": {"days": 31, "uses": 25}, "expect": "ask", "deciding": ["loyal"]},
      {"name": "new", "facts": {"days": 1, "uses": 2}, "expect": "dont_ask"},
      {"name": "history", "history": ["launch x 21 every 2d", "prompt -> remind", "wait 1w", "prompt"],
       "expect": "dont_ask", "deciding": ["too_soon"], "prompts": 1}
    ]}
    """

  @Test("one line per case, then the total; exit 0 when every case passes")
  func passing() {
    #expect(
      run(TestCommandTests.passing)
        == RunResult(
          status: 0, standardOutput: "PASS  loyal\nPASS  new\nPASS  history\n3 passed, 0 failed\n", standardError: ""))
  }

  @Test("a case's fact the policy never reads is a warning in the test file; impossible facts are an error")
  func factsCheckedAgainstTheSchema() {
    let unread = """
      {"policy": "p.policy", "cases": [
        {"name": "lifetime", "facts": {"days": 31, "uses": 25, "total_days": 40}, "expect": "ask"}
      ]}
      """
    let result = run(unread, arguments: ["--no-color"])
    #expect(result.status == 0)
    #expect(result.standardOutput == "PASS  lifetime\n1 passed, 0 failed\n")
    #expect(
      result.standardError.hasPrefix("dir/p.test.json:2:58: warning: the policy never reads `total_days` [PC409]"))
    let impossible = """
      {"policy": "p.policy", "cases": [
        {"name": "impossible", "facts": {"days": 31, "uses": 25, "total_uses": 20}, "expect": "ask"}
      ]}
      """
    let failing = run(impossible, arguments: ["--no-color"])
    #expect(failing.status == 1)
    #expect(failing.standardError.contains("error: `uses` (25) is more than `total_uses` (20) [PC410]"))
  }

  @Test("a failing case says what was expected and what happened; exit 1")
  func failing() {
    let tests = """
      {"policy": "p.policy", "now": "2026-03-01T00:00:00Z", "cases": [
        {"name": "wrong decision", "facts": {"days": 31, "uses": 25}, "expect": "dont_ask"},
        {"name": "wrong rule", "facts": {"days": 31, "uses": 25, "declined": true}, "expect": "dont_ask", "deciding": ["too_soon"]},
        {"name": "wrong prompt count", "history": ["launch x 21 every 2d", "prompt -> decline"], "expect": "dont_ask", "prompts": 2}
      ]}
      """
    let result = run(tests)
    #expect(result.status == 1)
    // Each failure names where its expectation is, and a history case traces its steps.
    #expect(
      result.standardOutput == """
        FAIL  wrong decision: expected don't ask, got ask: `ask loyal` held
              at dir/p.test.json:2:75
        FAIL  wrong rule: expected don't ask (`too_soon`), got don't ask: `never answered` held
              at dir/p.test.json:3:89
        FAIL  wrong prompt count: expected don't ask, 2 prompts, got don't ask: `never answered`, `never too_soon` held, 1 prompt
              at dir/p.test.json:4:102
              history:
                1. "launch x 21 every 2d": no prompt
                2. "prompt -> decline": 1 prompt (`loyal`)
                then a fresh check: don't ask: `never answered`, `never too_soon` held
        0 passed, 3 failed

        """)
  }

  @Test("--coverage lists rules that never decided and conditions that never held or failed")
  func coverage() {
    let result = run(TestCommandTests.passing, arguments: ["--coverage"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        PASS  loyal
        PASS  new
        PASS  history
        coverage of dir/p.policy: 2 of 3 rules decided a case; 2 of 5 conditions both held and failed
          dir/p.policy:1: rule `never answered` never held
          dir/p.policy:1:21: `declined` never held
          dir/p.policy:1:33: `rated` never held
          dir/p.policy:3:31: `uses >= 20` never failed
        3 passed, 0 failed

        """)
  }

  @Test("--format json")
  func json() throws {
    let result = run(TestCommandTests.passing, arguments: ["--format", "json"])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["passed"] as? Int == 3)
    #expect(object["failed"] as? Int == 0)
    let files = try #require(object["files"] as? [[String: Any]])
    #expect((files.first?["cases"] as? [[String: Any]])?.count == 3)
  }

  @Test(
    "errors in a test file are located and reported, each once; exit 1",
    arguments: [
      (
        #"{"policy": "p.policy", "cases": [{"name": "a", "facts": {}, "expects": "ask"}]}"#,
        ["dir/p.test.json:1:61: error: unknown key `expects` in a test case [PC402]", "help: did you mean `expect`?"]
      ),
      (
        #"{"policy": "p.policy", "cases": [{"name": "a", "history": ["lauch x 3"], "expect": "ask"}]}"#,
        ["error: unknown history step `lauch x 3` [PC406]", "help: did you mean `launch`?"]
      ),
      (
        #"{"policy": "p.policy", "cases": [{"name": "a", "facts": {"dayz": 1}, "expect": "ask"}]}"#,
        ["error: unknown fact `dayz` [PC403]"]
      ),
      (
        #"{"policy": "p.policy", "cases": [{"name": "a", "facts": {}, "expect": "ask", "deciding": ["loyl"]}]}"#,
        ["error: the policy has no rule named `loyl` [PC402]", "help: did you mean `loyal`?"]
      ),
      (
        #"{"policy": "p.policy", "cases": [{"name": "a", "facts": {"days": 3}, "history": ["launch"], "expect": "ask"}]}"#,
        ["error: a history case computes `days` from its history [PC402]"]
      ),
      (#"{"policy": "p.policy", "cases": []}"#, ["error: the test file has no cases [PC402]"]),
      (
        #"{"cases": [1]"#, ["dir/p.test.json:1:14: error: expected `,` or `}` in the object, found end of file [PC401]"]
      ),
    ])
  func fileErrors(_ tests: String, _ expected: [String]) {
    let result = run(tests)
    #expect(result.status == 1, "\(result)")
    // One mistake, one diagnostic, then the summary: no pass/fail count that reads like success.
    #expect(
      result.standardError.components(separatedBy: "error:").count - 1
        == expected.filter { $0.contains("error:") }.count + 1, "\(result.standardError)")
    #expect(
      result.standardError.hasSuffix(
        "policyc test: error: 1 test file could not be read or run; its cases did not run (see above)\n"))
    #expect(result.standardOutput == "")
    for line in expected {
      #expect(result.standardError.contains(line), "missing `\(line)` in\n\(result.standardError)")
    }
  }

  @Test("a missing policy is a located error, exit 2; a policy with errors shows them, exit 1")
  func policyProblems() {
    let missing = runPolicyc(
      ["test", "dir/p.test.json"],
      files: ["dir/p.test.json": #"{"policy": "gone.policy", "cases": [{"name": "a", "facts": {}, "expect": "ask"}]}"#])
    #expect(missing.status == 2)
    #expect(missing.standardError.hasPrefix("dir/p.test.json:1:12: error: cannot read the policy `gone.policy`"))
    let broken = run(
      #"{"policy": "p.policy", "cases": [{"name": "a", "facts": {}, "expect": "ask"}]}"#, policy: "ask when dayz > 1\n")
    #expect(broken.status == 1)
    #expect(broken.standardError.contains("dir/p.policy:1:10: error: unknown name `dayz` [PC201]"))
    #expect(broken.standardError.contains("error: the policy `p.policy` has errors [PC407]"))
  }

  @Test("a folder runs every .test.json in it; usage errors exit 2")
  func foldersAndUsage() {
    let result = runPolicyc(
      ["test", "dir"], files: ["dir/p.policy": TestCommandTests.policy, "dir/p.test.json": TestCommandTests.passing])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasSuffix("3 passed, 0 failed\n"))
    #expect(runPolicyc(["test"]).status == 2)
    #expect(runPolicyc(["test", "--format", "xml", "a"]).status == 2)
    #expect(runPolicyc(["test", "missing.test.json"]).status == 2)
  }

  @Test("history steps parse with repeats, intervals and answers, and reject mistakes")
  func historySteps() {
    let range = PolicyCore.SourceRange(start: 0, end: 1)
    guard case .success(let step) = HistoryStep.parse("event export x 3 every 1d 12h -> remind", range: range) else {
      Issue.record("should parse")
      return
    }
    #expect(step.repetitions == 3)
    #expect(step.every == TimeSpan(milliseconds: 129_600_000))
    #expect(step.answer == .remindLater)
    if case .event(let name) = step.action { #expect(name == "export") } else { Issue.record("not an event") }
    for bad in ["wait", "wait soon", "action", "action 5 great", "prompt -> maybe", "launch x 0", "update", "dance"] {
      if case .success = HistoryStep.parse(bad, range: range) { Issue.record("`\(bad)` should not parse") }
    }
  }

  @Test("the shipped example tests pass")
  func examples() throws {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples")
    let tests = try String(contentsOf: examples.appendingPathComponent("review.test.json"), encoding: .utf8)
    let policy = try String(contentsOf: examples.appendingPathComponent("review.policy"), encoding: .utf8)
    let result = runPolicyc(["test", "review.test.json"], files: ["review.test.json": tests, "review.policy": policy])
    #expect(result.status == 0, "\(result)")
    #expect(result.standardOutput.hasSuffix("12 passed, 0 failed\n"))
  }
}

/// `policyc test`: failures that explain themselves, and answers that cannot be given.
@Suite("policyc test: explanations")
struct TestCommandExplanationTests {
  func run(_ tests: String) -> RunResult {
    runPolicyc(
      ["test", "dir/p.test.json"], files: ["dir/p.policy": TestCommandTests.policy, "dir/p.test.json": tests])
  }

  @Test("an answer on a step that shows no prompt is an error at the step")
  func answerWithoutPrompt() {
    let tests = """
      {"policy": "p.policy", "cases": [
        {"name": "early", "history": ["launch", "prompt -> rate"], "expect": "dont_ask"}
      ]}
      """
    let result = run(tests)
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        "dir/p.test.json:2:43: error: step 2 `prompt -> rate` answers a prompt, but no prompt showed [PC406]\n"),
      "\(result.standardError)")
    #expect(result.standardError.contains("help: the policy did not ask here (now: don't ask: no ask rule held)"))
  }

  @Test("--format json: a failing case has its line, column and trace; broken files are counted")
  func json() throws {
    let tests = """
      {"policy": "p.policy", "cases": [
        {"name": "h", "history": ["launch x 21 every 2d", "prompt -> decline"], "expect": "ask"}
      ]}
      """
    let result = runPolicyc(
      ["test", "--format", "json", "dir/p.test.json"],
      files: ["dir/p.policy": TestCommandTests.policy, "dir/p.test.json": tests])
    #expect(result.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["brokenFiles"] as? Int == 0)
    let files = try #require(object["files"] as? [[String: Any]])
    let failing = try #require((files.first?["cases"] as? [[String: Any]])?.first)
    #expect(failing["line"] as? Int == 2)
    #expect(failing["column"] as? Int == 85)
    #expect(
      failing["trace"] as? [String] == [
        "1. \"launch x 21 every 2d\": no prompt", "2. \"prompt -> decline\": 1 prompt (`loyal`)",
        "then a fresh check: don't ask: `never answered`, `never too_soon` held",
      ])
  }

  @Test("a broken file in a folder with a good one: the good one's count, then the error summary")
  func mixedFiles() {
    let result = runPolicyc(
      ["test", "dir"],
      files: [
        "dir/p.policy": TestCommandTests.policy, "dir/a.test.json": TestCommandTests.passing,
        "dir/b.test.json": #"{"policy": "p.policy", "cases": []}"#,
      ])
    #expect(result.status == 1)
    #expect(result.standardOutput.hasSuffix("3 passed, 0 failed\n"))
    #expect(
      result.standardError.hasSuffix(
        "policyc test: error: 1 test file could not be read or run; its cases did not run (see above)\n"))
  }
}

/// `policyc test` with a policy that declares its events.
@Suite("policyc test: declared events")
struct TestCommandEventTests {
  @Test("a history step recording an event the policy does not declare is an error at the step")
  func undeclaredEventStep() {
    let policy = "event export\nask loyal when events(\"export\") >= 3\n"
    let tests = #"{"policy": "p.policy", "cases": [{"name": "a", "history": ["event exprt x 3"], "expect": "ask"}]}"#
    let result = runPolicyc(["test", "dir/p.test.json"], files: ["dir/p.policy": policy, "dir/p.test.json": tests])
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        "dir/p.test.json:1:60: error: the policy does not declare the event `exprt` [PC406]\n"),
      "\(result.standardError)")
    #expect(result.standardError.contains("help: did you mean `export`?"))
  }
}
