import Foundation
import PolicyCore
import PolicyTools
import ReviewPolicy

/// `policyc eval`: decide on a facts file.
enum EvalCommand: Command {
  static let name = "eval"
  static let summary = "Decide on a facts file: ask or not, and which rules decided"
  static let usage = """
    USAGE: policyc eval <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]
                        [--events <names>]

    """

  static let help = """
    OVERVIEW: decide whether a policy asks, given a facts file

    Prints the decision (ask or don't ask) and the rules that decided, the
    instant used as `now`, and the facts the policy reads that took their
    fresh-install default because the file did not give them.

    USAGE: policyc eval <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]
                        [--events <names>]

    FACTS FILE: a JSON object from fact names to values, for example
      {"days": 31, "uses": 25, "last_prompt": "2026-01-15T10:00:00Z",
       "version": "3.1", "events(\"export\")": 4, "last_reminder": null}
    Durations are strings with units ("30d", "1d 12h"), instants ISO-8601
    strings, versions strings; null makes a fact that can be absent absent.
    The key "now" sets the evaluation instant, and "seed" the install seed
    that bucket("name") draws from (0 by default). A missing fact takes its
    default: the schema's default, now for first_use and install_date, v1.0
    for version, absent for facts that can be absent.

    \(EnvironmentHelp.projectFile("A project file with errors is reported, and its policies are not evaluated (exit status 1)."))

    OPTIONS:
      --facts <file>     the facts file (required)
      --now <instant>    the evaluation instant (default: "now" in the facts
                         file, else the current time)
      --format <format>  `text` (default) or `json`
    \(EnvironmentHelp.eventsOption(column: 21))
      --no-color         never colour diagnostics
      -h, --help         show this help

    EXIT STATUS:
      0  the policy was evaluated (whatever the decision)
      1  the policy or the facts file has errors
      2  usage error, or a file could not be read

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    run(arguments, io: io, as: self)
  }

  /// Runs `eval`, or `explain` when `command` is ``ExplainCommand``.
  static func run(_ arguments: [String], io: CommandIO, as verb: any Command.Type) -> Int32 {
    let explains = verb is ExplainCommand.Type
    var command = CommandContext(verb, io: io)
    if let status = command.parse(
      arguments, values: ["facts", "now", "format", "events"], flags: ["no-color"], help: verb.help)
    {
      return status
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    let operands = command.arguments.operands
    guard operands.count == 1 else {
      return command.usageError(operands.isEmpty ? "no policy given" : "give one policy, not \(operands.count)")
    }
    guard let factsPath = command.arguments.values["facts"] else {
      return command.usageError("`--facts <facts.json>` is required")
    }
    var now: Timestamp?
    if let text = command.arguments.values["now"] {
      guard let instant = Timestamp(iso8601: text) else {
        return command.usageError("`--now \(text)` is not an ISO-8601 instant such as 2026-03-01T12:00:00Z")
      }
      now = instant
    }
    let renderer = command.renderer()

    // The policy.
    let policy: CompiledPolicy
    let environment: PolicyEnvironment
    switch command.compile(operands[0], renderer: renderer) {
    case .unreadable: return PolicyCLI.usageError
    case .failed: return PolicyCLI.failure
    case .compiled(let compiled, let compiledIn, _): (policy, environment) = (compiled, compiledIn)
    }

    // The facts.
    guard let factsSource = command.load(factsPath) else { return PolicyCLI.usageError }
    if let tooLarge = factsSource.tooLarge {
      io.write(renderer.render([tooLarge], in: factsSource.file), to: .standardError)
      return PolicyCLI.failure
    }
    let facts: FactsFile
    switch FactsFile.read(
      factsSource.file, for: policy, now: now, environment: environment, clock: { Timestamp(Date()) })
    {
    case .success(let read):
      facts = read
      // Warnings (a given fact the policy never reads) go to standard error; the answer follows.
      if !read.warnings.isEmpty {
        io.write(renderer.render(read.warnings, in: factsSource.file), to: .standardError)
      }
    case .failure(let problems):
      io.write(renderer.render(problems.diagnostics, in: factsSource.file), to: .standardError)
      return PolicyCLI.failure
    }

    let explanation = policy.explain(facts.facts)
    if format == "json" {
      io.write(ExplanationJSON.json(explanation, policy, facts, includeRules: explains) + "\n", to: .standardOutput)
    } else if explains {
      io.write(ExplanationRenderer().render(explanation, of: policy) + footer(facts), to: .standardOutput)
    } else {
      io.write(text(explanation.decision, policy, facts), to: .standardOutput)
    }
    return PolicyCLI.success
  }

  static func text(_ decision: Decision, _ policy: CompiledPolicy, _ facts: FactsFile) -> String {
    let renderer = ExplanationRenderer()
    var output = "decision: \(renderer.summary(decision, policy))\n"
    if let fault = decision.firstFault {
      output +=
        "fault: \(renderer.describe(fault, policy))"
        + (decision.faultCount > 1 ? " (\(decision.faultCount) rules faulted)" : "") + "\n"
    }
    return output + footer(facts)
  }

  static func footer(_ facts: FactsFile) -> String {
    var output = "now: \(facts.facts.now)\n"
    if facts.facts.seed != 0 { output += "seed: \(facts.facts.seed)\n" }
    if !facts.defaulted.isEmpty {
      output += "defaults: " + facts.defaulted.map { "`\($0.name)` = \($0.value)" }.joined(separator: ", ") + "\n"
    }
    return output
  }
}
