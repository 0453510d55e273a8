import Foundation
import PolicyAnalysis
import ReviewAnalysis
import Testing

@testable import PolicyCLI

/// Runs `policyc analyze arguments` (the command's function) with `files`.
func runAnalyze(_ arguments: [String], files: [String: String] = [:]) -> RunResult {
  let io = MemoryIO()
  for (path, text) in files { io.addFile(path, text) }
  let status = AnalyzeCommand.run(arguments, io: io)
  return RunResult(status: status, standardOutput: io.standardOutput, standardError: io.standardError)
}

/// Runs `policyc diff arguments` (the command's function) with `files`.
func runDiff(_ arguments: [String], files: [String: String] = [:]) -> RunResult {
  let io = MemoryIO()
  for (path, text) in files { io.addFile(path, text) }
  let status = DiffCommand.run(arguments, io: io)
  return RunResult(status: status, standardOutput: io.standardOutput, standardError: io.standardError)
}

/// A JSON object from text.
func jsonObject(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

let politeRules = """
  never answered when declined or rated
  never too_soon when since(last_prompt) < 8w
  never yearly_cap when prompts_within(365d) >= 3

  """

@Suite("policyc analyze")
struct AnalyzeCommandTests {
  @Test("text output: every warning with its source line and advice, then a summary; exit 1")
  func text() {
    let result = runAnalyze(["a.policy"], files: ["a.policy": "ask loyal when days >= 30 and days > 10\n"])
    #expect(result.status == 1)
    #expect(result.standardError == "")
    #expect(
      result.standardOutput == """
        a.policy:1:1: warning: ask rule `loyal` can ask a user who declined or rated this version [PC320]
         1 | ask loyal when days >= 30 and days > 10
           | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        help: for example when `days` = 30, `declined` = true
        help: respect the answer, as `never answered when declined or rated` does
        help: a user's history that gets here, as a `policyc test` case: {"name":"PC320: ask rule `loyal` can ask a user who declined or rated this version","start":"2025-12-02T00:00:00Z","version":"1.0","history":["end session","wait 4w 1d","unprompted -> decline","wait 1d"],"expect":"ask","deciding":["loyal"],"prompts":0}
        a.policy:1:1: warning: ask rule `loyal` can ask again within 7 days of the last prompt [PC321]
         1 | ask loyal when days >= 30 and days > 10
           | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        help: for example when `days` = 30, the last prompt was 1d ago
        help: wait at least 7 days after a prompt, as `never too_soon when since(last_prompt) < 8w` does
        help: a user's history that gets here, as a `policyc test` case: {"name":"PC321: ask rule `loyal` can ask again within 7 days of the last prompt","start":"2025-12-02T00:00:00Z","version":"1.0","history":["end session","wait 4w 1d","shown -> unknown","wait 1d"],"expect":"ask","deciding":["loyal"],"prompts":1}
        a.policy:1:1: warning: ask rule `loyal` can ask after 3 prompts in 365 days [PC322]
         1 | ask loyal when days >= 30 and days > 10
           | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        help: for example when `days` = 30, 3 prompts were shown in 365 days, the last 1d ago
        help: no condition of the policy bounds the number of prompts in 365 days
        help: cap the prompts, as `never yearly_cap when prompts_within(365d) >= 3` does
        help: a user's history that gets here, as a `policyc test` case: {"name":"PC322: ask rule `loyal` can ask after 3 prompts in 365 days","start":"2025-12-02T00:00:00Z","version":"1.0","history":["end session","wait 4w 1d","shown x 2 -> unknown","shown -> unknown","wait 1d"],"expect":"ask","deciding":["loyal"],"prompts":3}
        a.policy:1:31: warning: `days > 10` is redundant: `days >= 30` implies it [PC314]
         1 | ask loyal when days >= 30 and days > 10
           |                               ^~~~~~~~~
        help: remove `days > 10`
        analyzed 1 file: 4 warnings

        """)
  }

  @Test("a policy without warnings: exit 0")
  func clean() {
    let result = runAnalyze(["p.policy"], files: ["p.policy": politeRules + "ask loyal when days >= 30\n"])
    #expect(result == RunResult(status: 0, standardOutput: "analyzed 1 file: no problems\n", standardError: ""))
  }

  @Test("the compiler's own warnings are shown and counted too")
  func compilerWarnings() {
    let result = runAnalyze(
      ["p.policy"], files: ["p.policy": politeRules + "let spare = 3\nask loyal when days >= 30\n"])
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("[PC302]"))
    #expect(result.standardOutput.hasSuffix("analyzed 1 file: 1 warning\n"))
  }

  @Test("a policy with errors cannot be analysed: its diagnostics, exit 2")
  func errors() {
    let result = runAnalyze(["bad.policy"], files: ["bad.policy": "ask when dayz > 3\n"])
    #expect(result.status == 2)
    #expect(
      result.standardOutput == """
        bad.policy:1:10: error: unknown name `dayz` [PC201]
         1 | ask when dayz > 3
           |          ^~~~
        help: did you mean `days`?
        analyzed 1 file: 1 error

        """)
  }

  @Test("usage errors: exit 2 with the usage line")
  func usage() {
    for arguments in [[], ["--format", "xml", "a.policy"], ["--bogus", "a.policy"]] {
      let result = runAnalyze(arguments, files: ["a.policy": "ask when days > 3\n"])
      #expect(result.status == 2, "\(arguments)")
      #expect(result.standardOutput == "")
      #expect(result.standardError.hasPrefix("policyc analyze: error: "))
      #expect(result.standardError.hasSuffix(AnalyzeCommand.usage))
    }
    let missing = runAnalyze(["missing.policy"])
    #expect(missing.status == 2)
    #expect(
      missing.standardError == "policyc analyze: error: cannot read `missing.policy`: No such file or directory\n")
  }

  @Test("--help documents the codes, the silencing comment and the exit status")
  func help() {
    let result = runAnalyze(["--help"])
    #expect(result.status == 0)
    #expect(result.standardOutput == AnalyzeCommand.help)
    for text in ["PC310", "PC322", "# policyc: allow PC321", "EXIT STATUS", "10,000 conditions"] {
      #expect(AnalyzeCommand.help.contains(text), "\(text)")
    }
  }

  @Test("a directory stands for its policies, sorted")
  func directory() {
    let result = runAnalyze(
      ["dir"],
      files: [
        "dir/b.policy": politeRules + "ask when days > 3\n", "dir/a.policy": politeRules + "ask when days > 4\n",
        "dir/x.txt": "",
      ])
    #expect(result == RunResult(status: 0, standardOutput: "analyzed 2 files: no problems\n", standardError: ""))
  }

  @Test("silencing comments work in analyze; JSON lists what was silenced")
  func silenced() throws {
    let text =
      "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\n# policyc: allow PC320\nask loyal when days >= 30\n"
    #expect(runAnalyze(["p.policy"], files: ["p.policy": text]).status == 0)
    let json = try jsonObject(runAnalyze(["--format", "json", "p.policy"], files: ["p.policy": text]).standardOutput)
    let file = try #require((json["files"] as? [[String: Any]])?.first)
    let silenced = try #require(file["silenced"] as? [[String: Any]])
    #expect(silenced.count == 1)
    #expect(silenced.first?["code"] as? String == "PC320")
    #expect(silenced.first?["line"] as? Int == 4)
  }

  @Test("a note for a policy too large to analyse, which is not a warning")
  func note() {
    let chain = Array(repeating: "rated", count: 12_000).joined(separator: " and ")
    let result = runAnalyze(["big.policy"], files: ["big.policy": chain + "\n"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput
        == "big.policy: note: the policy is too large to analyse (12001 conditions; the limit is 10000), so no analysis warnings are given\nanalyzed 1 file: no problems\n"
    )
  }

  @Test("JSON: each diagnostic as check writes it, with its example facts, which policyc eval decides as claimed")
  func json() throws {
    let policy = "ask loyal when days >= 30 and days > 10\n"
    let result = runAnalyze(["--format", "json", "a.policy"], files: ["a.policy": policy])
    #expect(result.status == 1)
    let json = try jsonObject(result.standardOutput)
    #expect(json["warningCount"] as? Int == 4)
    #expect(json["errorCount"] as? Int == 0)
    let file = try #require((json["files"] as? [[String: Any]])?.first)
    let diagnostics = try #require(file["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["code"] as? String } == ["PC320", "PC321", "PC322", "PC314"])
    #expect(diagnostics[3]["witness"] is NSNull)
    #expect(diagnostics[3]["column"] as? Int == 31)
    for diagnostic in diagnostics.prefix(3) {
      let witness = try #require(diagnostic["witness"] as? [String: Any])
      #expect(witness["now"] as? String == "2026-01-01T00:00:00Z")
      let facts = String(decoding: try JSONSerialization.data(withJSONObject: witness), as: UTF8.self)
      let io = MemoryIO()
      io.addFile("a.policy", policy)
      io.addFile("facts.json", facts)
      let eval = io.run(["eval", "a.policy", "--facts", "facts.json"])
      #expect(eval.status == 0, "\(eval)")
      #expect(eval.standardOutput.hasPrefix("decision: ask: `ask loyal` held\n"), "\(eval)")
    }
    // Each example's test case passes `policyc test`; the proof (PC314) has none.
    #expect(diagnostics[3]["testCase"] is NSNull)
    for diagnostic in diagnostics.prefix(3) {
      let testCase = try #require(diagnostic["testCase"] as? [String: Any])
      #expect(testCase["expect"] as? String == "ask")
      #expect(testCase["deciding"] as? [String] == ["loyal"])
      let io = MemoryIO()
      io.addFile("a.policy", policy)
      let data = try JSONSerialization.data(withJSONObject: ["policy": "a.policy", "cases": [testCase]])
      io.addFile("a.test.json", bytes: Array(data))
      let run = io.run(["test", "a.test.json"])
      #expect(run.status == 0, "\(run)")
    }
    let first = try #require(diagnostics[0]["witness"] as? [String: Any])
    #expect(first["declined"] as? Bool == true)
    let second = try #require(diagnostics[1]["witness"] as? [String: Any])
    #expect(second["last_prompt"] as? String == "2025-12-31T00:00:00Z")
  }
}

@Suite("policyc diff")
struct AnalyzeDiffCommandTests {
  let files = [
    "old.policy": "ask loyal when days >= 30 and uses >= 20\n",
    "new.policy": "ask loyal when days > 30 and uses >= 20\n",
    "same.policy": "ask loyal when uses > 19 and days > 29\n",
    "mul.policy": "ask when uses * 2 == 7\n",
    "false.policy": "ask when false\n",
    "int.policy": "fact plan: int\nask when plan > 3\n",
    "str.policy": "fact plan: string\nask when plan == \"pro\" and events(\"export\") > 2\n",
    "bad.policy": "ask when dayz > 3\n",
  ]

  @Test("different: the facts file, then each decision; exit 1")
  func different() {
    let result = runDiff(["old.policy", "new.policy"], files: files)
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            old.policy and new.policy decide differently on these facts:
            {
              "now": "2026-01-01T00:00:00Z",
              "days": 30,
              "uses": 20,
              "first_use": "2025-12-02T00:00:00Z",
              "total_days": 30,
              "total_uses": 20,
              "install_date": "2025-12-02T00:00:00Z"
            }
            old.policy: ask: `ask loyal` held
            new.policy: don't ask: no ask rule held
            a user's history that gets here, as a `policyc test` case for new.policy:
            {"name":"asked by old.policy, not asked by new.policy","start":"2025-12-02T00:00:00Z","version":"1.0","history":["end session","foreground x 20","wait 4w 2d"],"expect":"dont_ask","deciding":[],"prompts":0}

            """, standardError: ""))
  }

  @Test("the printed test case, in a test file for the new policy, passes `policyc test`; JSON gives one per policy")
  func counterexampleTestCase() throws {
    for (old, new) in [("old.policy", "new.policy"), ("str.policy", "old.policy"), ("new.policy", "str.policy")] {
      let result = runDiff([old, new], files: files)
      #expect(result.status == 1, "\(result)")
      let lines = result.standardOutput.split(separator: "\n").map(String.init)
      let marker = try #require(lines.firstIndex { $0.hasPrefix("a user's history that gets here") })
      let testCase = lines[marker + 1]
      let io = MemoryIO()
      for (name, text) in files { io.addFile(name, text) }
      io.addFile("new.test.json", "{\"policy\": \"\(new)\", \"cases\": [\(testCase)]}")
      let run = io.run(["test", "new.test.json"])
      #expect(run.status == 0, "\(run)")
      #expect(run.standardOutput.hasPrefix("PASS  "), "\(run)")
      // JSON: each decision with the case for its own policy, which passes there.
      let json = try jsonObject(runDiff(["--format", "json", old, new], files: files).standardOutput)
      for (key, path) in [("oldDecision", old), ("newDecision", new)] {
        let decision = try #require(json[key] as? [String: Any])
        let object = try #require(decision["testCase"] as? [String: Any])
        #expect(object["expect"] as? String == decision["decision"] as? String)
        let data = try JSONSerialization.data(withJSONObject: ["policy": path, "cases": [object]])
        io.addFile("case.test.json", bytes: Array(data))
        #expect(io.run(["test", "case.test.json"]).status == 0, "\(key) of \(old) -> \(new)")
      }
    }
  }

  @Test("the printed facts file, given to policyc eval, makes each policy decide as printed")
  func counterexampleEvaluates() throws {
    for (old, new) in [("old.policy", "new.policy"), ("str.policy", "old.policy"), ("old.policy", "mul.policy")] {
      let result = runDiff([old, new], files: files)
      #expect(result.status == 1, "\(result)")
      let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      let start = try #require(lines.firstIndex(of: "{"))
      let end = try #require(lines.firstIndex(of: "}"))
      let factsText = lines[start...end].joined(separator: "\n")
      let facts = try jsonObject(factsText)
      for (path, marker) in [(old, "\(old): "), (new, "\(new): ")] {
        let expected = try #require(lines.first { $0.hasPrefix(marker) }).dropFirst(marker.count)
        let io = MemoryIO()
        for (name, text) in files { io.addFile(name, text) }
        // Facts the policy does not know are left out, as the note says.
        let known = facts.filter { key, _ in key == "now" || files[path]!.contains(key.components(separatedBy: "(")[0])
        }
        io.addFile("facts.json", bytes: Array(try JSONSerialization.data(withJSONObject: known)))
        let eval = io.run(["eval", path, "--facts", "facts.json"])
        #expect(eval.standardOutput.hasPrefix("decision: \(expected)\n"), "\(eval)")
      }
    }
  }

  @Test("facts only one policy knows get a note")
  func unknownFactsNote() {
    let result = runDiff(["str.policy", "old.policy"], files: files)
    #expect(result.status == 1)
    #expect(
      result.standardOutput.contains(
        "note: old.policy does not know `plan`, `events(\"export\")`; remove them to evaluate old.policy with `policyc eval`\n"
      ))
  }

  @Test("equivalent: exit 0")
  func equivalent() {
    #expect(
      runDiff(["old.policy", "same.policy"], files: files)
        == RunResult(
          status: 0, standardOutput: "old.policy and same.policy decide the same for every set of facts\n",
          standardError: ""))
  }

  @Test("undecided: the reason; exit 3")
  func undecided() {
    #expect(
      runDiff(["mul.policy", "false.policy"], files: files)
        == RunResult(
          status: 3,
          standardOutput:
            "could not decide whether mul.policy and false.policy decide the same: a difference may exist, but no facts that show it were found: the policies use conditions the analysis does not model exactly (such as `uses * 2 == 7`)\n",
          standardError: ""))
  }

  @Test("errors: a fact with two types, a policy with errors, usage; exit 2")
  func errors() {
    #expect(
      runDiff(["int.policy", "str.policy"], files: files)
        == RunResult(
          status: 2, standardOutput: "",
          standardError:
            "policyc diff: error: int.policy and str.policy cannot be compared: fact `plan` is an `int` in the first policy but a `string` in the second\n"
        ))
    let bad = runDiff(["old.policy", "bad.policy"], files: files)
    #expect(bad.status == 2)
    #expect(bad.standardOutput == "")
    #expect(bad.standardError.hasPrefix("bad.policy:1:10: error: unknown name `dayz` [PC201]\n"))
    for arguments in [
      ["old.policy"], ["old.policy", "new.policy", "same.policy"], ["-", "-"],
      ["--format", "yaml", "old.policy", "new.policy"],
    ] {
      let result = runDiff(arguments, files: files)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.standardError.hasSuffix(DiffCommand.usage), "\(arguments)")
    }
    #expect(runDiff(["old.policy", "missing.policy"], files: files).status == 2)
    #expect(runDiff(["--help"]).standardOutput == DiffCommand.help)
  }

  @Test("JSON output for each result")
  func json() throws {
    let different = try jsonObject(
      runDiff(["--format", "json", "old.policy", "new.policy"], files: files).standardOutput)
    #expect(different["result"] as? String == "different")
    let facts = try #require(different["facts"] as? [String: Any])
    #expect(facts["days"] as? Int == 30)
    #expect(facts["now"] as? String == "2026-01-01T00:00:00Z")
    let oldDecision = try #require(different["oldDecision"] as? [String: Any])
    #expect(oldDecision["decision"] as? String == "ask")
    #expect((oldDecision["decidingRules"] as? [[String: Any]])?.first?["name"] as? String == "loyal")
    #expect((different["newDecision"] as? [String: Any])?["decision"] as? String == "dont_ask")
    let same = try jsonObject(runDiff(["--format", "json", "old.policy", "same.policy"], files: files).standardOutput)
    #expect(same["result"] as? String == "equivalent")
    #expect(same["facts"] == nil)
    let unknown = try jsonObject(
      runDiff(["--format", "json", "mul.policy", "false.policy"], files: files).standardOutput)
    #expect(unknown["result"] as? String == "unknown")
    #expect((unknown["reason"] as? String)?.hasPrefix("a difference may exist") == true)
  }

  @Test("the shipped examples: review.policy differs from each library's, and equals itself")
  func examples() throws {
    var texts: [String: String] = [:]
    for name in Examples.names { texts[name] = String(decoding: try Examples.bytes(name), as: UTF8.self) }
    guard texts["review.policy"] != nil else { return }
    #expect(runDiff(["review.policy", "review.policy"], files: texts).status == 0)
    for name in Examples.names where name != "review.policy" {
      let result = runDiff(["review.policy", name], files: texts)
      #expect(result.status == 1, "\(name): \(result)")
    }
  }
}
