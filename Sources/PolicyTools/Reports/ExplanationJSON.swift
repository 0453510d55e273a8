import PolicyCore

/// Decisions and explanations as JSON.
package enum ExplanationJSON {
  /// The decision of `policy` on `facts` as one line of JSON (`policyc eval --format json`);
  /// with `includeRules`, every let, rule and condition with the values it saw (`policyc explain`).
  package static func json(_ explanation: Explanation, _ policy: CompiledPolicy, _ facts: FactsFile, includeRules: Bool)
    -> String
  {
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
            $0.key("conditions"); writeConditions(trace.conditions, policy, &$0)
            $0.key("reads"); writeOperands(trace.inputs, policy, &$0)
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
            $0.key("conditions"); writeConditions(trace.conditions, policy, &$0)
          }
        }
      }
    }
    return writer.output
  }

  /// Writes the conditions of a rule or `let` as an array of `{"text", "line", "column", "status", "operands"}`.
  static func writeConditions(_ conditions: [ConditionTrace], _ policy: CompiledPolicy, _ writer: inout JSONWriter) {
    writer.array {
      for condition in conditions {
        $0.object {
          let location = policy.source.location(of: condition.range.start)
          $0.key("text"); $0.string(policy.source.text(in: condition.range))
          $0.key("line"); $0.number(location.line)
          $0.key("column"); $0.number(location.column)
          $0.key("status")
          switch condition.shownStatus {
          case .held: $0.string("held")
          case .failed: $0.string("failed")
          case .notNeeded: $0.string("not_needed")
          case .faulted: $0.string("faulted")
          }
          $0.key("operands"); writeOperands(condition.operands, policy, &$0)
        }
      }
    }
  }

  /// Writes the operands that are not literals as an array of `{"text", "value"}` (`value` null when absent).
  static func writeOperands(_ operands: [OperandValue], _ policy: CompiledPolicy, _ writer: inout JSONWriter) {
    writer.array {
      for operand in operands where !operand.isConstant {
        $0.object {
          $0.key("text"); $0.string(policy.source.text(in: operand.range))
          $0.key("value"); if let value = operand.value { $0.string(value.description) } else { $0.null() }
        }
      }
    }
  }

  /// Writes rule `index` of `policy` as `{"name", "kind", "line"}`.
  package static func writeRuleIdentity(_ index: Int, _ policy: CompiledPolicy, _ writer: inout JSONWriter) {
    let rule = policy.rules[index]
    writer.object {
      $0.key("name"); $0.string(rule.label)
      $0.key("kind"); $0.string(rule.kind.rawValue)
      $0.key("line"); $0.number(policy.source.location(of: rule.range.start).line)
    }
  }
}
