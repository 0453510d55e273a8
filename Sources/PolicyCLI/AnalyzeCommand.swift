import PolicyAnalysis
import PolicyCore
import PolicyTools
import ReviewAnalysis
import ReviewPolicy

/// `policyc analyze`: the policy analyzer's warnings (rules that never or always hold,
/// shadowed `ask` rules, contradictory or redundant comparisons, review etiquette), with the
/// compiler's own diagnostics.
enum AnalyzeCommand: Command {
  static let name = "analyze"
  static let summary = "Find rules that never hold and prompts that break review etiquette"
  static let usage = """
    USAGE: policyc analyze [--format text|json|sarif|github] [--events <names>]
                           [--no-color] <file>...

    """

  /// Exit status: the policy has errors and cannot be analysed (also usage and I/O errors).
  static let cannotAnalyse: Int32 = 2

  static let help = """
    OVERVIEW: find logic mistakes and review-etiquette problems in policies

    Reports, besides the diagnostics of `policyc check`:
      PC310  a rule that can never hold
      PC311  a rule that always holds (a `never` rule: the policy never asks)
      PC312  an `ask` rule that can hold only when a `never` rule holds too
      PC313  comparisons of one value that contradict each other in an `and`,
             or cover every value in an `or`
      PC314  a comparison made redundant by another of the same `and` or `or`
      PC320  the policy can ask a user who declined or rated this version
      PC321  the policy can ask again within 7 days of the last prompt
      PC322  the policy can ask a user who already saw 3 prompts in 365 days

    PC310-PC314 are proofs: no facts at all make the rule hold (or fail). Literal
    `true` and `false`, `has` of a fact that is never absent and empty lists are
    left out of them: writing `ask when true` is deliberate. PC320-PC322 come with
    an example, facts on which the compiled policy was evaluated and asks through
    that rule: `declined` (or `rated`) true, for PC320; the last prompt less than
    7 days before `now` (and not after it), for PC321; the last prompt less than
    365 days ago with `prompts_within(365d)` (and any longer window) at least 3
    and `total_prompts` at least 3, for PC322. A policy without any condition on
    those counts can ask after 3 prompts, and gets PC322. Comparisons the
    analysis does not model (arithmetic, two facts compared with each other)
    never lead to a warning without such an example. Each example comes with a
    user's history that leads to it, as a case for `policyc test` (the last
    `help:` line; `testCase` in JSON), replayed through the review manager and
    run before it is shown.

    SILENCING: a comment on the first line of a rule (or `let`), or alone on the
    line just above it, silences the named warnings for that declaration:
      # policyc: allow PC321
      ask loyal when days >= 30   # policyc: allow PC320, PC322

    A policy larger than 10,000 conditions is not analysed (a note says so); a
    check too complex for the search limits is skipped with a note.

    \(EnvironmentHelp.projectFile("A project file with errors is reported as a file of its own; the policies below it are analysed without the app's names."))

    USAGE: policyc analyze [--format text|json|sarif|github] [--events <names>]
                           [--no-color] <file>...

    OPTIONS:
      --format <format>  `text` (default), `json` (diagnostics with their
                         example facts, and notes), `sarif` (SARIF 2.1.0 for
                         code scanning) or `github` (workflow annotations)
    \(EnvironmentHelp.eventsOption(column: 21))
      --no-color         never colour the output
      -h, --help         show this help

    EXIT STATUS:
      0  no warnings
      1  warnings found
      2  usage error, a file could not be read, or a policy has errors

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, values: ["format", "events"], flags: ["no-color"], help: help) {
      return status
    }
    guard let format = command.format(among: ["text", "json", "sarif", "github"]) else { return PolicyCLI.usageError }
    guard !command.arguments.operands.isEmpty else { return command.usageError("no files given") }
    let renderer = command.renderer(plain: format != "text")

    var unreadable = false
    var results: [AnalyzedFile] = []
    func add(_ result: AnalyzedFile) {
      results.append(result)
      if format == "text" {
        var output = renderer.render(result.diagnosticsWithTestCases, in: result.source)
        for note in result.report?.notes ?? [] { output += "\(result.path): note: \(note)\n" }
        io.write(output, to: .standardOutput)
      }
    }
    for path in command.expand(command.arguments.operands, failed: &unreadable) {
      guard let source = command.load(path) else {
        unreadable = true
        continue
      }
      if let tooLarge = source.tooLarge {
        add(AnalyzedFile(path: source.file.path, source: source.file, diagnostics: [tooLarge]))
        continue
      }
      // The policy's environment; a project file with problems is reported as a file of its
      // own (once), and the policies below it are analysed without the app's names.
      let environment = command.environment(forPolicyAt: path, failed: &unreadable) { project, diagnostics in
        add(AnalyzedFile(path: project.path, source: project, diagnostics: diagnostics))
      }
      add(AnalyzedFile.analyze(source.file, environment: environment, testCases: format == "text" || format == "json"))
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
          DiagnosticSummary.line("analyzed", files: results.count, errors: errors, warnings: warnings),
          to: .standardOutput)
      }
    }
    if unreadable || errors > 0 { return cannotAnalyse }
    return warnings > 0 ? PolicyCLI.failure : PolicyCLI.success
  }
}
