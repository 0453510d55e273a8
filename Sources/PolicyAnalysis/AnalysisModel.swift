import PolicyCore

// The vocabulary of the policy analyzer: variables, their domains, literals and formulas.
//
// A policy is analysed by translating every rule into propositional formulas over
// *literals*. A literal constrains one variable:
//
// - the presence of a fact that can be absent (`has last_login`);
// - the value of a fact (`days >= 30`, `plan in ["pro"]`, `version < v3.0.3`);
// - the age of an instant fact, `now - fact` (`since(last_login) < 8w`);
// - an opaque atom: any other comparison (`uses / days > 3`, `version > previous_version`),
//   treated as an unknown that holds, fails or faults; identical atoms share one unknown.
//
// Values of ordered types are mapped to ``AnalysisKey``s, 128-bit keys whose order is the
// language's order, so one interval-and-set domain serves ints, numbers, durations, ages,
// versions and bools.

/// A 128-bit ordered key standing for one value of an ordered type (or a bool).
struct AnalysisKey: Hashable, Comparable, Sendable {
  var high: UInt64
  var low: UInt64

  static let signBit: UInt64 = 0x8000_0000_0000_0000

  /// The key of a storage word (int, number, duration, instant, bool), in signed order.
  init(word: Int64) {
    high = 0
    low = UInt64(bitPattern: word) ^ AnalysisKey.signBit
  }

  /// The key of a version.
  init(version: Version) {
    high = version.high
    low = version.low
  }

  init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The storage word this key stands for (for word-sized kinds).
  var word: Int64 { Int64(bitPattern: low ^ AnalysisKey.signBit) }

  /// The version this key stands for.
  var version: Version { Version(high: high, low: low) }

  /// The next key (wrapping at the top; callers check against the domain's bounds first).
  var successor: AnalysisKey {
    low == .max ? AnalysisKey(high: high &+ 1, low: 0) : AnalysisKey(high: high, low: low + 1)
  }

  /// The previous key (wrapping at the bottom; callers check against the domain's bounds first).
  var predecessor: AnalysisKey {
    low == 0 ? AnalysisKey(high: high &- 1, low: .max) : AnalysisKey(high: high, low: low - 1)
  }

  static func < (lhs: AnalysisKey, rhs: AnalysisKey) -> Bool {
    (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }
}

/// What kind of values a variable ranges over.
enum VariableKind: Hashable, Sendable {
  /// A 64-bit int.
  case int
  /// A number (scaled word).
  case number
  /// A duration fact: every word, `Int64.max` being the infinite duration.
  case duration
  /// The age `now - instant` of a present instant fact: every finite duration.
  case age
  /// A version.
  case version
  /// A bool (0 or 1).
  case bool
  /// A string (unordered: equality with literals only).
  case string

  /// The smallest key of the kind.
  var minimum: AnalysisKey {
    switch self {
    case .version: AnalysisKey(high: 0, low: 0)
    case .bool: AnalysisKey(word: 0)
    default: AnalysisKey(word: .min)
    }
  }

  /// The largest key of the kind.
  var maximum: AnalysisKey {
    switch self {
    case .version: AnalysisKey(high: .max, low: .max)
    case .bool: AnalysisKey(word: 1)
    case .age: AnalysisKey(word: .max - 1)
    default: AnalysisKey(word: .max)
    }
  }

  /// The kind of a fact's value of `type`, nil for instants (which are analysed by age).
  init?(valueOf type: PolicyType) {
    switch type {
    case .int: self = .int
    case .number: self = .number
    case .duration: self = .duration
    case .version: self = .version
    case .bool: self = .bool
    case .string: self = .string
    case .instant: return nil
    }
  }
}

/// A variable of the analysis, named by fact so two policies share their variables.
struct AnalysisVariable: Hashable, Sendable, Comparable {
  /// The fact's name, such as `days` or `events("export")`.
  var name: String
  /// Whether this is the age `now - fact` of an instant fact rather than its value.
  var isAge: Bool
  /// The kind of values.
  var kind: VariableKind

  static func < (lhs: AnalysisVariable, rhs: AnalysisVariable) -> Bool {
    (lhs.name, lhs.isAge ? 1 : 0) < (rhs.name, rhs.isAge ? 1 : 0)
  }
}

/// A constraint on one variable.
enum Relation: Hashable, Sendable {
  /// At least the key.
  case atLeast(AnalysisKey)
  /// At most the key.
  case atMost(AnalysisKey)
  /// One of the keys.
  case oneOf(Set<AnalysisKey>)
  /// None of the keys.
  case noneOf(Set<AnalysisKey>)
  /// One of the strings.
  case textOneOf(Set<String>)
  /// None of the strings.
  case textNoneOf(Set<String>)
}

/// An atomic proposition.
enum Proposition: Hashable, Sendable {
  /// The fact is present (`true`) or absent (`false`).
  case present(String, Bool)
  /// The variable satisfies the relation.
  case constraint(AnalysisVariable, Relation)
  /// Opaque atom `id` holds (`true`) or does not (`false`), given it does not fault.
  case opaqueHolds(Int, Bool)
  /// Opaque atom `id` faults (`true`) or does not (`false`).
  case opaqueFaults(Int, Bool)
  /// The first variable is below (`strict`) or at most the second, both of present facts: what
  /// a comparison of two facts states where it holds or fails (see ``OrderEdge``).
  case order(AnalysisVariable, AnalysisVariable, strict: Bool)

  /// The literal that holds exactly when this one does not, as a formula (it may be constant).
  var negation: Formula {
    switch self {
    case .present(let name, let value): return .literal(.present(name, !value))
    case .opaqueHolds(let id, let value): return .literal(.opaqueHolds(id, !value))
    case .opaqueFaults(let id, let value): return .literal(.opaqueFaults(id, !value))
    case .order(let lower, let upper, let strict): return .literal(.order(upper, lower, strict: !strict))
    case .constraint(let variable, let relation):
      switch relation {
      case .atLeast(let key):
        if key <= variable.kind.minimum { return .false }
        return .literal(.constraint(variable, .atMost(key.predecessor)))
      case .atMost(let key):
        if key >= variable.kind.maximum { return .false }
        return .literal(.constraint(variable, .atLeast(key.successor)))
      case .oneOf(let keys): return .literal(.constraint(variable, .noneOf(keys)))
      case .noneOf(let keys): return .literal(.constraint(variable, .oneOf(keys)))
      case .textOneOf(let texts): return .literal(.constraint(variable, .textNoneOf(texts)))
      case .textNoneOf(let texts): return .literal(.constraint(variable, .textOneOf(texts)))
      }
    }
  }
}

/// A propositional formula over literals, kept flat and simplified by its constructors.
indirect enum Formula: Hashable, Sendable {
  /// A constant.
  case constant(Bool)
  /// A literal.
  case literal(Proposition)
  /// Every operand holds (two or more operands).
  case and([Formula])
  /// Some operand holds (two or more operands).
  case or([Formula])

  static let `true` = Formula.constant(true)
  static let `false` = Formula.constant(false)

  /// The conjunction, flattened and simplified.
  static func all(_ operands: [Formula]) -> Formula {
    var parts: [Formula] = []
    for operand in operands {
      switch operand {
      case .constant(true): continue
      case .constant(false): return .false
      case .and(let inner): parts.append(contentsOf: inner)
      default: parts.append(operand)
      }
    }
    if parts.isEmpty { return .true }
    if parts.count == 1 { return parts[0] }
    return .and(parts)
  }

  /// The disjunction, flattened and simplified.
  static func any(_ operands: [Formula]) -> Formula {
    var parts: [Formula] = []
    for operand in operands {
      switch operand {
      case .constant(false): continue
      case .constant(true): return .true
      case .or(let inner): parts.append(contentsOf: inner)
      default: parts.append(operand)
      }
    }
    if parts.isEmpty { return .false }
    if parts.count == 1 { return parts[0] }
    return .or(parts)
  }

  /// `lhs and rhs`.
  static func && (lhs: Formula, rhs: Formula) -> Formula { all([lhs, rhs]) }
  /// `lhs or rhs`.
  static func || (lhs: Formula, rhs: Formula) -> Formula { any([lhs, rhs]) }

  /// The negation (De Morgan down to literals). Only used on small formulas (presence guards).
  var negated: Formula {
    switch self {
    case .constant(let value): return .constant(!value)
    case .literal(let literal): return literal.negation
    case .and(let operands): return .any(operands.map(\.negated))
    case .or(let operands): return .all(operands.map(\.negated))
    }
  }

  /// Whether this is the constant `false`.
  var isFalse: Bool { self == .constant(false) }
}

/// The three ways an evaluation of a condition can end, each as a formula over the facts.
///
/// At most one holds for any facts. Where none does, the condition is not evaluated (a `has`
/// guard earlier in the chain already decided).
struct Outcome: Hashable, Sendable {
  /// The condition evaluates to true.
  var holds: Formula
  /// The condition evaluates to false.
  var fails: Formula
  /// Evaluating the condition faults.
  var faults: Formula

  /// A condition without faults.
  init(holds: Formula, fails: Formula, faults: Formula = .false) {
    self.holds = holds
    self.fails = fails
    self.faults = faults
  }

  /// A constant condition.
  static func constant(_ value: Bool) -> Outcome {
    Outcome(holds: .constant(value), fails: .constant(!value))
  }

  /// A condition that always faults.
  static let alwaysFaults = Outcome(holds: .false, fails: .false, faults: .true)

  /// The outcome of `not` this condition.
  var negated: Outcome { Outcome(holds: fails, fails: holds, faults: faults) }

  /// Restricts the outcome to facts where `guard` holds.
  func guarded(by guardFormula: Formula) -> Outcome {
    Outcome(holds: guardFormula && holds, fails: guardFormula && fails, faults: guardFormula && faults)
  }
}
