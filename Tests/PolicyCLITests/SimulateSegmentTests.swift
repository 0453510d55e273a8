import Foundation
import Testing

@testable import PolicyCLI
@testable import PolicyCore
@testable import PolicyTools

/// `policyc simulate --behaviour FILE` with `segments`: named groups of users with their own
/// settings (issue 26): the merge over the top level, the errors, the draw and the reports.
@Suite("policyc simulate: segments")
struct SimulateSegmentTests {
  /// The purchase scenario: 20% of users buy (0.05 per session), 80% never.
  static let purchases =
    #"{"events": {"export": 1}, "segments": {"buyers": {"share": "20%", "events": {"purchase": 0.05}}, "#
    + #""others": {"share": "80%"}}}"#

  /// Asks a buyer once, a week after install.
  static let buyer = """
    never answered when declined_any or rated_any
    ask buyer when total_events("purchase") >= 1 and total_days >= 7

    """

  /// Asks after every purchase: each purchase's check sees one purchase more than the prompts
  /// shown, so it asks, and no other check does: its asks count the purchases.
  static let everyPurchase = "ask purchase when total_events(\"purchase\") > total_prompts\n"

  /// Asks at the start of every session of a user tagged `b` (sessions start, then the check):
  /// its asks count the tagged users' sessions.
  static let everyTaggedSession = "fact tag: string\nask session when tag == \"b\" and total_sessions > total_prompts\n"

  static let files = ["buyer.policy": buyer, "buyers.json": purchases]

  /// The model of `text`, read over the default model; fails the test on a problem.
  func read(_ text: String) throws -> SimulationModel {
    switch SimulationBehaviour.read(SourceFile(path: "b.json", text: text), into: SimulationModel()) {
    case .success(let model): return model
    case .failure(let problems):
      Issue.record("\(problems.diagnostics.map(\.message))")
      throw problems
    }
  }

  @Test("a segment's events are merged by name over the top level's (0 removes one), facts by name, the rest replaced")
  func merge() throws {
    // `segments` first: a segment resolves over the whole file's top level, wherever it is written.
    let model = try read(
      """
      {
        "segments": {
          "a": {"share": 0.25, "events": {"purchase": 0.5, "share": 0, "upgrade": 1},
                "facts": {"plan": {"pro": 1}}, "sessionsPerDay": 3, "answers": {"rate": 0.1},
                "heavyShare": "50%", "heavyOpenRate": 0.9, "lightOpenRate": 0.3, "badSessions": 0},
          "b": {"share": "75%"}
        },
        "events": {"export": 1, "purchase": 0.1, "share": 0.3},
        "facts": {"plan": {"free": 0.7, "pro": 0.3}, "seats": {"1": 0.5, "5": 0.5}},
        "sessionsPerDay": 2, "releaseEvery": 7,
        "answers": {"rate": 0.2, "decline": 0.3, "later": 0.4}
      }
      """)
    #expect(model.segments.map(\.name) == ["a", "b"])
    #expect(model.segments.map(\.share) == [0.25, 0.75])
    let a = model.segments[0].model(over: model)
    #expect(
      a.events == [
        SimulationEventRate(name: "export", perSession: 1), SimulationEventRate(name: "purchase", perSession: 0.5),
        SimulationEventRate(name: "share", perSession: 0), SimulationEventRate(name: "upgrade", perSession: 1),
      ])
    #expect(a.facts.map(\.name) == ["plan", "seats"])
    #expect(a.facts[0].shares == [.init(value: "pro", share: 1)])
    #expect(a.facts[1] == model.facts[1])
    #expect(a.sessionsPerDay == 3)
    #expect((a.rateShare, a.declineShare, a.remindShare) == (0.1, 0.3, 0.4))
    #expect((a.heavyShare, a.heavyOpenRate, a.lightOpenRate, a.badSessionRate) == (0.5, 0.9, 0.3, 0))
    #expect(a.releaseEvery == 7)
    #expect(a.segments.isEmpty)
    // A segment without overrides is the top level.
    var top = model
    top.segments = []
    #expect(model.segments[1].model(over: model) == top)
    #expect(model.segmentModels == [a, top])
    // Without top-level events, a segment's events join the default `export` events.
    let classic = try read(#"{"segments": {"x": {"share": 1, "events": {"purchase": 0.05}}}}"#)
    #expect(
      classic.segments[0].model(over: classic).events == [
        SimulationEventRate(name: "export", perSession: 1), SimulationEventRate(name: "purchase", perSession: 0.05),
      ])
    // No `segments`: none.
    #expect(try read(#"{"events": {"export": 1}}"#).segments.isEmpty)
  }

  @Test("malformed segments: located PC408 errors (a name given twice is PC401), exit 1, nothing on standard output")
  func malformed() {
    let answers =
      #"{"answers": {"rate": 0.5, "decline": 0.2, "later": 0.2}, "segments": {"a": {"share": 1, "answers": "#
      + #"{"decline": 0.4}}}}"# + "\n"
    let long: String = #"{"segments": {""# + String(repeating: "x", count: 65) + #"": {"share": 1}}}"# + "\n"
    let keys: [String] = (0...64).map { "\"s\($0)\": {\"share\": 0}" }
    let many: String = "{\"segments\": {" + keys.joined(separator: ",\n") + "}}\n"
    let files: [String: String] = [
      "buyer.policy": Self.buyer,
      "bad.json": """
      {
        "events": {"export": 1},
        "segments": {
          "buyers": {"share": "20%", "evnts": {"purchase": 0.05}, "releaseEvery": 7},
          "": {"share": 0.1},
          "nested": {"share": 0.1, "segments": {}},
          "number": 3,
          "noshare": {"events": {"purchase": 0.1}},
          "wrong": {"share": "often", "sessionsPerDay": 0}
        }
      }

      """,
      "sum.json": #"{"segments": {"a": {"share": 0.5}, "b": {"share": "40%"}}}"# + "\n",
      "empty.json": "{\"segments\": {}}\n",
      "list.json": "{\"segments\": [1]}\n",
      "twice.json": #"{"segments": {"a": {"share": 0.5}, "a": {"share": 0.5}}}"# + "\n",
      "answers.json": answers, "long.json": long, "many.json": many,
    ]
    let bad = simulate(["buyer.policy", "--behaviour", "bad.json"], files: files)
    #expect(bad.result.status == 1)
    #expect(bad.result.standardOutput == "")
    #expect(
      bad.result.standardError == """
        bad.json:4:32: error: unknown key `evnts` in the segment `buyers` [PC408]
         4 |     "buyers": {"share": "20%", "evnts": {"purchase": 0.05}, "releaseEvery": 7},
           |                                ^~~~~~~
        help: did you mean `events`?
        bad.json:4:61: error: `releaseEvery` cannot be set in the segment `buyers`: releases are one calendar for the whole app [PC408]
         4 |     "buyers": {"share": "20%", "evnts": {"purchase": 0.05}, "releaseEvery": 7},
           |                                                             ^~~~~~~~~~~~~~
        help: set `releaseEvery` at the top level of the file
        bad.json:5:5: error: a segment name cannot be empty [PC408]
         5 |     "": {"share": 0.1},
           |     ^~
        bad.json:6:30: error: `segments` cannot be given in the segment `nested`: segments do not nest [PC408]
         6 |     "nested": {"share": 0.1, "segments": {}},
           |                              ^~~~~~~~~~
        help: give every segment at the top level of the file, with its share of all users
        bad.json:7:15: error: the segment `number` must be an object with its `share` and the settings it changes, but this is a number [PC408]
         7 |     "number": 3,
           |               ^
        help: write `"number": {"share": "20%", "events": {"purchase": 0.05}}`
        bad.json:8:5: error: the segment `noshare` has no `share` [PC408]
         8 |     "noshare": {"events": {"purchase": 0.1}},
           |     ^~~~~~~~~
        help: give the segment's share of users, such as `"share": "20%"`
        bad.json:9:24: error: `share` must be a share from 0 to 1 (or "0%" to "100%"), but this is `"often"` [PC408]
         9 |     "wrong": {"share": "often", "sessionsPerDay": 0}
           |                        ^~~~~~~
        bad.json:9:51: error: `sessionsPerDay` must be a number from 1 to 20, but this is `0` [PC408]
         9 |     "wrong": {"share": "often", "sessionsPerDay": 0}
           |                                                   ^

        """)
    let example =
      #"help: write `"segments": {"buyers": {"share": "20%", "events": {"purchase": 0.05}}, "others": {"share": "80%"}}`"#
    let expected = [
      "sum.json": """
      sum.json:1:14: error: the shares of the segments add up to 90%; they must add up to 100% [PC408]
       1 | {"segments": {"a": {"share": 0.5}, "b": {"share": "40%"}}}
         |              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

      """,
      "empty.json": """
      empty.json:1:14: error: `segments` has no segment; give at least one, or leave `segments` out [PC408]
       1 | {"segments": {}}
         |              ^~
      \(example)

      """,
      "list.json": """
      list.json:1:14: error: `segments` must be an object from segment names to segments, but this is an array [PC408]
       1 | {"segments": [1]}
         |              ^~~
      \(example)

      """,
      "twice.json": """
      twice.json:1:36: error: duplicate key `a` [PC401]
       1 | {"segments": {"a": {"share": 0.5}, "a": {"share": 0.5}}}
         |                                    ^~~
      help: each key may appear once in an object

      """,
      "answers.json": """
      answers.json:1:100: error: the answers of the segment `a` add up to 110% (with the top level's answers it does not give); they must add up to at most 100% (the rest dismiss the prompt) [PC408]
       1 | \(answers.dropLast())
         |                                                                                                    ^~~~~~~~~~~~~~~~

      """,
      "long.json": """
      long.json:1:15: error: a segment name has at most 64 bytes, but this one has 65 [PC408]
       1 | {"segments": {"\(String(repeating: "x", count: 65))": {"share": 1}}}
         |               ^\(String(repeating: "~", count: 66))

      """,
      "many.json": """
      many.json:65:1: error: a behaviour file has at most 64 segments; this is one more [PC408]
       65 | "s64": {"share": 0}}}
          | ^~~~~

      """,
    ]
    for (file, message) in expected {
      let run = simulate(["buyer.policy", "--behaviour", file], files: files)
      #expect(run.result.status == 1, "\(file)")
      #expect(run.result.standardOutput == "", "\(file)")
      #expect(run.result.standardError == message, "\(file)")
    }
  }

  @Test(
    "5,000 users, 90 days: 20% ± 2.5 points are buyers, only buyers purchase, at 0.05 per session ± 0.005"
  )
  func purchaseScenario() throws {
    // The scenario, with a fact that tags each segment's users (app facts draw from a stream of
    // their own, so the tag changes no behaviour), so that a policy can count their sessions.
    let tagged =
      #"{"events": {"export": 1}, "segments": {"buyers": {"share": "20%", "events": {"purchase": 0.05}, "#
      + #""facts": {"tag": {"b": 1}}}, "others": {"share": "80%", "facts": {"tag": {"o": 1}}}}}"#
    let model = try read(tagged)
    let setup = SimulationSetup(
      users: 5000, days: 90, seed: 26, model: model,
      policies: [
        SimulationPolicy(name: "purchases", text: Self.everyPurchase),
        SimulationPolicy(name: "sessions", text: Self.everyTaggedSession),
      ])
    let outcome = SimulationEngine.run(setup)
    let purchases = outcome.tallies[0]
    let sessions = outcome.tallies[1]
    // Both policies see the same users: the segments are counted once, and the tag reaches exactly the buyers.
    #expect(outcome.activity.segmentUsers.reduce(0, +) == 5000)
    let buyers = outcome.activity.segmentUsers[0]
    // The segment draw: binomial(5,000, 0.2) has a standard deviation of 0.57 points; 2.5 points is 4.4 of them.
    #expect(abs(Double(buyers) / 5000 - 0.2) <= 0.025, "buyers \(buyers)")
    #expect(sessions.segmentUsersAsked == [buyers, 0])
    // Only buyers purchase; those who do within 90 days are most of them (light users open the
    // app on 15% of days: about 65% of them buy at least once, heavy users nearly all).
    #expect(purchases.segmentUsersAsked[1] == 0)
    let purchasers = purchases.usersAsked
    #expect(purchasers == purchases.segmentUsersAsked[0])
    #expect(purchasers <= buyers && Double(purchasers) >= 0.55 * Double(buyers), "\(purchasers) of \(buyers)")
    // Purchases per buyer session: a geometric count with mean 0.05 has a variance of
    // 0.05 × 1.05; over about 40,000 sessions the mean's standard deviation is 0.0011, and 0.005 is 4.4 of them.
    let rate = Double(purchases.asks) / Double(sessions.asks)
    #expect(abs(rate - 0.05) <= 0.005, "\(purchases.asks) purchases in \(sessions.asks) buyer sessions: \(rate)")
    #expect(sessions.asks > 30_000 && sessions.asks < outcome.activity.sessions)
  }

  @Test("the purchase-counting policy asks once per purchase: the records of a small run agree")
  func countingPolicyCountsPurchases() throws {
    let files = ["count.policy": Self.everyPurchase, "buyers.json": Self.purchases]
    let arguments = ["count.policy", "--behaviour", "buyers.json", "--users", "400", "--days", "60"]
    let run = simulate(arguments + ["--records", "r.jsonl"], files: files)
    #expect(run.result.status == 0)
    let records = String(decoding: try #require(run.io.files["r.jsonl"]), as: UTF8.self).split(separator: "\n")
    let purchases = records.filter { $0.contains(#""event":"significantEvent""#) && $0.contains(#""name":"purchase""#) }
    let shown = records.filter { $0.contains(#""event":"promptShown""#) }
    let policy = try #require(try simulatePolicies(simulateJSON(arguments, files: files)).first)
    #expect(purchases.count > 50)
    #expect(policy["asks"] as? Int == purchases.count)
    #expect(shown.count == purchases.count)
  }

  @Test("the report: a row per segment under heavy and light users, JSON `segments`, the events stated per segment")
  func report() throws {
    let arguments = ["buyer.policy", "--behaviour", "buyers.json", "--users", "500", "--days", "60"]
    let run = simulate(arguments, files: Self.files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    let output = run.result.standardOutput
    let text = squeezed(output)
    #expect(text.contains("\n segment buyers (20%): purchase 0.05 per session\n segment others (80%): as above\n"))
    #expect(text.contains("\n light users "))
    #expect(text.contains("\n segment `others` 0.0% (0)\nfirst ask (day since install)\n"))
    #expect(
      text.contains(
        "\n event `purchase` (total_events(\"purchase\")) 0.05 per session in buyers (20%), never in others (80%)\n"))
    let report = try simulateJSON(arguments, files: Self.files)
    let policy = try #require(try simulatePolicies(report).first)
    let segments = try #require(policy["segments"] as? [[String: Any]])
    #expect(segments.map { $0["name"] as? String } == ["buyers", "others"])
    let users = segments.compactMap { $0["users"] as? Int }
    let asked = segments.compactMap { $0["asked"] as? Int }
    #expect(users.reduce(0, +) == 500)
    #expect(asked.count == 2 && asked[1] == 0 && asked[0] == policy["usersAsked"] as? Int)
    // The text row is the JSON's counts.
    #expect(text.contains("\n segment `buyers` \(SimulationFormat.percent(asked[0], of: users[0])) (\(asked[0]))\n"))
    // The HTML report has the rows too.
    let html = simulate(arguments + ["--html", "r.html"], files: Self.files)
    let page = String(decoding: try #require(html.io.files["r.html"]), as: UTF8.self)
    #expect(page.contains("<tr><td class=\"sub\">segment buyers asked</td>"))
    #expect(page.contains("<tr><td class=\"sub\">segment others asked</td><td>0.0% <small>(0)</small></td></tr>"))
    // Without segments, no segment rows and no JSON `segments`.
    let plain = try simulatePolicies(
      simulateJSON(["buyer.policy", "--event", "purchase=0.05", "--users", "50", "--days", "10"], files: Self.files))
    #expect(plain.first?["segments"] == nil)
  }

  @Test("one segment of 100% without overrides gives the numbers of the same file without segments")
  func singleSegment() throws {
    let files = [
      "buyer.policy": Self.buyer,
      "one.json": #"{"events": {"export": 1, "purchase": 0.05}, "segments": {"all": {"share": 1}}}"#,
      "none.json": #"{"events": {"export": 1, "purchase": 0.05}}"#,
    ]
    let arguments = ["buyer.policy", "--users", "300", "--days", "60", "--behaviour"]
    let one = try simulateJSON(arguments + ["one.json"], files: files)
    let none = try simulateJSON(arguments + ["none.json"], files: files)
    var policies = try simulatePolicies(one)
    let segments = try #require(policies[0].removeValue(forKey: "segments") as? [[String: Any]])
    #expect(segments.first?["users"] as? Int == 300)
    #expect(segments.first?["asked"] as? Int == policies[0]["usersAsked"] as? Int)
    #expect(NSArray(array: policies) == NSArray(array: try simulatePolicies(none)))
    #expect(
      NSDictionary(dictionary: try #require(one["activity"] as? [String: Any])) == none["activity"] as? NSDictionary)
  }

  @Test("with segments, the same seed gives the same bytes (text, JSON, two policies), another seed other users")
  func deterministic() {
    let files = Self.files.merging(["always.policy": SimulatePolicies.always]) { $1 }
    for format in ["text", "json"] {
      let arguments = [
        "buyer.policy", "always.policy", "--behaviour", "buyers.json", "--users", "400", "--days", "45", "--format",
        format,
      ]
      let first = simulate(arguments, files: files)
      #expect(first.result.status == 0)
      #expect(first.result == simulate(arguments, files: files).result)
      #expect(first.result != simulate(arguments + ["--seed", "2"], files: files).result)
    }
  }

  @Test(
    "model flags win in every segment: --event, --sessions, --fact, answers; --event-rate with segment events is an error"
  )
  func flagsWin() throws {
    let files = [
      "buyer.policy": Self.buyer,
      "plan.policy": "fact plan: string\nask paying when plan == \"pro\"\n",
      "b.json": """
      {"events": {"export": 1},
       "segments": {"buyers": {"share": "20%", "events": {"purchase": 0.05}, "sessionsPerDay": 3,
                               "facts": {"plan": {"pro": 1}}, "answers": {"rate": 0.5, "decline": 0.2, "later": 0.2}},
                    "others": {"share": "80%", "facts": {"plan": {"free": 1}}}}}
      """,
    ]
    var model = try read(try #require(files["b.json"]))
    #expect(model.set("sessions", "2") == nil)
    #expect(model.segmentModels.map(\.sessionsPerDay) == [2, 2])
    model.setEvent(SimulationEventRate(name: "purchase", perSession: 0.2))
    #expect(model.segmentModels.map { $0.events.first { $0.name == "purchase" }?.perSession } == [0.2, 0.2])
    model.removeDistribution(of: "plan")
    #expect(model.segmentModels.allSatisfy { $0.facts.isEmpty })
    #expect(model.set("rate", "30%") == nil)
    #expect(model.segmentModels.map(\.rateShare) == [0.3, 0.3])
    // On the command line: `--event purchase=0.2` makes everyone buy.
    let arguments = ["buyer.policy", "--behaviour", "b.json", "--users", "300", "--days", "60"]
    let flagged = simulate(arguments + ["--event", "purchase=0.2"], files: files)
    let text = squeezed(flagged.result.standardOutput)
    #expect(
      text.contains(
        "\n segment buyers (20%): purchase 0.2 per session, plan pro 100%, 3.00 sessions per day, rate 50%, "
          + "remind me later 20%, no thanks 20%\n"))
    #expect(text.contains("\n event `purchase` (total_events(\"purchase\")) 0.2 per session\n"))
    let segments = try #require(
      try simulatePolicies(simulateJSON(arguments + ["--event", "purchase=0.2"], files: files)).first?["segments"]
        as? [[String: Any]])
    #expect(try #require(segments[1]["asked"] as? Int) > 0)
    // `--fact plan=pro` wins over both segments' distributions: everyone is asked.
    let planned = try #require(
      try simulatePolicies(
        simulateJSON(["plan.policy", "--behaviour", "b.json", "--fact", "plan=pro", "--users", "50"], files: files)
      ).first)
    #expect(planned["usersAsked"] as? Int == 50)
    // Without it, the segments' plans, stated per segment: only buyers are asked.
    let plans = simulate(["plan.policy", "--behaviour", "b.json", "--users", "50"], files: files)
    #expect(plans.result.standardError == "")
    #expect(
      squeezed(plans.result.standardOutput).contains(
        "\n fact `plan` pro 100% in buyers (20%); free 100% in others (80%)\n"))
    let byPlan = try #require(
      try simulatePolicies(simulateJSON(["plan.policy", "--behaviour", "b.json", "--users", "50"], files: files))
        .first?["segments"] as? [[String: Any]])
    #expect(byPlan[0]["asked"] as? Int == byPlan[0]["users"] as? Int && byPlan[1]["asked"] as? Int == 0)
    // `--decline` that breaks a segment's own answers.
    let over = simulate(arguments + ["--decline", "0.6", "--remind", "0"], files: files)
    #expect(over.result.status == 2)
    #expect(
      over.result.standardError.hasPrefix(
        "policyc simulate: error: the answers of the segment `buyers` add up to 110% with `--rate`, `--remind` and `--decline`; they must add up to at most 100%\n"
      ))
    let rate = simulate(arguments + ["--event-rate", "2"], files: files)
    #expect(rate.result.status == 2)
    #expect(
      rate.result.standardError.hasPrefix(
        "policyc simulate: error: `--event-rate` sets the rate of the default `export` events; the behaviour file names its own events\n"
      ))
  }

  @Test("a fact only some segments give: the others take the default; its values are checked against the type")
  func partlyDistributedFact() {
    let files = [
      "plan.policy": "fact plan: string\nask paying when plan == \"pro\"\n",
      "seats.policy": "fact plan: int\nask when plan > 2\n",
      "p.json": #"{"segments": {"buyers": {"share": "20%", "facts": {"plan": {"pro": 1}}}, "others": {"share": 0.8}}}"#,
    ]
    let run = simulate(["plan.policy", "--behaviour", "p.json", "--users", "50", "--days", "3"], files: files)
    #expect(run.result.status == 0)
    #expect(
      run.result.standardError
        == "policyc simulate: note: plan.policy declares app facts the simulation cannot know; using `plan` = \"\" "
        + "(set them with --fact NAME=VALUE)\n")
    #expect(
      squeezed(run.result.standardOutput).contains(
        "\n fact `plan` pro 100% in buyers (20%); \"\" (default) in others (80%)\n"))
    let wrong = simulate(["seats.policy", "--behaviour", "p.json"], files: files)
    #expect(wrong.result.status == 2)
    #expect(
      wrong.result.standardError.hasPrefix(
        "policyc simulate: error: the behaviour file gives `plan` the value `pro`, but `plan` is an `int` in seats.policy"
      ))
  }

  @Test("policyc help simulate and docs/simulate.md name every key of a behaviour file and of a segment")
  func documented() throws {
    let help = SimulateCommand.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let path = Examples.directory.deletingLastPathComponent().appendingPathComponent("docs/simulate.md")
    let guide = String(decoding: try Data(contentsOf: path), as: UTF8.self)
    for key in SimulationBehaviour.keys + SimulationBehaviour.segmentKeys {
      #expect(help.contains("`\(key)`"), "\(key) is not in the help")
      #expect(guide.contains("`\(key)`"), "\(key) is not in docs/simulate.md")
    }
    #expect(guide.contains("| `segments` |"))
    #expect(guide.contains("\n### Segments\n"))
  }

  /// `text` with every run of spaces made one space, to compare table rows whatever the column widths.
  func squeezed(_ text: String) -> String {
    text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
  }
}
