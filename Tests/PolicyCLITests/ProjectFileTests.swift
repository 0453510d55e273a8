// Every verb that compiles a policy reads the app's event names the same way: from the project
// file `reviewpolicy.json` found walking up from the policy's folder, or from `--events`, which
// overrides it.
//
// Golden cases for malformed project files: each `Golden/project/NAME.json` is the project file
// beside a clean policy, and `Golden/project/NAME.expected` the exact standard output of
// `policyc check app/p.policy` followed by `exit: N` (standard error must be empty).
// `UPDATE_GOLDEN=1 swift test --filter PolicyCLITests.ProjectFileGoldenTests` rewrites them.

import Foundation
import Testing

@testable import PolicyCLI

/// The files and verbs of the project-file tests.
enum ProjectFixtures {
  /// A policy that respects review etiquette and reads `events("share")` (line 4, column 17).
  static let policy = """
    never answered when declined or rated
    never too_soon when since(last_prompt) < 8w
    never yearly_cap when prompts_within(365d) >= 3
    ask when events("share") >= 3

    """
  /// The PC217 header line for ``policy`` at `app/p.policy`.
  static let unknownShare = "app/p.policy:4:17: error: unknown event `share` [PC217]"
  /// A project file declaring other names than `share`.
  static let exportAndPurchase = #"{"events": ["export", "purchase"]}"#

  /// The policy, a second copy, a facts file and a test file, in `app/`.
  static let files: [String: String] = [
    "app/p.policy": policy,
    "app/q.policy": policy,
    "app/facts.json": "{}",
    "app/p.test.json": #"{"policy": "p.policy", "cases": [{"name": "a", "facts": {}, "expect": "dont_ask"}]}"#,
  ]

  /// One verb run on ``files``: its arguments and the status when the policy has an error.
  struct Verb: Sendable, CustomTestStringConvertible {
    /// The arguments, without `--events`.
    var arguments: [String]
    /// The exit status when the policy has PC217.
    var failure: Int32

    var testDescription: String { arguments[0] }
  }

  /// Every verb that compiles a policy (`fmt` does not: it only parses).
  static let verbs: [Verb] = [
    Verb(arguments: ["check", "app/p.policy"], failure: 1),
    Verb(arguments: ["check", "--fix", "app/p.policy"], failure: 1),
    Verb(arguments: ["analyze", "app/p.policy"], failure: 2),
    Verb(arguments: ["eval", "app/p.policy", "--facts", "app/facts.json"], failure: 1),
    Verb(arguments: ["explain", "app/p.policy", "--facts", "app/facts.json"], failure: 1),
    Verb(arguments: ["test", "app/p.test.json"], failure: 1),
    Verb(arguments: ["diff", "app/p.policy", "app/q.policy"], failure: 2),
    Verb(arguments: ["simulate", "app/p.policy", "--users", "5", "--days", "5"], failure: 1),
  ]

  /// Runs `arguments` on ``files`` and `extra` files; the result and the paths read.
  static func run(_ arguments: [String], extra: [String: String] = [:]) -> (result: RunResult, io: MemoryIO) {
    let io = MemoryIO()
    for (path, text) in files.merging(extra, uniquingKeysWith: { $1 }) { io.addFile(path, text) }
    return (io.run(arguments), io)
  }
}

@Suite("project file and --events, every verb")
struct ProjectFileVerbTests {
  typealias F = ProjectFixtures

  @Test("a project file declaring other names: an event name outside them is PC217", arguments: F.verbs)
  func projectFile(_ verb: F.Verb) {
    let (result, io) = F.run(verb.arguments, extra: ["app/reviewpolicy.json": F.exportAndPurchase])
    #expect(result.status == verb.failure, "\(result)")
    #expect((result.standardOutput + result.standardError).contains(F.unknownShare), "\(result)")
    #expect(io.readPaths.contains("app/reviewpolicy.json"))
  }

  @Test("--events declaring other names: an event name outside them is PC217", arguments: F.verbs)
  func eventsOption(_ verb: F.Verb) {
    let (result, _) = F.run(verb.arguments + ["--events", "export, purchase"])
    #expect(result.status == verb.failure, "\(result)")
    #expect((result.standardOutput + result.standardError).contains(F.unknownShare), "\(result)")
    #expect((result.standardOutput + result.standardError).contains("help: the app records `export`, `purchase`"))
  }

  @Test("without a project file or --events, any event name checks", arguments: F.verbs)
  func neither(_ verb: F.Verb) {
    let (result, _) = F.run(verb.arguments)
    #expect(!(result.standardOutput + result.standardError).contains("PC217"), "\(result)")
    #expect(result.status == 0, "\(result)")
  }

  @Test("--events overrides the project file, which is then not read", arguments: F.verbs)
  func eventsOverridesProjectFile(_ verb: F.Verb) {
    // The project file allows `share`; --events does not.
    let allows = F.run(
      verb.arguments + ["--events", "export"], extra: ["app/reviewpolicy.json": #"{"events": ["share"]}"#])
    #expect(allows.result.status == verb.failure, "\(allows.result)")
    #expect((allows.result.standardOutput + allows.result.standardError).contains(F.unknownShare))
    #expect(!allows.io.readPaths.contains("app/reviewpolicy.json"))
    // The project file does not allow `share` (and is not even valid); --events does.
    let broken = #"{"events": ["export"], "colour": 1"#
    let overridden = F.run(verb.arguments + ["--events", "share"], extra: ["app/reviewpolicy.json": broken])
    #expect(
      !(overridden.result.standardOutput + overridden.result.standardError).contains("PC2"), "\(overridden.result)")
    #expect(!(overridden.result.standardOutput + overridden.result.standardError).contains("PC40"))
    #expect(!overridden.io.readPaths.contains("app/reviewpolicy.json"))
  }

  @Test("fmt does not compile, so it reads no project file")
  func format() {
    let (result, io) = F.run(["fmt", "app/p.policy"], extra: ["app/reviewpolicy.json": F.exportAndPurchase])
    #expect(result == RunResult(status: 0, standardOutput: F.policy, standardError: ""))
    #expect(io.readPaths == ["app/p.policy"])
  }

  @Test("simulate --events takes names; a number there points to --event-rate")
  func simulateEvents() {
    let number = F.run(["simulate", "app/p.policy", "--events", "3"])
    #expect(number.result.status == 2)
    #expect(
      number.result.standardError.hasPrefix(
        "policyc simulate: error: `--events 3` names the events the app records; for the mean number of events per "
          + "session, use `--event-rate 3`\n\nUSAGE: policyc simulate"))
    let rate = F.run(["simulate", "app/p.policy", "--users", "5", "--days", "5", "--event-rate", "3"])
    #expect(rate.result.status == 0, "\(rate.result)")
    #expect(rate.result.standardOutput.contains("3.00 significant events per session"))
    let named = F.run(["simulate", "app/p.policy", "--users", "5", "--days", "5", "--events", "share"])
    #expect(named.result.status == 0, "\(named.result)")
  }
}

@Suite("project file discovery and problems")
struct ProjectFileDiscoveryTests {
  typealias F = ProjectFixtures

  @Test("the project file is found in a folder above the policy's, the nearest one winning")
  func walksUp() {
    let io = MemoryIO()
    io.addFile("repo/policies/ios/p.policy", F.policy)
    io.addFile("repo/reviewpolicy.json", F.exportAndPurchase)
    #expect(io.run(["check", "repo/policies/ios/p.policy"]).standardOutput.contains("unknown event `share` [PC217]"))
    #expect(io.readPaths == ["repo/policies/ios/p.policy", "repo/reviewpolicy.json"])
    // A nearer one wins, and the one above is not read.
    let nearer = MemoryIO()
    nearer.addFile("repo/policies/ios/p.policy", F.policy)
    nearer.addFile("repo/reviewpolicy.json", #"{"events": [1]}"#)
    nearer.addFile("repo/policies/reviewpolicy.json", #"{"events": ["share"]}"#)
    #expect(nearer.run(["check", "repo/policies/ios/p.policy"]).status == 0)
    #expect(nearer.readPaths == ["repo/policies/ios/p.policy", "repo/policies/reviewpolicy.json"])
  }

  @Test("a relative path is looked up above the current directory, up to the root")
  func aboveCurrentDirectory() {
    let io = MemoryIO()
    io.currentDirectory = "/work/app/policies"
    io.addFile("p.policy", F.policy)
    io.addFile("../reviewpolicy.json", F.exportAndPurchase)
    let result = io.run(["check", "p.policy"])
    #expect(result.standardOutput.contains("p.policy:4:17: error: unknown event `share` [PC217]"), "\(result)")
    // Standard input starts from the current directory.
    let stdin = MemoryIO()
    stdin.currentDirectory = "/work/app"
    stdin.standardInput = Array(F.policy.utf8)
    stdin.addFile("../reviewpolicy.json", F.exportAndPurchase)
    #expect(stdin.run(["check", "-"]).standardOutput.contains("<stdin>:4:17: error: unknown event `share` [PC217]"))
    // Nothing is looked at above the root.
    let root = MemoryIO()
    root.currentDirectory = "/work"
    root.addFile("p.policy", F.policy)
    root.addFile("../../reviewpolicy.json", F.exportAndPurchase)
    #expect(root.run(["check", "p.policy"]).status == 0)
  }

  @Test("a malformed project file is reported once however many policies it covers")
  func reportedOnce() {
    let project = #"{"evnts": ["export"]}"#
    let (result, io) = F.run(["check", "app/p.policy", "app/q.policy"], extra: ["app/reviewpolicy.json": project])
    #expect(result.status == 1)
    #expect(result.standardOutput.components(separatedBy: "unknown key `evnts` in a project file").count == 2)
    #expect(result.standardOutput.hasSuffix("checked 3 files: 1 error\n"), "\(result)")
    #expect(io.readPaths.filter { $0 == "app/reviewpolicy.json" }.count == 1)
    // The verbs that answer stop, with the problems on standard error.
    let eval = F.run(
      ["eval", "app/p.policy", "--facts", "app/facts.json"], extra: ["app/reviewpolicy.json": project])
    #expect(eval.result.status == 1)
    #expect(eval.result.standardOutput == "")
    #expect(
      eval.result.standardError == """
        app/reviewpolicy.json:1:2: error: unknown key `evnts` in a project file [PC402]
         1 | {"evnts": ["export"]}
           |  ^~~~~~~
        help: did you mean `events`?

        """)
    let diff = F.run(["diff", "app/p.policy", "app/q.policy"], extra: ["app/reviewpolicy.json": project])
    #expect(diff.result.status == 2)
    #expect(diff.result.standardError.components(separatedBy: "unknown key").count == 2)
    let simulate = F.run(["simulate", "app/p.policy"], extra: ["app/reviewpolicy.json": project])
    #expect(simulate.result.status == 1)
    #expect(simulate.result.standardError.contains("unknown key `evnts` in a project file [PC402]"))
  }

  @Test("a test file whose policy's project file is malformed: the problems, then PC407 at `policy`")
  func testFile() {
    let (result, _) = F.run(["test", "app/p.test.json"], extra: ["app/reviewpolicy.json": #"{"events": "share"}"#])
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        """
        app/reviewpolicy.json:1:12: error: `events` must be a list of the event names the app records, but this is a string [PC402]
        """))
    #expect(
      result.standardError.contains(
        "app/p.test.json:1:12: error: the project file of the policy `p.policy` has errors [PC407]"))
    #expect(
      result.standardError.contains("help: fix the errors above in `app/reviewpolicy.json`, then run the tests again"))
    // Two test files of policies below it: its problems once, a PC407 for each.
    let twice = F.run(
      ["test", "app/p.test.json", "app/q.test.json"],
      extra: [
        "app/reviewpolicy.json": #"{"events": "share"}"#,
        "app/q.test.json": #"{"policy": "q.policy", "cases": [{"name": "a", "facts": {}, "expect": "dont_ask"}]}"#,
      ])
    #expect(twice.result.status == 1)
    #expect(twice.result.standardError.components(separatedBy: "`events` must be a list").count == 2)
    #expect(twice.result.standardError.components(separatedBy: "[PC407]").count == 3)
  }

  @Test("a history step recording an event the app does not record is an error at the step")
  func historyEvent() {
    let test = #"""
      {"policy": "p.policy", "cases": [{"name": "a", "history": ["event exprt"], "expect": "dont_ask"}]}
      """#
    let (result, _) = F.run(
      ["test", "--events", "export,share", "app/h.test.json"], extra: ["app/h.test.json": test])
    #expect(result.status == 1, "\(result)")
    #expect(result.standardError.contains("error: the app does not record the event `exprt` [PC406]"))
    #expect(result.standardError.contains("help: did you mean `export`?"))
  }

  @Test("a project file that cannot be read: an I/O error naming it, exit 2")
  func unreadable() {
    let io = MemoryIO()
    for (path, text) in F.files { io.addFile(path, text) }
    io.fileErrors["app/reviewpolicy.json"] = "Permission denied"
    let check = io.run(["check", "app/p.policy"])
    #expect(check.status == 2)
    #expect(
      check.standardError
        == "policyc check: error: cannot read the project file `app/reviewpolicy.json`: Permission denied\n")
    let eval = MemoryIO()
    for (path, text) in F.files { eval.addFile(path, text) }
    eval.fileErrors["app/reviewpolicy.json"] = "Permission denied"
    let evaluated = eval.run(["eval", "app/p.policy", "--facts", "app/facts.json"])
    #expect(evaluated.status == 2)
    #expect(evaluated.standardError.contains("cannot read the project file `app/reviewpolicy.json`: Permission denied"))
  }

  @Test("a project file over 2 MiB is PC100, located in it")
  func tooLarge() {
    let big = "{\"events\": []}" + String(repeating: " ", count: 2 * 1024 * 1024)
    let (result, _) = F.run(["check", "app/p.policy"], extra: ["app/reviewpolicy.json": big])
    #expect(result.status == 1)
    #expect(result.standardOutput.hasPrefix("app/reviewpolicy.json:1:1: error: file is 2097166 bytes"), "\(result)")
  }

  @Test("check --format json lists a malformed project file as a file of its own")
  func json() throws {
    let (result, _) = F.run(
      ["check", "--format", "json", "app/p.policy"], extra: ["app/reviewpolicy.json": #"{"events": [3]}"#])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let files = try #require(report["files"] as? [[String: Any]])
    #expect(files.map { $0["path"] as? String } == ["app/reviewpolicy.json", "app/p.policy"])
    #expect(report["errorCount"] as? Int == 1)
  }
}

/// One golden case of a malformed project file.
struct ProjectGoldenCase: Sendable, CustomTestStringConvertible {
  let name: String

  var testDescription: String { name }

  /// `Tests/PolicyCLITests/Golden/project`.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden").appendingPathComponent("project")

  /// Every `NAME.json` in the directory.
  static let all: [ProjectGoldenCase] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".json") }.map { ProjectGoldenCase(name: String($0.dropLast(".json".count))) }
    .sorted { $0.name < $1.name }

  var inputURL: URL { Self.directory.appendingPathComponent(name + ".json") }
  var expectedURL: URL { Self.directory.appendingPathComponent(name + ".expected") }

  /// `policyc check app/p.policy` beside the project file, in memory: the golden text and standard error.
  func run() throws -> (output: String, standardError: String) {
    let io = MemoryIO()
    io.addFile("app/reviewpolicy.json", bytes: [UInt8](try Data(contentsOf: inputURL)))
    io.addFile("app/p.policy", ProjectFixtures.policy.replacingOccurrences(of: "share", with: "export"))
    let result = io.run(["check", "--no-color", "app/p.policy"])
    return (result.standardOutput + "exit: \(result.status)\n", result.standardError)
  }
}

@Suite("golden diagnostics of malformed project files")
struct ProjectFileGoldenTests {
  @Test("the cases exist")
  func cases() {
    #expect(ProjectGoldenCase.all.count >= 9)
  }

  @Test("golden case", arguments: ProjectGoldenCase.all)
  func golden(_ golden: ProjectGoldenCase) throws {
    let (output, standardError) = try golden.run()
    #expect(standardError == "")
    if isUpdatingGolden {
      try Data(output.utf8).write(to: golden.expectedURL)
      return
    }
    let expected = try #require(
      (try? Data(contentsOf: golden.expectedURL)).map { String(decoding: $0, as: UTF8.self) },
      "\(golden.name).expected is missing; run with UPDATE_GOLDEN=1 to create it")
    #expect(output == expected, "\(golden.name): \(firstDifference(output, expected))")
    #expect(output.contains("app/reviewpolicy.json:"), "the problem is located in the project file")
    #expect(output.hasSuffix("exit: 1\n"))
  }
}
