import Foundation
import PolicyCore
import ReviewPolicy

/// `policyc diff`: whether two policies decide the same for every set of facts, and if not,
/// a facts file on which they differ.
enum DiffCommand {
  static let usage = "USAGE: policyc diff [--format text|json] [--no-color] <old.policy> <new.policy>\n"

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
    instants between the years 1 and 9999.

    The proof is exact for comparisons of facts (or `since(fact)`) with
    constants, `in` lists, `has`, `??` defaults, `min`/`max` against constants,
    `and`/`or`/`not` and `let`s, including where arithmetic faults. Other
    conditions (arithmetic on facts, two facts compared with each other) are
    treated as unknowns, the same unknown where the same condition appears in
    both policies; when they hide whether a difference is real, `diff` says it
    could not decide (exit status 3).

    USAGE: policyc diff [--format text|json] [--no-color] <old.policy> <new.policy>

    OPTIONS:
      --format <format>  `text` (default) or `json`
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
    func usageError(_ message: String) -> Int32 {
      io.write("policyc diff: error: \(message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let parsed: Arguments
    do {
      parsed = try Arguments.parse(arguments, valueOptions: ["format"], flagOptions: ["help", "no-color"])
    } catch {
      return usageError(error.message)
    }
    if parsed.flags.contains("help") {
      io.write(help, to: .standardOutput)
      return PolicyCLI.success
    }
    let format = parsed.values["format"] ?? "text"
    guard format == "text" || format == "json" else { return usageError("unknown format `\(format)`; use `text` or `json`") }
    guard parsed.operands.count == 2 else {
      return usageError("give two policies, the old and the new, not \(parsed.operands.count)")
    }
    if parsed.operands[0] == "-" && parsed.operands[1] == "-" {
      return usageError("only one policy can be read from standard input")
    }
    let renderer = DiagnosticRenderer(usesColor: PolicyCLI.usesColor(io, disabled: parsed.flags.contains("no-color")))
    var policies: [CompiledPolicy] = []
    var failed = false
    for path in parsed.operands {
      guard let source = CheckCommand.load(path, io: io, verb: "diff") else { return PolicyCLI.usageError }
      if let tooLarge = source.tooLarge {
        io.write(renderer.render([tooLarge], in: source.file), to: .standardError)
        failed = true
        continue
      }
      let compilation = PolicyCompiler.compile(source.file, schema: ReviewSchema.standard)
      guard let policy = compilation.policy else {
        io.write(renderer.render(compilation.diagnostics, in: compilation.source), to: .standardError)
        failed = true
        continue
      }
      policies.append(policy)
    }
    guard !failed, policies.count == 2 else { return PolicyCLI.usageError }
    let (old, new) = (policies[0], policies[1])
    let result = PolicyEquivalence.compare(old, new) { candidate in
      verifiesThroughFactsFile(candidate, old, new)
    }
    switch result {
    case .incomparable(let reason):
      io.write("policyc diff: error: \(old.source.path) and \(new.source.path) cannot be compared: \(reason)\n", to: .standardError)
      return PolicyCLI.usageError
    case .equivalent:
      if format == "json" {
        io.write(json("equivalent", old, new, counterexample: nil, reason: nil), to: .standardOutput)
      } else {
        io.write("\(old.source.path) and \(new.source.path) decide the same for every set of facts\n", to: .standardOutput)
      }
      return PolicyCLI.success
    case .unknown(let reason):
      if format == "json" {
        io.write(json("unknown", old, new, counterexample: nil, reason: reason), to: .standardOutput)
      } else {
        io.write(
          "could not decide whether \(old.source.path) and \(new.source.path) decide the same: \(reason)\n",
          to: .standardOutput)
      }
      return undecided
    case .different(let counterexample):
      if format == "json" {
        io.write(json("different", old, new, counterexample: counterexample, reason: nil), to: .standardOutput)
        return different
      }
      let names = WitnessFacts.names(counterexample.witness, reading: [old, new])
      let summary = ExplanationRenderer()
      var output = "\(old.source.path) and \(new.source.path) decide differently on these facts:\n"
      output += WitnessFacts.text(counterexample.witness, names: names)
      output += "\(old.source.path): \(summary.summary(counterexample.old, old))\n"
      output += "\(new.source.path): \(summary.summary(counterexample.new, new))\n"
      for (policy, other) in [(old, new), (new, old)] {
        let rejected = names.filter { name in
          policy.layout.slot(named: name) == nil && !FactsFile.isFamilyMember(name, of: policy)
            && other.layout.slot(named: name) != nil
        }
        if !rejected.isEmpty {
          output +=
            "note: \(policy.source.path) does not know \(rejected.map { "`\($0)`" }.joined(separator: ", ")); remove \(rejected.count == 1 ? "it" : "them") to evaluate \(policy.source.path) with `policyc eval`\n"
        }
      }
      io.write(output, to: .standardOutput)
      return different
    }
  }

  /// Whether the facts file printed for `candidate`, read back by `policyc eval`'s reader for
  /// each policy (without the facts a policy does not know), makes them decide as claimed.
  static func verifiesThroughFactsFile(_ candidate: Counterexample, _ old: CompiledPolicy, _ new: CompiledPolicy) -> Bool {
    let names = WitnessFacts.names(candidate.witness, reading: [old, new])
    var decisions: [Decision] = []
    for policy in [old, new] {
      let known = names.filter { policy.layout.slot(named: $0) != nil }
      let text = WitnessFacts.text(candidate.witness, names: known)
      let source = SourceFile(path: "counterexample.json", text: text)
      guard case .success(let facts) = FactsFile.read(source, for: policy, now: nil, clock: { Timestamp(Date()) }) else {
        return false
      }
      decisions.append(policy.decide(facts.facts))
    }
    return decisions[0] == candidate.old && decisions[1] == candidate.new
      && decisions[0].shouldAsk != decisions[1].shouldAsk
  }

  static func json(
    _ result: String, _ old: CompiledPolicy, _ new: CompiledPolicy, counterexample: Counterexample?, reason: String?
  ) -> String {
    var writer = JSONWriter()
    var raw = RawJSON()
    writer.object {
      $0.key("result"); $0.string(result)
      $0.key("old"); $0.string(old.source.path)
      $0.key("new"); $0.string(new.source.path)
      if let reason {
        $0.key("reason"); $0.string(reason)
      }
      guard let counterexample else { return }
      let names = WitnessFacts.names(counterexample.witness, reading: [old, new])
      $0.key("facts"); $0.string(raw.placeholder(WitnessFacts.object(counterexample.witness, names: names)))
      for (key, decision, policy) in [("oldDecision", counterexample.old, old), ("newDecision", counterexample.new, new)] {
        $0.key(key)
        $0.object {
          $0.key("decision"); $0.string(decision.shouldAsk ? "ask" : "dont_ask")
          $0.key("reason"); $0.string(decision.reason.rawValue)
          $0.key("decidingRules")
          $0.array { for index in decision.decidingRules { EvalCommand.writeRuleIdentity(index, policy, &$0) } }
        }
      }
    }
    return raw.resolve(writer.output) + "\n"
  }
}
