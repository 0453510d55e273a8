import PolicyCore

/// Facts on which two policies decide differently, with both decisions.
public struct Counterexample: Sendable, Equatable {
  /// The facts (by name, with `now`).
  public var witness: Witness
  /// The first policy's decision on them.
  public var old: Decision
  /// The second policy's decision on them.
  public var new: Decision
}

/// Whether two policies decide the same.
public enum EquivalenceResult: Sendable, Equatable {
  /// They decide the same (ask or not) for every set of facts: proven.
  case equivalent
  /// They decide differently on these facts: verified by evaluating both.
  case different(Counterexample)
  /// The analysis could not tell; the reason says why.
  case unknown(String)
  /// The policies cannot be compared (a fact has different types in them).
  case incomparable(String)
}

/// Decides whether two compiled policies decide the same for every set of facts.
///
/// Both policies are translated into formulas over one set of variables, named by fact (see
/// ``PolicyAnalyzer``): "the first asks and the second does not, or the reverse". When the
/// search proves that formula unsatisfiable, the policies are equivalent; this holds even when
/// they contain opaque atoms, which are then treated as free unknowns (shared when identical
/// in both), an over-approximation of what facts can do. When the search finds a model, it is
/// turned into concrete facts and both policies are evaluated on them: only a verified
/// difference is reported. A model that no facts realise (because of opaque atoms) gives
/// ``EquivalenceResult/unknown(_:)``, as does a search that runs out of steps.
///
/// Facts range over every value of their type; instants and `now` over the years 1 to 9999,
/// what a facts file can hold. Facts that only one policy has are free for the other.
public enum PolicyEquivalence {
  /// Compares `old` and `new`. `accept` may check a counterexample further (for example by
  /// writing and reading it back as a facts file); a rejected one is not reported.
  public static func compare(
    _ old: CompiledPolicy, _ new: CompiledPolicy, options: AnalysisOptions = .all,
    accept: (Counterexample) -> Bool = { _ in true }
  ) -> EquivalenceResult {
    // Facts are matched by name: their types must agree.
    var presenceRequired: [String] = []
    for slot in old.layout.slots {
      guard let index = new.layout.slot(named: slot.name) else { continue }
      let other = new.layout.slots[index]
      if other.type != slot.type {
        let (first, second) = (CheckerMessages.article(slot.type), CheckerMessages.article(other.type))
        return .incomparable("fact `\(slot.name)` is \(first) in the first policy but \(second) in the second")
      }
      if other.isOptional != slot.isOptional { presenceRequired.append(slot.name) }
    }
    for policy in [old, new] {
      let size = Analysis.size(of: policy)
      if size > options.maximumConditions {
        return .unknown(
          "\(policy.source.path) is too large to analyse (\(size) conditions; the limit is \(options.maximumConditions))"
        )
      }
    }
    let table = AtomTable()
    let oldAsks = askFormulas(old, table)
    let newAsks = askFormulas(new, table)
    let required = Formula.all(presenceRequired.map { .literal(.present($0, true)) })
    let differs =
      required && table.axioms && ((oldAsks.asks && newAsks.doesNotAsk) || (oldAsks.doesNotAsk && newAsks.asks))

    let budget = SearchBudget(steps: options.searchSteps)
    // Both policies are compiled against one schema; the relations of either are those of both.
    let relations = old.relations.isEmpty ? new.relations : old.relations
    let slots = WitnessBuilder.slots(of: [old, new])
    let builder = WitnessBuilder(slots: slots, table: table, relations: relations)
    let solver = FormulaSolver(
      budget: budget, stepLimit: options.searchSteps, windowed: FormulaSolver.windowedFacts(of: [old, new]),
      axioms: builder.axioms)
    let seeds = Witness.candidateSeeds(for: [old, new])
    let verifyCost = old.instructionCount + new.instructionCount + 2
    // About a unit per related fact and propagator a label visits.
    let buildCost = slots.count * 4 + builder.axioms.propagators.count
    let maximumRetriedModels = 32
    var outOfBudget = false
    var models = 0
    var found: Counterexample?
    let maximumModels = 256
    let result = solver.search(differs) { state in
      models += 1
      if models > maximumModels { return true }
      // Building a witness is work: the shared budget bounds it too.
      guard budget.spend(buildCost) else {
        outOfBudget = true
        return true
      }
      var candidates = WitnessBuilder.Candidates(builder, state)
      // For the first models also the candidates with optional facts present first (each build
      // labels every related fact).
      for round in 0..<(models <= maximumRetriedModels ? WitnessBuilder.Candidates.count : 2) {
        if round == 2 {
          guard budget.spend(buildCost) else {
            outOfBudget = true
            return true
          }
        }
        guard var witness = candidates.witness(round) else { continue }
        // Repairing may break a relation that the build kept.
        guard builder.isReal(witness) else { continue }
        // The facts are made once; only the seed changes from one try to the next.
        var oldFacts = witness.facts(for: old)
        var newFacts = witness.facts(for: new)
        for seed in seeds {
          // A decision of each policy is work too: the shared budget bounds the whole comparison.
          guard budget.spend(verifyCost) else {
            outOfBudget = true
            return true
          }
          witness.seed = seed
          oldFacts.seed = seed
          newFacts.seed = seed
          let oldDecision = old.decide(oldFacts)
          let newDecision = new.decide(newFacts)
          guard oldDecision.shouldAsk != newDecision.shouldAsk else { continue }
          let candidate = Counterexample(witness: witness, old: oldDecision, new: newDecision)
          if accept(candidate) {
            found = candidate
            return true
          }
        }
      }
      return false
    }
    if let found { return .different(found) }
    if outOfBudget { return .unknown("the policies are too complex to compare within the analysis limits") }
    switch result {
    case .unknown:
      return .unknown("the policies are too complex to compare within the analysis limits")
    case .found, .exhausted:
      if models == 0 { return .equivalent }
      let opaque = table.atoms.compactMap { atom -> String? in
        if case .free = atom { return nil }
        return describe(atom)
      }
      let list = opaque.prefix(3).map { "`\($0)`" }.joined(separator: ", ")
      return .unknown(
        "a difference may exist, but no facts that show it were found: the policies use conditions the analysis does not model exactly"
          + (list.isEmpty ? "" : " (such as \(list))"))
    }
  }

  /// "ask" and "don't ask" as formulas for one policy.
  static func askFormulas(_ policy: CompiledPolicy, _ table: AtomTable) -> (asks: Formula, doesNotAsk: Formula) {
    var translator = PolicyTranslator(policy: policy, table: table, freeConstants: false)
    var noNever: [Formula] = []
    var someNever: [Formula] = []
    var someAsk: [Formula] = []
    var noAsk: [Formula] = []
    for rule in policy.rules {
      let outcome = translator.outcome(of: rule.condition)
      if rule.kind == .never {
        noNever.append(Analysis.doesNotCount(rule, outcome))
        someNever.append(Analysis.counts(rule, outcome))
      } else {
        someAsk.append(Analysis.counts(rule, outcome))
        noAsk.append(Analysis.doesNotCount(rule, outcome))
      }
    }
    return (.all(noNever) && .any(someAsk), .any(someNever) || .all(noAsk))
  }

  /// A short text for an opaque atom, for messages.
  static func describe(_ atom: OpaqueAtom) -> String {
    switch atom {
    case .compare(let op, let lhs, let rhs): return "\(describe(lhs)) \(op.rawValue) \(describe(rhs))"
    case .membership(let negated, let term, let values):
      return "\(describe(term)) \(negated ? "not in" : "in") [\(values.map(\.description).joined(separator: ", "))]"
    case .truth(let term): return describe(term)
    case .free: return "constant"
    }
  }

  static func describe(_ term: Term) -> String {
    switch term {
    case .constant(let value): return value.description
    case .failure: return "fault"
    case .value(let name, _): return name
    case .age(let name): return "since(\(name))"
    case .now: return "now"
    case .arithmetic(let operation, let lhs, let rhs, _):
      let symbol: String
      switch operation {
      case .addInt, .addNumber, .addDuration, .addToInstant, .addInstantToDuration: symbol = "+"
      case .subtractInt, .subtractNumber, .subtractDuration, .subtractFromInstant, .subtractInstants: symbol = "-"
      case .multiplyInt, .multiplyNumber, .multiplyDuration, .multiplyIntByDuration: symbol = "*"
      case .divideInt, .divideNumber, .divideDurationByInt, .divideDurations: symbol = "/"
      case .remainderInt: symbol = "%"
      }
      return "\(describe(lhs)) \(symbol) \(describe(rhs))"
    case .negate(let inner, _): return "-\(describe(inner))"
    case .promote(let inner): return describe(inner)
    case .extremum(let isMinimum, let terms, _):
      return (isMinimum ? "min(" : "max(") + terms.map(describe).joined(separator: ", ") + ")"
    case .since(let inner): return "since(\(describe(inner)))"
    case .opaque: return "a value the analysis does not model"
    }
  }
}
