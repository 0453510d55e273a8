import Foundation
import PolicyCore
import ReviewPolicy

/// `policyc eval` and `policyc explain`: decide on a facts file, and say why.
enum EvalCommand {
  static let evalUsage = "USAGE: policyc eval <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]\n"
  static let explainUsage = "USAGE: policyc explain <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]\n"

  /// Runs `eval` (`explains` false) or `explain`.
  static func run(_ arguments: [String], io: CommandIO, explains: Bool) -> Int32 {
    let verb = explains ? "explain" : "eval"
    let usage = explains ? explainUsage : evalUsage
    func usageError(_ message: String) -> Int32 {
      io.write("policyc \(verb): error: \(message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let parsed: Arguments
    do {
      parsed = try Arguments.parse(arguments, valueOptions: ["facts", "now", "format"], flagOptions: ["help", "no-color"])
    } catch {
      return usageError(error.message)
    }
    if parsed.flags.contains("help") {
      io.write(explains ? Help.explain : Help.eval, to: .standardOutput)
      return PolicyCLI.success
    }
    let format = parsed.values["format"] ?? "text"
    guard format == "text" || format == "json" else { return usageError("unknown format `\(format)`; use `text` or `json`") }
    guard parsed.operands.count == 1 else {
      return usageError(parsed.operands.isEmpty ? "no policy given" : "give one policy, not \(parsed.operands.count)")
    }
    guard let factsPath = parsed.values["facts"] else { return usageError("`--facts <facts.json>` is required") }
    var now: Timestamp?
    if let text = parsed.values["now"] {
      guard let instant = Timestamp(iso8601: text) else {
        return usageError("`--now \(text)` is not an ISO-8601 instant such as 2026-03-01T12:00:00Z")
      }
      now = instant
    }
    let renderer = DiagnosticRenderer(usesColor: PolicyCLI.usesColor(io, disabled: parsed.flags.contains("no-color")))

    // The policy.
    guard let policySource = CheckCommand.load(parsed.operands[0], io: io, verb: verb) else { return PolicyCLI.usageError }
    if let tooLarge = policySource.tooLarge {
      io.write(renderer.render([tooLarge], in: policySource.file), to: .standardError)
      return PolicyCLI.failure
    }
    let compilation = PolicyCompiler.compile(policySource.file, schema: ReviewSchema.standard)
    guard let policy = compilation.policy else {
      io.write(renderer.render(compilation.diagnostics, in: compilation.source), to: .standardError)
      return PolicyCLI.failure
    }

    // The facts.
    guard let factsSource = CheckCommand.load(factsPath, io: io, verb: verb) else { return PolicyCLI.usageError }
    if let tooLarge = factsSource.tooLarge {
      io.write(renderer.render([tooLarge], in: factsSource.file), to: .standardError)
      return PolicyCLI.failure
    }
    let facts: FactsFile
    switch FactsFile.read(factsSource.file, for: policy, now: now, clock: { Timestamp(Date()) }) {
    case .success(let read): facts = read
    case .failure(let problems):
      io.write(renderer.render(problems.diagnostics, in: factsSource.file), to: .standardError)
      return PolicyCLI.failure
    }

    let explanation = policy.explain(facts.facts)
    switch (format, explains) {
    case ("json", false): io.write(json(explanation, policy, facts, includeRules: false) + "\n", to: .standardOutput)
    case ("json", true): io.write(json(explanation, policy, facts, includeRules: true) + "\n", to: .standardOutput)
    case (_, false): io.write(text(explanation.decision, policy, facts), to: .standardOutput)
    default:
      var output = ExplanationRenderer().render(explanation, of: policy)
      output += EvalCommand.footer(facts)
      io.write(output, to: .standardOutput)
    }
    return PolicyCLI.success
  }

  static func text(_ decision: Decision, _ policy: CompiledPolicy, _ facts: FactsFile) -> String {
    let renderer = ExplanationRenderer()
    var output = "decision: \(renderer.summary(decision, policy))\n"
    if let fault = decision.firstFault {
      output += "fault: \(renderer.describe(fault, policy))" + (decision.faultCount > 1 ? " (\(decision.faultCount) rules faulted)" : "") + "\n"
    }
    return output + footer(facts)
  }

  static func footer(_ facts: FactsFile) -> String {
    var output = "now: \(facts.facts.now)\n"
    if !facts.defaulted.isEmpty {
      output += "defaults: " + facts.defaulted.map { "`\($0.name)` = \($0.value)" }.joined(separator: ", ") + "\n"
    }
    return output
  }

  static func json(_ explanation: Explanation, _ policy: CompiledPolicy, _ facts: FactsFile, includeRules: Bool) -> String {
    let decision = explanation.decision
    var writer = JSONWriter()
    writer.object {
      $0.key("decision"); $0.string(decision.shouldAsk ? "ask" : "dont_ask")
      $0.key("reason"); $0.string(decision.reason.rawValue)
      $0.key("decidingRules")
      $0.array {
        for index in decision.decidingRules { writeRuleIdentity(index, policy, &$0) }
      }
      $0.key("fault")
      if let fault = decision.firstFault {
        $0.object {
          $0.key("kind"); $0.string(fault.kind.rawValue)
          $0.key("rule"); if let rule = fault.rule { $0.string(policy.rules[rule].label) } else { $0.null() }
          $0.key("text"); $0.string(policy.source.text(in: fault.range))
          $0.key("line"); $0.number(policy.source.location(of: fault.range.start).line)
        }
      } else {
        $0.null()
      }
      $0.key("faultCount"); $0.number(decision.faultCount)
      $0.key("now"); $0.string(facts.facts.now.description)
      $0.key("defaults")
      $0.object {
        for (name, value) in facts.defaulted {
          $0.key(name); $0.string(value)
        }
      }
      guard includeRules else { return }
      $0.key("lets")
      $0.array {
        for trace in explanation.lets {
          $0.object {
            $0.key("name"); $0.string(policy.lets[trace.index].name)
            $0.key("value"); if let value = trace.value { $0.string(value.description) } else { $0.null() }
            $0.key("fault"); if let fault = trace.fault { $0.string(fault.rawValue) } else { $0.null() }
          }
        }
      }
      $0.key("rules")
      $0.array {
        for trace in explanation.rules {
          $0.object {
            let rule = policy.rules[trace.index]
            $0.key("name"); $0.string(rule.label)
            $0.key("kind"); $0.string(rule.kind.rawValue)
            $0.key("line"); $0.number(policy.source.location(of: rule.range.start).line)
            $0.key("outcome")
            switch trace.outcome {
            case .held: $0.string("held")
            case .notHeld: $0.string("not_held")
            case .faulted(let kind): $0.string("faulted: \(kind.rawValue)")
            }
            $0.key("deciding"); $0.bool(trace.isDeciding)
            $0.key("needed"); $0.bool(trace.isNeeded)
            $0.key("conditions")
            $0.array {
              for condition in trace.conditions {
                $0.object {
                  let location = policy.source.location(of: condition.range.start)
                  $0.key("text"); $0.string(policy.source.text(in: condition.range))
                  $0.key("line"); $0.number(location.line)
                  $0.key("column"); $0.number(location.column)
                  $0.key("status")
                  switch condition.status {
                  case .held: $0.string("held")
                  case .failed: $0.string("failed")
                  case .notNeeded: $0.string("not_needed")
                  case .faulted: $0.string("faulted")
                  }
                  $0.key("operands")
                  $0.array {
                    for operand in condition.operands where !operand.isConstant {
                      $0.object {
                        $0.key("text"); $0.string(policy.source.text(in: operand.range))
                        $0.key("value"); if let value = operand.value { $0.string(value.description) } else { $0.null() }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return writer.output
  }

  static func writeRuleIdentity(_ index: Int, _ policy: CompiledPolicy, _ writer: inout JSONWriter) {
    let rule = policy.rules[index]
    writer.object {
      $0.key("name"); $0.string(rule.label)
      $0.key("kind"); $0.string(rule.kind.rawValue)
      $0.key("line"); $0.number(policy.source.location(of: rule.range.start).line)
    }
  }
}
