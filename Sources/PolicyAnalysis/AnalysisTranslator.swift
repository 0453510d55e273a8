import PolicyCore

/// A value expression after `??`, `let`s and `since` have been resolved into cases.
///
/// Facts are named, so terms of two policies compare equal when they mean the same.
indirect enum Term: Hashable, Sendable {
  /// A constant.
  case constant(Value)
  /// An expression that always faults (such as constant arithmetic that overflows).
  case failure
  /// The value of a present fact, with its type.
  case value(String, PolicyType)
  /// `now - fact` for a present instant fact: `since(fact)`.
  case age(String)
  /// The evaluation instant.
  case now
  /// Arithmetic, with the result type.
  case arithmetic(Arithmetic, Term, Term, PolicyType)
  /// Arithmetic negation, with the type.
  case negate(Term, PolicyType)
  /// An int converted to a number.
  case promote(Term)
  /// `min` (true) or `max` (false), with the type.
  case extremum(Bool, [Term], PolicyType)
  /// `now - instant` for an instant expression that is not a fact.
  case since(Term)
  /// A value the analysis does not model (a `bool` subexpression used as a value, a call of a
  /// built-in function, or a `let` nested too deep), by its canonical text.
  case opaque(String)

  /// Whether evaluating the term can fault (conservative).
  var canFault: Bool {
    switch self {
    case .constant, .value, .age, .now: false
    case .failure, .arithmetic, .negate, .since: true
    // `bucket("name")` is the one opaque value that never faults.
    case .opaque(let text): !text.hasPrefix("bucket(")
    case .promote(let inner):
      if case .constant = inner { false } else { true }
    case .extremum(_, let terms, _): terms.contains { $0.canFault }
    }
  }

  /// The facts the term reads.
  var factNames: Set<String> {
    switch self {
    case .constant, .failure, .now, .opaque: []
    case .value(let name, _), .age(let name): [name]
    case .arithmetic(_, let lhs, let rhs, _): lhs.factNames.union(rhs.factNames)
    case .negate(let inner, _), .promote(let inner), .since(let inner): inner.factNames
    case .extremum(_, let terms, _): terms.reduce(into: Set<String>()) { $0.formUnion($1.factNames) }
    }
  }
}

/// A comparison the analysis does not reduce to constraints on single facts: an unknown that
/// holds, fails or faults. Two occurrences of the same atom are the same unknown.
enum OpaqueAtom: Hashable, Sendable {
  /// A comparison of two terms.
  case compare(ComparisonOperator, Term, Term)
  /// A membership test.
  case membership(Bool, Term, [Value])
  /// A `bool` term used as a condition.
  case truth(Term)
  /// A literal constant (or `has` of a fact that is never absent, or a test of an empty list)
  /// at this source offset, left free when the analysis looks for contradictions in comparisons.
  case free(Int)

  /// The facts the atom reads.
  var factNames: Set<String> {
    switch self {
    case .compare(_, let lhs, let rhs): lhs.factNames.union(rhs.factNames)
    case .membership(_, let term, _), .truth(let term): term.factNames
    case .free: []
    }
  }
}

/// The opaque atoms of one analysis, numbered; shared by the translators of two policies in a diff.
final class AtomTable {
  private(set) var atoms: [OpaqueAtom] = []
  private var ids: [OpaqueAtom: Int] = [:]

  private var texts: [String: Int] = [:]

  /// The number of a canonical text (of a `let`'s value), adding it when new.
  func textID(_ text: String) -> Int {
    if let id = texts[text] { return id }
    texts[text] = texts.count
    return texts.count - 1
  }

  /// The number of `atom`, adding it when new.
  func id(_ atom: OpaqueAtom) -> Int {
    if let id = ids[atom] { return id }
    ids[atom] = atoms.count
    atoms.append(atom)
    return atoms.count - 1
  }
}

extension AtomTable {
  /// Facts about the opaque atoms that hold whatever the values: an atom that divides by a
  /// fact faults when that fact is zero.
  var axioms: Formula {
    var parts: [Formula] = []
    for (id, atom) in atoms.enumerated() {
      var divisors = Set<AnalysisVariable>()
      switch atom {
      case .compare(_, let lhs, let rhs):
        AtomTable.collectDivisors(lhs, into: &divisors)
        AtomTable.collectDivisors(rhs, into: &divisors)
      case .membership(_, let term, _), .truth(let term): AtomTable.collectDivisors(term, into: &divisors)
      case .free: break
      }
      for variable in divisors.sorted() {
        parts.append(
          .literal(.constraint(variable, .noneOf([AnalysisKey(word: 0)]))) || .literal(.opaqueFaults(id, true)))
      }
    }
    return .all(parts)
  }

  private static func collectDivisors(_ term: Term, into divisors: inout Set<AnalysisVariable>) {
    switch term {
    case .arithmetic(let operation, let lhs, let rhs, _):
      switch operation {
      case .divideInt, .remainderInt, .divideNumber, .divideDurationByInt, .divideDurations:
        if let variable = PolicyTranslator.variable(for: rhs), variable.kind != .age {
          divisors.insert(variable)
        }
      default: break
      }
      collectDivisors(lhs, into: &divisors)
      collectDivisors(rhs, into: &divisors)
    case .negate(let inner, _), .promote(let inner), .since(let inner): collectDivisors(inner, into: &divisors)
    case .extremum(_, let terms, _): for inner in terms { collectDivisors(inner, into: &divisors) }
    default: break
    }
  }
}

/// One case of a value: where `guard` holds, the value is present and equals `term`.
struct ValueCase: Hashable, Sendable {
  var guardFormula: Formula
  var term: Term
}

/// Translates the checked conditions of one policy into ``Outcome``s over ``Proposition``s.
///
/// `let`s are inlined (a `let` is evaluated before the rules, but it is pure, so reading its
/// value where the rule reads it gives the same value or the same fault). `x ?? d` is split
/// into the case where `x` is present and the case where it is not; `since(x)` of an instant
/// fact becomes the fact's age, and the infinite duration when it is absent.
struct PolicyTranslator {
  /// The most cases one value expression is split into; beyond, its comparison is opaque.
  static let maximumCases = 64
  /// The most operands of a chain that can fault, composed exactly; beyond, the chain is opaque.
  static let maximumFaultingChain = 256

  let layout: FactLayout
  let lets: [CheckedLet]
  let table: AtomTable
  /// Whether literal constants are free unknowns (see ``OpaqueAtom/free(_:)``).
  let freeConstants: Bool

  /// The deepest chain of `let`s (a `let` reading a `let` reading ...) that is inlined; a
  /// `let` deeper than this is an opaque value, which keeps every recursion shallow.
  static let maximumLetDepth = 48

  private var letOutcomes: [Int: Outcome] = [:]
  private var letCases: [Int: [ValueCase]?] = [:]
  private var letPresence: [Int: Formula] = [:]
  private var letTexts: [Int: String] = [:]
  /// How deep each `let` is: 1 for a `let` that reads no other, else one more than the deepest it reads.
  private var letDepths: [Int] = []

  init(policy: CompiledPolicy, table: AtomTable, freeConstants: Bool) {
    self.layout = policy.layout
    self.lets = policy.lets
    self.table = table
    self.freeConstants = freeConstants
    // `let`s only read earlier ones: in order, each one's translation finds those it reads
    // already done, so nothing recurses through a chain of `let`s.
    for (index, checked) in lets.enumerated() {
      var depth = 1
      if let value = checked.value {
        var stack = [value]
        while let expr = stack.popLast() {
          switch expr.node {
          case .letValue(let other), .has(.letValue(let other)):
            if other < letDepths.count { depth = max(depth, letDepths[other] + 1) }
          case .constant, .fact, .now, .has, .not, .logical, .compare, .membership, .arithmetic, .negate, .coalesce,
            .since, .extremum, .promote, .call, .bucket:
            stack.append(contentsOf: expr.children)
          }
        }
      }
      letDepths.append(depth)
      guard checked.isUsed, let value = checked.value else { continue }
      _ = canonicalText(TypedExpr(.letValue(index), value.type, isOptional: value.isOptional, range: value.range))
      guard depth <= PolicyTranslator.maximumLetDepth else { continue }
      letPresence[index] = presence(of: value)
      if value.type == .bool && !value.isOptional {
        letOutcomes[index] = outcome(of: value)
      } else {
        letCases[index] = cases(of: value)
      }
    }
  }

  /// Whether `let` number `index` is too deep to inline.
  private func isDeep(_ index: Int) -> Bool {
    index < letDepths.count && letDepths[index] > PolicyTranslator.maximumLetDepth
  }

  // MARK: - Variables

  /// The variable of the value of the fact in `slot`, nil for instants.
  func valueVariable(_ slot: Int) -> AnalysisVariable? {
    let definition = layout.slots[slot]
    guard let kind = VariableKind(valueOf: definition.type) else { return nil }
    return AnalysisVariable(name: definition.name, isAge: false, kind: kind)
  }

  static func variable(for term: Term) -> AnalysisVariable? {
    switch term {
    case .value(let name, let type):
      guard let kind = VariableKind(valueOf: type) else { return nil }
      return AnalysisVariable(name: name, isAge: false, kind: kind)
    case .age(let name):
      return AnalysisVariable(name: name, isAge: true, kind: .age)
    default:
      return nil
    }
  }

  // MARK: - Conditions

  /// The outcome of a `bool` expression used as a condition.
  mutating func outcome(of expr: TypedExpr) -> Outcome {
    switch expr.node {
    case .constant(.bool(let value)):
      return freeConstants ? free(expr) : .constant(value)
    case .not(let inner):
      return outcome(of: inner).negated
    case .logical(let op, let operands):
      let parts = operands.map { outcome(of: $0) }
      if let combined = PolicyTranslator.chain(op, parts) { return combined }
      return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true)
    case .has(.fact(let slot)):
      let definition = layout.slots[slot]
      guard definition.isOptional else { return freeConstants ? free(expr) : .constant(true) }
      return Outcome(
        holds: .literal(.present(definition.name, true)), fails: .literal(.present(definition.name, false)))
    case .has(.letValue(let index)):
      guard let value = lets[index].value else {
        return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true)
      }
      guard value.isOptional else { return freeConstants ? free(expr) : .constant(true) }
      let presence = self.presence(of: value)
      return Outcome(holds: presence, fails: presence.negated)
    case .letValue(let index) where !(lets[index].value?.isOptional ?? true):
      if let known = letOutcomes[index] { return known }
      if isDeep(index) { return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true) }
      guard let value = lets[index].value else {
        return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true)
      }
      let result = outcome(of: value)
      letOutcomes[index] = result
      return result
    case .compare(let op, let lhs, let rhs):
      guard let left = cases(of: lhs), let right = cases(of: rhs),
        left.count * right.count <= PolicyTranslator.maximumCases
      else {
        return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true)
      }
      var parts: [Outcome] = []
      for l in left {
        for r in right {
          parts.append(compare(op, l.term, r.term).guarded(by: l.guardFormula && r.guardFormula))
        }
      }
      return PolicyTranslator.sum(parts)
    case .membership(let negated, let operand, let values):
      if values.isEmpty && freeConstants {
        // `x in []`: PC306 already reports it; the operand may still fault.
        return free(expr)
      }
      guard let operandCases = cases(of: operand) else {
        return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true)
      }
      return PolicyTranslator.sum(
        operandCases.map { membership(negated, $0.term, values).guarded(by: $0.guardFormula) })
    default:
      guard let valueCases = cases(of: expr) else {
        return opaqueOutcome(.truth(.opaque(canonicalText(expr))), canFault: true)
      }
      return PolicyTranslator.sum(valueCases.map { truth($0.term).guarded(by: $0.guardFormula) })
    }
  }

  /// The outcome of a free unknown standing for a literal constant.
  private func free(_ expr: TypedExpr) -> Outcome {
    let id = table.id(.free(expr.range.start))
    return Outcome(holds: .literal(.opaqueHolds(id, true)), fails: .literal(.opaqueHolds(id, false)))
  }

  /// The outcome of an opaque atom.
  func opaqueOutcome(_ atom: OpaqueAtom, canFault: Bool) -> Outcome {
    let id = table.id(atom)
    guard canFault else {
      return Outcome(holds: .literal(.opaqueHolds(id, true)), fails: .literal(.opaqueHolds(id, false)))
    }
    let noFault = Formula.literal(.opaqueFaults(id, false))
    return Outcome(
      holds: noFault && .literal(.opaqueHolds(id, true)), fails: noFault && .literal(.opaqueHolds(id, false)),
      faults: .literal(.opaqueFaults(id, true)))
  }

  /// The outcome of exclusive cases: whichever case applies decides.
  static func sum(_ parts: [Outcome]) -> Outcome {
    if parts.count == 1 { return parts[0] }
    return Outcome(
      holds: .any(parts.map(\.holds)), fails: .any(parts.map(\.fails)), faults: .any(parts.map(\.faults)))
  }

  /// The outcome of an `and` or `or` chain evaluated left to right with short circuits; nil
  /// when it has too many operands that can fault to compose exactly.
  static func chain(_ op: LogicalOperator, _ parts: [Outcome]) -> Outcome? {
    let isAnd = op == .and
    let faulting = parts.filter { !$0.faults.isFalse }.count
    if faulting == 0 {
      // Without faults an operand is reached exactly when the earlier ones did not decide,
      // and an operand that is not reached cannot change the result (a `has` guard decided).
      return isAnd
        ? Outcome(holds: .all(parts.map(\.holds)), fails: .any(parts.map(\.fails)))
        : Outcome(holds: .any(parts.map(\.holds)), fails: .all(parts.map(\.fails)))
    }
    guard parts.count <= maximumFaultingChain else { return nil }
    // Sequential composition is associative: combine as a balanced tree to keep formulas shallow.
    func combine(_ range: Range<Int>) -> Outcome {
      if range.count == 1 { return parts[range.lowerBound] }
      let middle = range.lowerBound + range.count / 2
      let first = combine(range.lowerBound..<middle)
      let rest = combine(middle..<range.upperBound)
      if isAnd {
        return Outcome(
          holds: first.holds && rest.holds, fails: first.fails || (first.holds && rest.fails),
          faults: first.faults || (first.holds && rest.faults))
      }
      return Outcome(
        holds: first.holds || (first.fails && rest.holds), fails: first.fails && rest.fails,
        faults: first.faults || (first.fails && rest.faults))
    }
    return combine(0..<parts.count)
  }

  // MARK: - Values

  /// The formula that holds where `expr` has a value.
  mutating func presence(of expr: TypedExpr) -> Formula {
    switch expr.node {
    case .fact(let slot):
      let definition = layout.slots[slot]
      return definition.isOptional ? .literal(.present(definition.name, true)) : .true
    case .letValue(let index):
      if let known = letPresence[index] { return known }
      guard let value = lets[index].value else { return .true }
      if isDeep(index) {
        // An opaque value: present or not, an unknown of its own.
        return value.isOptional
          ? .literal(.opaqueHolds(table.id(.truth(.opaque("has " + canonicalText(expr)))), true)) : .true
      }
      return presence(of: value)
    case .coalesce(let lhs, let rhs):
      return presence(of: lhs) || presence(of: rhs)
    default:
      return .true
    }
  }

  /// The cases of a value expression; nil when there are too many.
  mutating func cases(of expr: TypedExpr) -> [ValueCase]? {
    let result: [ValueCase]?
    switch expr.node {
    case .constant(let value):
      result = [ValueCase(guardFormula: .true, term: .constant(value))]
    case .fact(let slot):
      let definition = layout.slots[slot]
      let term = Term.value(definition.name, definition.type)
      result = [
        ValueCase(guardFormula: definition.isOptional ? .literal(.present(definition.name, true)) : .true, term: term)
      ]
    case .letValue(let index):
      if let known = letCases[index] { return known }
      guard let value = lets[index].value else { return nil }
      if isDeep(index) {
        return [ValueCase(guardFormula: presence(of: expr), term: .opaque(canonicalText(expr)))]
      }
      let computed = cases(of: value)
      letCases[index] = computed
      return computed
    case .now:
      result = [ValueCase(guardFormula: .true, term: .now)]
    case .coalesce(let lhs, let rhs):
      guard let left = cases(of: lhs), let right = cases(of: rhs) else { return nil }
      let leftAbsent = presence(of: lhs).negated
      result = left + right.map { ValueCase(guardFormula: leftAbsent && $0.guardFormula, term: $0.term) }
    case .since(let instant):
      guard let inner = cases(of: instant) else { return nil }
      var all = inner.map { ValueCase(guardFormula: $0.guardFormula, term: PolicyTranslator.since($0.term)) }
      if instant.isOptional {
        all.append(
          ValueCase(guardFormula: presence(of: instant).negated, term: .constant(.duration(.infinite))))
      }
      result = all
    case .arithmetic(let operation, let lhs, let rhs):
      guard let left = cases(of: lhs), let right = cases(of: rhs) else { return nil }
      var all: [ValueCase] = []
      for l in left {
        for r in right {
          all.append(
            ValueCase(
              guardFormula: l.guardFormula && r.guardFormula,
              term: PolicyTranslator.arithmetic(operation, l.term, r.term, expr.type)))
        }
      }
      result = all
    case .negate(let operand):
      guard let inner = cases(of: operand) else { return nil }
      result = inner.map { ValueCase(guardFormula: $0.guardFormula, term: PolicyTranslator.negate($0.term, expr.type)) }
    case .promote(let operand):
      guard let inner = cases(of: operand) else { return nil }
      result = inner.map { ValueCase(guardFormula: $0.guardFormula, term: PolicyTranslator.promote($0.term)) }
    case .extremum(let isMinimum, let operands):
      var termLists: [[Term]] = [[]]
      var guards: [Formula] = [.true]
      for operand in operands {
        guard let inner = cases(of: operand), inner.count * termLists.count <= PolicyTranslator.maximumCases else {
          return nil
        }
        var nextTerms: [[Term]] = []
        var nextGuards: [Formula] = []
        for (terms, guardFormula) in zip(termLists, guards) {
          for one in inner {
            nextTerms.append(terms + [one.term])
            nextGuards.append(guardFormula && one.guardFormula)
          }
        }
        termLists = nextTerms
        guards = nextGuards
      }
      result = zip(termLists, guards).map {
        ValueCase(guardFormula: $0.1, term: PolicyTranslator.extremum(isMinimum, $0.0, expr.type))
      }
    case .has, .not, .logical, .compare, .membership:
      result = [ValueCase(guardFormula: .true, term: .opaque(canonicalText(expr)))]
    case .call:
      // A built-in function's value is not modelled: an unknown of its own (its arguments are
      // present wherever it is evaluated; it may fault).
      result = [ValueCase(guardFormula: .true, term: .opaque(canonicalText(expr)))]
    case .bucket:
      // A bucket is an unknown int (in 0..<100, which the analysis does not use: it only loses
      // precision, never soundness); the same name is the same unknown in both policies of a diff.
      result = [ValueCase(guardFormula: .true, term: .opaque(canonicalText(expr)))]
    }
    if let result, result.count > PolicyTranslator.maximumCases { return nil }
    return result
  }

  // MARK: - Folding

  static func since(_ term: Term) -> Term {
    switch term {
    case .value(let name, .instant): return .age(name)
    case .now: return .constant(.duration(TimeSpan(milliseconds: 0)))
    case .failure: return .failure
    case .constant(.instant):
      return arithmetic(.subtractInstants, .now, term, .duration)
    default: return .since(term)
    }
  }

  static func arithmetic(_ operation: Arithmetic, _ lhs: Term, _ rhs: Term, _ type: PolicyType) -> Term {
    if lhs == .failure || rhs == .failure { return .failure }
    if case .constant(let l) = lhs, case .constant(let r) = rhs, let a = l.storageWord, let b = r.storageWord {
      let (result, fault) = ArithmeticKernel.apply(operation, a, b)
      if fault != nil { return .failure }
      return .constant(Value(storageWord: result, type: type) ?? .int(result))
    }
    if operation == .subtractInstants, lhs == .now, case .value(let name, .instant) = rhs {
      return .age(name)
    }
    return .arithmetic(operation, lhs, rhs, type)
  }

  static func negate(_ term: Term, _ type: PolicyType) -> Term {
    if term == .failure { return .failure }
    if case .constant(let value) = term, let word = value.storageWord {
      let (result, fault) = ArithmeticKernel.negate(word, isDuration: type == .duration)
      if fault != nil { return .failure }
      return .constant(Value(storageWord: result, type: type) ?? .int(result))
    }
    return .negate(term, type)
  }

  static func promote(_ term: Term) -> Term {
    if term == .failure { return .failure }
    if case .constant(.int(let integer)) = term {
      guard let number = Number(exactly: integer) else { return .failure }
      return .constant(.number(number))
    }
    return .promote(term)
  }

  static func extremum(_ isMinimum: Bool, _ terms: [Term], _ type: PolicyType) -> Term {
    if terms.contains(.failure) { return .failure }
    var values: [Value] = []
    for term in terms {
      guard case .constant(let value) = term else { return .extremum(isMinimum, terms, type) }
      values.append(value)
    }
    var best = values[0]
    for value in values.dropFirst() {
      let ordering = value.ordering(comparedWith: best)
      if isMinimum ? ordering < 0 : ordering > 0 { best = value }
    }
    return .constant(best)
  }

  // MARK: - Atoms

  /// The key of a constant for a variable of `kind`, nil when it has none.
  static func key(of value: Value) -> AnalysisKey? {
    switch value {
    case .version(let version): AnalysisKey(version: version)
    case .string: nil
    default: value.storageWord.map(AnalysisKey.init(word:))
    }
  }

  /// `variable op key` as a formula.
  static func relation(_ op: ComparisonOperator, _ variable: AnalysisVariable, _ key: AnalysisKey) -> Formula {
    switch op {
    case .equal: return .literal(.constraint(variable, .oneOf([key])))
    case .notEqual: return .literal(.constraint(variable, .noneOf([key])))
    case .lessEqual: return .literal(.constraint(variable, .atMost(key)))
    case .greaterEqual: return .literal(.constraint(variable, .atLeast(key)))
    case .less:
      return key <= variable.kind.minimum ? .false : .literal(.constraint(variable, .atMost(key.predecessor)))
    case .greater:
      return key >= variable.kind.maximum ? .false : .literal(.constraint(variable, .atLeast(key.successor)))
    }
  }

  /// The largest and smallest ints that can be converted to numbers.
  static let promotable: ClosedRange<Int64> = (Int64.min / Number.scale)...(Int64.max / Number.scale)

  /// The formula of `term op constant` when it constrains one variable, nil otherwise.
  static func constraint(_ term: Term, _ op: ComparisonOperator, _ constant: Value) -> Outcome? {
    if let variable = variable(for: term) {
      if variable.kind == .string {
        guard case .string(let text) = constant, op == .equal || op == .notEqual else { return nil }
        let relation: Relation = op == .equal ? .textOneOf([text]) : .textNoneOf([text])
        let formula = Formula.literal(.constraint(variable, relation))
        return Outcome(holds: formula, fails: formula.negated)
      }
      guard let key = key(of: constant) else { return nil }
      let formula = relation(op, variable, key)
      return Outcome(holds: formula, fails: formula.negated)
    }
    switch term {
    case .promote(let inner):
      guard let variable = variable(for: inner), variable.kind == .int, case .number(let number) = constant else {
        return nil
      }
      // `int * 1000000 op scaled`, where the conversion faults outside `promotable`.
      let inRange =
        Formula.literal(.constraint(variable, .atLeast(AnalysisKey(word: promotable.lowerBound))))
        && .literal(.constraint(variable, .atMost(AnalysisKey(word: promotable.upperBound))))
      let faults =
        Formula.literal(.constraint(variable, .atMost(AnalysisKey(word: promotable.lowerBound - 1))))
        || .literal(.constraint(variable, .atLeast(AnalysisKey(word: promotable.upperBound + 1))))
      let converted = integerRelation(op, variable, scaled: number.scaled)
      return Outcome(holds: inRange && converted, fails: inRange && converted.negated, faults: faults)
    case .extremum(let isMinimum, let terms, _):
      guard op != .equal && op != .notEqual, !terms.contains(where: \.canFault) else { return nil }
      var parts: [Outcome] = []
      for inner in terms {
        if case .constant(let value) = inner {
          parts.append(.constant(op.holds(forOrdering: value.ordering(comparedWith: constant))))
          continue
        }
        guard let part = self.constraint(inner, op, constant), part.faults.isFalse else { return nil }
        parts.append(part)
      }
      // max(a, b) > c: some operand is; max(a, b) < c: every operand is. min is the dual.
      let greater = op == .greater || op == .greaterEqual
      let some = greater != isMinimum
      return some
        ? Outcome(holds: .any(parts.map(\.holds)), fails: .all(parts.map(\.fails)))
        : Outcome(holds: .all(parts.map(\.holds)), fails: .any(parts.map(\.fails)))
    default:
      return nil
    }
  }

  /// `int * 1000000 op scaled` as a constraint on the int.
  static func integerRelation(_ op: ComparisonOperator, _ variable: AnalysisVariable, scaled: Int64) -> Formula {
    let scale = Number.scale
    let floor = Timestamp.floorDivide(scaled, scale)
    let exact = scaled % scale == 0
    let ceiling = exact ? floor : floor + 1
    switch op {
    case .equal: return exact ? relation(.equal, variable, AnalysisKey(word: floor)) : .false
    case .notEqual: return exact ? relation(.notEqual, variable, AnalysisKey(word: floor)) : .true
    case .less: return relation(.less, variable, AnalysisKey(word: ceiling))
    case .lessEqual: return relation(.lessEqual, variable, AnalysisKey(word: floor))
    case .greater: return relation(.greater, variable, AnalysisKey(word: floor))
    case .greaterEqual: return relation(.greaterEqual, variable, AnalysisKey(word: ceiling))
    }
  }

  /// The outcome of `lhs op rhs` for two case terms.
  func compare(_ op: ComparisonOperator, _ lhs: Term, _ rhs: Term) -> Outcome {
    if lhs == .failure || rhs == .failure { return .alwaysFaults }
    if case .constant(let l) = lhs, case .constant(let r) = rhs {
      return .constant(op.holds(forOrdering: l.ordering(comparedWith: r)))
    }
    var op = op
    var lhs = lhs
    var rhs = rhs
    if case .constant = lhs {
      swap(&lhs, &rhs)
      op = op.swapped
    }
    if case .constant(let constant) = rhs, let outcome = PolicyTranslator.constraint(lhs, op, constant) {
      return outcome
    }
    // `fact op now` is `now - fact op' 0`: a constraint on the fact's age.
    if case .value(let name, .instant) = lhs, rhs == .now {
      let formula = PolicyTranslator.relation(
        op.swapped, AnalysisVariable(name: name, isAge: true, kind: .age), AnalysisKey(word: 0))
      return Outcome(holds: formula, fails: formula.negated)
    }
    if lhs == .now, case .value(let name, .instant) = rhs {
      let formula = PolicyTranslator.relation(
        op, AnalysisVariable(name: name, isAge: true, kind: .age), AnalysisKey(word: 0))
      return Outcome(holds: formula, fails: formula.negated)
    }
    let outcome = opaqueOutcome(.compare(op, lhs, rhs), canFault: lhs.canFault || rhs.canFault)
    // Two facts of one ordered type: the atom also states their order, where it holds and where
    // it fails (a comparison of two present values does one or the other).
    guard let (left, right) = PolicyTranslator.orderVariables(lhs, rhs) else { return outcome }
    return Outcome(
      holds: outcome.holds && PolicyTranslator.order(op, left, right),
      fails: outcome.fails && PolicyTranslator.order(PolicyTranslator.failing(op), left, right),
      faults: outcome.faults)
  }

  /// The outcome of `term in values` (or `not in`).
  func membership(_ negated: Bool, _ term: Term, _ values: [Value]) -> Outcome {
    if term == .failure { return .alwaysFaults }
    if case .constant(let value) = term {
      return .constant(values.contains(value) != negated)
    }
    if let variable = PolicyTranslator.variable(for: term) {
      let relation: Relation
      if variable.kind == .string {
        let texts = Set(
          values.compactMap { value -> String? in
            if case .string(let text) = value { return text }
            return nil
          })
        relation = negated ? .textNoneOf(texts) : .textOneOf(texts)
      } else {
        let keys = Set(values.compactMap(PolicyTranslator.key(of:)))
        relation = negated ? .noneOf(keys) : .oneOf(keys)
      }
      let formula = Formula.literal(.constraint(variable, relation))
      return Outcome(holds: formula, fails: formula.negated)
    }
    if case .promote(let inner) = term, let variable = PolicyTranslator.variable(for: inner), variable.kind == .int {
      var keys = Set<AnalysisKey>()
      for case .number(let number) in values where number.scaled % Number.scale == 0 {
        keys.insert(AnalysisKey(word: number.scaled / Number.scale))
      }
      let range = PolicyTranslator.promotable
      let inRange =
        Formula.literal(.constraint(variable, .atLeast(AnalysisKey(word: range.lowerBound))))
        && .literal(.constraint(variable, .atMost(AnalysisKey(word: range.upperBound))))
      let faults =
        Formula.literal(.constraint(variable, .atMost(AnalysisKey(word: range.lowerBound - 1))))
        || .literal(.constraint(variable, .atLeast(AnalysisKey(word: range.upperBound + 1))))
      let member = Formula.literal(.constraint(variable, .oneOf(keys)))
      let holds = negated ? member.negated : member
      return Outcome(holds: inRange && holds, fails: inRange && holds.negated, faults: faults)
    }
    return opaqueOutcome(.membership(negated, term, values), canFault: term.canFault)
  }

  /// The outcome of a `bool` term used as a condition.
  func truth(_ term: Term) -> Outcome {
    switch term {
    case .failure: return .alwaysFaults
    case .constant(.bool(let value)): return .constant(value)
    case .value(let name, .bool):
      let formula = Formula.literal(
        .constraint(AnalysisVariable(name: name, isAge: false, kind: .bool), .oneOf([AnalysisKey(word: 1)])))
      return Outcome(holds: formula, fails: formula.negated)
    default:
      return opaqueOutcome(.truth(term), canFault: term.canFault)
    }
  }

  // MARK: - Canonical text

  /// A text that identifies what `expr` computes: facts by name, `let`s inlined.
  mutating func canonicalText(_ expr: TypedExpr) -> String {
    switch expr.node {
    case .constant(let value): return "\(value.type):\(value)"
    case .fact(let slot): return "$" + layout.slots[slot].name
    case .letValue(let index):
      if let known = letTexts[index] { return known }
      // A `let` is named by the number of its value's text in the shared table, so texts stay
      // short and the same value has the same name in two policies.
      let text = "L\(table.textID(lets[index].value.map { canonicalText($0) } ?? "let#\(index)"))"
      letTexts[index] = text
      return text
    case .now: return "now"
    case .has(.fact(let slot)): return "has($\(layout.slots[slot].name))"
    case .has(.letValue(let index)):
      guard let value = lets[index].value else { return "has(let#\(index))" }
      return "has(" + canonicalText(TypedExpr(.letValue(index), value.type, range: value.range)) + ")"
    case .not(let inner): return "not(\(canonicalText(inner)))"
    case .logical(let op, let operands):
      return "\(op.rawValue)(" + operands.map { canonicalText($0) }.joined(separator: ",") + ")"
    case .compare(let op, let lhs, let rhs): return "(\(canonicalText(lhs))\(op.rawValue)\(canonicalText(rhs)))"
    case .membership(let negated, let operand, let values):
      return "\(negated ? "notin" : "in")(\(canonicalText(operand)),["
        + values.map(\.description).joined(separator: ",") + "])"
    case .arithmetic(let operation, let lhs, let rhs):
      return "\(operation.rawValue)(\(canonicalText(lhs)),\(canonicalText(rhs)))"
    case .negate(let inner): return "neg(\(canonicalText(inner)))"
    case .coalesce(let lhs, let rhs): return "coalesce(\(canonicalText(lhs)),\(canonicalText(rhs)))"
    case .since(let inner): return "since(\(canonicalText(inner)))"
    case .extremum(let isMinimum, let operands):
      return (isMinimum ? "min(" : "max(") + operands.map { canonicalText($0) }.joined(separator: ",") + ")"
    case .promote(let inner): return "number(\(canonicalText(inner)))"
    case .call(let function, let arguments):
      return "\(function.name)(" + arguments.map { canonicalText($0) }.joined(separator: ",") + ")"
    case .bucket(let name, _): return "bucket(\(StringLiteral.quoted(name)))"
    }
  }
}
