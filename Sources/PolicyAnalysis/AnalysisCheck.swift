import PolicyCore

/// A check the analyzer runs after its own logic checks: the hook through which a domain brings
/// warnings the language cannot know about (for example, a host's rules on how often a policy may
/// decide yes).
///
/// A check receives an ``AnalysisContext``: the compiled policy, each rule's condition translated
/// into an ``AnalysisCondition`` over the facts, the solver (``AnalysisContext/isSatisfiable(_:)``)
/// and the witness builder (``AnalysisContext/witness(of:attempts:adjusting:verify:)``), and the
/// report its warnings go to. Warnings that say something *can* happen should carry a witness
/// accepted by `verify`, so they are proofs checked on the compiled policy. Pass checks to
/// ``PolicyAnalyzer/analyze(_:options:checks:)``; silencing comments apply to their warnings too.
public struct AnalysisCheck: Sendable {
  /// A short name, for documentation and debugging.
  public var name: String
  /// The codes the check may report: `# policyc: allow` comments may name them, and an
  /// `allow` of one that silences nothing is reported (PC317).
  public var codes: [DiagnosticCode]
  /// Runs the check on one policy, reporting into the context.
  public var run: @Sendable (inout AnalysisContext) -> Void

  /// Creates a check that reports the codes `codes`.
  public init(
    name: String, codes: [DiagnosticCode] = [], run: @escaping @Sendable (inout AnalysisContext) -> Void
  ) {
    self.name = name
    self.codes = codes
    self.run = run
  }
}

/// A condition over the facts, as the analyzer's solver reads it: comparisons of one fact with
/// constants, presence, ages of instants, combined with `&&` and `||`.
public struct AnalysisCondition: Sendable, Hashable {
  var formula: Formula

  init(_ formula: Formula) {
    self.formula = formula
  }

  /// The condition that always holds.
  public static let always = AnalysisCondition(.true)

  /// The `bool` fact `fact` is true.
  public static func isTrue(_ fact: String) -> AnalysisCondition {
    AnalysisCondition(
      .literal(.constraint(AnalysisVariable(name: fact, isAge: false, kind: .bool), .oneOf([AnalysisKey(word: 1)]))))
  }

  /// The optional fact `fact` is present.
  public static func isPresent(_ fact: String) -> AnalysisCondition {
    AnalysisCondition(.literal(.present(fact, true)))
  }

  /// The `int` fact `fact` is at least `minimum`.
  public static func int(_ fact: String, atLeast minimum: Int64) -> AnalysisCondition {
    AnalysisCondition(
      .literal(
        .constraint(AnalysisVariable(name: fact, isAge: false, kind: .int), .atLeast(AnalysisKey(word: minimum)))))
  }

  /// The `int` fact `fact` is `value`.
  public static func int(_ fact: String, equals value: Int64) -> AnalysisCondition {
    AnalysisCondition(
      .literal(.constraint(AnalysisVariable(name: fact, isAge: false, kind: .int), .oneOf([AnalysisKey(word: value)]))))
  }

  /// The instant fact `fact` is at least `milliseconds` before `now` (`since(fact)` at least that).
  public static func age(of fact: String, atLeast milliseconds: Int64) -> AnalysisCondition {
    AnalysisCondition(
      .literal(
        .constraint(AnalysisVariable(name: fact, isAge: true, kind: .age), .atLeast(AnalysisKey(word: milliseconds)))))
  }

  /// The instant fact `fact` is at most `milliseconds` before `now` (`since(fact)` at most that).
  public static func age(of fact: String, atMost milliseconds: Int64) -> AnalysisCondition {
    AnalysisCondition(
      .literal(
        .constraint(AnalysisVariable(name: fact, isAge: true, kind: .age), .atMost(AnalysisKey(word: milliseconds)))))
  }

  /// Every one of `conditions` holds.
  public static func all(_ conditions: [AnalysisCondition]) -> AnalysisCondition {
    AnalysisCondition(.all(conditions.map(\.formula)))
  }

  /// Both conditions hold.
  public static func && (lhs: AnalysisCondition, rhs: AnalysisCondition) -> AnalysisCondition {
    AnalysisCondition(lhs.formula && rhs.formula)
  }

  /// One of the conditions holds.
  public static func || (lhs: AnalysisCondition, rhs: AnalysisCondition) -> AnalysisCondition {
    AnalysisCondition(lhs.formula || rhs.formula)
  }
}

/// The solver's model behind a witness: what it allows each fact to be.
public struct SolverModel: Sendable {
  let state: TheoryState

  /// Whether the model allows the `int` fact `fact` to be `value`.
  public func admits(_ fact: String, int value: Int64) -> Bool {
    let domain = state.ordered[AnalysisVariable(name: fact, isAge: false, kind: .int)] ?? OrderedDomain(kind: .int)
    return domain.admits(AnalysisKey(word: value))
  }
}

/// What an ``AnalysisCheck`` works with: the policy, its rules as conditions over the facts, the
/// solver and witness builder, and the report.
public struct AnalysisContext {
  var analysis: Analysis
  let outcomes: [Outcome]
  let axioms: Formula
  let noNever: Formula
  let builder: WitnessBuilder

  init(analysis: Analysis) {
    self.analysis = analysis
    let policy = analysis.policy
    let table = AtomTable()
    var translator = PolicyTranslator(policy: policy, table: table, freeConstants: false)
    let outcomes = policy.rules.map { translator.outcome(of: $0.condition) }
    let nevers = policy.rules.indices.filter { policy.rules[$0].kind == .never }
    self.outcomes = outcomes
    noNever = Formula.all(nevers.map { Analysis.doesNotCount(policy.rules[$0], outcomes[$0]) })
    axioms = table.axioms
    builder = WitnessBuilder(slots: WitnessBuilder.slots(of: [policy]), table: table, relations: policy.relations)
  }

  /// The policy analysed.
  public var policy: CompiledPolicy { analysis.policy }

  /// How messages name rule `index`: "ask rule `loyal`", "the never rule at line 3", "the condition".
  public func title(ofRule index: Int) -> String {
    analysis.title(index)
  }

  /// The facts rule `index` reads, through `let`s.
  public func factsRead(byRule index: Int) -> Set<String> {
    analysis.factNames(policy.rules[index].condition)
  }

  /// Where the policy asks through rule `index`: the rule holds and no `never` rule does.
  ///
  /// A check asks this first for each rule it checks: the rule is the one a warning about the
  /// work budget (`PC318`) names when the budget runs out.
  public mutating func asks(throughRule index: Int) -> AnalysisCondition {
    analysis.currentRule = index
    return AnalysisCondition(axioms && noNever && outcomes[index].holds)
  }

  /// Whether the analysis's work budget is spent: every search now answers "unknown", so a check
  /// should stop (the analysis reports `PC318` with the rules left unchecked).
  public var isOutOfBudget: Bool { analysis.isOutOfBudget }

  /// Whether some facts satisfy `condition`; nil when the search ran out of steps (the report
  /// then notes one more inconclusive check).
  public mutating func isSatisfiable(_ condition: AnalysisCondition) -> Bool? {
    let result = analysis.satisfiable(condition.formula)
    if result == nil && analysis.isOutOfBudget { analysis.stop(atRule: analysis.currentRule) }
    return result
  }

  /// Facts satisfying `condition` on which `verify` accepts the compiled policy's decision, after
  /// `adjust` completes them (for example, to keep related counts consistent); nil when none is
  /// found (unsatisfiable, inconclusive, or no model could be realised) within `attempts` models.
  public mutating func witness(
    of condition: AnalysisCondition, attempts: Int = 32,
    adjusting adjust: (Witness, SolverModel) -> Witness = { witness, _ in witness },
    verify: (Witness, Decision) -> Bool
  ) -> Witness? {
    var found: Witness?
    var tries = 0
    var outOfBudget = false
    let policy = self.policy
    let builder = self.builder
    let budget = analysis.budget
    let seeds = Witness.candidateSeeds(for: [policy])
    // Building a witness costs about a unit per slot; verifying it, one per instruction too.
    let buildCost = policy.layout.slots.count + 1
    let verifyCost = policy.instructionCount + buildCost
    let result = analysis.solver.search(condition.formula) { state in
      tries += 1
      if tries > attempts { return true }
      guard budget.spend(buildCost) else {
        outOfBudget = true
        return true
      }
      var candidates = WitnessBuilder.Candidates(builder, state)
      for round in 0..<WitnessBuilder.Candidates.count {
        if round > 0 {
          guard budget.spend(buildCost) else {
            outOfBudget = true
            return true
          }
        }
        guard var witness = candidates.witness(round) else { continue }
        witness = adjust(witness, SolverModel(state: state))
        // Repairing and adjusting may break a relation that the build kept.
        guard builder.isReal(witness) else { continue }
        for seed in seeds {
          guard budget.spend(verifyCost) else {
            outOfBudget = true
            return true
          }
          witness.seed = seed
          let decision = policy.decide(witness.facts(for: policy))
          if verify(witness, decision) {
            found = witness
            return true
          }
        }
      }
      return false
    }
    if case .unknown = result { analysis.inconclusive += 1 }
    if outOfBudget && found == nil { analysis.inconclusive += 1 }
    if analysis.isOutOfBudget && found == nil { analysis.stop(atRule: analysis.currentRule) }
    return found
  }

  /// Reports `diagnostic`, a warning (its code's severity) belonging to the declaration at
  /// `owner` (whose silencing comments apply), with the facts that show it when it says
  /// something can happen. A check's module writes it with its own message factories.
  public mutating func report(_ diagnostic: Diagnostic, owner: SourceRange, witness: Witness? = nil) {
    analysis.report(diagnostic, owner: owner, witness: witness)
  }

  /// Reports a warning with `code` at `range` belonging to the declaration at `owner`, as
  /// ``report(_:owner:witness:)`` does.
  public mutating func report(
    _ code: DiagnosticCode, _ message: String, at range: SourceRange, owner: SourceRange, help: [String],
    witness: Witness? = nil
  ) {
    report(Diagnostic(code, message, at: range, help: help), owner: owner, witness: witness)
  }
}
