/// Facts that describe one span of time, such as "this version" or "the whole install": a
/// policy's rule reads facts of one scope, and advice about it names facts of the same scope.
public struct FactScope: Sendable, Hashable {
  /// What the span is, such as "this version".
  public var name: String
  /// The plain facts and keyed families of the scope.
  public var facts: [String]

  /// Creates a scope.
  public init(_ name: String, facts: [String]) {
    self.name = name
    self.facts = facts
  }
}

/// A bound that every real snapshot of the facts satisfies: ``lower`` is at most ``upper``.
///
/// For ints, numbers, durations and versions it is `lower <= upper`; for instants, ``lower`` is
/// not after ``upper``; for bools, ``lower`` implies ``upper``. Both are plain facts, or both
/// keyed families with keys of one type, bound member by member (`events("x") <= total_events("x")`).
/// A bound also pairs a fact with its counterpart in another ``FactScope`` (`days` and `total_days`).
public struct FactBound: Sendable, Hashable {
  /// The fact (or family) that is at most the other.
  public var lower: String
  /// The fact (or family) that is at least the other.
  public var upper: String
  /// Why the bound holds, as a clause: "this version's days are part of all versions' days".
  public var reason: String

  /// Creates a bound `lower <= upper`.
  public init(_ lower: String, atMost upper: String, because reason: String) {
    self.lower = lower
    self.upper = upper
    self.reason = reason
  }

  /// Whether `lower` and `upper`, the values of this bound's facts, break it. Values of
  /// different types, strings and absent values never do.
  package func isBroken(lower: Value, upper: Value) -> Bool {
    switch (lower, upper) {
    case (.bool(let a), .bool(let b)): a && !b
    case (.int(let a), .int(let b)): a > b
    case (.number(let a), .number(let b)): a > b
    case (.duration(let a), .duration(let b)): a > b
    case (.instant(let a), .instant(let b)): a > b
    case (.version(let a), .version(let b)): a > b
    case (.bool, _), (.int, _), (.number, _), (.duration, _), (.instant, _), (.version, _), (.string, _): false
    }
  }
}

extension FactSchema {
  /// The schema with `scopes` and `bounds` added, validated: every name is a fact or a family
  /// of the schema; a bound joins two plain facts of one ordered type (or `bool`), or two
  /// families with keys and values of one type.
  public func relating(scopes: [FactScope], bounds: [FactBound]) throws(DefinitionError) -> FactSchema {
    func exists(_ name: String) -> Bool { fact(named: name) != nil || family(named: name) != nil }
    for scope in scopes {
      for name in scope.facts where !exists(name) { throw .invalidRelation(name) }
    }
    for bound in bounds {
      if let lower = fact(named: bound.lower), let upper = fact(named: bound.upper) {
        guard lower.type == upper.type, lower.type != .string else { throw .invalidRelation(bound.lower) }
      } else if let lower = family(named: bound.lower), let upper = family(named: bound.upper) {
        guard lower.type == upper.type, lower.keyType == upper.keyType, lower.type != .string else {
          throw .invalidRelation(bound.lower)
        }
      } else {
        throw .invalidRelation(bound.lower)
      }
    }
    var result = self
    result.scopes = scopes
    result.bounds = bounds
    return result
  }

  /// The scope that `name` (a plain fact or a family) belongs to, if any.
  public func scope(of name: String) -> FactScope? {
    scopes.first { $0.facts.contains(name) }
  }

  /// The fact that a bound pairs with `name` and that belongs to `scope`: `days` in "the whole
  /// install" is `total_days`. `name` itself when it belongs to `scope`.
  public func counterpart(of name: String, in scope: FactScope) -> String? {
    if scope.facts.contains(name) { return name }
    for bound in bounds {
      if bound.lower == name && scope.facts.contains(bound.upper) { return bound.upper }
      if bound.upper == name && scope.facts.contains(bound.lower) { return bound.lower }
    }
    return nil
  }
}
