import PolicyAnalysis
import PolicyCore
import PolicyTools
import ReviewAnalysis
import ReviewPolicy

/// `policyc check`: compile each policy against the review schema and print its diagnostics.
enum CheckCommand: Command {
  static let name = "check"
  static let summary = "Check policies and print diagnostics"
  static let usage = """
    USAGE: policyc check [--format text|json|sarif|github] [--events <names>] [--update-limits]
                         [--no-color] <file>...
           policyc check --fix [--events <names>] [--no-color] <file>...

    """

  static let help = """
    OVERVIEW: check policies against the review fact schema

    Prints each error and warning with its location, the source line and
    advice. A warning with an example (PC320-PC322) ends with a user's history
    that leads to it, as a case for `policyc test`, replayed before it is shown
    (`testCase` in JSON). Directories are searched for *.policy files. `-` reads
    standard input.

    \(EnvironmentHelp.projectFile("A project file with errors is reported as a file of its own; the policies below it are checked without the app's names."))

    USAGE: policyc check [--format text|json|sarif|github] [--events <names>]
                         [--update-limits] [--no-color] <file>...
           policyc check --fix [--events <names>] [--no-color] <file>...

    OPTIONS:
      --fix              Apply the fixes the diagnostics carry, one at a time, each
                         only when the file checks better with it (no new errors,
                         fewer problems), until none helps; rewrite each changed
                         file atomically and print `PATH:LINE:COL: fixed CODE: FIX`
                         for each fix, then the problems that remain
      --format <format>  `text` (default), `json`, `sarif` (SARIF 2.1.0 for code
                         scanning) or `github` (GitHub Actions annotations)
    \(EnvironmentHelp.eventsOption(column: 21, capitalized: true))
      --no-color         Never colour the output (colour is used only on a
                         terminal, and never when NO_COLOR is set)
      --update-limits    Check each file against the limits of a remote policy
                         update (64 KiB, 256 rules, ...; docs/remote-updates.md)
                         instead of those of a policy file
      -h, --help         Show this help

    EXIT STATUS:
      0  no errors (warnings are allowed)
      1  at least one file has an error
      2  usage error, or a file could not be read or written

    With --fix the status is that of the files after fixing.

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    run(arguments, io: io, fixer: nil)
  }

  /// Runs the command; `fixer` applies the fixes of `--fix` (tests give one with their own check;
  /// nil: the check `policyc check` runs, in each policy's environment).
  static func run(_ arguments: [String], io: CommandIO, fixer: PolicyFixer?) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(
      arguments, values: ["format", "events"], flags: ["no-color", "fix", "update-limits"], help: help)
    {
      return status
    }
    if command.arguments.flags.contains("fix") {
      return fix(command, fixer: fixer)
    }
    guard let format = command.format(among: ["text", "json", "sarif", "github"]) else { return PolicyCLI.usageError }
    guard !command.arguments.operands.isEmpty else { return command.usageError("no files given") }
    let renderer = command.renderer(plain: format != "text")
    let limits: PolicyLimits = command.arguments.flags.contains("update-limits") ? .remoteUpdate : .file
    var failed = false
    var status = PolicyCLI.success
    var results: [AnalyzedFile] = []
    func add(_ result: AnalyzedFile) {
      if result.diagnostics.hasErrors { status = PolicyCLI.failure }
      results.append(result)
      if format == "text" {
        io.write(renderer.render(result.diagnosticsWithTestCases, in: result.source), to: .standardOutput)
      }
    }
    for path in command.expand(command.arguments.operands, failed: &failed) {
      guard let source = command.load(path) else {
        failed = true
        continue
      }
      if let tooLarge = source.tooLarge {
        add(AnalyzedFile(path: source.file.path, source: source.file, diagnostics: [tooLarge]))
        continue
      }
      // The policy's environment; a project file with problems is reported as a file of its
      // own (once), and the policies below it are checked without the app's names.
      let environment = command.environment(forPolicyAt: path, failed: &failed) { project, diagnostics in
        add(AnalyzedFile(path: project.path, source: project, diagnostics: diagnostics))
      }
      // The compiler's diagnostics with the analyzer's warnings (never-holding rules, etiquette...),
      // each example with its test case.
      add(
        AnalyzedFile.analyze(
          source.file, environment: environment, limits: limits, testCases: format == "text" || format == "json"))
    }
    let (errors, warnings) = DiagnosticSummary.counts(results.flatMap(\.diagnostics))
    let files = results.map { ($0.path, $0.source, $0.diagnostics) }
    switch format {
    case "json": io.write(AnalyzedFile.json(results, errors: errors, warnings: warnings), to: .standardOutput)
    case "sarif": io.write(DiagnosticFormats.sarif(files), to: .standardOutput)
    case "github": io.write(DiagnosticFormats.github(files), to: .standardOutput)
    default:
      if !results.isEmpty {
        io.write(
          DiagnosticSummary.line("checked", files: results.count, errors: errors, warnings: warnings),
          to: .standardOutput)
      }
    }
    return failed ? PolicyCLI.usageError : status
  }
}
