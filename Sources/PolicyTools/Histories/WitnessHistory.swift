import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// A usage history that, replayed through the review tracker as `policyc test` replays a test
/// case's history, gives exactly the values of a set of review facts: the history behind an
/// analyzer's witness or counterexample.
///
/// ```swift
/// switch WitnessHistory.replayed(for: witness, policy: policy, policyText: text, environment: environment) {
/// case .success(let history):
///   print(history.testCase(name: "the rule can hold", expectsAsk: true, deciding: ["loyal"]))
/// case .failure(let refusal):
///   print("no history:", refusal.reason)
/// }
/// ```
///
/// The steps never ask the policy: counts are `foreground`, `silent event` and `session` steps,
/// prompts are `shown -> unknown` (recorded whatever the policy says), answers are
/// `unprompted -> rate|decline|feedback|remind`, and session scores are `action` steps without
/// `prompt`. So the history gives the same facts under any policy. Repetitions are written
/// `x <count>`; a count above ``maximumRepetitions`` (or a history above
/// ``maximumTotalRepetitions`` repetitions in all) is refused, so building and replaying are
/// bounded whatever the facts.
public struct WitnessHistory: Sendable, Hashable {
  /// The most repetitions of one step (`x <count>`), as test files allow.
  public static let maximumRepetitions = 100_000
  /// The most repetitions in one history, all steps together.
  public static let maximumTotalRepetitions = 300_000

  /// A fact the policy declares itself (`fact plan: string`), given to the test case as is.
  public struct AppFact: Sendable, Hashable {
    /// The fact's name.
    public var name: String
    /// Its value.
    public var value: Value

    /// An app fact.
    public init(name: String, value: Value) {
      self.name = name
      self.value = value
    }
  }

  /// When the history starts: the install.
  public var start: Timestamp
  /// The app version the history starts with (later versions come with `update` steps).
  public var version: String
  /// The steps, in test-file syntax.
  public var steps: [String]
  /// When the history ends: the instant of the facts.
  public var now: Timestamp
  /// The policy's own facts, for the test case's `facts`.
  public var appFacts: [AppFact] = []
  /// The install's seed (`bucket("name")`); 0 for none.
  public var seed: UInt64 = 0

  /// The history for the host facts `facts` at `now` (plain facts and family members of
  /// ``ReviewSchema/standard``), or why there is none. Facts not given are free.
  public static func build(facts: [AssignedFact], now: Timestamp) -> Result<WitnessHistory, WitnessHistoryRefusal> {
    do throws(WitnessHistoryRefusal) {
      var builder = try WitnessHistoryBuilder(facts: facts, now: now)
      return .success(try builder.build())
    } catch {
      return .failure(error)
    }
  }

  /// The history for `witness`: its host facts from the history, its declared facts and seed
  /// given to the test case. When no history gives every host fact, one is built for the facts
  /// the analysis constrained and those in `reading` (the facts the policies read); the others
  /// hold neutral values the witness never claims (a fact the policy does not read, left open).
  public static func build(for witness: Witness, reading: Set<String>) -> Result<
    WitnessHistory, WitnessHistoryRefusal
  > {
    claimed(witness, reading: reading).map(\.history)
  }

  /// The history for `witness` (``build(for:reading:)``) with the host facts it gives.
  static func claimed(_ witness: Witness, reading: Set<String>) -> Result<
    (history: WitnessHistory, facts: [AssignedFact]), WitnessHistoryRefusal
  > {
    let all = witness.assignment
    var result = build(facts: all, now: witness.now).map { ($0, all) }
    if case .failure(let refusal) = result, !refusal.exceedsLimits {
      let open = Set(witness.facts.filter { !$0.isConstrained && !reading.contains($0.name) }.map(\.name))
      let claims = all.filter { !open.contains($0.name) }
      if claims.count < all.count, case .success(let history) = build(facts: claims, now: witness.now) {
        result = .success((history, claims))
      }
    }
    return result.map { history, facts in
      var history = history
      history.appFacts = witness.facts.filter(\.isDeclared).compactMap { fact in
        fact.value.map { AppFact(name: fact.name, value: $0) }
      }
      history.seed = witness.seed
      return (history, facts)
    }
  }

  /// The history for `witness`, replayed through the review tracker running `policy` (compiled
  /// from `policyText` in `environment`, as `policyc test` would) and checked: every host fact of
  /// the witness that `policy` reads has its value at the end (of a history built without the
  /// witness's open facts, ``build(for:reading:)``, those the policy reads or the analysis
  /// constrained). The test case gives only the facts `policy` declares (a counterexample's
  /// witness has the facts of two policies), and names only the events `policy` may record: an
  /// event only the other policy reads is recorded unnamed, which counts it in `events` and
  /// `total_events` as the name did. A mismatch is a refusal, never a wrong history.
  public static func replayed(
    for witness: Witness, policy: CompiledPolicy, policyText: String, environment: PolicyEnvironment
  ) -> Result<WitnessHistory, WitnessHistoryRefusal> {
    claimed(witness, reading: reading(policy)).flatMap { history, claims in
      var history = history
      history.appFacts.removeAll { fact in
        guard let slot = policy.layout.slot(named: fact.name), case .declaration = policy.layout.slots[slot].origin
        else { return true }
        return false
      }
      history.steps = history.steps.map { step in
        WitnessHistory.unnamingEvent(step) { !TestRunner.acceptsEvent($0, policy: policy, environment: environment) }
      }
      let known = claims.filter { policy.layout.slot(named: $0.name) != nil }
      return history.check(known, policy: policy, policyText: policyText, environment: environment).map { history }
    }
  }

  /// `step` recording its event unnamed when `unknown` says its name is one, as it is otherwise.
  static func unnamingEvent(_ step: String, where unknown: (String) -> Bool) -> String {
    guard case .success(let parsed) = HistoryStep.parse(step, range: SourceRange(start: 0, end: 0)),
      let name = parsed.eventName, unknown(name),
      let named = try? WitnessHistoryBuilder.eventStep(name), step == named || step.hasPrefix(named + " ")
    else { return step }
    return "silent event" + step.dropFirst(named.count)
  }

  /// The names of the facts `policy` reads.
  public static func reading(_ policy: CompiledPolicy) -> Set<String> {
    Set(policy.readSlots.map { policy.layout.slots[$0].name })
  }

  /// Replays the history and compares the facts at the end with `facts`, value for value.
  public func check(
    _ facts: [AssignedFact], policy: CompiledPolicy, policyText: String, environment: PolicyEnvironment
  ) -> Result<Void, WitnessHistoryRefusal> {
    replay(policy: policy, policyText: policyText, environment: environment).flatMap { replayed in
      for fact in facts {
        let got = replayed.value(of: fact.name)
        if got != fact.value {
          return .failure(WitnessHistoryMessages.replayMismatch(fact.name, got: got, expected: fact.value))
        }
      }
      return .success(())
    }
  }

  /// The facts at the end of the history, replayed as `policyc test` replays its test case
  /// (``testCase(name:expectsAsk:deciding:)``) through a review manager running `policy`.
  public func replay(policy: CompiledPolicy, policyText: String, environment: PolicyEnvironment) -> Result<
    Facts, WitnessHistoryRefusal
  > {
    let text = testCase(name: "replay", expectsAsk: false, deciding: nil)
    let source = SourceFile(path: "replay.test.json", text: text)
    guard case .success(let node) = JSONParser.parse(source) else {
      return .failure(WitnessHistoryMessages.replayFailed(["the test case is not JSON"]))
    }
    var problems: [Diagnostic] = []
    guard let testCase = PolicyTestCase.parse(node, &problems) else {
      return .failure(WitnessHistoryMessages.replayFailed(problems.map(\.message)))
    }
    let file = PolicyTestFile(policy: "", policyRange: node.range, now: nil, start: nil, cases: [testCase])
    switch TestRunner.runHistory(
      testCase.history ?? [], testCase, file: file, policy: policy, policyText: policyText, environment: environment)
    {
    case .success(let result): return .success(result.facts)
    case .failure(let failure): return .failure(WitnessHistoryMessages.replayFailed(failure.diagnostics.map(\.message)))
    }
  }
}
