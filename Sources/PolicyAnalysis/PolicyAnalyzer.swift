import PolicyCore

/// What ``PolicyAnalyzer`` looks for, and how much work it may do.
public struct AnalysisOptions: Sendable, Hashable {
  /// Logic warnings: rules that never or always hold (PC310, PC311), shadowed `ask` rules
  /// (PC312), contradictory (PC313) and redundant (PC314) comparisons.
  public var logic: Bool
  /// The most conditions (nodes of the checked rules and `let`s) a policy may have to be
  /// analysed; a larger policy gets a note instead.
  public var maximumConditions: Int
  /// The most work units the whole analysis may spend, whatever the policy's size (a search
  /// step, a goal copied, an instruction evaluated to verify a witness are one unit each).
  public var searchSteps: Int
  /// The work units the analysis may spend for any policy, besides ``workPerCondition``.
  public var baseWork: Int
  /// The work units the analysis may spend per condition (node of the checked rules and used
  /// `let`s): the budget grows linearly with the policy, so its time and memory do too.
  public var workPerCondition: Int

  /// Creates options.
  public init(
    logic: Bool = true, maximumConditions: Int = 10_000, searchSteps: Int = 2_000_000, baseWork: Int = 100_000,
    workPerCondition: Int = 40
  ) {
    self.logic = logic
    self.maximumConditions = maximumConditions
    self.searchSteps = searchSteps
    self.baseWork = baseWork
    self.workPerCondition = workPerCondition
  }

  /// The work units an analysis of a policy of `conditions` conditions may spend:
  /// ``baseWork`` plus ``workPerCondition`` per condition, at most ``searchSteps``. When they
  /// run out the analysis stops with a warning (`PC318`) naming how many rules it did not check.
  public func workBudget(forConditions conditions: Int) -> Int {
    let (perCondition, overflow) = workPerCondition.multipliedReportingOverflow(by: max(0, conditions))
    let (total, overflowAgain) = baseWork.addingReportingOverflow(overflow ? .max : perCondition)
    return min(searchSteps, overflow || overflowAgain ? .max : total)
  }

  /// Every check.
  public static let all = AnalysisOptions()
}

/// One warning of the analyzer, with the facts that show it when it says something can happen.
public struct AnalysisFinding: Sendable, Equatable {
  /// The warning.
  public var diagnostic: Diagnostic
  /// For warnings that say something can happen (those of ``AnalysisCheck``s), the facts on
  /// which the policy decides as described (verified by evaluating the compiled policy); nil for
  /// warnings that say something cannot happen.
  public var witness: Witness?
  /// The declaration (rule or `let`) the warning belongs to; its silencing comments apply.
  public var owner: SourceRange
}

/// The result of analysing one policy.
public struct AnalysisReport: Sendable {
  /// The warnings, ordered by position, without those silenced by comments.
  public var findings: [AnalysisFinding]
  /// The warnings silenced by `# policyc: allow PCnnn` comments.
  public var silenced: [AnalysisFinding]
  /// Remarks that are not warnings, such as "too complex to analyse".
  public var notes: [String]

  /// The warnings as diagnostics, ordered by position.
  public var warnings: [Diagnostic] { findings.map(\.diagnostic) }

  /// Whether every check ran to the end (no note about limits).
  public var isComplete: Bool { notes.isEmpty }
  /// The work units the analysis spent (see ``AnalysisOptions/workBudget(forConditions:)``).
  public var workSpent: Int = 0
}

/// The policy analyzer: finds rules that can never or always hold, shadowed `ask` rules,
/// contradictory or redundant comparisons, and runs the ``AnalysisCheck``s a host supplies.
///
/// **Method.** Each rule's condition is translated (with `let`s inlined, `??` and `since`
/// split into cases) into three formulas over the facts: where it holds, where it fails,
/// where it faults. Comparisons of one fact (or of `since(fact)`) with constants become
/// interval and set constraints; anything else (arithmetic, comparisons of two facts,
/// `min`/`max` that cannot be split) is an *opaque* atom, an unknown that holds, fails or
/// faults, the same unknown wherever the same atom occurs. A depth-first search with unit
/// propagation decides the formulas exactly over these constraints.
///
/// **Soundness.** A warning that something *cannot* happen (PC310-PC314) is a proof: the
/// search found no facts at all, even treating opaque atoms as free. A warning that
/// something *can* happen (from an ``AnalysisCheck``) comes with a ``Witness`` on which the
/// compiled policy was evaluated and decided as claimed. When the search is inconclusive,
/// nothing is reported (at most a note).
///
/// **Domain.** Facts range over every value of their type, except that instants (and `now`)
/// are those a facts file can hold, years 1 to 9999, so `since` never overflows.
///
/// **Silencing.** A comment `# policyc: allow PC311` on the first line of a rule (or `let`)
/// or alone on the line just above it silences that warning for that declaration; several
/// codes may be listed, separated by spaces or commas. The comments are checked: an unknown
/// directive (PC315), a code no comment can silence (PC316) and an `allow` that silences nothing
/// where it stands (PC317) are warnings. Codes of other domains are known through the checks'
/// ``AnalysisCheck/codes``; without checks, codes PolicyCore does not define are not judged.
public enum PolicyAnalyzer {
  /// The codes of the analyzer's own logic checks, which comments can silence.
  static let logicCodes: [PolicyCoreCode] = [
    .ruleNeverHolds, .ruleAlwaysHolds, .shadowedAskRule, .contradictoryComparisons, .redundantComparison, .neverAsks,
  ]

  /// The analysis of `policy`: the logic checks that `options` enables, then `checks`.
  public static func analyze(
    _ policy: CompiledPolicy, options: AnalysisOptions = .all, checks: [AnalysisCheck] = []
  ) -> AnalysisReport {
    var analysis = Analysis(policy: policy, options: options, checks: checks)
    analysis.run()
    var findings: [AnalysisFinding] = []
    var silenced: [AnalysisFinding] = []
    // Comments are read (the file parsed again) only when the file has a `policyc:` comment.
    var allowed =
      SilencingComments.mayHaveDirectives(policy.source) ? SilencingComments(source: policy.source) : nil
    for finding in analysis.findings {
      if allowed?.silence(finding.diagnostic.code, owner: finding.owner) == true {
        silenced.append(finding)
      } else {
        findings.append(finding)
      }
    }
    if let allowed {
      // An `allow` is judged unused only for codes that every check had the chance to report.
      let logic = PolicyAnalyzer.logicCodes.map(\.code)
      let fromChecks = checks.flatMap(\.codes)
      let judged =
        analysis.notes.isEmpty ? Set((options.logic ? logic : []).map(\.rawValue) + fromChecks.map(\.rawValue)) : []
      for warning in allowed.warnings(
        silenceable: logic + fromChecks, judged: judged, reportsUnknown: !checks.isEmpty)
      {
        findings.append(AnalysisFinding(diagnostic: warning, witness: nil, owner: warning.range))
      }
    }
    let order = { (lhs: AnalysisFinding, rhs: AnalysisFinding) -> Bool in
      (lhs.diagnostic.range.start, lhs.diagnostic.code.rawValue) < (
        rhs.diagnostic.range.start, rhs.diagnostic.code.rawValue
      )
    }
    return AnalysisReport(
      findings: findings.sorted(by: order), silenced: silenced.sorted(by: order), notes: analysis.notes,
      workSpent: analysis.budget.spent)
  }

  /// The analyzer's warnings for `policy`, ordered by position, silenced ones left out.
  public static func warnings(
    for policy: CompiledPolicy, options: AnalysisOptions = .all, checks: [AnalysisCheck] = []
  ) -> [Diagnostic] {
    analyze(policy, options: options, checks: checks).warnings
  }

  /// The analyzer's warnings for a compilation: none when it has errors.
  public static func warnings(
    for compilation: Compilation, options: AnalysisOptions = .all, checks: [AnalysisCheck] = []
  ) -> [Diagnostic] {
    guard let policy = compilation.policy else { return [] }
    return warnings(for: policy, options: options, checks: checks)
  }

  /// The compilation's diagnostics with the analyzer's warnings merged in, as `policyc check`
  /// shows them: ordered by position, at most ``Limits/maximumErrors`` warnings, then `PC399`.
  public static func diagnostics(
    for compilation: Compilation, options: AnalysisOptions = .all, checks: [AnalysisCheck] = []
  ) -> [Diagnostic] {
    merge(compilation.diagnostics, warnings(for: compilation, options: options, checks: checks))
  }

  /// `diagnostics` (a compilation's) with `extra` warnings merged in: ordered by position, at
  /// most ``Limits/maximumErrors`` warnings, then one `PC399` (the compilation's, if it has one).
  /// The compilation's warnings and `extra` count against the same cap (`DiagnosticCap`).
  package static func merge(_ diagnostics: [Diagnostic], _ extra: [Diagnostic]) -> [Diagnostic] {
    guard !extra.isEmpty else { return diagnostics }
    let tooManyWarnings = PolicyCoreCode.tooManyWarnings.code
    let tooManyErrors = PolicyCoreCode.tooManyErrors.code
    var merged = diagnostics.filter { !$0.isCapMarker }
    let markers = diagnostics.filter(\.isCapMarker)
    var cap = DiagnosticCap(.warning, count: merged.filter { $0.severity == .warning }.count)
    var overflow: Diagnostic?
    for warning in extra {
      switch cap.admit(warning) {
      case .admitted: merged.append(warning)
      case .overflowed(let marker): overflow = markers.first { $0.code == tooManyWarnings } ?? marker
      case .dropped: break
      }
    }
    var result = merged.sortedByPosition()
    if let overflow { result.append(overflow) } else { result += markers.filter { $0.code == tooManyWarnings } }
    result += markers.filter { $0.code == tooManyErrors }
    return result
  }
}

// MARK: - The analysis

/// One run of the analyzer over one policy.
struct Analysis {
  let policy: CompiledPolicy
  let options: AnalysisOptions
  let checks: [AnalysisCheck]
  let budget: SearchBudget
  /// See ``FormulaSolver/windowed``.
  let windowed: Set<String>
  /// The schema's relations over the policy's facts (see ``FormulaSolver/axioms``).
  let axioms: RelationAxioms
  var findings: [AnalysisFinding] = []
  var notes: [String] = []
  /// Checks skipped because the search budget ran out.
  var inconclusive = 0
  /// The number of conditions (see ``size(of:)``).
  let size: Int
  /// The rule being checked, for the warning when the budget runs out there.
  var currentRule = 0
  /// The first rule that some pass left unchecked because the budget ran out.
  var firstUnchecked: Int?
  /// Why each `ask` rule found to never decide does not, for `PC319`.
  var askFates: [Int: String] = [:]
  /// The `never` rules found to always hold.
  var alwaysHoldingNevers: [Int] = []
  /// How many warnings had the relations that cause them named (see ``relationsExplaining(_:)``).
  var explanations = 0

  init(policy: CompiledPolicy, options: AnalysisOptions, checks: [AnalysisCheck] = []) {
    self.policy = policy
    self.options = options
    self.checks = checks
    self.size = Analysis.size(of: policy)
    self.budget = SearchBudget(steps: options.workBudget(forConditions: size))
    self.windowed = FormulaSolver.windowedFacts(of: [policy])
    self.axioms =
      policy.relations.isEmpty
      ? .none : RelationAxioms(relations: policy.relations, slots: WitnessBuilder.slots(of: [policy]))
  }

  /// Whether the work budget is spent: the analysis stops.
  var isOutOfBudget: Bool { budget.wasExhausted }

  /// Records that the budget ran out while checking rule `index` (every later rule, and this
  /// one, count as not checked).
  mutating func stop(atRule index: Int) {
    firstUnchecked = min(firstUnchecked ?? index, index)
  }

  var solver: FormulaSolver { FormulaSolver(budget: budget, windowed: windowed, axioms: axioms) }

  /// The number of checked-tree nodes in the rules and used `let`s.
  static func size(of policy: CompiledPolicy) -> Int {
    var count = 0
    for root in policy.rules.map(\.condition) + policy.lets.filter(\.isUsed).compactMap(\.value) {
      root.forEachNode { _ in count += 1 }
    }
    return count
  }

  mutating func run() {
    guard !policy.rules.isEmpty else { return }
    guard size <= options.maximumConditions else {
      notes.append(AnalyzerMessages.tooLargeNote(size: size, limit: options.maximumConditions))
      return
    }
    var contradicted = Set<Int>()
    if options.logic {
      contradicted = checkComparisons()
      if isOutOfBudget { stop(atRule: 0) } else { checkRules(skipping: contradicted) }
      if !isOutOfBudget { checkAsksAnyone() }
    }
    if !checks.isEmpty {
      if isOutOfBudget {
        // The checks did not run at all.
        stop(atRule: 0)
      } else {
        var context = AnalysisContext(analysis: self)
        for check in checks where !context.isOutOfBudget { check.run(&context) }
        self = context.analysis
      }
    }
    if isOutOfBudget {
      let first = firstUnchecked ?? min(currentRule, policy.rules.count - 1)
      let unchecked = policy.rules.count - max(0, first)
      report(
        AnalyzerMessages.analysisIncomplete(
          unchecked: unchecked, rules: policy.rules.count, from: title(max(0, first)),
          at: .empty(at: policy.source.hasByteOrderMark ? 3 : 0)),
        owner: .empty(at: 0))
    }
    if inconclusive > 0 {
      notes.append(AnalyzerMessages.inconclusiveNote(count: inconclusive))
    }
  }

  // MARK: - Naming

  /// How a rule is named in messages: "ask rule `loyal`", "the never rule at line 3", "the condition".
  func title(_ index: Int) -> String {
    let rule = policy.rules[index]
    if let name = rule.name { return "\(rule.kind.rawValue) rule `\(name)`" }
    if policy.rules.count == 1 && rule.kind == .ask && isBareCondition(rule) { return "the condition" }
    return "the \(rule.kind.rawValue) rule at line \(line(of: rule))"
  }

  /// "the never rule at line 3" → "never rule at line 3" style names for lists.
  func reference(_ index: Int) -> String {
    let rule = policy.rules[index]
    if let name = rule.name { return "`\(name)`" }
    return "the \(rule.kind.rawValue) rule at line \(line(of: rule))"
  }

  /// The line a rule starts on (a binary search: no scan of a long line for the column).
  func line(of rule: CheckedRule) -> Int {
    policy.source.lineIndex(of: min(max(rule.range.start, 0), policy.source.bytes.count)) + 1
  }

  func isBareCondition(_ rule: CheckedRule) -> Bool {
    let text = policy.source.text(in: rule.range)
    return
      !(text.hasPrefix("ask") && (text.dropFirst(3).first.map { !$0.isLetter && !$0.isNumber && $0 != "_" } ?? true))
  }

  /// How a rule could be written to make a behaviour explicit, as in `ask loyal when true`.
  func explicitForm(_ index: Int, _ constant: Bool) -> String {
    let rule = policy.rules[index]
    return "\(rule.kind.rawValue)\(rule.name.map { " \($0)" } ?? "") when \(constant)"
  }

  /// Reports `diagnostic`, a warning belonging to the declaration at `owner`.
  mutating func report(_ diagnostic: Diagnostic, owner: SourceRange, witness: Witness? = nil) {
    findings.append(AnalysisFinding(diagnostic: diagnostic, witness: witness, owner: owner))
  }

  // MARK: - PC313, PC314: comparisons within one chain

  /// Reports contradictory and redundant comparisons; returns the rules with a contradiction.
  mutating func checkComparisons() -> Set<Int> {
    var contradicted = Set<Int>()
    var translator = PolicyTranslator(policy: policy, table: AtomTable(), freeConstants: false)
    var owners: [(expr: TypedExpr, owner: SourceRange, rule: Int?)] = []
    for (index, rule) in policy.rules.enumerated() { owners.append((rule.condition, rule.range, index)) }
    for checked in policy.lets where checked.isUsed {
      if let value = checked.value { owners.append((value, checked.range, nil)) }
    }
    for (root, owner, rule) in owners where !isOutOfBudget {
      var stack = [root]
      while let expr = stack.popLast() {
        switch expr.node {
        case .logical(let op, let operands):
          if checkChain(op, operands, owner: owner, translator: &translator), let rule { contradicted.insert(rule) }
          stack.append(contentsOf: operands)
        case .not(let inner): stack.append(inner)
        case .constant, .fact, .letValue, .now, .has, .compare, .membership, .arithmetic, .negate, .coalesce, .since,
          .extremum, .promote, .call, .bucket:
          break  // a chain's operands are not searched below comparisons and values
        }
      }
    }
    return contradicted
  }

  /// One operand of a chain that is a comparison of one fact with constants.
  struct SimpleComparison {
    var index: Int
    var expr: TypedExpr
    /// The fact compared.
    var name: String
    /// How the fact is written in messages: `days`, `since(last_login)`.
    var written: String
    /// Where the comparison holds and where it fails (it cannot fault).
    var holds: Formula
    var fails: Formula
  }

  /// The comparison `expr` stands for, when it reads one fact only and cannot fault.
  static func simpleComparison(_ expr: TypedExpr, index: Int, translator: inout PolicyTranslator) -> SimpleComparison? {
    var inner = expr
    var negated = false
    while case .not(let next) = inner.node {
      negated.toggle()
      inner = next
    }
    switch inner.node {
    case .compare, .membership: break
    default: return nil
    }
    if case .membership(_, _, let values) = inner.node, values.isEmpty { return nil }
    var outcome = translator.outcome(of: inner)
    guard outcome.faults.isFalse else { return nil }
    if negated { outcome = outcome.negated }
    // Every literal must be about the same fact: its presence, value or age.
    var name: String?
    var isAge = false
    var hasValue = false
    var stack = [outcome.holds, outcome.fails]
    while let formula = stack.popLast() {
      switch formula {
      case .constant: continue
      case .and(let parts), .or(let parts): stack.append(contentsOf: parts)
      case .literal(let literal):
        let fact: String
        switch literal {
        case .present(let factName, _): fact = factName
        case .constraint(let variable, _):
          fact = variable.name
          isAge = isAge || variable.isAge
          hasValue = true
        case .opaqueHolds, .opaqueFaults, .order: return nil
        }
        if let name, name != fact { return nil }
        name = fact
      }
    }
    guard let name, hasValue else { return nil }
    return SimpleComparison(
      index: index, expr: expr, name: name, written: isAge ? "`since(\(name))`" : "`\(name)`",
      holds: outcome.holds, fails: outcome.fails)
  }

  /// Whether all of `formulas` can hold at once (they read one fact: exact and quick).
  func consistent(_ formulas: [Formula]) -> Bool {
    // Conjunctions of literals need no search.
    var state = TheoryState()
    var literals: [Proposition] = []
    var isConjunction = true
    var stack = formulas
    while let formula = stack.popLast(), isConjunction {
      switch formula {
      case .constant(let value): if !value { return false }
      case .literal(let literal): literals.append(literal)
      case .and(let parts): stack.append(contentsOf: parts)
      case .or: isConjunction = false
      }
    }
    if isConjunction { return literals.allSatisfy { state.assume($0) } }
    // From the analysis's budget: every chain's comparisons together are bounded by it.
    return FormulaSolver(budget: budget, stepLimit: 100_000, windowed: windowed).isSatisfiable(.all(formulas)) ?? true
  }

  /// Checks one chain; returns whether a contradiction (of an `and`) or a tautology (of an `or`) was reported.
  mutating func checkChain(
    _ op: LogicalOperator, _ operands: [TypedExpr], owner: SourceRange, translator: inout PolicyTranslator
  ) -> Bool {
    var byFact: [String: [SimpleComparison]] = [:]
    var reported = Set<Int>()
    var contradiction = false
    for (index, operand) in operands.enumerated() {
      guard let current = Analysis.simpleComparison(operand, index: index, translator: &translator) else { continue }
      let earlier = byFact[current.name] ?? []
      for previous in earlier where !reported.contains(previous.index) && !reported.contains(current.index) {
        let textA = "`\(policy.source.text(in: previous.expr.writtenRange))`"
        let textB = "`\(policy.source.text(in: current.expr.writtenRange))`"
        if op == .and {
          if !consistent([previous.holds, current.holds]) {
            report(
              AnalyzerMessages.contradiction(textB, textA, fact: current.written, at: current.expr.writtenRange),
              owner: owner)
            reported.insert(current.index)
            contradiction = true
          } else if !consistent([previous.holds, current.fails]) {
            report(AnalyzerMessages.impliedComparison(textB, by: textA, at: current.expr.writtenRange), owner: owner)
            reported.insert(current.index)
          } else if !consistent([current.holds, previous.fails]) {
            report(AnalyzerMessages.impliedComparison(textA, by: textB, at: previous.expr.writtenRange), owner: owner)
            reported.insert(previous.index)
          }
        } else {
          if !consistent([previous.fails, current.fails]) {
            report(
              AnalyzerMessages.tautology(textA, textB, fact: current.written, at: current.expr.writtenRange),
              owner: owner)
            reported.insert(current.index)
            contradiction = true
          } else if !consistent([previous.holds, current.fails]) {
            report(AnalyzerMessages.coveredComparison(textA, by: textB, at: previous.expr.writtenRange), owner: owner)
            reported.insert(previous.index)
          } else if !consistent([current.holds, previous.fails]) {
            report(AnalyzerMessages.coveredComparison(textB, by: textA, at: current.expr.writtenRange), owner: owner)
            reported.insert(current.index)
          }
        }
      }
      // Each comparison is checked against the 16 before it on the same fact: linear time.
      if earlier.count >= 16 { byFact[current.name]?.removeFirst() }
      byFact[current.name, default: []].append(current)
    }
    return contradiction
  }

  // MARK: - PC310, PC311, PC312: whole rules

  /// The formula that holds where rule `index` counts as holding: an `ask` rule when it holds,
  /// a `never` rule when it holds or faults.
  static func counts(_ rule: CheckedRule, _ outcome: Outcome) -> Formula {
    rule.kind == .ask ? outcome.holds : outcome.holds || outcome.faults
  }

  /// The formula that holds where rule `index` does not count as holding.
  static func doesNotCount(_ rule: CheckedRule, _ outcome: Outcome) -> Formula {
    rule.kind == .ask ? outcome.fails || outcome.faults : outcome.fails
  }

  /// Whether `formula` has a model; nil (and one more inconclusive check) when the budget ran out.
  mutating func satisfiable(_ formula: Formula) -> Bool? {
    let result = solver.isSatisfiable(formula)
    if result == nil { inconclusive += 1 }
    return result
  }

  mutating func checkRules(skipping contradicted: Set<Int>) {
    let table = AtomTable()
    var translator = PolicyTranslator(policy: policy, table: table, freeConstants: true)
    let outcomes = policy.rules.map { translator.outcome(of: $0.condition) }
    let axioms = table.axioms
    let nevers = policy.rules.indices.filter { policy.rules[$0].kind == .never }
    var canHold: [Int: Bool] = [:]
    var alwaysNever = false
    for (index, rule) in policy.rules.enumerated() {
      guard !isOutOfBudget else {
        stop(atRule: index)
        return
      }
      let holds = satisfiable(axioms && Analysis.counts(rule, outcomes[index]))
      canHold[index] = holds ?? true
      if holds == false && rule.kind == .ask { askFates[index] = "\(title(index)) can never hold" }
      if holds == false && !contradicted.contains(index) {
        report(
          AnalyzerMessages.dueToRelations(
            AnalyzerMessages.ruleNeverHolds(title(index), kind: rule.kind, at: rule.range),
            reasons: relationsExplaining(axioms && Analysis.counts(rule, outcomes[index]))),
          owner: rule.range)
        continue
      }
      guard holds == true, satisfiable(axioms && Analysis.doesNotCount(rule, outcomes[index])) == false else {
        continue
      }
      if rule.kind == .never {
        alwaysNever = true
        alwaysHoldingNevers.append(index)
      }
      guard !contradicted.contains(index) else { continue }
      if rule.kind == .never {
        report(AnalyzerMessages.neverRuleAlwaysHolds(title(index), at: rule.range), owner: rule.range)
      } else {
        report(
          AnalyzerMessages.askRuleAlwaysHolds(title(index), explicitForm: explicitForm(index, true), at: rule.range),
          owner: rule.range)
      }
    }
    guard !nevers.isEmpty, !alwaysNever else { return }
    let noNever = Formula.all(nevers.map { Analysis.doesNotCount(policy.rules[$0], outcomes[$0]) })
    for (index, rule) in policy.rules.enumerated() where rule.kind == .ask && canHold[index] == true {
      guard !isOutOfBudget else {
        stop(atRule: index)
        return
      }
      let holds = outcomes[index].holds
      guard satisfiable(axioms && holds && noNever) == false else { continue }
      var single: Int?
      for never in nevers where !isOutOfBudget {
        if satisfiable(axioms && holds && Analysis.doesNotCount(policy.rules[never], outcomes[never])) == false {
          single = never
          break
        }
      }
      if let single {
        askFates[index] = "\(title(index)) can never decide: whenever it holds, \(title(single)) holds too"
        report(
          AnalyzerMessages.dueToRelations(
            AnalyzerMessages.askRuleShadowed(title(index), by: title(single), at: rule.range),
            reasons: relationsExplaining(
              axioms && holds && Analysis.doesNotCount(policy.rules[single], outcomes[single]))),
          owner: rule.range)
      } else {
        // A smallest set of never rules that still covers the rule: drop each one that is not needed.
        var involved = nevers.filter {
          satisfiable(axioms && holds && Analysis.counts(policy.rules[$0], outcomes[$0])) != false
        }
        for never in involved where involved.count > 1 && !isOutOfBudget {
          let rest = involved.filter { $0 != never }
          let cover = Formula.all(rest.map { Analysis.doesNotCount(policy.rules[$0], outcomes[$0]) })
          if satisfiable(axioms && holds && cover) == false { involved = rest }
        }
        askFates[index] =
          "\(title(index)) can never decide: whenever it holds, one of \(involved.map(reference).joined(separator: ", ")) holds too"
        report(
          AnalyzerMessages.askRuleShadowed(title(index), byOneOf: involved.map(reference), at: rule.range),
          owner: rule.range)
      }
    }
  }

  /// The reasons of a smallest set of the schema's relations without which `formula` (found
  /// unsatisfiable) would be satisfiable; empty when it is unsatisfiable without them, or when
  /// the relations were already explained for ``maximumExplanations`` rules.
  mutating func relationsExplaining(_ formula: Formula) -> [String] {
    guard !axioms.isEmpty, explanations < Analysis.maximumExplanations else { return [] }
    explanations += 1
    let free = FormulaSolver(budget: budget, stepLimit: 100_000, windowed: windowed)
    guard free.isSatisfiable(formula) == true else { return [] }
    // Drop relations one by one while the formula stays unsatisfiable; bounds are tried last,
    // so they are what remains when they suffice.
    let slots = WitnessBuilder.slots(of: [policy])
    var kept =
      policy.relations.filter { if case .bound = $0.kind { false } else { true } }
      + policy.relations.filter { if case .bound = $0.kind { true } else { false } }
    var index = 0
    while index < kept.count && !isOutOfBudget {
      var trial = kept
      trial.remove(at: index)
      let solver = FormulaSolver(
        budget: budget, stepLimit: 100_000, windowed: windowed,
        axioms: RelationAxioms(relations: trial, slots: slots))
      if solver.isSatisfiable(formula) == false {
        kept = trial
      } else {
        index += 1
      }
    }
    guard !isOutOfBudget else { return [] }
    var types: [String: PolicyType] = [:]
    var plain = Set<String>()
    for slot in policy.layout.slots {
      switch slot.origin {
      case .schema:
        types[slot.name] = slot.type
        plain.insert(slot.name)
      case .family(let family, _): types[family] = slot.type
      case .declaration: break
      }
    }
    return kept.map {
      $0.statement(type: { types[$0] }, isFamilyOnly: { !plain.contains($0) }) + " (" + $0.reason + ")"
    }
  }

  /// The most rules whose warnings name the relations that cause them (each costs a search per relation).
  static let maximumExplanations = 8

  // MARK: - PC319: the whole policy

  /// Reports `PC319` when no facts satisfying the relations make the policy ask: constants count
  /// as written here (a `never` rule `when true` stops every ask), unlike in the rule checks.
  mutating func checkAsksAnyone() {
    let asks = policy.rules.indices.filter { policy.rules[$0].kind == .ask }
    guard let first = asks.first else { return }
    let table = AtomTable()
    var translator = PolicyTranslator(policy: policy, table: table, freeConstants: false)
    let outcomes = policy.rules.map { translator.outcome(of: $0.condition) }
    let noNever = Formula.all(
      policy.rules.indices.filter { policy.rules[$0].kind == .never }.map {
        Analysis.doesNotCount(policy.rules[$0], outcomes[$0])
      })
    let anyAsk = table.axioms && Formula.any(asks.map { outcomes[$0].holds }) && noNever
    currentRule = first
    guard satisfiable(anyAsk) == false else { return }
    var reasons = alwaysHoldingNevers.map { "\(title($0)) always holds" }
    if reasons.isEmpty {
      for index in asks {
        if let fate = askFates[index] {
          reasons.append(fate)
        } else if satisfiable(table.axioms && outcomes[index].holds) == false {
          reasons.append("\(title(index)) can never hold")
        } else {
          reasons.append("\(title(index)) can never decide: whenever it holds, a never rule holds too")
        }
      }
    }
    let rule = policy.rules[first]
    report(AnalyzerMessages.neverAsks(reasons: reasons, at: rule.range), owner: rule.range)
  }

  // MARK: - Helpers for checks

  /// The facts `expr` reads, through `let`s.
  func factNames(_ expr: TypedExpr) -> Set<String> {
    var names = Set<String>()
    var seenLets = Set<Int>()
    var stack = [expr]
    while let next = stack.popLast() {
      switch next.node {
      case .fact(let slot), .has(.fact(let slot)): names.insert(policy.layout.slots[slot].name)
      case .letValue(let index), .has(.letValue(let index)):
        if seenLets.insert(index).inserted, let value = policy.lets[index].value { stack.append(value) }
      case .constant, .now, .not, .logical, .compare, .membership, .arithmetic, .negate, .coalesce, .since, .extremum,
        .promote, .call, .bucket:
        stack.append(contentsOf: next.children)
      }
    }
    return names
  }
}
