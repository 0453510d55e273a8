/// Why a decision came out the way it did.
public enum DecisionReason: String, Sendable, Hashable {
  /// A `never` rule held (or faulted, which counts as holding): don't ask.
  case neverRuleHeld
  /// No `never` rule held and an `ask` rule held: ask.
  case askRuleHeld
  /// No rule held: don't ask.
  case noAskRuleHeld
  /// The facts could not be evaluated (missing facts, or a snapshot for another policy): don't ask.
  case invalidFacts
}

/// What went wrong during an evaluation. A fault never makes a policy ask.
public enum FaultKind: String, Sendable, Hashable, CaseIterable {
  /// Integer, number, duration or instant arithmetic left its range.
  case overflow
  /// Division or remainder by zero.
  case divisionByZero
  /// Arithmetic on the infinite duration that has no value (such as `since(x) - since(y)` when both are infinite).
  case infiniteDuration
  /// A fact that cannot be absent has no value.
  case missingFact
  /// The snapshot was made for another policy.
  case foreignFacts
}

/// One evaluation fault, located in the policy.
public struct Fault: Sendable, Equatable {
  /// What happened.
  public var kind: FaultKind
  /// The index of the rule being evaluated, or nil for a fault in the facts themselves.
  public var rule: Int?
  /// The expression that faulted (empty for facts faults).
  public var range: SourceRange
}

/// The indices of the rules that decided, as a set listed in rule order.
///
/// Rules 0 to 255 are kept in an inline bit set, so deciding allocates nothing
/// for any policy of up to 256 rules; a larger index that decides is kept in a
/// side array (allocated only then). The set is complete whatever the rule order.
public struct RuleIndices: Sendable, Equatable, Sequence {
  /// How many rule indices the inline bit set holds.
  static let inlineCapacity = 256
  private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  /// Rules past the inline bit set, sorted (appended in rule order, so inserting is linear overall); nil (no reference counting) until one decides.
  private var spilled: [Int]?
  /// The number of rules in the set.
  public private(set) var count = 0

  /// An empty set.
  package init() {}

  /// Adds the `count` rules 0 to 63 whose bits are set in `word`, each not yet in the set.
  mutating func insertFirstSixtyFour(_ word: UInt64, count: Int) {
    bits.0 |= word
    self.count += count
  }

  /// Adds rule `index`; each rule is inserted at most once per decision.
  mutating func insert(_ index: Int) {
    if index >= 0 && index < RuleIndices.inlineCapacity {
      let mask = UInt64(1) << UInt64(index & 63)
      switch index >> 6 {
      case 0: bits.0 |= mask
      case 1: bits.1 |= mask
      case 2: bits.2 |= mask
      default: bits.3 |= mask
      }
    } else if spilled == nil {
      spilled = [index]
    } else if let last = spilled?.last, index > last {
      // Rules are visited in order, so an index past the last one is appended: linear in the rules that decide.
      spilled?.append(index)
    } else {
      let position = spilledPosition(of: index)
      if let rules = spilled, position < rules.count && rules[position] == index { return }
      spilled?.insert(index, at: position)
    }
    count += 1
  }

  /// The position of the first spilled index not below `index` (binary search).
  private func spilledPosition(of index: Int) -> Int {
    guard let rules = spilled else { return 0 }
    var low = 0
    var high = rules.count
    while low < high {
      let middle = low + (high - low) / 2
      if rules[middle] < index { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private func word(_ number: Int) -> UInt64 {
    switch number {
    case 0: bits.0
    case 1: bits.1
    case 2: bits.2
    default: bits.3
    }
  }

  /// Whether rule `index` is in the set.
  public func contains(_ index: Int) -> Bool {
    if index >= 0 && index < RuleIndices.inlineCapacity {
      return word(index >> 6) & (UInt64(1) << UInt64(index & 63)) != 0
    }
    guard let rules = spilled else { return false }
    let position = spilledPosition(of: index)
    return position < rules.count && rules[position] == index
  }

  /// Whether the set is empty.
  public var isEmpty: Bool { count == 0 }

  /// Iterates the rule indices in ascending order.
  public func makeIterator() -> Iterator {
    Iterator(set: self)
  }

  /// Iterates a ``RuleIndices`` in ascending order.
  public struct Iterator: IteratorProtocol {
    let set: RuleIndices
    var position = 0
    var spilledPosition = 0

    /// The next rule index, or nil at the end.
    public mutating func next() -> Int? {
      while position < RuleIndices.inlineCapacity {
        let word = set.word(position >> 6) >> UInt64(position & 63)
        if word == 0 {
          position = (position | 63) + 1
          continue
        }
        let found = position + word.trailingZeroBitCount
        position = found + 1
        return found
      }
      guard let spilled = set.spilled, spilledPosition < spilled.count else { return nil }
      spilledPosition += 1
      return spilled[spilledPosition - 1]
    }
  }

  /// Whether both sets hold the same rules.
  public static func == (lhs: RuleIndices, rhs: RuleIndices) -> Bool {
    lhs.count == rhs.count && lhs.bits == rhs.bits && lhs.spilled == rhs.spilled
  }

  /// Hashes the rules in the set.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for index in self { hasher.combine(index) }
  }
}

/// The result of evaluating a policy: ask or not, why, and which rules decided.
///
/// The rules are: if any `never` rule holds, don't ask; otherwise, if any `ask`
/// rule holds, ask; otherwise don't ask. A faulted `never` rule counts as
/// holding and a faulted `ask` rule as not holding, so a fault never asks.
public struct Decision: Sendable, Equatable {
  /// Whether to ask the user now.
  public var shouldAsk: Bool
  /// Why.
  public var reason: DecisionReason
  /// The rules that decided: every `never` rule that held or faulted, or every `ask` rule that held.
  public var decidingRules: RuleIndices
  /// The first fault, if any rule faulted.
  public var firstFault: Fault?
  /// How many rules faulted.
  public var faultCount: Int

  /// Creates a decision.
  package init(shouldAsk: Bool, reason: DecisionReason, decidingRules: RuleIndices, firstFault: Fault?, faultCount: Int)
  {
    self.shouldAsk = shouldAsk
    self.reason = reason
    self.decidingRules = decidingRules
    self.firstFault = firstFault
    self.faultCount = faultCount
  }
}
