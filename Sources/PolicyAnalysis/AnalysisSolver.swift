import PolicyCore

/// The values an ordered variable can still take: an interval, minus excluded keys, within
/// an optional set of allowed keys.
struct OrderedDomain: Hashable, Sendable {
  var lower: AnalysisKey
  var upper: AnalysisKey
  var allowed: Set<AnalysisKey>?
  var excluded: Set<AnalysisKey> = []

  init(kind: VariableKind) {
    lower = kind.minimum
    upper = kind.maximum
  }

  func admits(_ key: AnalysisKey) -> Bool {
    key >= lower && key <= upper && !excluded.contains(key) && (allowed?.contains(key) ?? true)
  }

  mutating func apply(_ relation: Relation) {
    switch relation {
    case .atLeast(let key): lower = max(lower, key)
    case .atMost(let key): upper = min(upper, key)
    case .oneOf(let keys): allowed = allowed.map { $0.intersection(keys) } ?? keys
    case .noneOf(let keys): excluded.formUnion(keys)
    case .textOneOf, .textNoneOf: break
    }
    // With a set of allowed keys, keep only the admissible ones and the bounds tight around them,
    // so entailment can read the bounds.
    if let current = allowed {
      let admissible = current.filter { $0 >= lower && $0 <= upper && !excluded.contains($0) }
      allowed = admissible
      if let least = admissible.min(), let most = admissible.max() {
        lower = least
        upper = most
      }
    }
  }

  /// Whether some key is left.
  var isSatisfiable: Bool {
    guard lower <= upper else { return false }
    if let allowed { return allowed.contains(where: admits) }
    var key = lower
    for _ in 0...excluded.count {
      if !excluded.contains(key) { return true }
      if key == upper { return false }
      key = key.successor
    }
    return false
  }

  /// Whether some key would be left after applying `relation` (without copying the sets).
  func isSatisfiable(adding relation: Relation) -> Bool {
    switch relation {
    case .atLeast(let key):
      var copy = self
      copy.lower = max(lower, key)
      return copy.isSatisfiable
    case .atMost(let key):
      var copy = self
      copy.upper = min(upper, key)
      return copy.isSatisfiable
    case .oneOf(let keys):
      let candidates = allowed.map { $0.intersection(keys) } ?? keys
      return candidates.contains { $0 >= lower && $0 <= upper && !excluded.contains($0) }
    case .noneOf(let keys):
      guard lower <= upper else { return false }
      if let allowed {
        return allowed.contains { $0 >= lower && $0 <= upper && !excluded.contains($0) && !keys.contains($0) }
      }
      var key = lower
      for _ in 0...(excluded.count + keys.count) {
        if !excluded.contains(key) && !keys.contains(key) { return true }
        if key == upper { return false }
        key = key.successor
      }
      return false
    case .textOneOf, .textNoneOf:
      return true
    }
  }

  /// A key left in the domain, as close to `preferred` as possible; nil when there is none.
  func pick(preferring preferred: AnalysisKey) -> AnalysisKey? {
    guard lower <= upper else { return nil }
    if let allowed {
      let candidates = allowed.filter(admits).sorted()
      return candidates.first { $0 >= preferred } ?? candidates.last
    }
    let start = min(max(preferred, lower), upper)
    // At most `excluded.count` keys are skipped in each direction.
    var up: AnalysisKey? = start
    var down: AnalysisKey? = start
    for _ in 0...excluded.count {
      if let key = up {
        if !excluded.contains(key) { return key }
        up = key < upper ? key.successor : nil
      }
      if let key = down {
        if !excluded.contains(key) { return key }
        down = key > lower ? key.predecessor : nil
      }
      if up == nil && down == nil { return nil }
    }
    return nil
  }
}

/// The strings a string variable can still take.
struct TextDomain: Hashable, Sendable {
  var allowed: Set<String>?
  var excluded: Set<String> = []

  mutating func apply(_ relation: Relation) {
    switch relation {
    case .textOneOf(let texts): allowed = allowed.map { $0.intersection(texts) } ?? texts
    case .textNoneOf(let texts): excluded.formUnion(texts)
    default: break
    }
  }

  var isSatisfiable: Bool { pick() != nil }

  /// A string left in the domain: the first allowed one, or a fresh one.
  func pick() -> String? {
    if let allowed { return allowed.subtracting(excluded).sorted().first }
    for candidate in ["other", "other 2", "other 3"] + (excluded.count > 2 ? ["other \(excluded.count + 4)"] : [])
    where !excluded.contains(candidate) {
      return candidate
    }
    var index = 4
    while excluded.contains("other \(index)") { index += 1 }
    return "other \(index)"
  }
}

extension Proposition {
  /// The fact a literal constrains, nil for opaque atoms.
  var factName: String? {
    switch self {
    case .present(let name, _): name
    case .constraint(let variable, _): variable.name
    case .opaqueHolds, .opaqueFaults, .order: nil
    }
  }
}

/// What a search has assumed so far: the domain of every constrained variable, the presence
/// of facts and the outcomes of opaque atoms.
struct TheoryState: Hashable, Sendable {
  var ordered: [AnalysisVariable: OrderedDomain] = [:]
  var texts: [AnalysisVariable: TextDomain] = [:]
  var presence: [String: Bool] = [:]
  var opaqueHolds: [Int: Bool] = [:]
  var opaqueFaults: [Int: Bool] = [:]
  /// The orders between variables assumed (``Proposition/order(_:_:strict:)``), checked
  /// together with the relations' orders when a model is complete (see ``OrderEdge``).
  var orders: Set<OrderEdge> = []

  /// Assumes `literal`; false when that contradicts what is already assumed.
  mutating func assume(_ literal: Proposition) -> Bool {
    switch literal {
    case .order(let lower, let upper, let strict):
      // Both facts are present.
      for name in [lower.name, upper.name] {
        if presence[name] == false { return false }
        presence[name] = true
      }
      let edge = OrderEdge(lower, upper, strict: strict)
      if contradicts(edge) { return false }
      orders.insert(edge)
      return true
    case .present(let name, let value):
      if let known = presence[name] { return known == value }
      presence[name] = value
      return true
    case .opaqueHolds(let id, let value):
      if let known = opaqueHolds[id] { return known == value }
      opaqueHolds[id] = value
      return true
    case .opaqueFaults(let id, let value):
      if let known = opaqueFaults[id] { return known == value }
      opaqueFaults[id] = value
      return true
    case .constraint(let variable, let relation):
      // A value is only constrained where the fact is present.
      if presence[variable.name] == false { return false }
      presence[variable.name] = true
      // Mutated in place: no copy of the domain's sets.
      if variable.kind == .string {
        texts[variable, default: TextDomain()].apply(relation)
        return texts[variable]?.isSatisfiable ?? true
      }
      guard ordered[variable, default: OrderedDomain(kind: variable.kind)].isSatisfiable(adding: relation) else {
        return false
      }
      ordered[variable, default: OrderedDomain(kind: variable.kind)].apply(relation)
      return true
    }
  }

  /// Whether `literal` can be assumed without contradiction.
  func admits(_ literal: Proposition) -> Bool {
    switch literal {
    case .present(let name, let value): return presence[name].map { $0 == value } ?? true
    case .opaqueHolds(let id, let value): return opaqueHolds[id].map { $0 == value } ?? true
    case .opaqueFaults(let id, let value): return opaqueFaults[id].map { $0 == value } ?? true
    case .order(let lower, let upper, let strict):
      if presence[lower.name] == false || presence[upper.name] == false { return false }
      return !contradicts(OrderEdge(lower, upper, strict: strict))
    case .constraint(let variable, let relation):
      if presence[variable.name] == false { return false }
      if variable.kind == .string {
        var domain = texts[variable] ?? TextDomain()
        domain.apply(relation)
        return domain.isSatisfiable
      }
      return (ordered[variable] ?? OrderedDomain(kind: variable.kind)).isSatisfiable(adding: relation)
    }
  }

  /// Whether `literal` already follows from what is assumed.
  func entails(_ literal: Proposition) -> Bool {
    switch literal {
    case .present(let name, let value): return presence[name] == value
    case .opaqueHolds(let id, let value): return opaqueHolds[id] == value
    case .opaqueFaults(let id, let value): return opaqueFaults[id] == value
    case .order(let lower, let upper, let strict):
      return orders.contains(OrderEdge(lower, upper, strict: true))
        || (!strict && orders.contains(OrderEdge(lower, upper, strict: false)))
    case .constraint(let variable, let relation):
      if variable.kind == .string {
        guard let domain = texts[variable] else { return false }
        switch relation {
        case .textOneOf(let set):
          return domain.allowed.map { $0.subtracting(domain.excluded).isSubset(of: set) } ?? false
        case .textNoneOf(let set):
          return set.isSubset(of: domain.excluded) || (domain.allowed?.isDisjoint(with: set) ?? false)
        default: return false
        }
      }
      guard let domain = ordered[variable] else { return false }
      switch relation {
      case .atLeast(let key): return domain.lower >= key
      case .atMost(let key): return domain.upper <= key
      case .noneOf(let keys): return keys.allSatisfy { !domain.admits($0) }
      case .oneOf(let keys):
        guard let allowed = domain.allowed else { return false }
        return allowed.allSatisfy { !domain.admits($0) || keys.contains($0) }
      default: return false
      }
    }
  }
}

/// A shared allowance of work units, so a pathological policy cannot stall the analysis.
///
/// One analysis has one budget, sized linearly in the policy (``AnalysisOptions/workBudget(forConditions:)``),
/// and everything that costs more than a constant spends from it: each step of a search (a goal
/// taken, a choice propagated, a goal copied into a branch), each witness built and each
/// evaluation that verifies one (the policy's instructions and slots). Once it is spent every
/// search answers "unknown" and the analysis stops.
final class SearchBudget {
  /// Units left.
  private(set) var remaining: Int
  /// Units spent so far.
  private(set) var spent = 0
  /// Whether some search ran out.
  private(set) var wasExhausted = false

  init(steps: Int) {
    remaining = max(0, steps)
  }

  /// Spends `units` (at least one); false, spending nothing, when fewer are left.
  func spend(_ units: Int = 1) -> Bool {
    let units = max(1, units)
    if remaining < units {
      remaining = 0
      wasExhausted = true
      return false
    }
    remaining -= units
    spent += units
    return true
  }
}

/// The answer of a search.
enum SearchResult {
  /// A model was accepted by the caller.
  case found(TheoryState)
  /// The formula has no (more) models: proven.
  case exhausted
  /// The step budget ran out: nothing is known.
  case unknown
}

/// A depth-first search for models of a formula, with unit propagation: an exact decision
/// procedure for the literals' theory (intervals and sets per variable), bounded by a budget.
///
/// It never recurses on the formula's shape, so deep formulas cannot exhaust the stack.
struct FormulaSolver {
  let budget: SearchBudget
  /// The most steps one search may take (besides the shared budget).
  var stepLimit = 400_000
  /// Facts that count something within a time window (members of families keyed by a
  /// duration): constraining one, like constraining an age, describes a recent history, so
  /// alternatives without them are tried first (see ``windowedFacts(of:)``).
  var windowed: Set<String> = []
  /// The schema's relations between facts: models are only states that satisfy them.
  var axioms: RelationAxioms = .none

  init(
    budget: SearchBudget, stepLimit: Int = 400_000, windowed: Set<String> = [], axioms: RelationAxioms = .none
  ) {
    self.budget = budget
    self.stepLimit = stepLimit
    self.windowed = windowed
    self.axioms = axioms
  }

  /// The names of the slots of `policies` that are members of a family keyed by a duration.
  static func windowedFacts(of policies: [CompiledPolicy]) -> Set<String> {
    var names = Set<String>()
    for policy in policies {
      for slot in policy.layout.slots {
        if case .family(_, .duration) = slot.origin { names.insert(slot.name) }
      }
    }
    return names
  }

  private struct Node {
    var goals: [Formula]
    var state: TheoryState
    /// Whether the state is propagated through the relations already (but for the node's goals).
    var isPropagated = false
  }

  /// Searches models of `formula` starting from `initial`, offering each to `accept` until it
  /// returns true.
  func search(_ formula: Formula, from initial: TheoryState = TheoryState(), accept: (TheoryState) -> Bool)
    -> SearchResult
  {
    var stack = [Node(goals: [formula], state: initial)]
    var steps = 0
    while let node = stack.popLast() {
      var goals = node.goals
      var state = node.state
      var choices: [[Formula]] = []
      var consistent = true
      // The facts the node's literals touch, for the relations (nil: every fact, at the root).
      var touched: Set<String>? = node.isPropagated ? [] : nil
      propagation: while true {
        while let goal = goals.popLast() {
          steps += 1
          guard steps <= stepLimit, budget.spend() else { return .unknown }
          switch goal {
          case .constant(true): continue
          case .constant(false): consistent = false
          case .literal(let literal):
            consistent = state.assume(literal)
            if let name = literal.factName { touched?.insert(name) }
          case .and(let operands): goals.append(contentsOf: operands)
          case .or(let operands): choices.append(operands)
          }
          if !consistent { break propagation }
        }
        if !axioms.isEmpty && touched != [] {
          switch axioms.propagate(&state, changed: touched, budget: budget) {
          case .contradiction:
            consistent = false
            break propagation
          case .outOfBudget: return .unknown
          case .narrowed: touched = []
          }
        }
        // Unit propagation: drop alternatives that contradict the state; a choice left with
        // one alternative is no choice; a choice already satisfied is dropped.
        var changed = false
        var remaining: [[Formula]] = []
        for choice in choices {
          // Each alternative is looked up in the state: a unit each.
          steps += 1
          guard steps <= stepLimit, budget.spend(choice.count) else { return .unknown }
          var alternatives: [Formula] = []
          var satisfied = false
          for alternative in choice {
            switch alternative {
            case .constant(true): satisfied = true
            case .constant(false): continue
            case .literal(let literal):
              if state.entails(literal) {
                satisfied = true
              } else if state.admits(literal) {
                alternatives.append(alternative)
              }
            default: alternatives.append(alternative)
            }
            if satisfied { break }
          }
          if satisfied { continue }
          if alternatives.isEmpty {
            consistent = false
            break propagation
          }
          if alternatives.count == 1 {
            goals.append(alternatives[0])
            changed = true
          } else {
            remaining.append(alternatives)
          }
        }
        choices = remaining
        if !changed { break }
      }
      guard consistent else { continue }
      guard let index = choices.indices.min(by: { choices[$0].count < choices[$1].count }) else {
        // A complete model: its orders between facts, with the relations', must have a solution.
        guard let settled = OrderEdge.settle(state, axioms: axioms, budget: budget) else { continue }
        if accept(settled) { return .found(settled) }
        continue
      }
      // Alternatives where optional facts are absent first: simpler examples.
      let choice = choices.remove(at: index).enumerated().sorted {
        (presences($0.element), $0.offset) < (presences($1.element), $1.offset)
      }.map(\.element)
      let rest = choices.map(Formula.or)
      // Each branch copies the open choices: that copy is work too.
      steps += choice.count
      guard steps <= stepLimit, budget.spend(choice.count * (rest.count + 1)) else { return .unknown }
      for alternative in choice.reversed() {
        stack.append(Node(goals: rest + [alternative], state: state, isPropagated: true))
      }
    }
    return .exhausted
  }

  /// How many facts `formula` requires present, near its top (a heuristic for ordering choices).
  func presences(_ formula: Formula) -> Int {
    switch formula {
    case .literal(.present(_, let value)): return value ? 1 : -1
    case .literal(.constraint(let variable, _)):
      return variable.kind == .age || windowed.contains(variable.name) ? 1 : 0
    case .and(let parts): return parts.prefix(8).reduce(0) { $0 + presences(shallow: $1) }
    default: return 0
    }
  }

  private func presences(shallow formula: Formula) -> Int {
    if case .and = formula { return 0 }
    return presences(formula)
  }

  /// Whether `formula` has a model: true, false, or nil when the budget ran out.
  func isSatisfiable(_ formula: Formula, from initial: TheoryState = TheoryState()) -> Bool? {
    switch search(formula, from: initial, accept: { _ in true }) {
    case .found: true
    case .exhausted: false
    case .unknown: nil
    }
  }
}
