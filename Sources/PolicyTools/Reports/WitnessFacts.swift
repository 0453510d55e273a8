import PolicyAnalysis
import PolicyCore
import ReviewAnalysis

/// Witnesses written as facts files (`policyc eval --facts`).
package enum WitnessFacts {
  /// The facts of `witness` worth writing for `policies`: those they read, and those the
  /// analysis constrained that they know.
  package static func names(_ witness: Witness, reading policies: [CompiledPolicy]) -> [String] {
    var read = Set<String>()
    for policy in policies {
      for slot in policy.readSlots { read.insert(policy.layout.slots[slot].name) }
    }
    return witness.facts.filter { fact in
      read.contains(fact.name)
        || (fact.isConstrained && policies.contains { $0.layout.slot(named: fact.name) != nil })
    }.map(\.name)
  }

  /// The JSON text of a value in a facts file.
  package static func json(_ value: Value?) -> String {
    guard let value else { return "null" }
    switch value {
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let integer): return String(integer)
    case .number(let number): return number.description
    case .duration(let span): return JSONWriter.quoted(span.description)
    case .instant(let instant): return JSONWriter.quoted(instant.description)
    case .version(let version): return JSONWriter.quoted(version.description)
    case .string(let text): return JSONWriter.quoted(text)
    }
  }

  /// The facts named `names` (and `now`) as one compact JSON object.
  package static func object(_ witness: Witness, names: [String]) -> String {
    var members = ["\(JSONWriter.quoted("now")):\(JSONWriter.quoted(witness.now.description))"]
    if witness.seed != 0 { members.append("\(JSONWriter.quoted("seed")):\(witness.seed)") }
    for name in names {
      guard let fact = witness.fact(named: name) else { continue }
      members.append("\(JSONWriter.quoted(name)):\(json(fact.value))")
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// A facts file for `witness` with the facts named `names`, one per line.
  package static func text(_ witness: Witness, names: [String]) -> String {
    var lines = ["  \(JSONWriter.quoted("now")): \(JSONWriter.quoted(witness.now.description))"]
    if witness.seed != 0 { lines.append("  \(JSONWriter.quoted("seed")): \(witness.seed)") }
    for name in names {
      guard let fact = witness.fact(named: name) else { continue }
      lines.append("  \(JSONWriter.quoted(name)): \(json(fact.value))")
    }
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }
}
