import PolicyAnalysis
import PolicyCore

/// Checks of a facts file against what the schema states about its facts
/// (``FactSchema/scopes`` and ``FactSchema/bounds``): a given fact the policy never reads is a
/// warning (PC409), with the fact it reads instead; given facts that break a bound are an error
/// (PC410), such as `days` 50 with `total_days` 40.
enum FactsConsistency {
  /// One fact the file gives: its slot, its value (nil when absent) and where the file gives it.
  struct Given {
    var slot: Int
    var value: Value?
    var member: JSONMember
  }

  /// PC409 for each given fact the policy does not read, with a did-you-mean to the fact it
  /// reads: its counterpart in another scope (`total_days` for `days`), else the closest name.
  static func unreadFacts(_ given: [Given], policy: CompiledPolicy, schema: FactSchema) -> [Diagnostic] {
    let read = Set(policy.readSlots)
    let readNames = policy.readSlots.map { policy.layout.slots[$0].name }
    var warnings: [Diagnostic] = []
    for fact in given where !read.contains(fact.slot) {
      let name = policy.layout.slots[fact.slot].name
      let counterpart = schema.scopes.lazy.compactMap { scope in
        schema.counterpart(of: name, in: scope).flatMap { $0 != name && readNames.contains($0) ? $0 : nil }
      }.first
      let instead: FactsFileMessages.Instead? =
        if let counterpart {
          .counterpart(counterpart, scope: schema.scope(of: counterpart)?.name)
        } else {
          EditDistance.suggestion(for: name, among: readNames).map { .similar($0) }
        }
      warnings.append(
        FactsFileMessages.unreadFact(
          name, scope: schema.scope(of: name)?.name, instead: instead, read: readNames, at: fact.member.keyRange))
    }
    return warnings
  }

  /// PC409 for a member of one of the schema's keyed families that the policy's layout lacks
  /// (`events("purchase")` for a policy that reads `total_events("purchase")`), with the same
  /// did-you-mean as a plain fact gets: the member of the counterpart family in another scope
  /// with the same key when the policy reads it, else the closest fact it reads. Nil when the
  /// key is not a member of a schema family.
  static func unreadMember(_ member: JSONMember, policy: CompiledPolicy, schema: FactSchema) -> Diagnostic? {
    guard let (family, _) = FactLayout.member(parsing: member.key), schema.family(named: family) != nil,
      let name = policy.layout.canonicalMemberName(member.key), let open = member.key.firstIndex(of: "(")
    else { return nil }
    let argument = member.key[open...]
    let read = Set(policy.readSlots)
    let readNames = policy.readSlots.map { policy.layout.slots[$0].name }
    func isRead(_ text: String) -> Bool {
      policy.layout.slot(named: text).map(read.contains) ?? false
    }
    var instead: FactsFileMessages.Instead?
    for scope in schema.scopes {
      guard let other = schema.counterpart(of: family, in: scope), other != family,
        let counterpart = policy.layout.canonicalMemberName(other + argument), isRead(counterpart)
      else { continue }
      instead = .counterpart(counterpart, scope: scope.name)
      break
    }
    if instead == nil { instead = EditDistance.suggestion(for: name, among: readNames).map { .similar($0) } }
    return FactsFileMessages.unreadFact(
      name, scope: schema.scope(of: family)?.name, instead: instead, read: readNames, at: member.keyRange)
  }

  /// A fact the file does not give that the policy reads, with the value it takes (nil: absent).
  struct Defaulted {
    var slot: Int
    var value: Value?
  }

  /// PC410 for each relation of the schema (``FactSchema/relations``) that the given facts break,
  /// with each other or with the values the facts the policy reads take when the file does not
  /// give them (`rated` true beside `rated_any` defaulted to false). Defaults alone never break one.
  static func brokenRelations(
    _ given: [Given], defaulted: [Defaulted], policy: CompiledPolicy, schema: FactSchema, now: Timestamp
  ) -> [Diagnostic] {
    var givenByName: [String: Given] = [:]
    var defaultByName: [String: Value?] = [:]
    var assignment: [AssignedFact] = []
    func assign(_ slot: Int, _ value: Value?) {
      let definition = policy.layout.slots[slot]
      switch definition.origin {
      case .schema: assignment.append(AssignedFact(definition.name, value))
      case .family(let family, let key):
        assignment.append(AssignedFact(definition.name, family: family, key: key, value))
      case .declaration: break
      }
    }
    for fact in given {
      givenByName[policy.layout.slots[fact.slot].name] = fact
      assign(fact.slot, fact.value)
    }
    for fact in defaulted {
      defaultByName[policy.layout.slots[fact.slot].name] = .some(fact.value)
      assign(fact.slot, fact.value)
    }
    var errors: [Diagnostic] = []
    var reported = Set<[String]>()
    let readSlots = Set(policy.readSlots)
    for broken in schema.brokenRelations(in: assignment, now: now) where reported.insert(broken.facts).inserted {
      let names = broken.facts
      guard let first = names.first(where: { givenByName[$0] != nil }), let at = givenByName[first] else { continue }
      let others = names.filter { $0 != first }
      let statement = broken.relation.statement(in: schema)
      if let other = others.first, let defaultValue = defaultByName[other] {
        // A given fact the policy does not read cannot mislead its decision (PC409 says so).
        guard policy.layout.slot(named: first).map(readSlots.contains) ?? false else { continue }
        errors.append(
          FactsFileMessages.contradictsDefault(
            first, at.value, defaulted: other, defaultValue, statement: statement, reason: broken.relation.reason,
            fix: fix(for: broken.relation, defaulted: other, value: at.value, now: now, schema: schema),
            at: at.member.value.range))
        continue
      }
      let notes = others.compactMap { name in givenByName[name].map { (name, $0.member.value.range) } }
      if case .bound = broken.relation.kind, names.count == 2, let low = givenByName[names[0]]?.value,
        let high = givenByName[names[1]]?.value, let lowerAt = givenByName[names[0]]
      {
        errors.append(
          FactsFileMessages.impossibleFacts(
            names[0], low, names[1], high, reason: broken.relation.reason, at: lowerAt.member.value.range,
            upperAt: givenByName[names[1]]?.member.value.range ?? lowerAt.member.value.range))
      } else {
        errors.append(
          FactsFileMessages.brokenRelation(
            names.map { name in (name, givenByName[name]?.value) }, statement: statement,
            reason: broken.relation.reason, at: at.member.value.range, notes: notes))
      }
    }
    return errors
  }

  /// The member to add so `relation` holds again: the defaulted fact `defaulted` with a value
  /// that agrees with the given fact's `value`, as a facts-file line; nil when there is none to suggest.
  static func fix(
    for relation: FactRelation, defaulted: String, value: Value?, now: Timestamp, schema: FactSchema
  ) -> String? {
    let line = { (fact: Value?) in "\(JSONWriter.quoted(defaulted)): \(WitnessFacts.json(fact))" }
    let example = {
      let type = schema.fact(named: defaulted)?.type ?? .instant
      return type == .instant ? line(.instant(now)) : "\(JSONWriter.quoted(defaulted)): \(FactsFile.example(for: type))"
    }
    switch relation.kind {
    case .bound, .boundWhen, .boundWhenAtMost, .boundWhenAbove, .increasing, .windowCovers:
      return value.map { line($0) }
    case .minimum(_, let minimum): return line(minimum)
    case .notAfterNow: return line(.instant(now))
    case .presence(let optional, let condition):
      // The optional fact must be present exactly when the condition holds.
      if defaulted == optional { return example() }
      switch condition {
      case .present: return value == nil ? line(nil) : example()
      case .absent: return nil
      case .positive: return line(.int(value == nil ? 0 : 1))
      case .isTrue: return line(.bool(value != nil))
      }
    case .wholeUnits(let count, _, let unit):
      if defaulted == count {
        guard case .instant(let since)? = value else { return nil }
        return line(.int(FactSchema.wholeUnits(from: since, to: now, unit: unit)))
      }
      guard case .int(let units)? = value else { return nil }
      let (span, overflow) = units.multipliedReportingOverflow(by: unit.milliseconds)
      let (start, underflow) = now.millisecondsSince1970.subtractingReportingOverflow(span)
      guard !overflow, !underflow, start >= Timestamp.earliest.millisecondsSince1970 else { return nil }
      return line(.instant(Timestamp(millisecondsSince1970: start)))
    case .window(_, let latest):
      if defaulted == latest { return line(.instant(now)) }
      guard case .instant? = value else { return line(.int(0)) }
      return line(.int(1))
    case .distinct, .membersSum, .presentFrom, .presentTogether: return nil
    }
  }
}
