/// One fact a host provides: its name, type and meaning.
public struct FactDefinition: Sendable, Equatable {
  /// The name used in policies, such as `days`.
  public var name: String
  /// The fact's type.
  public var type: PolicyType
  /// Whether the fact can be absent (for example, a time that has not happened yet).
  public var isOptional: Bool
  /// A one-line meaning, shown by `policyc facts` and in explanations.
  public var meaning: String
  /// The unit of an `int` or `number` fact, such as "days", or nil.
  public var unit: String?
  /// The value on a fresh install; nil for an optional fact means absent.
  public var defaultValue: Value?
  /// A condition showing typical use, such as `days >= 30` (for documentation).
  public var example: String?

  /// Creates a fact definition.
  @inline(never)
  public init(
    _ name: String, _ type: PolicyType, isOptional: Bool = false, meaning: String, unit: String? = nil,
    defaultValue: Value? = nil, example: String? = nil
  ) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
    self.meaning = meaning
    self.unit = unit
    self.defaultValue = defaultValue
    self.example = example
  }
}

/// A family of facts selected by a literal key, such as `events("purchase")`.
public struct FactFamilyDefinition: Sendable, Equatable {
  /// The name used in policies, such as `events`.
  public var name: String
  /// The type of the key: `string`, `int` or `duration`.
  public var keyType: PolicyType
  /// What the key is, such as "event name" (for messages and documentation).
  public var keyMeaning: String
  /// The type of each member.
  public var type: PolicyType
  /// Whether a member can be absent.
  public var isOptional: Bool
  /// A one-line meaning.
  public var meaning: String
  /// The unit of the value, or nil.
  public var unit: String?
  /// The value of a member the host did not set; nil for an optional family means absent.
  public var defaultValue: Value?
  /// A condition showing typical use, such as `events("purchase") >= 3`.
  public var example: String?
  /// Whether the key is an event name: the checker then checks it against the event names the
  /// policy declares with `event` and those of ``FactSchema/eventNames``.
  public var keyIsEventName: Bool
  /// For a string key, the number of its UTF-8 bytes that name a member, or nil when all do: a
  /// host that keeps members under their key cut to its first `keyLength` bytes (in whole
  /// characters) declares it, so keys that agree on those bytes name one member, the one the
  /// host reads for both.
  public var keyLength: Int?

  /// Creates a fact family definition.
  public init(
    _ name: String, key keyType: PolicyType, keyMeaning: String, _ type: PolicyType, isOptional: Bool = false,
    meaning: String, unit: String? = nil, defaultValue: Value? = nil, example: String? = nil,
    keyIsEventName: Bool = false, keyLength: Int? = nil
  ) {
    self.example = example
    self.keyLength = keyLength
    self.keyIsEventName = keyIsEventName && keyType == .string
    self.name = name
    self.keyType = keyType
    self.keyMeaning = keyMeaning
    self.type = type
    self.isOptional = isOptional
    self.meaning = meaning
    self.unit = unit
    self.defaultValue = defaultValue
  }

  /// The key that names the member `key` selects: a string key cut to ``keyLength`` bytes.
  func memberKey(_ key: Value) -> Value {
    FactFamilyDefinition.memberKey(key, keyLength: keyLength)
  }

  /// `key` cut to `keyLength` bytes when it is a string and there is a length; else `key`.
  static func memberKey(_ key: Value, keyLength: Int?) -> Value {
    guard let keyLength, case .string(let text) = key else { return key }
    return .string(prefix(text, utf8Bytes: keyLength))
  }

  /// The longest prefix of `text`, in whole characters, of at most `bytes` UTF-8 bytes: how a
  /// host cuts a key to a family's ``keyLength``.
  package static func prefix(_ text: String, utf8Bytes bytes: Int) -> String {
    // A text that fits is its own prefix (the loop below would copy every character).
    guard text.utf8.count > bytes else { return text }
    var result = ""
    var length = 0
    for character in text {
      let size = character.utf8.count
      if length + size > bytes { break }
      result.append(character)
      length += size
    }
    return result
  }
}

/// The facts a host makes available to policies, checked before any policy runs.
public struct FactSchema: Sendable, Equatable {
  /// The plain facts, in documentation order.
  public private(set) var facts: [FactDefinition]
  /// The keyed fact families.
  public private(set) var families: [FactFamilyDefinition]
  /// The event names the app records (see ``recordingEvents(_:)``); empty when the app does not say.
  ///
  /// Once known, an event-name key of a family (``FactFamilyDefinition/keyIsEventName``) that is
  /// not among them is an error, as is a name the policy declares with `event` that the app does not record.
  public private(set) var eventNames: Set<String> = []
  /// The spans of time the facts describe, such as "this version" (see ``relating(scopes:relations:)``).
  public internal(set) var scopes: [FactScope] = []
  /// Relations between facts that every real snapshot satisfies, such as `days <= total_days`
  /// (see ``FactRelation``).
  public internal(set) var relations: [FactRelation] = []
  /// The layout of ``facts`` alone, built once: every compile against the schema starts from it.
  package let baseLayout: FactLayout

  /// A problem with a schema definition (a programming error in the host, not a policy error).
  public enum DefinitionError: Error, Sendable, Hashable {
    /// Two facts, or two families, share a name.
    case duplicateName(String)
    /// A name is not an identifier, or is a keyword, a built-in function or `now`.
    case invalidName(String)
    /// A default value's type differs from the fact's type.
    case defaultTypeMismatch(String)
    /// A family's key type is not `string`, `int` or `duration`.
    case invalidKeyType(String)
    /// A family's key length is not positive, or is given for a key that is not a string.
    case invalidKeyLength(String)
    /// A scope or bound names something that is not a fact of the schema, or a bound joins
    /// facts of different types or strings.
    case invalidRelation(String)
  }

  /// The schema with no facts: policies must declare every fact they use.
  public static let empty = FactSchema()

  private init() {
    facts = []
    families = []
    baseLayout = FactLayout()
  }

  /// Creates a schema, validating names, defaults and key types.
  public init(facts: [FactDefinition], families: [FactFamilyDefinition] = []) throws(DefinitionError) {
    var seen = Set<String>()
    for fact in facts {
      try FactSchema.validate(name: fact.name)
      guard seen.insert(fact.name).inserted else { throw .duplicateName(fact.name) }
      if let value = fact.defaultValue, value.type != fact.type { throw .defaultTypeMismatch(fact.name) }
    }
    var seenFamilies = Set<String>()
    for family in families {
      try FactSchema.validate(name: family.name)
      guard seenFamilies.insert(family.name).inserted else { throw .duplicateName(family.name) }
      guard [.string, .int, .duration].contains(family.keyType) else { throw .invalidKeyType(family.name) }
      if let length = family.keyLength, length <= 0 || family.keyType != .string {
        throw .invalidKeyLength(family.name)
      }
      if let value = family.defaultValue, value.type != family.type { throw .defaultTypeMismatch(family.name) }
    }
    self.facts = facts
    self.families = families
    baseLayout = FactLayout(schemaFacts: facts, families: families)
  }

  /// This schema with `names` as the event names the app records (an empty sequence: unknown).
  public func recordingEvents(_ names: some Sequence<String>) -> FactSchema {
    var schema = self
    schema.eventNames = Set(names.filter { !$0.isEmpty })
    return schema
  }

  /// The plain fact named `name`, if any.
  public func fact(named name: String) -> FactDefinition? {
    facts.first { $0.name == name }
  }

  /// The family named `name`, if any.
  public func family(named name: String) -> FactFamilyDefinition? {
    families.first { $0.name == name }
  }

  static func validate(name: String) throws(DefinitionError) {
    let bytes = Array(name.utf8)
    guard let first = bytes.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
      bytes.count <= Limits.maximumIdentifierLength,
      bytes.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 95 }),
      !TokenKind.keywords.contains(name), !Builtin.reservedNames.contains(name)
    else { throw .invalidName(name) }
  }
}
