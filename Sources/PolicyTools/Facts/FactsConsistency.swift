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

  /// PC410 for each bound of the schema that two given facts break (both present).
  static func brokenBounds(_ given: [Given], policy: CompiledPolicy, schema: FactSchema) -> [Diagnostic] {
    var byName: [String: Given] = [:]
    for fact in given { byName[policy.layout.slots[fact.slot].name] = fact }
    var errors: [Diagnostic] = []
    for bound in schema.bounds {
      var pairs: [(lower: String, upper: String)] = [(bound.lower, bound.upper)]
      if schema.family(named: bound.lower) != nil && schema.family(named: bound.upper) != nil {
        // Members of keyed families, key by key: `events("x")` and `total_events("x")`.
        for fact in given {
          guard case .family(let family, let key) = policy.layout.slots[fact.slot].origin, family == bound.lower,
            let upper = policy.layout.slots.first(where: { $0.origin == .family(name: bound.upper, key: key) })
          else { continue }
          pairs.append((policy.layout.slots[fact.slot].name, upper.name))
        }
      }
      for (lowerName, upperName) in pairs {
        guard let lower = byName[lowerName], let upper = byName[upperName], let low = lower.value,
          let high = upper.value, bound.isBroken(lower: low, upper: high)
        else { continue }
        errors.append(
          FactsFileMessages.impossibleFacts(
            lowerName, low, upperName, high, reason: bound.reason, at: lower.member.value.range,
            upperAt: upper.member.value.range))
      }
    }
    return errors
  }
}
