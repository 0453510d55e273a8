import PolicyAnalysis
import PolicyCore
import PolicyTools
import ReviewAnalysis
import ReviewPolicy

/// `policyc diff`: whether two policies decide the same for every set of facts, and if not,
/// a facts file on which they differ.
enum DiffCommand: Command {
  static let name = "diff"
  static let summary = "Say whether two policies decide the same, with a counterexample"
  static let usage = """
    USAGE: policyc diff [--format text|json] [--events <names>] [--no-color]
                        <old.policy> <new.policy>

    """

  /// Exit status: the policies decide differently.
  static let different: Int32 = 1
  /// Exit status: the analysis could not decide.
  static let undecided: Int32 = 3

  static let help = """
    OVERVIEW: tell whether two policies decide the same for every set of facts

    Proves that OLD and NEW decide the same (ask or don't ask) whatever the
    facts, or prints a counterexample: a facts file (the format of `policyc eval
    --facts`, with "now") on which they decide differently, and each decision.
    Every counterexample is checked by evaluating both policies on the printed
    file before it is shown. Facts range over all values of their types, with
    instants between the years 1 and 9999, and satisfy every relation of the
    schema (`policyc facts`): a counterexample is a user who can exist. It comes
    with a user's history that leads to it, as a case for `policyc test` that
    expects NEW's decision (in JSON, `testCase` of each decision, for its own
    policy), replayed through the review manager before it is shown.

    The proof is exact for comparisons of facts (or `since(fact)`) with
    constants, `in` lists, `has`, `??` defaults, `min`/`max` against constants,
    `and`/`or`/`not` and `let`s, including where arithmetic faults. Other
    conditions (arithmetic on facts, two facts compared with each other) are
    treated as unknowns, the same unknown where the same condition appears in
    both policies; when they hide whether a difference is real, `diff` says it
    could not decide (exit status 3).

    \(EnvironmentHelp.projectFile("A project file with errors is reported, and its policies are not compared (exit status 2, as for a policy with errors)."))

    USAGE: policyc diff [--format text|json] [--events <names>] [--no-color]
                        <old.policy> <new.policy>

    OPTIONS:
      --format <format>  `text` (default) or `json`
    \(EnvironmentHelp.eventsOption(column: 21))
      --no-color         never colour diagnostics
      -h, --help         show this help

    EXIT STATUS:
      0  the policies decide the same for every set of facts
      1  they decide differently (a counterexample is printed)
      2  usage error, a file could not be read, a policy has errors, or a fact
         has different types in the two policies
      3  the analysis could not decide (the reason is printed)

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, values: ["format", "events"], flags: ["no-color"], help: help) {
      return status
    }
    guard let format = command.format(among: ["text", "json"]) else { return PolicyCLI.usageError }
    let operands = command.arguments.operands
    guard operands.count == 2 else {
      return command.usageError("give two policies, the old and the new, not \(operands.count)")
    }
    if operands[0] == "-" && operands[1] == "-" {
      return command.usageError("only one policy can be read from standard input")
    }
    let renderer = command.renderer()
    var policies: [CompiledPolicy] = []
    var environments: [PolicyEnvironment] = []
    var failed = false
    for path in operands {
      switch command.compile(path, renderer: renderer) {
      case .unreadable: return PolicyCLI.usageError
      case .failed: failed = true
      case .compiled(let policy, let environment, _):
        policies.append(policy)
        environments.append(environment)
      }
    }
    guard !failed, policies.count == 2, environments.count == 2 else { return PolicyCLI.usageError }
    let (old, new) = (policies[0], policies[1])
    let (oldPath, newPath) = (old.source.path, new.source.path)
    switch PolicyDiff.compare(old, new) {
    case .incomparable(let reason):
      command.error("\(oldPath) and \(newPath) cannot be compared: \(reason)")
      return PolicyCLI.usageError
    case .equivalent:
      io.write(
        format == "json"
          ? PolicyDiff.json("equivalent", old, new, counterexample: nil, reason: nil)
          : "\(oldPath) and \(newPath) decide the same for every set of facts\n", to: .standardOutput)
      return PolicyCLI.success
    case .unknown(let reason):
      io.write(
        format == "json"
          ? PolicyDiff.json("unknown", old, new, counterexample: nil, reason: reason)
          : "could not decide whether \(oldPath) and \(newPath) decide the same: \(reason)\n", to: .standardOutput)
      return undecided
    case .different(let counterexample):
      let cases = PolicyDiff.testCases(counterexample, old, new, environments: (environments[0], environments[1]))
      if format == "json" {
        io.write(
          PolicyDiff.json("different", old, new, counterexample: counterexample, reason: nil, testCases: cases),
          to: .standardOutput)
        return different
      }
      let names = WitnessFacts.names(counterexample.witness, reading: [old, new])
      let summary = ExplanationRenderer()
      var output = "\(oldPath) and \(newPath) decide differently on these facts:\n"
      output += WitnessFacts.text(counterexample.witness, names: names)
      output += "\(oldPath): \(summary.summary(counterexample.old, old))\n"
      output += "\(newPath): \(summary.summary(counterexample.new, new))\n"
      for (policy, other) in [(old, new), (new, old)] {
        let rejected = PolicyDiff.unknownFacts(names, of: policy, knownTo: other)
        if !rejected.isEmpty {
          let path = policy.source.path
          output +=
            "note: \(path) does not know \(rejected.map { "`\($0)`" }.joined(separator: ", ")); remove \(rejected.count == 1 ? "it" : "them") to evaluate \(path) with `policyc eval`\n"
        }
      }
      switch cases[1] {
      case .success(let testCase):
        output += "a user's history that gets here, as a `policyc test` case for \(newPath):\n\(testCase.text)\n"
      case .failure(let refusal):
        output += "note: no `policyc test` case for these facts: \(refusal.reason)\n"
      }
      io.write(output, to: .standardOutput)
      return different
    }
  }
}
