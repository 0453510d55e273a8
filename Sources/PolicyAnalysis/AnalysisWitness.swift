import PolicyCore

/// A concrete set of facts found by the analyzer: a value (or absence) for each fact by name,
/// and the evaluation instant.
///
/// Every warning that claims something *can* happen, and every counterexample of
/// `policyc diff`, carries one, checked by evaluating the compiled policies on it.
public struct Witness: Sendable, Hashable {
  /// One fact of a witness.
  public struct Fact: Sendable, Hashable {
    /// The fact's name as policies and facts files write it, such as `days` or `events("export")`.
    public var name: String
    /// The value, or nil when the fact is absent.
    public var value: Value?
    /// Whether the analysis constrained this fact (the others hold a neutral value).
    public var isConstrained: Bool
    /// For a member of a keyed family (`events("export")`), the family's name; nil otherwise.
    public var family: String? = nil
    /// For a member of a keyed family, the key.
    public var key: Value? = nil
    /// Whether the policy declares the fact itself (`fact plan: string`): an app fact, not the host's.
    public var isDeclared = false
  }

  /// The facts as an assignment to check against a schema's relations (``FactSchema/brokenRelations(in:now:)``):
  /// the host's facts and family members, without the policy's own declared facts.
  public var assignment: [AssignedFact] {
    facts.filter { !$0.isDeclared }.map { fact in
      if let family = fact.family, let key = fact.key {
        return AssignedFact(fact.name, family: family, key: key, fact.value)
      }
      return AssignedFact(fact.name, fact.value)
    }
  }

  /// The evaluation instant.
  public var now: Timestamp
  /// The facts, in the order of the policies' layouts.
  public var facts: [Fact]
  /// The subject's seed, which fixes every `bucket("name")` (0 unless a policy reads a bucket and
  /// another seed was needed to show the behaviour).
  public var seed: UInt64 = 0

  /// The fact named `name`, if the witness has it.
  public func fact(named name: String) -> Fact? {
    facts.first { $0.name == name }
  }

  /// Whether the witness gives `name` a value (nil when it does not mention `name`).
  public func isPresent(_ name: String) -> Bool? {
    fact(named: name).map { $0.value != nil }
  }

  /// The snapshot of these facts for `policy`: every slot the witness names is set; the others
  /// keep the policy's defaults (instants without one are `now`, versions `1.0`).
  public func facts(for policy: CompiledPolicy) -> Facts {
    var result = policy.makeFacts(now: now)
    result.seed = seed
    var given = Set<Int>()
    for fact in facts {
      guard let slot = policy.layout.slot(named: fact.name) else { continue }
      if let value = fact.value {
        if (try? result.set(slot: slot, to: value)) != nil { given.insert(slot) }
      } else if policy.layout.slots[slot].isOptional {
        try? result.setAbsent(fact.name)
        given.insert(slot)
      }
    }
    for (slot, definition) in policy.layout.slots.enumerated()
    where !given.contains(slot) && definition.defaultValue == nil {
      if !definition.isOptional, let value = Witness.neutralValue(for: definition.type, now: now) {
        try? result.set(slot: slot, to: value)
      }
    }
    return result
  }

  /// The seeds to try when realising a witness for `policies`: only 0 when none reads a bucket,
  /// else enough seeds that any bucket range of 5 or more values is met with near certainty.
  static func candidateSeeds(for policies: [CompiledPolicy]) -> [UInt64] {
    policies.contains { !$0.bucketNames.isEmpty } ? Array(0..<128) : [0]
  }

  /// The value a fact with no default takes when nothing constrains it.
  static func neutralValue(for type: PolicyType, now: Timestamp) -> Value? {
    switch type {
    case .bool: .bool(false)
    case .int: .int(0)
    case .number: .number(Number(scaled: 0))
    case .duration: .duration(TimeSpan(milliseconds: 0))
    case .instant: .instant(now)
    case .version: Version(parsing: "1.0").map(Value.version)
    case .string: .string("")
    }
  }

  /// Describes the constrained facts, as in "`days` = 30, `last_login` = 1d before now".
  public func summary(reading names: Set<String>? = nil, limit: Int = 8) -> String {
    var parts: [String] = []
    for fact in facts where fact.isConstrained && (names?.contains(fact.name) ?? true) {
      parts.append(Witness.describe(fact, now: now))
    }
    if parts.count > limit {
      let extra = parts.count - limit
      parts = Array(parts.prefix(limit)) + ["and \(extra) more"]
    }
    if seed != 0 { parts.append("seed \(seed)") }
    return parts.joined(separator: ", ")
  }

  static func describe(_ fact: Fact, now: Timestamp) -> String {
    guard let value = fact.value else { return "`\(fact.name)` absent" }
    if case .instant(let instant) = value {
      let age = now.millisecondsSince1970 - instant.millisecondsSince1970
      if age >= 0 { return "`\(fact.name)` \(TimeSpan(milliseconds: age)) before now" }
      return "`\(fact.name)` \(TimeSpan(milliseconds: -age)) after now"
    }
    return "`\(fact.name)` = \(value)"
  }
}

/// One fact a witness is built for: its name, type and whether it can be absent.
struct WitnessSlot: Hashable, Sendable {
  var name: String
  var type: PolicyType
  var isOptional: Bool
  var defaultValue: Value?
  var origin: FactOrigin = .schema
}

/// Builds witnesses from the models of a search and checks them.
struct WitnessBuilder {
  /// The instant witnesses use as `now` when nothing forces another: 2026-01-01T00:00:00Z.
  static let preferredNow = Timestamp(millisecondsSince1970: 1_767_225_600_000)
  /// The age preferred for an instant that must be present: one day.
  static let preferredAge: Int64 = 86_400_000

  let slots: [WitnessSlot]
  let table: AtomTable
  /// The schema's relations between facts: a witness breaking one describes no real user.
  var relations: [FactRelation] = []
  /// The relations over ``slots``, as the solver's propagators.
  var axioms: RelationAxioms = .none

  init(slots: [WitnessSlot], table: AtomTable, relations: [FactRelation] = []) {
    self.slots = slots
    self.table = table
    self.relations = relations
    self.axioms = relations.isEmpty ? .none : RelationAxioms(relations: relations, slots: slots)
  }

  /// Whether `witness` satisfies every relation (facts no real history produces are no witness).
  func isReal(_ witness: Witness) -> Bool {
    relations.isEmpty || FactSchema.brokenRelations(relations, in: witness.assignment, now: witness.now).isEmpty
  }

  /// The slots of `policies`' layouts, by name, in layout order (first policy first).
  static func slots(of policies: [CompiledPolicy]) -> [WitnessSlot] {
    var seen = Set<String>()
    var result: [WitnessSlot] = []
    for policy in policies {
      for slot in policy.layout.slots where seen.insert(slot.name).inserted {
        result.append(
          WitnessSlot(
            name: slot.name, type: slot.type, isOptional: slot.isOptional, defaultValue: slot.defaultValue,
            origin: slot.origin))
      }
    }
    return result
  }

  /// The preferred key of a kind.
  static func preferredKey(_ kind: VariableKind) -> AnalysisKey {
    switch kind {
    case .age: AnalysisKey(word: preferredAge)
    case .version: AnalysisKey(version: Version(parts: [1, 0]) ?? Version(high: 0, low: 0))
    default: AnalysisKey(word: 0)
    }
  }

  static func value(_ key: AnalysisKey, _ kind: VariableKind) -> Value {
    switch kind {
    case .int: .int(key.word)
    case .number: .number(Number(scaled: key.word))
    case .duration, .age: .duration(TimeSpan(milliseconds: key.word))
    case .version: .version(key.version)
    case .bool: .bool(key.word != 0)
    case .string: .string("")
    }
  }

  /// A rounder key near `key` in `domain` (a whole number of days, hours, minutes or seconds
  /// for durations, a whole number for numbers), or `key` itself.
  static func rounded(_ key: AnalysisKey, _ kind: VariableKind, in domain: OrderedDomain) -> AnalysisKey {
    let units: [Int64]
    switch kind {
    case .age, .duration: units = [86_400_000, 3_600_000, 60_000, 1000]
    case .number: units = [Number.scale]
    default: return key
    }
    let word = key.word
    guard word != .max else { return key }
    for unit in units {
      if word % unit == 0 { return key }
      let down = Timestamp.floorDivide(word, unit)
      for multiple in [down + 1, down] {
        let (candidate, overflow) = multiple.multipliedReportingOverflow(by: unit)
        if !overflow, candidate != .max, domain.admits(AnalysisKey(word: candidate)) {
          return AnalysisKey(word: candidate)
        }
      }
    }
    return key
  }

  /// A witness for `state`, or nil when its instants cannot all be written in a facts file or
  /// no facts in `state` satisfy the relations.
  ///
  /// With relations, every related fact is first settled to one value the relations allow
  /// (``RelationAxioms/label(_:slots:preferred:)``); a fact counts as constrained when `state` constrains it.
  ///
  /// With `presentFirst`, optional facts the relations leave open are made present rather than
  /// absent: a second try, for a witness that the opaque comparisons need (`version >
  /// previous_version` needs a previous version).
  func build(_ state: TheoryState, presentFirst: Bool = false) -> Witness? {
    var values = state
    if !axioms.isEmpty {
      guard
        let labeled = axioms.label(
          state, slots: slots, presentFirst: presentFirst,
          preferred: { slot, variable, domain in
            let preferred: AnalysisKey
            if variable.isAge {
              let free = state.ordered[variable] == nil && !slot.isOptional
              preferred = free ? AnalysisKey(word: 0) : WitnessBuilder.preferredKey(.age)
            } else {
              preferred =
                slot.defaultValue.flatMap(PolicyTranslator.key(of:)) ?? WitnessBuilder.preferredKey(variable.kind)
            }
            return domain.pick(preferring: preferred).map { WitnessBuilder.rounded($0, variable.kind, in: domain) }
          })
      else { return nil }
      values = labeled
    }
    var facts: [Witness.Fact] = []
    var ages: [(index: Int, age: Int64)] = []
    for slot in slots {
      let present = values.presence[slot.name] ?? !slot.isOptional
      guard present else {
        facts.append(Witness.Fact(name: slot.name, value: nil, isConstrained: state.presence[slot.name] != nil))
        continue
      }
      if slot.type == .instant {
        let variable = AnalysisVariable(name: slot.name, isAge: true, kind: .age)
        let constrained = state.ordered[variable] != nil || state.presence[slot.name] != nil
        var age: Int64 = 0
        if let domain = values.ordered[variable] {
          guard let key = domain.pick(preferring: WitnessBuilder.preferredKey(.age)) else { return nil }
          age = WitnessBuilder.rounded(key, .age, in: domain).word
        } else if slot.isOptional {
          age = WitnessBuilder.preferredAge
        }
        ages.append((facts.count, age))
        facts.append(Witness.Fact(name: slot.name, value: nil, isConstrained: constrained))
        continue
      }
      guard let kind = VariableKind(valueOf: slot.type) else { continue }
      let variable = AnalysisVariable(name: slot.name, isAge: false, kind: kind)
      if kind == .string {
        if let domain = values.texts[variable] {
          guard let text = domain.pick() else { return nil }
          facts.append(Witness.Fact(name: slot.name, value: .string(text), isConstrained: true))
        } else {
          facts.append(
            Witness.Fact(
              name: slot.name, value: slot.defaultValue ?? .string(""), isConstrained: state.presence[slot.name] != nil)
          )
        }
        continue
      }
      if let domain = values.ordered[variable] {
        let preferred = slot.defaultValue.flatMap(PolicyTranslator.key(of:)) ?? WitnessBuilder.preferredKey(kind)
        guard let key = domain.pick(preferring: preferred) else { return nil }
        let round = WitnessBuilder.rounded(key, kind, in: domain)
        facts.append(
          Witness.Fact(
            name: slot.name, value: WitnessBuilder.value(round, kind),
            isConstrained: state.ordered[variable] != nil || state.presence[slot.name] != nil))
      } else {
        let value = slot.defaultValue ?? Witness.neutralValue(for: slot.type, now: WitnessBuilder.preferredNow)
        facts.append(Witness.Fact(name: slot.name, value: value, isConstrained: state.presence[slot.name] != nil))
      }
    }
    // Choose `now` so every instant lies between the years 1 and 9999 (what a facts file can hold).
    var lowest = Timestamp.earliest.millisecondsSince1970
    var highest = Timestamp.latest.millisecondsSince1970
    for (_, age) in ages {
      let (low, lowOverflow) = Timestamp.earliest.millisecondsSince1970.addingReportingOverflow(age)
      let (high, highOverflow) = Timestamp.latest.millisecondsSince1970.addingReportingOverflow(age)
      if lowOverflow || highOverflow { return nil }
      lowest = max(lowest, low)
      highest = min(highest, high)
    }
    guard lowest <= highest else { return nil }
    let now = min(max(WitnessBuilder.preferredNow.millisecondsSince1970, lowest), highest)
    for (index, age) in ages {
      facts[index].value = .instant(Timestamp(millisecondsSince1970: now - age))
    }
    let origins = Dictionary(slots.map { ($0.name, $0.origin) }, uniquingKeysWith: { first, _ in first })
    for index in facts.indices {
      switch origins[facts[index].name] {
      case .family(let family, let key)?:
        facts[index].family = family
        facts[index].key = key
      case .declaration?: facts[index].isDeclared = true
      case .schema?, nil: break
      }
    }
    let witness = Witness(now: Timestamp(millisecondsSince1970: now), facts: facts)
    return isReal(witness) ? witness : nil
  }

  /// The witnesses tried for one model, in order and each built once: as the relations prefer,
  /// that one repaired (``repair(_:_:)``), then with optional facts present first
  /// (``build(_:presentFirst:)``), and that one repaired.
  struct Candidates {
    let builder: WitnessBuilder
    let state: TheoryState
    private var built: [Int: Witness?] = [:]

    /// The number of candidates.
    static let count = 4

    init(_ builder: WitnessBuilder, _ state: TheoryState) {
      self.builder = builder
      self.state = state
    }

    /// Candidate `index` (0 to 3); nil when it cannot be built.
    mutating func witness(_ index: Int) -> Witness? {
      let base = index < 2 ? 0 : 1
      if built[base] == nil { built[base] = .some(builder.build(state, presentFirst: base == 1)) }
      guard let witness = built[base] ?? nil else { return nil }
      return index % 2 == 1 ? builder.repair(witness, state) : witness
    }
  }

  // MARK: - Opaque atoms

  /// Changes values within their domains so more opaque atoms come out as `state` assumed
  /// (a greedy local search); the theory literals keep holding.
  func repair(_ witness: Witness, _ state: TheoryState) -> Witness {
    // The facts each atom reads, worked out once for the whole search.
    let atomFacts = table.atoms.map(\.factNames)
    var current = witness
    var mismatches = self.mismatches(current, state, atomFacts: atomFacts)
    var rounds = 0
    while mismatches.count > 0 && rounds < 24 {
      rounds += 1
      var best: (Witness, Int)?
      for name in mismatches.names.sorted() {
        guard let index = current.facts.firstIndex(where: { $0.name == name }),
          let slot = slots.first(where: { $0.name == name })
        else { continue }
        for candidate in candidates(for: slot, in: current, state) {
          var trial = current
          trial.facts[index].value = candidate
          trial.facts[index].isConstrained = true
          let bound = best?.1 ?? mismatches.count
          let count = mismatchCount(trial, state, upTo: bound)
          if count < bound { best = (trial, count) }
        }
      }
      guard let (improved, _) = best else { break }
      current = improved
      mismatches = self.mismatches(current, state, atomFacts: atomFacts)
    }
    return current
  }

  /// Values a fact may take in `state` that are worth trying: the domain's ends and values
  /// near those of the other facts of the same type.
  private func candidates(for slot: WitnessSlot, in witness: Witness, _ state: TheoryState) -> [Value] {
    let now = witness.now.millisecondsSince1970
    if slot.type == .instant {
      let variable = AnalysisVariable(name: slot.name, isAge: true, kind: .age)
      let domain = state.ordered[variable] ?? OrderedDomain(kind: .age)
      var keys: [AnalysisKey] = []
      for other in witness.facts where other.name != slot.name {
        if case .instant(let instant)? = other.value {
          let age = now - instant.millisecondsSince1970
          keys += [AnalysisKey(word: age), AnalysisKey(word: age + 1), AnalysisKey(word: age - 1)]
        }
      }
      for days: Int64 in [0, 1, -1, 2, 10, 100, 1000] {
        keys.append(AnalysisKey(word: days * WitnessBuilder.preferredAge))
      }
      return keys.filter(domain.admits).compactMap { key in
        let instant = now - key.word
        guard instant >= Timestamp.earliest.millisecondsSince1970, instant <= Timestamp.latest.millisecondsSince1970
        else { return nil }
        return .instant(Timestamp(millisecondsSince1970: instant))
      }
    }
    guard let kind = VariableKind(valueOf: slot.type), kind != .string else { return [] }
    let variable = AnalysisVariable(name: slot.name, isAge: false, kind: kind)
    let domain = state.ordered[variable] ?? OrderedDomain(kind: kind)
    var keys = [domain.lower, domain.upper]
    if let allowed = domain.allowed { keys += allowed.sorted() }
    // Small values, in the kind's usual unit.
    let unit: Int64 = kind == .number ? Number.scale : (kind == .duration ? 86_400_000 : 1)
    if kind != .version && kind != .bool {
      for small: Int64 in [0, 1, -1, 2, -2, 4, -4, 10, -10, 100, -100, 1000, -1000] {
        keys.append(AnalysisKey(word: small * unit))
      }
    }
    for other in witness.facts where other.name != slot.name {
      guard let value = other.value, value.type == slot.type, let key = PolicyTranslator.key(of: value) else {
        continue
      }
      keys += [key, key.successor, key.predecessor]
    }
    var seen = Set<AnalysisKey>()
    return keys.filter { domain.admits($0) && seen.insert($0).inserted }.map { WitnessBuilder.value($0, kind) }
  }

  /// The number of opaque atoms whose value on `witness` differs from what `state` assumed, and
  /// the facts they read (`atomFacts`: the facts of each atom of the table, in order).
  private func mismatches(_ witness: Witness, _ state: TheoryState, atomFacts: [Set<String>]) -> (
    count: Int, names: Set<String>
  ) {
    var count = 0
    var names = Set<String>()
    let evaluator = TermEvaluator(witness: witness)
    for id in table.atoms.indices where isMismatch(id, on: evaluator, state) {
      count += 1
      names.formUnion(atomFacts[id])
    }
    return (count, names)
  }

  /// The number of opaque atoms whose value on `witness` differs from what `state` assumed,
  /// counted no further than `limit` (a trial with as many mismatches as the best one is not
  /// better, however many more it has).
  private func mismatchCount(_ witness: Witness, _ state: TheoryState, upTo limit: Int) -> Int {
    var count = 0
    let evaluator = TermEvaluator(witness: witness)
    for id in table.atoms.indices where count < limit && isMismatch(id, on: evaluator, state) {
      count += 1
    }
    return count
  }

  /// Whether atom `id` comes out on the witness behind `evaluator` otherwise than `state` assumed.
  private func isMismatch(_ id: Int, on evaluator: TermEvaluator, _ state: TheoryState) -> Bool {
    let holds = state.opaqueHolds[id]
    let faults = state.opaqueFaults[id]
    guard holds != nil || faults != nil, let actual = evaluator.outcome(table.atoms[id]) else { return false }
    switch actual {
    case .fault: return faults == false || (faults == nil && holds != nil)
    case .value(let value): return faults == true || (holds != nil && holds != value)
    }
  }
}

/// Evaluates terms and opaque atoms on a witness, with the language's arithmetic.
struct TermEvaluator {
  let witness: Witness
  private let values: [String: Value]

  init(witness: Witness) {
    self.witness = witness
    var values: [String: Value] = [:]
    values.reserveCapacity(witness.facts.count)
    for fact in witness.facts {
      if let value = fact.value { values[fact.name] = value }
    }
    self.values = values
  }

  /// The result of evaluating something: a value or a fault.
  enum Result {
    case value(Value)
    case fault
  }

  /// The outcome of an opaque atom: whether it holds, or a fault; nil when unknown.
  func outcome(_ atom: OpaqueAtom) -> AtomResult? {
    switch atom {
    case .free: return nil
    case .compare(let op, let lhs, let rhs):
      guard let left = evaluate(lhs) else { return nil }
      guard case .value(let l) = left else { return .fault }
      guard let right = evaluate(rhs) else { return nil }
      guard case .value(let r) = right else { return .fault }
      return .value(op.holds(forOrdering: l.ordering(comparedWith: r)))
    case .membership(let negated, let term, let list):
      guard let result = evaluate(term) else { return nil }
      guard case .value(let value) = result else { return .fault }
      return .value(list.contains(value) != negated)
    case .truth(let term):
      guard let result = evaluate(term) else { return nil }
      switch result {
      case .fault: return .fault
      case .value(.bool(let flag)): return .value(flag)
      case .value: return nil
      }
    }
  }

  /// The outcome of an atom: whether it holds, or a fault.
  enum AtomResult {
    case value(Bool)
    case fault
  }

  /// The value of `term`; nil when it cannot be computed here.
  func evaluate(_ term: Term) -> Result? {
    switch term {
    case .constant(let value): return .value(value)
    case .failure: return .fault
    case .value(let name, _): return values[name].map(Result.value)
    case .now: return .value(.instant(witness.now))
    case .opaque: return nil
    case .age(let name):
      guard case .instant(let instant)? = values[name] else { return nil }
      return apply(.subtractInstants, .value(.instant(witness.now)), .value(.instant(instant)), .duration)
    case .since(let inner):
      guard let value = evaluate(inner) else { return nil }
      return apply(.subtractInstants, .value(.instant(witness.now)), value, .duration)
    case .arithmetic(let operation, let lhs, let rhs, let type):
      guard let left = evaluate(lhs), let right = evaluate(rhs) else { return nil }
      return apply(operation, left, right, type)
    case .negate(let inner, let type):
      guard let result = evaluate(inner) else { return nil }
      guard case .value(let value) = result, let word = value.storageWord else { return .fault }
      let (negated, fault) = ArithmeticKernel.negate(word, isDuration: type == .duration)
      return fault == nil ? .value(Value(storageWord: negated, type: type) ?? .int(negated)) : .fault
    case .promote(let inner):
      guard let result = evaluate(inner) else { return nil }
      guard case .value(.int(let integer)) = result else { return .fault }
      return Number(exactly: integer).map { .value(.number($0)) } ?? .fault
    case .extremum(let isMinimum, let terms, _):
      var best: Value?
      for inner in terms {
        guard let result = evaluate(inner) else { return nil }
        guard case .value(let value) = result else { return .fault }
        if let current = best {
          let ordering = value.ordering(comparedWith: current)
          if isMinimum ? ordering < 0 : ordering > 0 { best = value }
        } else {
          best = value
        }
      }
      return best.map(Result.value)
    }
  }

  private func apply(_ operation: Arithmetic, _ lhs: Result, _ rhs: Result, _ type: PolicyType) -> Result {
    guard case .value(let l) = lhs, case .value(let r) = rhs, let a = l.storageWord,
      let b = r.storageWord
    else { return .fault }
    let (result, fault) = ArithmeticKernel.apply(operation, a, b)
    return fault == nil ? .value(Value(storageWord: result, type: type) ?? .int(result)) : .fault
  }
}
