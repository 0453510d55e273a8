import PolicyCore
import PolicyTools
import ReviewPolicy

/// `policyc replay`: the app's real installs, rebuilt from their records (docs/records.md), run
/// through the real tracker under one policy or two, and compared with what happened.
enum ReplayCommand: Command {
  static let name = "replay"
  static let summary = "Replay the app's real installs under a policy"
  static let usage = """
    USAGE: policyc replay <policy> [<other-policy>] --records <records>... [--fact NAME=VALUE]...
                          [--prompt-timeout SECONDS] [--format text|json | --shard i/n]

    """

  static let help = """
    OVERVIEW: replay the app's real installs under a policy, or two side by side

    Rebuilds each install's history from the records its review manager wrote
    (JSON Lines, docs/records.md; `-` for standard input) and runs it through
    the review manager's own tracker under the given policy: every launch,
    return to the foreground, session, action, significant event and app
    update as it happened, and at every prompt check the policy decides. It
    reports who would have been asked, when, and how that differs from what
    happened: prompt checks decided differently, and installs first asked
    earlier, later, only in the replay or only in the app. Given two
    policies, both replay the same installs side by side.

    A replayed prompt made where the app showed one takes the user's real
    answer (however late it came); one the app never showed has no answer
    and closes as "outcome unknown" at the next launch, as in the app. An
    install's bucket() values come from the seed its records carry, or, when
    they carry none, from its identifier. Memory grows with the installs,
    not with the records; each install's records are replayed in the order
    they come.

    USAGE: policyc replay <policy> [<other-policy>] --records <records>... [--fact NAME=VALUE]...
                          [--prompt-timeout SECONDS] [--format text|json | --shard i/n]

    OPTIONS:
      --records <file>...  the records files (every argument up to the next option)
      --fact <name=value>  the value of an app fact a policy declares, for every
                           install (repeatable; records carry no fact values)
      --prompt-timeout <s> seconds a replayed prompt waits for an answer before it
                           counts as "outcome unknown" (default: 600, the review
                           manager's; 0: until the next launch)
      --format <format>    `text` (default) or `json`
      --shard <i/n>        replay part i of n of the installs (by a hash of the
                           install identifier) and write a partial result that
                           `policyc report --merge` adds up with the others
    \(EnvironmentHelp.eventsOption(column: 23))
      --no-color           plain diagnostics
      -h, --help           show this help

    EXIT STATUS: 0 replayed, 1 a policy has errors or a line is not a record (or
    a file could not be read), 2 usage error.

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    // `--records` takes every argument up to the next option; `--fact` repeats.
    var rest: [String] = []
    var files: [String] = []
    var facts: [(name: String, value: String)] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "--records" || argument == "-records" {
        files += CommandContext.operands(of: arguments, from: &index)
      } else if argument.hasPrefix("--records=") {
        files.append(String(argument.dropFirst("--records=".count)))
      } else if argument == "--fact" || argument.hasPrefix("--fact=") {
        let assignment: String
        if argument == "--fact" {
          guard index < arguments.count else { return command.usageError("option `--fact` needs a value") }
          assignment = arguments[index]
          index += 1
        } else {
          assignment = String(argument.dropFirst("--fact=".count))
        }
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
          return command.usageError("`--fact \(assignment)` must be NAME=VALUE, such as `--fact plan=pro`")
        }
        facts.append((String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...])))
      } else {
        rest.append(argument)
      }
    }
    if let status = command.parse(
      rest, values: ["format", "events", "prompt-timeout", "shard"], flags: ["no-color"], help: help)
    {
      return status
    }
    var shard: RecordShard?
    if let text = command.arguments.values["shard"] {
      guard let parsed = RecordShard(text) else {
        return command.usageError(
          "`--shard \(text)` must be i/n with 1 <= i <= n <= \(RecordShard.maximumCount), such as `--shard 2/8`")
      }
      guard command.arguments.values["format"] == nil else {
        return command.usageError(
          "`--shard` writes a partial result (JSON for `policyc report --merge`); it takes no `--format`")
      }
      shard = parsed
    }
    var promptTimeout = RecordReplay.defaultPromptTimeout
    if let text = command.arguments.values["prompt-timeout"] {
      guard let seconds = Int64(text), (0...31_536_000).contains(seconds) else {
        return command.usageError("`--prompt-timeout \(text)` must be a whole number of seconds from 0 to 31536000")
      }
      promptTimeout = seconds == 0 ? nil : TimeSpan(milliseconds: seconds * 1000)
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    let paths = command.arguments.operands
    guard (1...2).contains(paths.count) else {
      return command.usageError(paths.isEmpty ? "no policy given" : "give one or two policies, not \(paths.count)")
    }
    guard !files.isEmpty else { return command.usageError("give the records with `--records <file>...`") }

    let renderer = command.renderer()
    var compiled: [(path: String, policy: CompiledPolicy)] = []
    var status = PolicyCLI.success
    for path in paths {
      switch command.compile(path, renderer: renderer) {
      case .unreadable: return PolicyCLI.usageError
      case .failed: status = PolicyCLI.failure
      case .compiled(let policy, _, _): compiled.append((path, policy))
      }
    }
    guard status == PolicyCLI.success else { return status }
    let appFacts: [[(name: String, value: Value)]]
    switch SimulationAppFacts.resolve(facts, for: compiled) {
    case .success(let resolved):
      appFacts = resolved.values
      for note in resolved.notes { io.write("policyc replay: note: \(note)\n", to: .standardError) }
    case .failure(let error):
      return command.usageError(error.message)
    }

    var replay = RecordReplay(
      policies: compiled.indices.map {
        RecordReplay.Policy(name: compiled[$0].path, compiled: compiled[$0].policy, appFacts: appFacts[$0])
      }, promptTimeout: promptTimeout)
    replay.shard = shard
    let (summary, failed) = command.readRecords(files) { replay.add($0) }
    let outcome = replay.finish()
    let names = compiled.map(\.path)
    if let shard {
      let header = PartialResult.Header(shard: shard, summary: summary, files: files.count)
      let part = PartialResult.replay(PartialResult.Replay(header: header, names: names, outcome: outcome))
      io.write(part.json, to: .standardOutput)
    } else {
      write(outcome, names: names, summary: summary, files: files.count, format: format, io: io)
    }
    return failed || summary.problems > 0 ? PolicyCLI.failure : PolicyCLI.success
  }

  /// Writes the replay's report in `format`.
  static func write(
    _ outcome: RecordReplay.Outcome, names: [String], summary: RecordFileReader.Summary, files: Int, format: String,
    io: CommandIO
  ) {
    switch format {
    case "json": io.write(ReplayReport.json(outcome, names: names, summary: summary), to: .standardOutput)
    default: io.write(ReplayReport.text(outcome, names: names, summary: summary, files: files), to: .standardOutput)
    }
  }
}
