import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// Whether two policies decide the same for every set of facts (`policyc diff`), with every
/// counterexample checked through the facts file that shows it.
package enum PolicyDiff {
  /// Compares `old` and `new`. A counterexample is kept only if its facts file, read back by the
  /// facts-file reader for each policy, makes them decide as claimed.
  package static func compare(_ old: CompiledPolicy, _ new: CompiledPolicy) -> EquivalenceResult {
    PolicyEquivalence.compare(old, new) { candidate in
      verifiesThroughFactsFile(candidate, old, new)
    }
  }

  /// Whether the facts file printed for `candidate`, read back by `policyc eval`'s reader for
  /// each policy (without the facts a policy does not know), makes them decide as claimed.
  static func verifiesThroughFactsFile(_ candidate: Counterexample, _ old: CompiledPolicy, _ new: CompiledPolicy)
    -> Bool
  {
    let names = WitnessFacts.names(candidate.witness, reading: [old, new])
    var decisions: [Decision] = []
    for policy in [old, new] {
      let known = names.filter { policy.layout.slot(named: $0) != nil }
      let text = WitnessFacts.text(candidate.witness, names: known)
      let source = SourceFile(path: "counterexample.json", text: text)
      guard case .success(let facts) = FactsFile.read(source, for: policy, now: nil, clock: { Timestamp(Date()) })
      else {
        return false
      }
      decisions.append(policy.decide(facts.facts))
    }
    return decisions[0] == candidate.old && decisions[1] == candidate.new
      && decisions[0].shouldAsk != decisions[1].shouldAsk
  }

  /// The facts of a counterexample that `policy` does not know but `other` does: they must be
  /// removed from the facts file to evaluate `policy` with `policyc eval`.
  package static func unknownFacts(_ names: [String], of policy: CompiledPolicy, knownTo other: CompiledPolicy)
    -> [String]
  {
    names.filter { name in
      policy.layout.slot(named: name) == nil && !FactsFile.isFamilyMember(name, of: policy)
        && other.layout.slot(named: name) != nil
    }
  }

  /// The `policyc test` cases of a counterexample, one per policy: each expects that policy's
  /// decision, so the new policy's case pins the change.
  package static func testCases(
    _ counterexample: Counterexample, _ old: CompiledPolicy, _ new: CompiledPolicy,
    environments: (old: PolicyEnvironment, new: PolicyEnvironment)
  ) -> [Result<WitnessTestCase, WitnessHistoryRefusal>] {
    let oldAsks = counterexample.old.shouldAsk
    let name =
      "\(oldAsks ? "asked" : "not asked") by \(old.source.path), \(oldAsks ? "not asked" : "asked") by \(new.source.path)"
    return [(old, environments.old), (new, environments.new)].map { policy, environment in
      WitnessTestCase.make(for: counterexample.witness, named: name, policy: policy, environment: environment)
    }
  }

  /// The JSON report of `policyc diff` (one line): `result` (`equivalent`, `unknown` or
  /// `different`), the paths, the `reason`, and for a difference the facts and both decisions,
  /// each with its `testCase` (``testCases(_:_:_:environments:)``; null with `testCaseRefusal`
  /// when there is none).
  package static func json(
    _ result: String, _ old: CompiledPolicy, _ new: CompiledPolicy, counterexample: Counterexample?, reason: String?,
    testCases: [Result<WitnessTestCase, WitnessHistoryRefusal>] = []
  ) -> String {
    var writer = JSONWriter()
    writer.object {
      $0.key("result"); $0.string(result)
      $0.key("old"); $0.string(old.source.path)
      $0.key("new"); $0.string(new.source.path)
      if let reason {
        $0.key("reason"); $0.string(reason)
      }
      guard let counterexample else { return }
      let names = WitnessFacts.names(counterexample.witness, reading: [old, new])
      $0.key("facts"); $0.raw(WitnessFacts.object(counterexample.witness, names: names))
      for (index, (key, decision, policy)) in [
        ("oldDecision", counterexample.old, old), ("newDecision", counterexample.new, new),
      ].enumerated() {
        $0.key(key)
        $0.object {
          $0.key("decision"); $0.string(decision.shouldAsk ? "ask" : "dont_ask")
          $0.key("reason"); $0.string(decision.reason.rawValue)
          $0.key("decidingRules")
          $0.array { for index in decision.decidingRules { ExplanationJSON.writeRuleIdentity(index, policy, &$0) } }
          $0.key("testCase")
          switch testCases.indices.contains(index) ? testCases[index] : nil {
          case .success(let testCase)?: $0.raw(testCase.text)
          case .failure(let refusal)?:
            $0.null()
            $0.key("testCaseRefusal"); $0.string(refusal.reason)
          case nil: $0.null()
          }
        }
      }
    }
    return writer.output + "\n"
  }
}
