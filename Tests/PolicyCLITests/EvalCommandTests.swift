import Foundation
import PolicyCore
import Testing

@testable import PolicyCLI

/// `policyc eval` and `policyc explain`: exact output and exit codes.
@Suite("policyc eval and explain")
struct EvalCommandTests {
  static let policy = """
    fact plan: string
    never answered when declined or rated
    never too_soon when since(last_prompt) < 8w
    ask loyal when days >= 30 and uses >= 20
    ask paying when plan in ["pro", "team"] and events("export") >= 3

    """

  func run(_ arguments: [String], facts: String) -> RunResult {
    runPolicyc(arguments, files: ["p.policy": EvalCommandTests.policy, "f.json": facts])
  }

  @Test("eval: the decision, the deciding rules, `now` and the defaults the policy read")
  func evalAsks() {
    let result = run(
      ["eval", "p.policy", "--facts", "f.json"],
      facts: #"{"now": "2026-03-01T12:00:00Z", "days": 31, "uses": 25, "plan": "pro", "events(\"export\")": 4}"#)
    #expect(
      result
        == RunResult(
          status: 0,
          standardOutput: """
            decision: ask: `ask loyal`, `ask paying` held
            now: 2026-03-01T12:00:00Z
            defaults: `declined` = false, `rated` = false, `last_prompt` = absent

            """, standardError: ""))
  }

  @Test("eval: a never rule decides; --now wins over the file's `now`")
  func evalNever() {
    let result = run(
      ["eval", "p.policy", "--facts", "f.json", "--now", "2026-03-10T00:00:00Z"],
      facts: #"{"now": "2026-03-01T12:00:00Z", "days": 31, "uses": 25, "plan": "free", "last_prompt": "2026-03-01"}"#)
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        decision: don't ask: `never too_soon` held
        now: 2026-03-10T00:00:00Z
        defaults: `declined` = false, `rated` = false, `events("export")` = 0

        """)
  }

  @Test("eval --format json")
  func evalJSON() throws {
    let result = run(
      ["eval", "p.policy", "--facts", "f.json", "--format", "json"],
      facts: #"{"now": "2026-03-01T12:00:00Z", "days": 31, "uses": 25, "plan": "pro"}"#)
    #expect(result.status == 0)
    #expect(
      result.standardOutput
        == #"{"decision":"ask","reason":"askRuleHeld","decidingRules":[{"name":"loyal","kind":"ask","line":4}],"fault":null,"faultCount":0,"now":"2026-03-01T12:00:00Z","defaults":{"declined":"false","rated":"false","last_prompt":"absent","events(\"export\")":"0"}}"#
        + "\n")
    #expect(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) is [String: Any])
  }

  @Test("explain: every rule and condition with the values it saw")
  func explain() {
    let result = run(
      ["explain", "p.policy", "--facts", "f.json"],
      facts: #"{"now": "2026-03-01T12:00:00Z", "days": 12, "uses": 25, "plan": "free"}"#)
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        decision: don't ask: no ask rule held
        never answered (line 2): not held
          failed      declined  declined = false
          failed      rated     rated = false
        never too_soon (line 3): not held
          failed      since(last_prompt) < 8w  since(last_prompt) = infinite
        ask loyal (line 4): not held
          failed      days >= 30  days = 12
          not needed  uses >= 20
        ask paying (line 5): not held
          failed      plan in ["pro", "team"]  plan = "free"
          not needed  events("export") >= 3
        now: 2026-03-01T12:00:00Z
        defaults: `declined` = false, `rated` = false, `last_prompt` = absent, `events("export")` = 0

        """)
  }

  @Test("explain goes on inside a `let`, down to the facts, in text and JSON; an unnamed rule says its line once")
  func explainInsideLets() throws {
    let policy = "let engaged = days >= 14 and uses >= 10\nask when engaged\n"
    let facts = #"{"now": "2026-03-01T12:00:00Z", "days": 12, "uses": 25}"#
    let text = runPolicyc(["explain", "p.policy", "--facts", "f.json"], files: ["p.policy": policy, "f.json": facts])
    #expect(
      text
        == RunResult(
          status: 0,
          standardOutput: """
            decision: don't ask: no ask rule held
            let engaged = false
              failed      days >= 14  days = 12
              not needed  uses >= 10
            ask rule at line 2: not held
              failed      engaged  engaged = false
            now: 2026-03-01T12:00:00Z

            """, standardError: ""))
    let json = runPolicyc(
      ["explain", "p.policy", "--facts", "f.json", "--format", "json"], files: ["p.policy": policy, "f.json": facts])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let lets = try #require(object["lets"] as? [[String: Any]])
    let conditions = try #require(lets.first?["conditions"] as? [[String: Any]])
    #expect(conditions.map { $0["text"] as? String } == ["days >= 14", "uses >= 10"])
    #expect(conditions.map { $0["status"] as? String } == ["failed", "not_needed"])
    #expect((conditions[0]["operands"] as? [[String: Any]])?.first?["value"] as? String == "12")
    #expect((lets.first?["reads"] as? [Any])?.isEmpty == true)
  }

  @Test("a facts key naming an event the policy does not declare, or the app does not record, is PC217 at the key")
  func unknownEventInFacts() {
    let declared = "event purchase\nask when events(\"purchase\") >= 1\n"
    let facts = #"{"events(\"share\")": 3, "events(\"purchas\")": 1}"#
    let result = runPolicyc(["eval", "p.policy", "--facts", "f.json"], files: ["p.policy": declared, "f.json": facts])
    #expect(result.status == 1)
    #expect(
      result.standardError == #"""
        f.json:1:2: error: unknown event `share` [PC217]
         1 | {"events(\"share\")": 3, "events(\"purchas\")": 1}
           |  ^~~~~~~~~~~~~~~~~~~
        help: the policy declares the events `purchase`; no user of it can have `share` events
        f.json:1:26: error: unknown event `purchas` [PC217]
         1 | {"events(\"share\")": 3, "events(\"purchas\")": 1}
           |                          ^~~~~~~~~~~~~~~~~~~~~
        help: did you mean `purchase`?
        help: the policy declares the events `purchase`; no user of it can have `purchas` events

        """#)
    // Without `event`, the app's names (`--events`) say which events exist.
    let undeclared = runPolicyc(
      ["eval", "p.policy", "--facts", "f.json", "--events", "purchase,export"],
      files: ["p.policy": "ask when events(\"purchase\") >= 1\n", "f.json": #"{"events(\"exprt\")": 3}"#])
    #expect(undeclared.status == 1)
    #expect(undeclared.standardError.contains("f.json:1:2: error: unknown event `exprt` [PC217]"))
    #expect(undeclared.standardError.contains("help: did you mean `export`?"))
    #expect(undeclared.standardError.contains("help: the app records the events `export`, `purchase`"))
    // With no names known, any event is accepted: a key the policy does not read is only PC409.
    let open = runPolicyc(
      ["eval", "p.policy", "--facts", "f.json"],
      files: ["p.policy": "ask when events(\"purchase\") >= 1\n", "f.json": #"{"events(\"share\")": 3}"#])
    #expect(open.status == 0)
    #expect(open.standardError.contains("[PC409]"))
  }

  @Test("explain --format json has every rule and condition")
  func explainJSON() throws {
    let result = run(
      ["explain", "p.policy", "--facts", "f.json", "--format", "json"],
      facts: #"{"now": "2026-03-01T12:00:00Z", "days": 12, "uses": 25, "plan": "free"}"#)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let rules = try #require(object["rules"] as? [[String: Any]])
    #expect(rules.count == 4)
    let loyal = try #require(rules.first { $0["name"] as? String == "loyal" })
    #expect(loyal["outcome"] as? String == "not_held")
    let conditions = try #require(loyal["conditions"] as? [[String: Any]])
    #expect(conditions.map { $0["status"] as? String } == ["failed", "not_needed"])
    #expect((conditions[0]["operands"] as? [[String: Any]])?.first?["value"] as? String == "12")
  }

  @Test(
    "facts errors are located, each reported, exit 1",
    arguments: [
      (
        #"{"dayz": 3, "uses": "5", "last_prompt": "yesterday", "plan": "pro"}"#,
        [
          "f.json:1:2: error: unknown fact `dayz` [PC403]", "help: did you mean `days`?",
          "f.json:1:21: error: fact `uses` needs an integer, but this is a string [PC404]",
          "f.json:1:41: error: `yesterday` is not an ISO-8601 instant [PC404]",
        ]
      ),
      (#"{"days": 3,"#, ["f.json:1:12: error: expected a key in double quotes, found end of file [PC401]"]),
      (#"[1, 2]"#, ["f.json:1:1: error: a facts file is a JSON object, but this is an array [PC402]"]),
      (#"{"days": 3}"#, ["error: fact `plan` has no value and no default [PC405]"]),
      (
        #"{"plan": "pro", "days": 1.5}"#, ["error: fact `days` needs an integer, but `1.5` is not one in range [PC404]"]
      ),
      (#"{"plan": "pro", "declined": null}"#, ["error: fact `declined` cannot be absent [PC404]"]),
      (#"{"plan": "pro", "days": 3, "days": 4}"#, ["f.json:1:28: error: duplicate key `days` [PC401]"]),
    ])
  func factsErrors(_ facts: String, _ expected: [String]) {
    let result = run(["eval", "p.policy", "--facts", "f.json"], facts: facts)
    #expect(result.status == 1, "\(result)")
    #expect(result.standardOutput == "")
    for line in expected {
      #expect(result.standardError.contains(line), "missing `\(line)` in:\n\(result.standardError)")
    }
  }

  @Test("keyed facts may be spelt as in any policy; family members the policy does not read are ignored")
  func keyedFacts() {
    let policy = "ask when prompts_within(365d) < 3 and events(\"export\") >= 1\n"
    let result = runPolicyc(
      ["eval", "p.policy", "--facts", "f.json"],
      files: [
        "p.policy": policy,
        "f.json":
          #"{"now": "2026-01-01", "prompts_within(8760h)": 1, "events(\"export\")": 2, "events(\"share\")": 9}"#,
      ])
    #expect(result.status == 0, "\(result)")
    #expect(result.standardOutput.hasPrefix("decision: ask: `ask rule at line 1` held\n"))
  }

  @Test("durations, numbers, versions and instants in facts files")
  func valueKinds() {
    let policy = """
      fact trial: duration
      fact ratio: number
      ask when trial > 1d 12h or ratio >= 0.75 and version >= v3.1 and since(install_date) >= 2d

      """
    let files = [
      "p.policy": policy.replacingOccurrences(of: "1d 12h", with: "36h"),
      "f.json":
        #"{"now": "2026-01-10T00:00:00Z", "trial": "1d 11h", "ratio": 0.75, "version": "v3.1.0", "install_date": "2026-01-08"}"#,
    ]
    let result = runPolicyc(["eval", "p.policy", "--facts", "f.json"], files: files)
    #expect(result.status == 0, "\(result)")
    #expect(result.standardOutput.hasPrefix("decision: ask:"))
  }

  @Test("a policy with errors: its diagnostics, exit 1; usage errors: exit 2")
  func errors() {
    let broken = runPolicyc(
      ["eval", "p.policy", "--facts", "f.json"], files: ["p.policy": "ask when dayz > 1\n", "f.json": "{}"])
    #expect(broken.status == 1)
    #expect(broken.standardError.hasPrefix("p.policy:1:10: error: unknown name `dayz` [PC201]"))
    #expect(runPolicyc(["eval", "p.policy"], files: ["p.policy": "ask when true"]).status == 2)
    #expect(runPolicyc(["eval", "--facts", "f.json"], files: ["f.json": "{}"]).status == 2)
    #expect(
      runPolicyc(
        ["eval", "p.policy", "--facts", "f.json", "--now", "soon"],
        files: ["p.policy": "ask when true", "f.json": "{}"]
      ).status == 2)
    let missing = runPolicyc(["eval", "p.policy", "--facts", "missing.json"], files: ["p.policy": "ask when true"])
    #expect(missing.status == 2)
    #expect(missing.standardError.hasPrefix("policyc eval: error: cannot read `missing.json`"))
    #expect(runPolicyc(["explain", "--help"]).standardOutput.contains("USAGE: policyc explain"))
  }

  @Test("a fault is reported and never asks")
  func fault() {
    let result = runPolicyc(
      ["eval", "p.policy", "--facts", "f.json"],
      files: [
        "p.policy": "ask ratio when uses / days > 2\n", "f.json": #"{"now": "2026-01-01", "uses": 5, "days": 0}"#,
      ])
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        decision: don't ask: no ask rule held
        fault: division by zero in `uses / days` (line 1, rule ratio)
        now: 2026-01-01T00:00:00Z

        """)
  }
}

/// `policyc fmt`.
@Suite("policyc fmt")
struct FormatCommandTests {
  @Test("prints the formatted policy")
  func prints() {
    let result = runPolicyc(["fmt", "p.policy"], files: ["p.policy": "ask  when days>=30\n"])
    #expect(result == RunResult(status: 0, standardOutput: "ask when days >= 30\n", standardError: ""))
  }

  @Test("--check: a diff and exit 1 for an unformatted file; exit 0 when formatted")
  func check() {
    let result = runPolicyc(["fmt", "--check", "p.policy"], files: ["p.policy": "# c\nask  when days>=30\n"])
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        --- p.policy
        +++ p.policy (formatted)
        @@ -1,2 +1,2 @@
         # c
        -ask  when days>=30
        +ask when days >= 30

        """)
    #expect(result.standardError == "1 file is not formatted; run `policyc fmt --write` on p.policy\n")
    #expect(runPolicyc(["fmt", "--check", "p.policy"], files: ["p.policy": "ask when days >= 30\n"]).status == 0)
  }

  @Test("--write rewrites only files that change; errors leave files alone")
  func write() {
    let io = MemoryIO()
    io.addFile("a.policy", "ask  when days>=30\n")
    io.addFile("b.policy", "ask when days >= 30\n")
    io.addFile("c.policy", "ask when days >= \n")
    let result = io.run(["fmt", "--write", "a.policy", "b.policy", "c.policy"])
    #expect(result.status == 1)
    #expect(result.standardOutput == "formatted a.policy\n")
    #expect(io.writtenPaths == ["a.policy"])
    #expect(io.files["a.policy"] == Array("ask when days >= 30\n".utf8))
    #expect(io.files["c.policy"] == Array("ask when days >= \n".utf8))
    #expect(result.standardError.contains("`c.policy` has errors and was not formatted"))
  }

  @Test("usage errors exit 2")
  func usage() {
    #expect(runPolicyc(["fmt"]).status == 2)
    #expect(runPolicyc(["fmt", "--check", "--write", "a.policy"], files: ["a.policy": ""]).status == 2)
    #expect(runPolicyc(["fmt", "--write", "-"]).status == 2)
    let unwritable = MemoryIO()
    unwritable.addFile("a.policy", "ask  when true\n")
    unwritable.writeErrors["a.policy"] = "Permission denied"
    let result = unwritable.run(["fmt", "--write", "a.policy"])
    #expect(result.status == 2)
    #expect(result.standardError == "policyc fmt: error: cannot write `a.policy`: Permission denied\n")
  }

  @Test("every shipped example is already formatted")
  func examplesFormatted() throws {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Examples")
    let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".policy") }
    #expect(names.count >= 6)
    for name in names {
      let text = try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
      #expect(runPolicyc(["fmt", "--check", name], files: [name: text]).status == 0, "\(name)")
    }
  }
}

/// Facts checked against the schema's scopes and bounds: PC409 and PC410.
@Suite("facts files checked against the schema's scopes and bounds")
struct FactsConsistencyTests {
  static let lifetime = "ask loyal when total_days >= 30\nnever answered when declined_any or rated_any\n"

  @Test("a given fact the policy never reads is a warning with the fact it reads; the answer follows")
  func unreadFact() {
    let result = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: ["p.policy": FactsConsistencyTests.lifetime, "f.json": #"{"now": "2026-03-01T12:00:00Z", "days": 40}"#])
    #expect(result.status == 0)
    #expect(
      result.standardError == """
        f.json:1:33: warning: the policy never reads `days` [PC409]
         1 | {"now": "2026-03-01T12:00:00Z", "days": 40}
           |                                 ^~~~~~
        help: did you mean `total_days`? the policy reads `total_days` (the whole install), not `days` (this version)

        """)
    #expect(result.standardOutput.hasPrefix("decision: don't ask"))
  }

  @Test("a per-version count above its lifetime count is an error located at it, with a note")
  func countAboveLifetime() {
    let result = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: [
        "p.policy": "ask when days >= 30 and total_days >= 30\n",
        "f.json": #"{"days": 50, "total_days": 40}"#,
      ])
    #expect(result.status == 1)
    #expect(result.standardError.contains("f.json:1:10: error: `days` (50) is more than `total_days` (40) [PC410]"))
    #expect(result.standardError.contains("f.json:1:28: note: `total_days` is given here"))
    #expect(result.standardOutput == "")
  }

  @Test("a date before the install, and an answer in this version without one in any, are impossible")
  func instantsAndAnswers() {
    let policy = "ask when since(install_date) > 4d and since(last_prompt) > 8w and not declined and declined_any\n"
    let result = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: [
        "p.policy": policy,
        "f.json": #"""
        {"install_date": "2026-02-01T00:00:00Z", "last_prompt": "2026-01-01T00:00:00Z",
         "declined": true, "declined_any": false, "now": "2026-03-01T00:00:00Z"}
        """#,
      ])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "error: `install_date` (2026-02-01T00:00:00Z) is after `last_prompt` (2026-01-01T00:00:00Z) [PC410]"))
    #expect(result.standardError.contains("error: `declined` is true but `declined_any` is false [PC410]"))
  }

  @Test("an unknown fact named like an event the policy counts suggests the keyed form")
  func pluralEventName() {
    let result = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: ["p.policy": "ask when total_events(\"purchase\") >= 3\n", "f.json": #"{"purchases": 5}"#])
    #expect(result.status == 1)
    #expect(result.standardError.contains("help: did you mean `total_events(\"purchase\")`?"))
  }

  @Test("`explain` refuses a given fact that contradicts a defaulted one, naming both and the fix")
  func contradictsDefault() {
    let policy = "never answered when declined_any or rated_any\nask happy when uses >= 20 and rated\n"
    let result = runPolicyc(
      ["explain", "--no-color", "p.policy", "--facts", "f.json"],
      files: ["p.policy": policy, "f.json": #"{"rated": true, "uses": 25}"#])
    #expect(result.status == 1)
    #expect(
      result.standardError == """
        f.json:1:11: error: `rated` is true, but `rated_any`, not given, defaults to false [PC410]
         1 | {"rated": true, "uses": 25}
           |           ^~~~
        help: no real user has these facts: `rated` implies `rated_any`: `rated` in this version means `rated_any` too
        help: give `rated_any` too: add `"rated_any": true`

        """)
    #expect(result.standardOutput == "")
    // With the fix applied, the facts are real and the policy does not ask.
    let fixed = runPolicyc(
      ["explain", "--no-color", "p.policy", "--facts", "f.json"],
      files: ["p.policy": policy, "f.json": #"{"rated": true, "rated_any": true, "uses": 25}"#])
    #expect(fixed.status == 0)
    #expect(fixed.standardOutput.hasPrefix("decision: don't ask"))
  }

  @Test("counts, presences and day counts against defaults: each is PC410 with a value that fixes it")
  func otherRelationsAgainstDefaults() {
    let cases: [(policy: String, facts: String, message: String, fix: String)] = [
      (
        "ask when total_prompts >= 1 and since(last_prompt) > 1d\n",
        #"{"now": "2026-03-01T00:00:00Z", "total_prompts": 2}"#,
        "`total_prompts` is 2, but `last_prompt`, not given, is absent",
        #"add `"last_prompt": "2026-03-01T00:00:00Z"`"#
      ),
      (
        "ask when days >= 30 and since(first_use) < 1d\n", #"{"now": "2026-03-01T00:00:00Z", "days": 30}"#,
        "`days` is 30, but `first_use`, not given, defaults to 2026-03-01T00:00:00Z",
        #"add `"first_use": "2026-01-30T00:00:00Z"`"#
      ),
      (
        "ask when prompts_within(365d) >= 3 and total_prompts < 9\n", #"{"prompts_within(365d)": 3}"#,
        "`prompts_within(365d)` is 3, but `total_prompts`, not given, defaults to 0", #"add `"total_prompts": 3`"#
      ),
    ]
    for (policy, facts, message, fix) in cases {
      let result = runPolicyc(
        ["eval", "--no-color", "p.policy", "--facts", "f.json"], files: ["p.policy": policy, "f.json": facts])
      #expect(result.status == 1, "\(facts)")
      #expect(result.standardError.contains("error: \(message) [PC410]"), "\(result.standardError)")
      #expect(result.standardError.contains(fix), "\(result.standardError)")
    }
  }

  @Test("a keyed fact of another scope gets the did-you-mean a plain fact gets (PC409), and the answer follows")
  func keyedCounterpart() {
    let result = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: ["p.policy": "ask when total_events(\"purchase\") >= 3\n", "f.json": #"{"events(\"purchase\")": 5}"#])
    #expect(result.status == 0)
    #expect(
      result.standardError == """
        f.json:1:2: warning: the policy never reads `events("purchase")` [PC409]
         1 | {"events(\\"purchase\\")": 5}
           |  ^~~~~~~~~~~~~~~~~~~~~~
        help: did you mean `total_events("purchase")`? the policy reads `total_events("purchase")` (the whole install), not `events("purchase")` (this version)

        """)
    // A name that is no fact at all still names the listing of facts and keyed families.
    let unknown = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: ["p.policy": "ask when uses >= 3\n", "f.json": #"{"karma": 5}"#])
    #expect(unknown.standardError.contains("help: `policyc facts` lists the standard facts and keyed families"))
  }

  @Test("keyed members are bound key by key")
  func keyedMembers() {
    let result = runPolicyc(
      ["eval", "--no-color", "p.policy", "--facts", "f.json"],
      files: [
        "p.policy": "ask when events(\"export\") >= 3 and total_events(\"export\") >= 3\n",
        "f.json": #"{"events(\"export\")": 5, "total_events(\"export\")": 3}"#,
      ])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains("`events(\"export\")` (5) is more than `total_events(\"export\")` (3) [PC410]"))
  }
}
