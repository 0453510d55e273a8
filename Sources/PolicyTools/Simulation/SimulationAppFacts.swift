import PolicyCore
import ReviewPolicy

/// The app-specific facts of the simulated policies: `--fact` values, or documented defaults.
public enum SimulationAppFacts {
  /// The facts of each policy, and notes about the facts that took a default.
  public struct Resolved: Sendable {
    /// For each policy, the facts to set on its managers.
    public var values: [[(name: String, value: Value)]]
    /// Notes for standard error: which declared facts took a default.
    public var notes: [String]
    /// For each policy, the names of the facts that took a default.
    public var defaulted: [[String]] = []
  }

  /// A `--fact` value that names no declared fact or does not parse as its type.
  public struct Failure: Error, Sendable {
    /// What is wrong, for a usage error.
    public var message: String
  }

  /// Matches `given` against the facts each policy declares and parses the values by the declared types.
  ///
  /// A fact with a distribution in `distributed` (from a behaviour file) takes no default: its
  /// values must parse as the declared type; a fact no policy declares is ignored there. A fact
  /// distributed only for some users (`partlyDistributed`: in some segments) takes a default for
  /// the others, and its values must parse as the declared type too.
  public static func resolve(
    _ given: [(name: String, value: String)], for policies: [(path: String, policy: CompiledPolicy)],
    distributed: [SimulationFactDistribution] = [], partlyDistributed: [SimulationFactDistribution] = []
  ) -> Result<Resolved, Failure> {
    var declaredNames: [String] = []
    for (_, policy) in policies {
      for slot in policy.layout.slots {
        if case .declaration = slot.origin, !declaredNames.contains(slot.name) { declaredNames.append(slot.name) }
      }
    }
    var givenValues: [String: String] = [:]
    for (name, text) in given {
      guard declaredNames.contains(name) else {
        if ReviewSchema.facts.contains(where: { $0.name == name }) {
          return .failure(.init(message: SimulationMessages.trackedFactGiven(name)))
        }
        let suggestion = EditDistance.suggestion(for: name, among: declaredNames)
        return .failure(
          .init(
            message: SimulationMessages.undeclaredFactGiven(
              name, text, policyCount: policies.count, suggestion: suggestion)))
      }
      givenValues[name] = text
    }
    var resolved = Resolved(values: [], notes: [])
    for (path, policy) in policies {
      var facts: [(name: String, value: Value)] = []
      var defaulted: [String] = []
      var defaultedNames: [String] = []
      for slot in policy.layout.slots {
        guard case .declaration = slot.origin else { continue }
        if givenValues[slot.name] == nil {
          for distribution in distributed + partlyDistributed where distribution.name == slot.name {
            for share in distribution.shares where parse(share.value, as: slot.type) == nil {
              return .failure(
                .init(
                  message: SimulationMessages.distributedValueMismatch(
                    slot.name, value: share.value, type: slot.type, path: path)))
            }
          }
        }
        if givenValues[slot.name] == nil, distributed.contains(where: { $0.name == slot.name }) {
          continue
        } else if let text = givenValues[slot.name] {
          guard let value = parse(text, as: slot.type) else {
            return .failure(
              .init(message: SimulationMessages.givenValueMismatch(slot.name, text, type: slot.type, path: path)))
          }
          facts.append((slot.name, value))
        } else if let value = slot.defaultValue {
          // The policy's own default (`fact plan: string = "free"`): what an app that never sets it gives.
          facts.append((slot.name, value))
          defaultedNames.append(slot.name)
        } else if !slot.isOptional {
          let value = zero(slot.type)
          facts.append((slot.name, value))
          defaulted.append("`\(slot.name)` = \(value)")
          defaultedNames.append(slot.name)
        }
      }
      resolved.values.append(facts)
      resolved.defaulted.append(defaultedNames)
      if !defaulted.isEmpty {
        resolved.notes.append(SimulationMessages.defaultedFactsNote(path: path, defaulted: defaulted))
      }
    }
    return .success(resolved)
  }

  /// The value of `text` as a `type`, or nil.
  public static func parse(_ text: String, as type: PolicyType) -> Value? {
    switch type {
    case .bool:
      switch text {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return nil
      }
    case .int: return Int64(text).map(Value.int)
    case .number: return Number(parsing: text).map(Value.number)
    case .duration: return TimeSpan(parsing: text).map(Value.duration)
    case .version:
      return Version(parsing: text.hasPrefix("v") ? String(text.dropFirst()) : text).map(Value.version)
    case .instant: return Timestamp(iso8601: text).map(Value.instant)
    case .string:
      if text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") {
        return .string(String(text.dropFirst().dropLast()))
      }
      return .string(text)
    }
  }

  /// The default of a declared fact nobody set: false, 0, 0s, v0, "", or the install instant.
  public static func zero(_ type: PolicyType) -> Value {
    switch type {
    case .bool: .bool(false)
    case .int: .int(0)
    case .number: .number(Number(scaled: 0))
    case .duration: .duration(TimeSpan(milliseconds: 0))
    case .version: .version(Version(high: 0, low: 0))
    case .instant: .instant(Timestamp(millisecondsSince1970: SimulationSetup.installInstant * 1000))
    case .string: .string("")
    }
  }
}
