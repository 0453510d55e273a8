import PolicyCore
import PolicyTools

/// `policyc test`: run the cases of policy test files; one line per case, then a total.
enum TestCommand: Command {
  static let name = "test"
  static let summary = "Run a policy's test cases"
  static let usage = """
    USAGE: policyc test [--coverage] [--format text|json] [--events <names>]
                        <test file or folder>...

    """

  static let help = """
    OVERVIEW: run policy test cases

    A test file (*.test.json) names a policy and lists cases. Each case gives
    either facts, or a usage history that runs through the real review manager,
    and the expected decision. Prints one line per case, then `N passed, N
    failed`.

    USAGE: policyc test [--coverage] [--format text|json] [--events <names>]
                        <test file or folder>...

    TEST FILE:
      {
        "policy": "review.policy",            (relative to the test file)
        "now": "2026-03-01T12:00:00Z",        (default `now` of facts cases)
        "start": "2026-01-01T00:00:00Z",      (default start of histories)
        "cases": [
          { "name": "a loyal user is asked",
            "facts": {"days": 31, "uses": 25, "plan": "pro"},
            "expect": "ask", "deciding": ["loyal"] },
          { "name": "not asked twice in eight weeks",
            "facts": {"plan": "pro"}, "version": "3.1",
            "history": ["launch x 20 every 1d", "event export x 3",
                        "prompt -> remind", "wait 3d", "prompt"],
            "expect": "dont_ask", "deciding": ["too_soon"], "prompts": 1 }
        ]
      }
    "facts" uses the format of `policyc eval` (see `policyc help eval`); in a
    history case it gives only the facts the policy declares. "expect" is the
    decision of the policy on the facts; for a history case, of a fresh check
    after the last step (as `promptIfAppropriate()` would decide then, whatever
    the steps prompted). "deciding" is the exact set of deciding rules of that
    decision (names, or `ask rule at line N`); "prompts" the number of prompts
    the history showed. An answer (`-> rate`) on a step that shows no prompt is
    an error. A failing case prints where its "expect" is and, for a history,
    each step with the prompts it showed and the rules that decided them.

    HISTORY STEPS:
      launch | foreground | session | end session | event [name] | silent event [name] |
      action <score> [bad] [prompt] | prompt | shown | unprompted -> <answer> |
      late -> <answer> | wait <duration> | update <version>
      add `x <count> [every <duration>]` to repeat a step, and
      `-> rate|decline|remind|feedback|dismiss|unknown` to answer its prompt.

    \(EnvironmentHelp.projectFile("The project file is that of the policy a test file names; when it has errors, they are reported and the file's cases do not run (exit status 1). In a history, an `event` step naming an event the app does not record is an error (for a policy without `event` declarations)."))

    OPTIONS:
      --coverage         also list the rules that never held or decided, and
                         the conditions that never held or never failed
      --format <format>  `text` (default) or `json`
    \(EnvironmentHelp.eventsOption(column: 21))
      --no-color         never colour diagnostics
      -h, --help         show this help

    EXIT STATUS:
      0  every case passed
      1  a case failed, or a test file or its policy has errors
      2  usage error, or a file could not be read

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(
      arguments, values: ["format", "events"], flags: ["coverage", "no-color"], help: help)
    {
      return status
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    guard !command.arguments.operands.isEmpty else { return command.usageError("no test files given") }
    let renderer = command.renderer()
    let showsCoverage = command.arguments.flags.contains("coverage")

    var failedToList = false
    let paths = command.expand(command.arguments.operands, suffix: ".test.json", failed: &failedToList)
    var status = failedToList ? PolicyCLI.usageError : PolicyCLI.success
    var passed = 0
    var failed = 0
    var brokenFiles = 0
    var coverageText = ""
    var fileReports: [String] = []
    for path in paths {
      guard let loaded = command.load(path) else {
        status = PolicyCLI.usageError
        brokenFiles += 1
        continue
      }
      let readPolicy = { (policyPath: String) throws -> [UInt8] in
        try io.readFile(policyPath, limit: Limits.maximumFileSize + 1).bytes
      }
      // A project file with problems shows them with the first test file it fails, not again.
      var reportedProject: String?
      let run = PolicyTestSuite.run(
        loaded.file, at: path,
        environment: { policyPath in
          let environment = command.projectEnvironment(forPolicyAt: policyPath)
          if case .failure(let failure) = environment, !command.isFirstReport(of: failure) {
            reportedProject = failure.path
          }
          return environment
        }, readFile: readPolicy)
      switch run {
      case .failure(let failure):
        for (source, diagnostics) in failure.problems where source.path != reportedProject {
          io.write(renderer.render(diagnostics, in: source), to: .standardError)
        }
        status = max(status, failure.isUnreadablePolicy ? PolicyCLI.usageError : PolicyCLI.failure)
        brokenFiles += 1
      case .success(let report):
        for result in report.results {
          if !result.warnings.isEmpty {
            io.write(renderer.render(result.warnings, in: loaded.file), to: .standardError)
          }
          if result.passed { passed += 1 } else { failed += 1 }
          if format == "text" { io.write(result.report(in: loaded.file), to: .standardOutput) }
        }
        if showsCoverage { coverageText += report.coverage.report(path: report.policy.source.path) }
        fileReports.append(
          json(path: path, file: loaded.file, results: report.results, coverage: showsCoverage ? report.coverage : nil))
      }
    }
    if failed > 0 { status = max(status, PolicyCLI.failure) }
    if format == "json" {
      io.write(
        "{\"files\":[" + fileReports.joined(separator: ",") + "],\"passed\":\(passed),\"failed\":\(failed),"
          + "\"brokenFiles\":\(brokenFiles)}\n", to: .standardOutput)
    } else {
      io.write(coverageText, to: .standardOutput)
      // A count alone would read like success when a file's cases never ran.
      if (brokenFiles == 0 && !failedToList) || passed + failed > 0 {
        io.write("\(passed) passed, \(failed) failed\n", to: .standardOutput)
      }
    }
    if brokenFiles > 0 {
      command.error(
        brokenFiles == 1
          ? "1 test file could not be read or run; its cases did not run (see above)"
          : "\(brokenFiles) test files could not be read or run; their cases did not run (see above)")
    }
    return status
  }

  /// One test file's object in the JSON report.
  static func json(path: String, file: SourceFile, results: [CaseResult], coverage: Coverage?) -> String {
    var writer = JSONWriter()
    writer.object {
      $0.key("path"); $0.string(path)
      $0.key("cases")
      $0.array {
        for result in results {
          $0.object {
            $0.key("name"); $0.string(result.name)
            $0.key("passed"); $0.bool(result.passed)
            $0.key("expected"); $0.string(result.expected)
            $0.key("actual"); $0.string(result.actual)
            if !result.passed {
              let location = file.location(of: result.range.start)
              $0.key("line"); $0.number(location.line)
              $0.key("column"); $0.number(location.column)
              $0.key("trace")
              $0.array { for step in result.trace { $0.string(step) } }
            }
          }
        }
      }
      if let coverage {
        $0.key("uncovered")
        $0.array { for line in coverage.uncovered() { $0.string(line.message) } }
      }
    }
    return writer.output
  }
}
