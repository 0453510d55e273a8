import PolicyCore

/// One fact of a set of values checked against a schema's relations: a plain fact, or a member of
/// a keyed family, with its value or its absence.
public struct AssignedFact: Sendable, Hashable {
  /// The fact as policies write it: `days`, `events("purchase")`.
  public var name: String
  /// For a member of a family, the family's name; nil for a plain fact.
  public var family: String?
  /// For a member of a family, the key.
  public var key: Value?
  /// The value; nil when the fact is absent.
  public var value: Value?

  /// A plain fact.
  public init(_ name: String, _ value: Value?) {
    self.name = name
    self.value = value
  }

  /// A member of family `family` at `key`, written `name`.
  public init(_ name: String, family: String, key: Value, _ value: Value?) {
    self.name = name
    self.family = family
    self.key = key
    self.value = value
  }

  /// For a member of a family, the family's name and the key.
  var member: (family: String, key: Value)? {
    guard let family, let key else { return nil }
    return (family, key)
  }
}

/// A relation that a set of values breaks, with the facts that break it, as written.
public struct BrokenRelation: Sendable, Equatable {
  /// The relation.
  public var relation: FactRelation
  /// The facts whose values break it, in the relation's order (`days`, `total_days`).
  public var facts: [String]
}

extension FactSchema {
  /// The relations that `facts`, values at `now`, break. A relation is judged only on facts that
  /// `facts` gives (present or absent); one that names other facts is not broken.
  ///
  /// Linear in the facts for each relation, but for `FactRelation.Kind.increasing` (which
  /// sorts the family's members).
  public func brokenRelations(in facts: [AssignedFact], now: Timestamp) -> [BrokenRelation] {
    FactSchema.brokenRelations(relations, in: facts, now: now)
  }

  /// The relations of `relations` that `facts`, values at `now`, break (see ``brokenRelations(in:now:)``).
  package static func brokenRelations(_ relations: [FactRelation], in facts: [AssignedFact], now: Timestamp)
    -> [BrokenRelation]
  {
    var plain: [String: AssignedFact] = [:]
    var members: [String: [AssignedFact]] = [:]
    for fact in facts {
      if let member = fact.member {
        members[member.family, default: []].append(fact)
      } else {
        plain[fact.name] = fact
      }
    }
    /// The plain fact `name` and every member of the family `name`.
    func each(_ name: String) -> [AssignedFact] {
      (plain[name].map { [$0] } ?? []) + (members[name] ?? [])
    }
    var broken: [BrokenRelation] = []
    func report(_ relation: FactRelation, _ names: String...) {
      broken.append(BrokenRelation(relation: relation, facts: names))
    }
    func checkBound(_ bound: FactBound, _ relation: FactRelation) {
      for lower in each(bound.lower) {
        let upper: AssignedFact?
        if let key = lower.member?.key, members[bound.upper] != nil || plain[bound.upper] == nil {
          upper = members[bound.upper]?.first { $0.member.map { $0.key == key } ?? false }
        } else {
          upper = plain[bound.upper]
        }
        guard let upper, let low = lower.value, let high = upper.value, bound.isBroken(lower: low, upper: high) else {
          continue
        }
        report(relation, lower.name, upper.name)
      }
    }

    for relation in relations {
      switch relation.kind {
      case .bound(let bound):
        checkBound(bound, relation)
      case .boundWhen(let bound, let condition):
        // A family's condition holds where it holds for one of its members.
        guard each(condition.fact).contains(where: { condition.holds(for: $0.value) == true }) else { continue }
        checkBound(bound, relation)
      case .minimum(let name, let minimum):
        for fact in each(name) {
          if let value = fact.value, value.type == minimum.type, value.ordering(comparedWith: minimum) < 0 {
            report(relation, fact.name)
          }
        }
      case .notAfterNow(let name):
        for fact in each(name) {
          if case .instant(let instant)? = fact.value, instant > now { report(relation, fact.name) }
        }
      case .increasing(let name):
        let sorted = (members[name] ?? []).filter { $0.value != nil }.sorted {
          guard let a = $0.member?.key, let b = $1.member?.key else { return false }
          return a.ordering(comparedWith: b) < 0
        }
        var highest: AssignedFact?
        for fact in sorted {
          guard let value = fact.value else { continue }
          if let top = highest, let topValue = top.value, FactRelation.isOrdered(topValue, after: value) {
            report(relation, top.name, fact.name)
          } else if highest?.value.map({ FactRelation.isOrdered(value, after: $0) }) ?? true {
            highest = fact
          }
        }
      case .presence(let name, let condition):
        guard let fact = plain[name], let other = plain[condition.fact] else { continue }
        if let holds = condition.holds(for: other.value), holds != (fact.value != nil) {
          report(relation, fact.name, other.name)
        }
      case .wholeUnits(let countName, let sinceName, let unit):
        guard case .int(let count)? = plain[countName]?.value, case .instant(let since)? = plain[sinceName]?.value
        else { continue }
        if count != FactSchema.wholeUnits(from: since, to: now, unit: unit) { report(relation, countName, sinceName) }
      case .window(let familyName, let latestName):
        guard let latest = plain[latestName] else { continue }
        for member in members[familyName] ?? [] {
          guard case .int(let count)? = member.value, case .duration(let window)? = member.member?.key else {
            continue
          }
          let within: Bool
          if case .instant(let instant)? = latest.value {
            within = FactSchema.age(of: instant, at: now).map { $0 < window.milliseconds } ?? false
          } else {
            within = false
          }
          if (count >= 1) != within { report(relation, member.name, latest.name) }
        }
      case .boundWhenAtMost(let bound, let name, let limitName):
        guard case .int(let value)? = plain[name]?.value, case .int(let limit)? = plain[limitName]?.value,
          value <= limit
        else { continue }
        checkBound(bound, relation)
      case .boundWhenAbove(let bound, let name, let limitName):
        switch (plain[name]?.value, plain[limitName]?.value) {
        case (.int(let value)?, .int(let limit)?) where value > limit: checkBound(bound, relation)
        case (.instant(let value)?, .instant(let limit)?) where value > limit: checkBound(bound, relation)
        default: continue
        }
      case .presentFrom(let name, let countName, let minimum):
        guard case .int(let count)? = plain[countName]?.value, count >= minimum else { continue }
        for fact in each(name) where fact.value == nil { report(relation, fact.name, countName) }
      case .presentTogether(let familyName, let fromKey, let otherName):
        let together = (members[familyName] ?? []).filter { member in
          guard case .int(let key)? = member.member?.key else { return false }
          return key >= fromKey
        }
        guard let absent = together.first(where: { $0.value == nil }) else { continue }
        if let present = together.first(where: { $0.value != nil }) {
          report(relation, present.name, absent.name)
        } else if let otherName, let other = plain[otherName], other.value != nil {
          report(relation, other.name, absent.name)
        }
      case .membersSum(let familyName, let totalName):
        guard case .int(let total)? = plain[totalName]?.value else { continue }
        var sum: Int64 = 0
        var overflow = false
        for member in members[familyName] ?? [] {
          guard case .int(let count)? = member.value else { continue }
          (sum, overflow) = sum.addingReportingOverflow(count)
          if overflow { break }
        }
        if overflow || sum > total { report(relation, totalName) }
      case .windowCovers(let familyName, let countName, let sinceName, let latestName, let longest, let kept):
        guard case .int(let count)? = plain[countName]?.value, case .instant(let since)? = plain[sinceName]?.value,
          case .instant(let latest)? = plain[latestName]?.value, let age = FactSchema.age(of: since, at: now),
          let gap = FactSchema.age(of: since, at: latest), gap <= longest.milliseconds
        else { continue }
        for member in members[familyName] ?? [] {
          guard case .int(let within)? = member.value, case .duration(let window)? = member.member?.key,
            age < window.milliseconds, within < min(count, kept)
          else { continue }
          report(relation, countName, member.name)
        }
      case .distinct(let firstName, let secondName):
        guard let first = plain[firstName], let second = plain[secondName], let value = first.value,
          value == second.value
        else { continue }
        report(relation, firstName, secondName)
      }
    }
    return broken
  }

  /// Whole `unit`s from `start` to `end`, rounded down; 0 when `end` is not after `start`.
  package static func wholeUnits(from start: Timestamp, to end: Timestamp, unit: TimeSpan) -> Int64 {
    guard let elapsed = age(of: start, at: end), elapsed > 0, unit.milliseconds > 0 else { return 0 }
    return elapsed / unit.milliseconds
  }

  /// `now - instant` in milliseconds, nil when it overflows.
  static func age(of instant: Timestamp, at now: Timestamp) -> Int64? {
    let (age, overflow) = now.millisecondsSince1970.subtractingReportingOverflow(instant.millisecondsSince1970)
    return overflow ? nil : age
  }
}
