/// Facts that describe one span of time, such as "this version" or "the whole install": a
/// policy's rule reads facts of one scope, and advice about it names facts of the same scope.
public struct FactScope: Sendable, Equatable {
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
/// keyed families with keys of one type, bound member by member (`events("x") <= total_events("x")`),
/// or ``lower`` is a family whose every member is at most the plain fact ``upper``. The bound
/// applies when both facts are present.
///
/// A bound also pairs a fact with its counterpart in another ``FactScope`` (`days` and `total_days`).
public struct FactBound: Sendable, Equatable {
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
    FactRelation.isOrdered(lower, after: upper)
  }
}

/// A condition on one fact: what makes an optional fact present, in a
/// ``FactRelation/Kind/presence(_:when:)`` relation, or when a ``FactRelation/Kind/boundWhen(_:when:)``
/// bound applies.
public enum PresenceCondition: Sendable, Equatable {
  /// An optional fact is present.
  case present(String)
  /// An optional fact is absent (for a conditional bound only).
  case absent(String)
  /// An `int` fact is at least 1.
  case positive(String)
  /// A `bool` fact is true.
  case isTrue(String)

  /// The fact the condition reads.
  public var fact: String {
    switch self {
    case .present(let name), .absent(let name), .positive(let name), .isTrue(let name): name
    }
  }

  /// Whether the condition holds for `value`, the value of its fact (nil: absent); nil when the
  /// value is of another type.
  public func holds(for value: Value?) -> Bool? {
    switch (self, value) {
    case (.present, let value): value != nil
    case (.absent, let value): value == nil
    case (.positive, .int(let count)?): count >= 1
    case (.isTrue, .bool(let flag)?): flag
    case (.positive, _), (.isTrue, _): nil
    }
  }

  /// The condition in a few words: "`a` is present", "`b` >= 1".
  var statement: String { statement(isFamily: false) }

  /// The condition in a few words, its fact a family's member (`f(k)`) when `isFamily`.
  func statement(isFamily: Bool) -> String {
    let name = isFamily ? "`\(fact)(k)`" : "`\(fact)`"
    switch self {
    case .present: return "\(name) is present"
    case .absent: return "\(name) is absent"
    case .positive: return "\(name) >= 1"
    case .isTrue: return "\(name) is true"
    }
  }
}

/// A relation that every real snapshot of a host's facts satisfies, stated as data so the
/// language's tools can rule out fact sets no real history produces: the analyzer's witnesses
/// and counterexamples, facts files, explanations.
///
/// Relations name facts and families of the schema; a relation that names facts a policy does
/// not have constrains nothing.
public struct FactRelation: Sendable, Equatable {
  /// The kinds of relations.
  public enum Kind: Sendable, Equatable {
    /// `lower <= upper`, see ``FactBound``.
    case bound(FactBound)
    /// `lower <= upper` wherever the condition holds (see ``FactBound``). The condition's fact
    /// is a plain fact, or, for ``PresenceCondition/present(_:)`` and
    /// ``PresenceCondition/absent(_:)``, an optional family, whose condition holds where it
    /// holds for one of its members.
    case boundWhen(FactBound, when: PresenceCondition)
    /// A plain fact, or every member of a family, is at least the value (of the fact's type).
    case minimum(String, Value)
    /// An instant fact, or every member of a family of instants, is not after `now`.
    case notAfterNow(String)
    /// The members of a family keyed by an ordered key grow with the key: `f(a) <= f(b)` for `a <= b`.
    case increasing(String)
    /// The optional fact is present exactly when the condition holds.
    case presence(String, when: PresenceCondition)
    /// The `int` fact `count` is the number of whole `unit`s from the instant fact `since` to `now`.
    case wholeUnits(count: String, since: String, unit: TimeSpan)
    /// The family `family`, keyed by a duration, counts occurrences within the window before
    /// `now`, and the optional instant fact `latest` is the latest occurrence: `family(w) >= 1`
    /// exactly when `latest` is present and `since(latest) < w`.
    case window(family: String, latest: String)
    /// Two facts of one type never have the same value when both are present.
    case distinct(String, String)
    /// The family `family`, keyed by a duration, counts occurrences within the window before
    /// `now`; the `int` fact `count` counts occurrences none of which is before the instant fact
    /// `since`, and the optional instant fact `latest` is the latest occurrence. The family
    /// remembers at most `kept` occurrences, those at most `longest` before the latest one, so
    /// `min(count, kept) <= family(w)` wherever `since` is less than w before now and `latest` is
    /// at most `longest` after `since`.
    case windowCovers(family: String, count: String, since: String, latest: String, longest: TimeSpan, kept: Int64)
    /// `lower <= upper` wherever the `int` fact `fact` is at most the `int` fact `limit`.
    case boundWhenAtMost(FactBound, fact: String, limit: String)
    /// `lower <= upper` wherever the fact `fact` is above (for instants: after) the fact `limit`
    /// of the same type, both present.
    case boundWhenAbove(FactBound, fact: String, limit: String)
    /// The optional plain fact, or every member of the optional family, `name` is present
    /// wherever the `int` fact `count` is at least `minimum` (it may be present below it too).
    case presentFrom(String, count: String, minimum: Int64)
    /// The members of the optional `int`-keyed family `family` whose keys are at least `fromKey`
    /// are all present or all absent (members below `fromKey` are not constrained), and present
    /// wherever the optional plain fact `whenPresent`, if any, is present.
    case presentTogether(family: String, fromKey: Int64, whenPresent: String?)
    /// The members of the `int` family `family` add up to at most the `int` fact `total`.
    case membersSum(family: String, atMost: String)
  }

  /// What the relation states.
  public var kind: Kind
  /// Why it holds, as a clause: "this version's days are part of all versions' days".
  public var reason: String

  /// Creates a relation.
  @inline(never)
  public init(_ kind: Kind, because reason: String) {
    self.kind = kind
    self.reason = reason
  }

  /// The bound `lower <= upper`.
  public static func bound(_ lower: String, atMost upper: String, because reason: String) -> FactRelation {
    FactRelation(.bound(FactBound(lower, atMost: upper, because: reason)), because: reason)
  }

  /// The facts and families the relation names.
  public var names: [String] {
    switch kind {
    case .bound(let bound): [bound.lower, bound.upper]
    case .boundWhen(let bound, let condition): [bound.lower, bound.upper, condition.fact]
    case .minimum(let name, _), .notAfterNow(let name), .increasing(let name): [name]
    case .presence(let name, let condition): [name, condition.fact]
    case .wholeUnits(let count, let since, _): [count, since]
    case .window(let family, let latest): [family, latest]
    case .distinct(let first, let second): [first, second]
    case .windowCovers(let family, let count, let since, let latest, _, _): [count, family, since, latest]
    case .presentTogether(let family, _, let other): [family] + (other.map { [$0] } ?? [])
    case .membersSum(let family, let total): [family, total]
    case .presentFrom(let name, let count, _): [name, count]
    case .boundWhenAtMost(let bound, let fact, let limit), .boundWhenAbove(let bound, let fact, let limit):
      [bound.lower, bound.upper, fact, limit]
    }
  }

  /// The relation in a few words, with its facts in backticks: "`a` <= `total_a`",
  /// "`flag` implies `flag_any`", "`last_b` is present exactly when `total_b` >= 1".
  /// `schema` gives the facts' types (bounds between bools and instants read differently).
  public func statement(in schema: FactSchema) -> String {
    statement(
      type: { schema.valueType(of: $0) },
      isFamilyOnly: { schema.family(named: $0) != nil && schema.fact(named: $0) == nil })
  }

  /// The relation in a few words (see ``statement(in:)``), with `type` giving a fact's (or a
  /// family's) value type and `isFamilyOnly` whether a name is a family but no plain fact.
  package func statement(type: (String) -> PolicyType?, isFamilyOnly: (String) -> Bool) -> String {
    switch kind {
    case .boundWhen(let bound, let condition):
      let inner = FactRelation(.bound(bound), because: reason).statement(type: type, isFamilyOnly: isFamilyOnly)
      return "when \(condition.statement(isFamily: isFamilyOnly(condition.fact))), \(inner)"
    case .bound(let bound):
      let type = type(bound.lower)
      let members = isFamilyOnly(bound.lower)
      let lower = members ? "`\(bound.lower)(k)`" : "`\(bound.lower)`"
      let upper = members && isFamilyOnly(bound.upper) ? "`\(bound.upper)(k)`" : "`\(bound.upper)`"
      switch type {
      case .bool?: return "\(lower) implies \(upper)"
      case .instant?: return "\(lower) is not after \(upper)"
      default: return "\(lower) <= \(upper)"
      }
    case .minimum(let name, let value):
      return isFamilyOnly(name) ? "`\(name)(k)` >= \(value)" : "`\(name)` >= \(value)"
    case .notAfterNow(let name): return "`\(name)` is not after now"
    case .increasing(let name): return "`\(name)(a)` <= `\(name)(b)` when a <= b"
    case .presence(let name, let condition):
      return "`\(name)` is present exactly when \(condition.statement)"
    case .wholeUnits(let count, let since, let unit):
      return "`\(count)` is the number of whole \(unit) periods since `\(since)`"
    case .window(let family, let latest):
      return "`\(family)(w)` >= 1 exactly when `\(latest)` is less than w before now"
    case .distinct(let first, let second):
      return "`\(first)` is never `\(second)`"
    case .boundWhenAtMost(let bound, let fact, let limit):
      let inner = FactRelation(.bound(bound), because: reason).statement(type: type, isFamilyOnly: isFamilyOnly)
      return "when `\(fact)` <= `\(limit)`, \(inner)"
    case .boundWhenAbove(let bound, let fact, let limit):
      let inner = FactRelation(.bound(bound), because: reason).statement(type: type, isFamilyOnly: isFamilyOnly)
      let above = type(fact) == .instant ? "is after" : ">"
      return "when `\(fact)` \(above) `\(limit)`, \(inner)"
    case .presentFrom(let name, let count, let minimum):
      let subject = isFamilyOnly(name) ? "`\(name)(k)`" : "`\(name)`"
      return "\(subject) is present when `\(count)` >= \(minimum)"
    case .presentTogether(let family, let fromKey, let other):
      return "the members `\(family)(k)` with k >= \(fromKey) are all present or all absent"
        + (other.map { ", and present when `\($0)` is" } ?? "")
    case .membersSum(let family, let total):
      return "the members `\(family)(k)` add up to at most `\(total)`"
    case .windowCovers(let family, let count, let since, let latest, let longest, let kept):
      return
        "`\(count)` (up to \(kept)) <= `\(family)(w)` when `\(since)` is less than w ago and `\(latest)` at most \(longest) after it"
    }
  }

  /// Whether `lower` is after `upper` in their type's order (`true` after `false` for bools):
  /// false for values of different types and strings.
  package static func isOrdered(_ lower: Value, after upper: Value) -> Bool {
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
  /// The schema with `scopes` and `bounds` added, validated (see ``relating(scopes:relations:)``).
  public func relating(scopes: [FactScope], bounds: [FactBound]) throws(DefinitionError) -> FactSchema {
    try relating(scopes: scopes, relations: bounds.map { FactRelation(.bound($0), because: $0.reason) })
  }

  /// The schema with `scopes` and `relations` added, validated: every name is a fact or a
  /// family of the schema, of the types the relation needs (a bound joins two plain facts of one
  /// ordered type or `bool`, two families with keys and values of one type, or a family and a
  /// plain fact of its value type; a presence relation's fact is optional ...).
  public func relating(scopes: [FactScope], relations: [FactRelation]) throws(DefinitionError) -> FactSchema {
    func exists(_ name: String) -> Bool { fact(named: name) != nil || family(named: name) != nil }
    for scope in scopes {
      for name in scope.facts where !exists(name) { throw .invalidRelation(name) }
    }
    for relation in relations {
      guard valid(relation) else { throw .invalidRelation(relation.names.first ?? "") }
    }
    var result = self
    result.scopes = scopes
    result.relations = relations
    return result
  }

  /// The type of the plain fact or family `name`'s values, nil when it is neither.
  func valueType(of name: String) -> PolicyType? {
    fact(named: name)?.type ?? family(named: name)?.type
  }

  /// Whether `relation` names facts of the types it needs.
  private func valid(_ relation: FactRelation) -> Bool {
    switch relation.kind {
    case .boundWhen(let bound, let condition):
      guard valid(FactRelation(.bound(bound), because: "")) else { return false }
      guard let fact = fact(named: condition.fact) else {
        // A family's members: only their presence.
        guard let family = family(named: condition.fact) else { return false }
        switch condition {
        case .present, .absent: return family.isOptional
        case .positive, .isTrue: return false
        }
      }
      switch condition {
      case .present, .absent: return fact.isOptional
      case .positive: return fact.type == .int && !fact.isOptional
      case .isTrue: return fact.type == .bool && !fact.isOptional
      }
    case .bound(let bound):
      if let lower = fact(named: bound.lower), let upper = fact(named: bound.upper) {
        return lower.type == upper.type && lower.type != .string
      }
      if let lower = family(named: bound.lower), let upper = family(named: bound.upper) {
        return lower.type == upper.type && lower.keyType == upper.keyType && lower.type != .string
      }
      if let lower = family(named: bound.lower), let upper = fact(named: bound.upper) {
        return lower.type == upper.type && lower.type != .string
      }
      return false
    case .minimum(let name, let value):
      return valueType(of: name) == value.type && value.type != .string
    case .notAfterNow(let name):
      return valueType(of: name) == .instant
    case .increasing(let name):
      guard let family = family(named: name) else { return false }
      return family.keyType != .string && family.type != .string && !family.isOptional
    case .presence(let name, let condition):
      guard let optional = fact(named: name), optional.isOptional else { return false }
      switch condition {
      case .absent: return false
      case .present(let other): return fact(named: other)?.isOptional == true && other != name
      case .positive(let other): return fact(named: other).map { $0.type == .int && !$0.isOptional } ?? false
      case .isTrue(let other): return fact(named: other).map { $0.type == .bool && !$0.isOptional } ?? false
      }
    case .wholeUnits(let count, let since, let unit):
      guard let count = fact(named: count), let since = fact(named: since) else { return false }
      return count.type == .int && !count.isOptional && since.type == .instant && !since.isOptional
        && unit.milliseconds > 0 && !unit.isInfinite
    case .window(let name, let latest):
      guard let family = family(named: name), let latest = fact(named: latest) else { return false }
      return family.keyType == .duration && family.type == .int && !family.isOptional && latest.type == .instant
        && latest.isOptional
    case .distinct(let first, let second):
      guard let first = fact(named: first), let second = fact(named: second) else { return false }
      return first.type == second.type && first.name != second.name
    case .boundWhenAtMost(let bound, let name, let limit):
      guard valid(FactRelation(.bound(bound), because: "")), let first = fact(named: name),
        let second = fact(named: limit)
      else { return false }
      return first.type == .int && second.type == .int && !first.isOptional && !second.isOptional
    case .boundWhenAbove(let bound, let name, let limit):
      guard valid(FactRelation(.bound(bound), because: "")), let first = fact(named: name),
        let second = fact(named: limit)
      else { return false }
      return first.type == second.type && (first.type == .int || first.type == .instant)
    case .presentFrom(let name, let count, _):
      guard let count = fact(named: count), count.type == .int, !count.isOptional else { return false }
      return fact(named: name)?.isOptional == true || family(named: name)?.isOptional == true
    case .presentTogether(let name, _, let other):
      guard let family = family(named: name) else { return false }
      if let other, fact(named: other)?.isOptional != true { return false }
      return family.keyType == .int && family.isOptional
    case .membersSum(let name, let total):
      guard let family = family(named: name), let total = fact(named: total) else { return false }
      return family.type == .int && !family.isOptional && total.type == .int && !total.isOptional
    case .windowCovers(let name, let count, let since, let latest, let longest, let kept):
      guard longest.milliseconds > 0, !longest.isInfinite, kept >= 1 else { return false }
      guard let family = family(named: name), let count = fact(named: count), let since = fact(named: since),
        let latest = fact(named: latest)
      else { return false }
      return family.keyType == .duration && family.type == .int && !family.isOptional && count.type == .int
        && !count.isOptional && since.type == .instant && latest.type == .instant
    }
  }

  /// The bounds among ``relations``.
  public var bounds: [FactBound] {
    relations.compactMap { relation in
      if case .bound(let bound) = relation.kind { return bound }
      return nil
    }
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
