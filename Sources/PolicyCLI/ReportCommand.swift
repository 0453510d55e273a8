import PolicyCore
import PolicyTools
import ReviewPolicy

/// `policyc report`: the rollout read-out from an app's records (docs/records.md).
enum ReportCommand: Command {
  static let name = "report"
  static let summary = "Read out a rollout from the app's records"
  static let usage = """
    USAGE: policyc report <records>... [--policy <policy>] [--format text|json] [--html FILE]
           policyc report <records>... [--policy <policy>] --shard <i/n>
           policyc report --merge <partial results>... [--format text|json] [--html FILE]
           policyc report --sql [--policy <policy>]

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

    With `--sql` it prints the same read-out as SQL queries (one per table:
    the arms, then their comparisons) over a table `records` with the format's
    columns, to run where the records are kept (DuckDB, BigQuery, Snowflake,
    Spark SQL; docs/records.md); they give the JSON report's figures.

    Records too many for one machine split by install: `--shard i/n` reads
    every file but counts only the installs of part i of n (by a hash of the
    install identifier) and writes a partial result (JSON); `--merge` adds up
    the parts of all n shards (of `report` or of `replay`) into exactly the
    read-out of the whole, and refuses (PC412) a part missing, given twice,
    of another split or of other files.

    USAGE: policyc report <records>... [--policy <policy>] [--format text|json] [--html FILE]
           policyc report <records>... [--policy <policy>] --shard <i/n>
           policyc report --merge <partial results>... [--format text|json] [--html FILE]
           policyc report --sql [--policy <policy>]

    OPTIONS:
      --policy <policy>  The policy whose rules name the arms
      --format <format>  `text` (default) or `json`
      --html <file>      Also write the read-out as a self-contained HTML page with
                         a chart of every share and its interval per arm
      --sql              Print the read-out as SQL queries instead
      --shard <i/n>      Count part i of n of the installs; write a partial result
      --merge            Read partial results and write the whole read-out
      --no-color         Plain diagnostics
      -h, --help         Show this help

    EXIT STATUS: 0 every line was a record, 1 some were not (or a file could not
    be read), 2 usage error.

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(
      arguments, values: ["format", "policy", "shard", "html"], flags: ["no-color", "sql", "merge"], help: help)
    {
      return status
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    let files = command.arguments.operands
    let sql = command.arguments.flags.contains("sql")
    let merge = command.arguments.flags.contains("merge")
    var shard: RecordShard?
    if let text = command.arguments.values["shard"] {
      guard let parsed = RecordShard(text) else {
        return command.usageError(
          "`--shard \(text)` must be i/n with 1 <= i <= n <= \(RecordShard.maximumCount), such as `--shard 2/8`")
      }
      shard = parsed
    }
    if [sql, merge, shard != nil].filter({ $0 }).count > 1 {
      return command.usageError("give one of `--sql`, `--merge` and `--shard`")
    }
    if command.arguments.values["html"] != nil && (sql || shard != nil) {
      return command.usageError("`--html` writes the read-out; `--sql` and `--shard` write none")
    }
    if shard != nil && command.arguments.values["format"] != nil {
      return command.usageError("`--shard` writes a partial result (JSON for `--merge`); it takes no `--format`")
    }
    if sql && !files.isEmpty { return command.usageError("`--sql` prints the queries and reads no records files") }
    guard sql || !files.isEmpty else {
      return command.usageError(merge ? "give the partial results to merge" : "give at least one records file")
    }
    let renderer = command.renderer()
    if merge {
      if command.arguments.values["policy"] != nil {
        return command.usageError("`--merge` takes the policies the parts name; give `--policy` to each `--shard` run")
      }
      return mergeParts(files, format: format, command: &command, renderer: renderer)
    }
    var policies: [CompiledPolicy] = []
    var names: [String: String] = [:]
    if let path = command.arguments.values["policy"] {
      guard case .compiled(let policy, _, let text) = command.compile(path, renderer: renderer) else {
        return PolicyCLI.failure
      }
      policies.append(policy)
      names[PolicyIdentity.fingerprint(of: text)] = path
    }
    var tally = RolloutTally(policies: policies, shard: shard)
    if sql {
      io.write(RolloutSQL.script(policies: tally.policies), to: .standardOutput)
      return PolicyCLI.success
    }
    let (summary, failed) = command.readRecords(files) { tally.add($0) }
    if let shard {
      let header = PartialResult.Header(shard: shard, summary: summary, files: files.count)
      let part = PartialResult.report(PartialResult.Report(header: header, files: names, arms: tally.arms))
      io.write(part.json, to: .standardOutput)
    } else {
      let read = RolloutReport.policies(tally, files: names)
      write(read, summary: summary, files: files.count, format: format, io: io)
      if !writeHTML(read, summary: summary, files: files.count, command: command) { return PolicyCLI.usageError }
    }
    return failed || summary.problems > 0 ? PolicyCLI.failure : PolicyCLI.success
  }

  /// Writes the HTML read-out where `--html` says, if it does; false when it cannot be written.
  static func writeHTML(
    _ policies: [RolloutReport.Policy], summary: RecordFileReader.Summary, files: Int, command: CommandContext
  ) -> Bool {
    guard let path = command.arguments.values["html"] else { return true }
    do {
      try command.io.replaceFile(
        path, with: Array(RolloutHTML.render(policies, summary: summary, files: files).utf8))
      return true
    } catch {
      command.error("cannot write the HTML read-out `\(path)`: \(error.reason)")
      return false
    }
  }

  /// Writes the read-out of `policies` in `format`.
  static func write(
    _ policies: [RolloutReport.Policy], summary: RecordFileReader.Summary, files: Int, format: String, io: CommandIO
  ) {
    switch format {
    case "json": io.write(RolloutReport.json(policies, summary: summary), to: .standardOutput)
    default: io.write(RolloutReport.text(policies, summary: summary, files: files), to: .standardOutput)
    }
  }

  /// `--merge`: reads the partial results at `paths`, adds them up and writes the whole read-out
  /// (a report's or a replay's) in `format`.
  static func mergeParts(
    _ paths: [String], format: String, command: inout CommandContext, renderer: DiagnosticRenderer
  ) -> Int32 {
    var parts: [(part: PartialResult, file: SourceFile)] = []
    var failed = false
    for path in paths {
      guard let source = command.load(path) else { return PolicyCLI.failure }
      if let tooLarge = source.tooLarge {
        command.io.write(renderer.render([tooLarge], in: source.file), to: .standardError)
        failed = true
        continue
      }
      switch PartialResult.read(source.file) {
      case .success(let part): parts.append((part, source.file))
      case .failure(let problem):
        if let diagnostic = problem.diagnostic, let file = problem.file {
          command.io.write(renderer.render([diagnostic], in: file), to: .standardError)
        }
        failed = true
      }
    }
    guard !failed else { return PolicyCLI.failure }
    switch PartialResult.merged(parts) {
    case .failure(let problem):
      if let diagnostic = problem.diagnostic, let file = problem.file {
        command.io.write(renderer.render([diagnostic], in: file), to: .standardError)
      }
      return PolicyCLI.failure
    case .success(.report(let report)):
      let policies = RolloutReport.policies(report.arms, files: report.files)
      write(policies, summary: report.header.summary, files: report.header.files, format: format, io: command.io)
      guard writeHTML(policies, summary: report.header.summary, files: report.header.files, command: command) else {
        return PolicyCLI.usageError
      }
      return report.header.summary.problems > 0 ? PolicyCLI.failure : PolicyCLI.success
    case .success(.replay(let replay)):
      if command.arguments.values["html"] != nil {
        return command.usageError("`--html` is for the parts of `policyc report`; these are parts of `policyc replay`")
      }
      ReplayCommand.write(
        replay.outcome, names: replay.names, summary: replay.header.summary, files: replay.header.files,
        format: format, io: command.io)
      return replay.header.summary.problems > 0 ? PolicyCLI.failure : PolicyCLI.success
    }
  }
}
