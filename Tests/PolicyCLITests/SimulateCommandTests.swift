import Foundation
import Testing

@testable import PolicyCLI
@testable import PolicyCore
@testable import PolicyTools

/// Policies the simulation tests run.
enum SimulatePolicies {
  /// Asks early and often: per-version answers, two weeks apart.
  static let engaged = """
    never answered when declined or rated
    never too_soon when since(last_prompt) < 2w
    ask engaged when total_days >= 3 and total_uses >= 5

    """

  /// Asks later, once per 8 weeks, never after any answer or in a bad session.
  static let cautious = """
    never answered when declined_any or rated_any
    never too_soon when since(last_prompt) < 8w
    never bad when session_bad
    ask loyal when total_days >= 14 and total_sessions >= 8 and events >= 2

    """

  /// Asks at every opportunity.
  static let always = "ask when true\n"

  /// Asks at every opportunity, but never twice within 8 weeks.
  static let eightWeeks = "never too_soon when since(last_prompt) < 8w\nask when true\n"

  /// Never asks.
  static let never = "ask when false\n"
}

/// Runs `policyc simulate arguments` in memory with `files`; returns the result and the I/O.
func simulate(
  _ arguments: [String], files: [String: String] = [:], terminal: Bool = false
) -> (result: RunResult, io: MemoryIO) {
  let io = MemoryIO(isStandardOutputTerminal: terminal)
  for (path, text) in files { io.addFile(path, text) }
  let status = SimulateCommand.run(arguments, io: io)
  return (RunResult(status: status, standardOutput: io.standardOutput, standardError: io.standardError), io)
}

/// The JSON report of a run, parsed.
func simulateJSON(_ arguments: [String], files: [String: String]) throws -> [String: Any] {
  let run = simulate(arguments + ["--format", "json"], files: files)
  #expect(run.result.status == 0, "\(run.result)")
  let object = try JSONSerialization.jsonObject(with: Data(run.result.standardOutput.utf8))
  return try #require(object as? [String: Any])
}

/// The policy objects of a JSON report.
func simulatePolicies(_ report: [String: Any]) throws -> [[String: Any]] {
  try #require(report["policies"] as? [[String: Any]])
}

/// `policyc simulate`: exact output, determinism, comparisons and what the policies do to users.
@Suite("policyc simulate: reports")
struct SimulateCommandTests {
  static let files = ["engaged.policy": SimulatePolicies.engaged, "cautious.policy": SimulatePolicies.cautious]

  @Test("20 users, 60 days, two policies: the exact text report")
  func exactText() {
    let run = simulate(["engaged.policy", "cautious.policy", "--users", "20", "--days", "60"], files: Self.files)
    #expect(run.result.status == 0)
    #expect(run.result.standardError == "")
    #expect(run.result.standardOutput == SimulateExpected.twentyUsers + SimulateExpected.twentyUsersExplanation)
  }

  @Test("the same seed gives byte-identical text, JSON and HTML; another seed another report")
  func determinism() throws {
    func outputs(seed: String) -> (text: String, json: String, html: [UInt8]?) {
      let arguments = ["engaged.policy", "cautious.policy", "--users", "60", "--days", "90", "--seed", seed]
      let text = simulate(arguments + ["--html", "r.html"], files: Self.files)
      let json = simulate(arguments + ["--format", "json"], files: Self.files)
      return (text.result.standardOutput, json.result.standardOutput, text.io.files["r.html"])
    }
    let first = outputs(seed: "42")
    let second = outputs(seed: "42")
    #expect(first.text == second.text)
    #expect(first.json == second.json)
    #expect(try #require(first.html) == #require(second.html))
    let other = outputs(seed: "43")
    #expect(other.text != first.text)
    #expect(other.json != first.json)
    #expect(other.html != first.html)
  }

  @Test("each user behaves the same under both policies: a policy's column does not depend on the other")
  func sameUsersUnderBothPolicies() throws {
    let arguments = ["--users", "80", "--days", "120", "--seed", "7"]
    let alone = try simulatePolicies(simulateJSON(["engaged.policy"] + arguments, files: Self.files))
    let pair = try simulateJSON(["engaged.policy", "cautious.policy"] + arguments, files: Self.files)
    let swapped = try simulateJSON(["cautious.policy", "engaged.policy"] + arguments, files: Self.files)
    let pairPolicies = try simulatePolicies(pair)
    let swappedPolicies = try simulatePolicies(swapped)
    #expect(NSDictionary(dictionary: alone[0]).isEqual(to: pairPolicies[0]))
    #expect(NSDictionary(dictionary: pairPolicies[0]).isEqual(to: swappedPolicies[1]))
    #expect(NSDictionary(dictionary: pairPolicies[1]).isEqual(to: swappedPolicies[0]))
    let activity = try #require(pair["activity"] as? [String: Any])
    #expect(NSDictionary(dictionary: activity).isEqual(to: try #require(swapped["activity"] as? [String: Any])))
  }

  @Test("comparison mode shows both columns; a policy that never asks asks 0%")
  func comparisonWithNever() throws {
    let files = ["always.policy": SimulatePolicies.always, "never.policy": SimulatePolicies.never]
    let arguments = ["always.policy", "never.policy", "--users", "30", "--days", "30"]
    let run = simulate(arguments, files: files)
    #expect(run.result.status == 0)
    let lines = run.result.standardOutput.split(separator: "\n").map(String.init)
    // Cells are separated by two spaces or more.
    let rows = lines.map {
      $0.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    #expect(rows.contains(["always.policy", "never.policy"]))
    #expect(rows.contains(["users asked", "100.0% (30)", "0.0% (0)"]))
    #expect(rows.contains(["never asked", "0.0% (0)", "100.0% (30)"]))
    #expect(rows.contains(["median", "day 1", "-"]))
    #expect(rows.contains(["first asked on day (users)", "always.policy", "never.policy"]))

    let json = try simulatePolicies(simulateJSON(arguments, files: files))
    #expect(json.map { $0["name"] as? String } == ["always.policy", "never.policy"])
    #expect(json[0]["usersAsked"] as? Int == 30)
    #expect(json[1]["usersAsked"] as? Int == 0)
    #expect(json[1]["askedShare"] as? Double == 0)
    #expect(json[1]["asks"] as? Int == 0)
    #expect((json[1]["firstAskDay"] as? [String: Any])?["median"] is NSNull)
  }

  @Test("`ask when true` asks every user on day 1, and at every chance: more than 3 a year")
  func alwaysAsksOnDayOne() throws {
    let report = try simulateJSON(
      ["always.policy", "--users", "50", "--days", "30"], files: ["always.policy": SimulatePolicies.always])
    let policy = try #require(try simulatePolicies(report).first)
    #expect(policy["usersAsked"] as? Int == 50)
    let firstAsk = try #require(policy["firstAskDay"] as? [String: Any])
    #expect(firstAsk["p10"] as? Int == 1)
    #expect(firstAsk["p90"] as? Int == 1)
    #expect((firstAsk["byDay"] as? [Int])?.first == 50)
    #expect(((firstAsk["byDay"] as? [Int]) ?? []).dropFirst().allSatisfy { $0 == 0 })
    #expect(try #require(policy["asksBeyond3In365Days"] as? Int) > 0)
    #expect(policy["usersBeyond3In365Days"] as? Int == 50)
    #expect(try #require(policy["asksAfterDecline"] as? Int) > 0)
  }

  @Test("with `never when since(last_prompt) < 8w`: everyone on day 1, never twice within 8 weeks")
  func eightWeeksApart() throws {
    let files = ["eight.policy": SimulatePolicies.eightWeeks]
    // 56 days: exactly one ask each.
    let short = try #require(
      try simulatePolicies(simulateJSON(["eight.policy", "--users", "60", "--days", "56"], files: files)).first)
    #expect(short["usersAsked"] as? Int == 60)
    #expect(short["asks"] as? Int == 60)
    #expect(short["maximumAsks"] as? Int == 1)
    #expect(short["shortestGapDays"] is NSNull)
    #expect(((short["firstAskDay"] as? [String: Any])?["byDay"] as? [Int])?.first == 60)
    // 200 days: asked again, but never within 8 weeks.
    let long = try #require(
      try simulatePolicies(simulateJSON(["eight.policy", "--users", "60", "--days", "200"], files: files)).first)
    #expect(try #require(long["usersAskedMoreThanOnce"] as? Int) > 0)
    #expect(try #require(long["shortestGapDays"] as? Double) >= 56)
    #expect(try #require(long["maximumAsks"] as? Int) <= 4)
  }

  @Test("JSON: parses and has the documented keys")
  func jsonKeys() throws {
    let report = try simulateJSON(
      ["engaged.policy", "cautious.policy", "--users", "20", "--days", "60"], files: Self.files)
    #expect(Set(report.keys) == ["users", "days", "seed", "model", "activity", "behaviour", "policies"])
    #expect(report["users"] as? Int == 20)
    #expect(report["days"] as? Int == 60)
    #expect(report["seed"] as? Int == 1)
    let model = try #require(report["model"] as? [String: Any])
    #expect(
      Set(model.keys) == [
        "heavyShare", "heavyOpenRate", "lightOpenRate", "sessionsPerDay", "eventsPerSession", "badSessionRate", "rate",
        "remind", "decline", "dismiss", "releaseEvery",
      ])
    #expect(model["heavyShare"] as? Double == 0.2)
    let activity = try #require(report["activity"] as? [String: Any])
    #expect(
      Set(activity.keys) == [
        "heavyUsers", "activeDays", "sessions", "significantEvents", "badSessions", "promptChecks", "updates",
      ])
    let policies = try simulatePolicies(report)
    #expect(policies.count == 2)
    for policy in policies {
      #expect(
        Set(policy.keys) == [
          "name", "usersAsked", "askedShare", "heavyUsersAsked", "lightUsersAsked", "firstAskDay", "asks",
          "asksPerUserPerYear", "asksPerUser", "usersAskedMoreThanOnce", "maximumAsks", "shortestGapDays",
          "asksAfterDecline", "usersAskedAfterDecline", "asksBeyond3In365Days", "usersBeyond3In365Days", "answers",
          "usersRated", "checks",
        ])
      let firstAsk = try #require(policy["firstAskDay"] as? [String: Any])
      #expect(Set(firstAsk.keys) == ["p10", "p25", "median", "p75", "p90", "histogram", "byDay"])
      #expect((firstAsk["byDay"] as? [Int])?.count == 60)
      let histogram = try #require(firstAsk["histogram"] as? [[String: Int]])
      #expect(histogram.first == ["from": 1, "to": 7, "users": histogram.first?["users"] ?? -1])
      #expect(histogram.last?["to"] == 60)
      let answers = try #require(policy["answers"] as? [String: Int])
      #expect(Set(answers.keys) == ["rate", "remindLater", "decline", "dismiss"])
      #expect(answers.values.reduce(0, +) == policy["asks"] as? Int)
      let perUser = try #require(policy["asksPerUser"] as? [[String: Any]])
      #expect(perUser.count == 11)
      #expect(perUser.compactMap { $0["users"] as? Int }.reduce(0, +) == 20)
    }
    // The same numbers as the text report.
    #expect(policies[0]["usersAsked"] as? Int == 20)
    #expect(policies[1]["usersAsked"] as? Int == 18)
    #expect(policies[0]["asks"] as? Int == 48)
    #expect(policies[0]["asksPerUserPerYear"] as? Double == 14.6)
  }

  @Test("the behaviour model's flags change the population; shares take 0.5 or 50%")
  func modelFlags() throws {
    let base = ["engaged.policy", "--users", "40", "--days", "60"]
    let defaults = try simulateJSON(base, files: Self.files)
    let busy = try simulateJSON(
      base + ["--heavy-share", "100%", "--sessions", "3", "--event-rate", "2", "--release-every", "0"],
      files: Self.files)
    let defaultActivity = try #require(defaults["activity"] as? [String: Int])
    let busyActivity = try #require(busy["activity"] as? [String: Int])
    #expect(busyActivity["heavyUsers"] == 40)
    #expect(try #require(busyActivity["sessions"]) > 2 * (try #require(defaultActivity["sessions"])))
    #expect(busyActivity["updates"] == 0)
    let model = try #require(busy["model"] as? [String: Any])
    #expect(model["heavyShare"] as? Double == 1)
    #expect(model["releaseEvery"] as? Int == 0)

    let allRate = try #require(
      try simulatePolicies(simulateJSON(base + ["--rate", "1", "--remind", "0", "--decline", "0"], files: Self.files))
        .first)
    let answers = try #require(allRate["answers"] as? [String: Int])
    #expect(answers["rate"] == allRate["asks"] as? Int)
    let allDismiss = try #require(
      try simulatePolicies(simulateJSON(base + ["--rate", "0", "--remind", "0", "--decline", "0"], files: Self.files))
        .first)
    #expect((allDismiss["answers"] as? [String: Int])?["dismiss"] == allDismiss["asks"] as? Int)
  }

  @Test("declared app facts: `--fact` sets them; otherwise a note names the defaults")
  func appFacts() throws {
    let policy = "fact plan: string\nfact trial: bool\nask paying when plan == \"pro\" and not trial\n"
    let files = ["plan.policy": policy]
    let unset = simulate(["plan.policy", "--users", "10", "--days", "10"], files: files)
    #expect(unset.result.status == 0)
    #expect(
      unset.result.standardError
        == "policyc simulate: note: plan.policy declares app facts the simulation cannot know; using `plan` = \"\", `trial` = false (set them with --fact NAME=VALUE)\n"
    )
    #expect(usersAskedLine(unset.result.standardOutput).hasSuffix(" 0.0% (0)"))
    let set = simulate(
      ["plan.policy", "--users", "10", "--days", "10", "--fact", "plan=pro", "--fact=trial=false"], files: files)
    #expect(set.result.status == 0)
    #expect(set.result.standardError == "")
    #expect(usersAskedLine(set.result.standardOutput).hasSuffix(" 100.0% (10)"))
  }

  /// The "users asked" line of a text report.
  func usersAskedLine(_ report: String) -> String {
    report.split(separator: "\n").first { $0.hasPrefix("users asked ") }.map(String.init) ?? ""
  }

  @Test("--verbose reports the speed on standard error only; standard output is unchanged")
  func verbose() {
    let arguments = ["engaged.policy", "--users", "10", "--days", "10"]
    let quiet = simulate(arguments, files: Self.files)
    let verbose = simulate(arguments + ["--verbose"], files: Self.files)
    #expect(verbose.result.standardOutput == quiet.result.standardOutput)
    #expect(
      verbose.result.standardError.hasPrefix("policyc simulate: 100 user-days (10 users x 10 days x 1 policy) in "))
    #expect(verbose.result.standardError.contains(" user-days/s on "))
  }

  @Test("progress goes to standard error on a terminal, never with --format json or off a terminal")
  func progress() {
    let arguments = ["engaged.policy", "--users", "10", "--days", "5"]
    let terminal = simulate(arguments, files: Self.files, terminal: true)
    #expect(terminal.result.standardError.contains("\rsimulated 10/10 users"))
    #expect(terminal.result.standardError.hasSuffix("\r\u{1B}[K"))
    #expect(!terminal.result.standardOutput.contains("\r"))
    #expect(simulate(arguments, files: Self.files).result.standardError == "")
    #expect(simulate(arguments + ["--format", "json"], files: Self.files, terminal: true).result.standardError == "")
  }

  @Test("--progress forces the progress line off a terminal, --no-progress hides it; standard output is the same")
  func progressFlags() {
    let arguments = ["engaged.policy", "--users", "2000", "--days", "5"]
    let plain = simulate(arguments, files: Self.files)
    let forced = simulate(arguments + ["--progress"], files: Self.files)
    #expect(forced.result.standardOutput == plain.result.standardOutput)
    // Off a terminal, one line each (for a log), throttled: at most one per 2% of the users
    // (and one per half second), and always the last.
    #expect(forced.result.standardError.hasSuffix("simulated 2,000/2,000 users\n"))
    #expect(!forced.result.standardError.contains("\r"))
    #expect(forced.result.standardError.components(separatedBy: "simulated ").count - 1 <= 51)
    let hidden = simulate(arguments + ["--no-progress"], files: Self.files, terminal: true)
    #expect(hidden.result.standardError == "")
    #expect(hidden.result.standardOutput == plain.result.standardOutput)
    #expect(simulate(arguments + ["--progress", "--no-progress"], files: Self.files).result.status == 2)
  }
}

/// `policyc simulate --html`: one self-contained file.
@Suite("policyc simulate: HTML report")
struct SimulateHTMLTests {
  @Test("self-contained, balanced, with both policies' names (escaped) and the charts")
  func selfContained() throws {
    let files = ["a&b<1>.policy": SimulatePolicies.engaged, "cautious.policy": SimulatePolicies.cautious]
    let run = simulate(
      ["a&b<1>.policy", "cautious.policy", "--users", "30", "--days", "60", "--html", "out/report.html"], files: files)
    #expect(run.result.status == 0)
    #expect(run.io.writtenPaths == ["out/report.html"])
    let html = String(decoding: try #require(run.io.files["out/report.html"]), as: UTF8.self)
    #expect(!html.lowercased().contains("http"))
    #expect(!html.lowercased().contains("<script"))
    #expect(!html.contains("<link"))
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.contains("a&amp;b&lt;1&gt;.policy"))
    #expect(!html.contains("a&b<1>"))
    #expect(html.contains("cautious.policy"))
    for tag in ["html", "head", "body", "main", "svg", "table", "figure", "section", "style", "title"] {
      let opened = html.components(separatedBy: "<\(tag)>").count + html.components(separatedBy: "<\(tag) ").count - 2
      let closed = html.components(separatedBy: "</\(tag)>").count - 1
      #expect(opened == closed, "<\(tag)>: \(opened) opened, \(closed) closed")
    }
    #expect(html.components(separatedBy: "<svg ").count - 1 == 4)
    for id in ["summary", "first-ask", "asked-so-far", "asks-per-user", "answers"] {
      #expect(html.contains("id=\"\(id)\""))
    }
    // Both policies' bars, in their colours.
    #expect(html.contains("fill=\"#2563eb\""))
    #expect(html.contains("fill=\"#ea580c\""))
    #expect(html.hasSuffix("</html>\n"))
  }

  @Test("an unwritable --html path: a clear error naming it, exit 2, no file; the report is still printed")
  func unwritable() {
    let io = MemoryIO()
    io.addFile("engaged.policy", SimulatePolicies.engaged)
    io.writeErrors["/nope/report.html"] = "No such file or directory"
    let status = SimulateCommand.run(
      ["engaged.policy", "--users", "5", "--days", "5", "--html", "/nope/report.html"], io: io)
    #expect(status == 2)
    #expect(
      io.standardError
        == "policyc simulate: error: cannot write the HTML report `/nope/report.html`: No such file or directory\n")
    #expect(io.files["/nope/report.html"] == nil)
    #expect(io.writtenPaths.isEmpty)
    #expect(io.standardOutput.hasPrefix("simulated 5 users for 5 days (seed 1)\n"))
  }
}

/// `policyc simulate`: usage errors, policy errors and help.
@Suite("policyc simulate: errors and help")
struct SimulateErrorTests {
  static let files = ["a.policy": SimulatePolicies.engaged, "b.policy": SimulatePolicies.never]

  @Test(
    "usage errors: exit 2, the message and the usage on standard error, nothing on standard output",
    arguments: [
      ([], "no policy given"),
      (["a.policy", "b.policy", "a.policy"], "give one or two policies, not 3"),
      (["a.policy", "--users", "0"], "`--users 0` must be a whole number from 1 to 1000000"),
      (["a.policy", "--users", "1000001"], "`--users 1000001` must be a whole number from 1 to 1000000"),
      (["a.policy", "--users", "many"], "`--users many` must be a whole number from 1 to 1000000"),
      (["a.policy", "--days", "3651"], "`--days 3651` must be a whole number from 1 to 3650"),
      (["a.policy", "--days", "0"], "`--days 0` must be a whole number from 1 to 3650"),
      (["a.policy", "--seed", "-1"], "`--seed -1` must be a whole number from 0 to 18446744073709551615"),
      (["a.policy", "--format", "xml"], "unknown format `xml`; use `text` or `json`"),
      (["a.policy", "--user", "5"], "unknown option `--user`; did you mean `--users`?"),
      (["a.policy", "--days"], "option `--days` needs a value"),
      (["a.policy", "--html", ""], "`--html` needs a file name"),
      (["a.policy", "--rate", "1.5"], "`--rate 1.5` must be a share from 0 to 1 (or 0% to 100%)"),
      (["a.policy", "--heavy-share", "120%"], "`--heavy-share 120%` must be a share from 0 to 1 (or 0% to 100%)"),
      (["a.policy", "--sessions", "0.5"], "`--sessions 0.5` must be a number from 1 to 20"),
      (["a.policy", "--event-rate", "nan"], "`--event-rate nan` must be a number from 0 to 20"),
      (["a.policy", "--release-every", "-3"], "`--release-every -3` must be a whole number of days from 0 to 3650"),
      (
        ["a.policy", "--rate", "50%", "--remind", "0.4", "--decline", "0.2"],
        "`--rate`, `--remind` and `--decline` add up to 110%; they must add up to at most 100%"
      ),
      (["a.policy", "--fact", "plan"], "`--fact plan` must be NAME=VALUE, such as `--fact plan=pro`"),
      (["a.policy", "--fact"], "option `--fact` needs a value"),
      (["a.policy", "--fact", "plan=pro"], "`--fact plan=pro`: the policy does not declare `fact plan`"),
      (
        ["a.policy", "--fact", "days=3"],
        "`--fact days=...`: `days` is tracked by the review manager; `--fact` sets app facts a policy declares"
      ),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) {
    let run = simulate(arguments, files: Self.files)
    #expect(run.result.status == 2)
    #expect(run.result.standardOutput == "")
    #expect(run.result.standardError == "policyc simulate: error: \(message)\n\n\(SimulateCommand.usage)")
  }

  @Test("a declared fact given a value of the wrong type, or a misspelt one, is a usage error")
  func factValues() {
    let files = ["p.policy": "fact trial: bool\nfact seats: int\nask when not trial and seats > 2\n"]
    let wrongType = simulate(["p.policy", "--fact", "trial=yes"], files: files)
    #expect(wrongType.result.status == 2)
    #expect(
      wrongType.result.standardError.hasPrefix(
        "policyc simulate: error: `--fact trial=yes`: `trial` is a `bool` in p.policy; write true or false\n"))
    let misspelt = simulate(["p.policy", "--fact", "seat=3"], files: files)
    #expect(misspelt.result.status == 2)
    #expect(
      misspelt.result.standardError.hasPrefix(
        "policyc simulate: error: `--fact seat=3`: the policy does not declare `fact seat`; did you mean `seats`?\n"))
  }

  @Test("a policy with errors: its diagnostics on standard error, exit 1; every policy is checked")
  func policyErrors() {
    let files = ["bad.policy": "ask when dayz >= 3\n", "worse.policy": "ask when uses > 2d\n"]
    let run = simulate(["bad.policy", "worse.policy"], files: files)
    #expect(run.result.status == 1)
    #expect(run.result.standardOutput == "")
    #expect(run.result.standardError.contains("bad.policy:1:10: error: unknown name `dayz`"))
    #expect(run.result.standardError.contains("worse.policy:1:10: error:"))
  }

  @Test("a policy that cannot be read: exit 2, naming the file")
  func unreadable() {
    let run = simulate(["missing.policy"])
    #expect(run.result.status == 2)
    #expect(
      run.result.standardError == "policyc simulate: error: cannot read `missing.policy`: No such file or directory\n")
  }

  @Test("--help prints the help with the behaviour model, exit 0")
  func help() {
    let run = simulate(["--help"])
    #expect(run.result == RunResult(status: 0, standardOutput: SimulateCommand.help, standardError: ""))
    for flag in SimulationModel.options.map(\.name) + ["users", "days", "seed", "html", "format", "fact", "verbose"] {
      #expect(SimulateCommand.help.contains("--\(flag) "), "--\(flag) is not in the help")
    }
    #expect(SimulateCommand.help.split(separator: "\n").allSatisfy { $0.count <= 100 })
  }
}

/// The building blocks: random streams, number formatting and histogram buckets.
@Suite("policyc simulate: model and formatting")
struct SimulateModelTests {
  @Test("SimulationRandom is the reference generator; streams differ by seed, user and stream")
  func splitMix() {
    // The reference sequence for state 0 (Vigna's splitmix64.c).
    var generator = SimulationRandom(seed: 0, user: 0, stream: 0)
    generator.state = 0
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
    let a = SimulationRandom(seed: 1, user: 0, stream: 0).state
    #expect(a != SimulationRandom(seed: 2, user: 0, stream: 0).state)
    #expect(a != SimulationRandom(seed: 1, user: 1, stream: 0).state)
    #expect(a != SimulationRandom(seed: 1, user: 0, stream: 1).state)
    var bounded = SimulationRandom(seed: 9, user: 3, stream: 0)
    #expect((0..<1000).allSatisfy { _ in bounded.below(7) < 7 })
    var never = SimulationRandom(seed: 9, user: 3, stream: 0)
    #expect((0..<1000).allSatisfy { _ in !never.chance(SimulationProbability(0)) })
    var always = SimulationRandom(seed: 9, user: 3, stream: 0)
    #expect((0..<1000).allSatisfy { _ in always.chance(SimulationProbability(1)) })
  }

  @Test("deterministic formatting: decimals, trimmed decimals, percentages, thousands")
  func formatting() {
    #expect(SimulationFormat.decimal(0.125, places: 2) == "0.13")
    #expect(SimulationFormat.decimal(14.6, places: 2) == "14.60")
    #expect(SimulationFormat.decimal(-0.04, places: 1) == "0.0")
    #expect(SimulationFormat.decimal(-1.25, places: 1) == "-1.3")
    #expect(SimulationFormat.decimal(3, places: 0) == "3")
    #expect(SimulationFormat.trimmed(0.5, places: 6) == "0.5")
    #expect(SimulationFormat.trimmed(2, places: 6) == "2")
    #expect(SimulationFormat.share(0.125) == "12.5%")
    #expect(SimulationFormat.share(0.2) == "20%")
    #expect(SimulationFormat.percent(1, of: 3) == "33.3%")
    #expect(SimulationFormat.percent(0, of: 0) == "-")
    #expect(SimulationFormat.grouped(0) == "0")
    #expect(SimulationFormat.grouped(999) == "999")
    #expect(SimulationFormat.grouped(1000) == "1,000")
    #expect(SimulationFormat.grouped(-1_234_567) == "-1,234,567")
  }

  @Test("first-ask histogram buckets: at most 20, round widths, covering every day once")
  func bins() {
    #expect(SimulationReport.bins(days: 1) == [1...1])
    #expect(SimulationReport.bins(days: 20).count == 20)
    #expect(SimulationReport.bins(days: 21) == stride(from: 1, through: 21, by: 2).map { $0...min($0 + 1, 21) })
    #expect(SimulationReport.bins(days: 60).map(\.lowerBound) == [1, 8, 15, 22, 29, 36, 43, 50, 57])
    #expect(SimulationReport.bins(days: 365).first == 1...30)
    #expect(SimulationReport.bins(days: 365).last == 361...365)
    for days in [1, 2, 19, 20, 21, 59, 60, 140, 141, 365, 366, 1000, 3650] {
      let bins = SimulationReport.bins(days: days)
      #expect(bins.count <= 20)
      #expect(bins.map(\.count).reduce(0, +) == days)
      #expect(bins.last?.upperBound == days)
    }
  }

  @Test("the model's defaults and summary")
  func modelSummary() {
    let model = SimulationModel()
    #expect(model.dismissShare < 1e-9)
    #expect(model.validate() == nil)
    #expect(
      model.summaryLines == [
        "20% heavy users open the app on 80% of days, the others on 15% (everyone on day 1)",
        "1.50 sessions per day with the app open, 1.00 significant events per session, 5% bad sessions",
        "answers: rate 25%, remind me later 35%, no thanks 40%, dismiss 0%; a new app version every 30 days",
      ])
  }
}

/// Expected reports, checked in.
enum SimulateExpected {
  /// `policyc simulate engaged.policy cautious.policy --users 20 --days 60`.
  static let twentyUsers = """
    simulated 20 users for 60 days (seed 1)
    model:    20% heavy users open the app on 80% of days, the others on 15% (everyone on day 1)
              1.50 sessions per day with the app open, 1.00 significant events per session, 5% bad sessions
              answers: rate 25%, remind me later 35%, no thanks 40%, dismiss 0%; a new app version every 30 days
    activity: per user, 18.0 days with the app open, 27.1 sessions, 28.5 significant events,
              55.6 prompt checks (policy decisions) and 1.8 app updates

                                      engaged.policy   cautious.policy
    users asked                          100.0% (20)        90.0% (18)
      heavy users                         100.0% (4)        100.0% (4)
      light users                        100.0% (16)        87.5% (14)
    first ask (day since install)
      10th percentile                          day 5            day 15
      25th percentile                          day 7            day 15
      median                                  day 12            day 23
      75th percentile                         day 23            day 45
      90th percentile                         day 33            day 56
    asks                                          48                18
    asks per user per year                     14.60              5.48
    asks per asked user                         2.40              1.00
    users asked more than once            90.0% (18)          0.0% (0)
    most asks to one user                          4                 1
    shortest time between asks             14.0 days                 -
    asks after a "no thanks"          6 (to 4 users)    0 (to 0 users)
    asks beyond 3 in 365 days          1 (to 1 user)    0 (to 0 users)
    answers
      rate                                41.7% (20)         50.0% (9)
      remind me later                     27.1% (13)         27.8% (5)
      no thanks                           31.3% (15)         22.2% (4)
      dismissed                             0.0% (0)          0.0% (0)
    users who rated                       65.0% (13)         45.0% (9)

    first asked on day (users)        engaged.policy   cautious.policy
      days  1-7                            25.0% (5)          0.0% (0)
      days  8-14                           30.0% (6)          0.0% (0)
      days 15-21                           15.0% (3)         40.0% (8)
      days 22-28                           10.0% (2)         25.0% (5)
      days 29-35                           10.0% (2)          0.0% (0)
      days 36-42                            5.0% (1)          0.0% (0)
      days 43-49                            5.0% (1)         15.0% (3)
      days 50-56                            0.0% (0)          5.0% (1)
      days 57-60                            0.0% (0)          5.0% (1)
      never asked                           0.0% (0)         10.0% (2)

    asks per user (users)             engaged.policy   cautious.policy
      0                                     0.0% (0)         10.0% (2)
      1                                    10.0% (2)        90.0% (18)
      2                                    45.0% (9)          0.0% (0)
      3                                    40.0% (8)          0.0% (0)
      4                                     5.0% (1)          0.0% (0)
      5                                     0.0% (0)          0.0% (0)
      6                                     0.0% (0)          0.0% (0)
      7                                     0.0% (0)          0.0% (0)
      8                                     0.0% (0)          0.0% (0)
      9                                     0.0% (0)          0.0% (0)
      10 or more                            0.0% (0)          0.0% (0)

    """

  /// The explanation sections that follow ``twentyUsers`` in the same report.
  static let twentyUsersExplanation = """

    behaviour the policies read        in the model
      event `export`                  1 per session

    rules at 1,111 prompt checks: engaged.policy           held        evaluated
      never answered (line 1)                       52.7% (586)
        declined                                    19.1% (212)   100.0% (1,111)
        rated                                       33.7% (374)      80.9% (899)
      never too_soon (line 2)                       67.8% (753)
        since(last_prompt) < 2w                     67.8% (753)   100.0% (1,111)
      ask engaged (line 3)                          83.8% (931)
        total_days >= 3                           90.3% (1,003)   100.0% (1,111)
        total_uses >= 5                             83.8% (931)    90.3% (1,003)

    what blocked the asks: engaged.policy       checks
      asked                                  4.3% (48)
      a `never` rule held                  79.5% (883)
        never answered (line 1)            52.7% (586)
        never too_soon (line 2)            67.8% (753)
      no `ask` rule held                   16.2% (180)
        `total_days >= 3` failed            9.7% (108)
        `total_uses >= 5` failed             6.5% (72)

    rules at 1,111 prompt checks: cautious.policy         held        evaluated
      never answered (line 1)                      43.7% (486)
        declined_any                               16.1% (179)   100.0% (1,111)
        rated_any                                  27.6% (307)      83.9% (932)
      never too_soon (line 2)                      61.4% (682)
        since(last_prompt) < 8w                    61.4% (682)   100.0% (1,111)
      never bad (line 3)                             1.3% (14)
        session_bad                                  1.3% (14)   100.0% (1,111)
      ask loyal (line 4)                           57.0% (633)
        total_days >= 14                           74.0% (822)   100.0% (1,111)
        total_sessions >= 8                        65.1% (723)      74.0% (822)
        events >= 2                                57.0% (633)      65.1% (723)

    what blocked the asks: cautious.policy       checks
      asked                                   1.6% (18)
      a `never` rule held                   61.8% (687)
        never answered (line 1)             43.7% (486)
        never too_soon (line 2)             61.4% (682)
        never bad (line 3)                    1.3% (14)
      no `ask` rule held                    36.5% (406)
        `total_days >= 14` failed           25.6% (284)
        `total_sessions >= 8` failed          8.9% (99)
        `events >= 2` failed                  2.1% (23)

    """
}
