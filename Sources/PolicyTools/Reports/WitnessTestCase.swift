import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// The `policyc test` case behind a witness the tools print (an etiquette warning's example, a
/// `diff` counterexample): a user's history that reaches the witness's facts, and the decision
/// the policy makes there. It is made only when it passes: the history is replayed and checked
/// fact by fact (``WitnessHistory/replayed(for:policy:policyText:environment:)``), then the case
/// runs as `policyc test` runs it.
package struct WitnessTestCase: Sendable {
  /// The history.
  package var history: WitnessHistory
  /// The case: one JSON object, as a test file's `cases` hold it.
  package var text: String

  /// The case named `name` for `witness` under `policy` (compiled in `environment`), expecting the
  /// decision `policy` makes on the witness's facts, or why there is none.
  package static func make(
    for witness: Witness, named name: String, policy: CompiledPolicy, environment: PolicyEnvironment
  ) -> Result<WitnessTestCase, WitnessHistoryRefusal> {
    let policyText = String(decoding: policy.source.bytes, as: UTF8.self)
    let history: WitnessHistory
    switch WitnessHistory.replayed(for: witness, policy: policy, policyText: policyText, environment: environment) {
    case .success(let replayed): history = replayed
    case .failure(let refusal): return .failure(refusal)
    }
    let decision = policy.decide(witness.facts(for: policy))
    let names = policy.rules.map { $0.name ?? $0.label }
    let deciding = decision.decidingRules.compactMap { names.indices.contains($0) ? names[$0] : nil }
    let text = history.testCase(name: name, expectsAsk: decision.shouldAsk, deciding: deciding)
    // The case as `policyc test` reads and runs it.
    let source = SourceFile(path: "witness.test.json", text: text)
    var problems: [Diagnostic] = []
    guard case .success(let node) = JSONParser.parse(source), let testCase = PolicyTestCase.parse(node, &problems)
    else {
      return .failure(WitnessTestCase.refusal("the case does not read back: \(problems.map(\.message))"))
    }
    let file = PolicyTestFile(policy: "", policyRange: node.range, now: nil, start: nil, cases: [testCase])
    switch TestRunner.run(testCase, file: file, policy: policy, policyText: policyText, environment: environment) {
    case .success(let result) where result.passed:
      return .success(WitnessTestCase(history: history, text: text))
    case .success(let result):
      return .failure(WitnessTestCase.refusal("its case expects \(result.expected) but gets \(result.actual)"))
    case .failure(let failure):
      return .failure(WitnessTestCase.refusal("its case fails: \(failure.diagnostics.map(\.message))"))
    }
  }

  /// A history that does not make a passing case (a fault of the builder, never shown as a case).
  static func refusal(_ clause: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: [], reason: "the history replays, but \(clause)")
  }
}
