import PolicyCore
import PolicyTools
import ReviewPolicy

/// `policyc report`: the rollout read-out from an app's records (docs/records.md).
enum ReportCommand: Command {
  static let name = "report"
  static let summary = "Read out a rollout from the app's records"
  static let usage = """
    USAGE: policyc report <records>... [--policy <policy>] [--format text|json]

    """

  static let help = """
    OVERVIEW: read out a rollout from the records an app's review manager wrote

    Reads records files (JSON Lines, one record per line, as a review manager's
    `recorder` gives them; `-` for standard input), streaming: memory grows
    with the installs, not with the lines. For each policy (by fingerprint)
    and each rollout arm it prints the installs, prompt checks, asks, prompts
    shown, the share of installs prompted and the shares of prompted installs
    that rated and declined, each with a 95% Wilson score interval; between
    two arms, how much more often one was prompted and the difference in the
    rated share with Newcombe's 95% interval, in words.

    An install's arm is fixed at its first prompt check: the rules of the
    policy given with `--policy` whose `bucket("name")` comparisons (in the
    top-level `and` of the rule) hold the install's bucket values, named by
    the rules (`rest` when none does). Without `--policy`, or for another
    policy, all its installs are one arm, `all`.

    A line that is not a record is reported (PC411, with its line and column)
    and counted, never dropped in silence.

    USAGE: policyc report <records>... [--policy <policy>] [--format text|json]

    OPTIONS:
      --policy <policy>  The policy whose rules name the arms
      --format <format>  `text` (default) or `json`
      --no-color         Plain diagnostics
      -h, --help         Show this help

    EXIT STATUS: 0 every line was a record, 1 some were not (or a file could not
    be read), 2 usage error.

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, values: ["format", "policy"], flags: ["no-color"], help: help) {
      return status
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    let files = command.arguments.operands
    guard !files.isEmpty else { return command.usageError("give at least one records file") }
    let renderer = command.renderer()
    var policies: [CompiledPolicy] = []
    var names: [String: String] = [:]
    if let path = command.arguments.values["policy"] {
      guard case .compiled(let policy, _, let text) = command.compile(path, renderer: renderer) else {
        return PolicyCLI.failure
      }
      policies.append(policy)
      names[PolicyIdentity.fingerprint(of: text)] = path
    }
    var tally = RolloutTally(policies: policies)
    let (summary, failed) = command.readRecords(files) { tally.add($0) }
    let read = RolloutReport.policies(tally, files: names)
    switch format {
    case "json": io.write(RolloutReport.json(read, summary: summary), to: .standardOutput)
    default: io.write(RolloutReport.text(read, summary: summary, files: files.count), to: .standardOutput)
    }
    return failed || summary.problems > 0 ? PolicyCLI.failure : PolicyCLI.success
  }
}
