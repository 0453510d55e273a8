import Foundation
import Testing

@testable import PolicyCLI
@testable import PolicyTools

/// `policyc simulate --behaviour FILE`: a model of the app's own events and facts, the warning
/// about events the model never produces, and the explanation of a 0%.
@Suite("policyc simulate: behaviour files and explanations")
struct SimulateBehaviourTests {
  /// Asks after 3 purchases in the first week or later, at most once per 8 weeks, never after an answer.
  static let purchases = """
    never answered when declined_any or rated_any
    never too_soon when since(last_prompt) < 8w
    ask buyer when total_events("purchase") >= 3 and total_days >= 7

    """

  /// A behaviour with purchases.
  static let buying = #"{"events": {"export": 1, "purchase": 0.2}}"#

  static let files = ["buy.policy": purchases, "buy.json": buying]

  /// The warning for `buy.policy` without purchases in the model.
  static let purchaseWarning =
    "policyc simulate: warning: the behaviour model never produces the event `purchase` that buy.policy reads "
    + "(`total_events(\"purchase\")`), so it stays 0; give its rate in a behaviour file (--behaviour FILE)\n"

  @Test("a purchase-based policy with a behaviour file naming purchases asks a plausible share of users, no warning")
  func purchasesAsked() throws {
    let run = simulate(["buy.policy", "--behaviour", "buy.json", "--users", "200", "--days", "30"], files: Self.files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    let report = try simulateJSON(
      ["buy.policy", "--behaviour", "buy.json", "--users", "200", "--days", "30"], files: Self.files)
    let policy = try #require(try simulatePolicies(report).first)
    let share = try #require(policy["askedShare"] as? Double)
    #expect(share > 0.15 && share < 0.8, "asked \(share)")
    let behaviour = try #require(report["behaviour"] as? [[String: Any]])
    let purchase = try #require(behaviour.first { $0["name"] as? String == "purchase" })
    #expect(purchase["stated"] as? String == "0.2 per session")
    #expect(purchase["produced"] as? Bool == true)
    #expect(purchase["readBy"] as? [String] == ["buy.policy"])
    // `--behavior` is the same option.
    let american = simulate(
      ["buy.policy", "--behavior", "buy.json", "--users", "200", "--days", "30"], files: Self.files)
    #expect(american.result == run.result)
  }

  @Test("without a behaviour file: a warning before the run names the event, 0% asked, and the report says why")
  func purchasesWarned() {
    let run = simulate(["buy.policy", "--users", "20", "--days", "30"], files: Self.files, terminal: true)
    #expect(run.result.status == 0)
    #expect(run.result.standardError.hasPrefix(Self.purchaseWarning + "\rsimulated "))
    let quiet = simulate(["buy.policy", "--users", "20", "--days", "30"], files: Self.files)
    #expect(quiet.result.standardError == Self.purchaseWarning)
    let output = quiet.result.standardOutput
    #expect(squeezed(output).contains("\nusers asked 0.0% (0)\n"))
    #expect(
      squeezed(output).contains("\n event `purchase` (total_events(\"purchase\")) never (not in the behaviour model)\n")
    )
    #expect(
      squeezed(output).contains(
        "\n `total_events(\"purchase\") >= 3` held at 0% of checks: the behaviour model never produces `purchase` events\n"
      ))
  }

  @Test(
    "Examples/armchair.policy under the default 30-day releases: 0%, and the blocking condition named with its reason")
  func armchair() throws {
    let text = String(decoding: try Examples.bytes("armchair.policy"), as: UTF8.self)
    let files = ["armchair.policy": text]
    let run = simulate(["armchair.policy", "--users", "100", "--days", "180"], files: files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    let output = run.result.standardOutput
    #expect(squeezed(output).contains("\nusers asked 0.0% (0)\n"))
    #expect(squeezed(output).contains("\n since(first_use) >= 30d 0.0% (0)"))
    #expect(squeezed(output).contains("\n no `ask` rule held 100.0% ("))
    #expect(squeezed(output).contains("\n `since(first_use) >= 30d` failed 100.0% ("))
    #expect(
      squeezed(output).contains(
        "\n `since(first_use) >= 30d` held at 0% of checks: a new version every 30 days restarts it (`--release-every 0` simulates one version)\n"
      ))
    let report = try simulateJSON(["armchair.policy", "--users", "100", "--days", "180"], files: files)
    let checks = try #require(try simulatePolicies(report).first?["checks"] as? [String: Any])
    let rules = try #require(checks["rules"] as? [[String: Any]])
    let conditions = try #require(rules.first?["conditions"] as? [[String: Any]])
    #expect(conditions.first?["condition"] as? String == "since(first_use) >= 30d")
    #expect(conditions.first?["held"] as? Int == 0)
    #expect(
      conditions.first?["reason"] as? String
        == "a new version every 30 days restarts it (`--release-every 0` simulates one version)")
    #expect(checks["noAskRuleHeld"] as? Int == checks["total"] as? Int)
    // The HTML report explains it too.
    let html = simulate(["armchair.policy", "--users", "20", "--days", "60", "--html", "a.html"], files: files)
    let page = String(decoding: try #require(html.io.files["a.html"]), as: UTF8.self)
    #expect(page.contains("<section id=\"why\">"))
    #expect(
      page.contains(
        "<li><code>since(first_use) &gt;= 30d</code> held at 0% of checks: a new version every 30 days restarts it (<code>--release-every 0</code> simulates one version)</li>"
      ))
    // Its columns are explained, its split adds up as the text's does, and no backtick is left raw.
    let why = String(page[try #require(page.range(of: "<section id=\"why\">")).lowerBound...])
    #expect(why.contains("<b>held</b>: the share of prompt checks at which the rule, or the condition, held."))
    #expect(why.contains("<b>evaluated</b>: the share at which the condition was evaluated at all"))
    #expect(why.contains("add up to 100% of the checks"))
    #expect(why.contains("<tr><td>asked</td><td>0.0% <small>(0)</small></td></tr>"))
    #expect(why.contains("<tr><td>no <code>ask</code> rule held</td><td>100.0% <small>("))
    #expect(
      why.contains("<tr><td class=\"sub\"><code>since(first_use) &gt;= 30d</code> failed</td><td>100.0% <small>("))
    #expect(!why.contains("<th>blocked the asks</th>"))
    #expect(!why.contains("`"), "a raw backtick in the HTML's Why section")
    // With a single version, the same policy asks.
    let single = try simulatePolicies(
      simulateJSON(["armchair.policy", "--users", "100", "--days", "180", "--release-every", "0"], files: files))
    #expect(try #require(single.first?["usersAsked"] as? Int) > 0)
  }

  @Test("surprising shares get a reason: a bucket range at a share of checks unlike its users', a long wait that held")
  func surprisingShares() {
    let model = SimulationModel()
    let bucket = SimulationExplanation.note("bucket(\"new\") < 10", held: 129, evaluated: 1000, model: model)
    #expect(
      bucket
        == "it holds for 10% of users, but a user's bucket is fixed and the users in the range made more prompt checks than the others"
    )
    #expect(
      SimulationExplanation.note("bucket(\"new\") >= 90", held: 80, evaluated: 1000, model: model)?.contains(
        "it holds for 10% of users") == true)
    #expect(SimulationExplanation.note("bucket(\"new\") < 10", held: 103, evaluated: 1000, model: model) == nil)
    let wait = SimulationExplanation.note("days >= 30", held: 12, evaluated: 1000, model: model)
    #expect(wait?.hasPrefix("a new version comes every 30 days, but a user picks it up at their next launch") == true)
    #expect(SimulationExplanation.note("since(first_use) >= 45d", held: 1, evaluated: 9, model: model) != nil)
    #expect(SimulationExplanation.note("days >= 10", held: 12, evaluated: 1000, model: model) == nil)
    var single = model
    single.releaseEvery = 0
    #expect(SimulationExplanation.note("days >= 30", held: 12, evaluated: 1000, model: single) == nil)
  }

  @Test("app facts with distributions: each user gets one value, by share; no note about defaults")
  func factDistributions() throws {
    let files = [
      "plan.policy": "fact plan: string\nask paying when plan == \"pro\"\n",
      "plans.json": #"{"facts": {"plan": {"free": 0.7, "pro": "30%"}}}"#,
      "wrong.policy": "fact plan: int\nask when plan > 2\n",
    ]
    let run = simulate(["plan.policy", "--behaviour", "plans.json", "--users", "400", "--days", "3"], files: files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    #expect(squeezed(run.result.standardOutput).contains("\n fact `plan` free 70%, pro 30%\n"))
    let policy = try #require(
      try simulatePolicies(
        simulateJSON(["plan.policy", "--behaviour", "plans.json", "--users", "400", "--days", "3"], files: files)
      ).first)
    let share = try #require(policy["askedShare"] as? Double)
    #expect(share > 0.2 && share < 0.4, "asked \(share)")
    // `--fact` wins over the file.
    let fixed = try #require(
      try simulatePolicies(
        simulateJSON(
          ["plan.policy", "--behaviour", "plans.json", "--fact", "plan=pro", "--users", "50", "--days", "3"],
          files: files)
      ).first)
    #expect(fixed["usersAsked"] as? Int == 50)
    // A value that is not of the declared type.
    let wrong = simulate(["wrong.policy", "--behaviour", "plans.json"], files: files)
    #expect(wrong.result.status == 2)
    #expect(
      wrong.result.standardError
        == "policyc simulate: error: the behaviour file gives `plan` the value `free`, but `plan` is an `int` in wrong.policy; write a whole number such as 3\n\n\(SimulateCommand.usage)"
    )
  }

  @Test("the file's settings reach the model, flags win over the file, and the run is deterministic")
  func settings() throws {
    let files = [
      "buy.policy": Self.purchases,
      "b.json":
        #"{"releaseEvery": 7, "sessionsPerDay": 2, "answers": {"rate": 1, "decline": 0, "later": 0}, "heavyShare": "50%"}"#,
    ]
    let arguments = ["buy.policy", "--behaviour", "b.json", "--users", "30", "--days", "20"]
    let report = try simulateJSON(arguments, files: files)
    let model = try #require(report["model"] as? [String: Any])
    #expect(model["releaseEvery"] as? Int == 7)
    #expect(model["sessionsPerDay"] as? Double == 2)
    #expect(model["rate"] as? Double == 1)
    #expect(model["heavyShare"] as? Double == 0.5)
    let flagged = try #require(
      try simulateJSON(arguments + ["--release-every", "0"], files: files)["model"] as? [String: Any])
    #expect(flagged["releaseEvery"] as? Int == 0)
    #expect(simulate(arguments, files: files).result == simulate(arguments, files: files).result)
    // `--event-rate` is the rate of the default events, which a file with events replaces.
    let events = simulate(["buy.policy", "--behaviour", "buy.json", "--event-rate", "2"], files: Self.files)
    #expect(events.result.status == 2)
    #expect(
      events.result.standardError.hasPrefix(
        "policyc simulate: error: `--event-rate` sets the rate of the default `export` events; the behaviour file names its own events\n"
      ))
    // Flags that break the file's answers are a usage error.
    let over = simulate(arguments + ["--decline", "0.5"], files: files)
    #expect(over.result.status == 2)
    #expect(
      over.result.standardError.hasPrefix(
        "policyc simulate: error: `--rate`, `--remind` and `--decline` add up to 150%"))
  }

  @Test("--event NAME=RATE adds an event to the default ones (or replaces one); a bad one is a usage error")
  func eventFlag() throws {
    let run = simulate(["buy.policy", "--event", "purchase=0.2", "--users", "200", "--days", "30"], files: Self.files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    #expect(run.result.standardOutput.contains("events per session: export 1, purchase 0.2, "))
    let file = simulate(["buy.policy", "--behaviour", "buy.json", "--users", "200", "--days", "30"], files: Self.files)
    #expect(run.result.standardOutput == file.result.standardOutput)
    let replaced = simulate(
      ["buy.policy", "--behaviour", "buy.json", "--event=purchase=0.5", "--users", "5", "--days", "3"],
      files: Self.files)
    #expect(replaced.result.standardOutput.contains("events per session: export 1, purchase 0.5, "))
    for (argument, message) in [
      ("purchase", "`--event purchase` must be NAME=RATE, such as `--event purchase=0.2`"),
      ("purchase=often", "`--event purchase=often`: the rate must be a number of events per session from 0 to 20"),
    ] {
      let bad = simulate(["buy.policy", "--event", argument], files: Self.files)
      #expect(bad.result.status == 2)
      #expect(bad.result.standardError == "policyc simulate: error: \(message)\n\n\(SimulateCommand.usage)")
    }
  }

  @Test("above 250 users, the checks of every n-th user (250 in all) are explained, and the report says so")
  func sampledExplanation() throws {
    let arguments = ["buy.policy", "--users", "1000", "--days", "2"]
    let run = simulate(arguments, files: Self.files)
    #expect(squeezed(run.result.standardOutput).contains(" prompt checks of 250 users (1 in 4): buy.policy "))
    let checks = try #require(
      try simulatePolicies(simulateJSON(arguments, files: Self.files)).first?["checks"] as? [String: Any])
    #expect(checks["users"] as? Int == 250)
    let all = try #require(
      try simulatePolicies(simulateJSON(["buy.policy", "--users", "250", "--days", "2"], files: Self.files)).first?[
        "checks"] as? [String: Any])
    #expect(all["users"] as? Int == 250)
  }

  @Test("malformed behaviour files: located errors with codes, exit 1, nothing on standard output")
  func malformed() {
    let files = [
      "buy.policy": Self.purchases,
      "bad.json": """
      {
        "events": {"purchase": "often", "": 1},
        "facts": {"plan": {"free": 0.7, "pro": 0.2}, "seats": 3},
        "releaseEvry": 30,
        "sessionsPerDay": 0.5,
        "answers": {"rate": 0.5, "decline": 0.4, "ltr": 0.1}
      }

      """,
      "comma.json": "{\"events\": {\"purchase\": 0.2,}}\n",
      "list.json": "[1]\n",
      "sum.json": "{\"answers\": {\"rate\": 0.5, \"decline\": 0.4, \"later\": \"20%\"}}\n",
    ]
    let bad = simulate(["buy.policy", "--behaviour", "bad.json"], files: files)
    #expect(bad.result.status == 1)
    #expect(bad.result.standardOutput == "")
    #expect(
      bad.result.standardError == """
        bad.json:2:26: error: `purchase` must be a number of events per session from 0 to 20, but this is `"often"` [PC408]
         2 |   "events": {"purchase": "often", "": 1},
           |                          ^~~~~~~
        bad.json:2:35: error: an event name cannot be empty [PC408]
         2 |   "events": {"purchase": "often", "": 1},
           |                                   ^~
        bad.json:3:21: error: the shares of `plan` add up to 90%; they must add up to 100% [PC408]
         3 |   "facts": {"plan": {"free": 0.7, "pro": 0.2}, "seats": 3},
           |                     ^~~~~~~~~~~~~~~~~~~~~~~~~
        bad.json:3:57: error: the fact `seats` must be an object from values to shares, but this is a number [PC408]
         3 |   "facts": {"plan": {"free": 0.7, "pro": 0.2}, "seats": 3},
           |                                                         ^
        help: write `"seats": {"free": 0.7, "pro": 0.3}`
        bad.json:4:3: error: unknown key `releaseEvry` in a behaviour file [PC408]
         4 |   "releaseEvry": 30,
           |   ^~~~~~~~~~~~~
        help: did you mean `releaseEvery`?
        bad.json:5:21: error: `sessionsPerDay` must be a number from 1 to 20, but this is `0.5` [PC408]
         5 |   "sessionsPerDay": 0.5,
           |                     ^~~
        bad.json:6:44: error: unknown answer `ltr` [PC408]
         6 |   "answers": {"rate": 0.5, "decline": 0.4, "ltr": 0.1}
           |                                            ^~~~~
        help: the answers are `rate`, `decline` and `later`

        """)
    let comma = simulate(["buy.policy", "--behaviour", "comma.json"], files: files)
    #expect(comma.result.status == 1)
    #expect(
      comma.result.standardError == """
        comma.json:1:29: error: expected a key in double quotes, found `}` [PC401]
         1 | {"events": {"purchase": 0.2,}}
           |                             ^
        help: remove the comma before `}`: JSON has no trailing commas

        """)
    let list = simulate(["buy.policy", "--behaviour", "list.json"], files: files)
    #expect(
      list.result.standardError == """
        list.json:1:1: error: a behaviour file is a JSON object, but this is an array [PC408]
         1 | [1]
           | ^~~
        help: write the model as `{"events": {"purchase": 0.2}, "releaseEvery": 30}`

        """)
    let sum = simulate(["buy.policy", "--behaviour", "sum.json"], files: files)
    #expect(
      sum.result.standardError == """
        sum.json:1:13: error: the answers add up to 110%; they must add up to at most 100% (the rest dismiss the prompt) [PC408]
         1 | {"answers": {"rate": 0.5, "decline": 0.4, "later": "20%"}}
           |             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

        """)
    let missing = simulate(["buy.policy", "--behaviour", "nope.json"], files: files)
    #expect(missing.result.status == 2)
    #expect(
      missing.result.standardError == "policyc simulate: error: cannot read `nope.json`: No such file or directory\n")
  }

  /// `text` with every run of spaces made one space, to compare table rows whatever the column widths.
  func squeezed(_ text: String) -> String {
    text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }

  @Test("Examples/review.behaviour.json reads cleanly and names events and facts of Examples/review.policy")
  func example() throws {
    let files = [
      "review.policy": String(decoding: try Examples.bytes("review.policy"), as: UTF8.self),
      "review.behaviour.json": String(decoding: try Examples.bytes("review.behaviour.json"), as: UTF8.self),
    ]
    let run = simulate(
      ["review.policy", "--behaviour", "review.behaviour.json", "--users", "50", "--days", "60"], files: files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    #expect(squeezed(run.result.standardOutput).contains("fact `plan`"))
  }
}

/// `policyc --version`.
@Suite("policyc --version")
struct VersionTests {
  @Test("--version, -v and -V print the version constant, exit 0; an argument after it is a usage error")
  func version() {
    for spelling in ["--version", "-v", "-V"] {
      let io = MemoryIO()
      #expect(PolicyCLI.run([spelling], io: io) == 0)
      #expect(io.standardOutput == "policyc \(PolicyCLI.version)\n")
      #expect(io.standardError == "")
    }
    #expect(PolicyCLI.version == "0.1.0")
    let io = MemoryIO()
    #expect(PolicyCLI.run(["--version", "x"], io: io) == 2)
    #expect(io.standardOutput == "")
    #expect(io.standardError == "policyc: error: `--version` takes no arguments\n\nUSAGE: policyc --version\n")
  }

  @Test("the overview lists -v and --version; `policyc help --version` explains it; `policyc version` suggests it")
  func versionInHelp() {
    let overview = MemoryIO()
    #expect(PolicyCLI.run(["help"], io: overview) == 0)
    #expect(overview.standardOutput.contains("\nOPTIONS:\n  -h, --help     Show this overview\n"))
    #expect(overview.standardOutput.contains("\n  -v, --version  Print the version of policyc\n"))
    for topic in ["--version", "-v", "version"] {
      let io = MemoryIO()
      #expect(PolicyCLI.run(["help", topic], io: io) == 0)
      #expect(io.standardOutput == "OVERVIEW: print the version of policyc\n\nUSAGE: policyc --version\n")
    }
    let io = MemoryIO()
    #expect(PolicyCLI.run(["version"], io: io) == 2)
    #expect(io.standardError.hasPrefix("policyc: error: unknown command `version`; did you mean `--version`?\n"))
  }
}

/// A behaviour file's `answers.dismiss`: the help says dismissing is what the other answers leave.
@Suite("policyc simulate: the dismiss share")
struct DismissAnswerTests {
  @Test("`answers.dismiss` is unknown, and the help says the dismiss share is what rate, decline and later leave")
  func dismissIsTheRemainder() {
    let files = [
      "p.policy": "ask when uses >= 3\n", "b.json": #"{"answers": {"rate": 0.3, "decline": 0.4, "dismiss": 0.1}}"#,
    ]
    let run = simulate(["p.policy", "--behaviour", "b.json", "--users", "10", "--days", "10"], files: files)
    #expect(run.result.status == 1)
    #expect(
      run.result.standardError == """
        b.json:1:43: error: unknown answer `dismiss` [PC408]
         1 | {"answers": {"rate": 0.3, "decline": 0.4, "dismiss": 0.1}}
           |                                           ^~~~~~~~~
        help: dismissing is not given: it is the share that `rate`, `decline` and `later` leave (with 25%, 40% and 30%, 5% dismiss)
        help: remove `dismiss` and give the other answers; their shares add up to at most 100%

        """)
  }
}
