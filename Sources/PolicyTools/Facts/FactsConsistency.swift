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
      var help: [String]
      if let counterpart {
        let scopes = [name, counterpart].map { schema.scope(of: $0).map { " (\($0.name))" } ?? "" }
        help = [
          "did you mean `\(counterpart)`? the policy reads `\(counterpart)`\(scopes[1]), not `\(name)`\(scopes[0])"
        ]
      } else if let suggestion = EditDistance.suggestion(for: name, among: readNames) {
        help = ["did you mean `\(suggestion)`? the policy reads it"]
      } else {
        help = ["the policy reads \(list(readNames)); remove `\(name)` or check the policy"]
      }
      warnings.append(
        Diagnostic(
          PolicyToolsCode.unreadFact, "the policy never reads `\(name)`", at: fact.member.keyRange, help: help))
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
          Diagnostic(
            PolicyToolsCode.impossibleFacts, message(lowerName, low, upperName, high), at: lower.member.value.range,
            help: ["\(bound.reason): `\(lowerName)` cannot be \(after(low)) `\(upperName)`"],
            notes: [DiagnosticNote("`\(upperName)` is given here", at: upper.member.value.range)]))
      }
    }
    return errors
  }

  /// "`days` (50) is more than `total_days` (40)", "`declined` is true but `declined_any` is false".
  static func message(_ lower: String, _ low: Value, _ upper: String, _ high: Value) -> String {
    switch low {
    case .bool: "`\(lower)` is true but `\(upper)` is false"
    case .instant: "`\(lower)` (\(low)) is after `\(upper)` (\(high))"
    case .int, .number, .duration, .version, .string: "`\(lower)` (\(low)) is more than `\(upper)` (\(high))"
    }
  }

  /// How the lower side of a bound may not relate to the upper: "more than", "after", "true without".
  static func after(_ value: Value) -> String {
    switch value {
    case .bool: "true without"
    case .instant: "after"
    case .int, .number, .duration, .version, .string: "more than"
    }
  }

  /// "`a`, `b` and `c`".
  static func list(_ names: [String]) -> String {
    let written = names.map { "`\($0)`" }
    guard written.count > 1 else { return written.first ?? "no facts" }
    return written.dropLast().joined(separator: ", ") + " and " + (written.last ?? "")
  }
}
