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
public struct Fault: Sendable, Hashable {
  /// What happened.
  public var kind: FaultKind
  /// The index of the rule being evaluated, or nil for a fault in the facts themselves.
  public var rule: Int?
  /// The expression that faulted (empty for facts faults).
  public var range: SourceRange

  /// Creates a fault.
  public init(kind: FaultKind, rule: Int?, range: SourceRange) {
    self.kind = kind
    self.rule = rule
    self.range = range
  }
}

/// The indices of the rules that decided, stored inline so deciding allocates nothing.
///
/// At most ``capacity`` indices are kept; ``totalCount`` is always exact.
public struct RuleIndices: Sendable, Hashable, RandomAccessCollection {
  /// How many indices are stored inline.
  public static let capacity = 8
  private var storage: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
  private var storedCount = 0
  /// How many rules decided, including any beyond ``capacity``.
  public private(set) var totalCount = 0

  /// An empty set.
  public init() {}

  mutating func append(_ index: Int) {
    if storedCount < RuleIndices.capacity {
      withUnsafeMutableBytes(of: &storage) { buffer in
        buffer.storeBytes(of: Int32(truncatingIfNeeded: index), toByteOffset: storedCount * 4, as: Int32.self)
      }
      storedCount += 1
    }
    totalCount += 1
  }

  /// The first position.
  public var startIndex: Int { 0 }
  /// One past the last stored position.
  public var endIndex: Int { storedCount }

  /// The rule index at `position`.
  public subscript(position: Int) -> Int {
    withUnsafeBytes(of: storage) { buffer in
      Int(buffer.load(fromByteOffset: position * 4, as: Int32.self))
    }
  }

  /// Whether more rules decided than are stored.
  public var isTruncated: Bool { totalCount > storedCount }

  /// Whether both hold the same rules in the same order and the same total.
  public static func == (lhs: RuleIndices, rhs: RuleIndices) -> Bool {
    lhs.totalCount == rhs.totalCount && lhs.elementsEqual(rhs)
  }

  /// Hashes the total and the stored indices.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(totalCount)
    for index in self { hasher.combine(index) }
  }
}

/// The result of evaluating a policy: ask or not, why, and which rules decided.
///
/// The rules are: if any `never` rule holds, don't ask; otherwise, if any `ask`
/// rule holds, ask; otherwise don't ask. A faulted `never` rule counts as
/// holding and a faulted `ask` rule as not holding, so a fault never asks.
public struct Decision: Sendable, Hashable {
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
  public init(shouldAsk: Bool, reason: DecisionReason, decidingRules: RuleIndices, firstFault: Fault?, faultCount: Int) {
    self.shouldAsk = shouldAsk
    self.reason = reason
    self.decidingRules = decidingRules
    self.firstFault = firstFault
    self.faultCount = faultCount
  }
}
