/// A fact the policy declares itself (`fact NAME: TYPE [= DEFAULT]`), as the host sees it: what
/// it must set, and what the policy assumes while it has not.
public struct DeclaredFact: Sendable, Hashable {
  /// The fact's name.
  public var name: String
  /// The declared type.
  public var type: PolicyType
  /// Whether the fact can be absent (`?`).
  public var isOptional: Bool
  /// The value written after `=`, used while the host has not set the fact; nil when there is none.
  public var defaultValue: Value?
  /// The declaration in the source.
  public var range: SourceRange

  /// Whether the declaration has a default: when it does not, a fact the host never sets is
  /// missing (or absent, for an optional fact).
  public var hasDefault: Bool { defaultValue != nil }

  /// Creates a declared fact.
  init(name: String, type: PolicyType, isOptional: Bool, defaultValue: Value?, range: SourceRange) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
    self.defaultValue = defaultValue
    self.range = range
  }
}

extension FactLayout {
  /// The facts the policy declares itself, in slot order (schema facts and family members are not listed).
  var declaredFacts: [DeclaredFact] {
    slots.compactMap { slot in
      guard case .declaration(let range) = slot.origin else { return nil }
      return DeclaredFact(
        name: slot.name, type: slot.type, isOptional: slot.isOptional, defaultValue: slot.defaultValue, range: range)
    }
  }
}

extension CompiledPolicy {
  /// The facts the policy declares itself (`fact plan: string = "free"`), in declaration order,
  /// each with whether it has a default. A host reports those without a default that it never sets.
  public var declaredFacts: [DeclaredFact] { layout.declaredFacts }
}

extension CheckedPolicy {
  /// The facts the policy declares itself, in declaration order, each with whether it has a default.
  var declaredFacts: [DeclaredFact] { layout.declaredFacts }
}
