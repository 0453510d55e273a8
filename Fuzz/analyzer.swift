// Fuzz target `analyzer`: every claim of the policy analyzer must survive evaluation.
//
// The input is one policy, or two separated by a line `===` (a single policy with several rules
// is paired with itself less one rule, picked by the input, for the equivalence checks). Each is compiled against
// ReviewSchema.standard (its own `fact` and `events` declarations included). For a policy that
// compiles, the analysis of PolicyEnvironment.standard (default options and the review-etiquette
// checks, PC320-PC322) runs and each of its findings is
// checked on the VM (CompiledPolicy.explain) over fact snapshots derived from the input: extremes,
// values next to the policy's own literals, absent facts, odd `now`s and subject seeds.
//
// The analyzer's domain (PolicyAnalyzer's doc comment): every value of a fact's type, except that
// instants and `now` lie in the years 1 to 9999. Snapshots stay in that domain, set every fact
// (a fact with a default gets it written out, or another value) and are never "invalid facts",
// so every claim applies to each of them. A rule *counts* (Analysis.counts) where an `ask` rule
// holds, or a `never` rule holds or faults (a faulted never rule stops the policy asking).
//
// Claims checked (the findings' codes, exhaustively, PolicyCoreCode):
// - PC310 (rule never holds): the rule counts on no snapshot;
// - PC311 (rule always holds): an `ask` rule holds (neither fails nor faults) on every snapshot,
//   a `never` rule counts on every snapshot, so the policy never asks;
// - PC312 (ask rule shadowed): wherever the `ask` rule holds, the `never` rule the message names
//   counts (or, for "one of the never rules", some `never` rule);
// - PC313 (contradiction / tautology): in the `and` chain, the reported comparison and some other
//   operand of the chain never both hold; in an `or`, never both fail;
// - PC314 (redundant comparison): in an `and`, some other operand of the chain implies the
//   reported one; in an `or`, the reported one implies some other operand;
//   comparisons are evaluated on the VM as probe rules `ask when (text)` appended to the file;
//   the analyzer only judges comparisons that cannot fault, so a probe that faults is a failure;
// - PC315-PC317 (silencing comments) and PC399 make no claim about decisions; other codes cannot
//   come from the analyzer without checks.
// The analyzer's model: each rule's translation (PolicyTranslator.outcome, the formulas the
// solver decides) evaluated on a snapshot, with opaque atoms unknown (three-valued), agrees with
// the VM's rule trace wherever it is definite, and the atom axioms never definitely fail.
// For two policies, PolicyEquivalence.compare: "equivalent" means the same shouldAsk on every
// snapshot; a counterexample's printed decisions are the policies' decisions on its facts
// (Witness.facts(for:)) and they differ; comparing the other way round never contradicts it. Any witness a finding carries decides as evaluated;
// an etiquette finding (PC320-PC322) carries one on which the policy asks.
// Every witness (a finding's or a counterexample's) satisfies the schema's relations; the history
// WitnessHistory.build gives for it, replayed through a ReviewManager running the policy as
// `policyc test` replays it, gives every host fact of the witness its value (every fact the
// policies read or the analysis constrained, WitnessHistory.build(for:reading:)). The builder may
// refuse only for the limits of a test file
// (WitnessHistoryRefusal.exceedsLimits: counts above 100,000, instants outside the years 1 to
// 9999, scores beyond the default bounds). (Histories of more than
// `replayedRepetitions` steps are built and checked for their limits but not replayed: a replay
// costs a few microseconds a step, and a fuzz input must stay fast.)
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with PolicyCore, PolicyAnalysis, ReviewPolicy,
// ReviewAnalysis and PolicyTools.
// A history the builder refuses (for anything but a limit) fails the input; FUZZ_LENIENT_HISTORIES
// set lets such refusals pass (to look for other failures while one is open).

import Foundation
import PolicyTools
import ReviewAnalysis

@testable import PolicyAnalysis
@testable import PolicyCore
@testable import ReviewPolicy

/// The environment every policy is compiled and analysed in, and its histories replayed in.
let environment = PolicyEnvironment.standard
/// Whether a refused history (other than for a limit) fails the input: unless FUZZ_LENIENT_HISTORIES is set.
let strictHistories = getenv("FUZZ_LENIENT_HISTORIES") == nil
/// The longest history (steps with their repetitions) the target replays.
let replayedRepetitions = 20_000

/// Instants a facts file can hold: the years 1 to 9999 (the analyzer's domain).
let earliestInstant: Int64 = -62_135_596_800_000
let latestInstant: Int64 = 253_402_300_799_999

func clampInstant(_ value: Int64) -> Int64 { min(max(value, earliestInstant), latestInstant) }

/// The literals written in the policies, by type.
struct Literals {
  var ints: [Int64] = []
  var numbers: [Int64] = []
  var durations: [Int64] = []
  var versions: [Version] = []
  var strings: [String] = []

  mutating func add(_ file: PolicyFile) {
    for declaration in file.declarations {
      switch declaration {
      case .fact(let fact): if let value = fact.defaultValue { collect(value) }
      case .let(let definition): collect(definition.value)
      case .rule(let rule): collect(rule.condition)
      case .events(let declaration): strings.append(contentsOf: declaration.names.map(\.name))
      }
    }
  }

  mutating func collect(_ expr: Expr) {
    if case .literal(let literal) = expr.kind {
      switch literal {
      case .bool: break
      case .int(let value): ints.append(value)
      case .number(let value): numbers.append(value.scaled)
      case .duration(let value, _): durations.append(value.milliseconds)
      case .version(let value): versions.append(value)
      case .string(let value): strings.append(value)
      }
    }
    for child in expr.kind.children { collect(child) }
  }
}

/// Values for facts of each type: extremes, small values and values around the literals.
struct ValueMaker {
  var random: FuzzRandom
  let literals: Literals

  mutating func near(_ values: [Int64]) -> Int64? {
    guard let value = random.pick(values) else { return nil }
    switch random.below(5) {
    case 0: return value &- 1
    case 1: return value &+ 1
    case 2: return 0 &- value
    default: return value
    }
  }

  mutating func word(_ literals: [Int64], scale: Int64) -> Int64 {
    switch random.below(10) {
    case 0: return .max
    case 1: return .min
    case 2: return 0
    case 3: return Int64(bitPattern: random.next())
    case 4, 5: return Int64(random.below(200) - 20) &* scale
    default: return near(literals) ?? Int64(random.below(100)) &* scale
    }
  }

  mutating func instant(now: Int64) -> Int64 {
    switch random.below(8) {
    case 0: return latestInstant
    case 1: return earliestInstant
    case 2: return now
    case 3: return clampInstant(Int64(bitPattern: random.next()))
    default:
      let span = near(literals.durations) ?? Int64(random.below(1000)) * 3_600_000
      return clampInstant(random.chance(80) ? now &- span : now &+ span)
    }
  }

  mutating func now() -> Int64 {
    switch random.below(12) {
    case 0: return latestInstant
    case 1: return earliestInstant
    case 2: return 0
    case 3: return clampInstant(Int64(bitPattern: random.next()))
    default: return 1_772_366_400_000 + Int64(random.below(1000)) * 86_400_000
    }
  }

  mutating func value(_ type: PolicyType, now: Int64) -> Value {
    switch type {
    case .bool: return .bool(random.chance(50))
    case .int: return .int(word(literals.ints, scale: 1))
    case .number:
      return .number(Number(scaled: word(literals.numbers + literals.ints.map { $0 &* 1_000_000 }, scale: 1_000_000)))
    case .duration: return .duration(TimeSpan(milliseconds: word(literals.durations, scale: 86_400_000)))
    case .instant: return .instant(Timestamp(millisecondsSince1970: instant(now: now)))
    case .version:
      if random.chance(70), let version = random.pick(literals.versions) {
        var parts = version.parts
        if random.chance(40), !parts.isEmpty {
          let index = random.below(parts.count)
          parts[index] = random.chance(50) ? parts[index] &+ 1 : parts[index] &- 1
        }
        return .version(Version(parts: parts) ?? version)
      }
      return .version(
        Version(
          high: random.chance(50) ? random.next() : UInt64(random.below(5)) << 32,
          low: random.chance(30) ? random.next() : 0))
    case .string:
      if random.chance(75), let text = random.pick(literals.strings) { return .string(text) }
      return .string(random.pick(["", "pro", "free", "\u{0}", "é", "a\"b"]) ?? "")
    }
  }
}

/// One fact of the snapshots: its name, type, whether every policy lets it be absent, its default.
struct SnapshotSlot {
  var name: String
  var type: PolicyType
  var mayBeAbsent: Bool
  var defaultValue: Value?
  var origin: FactOrigin = .schema
}

/// The facts of `policies` by name (the first policy's default wins).
func snapshotSlots(_ policies: [CompiledPolicy]) -> [SnapshotSlot] {
  var slots: [SnapshotSlot] = []
  var positions: [String: Int] = [:]
  for policy in policies {
    for slot in policy.layout.slots {
      if let position = positions[slot.name] {
        slots[position].mayBeAbsent = slots[position].mayBeAbsent && slot.isOptional
      } else {
        positions[slot.name] = slots.count
        slots.append(
          SnapshotSlot(
            name: slot.name, type: slot.type, mayBeAbsent: slot.isOptional, defaultValue: slot.defaultValue,
            origin: slot.origin))
      }
    }
  }
  return slots
}

/// One snapshot: `now`, the subject's seed and a value (nil: absent) for every fact, by name.
struct Snapshot {
  var now: Timestamp
  var seed: UInt64
  var values: [(name: String, value: Value?)]

  /// The facts for `policy` (names it does not have are skipped).
  func facts(for policy: CompiledPolicy) -> Facts {
    var facts = policy.makeFacts(now: now)
    facts.seed = seed
    for (name, value) in values where policy.layout.slot(named: name) != nil {
      do {
        if let value { try facts.set(name, to: value) } else { try facts.setAbsent(name) }
      } catch {
        fuzzFail("setting `\(name)` from the policy's own layout failed: \(error)")
      }
    }
    return facts
  }
}

func makeSnapshots(_ slots: [SnapshotSlot], _ maker: inout ValueMaker, count: Int) -> [Snapshot] {
  var snapshots: [Snapshot] = []
  for round in 0..<count {
    let now = maker.now()
    var values: [(String, Value?)] = []
    for slot in slots {
      if slot.mayBeAbsent && (round == 0 || maker.random.chance(35)) {
        values.append((slot.name, nil))
      } else if let value = slot.defaultValue, round == 1 || maker.random.chance(25) {
        values.append((slot.name, value))
      } else {
        values.append((slot.name, maker.value(slot.type, now: now)))
      }
    }
    let seed = maker.random.chance(50) ? UInt64(maker.random.below(4)) : maker.random.next()
    var snapshot = Snapshot(now: Timestamp(millisecondsSince1970: now), seed: seed, values: values)
    // The analyzer's claims are about real users: a snapshot is moved onto the schema's relations
    // (`days` raised to at most `total_days`, ...), and dropped when that fails.
    if snapshot.satisfyRelations(of: slots, maker: &maker) { snapshots.append(snapshot) }
  }
  return snapshots
}

extension Snapshot {
  /// The host's facts of the snapshot as an assignment (declared facts left out).
  func assignment(_ slots: [SnapshotSlot]) -> [AssignedFact] {
    var origins: [String: FactOrigin] = [:]
    for slot in slots { origins[slot.name] = slot.origin }
    return values.compactMap { name, value in
      switch origins[name] {
      case .family(let family, let key)?: return AssignedFact(name, family: family, key: key, value)
      case .schema?: return AssignedFact(name, value)
      case .declaration?, nil: return nil
      }
    }
  }

  /// Changes values until the snapshot breaks no relation of the standard schema: the larger
  /// side of a broken bound takes the smaller's value, a count its clock's value, a presence its
  /// condition's; false when 8 rounds do not suffice.
  mutating func satisfyRelations(of slots: [SnapshotSlot], maker: inout ValueMaker) -> Bool {
    let schema = ReviewSchema.standard
    let types = Dictionary(slots.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
    for _ in 0..<8 {
      let broken = schema.brokenRelations(in: assignment(slots), now: now)
      guard !broken.isEmpty else { return true }
      for first in broken {
        func value(_ name: String) -> Value? { values.first { $0.name == name }?.value }
        func set(_ name: String, _ value: Value?) {
          if let index = values.firstIndex(where: { $0.name == name }) { values[index].value = value }
        }
        let names = first.facts
        switch first.relation.kind {
        case .bound, .boundWhen, .boundWhenAtMost, .boundWhenAbove, .increasing, .windowCovers:
          if names.count == 2, let source = value(names[0]) { set(names[1], source) }
        case .minimum(_, let minimum): set(names[0], minimum)
        case .notAfterNow: set(names[0], .instant(now))
        case .presence(_, let condition):
          let holds: Bool
          switch (condition, value(names[1])) {
          case (.present, let other): holds = other != nil
          case (.absent, let other): holds = other == nil
          case (.positive, .int(let count)?): holds = count >= 1
          case (.isTrue, .bool(let flag)?): holds = flag
          case (.positive, _), (.isTrue, _): holds = false
          }
          if holds, let type = types[names[0]] {
            set(names[0], maker.value(type, now: now.millisecondsSince1970))
          } else {
            set(names[0], nil)
          }
        case .wholeUnits(_, _, let unit):
          if case .instant(let since)? = value(names[1]) {
            set(names[0], .int(FactSchema.wholeUnits(from: since, to: now, unit: unit)))
          }
        case .window:
          if case .int(let count)? = value(names[0]) { set(names[0], .int(count >= 1 ? 0 : 1)) }
        case .presentFrom:
          if let type = types[names[0]] { set(names[0], maker.value(type, now: now.millisecondsSince1970)) }
        case .presentTogether:
          // The absent member takes a value.
          if names.count == 2, let type = types[names[1]] {
            set(names[1], maker.value(type, now: now.millisecondsSince1970))
          }
        case .membersSum(let family, _):
          // The total takes the members' sum; members that overflow it are set to 0.
          var sum: Int64 = 0
          for slot in slots {
            guard case .family(let owner, _) = slot.origin, owner == family, case .int(let count)? = value(slot.name)
            else { continue }
            let (next, overflow) = sum.addingReportingOverflow(count)
            if overflow || next < 0 { set(slot.name, .int(0)) } else { sum = next }
          }
          set(names[0], .int(sum))
        case .distinct:
          // The first takes another value of its type (or is dropped when none differs).
          if let type = types[names[0]] {
            let other = maker.value(type, now: now.millisecondsSince1970)
            set(names[0], other == value(names[1]) ? nil : other)
          }
        }
      }
    }
    return schema.brokenRelations(in: assignment(slots), now: now).isEmpty
  }
}

/// The rule traces of `policy` on `facts` (facts are always valid here).
func traces(_ policy: CompiledPolicy, _ facts: Facts, _ what: @autoclosure () -> String) -> [RuleOutcome] {
  let explanation = policy.explain(facts)
  if explanation.decision != policy.decide(facts) { fuzzFail("explain and decide disagree on \(what())") }
  if explanation.decision.reason == .invalidFacts {
    fuzzFail("a snapshot of \(what()) is invalid facts: \(facts.missingFacts)")
  }
  if explanation.rules.count != policy.rules.count { fuzzFail("explain traced too few rules of \(what())") }
  return explanation.rules.map(\.outcome)
}

func counts(_ kind: RuleKind, _ outcome: RuleOutcome) -> Bool {
  switch (kind, outcome) {
  case (.ask, .held), (.never, .held), (.never, .faulted): return true
  case (.ask, .notHeld), (.ask, .faulted), (.never, .notHeld): return false
  }
}

// MARK: - The analyzer's model, evaluated

/// Kleene logic over the analyzer's formulas: nil where an opaque atom makes the value unknown.
struct ModelEvaluator {
  let policy: CompiledPolicy
  let facts: Facts

  func literal(_ proposition: Proposition) -> Bool? {
    switch proposition {
    case .present(let name, let value):
      guard let slot = policy.layout.slot(named: name) else { return nil }
      return facts.isPresent(slot: slot) == value
    case .constraint(let variable, let relation):
      guard let value = facts.value(of: variable.name) else { return nil }
      if case .string(let text) = value {
        switch relation {
        case .textOneOf(let texts): return texts.contains(text)
        case .textNoneOf(let texts): return !texts.contains(text)
        case .atLeast, .atMost, .oneOf, .noneOf: return nil
        }
      }
      guard let key = key(value, isAge: variable.isAge) else { return nil }
      switch relation {
      case .atLeast(let bound): return key >= bound
      case .atMost(let bound): return key <= bound
      case .oneOf(let keys): return keys.contains(key)
      case .noneOf(let keys): return !keys.contains(key)
      case .textOneOf, .textNoneOf: return nil
      }
    case .order(let lower, let upper, let strict):
      // Both facts present, in that order.
      guard let low = facts.value(of: lower.name), let high = facts.value(of: upper.name) else { return false }
      guard let lowKey = key(low, isAge: lower.isAge), let highKey = key(high, isAge: upper.isAge) else { return nil }
      return strict ? lowKey < highKey : lowKey <= highKey
    case .opaqueHolds, .opaqueFaults: return nil
    }
  }

  /// The analysis key of `value`: its age for an instant read as an age.
  func key(_ value: Value, isAge: Bool) -> AnalysisKey? {
    guard isAge else { return PolicyTranslator.key(of: value) }
    guard case .instant(let instant) = value else { return nil }
    let (age, overflow) = facts.now.millisecondsSince1970.subtractingReportingOverflow(instant.millisecondsSince1970)
    return overflow ? nil : AnalysisKey(word: age)
  }

  func evaluate(_ formula: Formula) -> Bool? {
    switch formula {
    case .constant(let value): return value
    case .literal(let proposition): return literal(proposition)
    case .and(let parts):
      var unknown = false
      for part in parts {
        switch evaluate(part) {
        case .some(false): return false
        case .none: unknown = true
        case .some(true): break
        }
      }
      return unknown ? nil : true
    case .or(let parts):
      var unknown = false
      for part in parts {
        switch evaluate(part) {
        case .some(true): return true
        case .none: unknown = true
        case .some(false): break
        }
      }
      return unknown ? nil : false
    }
  }
}

/// The analyzer's translation of each rule agrees with the VM on `snapshots`.
func checkModel(_ policy: CompiledPolicy, _ snapshots: [Snapshot], _ outcomes: [[RuleOutcome]]) {
  let table = AtomTable()
  var translator = PolicyTranslator(policy: policy, table: table, freeConstants: false)
  let formulas = policy.rules.map { translator.outcome(of: $0.condition) }
  let axioms = table.axioms
  for (snapshot, traced) in zip(snapshots, outcomes) {
    let model = ModelEvaluator(policy: policy, facts: snapshot.facts(for: policy))
    if model.evaluate(axioms) == false { fuzzFail("the atom axioms fail on a snapshot: \(snapshot.values)") }
    for (index, formula) in formulas.enumerated() {
      let holds = model.evaluate(formula.holds)
      let fails = model.evaluate(formula.fails)
      let faults = model.evaluate(formula.faults)
      let definite = [holds, fails, faults].filter { $0 == true }.count
      if definite > 1 { fuzzFail("the model says rule \(index) both holds/fails/faults: \(holds) \(fails) \(faults)") }
      let vm = traced[index]
      let agrees: Bool
      switch vm {
      case .held: agrees = holds != false && fails != true && faults != true
      case .notHeld: agrees = fails != false && holds != true && faults != true
      case .faulted: agrees = faults != false && holds != true && fails != true
      }
      if !agrees {
        fuzzFail(
          "the analyzer's model of rule \(index) (holds \(String(describing: holds)), fails "
            + "\(String(describing: fails)), faults \(String(describing: faults))) disagrees with the VM (\(vm)) "
            + "at now \(snapshot.now.millisecondsSince1970) on \(snapshot.values)")
      }
    }
  }
}

// MARK: - Comparisons (PC313, PC314)

/// The `and`/`or` chains of the policy's rules and used `let`s.
func chains(_ policy: CompiledPolicy) -> [(op: LogicalOperator, operands: [TypedExpr])] {
  var result: [(LogicalOperator, [TypedExpr])] = []
  var stack = policy.rules.map(\.condition) + policy.lets.filter(\.isUsed).compactMap(\.value)
  while let expr = stack.popLast() {
    if case .logical(let op, let operands) = expr.node { result.append((op, operands)) }
    stack.append(contentsOf: expr.children)
  }
  return result
}

/// Checks PC313 and PC314 findings: each comparison of the chain becomes a probe rule.
func checkComparisons(
  _ policy: CompiledPolicy, _ findings: [AnalysisFinding], _ snapshots: [Snapshot], schema: FactSchema
) {
  let comparisonFindings = findings.filter {
    $0.diagnostic.code == PolicyCoreCode.contradictoryComparisons.code
      || $0.diagnostic.code == PolicyCoreCode.redundantComparison.code
  }
  guard !comparisonFindings.isEmpty else { return }
  let allChains = chains(policy)
  for finding in comparisonFindings {
    let range = finding.diagnostic.range
    guard
      let (op, operands) = allChains.first(where: { chain in chain.operands.contains { $0.writtenRange == range } }),
      let reported = operands.firstIndex(where: { $0.writtenRange == range })
    else {
      fuzzFail("\(finding.diagnostic.code) at \(range.start)..<\(range.end) is not an operand of a chain")
    }
    // Probe rules: the reported operand first, then every other operand.
    let texts = operands.map { policy.source.text(in: $0.writtenRange) }
    var text = "\n"
    let first = policy.rules.count
    for (index, operandText) in texts.enumerated() { text += "ask fuzz_probe_\(index) when (\(operandText))\n" }
    let probeSource = SourceFile(path: "probe.policy", bytes: policy.source.bytes + Array(text.utf8))
    let compilation = PolicyCompiler.compile(probeSource, schema: schema)
    guard let probe = compilation.policy, probe.rules.count == first + texts.count else { continue }
    // Whether each other operand is still a candidate for the claim.
    var candidates = Array(repeating: true, count: operands.count)
    candidates[reported] = false
    let isContradiction = finding.diagnostic.code == PolicyCoreCode.contradictoryComparisons.code
    for snapshot in snapshots {
      let traced = traces(probe, snapshot.facts(for: probe), "the probe policy")
      /// Whether operand `index` holds; nil when it faults.
      func holds(_ index: Int) -> Bool? {
        switch traced[first + index] {
        case .held: return true
        case .notHeld: return false
        case .faulted: return nil
        }
      }
      // The analyzer judges only comparisons that cannot fault: the reported one must not, and
      // an operand that faults is not the one it was judged against (the campaign found a chain
      // where another, unrelated operand faults).
      guard let mine = holds(reported) else {
        fuzzFail("the comparison `\(texts[reported])`, judged by the analyzer (\(finding.diagnostic.message)), faults")
      }
      for other in operands.indices where candidates[other] {
        guard let theirs = holds(other) else {
          candidates[other] = false
          continue
        }
        let broken: Bool
        switch (isContradiction, op) {
        case (true, .and): broken = mine && theirs
        case (true, .or): broken = !mine && !theirs
        case (false, .and): broken = theirs && !mine
        case (false, .or): broken = mine && !theirs
        }
        if broken { candidates[other] = false }
      }
    }
    if !candidates.contains(true) {
      fuzzFail("\(finding.diagnostic.code): \(finding.diagnostic.message), but no comparison of the chain bears it out")
    }
  }
}

// MARK: - Rules (PC310, PC311, PC312) and witnesses

func checkFindings(_ policy: CompiledPolicy, _ report: AnalysisReport, _ snapshots: [Snapshot], schema: FactSchema) {
  let outcomes = snapshots.map { traces(policy, $0.facts(for: policy), "the policy") }
  checkModel(policy, snapshots, outcomes)
  let nevers = policy.rules.indices.filter { policy.rules[$0].kind == .never }
  for finding in report.findings + report.silenced {
    if let witness = finding.witness {
      if !schema.brokenRelations(in: witness.assignment, now: witness.now).isEmpty {
        fuzzFail("a witness of \(finding.diagnostic.code) breaks a relation: \(witness.summary())")
      }
      let facts = witness.facts(for: policy)
      if policy.decide(facts) != policy.decide(witness.facts(for: policy)) { fuzzFail("a witness decides twice") }
      _ = traces(policy, facts, "a witness")
      checkHistory(witness, [policy], "the witness of \(finding.diagnostic.code)")
    }
    if finding.diagnostic.code.domain == ReviewPolicyCode.domain {
      // The etiquette: an example on which the compiled policy asks.
      guard let witness = finding.witness else { fuzzFail("\(finding.diagnostic.code) without an example") }
      if !policy.decide(witness.facts(for: policy)).shouldAsk {
        fuzzFail("\(finding.diagnostic.code)'s example does not ask: \(witness.summary())")
      }
      continue
    }
    guard finding.diagnostic.code.domain == PolicyCoreCode.domain,
      let code = PolicyCoreCode(rawValue: finding.diagnostic.code.rawValue)
    else { fuzzFail("the analyzer without checks reported \(finding.diagnostic.code)") }
    let rule = policy.rules.firstIndex { $0.range == finding.diagnostic.range }
    let message = finding.diagnostic.message
    /// Checks that `broken` (of the rule's kind, its outcome and every rule's) holds on no snapshot.
    func checkRule(_ broken: (RuleKind, RuleOutcome, [RuleOutcome]) -> Bool) {
      guard let rule else { fuzzFail("\(finding.diagnostic.code) is not at a rule: \(message)") }
      for (snapshot, traced) in zip(snapshots, outcomes) where broken(policy.rules[rule].kind, traced[rule], traced) {
        fuzzFail(
          "\(message), but it comes out \(traced[rule]) at now \(snapshot.now.millisecondsSince1970) on \(snapshot.values)"
        )
      }
    }
    switch code {
    case .ruleNeverHolds: checkRule { kind, outcome, _ in counts(kind, outcome) }
    case .ruleAlwaysHolds: checkRule { kind, outcome, _ in kind == .ask ? outcome != .held : !counts(kind, outcome) }
    case .shadowedAskRule:
      // "whenever it holds, TITLE holds too" names one never rule; "one of the never rules ..." several.
      let namer = Analysis(policy: policy, options: .all)
      let named = nevers.filter { message.hasSuffix("whenever it holds, \(namer.title($0)) holds too") }
      let shadowing = named.count == 1 ? named : nevers
      checkRule { kind, outcome, traced in
        if kind != .ask { fuzzFail("PC312 on a never rule: \(message)") }
        return outcome == .held && !shadowing.contains { counts(.never, traced[$0]) }
      }
    case .contradictoryComparisons, .redundantComparison: break  // checkComparisons
    case .neverAsks:
      // No snapshot (all satisfy the relations) makes the policy ask.
      for (snapshot, traced) in zip(snapshots, outcomes) {
        let asks = policy.decide(snapshot.facts(for: policy)).shouldAsk
        if asks {
          fuzzFail(
            "\(message), but it asks at now \(snapshot.now.millisecondsSince1970) on \(snapshot.values) (\(traced))")
        }
      }
    case .unknownDirective, .unknownAllowedCode, .unusedAllow, .misspeltSilencingComment, .tooManyWarnings,
      .analysisIncomplete:
      break  // silencing comments, limits and the analysis budget: no claim about decisions
    case .fileTooLarge, .invalidUTF8, .unexpectedCharacter, .unterminatedString, .invalidEscape, .integerTooLarge,
      .invalidNumber,
      .invalidDuration, .invalidVersion, .expectedExpression, .expectedToken, .unexpectedToken, .unclosedDelimiter,
      .nestingTooDeep, .identifierTooLong, .stringTooLong, .tooManyDeclarations, .listTooLong, .chainedComparison,
      .bareConditionNotAlone, .expectedName, .unknownType, .tooManyErrors, .unknownName, .unknownFunction,
      .incomparableTypes, .invalidOperands, .notBoolean, .unguardedAbsentValue, .duplicateRuleName,
      .duplicateDefinition, .wrongArgumentCount, .wrongArgumentType, .invalidListElement, .misplacedList,
      .unorderedType, .divisionByZero, .useBeforeDefinition, .invalidFactKey, .unknownEvent, .invalidFactDefault,
      .noAskRule, .unusedLet, .unusedFact, .alwaysPresent, .needlessDefault, .emptyList, .cutFactKey, .tooManyRules,
      .tooManyLets,
      .tooManyFactDeclarations, .tooManyEventDeclarations, .tooManyExpressionNodes:
      fuzzFail("the analyzer reported a compiler code: \(message)")
    }
  }
  checkComparisons(policy, report.findings + report.silenced, snapshots, schema: schema)
}

// MARK: - Equivalence

func checkEquivalence(_ old: CompiledPolicy, _ new: CompiledPolicy, _ snapshots: [Snapshot]) {
  let result = PolicyEquivalence.compare(old, new)
  // The comparison is symmetric: "equivalent" one way and a counterexample the other is a contradiction.
  switch (result, PolicyEquivalence.compare(new, old)) {
  case (.equivalent, .different), (.different, .equivalent):
    fuzzFail("compare says equivalent one way and different the other")
  case (.equivalent, _), (.different, _), (.unknown, _), (.incomparable, _): break
  }
  switch result {
  case .equivalent:
    for snapshot in snapshots {
      let (first, second) = (old.decide(snapshot.facts(for: old)), new.decide(snapshot.facts(for: new)))
      if first.shouldAsk != second.shouldAsk {
        fuzzFail(
          "called equivalent, but they decide \(first.shouldAsk) and \(second.shouldAsk) at now "
            + "\(snapshot.now.millisecondsSince1970) seed \(snapshot.seed) on \(snapshot.values)")
      }
    }
  case .different(let counterexample):
    let witness = counterexample.witness
    if !ReviewSchema.standard.brokenRelations(in: witness.assignment, now: witness.now).isEmpty {
      fuzzFail("a counterexample breaks a relation: \(witness.summary())")
    }
    let first = old.decide(counterexample.witness.facts(for: old))
    let second = new.decide(counterexample.witness.facts(for: new))
    if first != counterexample.old || second != counterexample.new {
      fuzzFail("a counterexample's printed decisions are not the policies' decisions on its facts")
    }
    if first.shouldAsk == second.shouldAsk { fuzzFail("a counterexample on which both decide the same") }
    if first.reason == .invalidFacts || second.reason == .invalidFacts { fuzzFail("a counterexample is invalid facts") }
    checkHistory(witness, [old, new], "a counterexample")
  case .unknown, .incomparable: break
  }
}

// MARK: - Histories

/// Checks that `witness` has a history (refused only for a test file's limits) that, replayed
/// through a review manager running each of `policies`, gives each host fact it reads its value.
func checkHistory(_ witness: Witness, _ policies: [CompiledPolicy], _ what: @autoclosure () -> String) {
  switch WitnessHistory.build(
    for: witness, reading: policies.reduce(into: []) { $0.formUnion(WitnessHistory.reading($1)) })
  {
  case .failure(let refusal):
    // A refusal for a test file's limits (counts, instants, a device clock set back) is not one.
    if strictHistories && !refusal.exceedsLimits {
      fuzzFail("no history for \(what()) (\(witness.summary(limit: 64))): \(refusal.reason)")
    }
  case .success(let history):
    guard history.repetitions <= replayedRepetitions else { return }
    for policy in policies {
      let text = String(decoding: policy.source.bytes, as: UTF8.self)
      if case .failure(let refusal) = WitnessHistory.replayed(
        for: witness, policy: policy, policyText: text, environment: environment)
      {
        fuzzFail(
          "the history of \(what()) does not replay to its facts (\(witness.summary(limit: 64))): \(refusal.reason)\n"
            + history.testCase(name: "replay", expectsAsk: false, deciding: nil))
      }
    }
  }
}

// MARK: - Entry points

/// The input split at the first line `===`: one or two policies.
func splitPolicies(_ bytes: [UInt8]) -> [[UInt8]] {
  let separator = Array("\n===\n".utf8)
  guard bytes.count >= separator.count else { return [bytes] }
  for start in 0...(bytes.count - separator.count)
  where bytes[start..<(start + separator.count)].elementsEqual(separator) {
    return [Array(bytes[..<start]), Array(bytes[(start + separator.count)...])]
  }
  return [bytes]
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let schema = ReviewSchema.standard
  var literals = Literals()
  var policies: [CompiledPolicy] = []
  for (index, part) in splitPolicies(bytes).enumerated() {
    let source = SourceFile(path: "fuzz\(index).policy", bytes: part)
    literals.add(Parser.parse(source).file)
    guard let policy = environment.compile(source).policy else { return 0 }
    policies.append(policy)
  }
  var maker = ValueMaker(random: FuzzRandom(state: fuzzSeed(bytes)), literals: literals)
  var pair = policies
  if pair.count == 1, let only = pair.first, only.rules.count > 1 {
    // One policy: it is also compared with itself less one rule (picked by the input), which
    // often decides the same (a shadowed or never-holding rule) and often not.
    let dropped = only.rules[Int(fuzzSeed(bytes) % UInt64(only.rules.count))].range
    let text = Array(only.source.bytes[..<dropped.start]) + Array(only.source.bytes[dropped.end...])
    let source = SourceFile(path: "fuzz-less-one.policy", bytes: text)
    if let other = environment.compile(source).policy { pair.append(other) }
  }
  if pair.count == 2 {
    // Pairs: equivalence over shared snapshots (facts of one type by name, else incomparable).
    let slots = snapshotSlots(pair)
    let comparable = pair[1].layout.slots.allSatisfy { slot in
      pair[0].layout.slot(named: slot.name).map { pair[0].layout.slots[$0].type == slot.type } ?? true
    }
    if comparable { checkEquivalence(pair[0], pair[1], makeSnapshots(slots, &maker, count: 24)) }
  }
  for policy in policies {
    let report = environment.analyze(policy)
    let snapshots = makeSnapshots(snapshotSlots([policy]), &maker, count: 24)
    checkFindings(policy, report, snapshots, schema: schema)
  }
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(
    [
      """
      fact plan: string
      let engaged = days >= 14 and uses >= 10
      never answered when declined or rated
      never too_soon when since(last_prompt) < 8w or prompts_within(365d) >= 3
      ask loyal when engaged and days > 3 and (events("export") >= 3 or (average_score(3) ?? 0) >= 7.5)
      ask paying when plan in ["pro", "team"] and -days < -7 % 3
      ask never_asks when days > 5 and days < 2
      """,
      "ask when days > 3\n===\nask when days >= 4 or uses > 1",
    ], fuzz)
  return 0
}
