/// Where a fact slot comes from.
package enum FactOrigin: Sendable, Hashable {
  /// A fact of the host's schema.
  case schema
  /// A `fact` declaration in the policy, at this range.
  case declaration(SourceRange)
  /// A member of a keyed family, such as `events("purchase")`.
  case family(name: String, key: Value)
}

/// One fact a compiled policy reads or may read, with its storage position.
package struct FactSlot: Sendable, Equatable {
  /// The name as written in policies: `days`, or `events("purchase")` for a family member.
  package var name: String
  /// The value's type.
  package var type: PolicyType
  /// Whether the fact can be absent.
  package var isOptional: Bool
  /// Where the slot comes from.
  package var origin: FactOrigin
  /// The value a fresh ``Facts`` starts with, or nil (absent if optional, otherwise missing).
  package var defaultValue: Value?
  /// The one-line meaning, or an empty string for declared facts.
  package var meaning: String
  /// The first storage word; versions use two.
  var word: Int
}

/// The storage layout of the facts a compiled policy reads: one slot per schema
/// fact, declared fact and referenced family member, and the table of interned strings.
package struct FactLayout: Sendable, Equatable {
  /// Every slot; the index is the slot number.
  package internal(set) var slots: [FactSlot] = []
  /// The number of 64-bit words the values need.
  var wordCount = 0
  /// Interned string literals: each distinct literal has a positive id.
  var stringIDs: [String: Int64] = [:]
  /// Slot numbers by name.
  var slotsByName: [String: Int] = [:]
  /// The ``FactFamilyDefinition/keyLength`` of each family that has one, by family name: member
  /// names found by name (``memberName(family:key:)``) cut their keys as the checker does.
  var familyKeyLengths: [String: Int] = [:]
  /// A hash of the slots and strings, identifying layouts cheaply (see ``computeFingerprint()``).
  var fingerprint: UInt64 = 0
  /// The fingerprint's hash over the first ``hashedSlotCount`` slots: a layout that starts from
  /// its schema's (``FactSchema/baseLayout``) hashes the schema's facts once, not at every compile.
  private var slotHash = FNV1a()
  private var hashedSlotCount = 0

  /// The layout of `facts` alone (a schema's facts, in order), their part of the fingerprint
  /// hashed, with the key lengths of `families`.
  init(schemaFacts facts: [FactDefinition], families: [FactFamilyDefinition]) {
    for family in families {
      if let length = family.keyLength { familyKeyLengths[family.name] = length }
    }
    slots.reserveCapacity(facts.count)
    slotsByName.reserveCapacity(facts.count)
    for fact in facts {
      _ = addSlot(
        name: fact.name, type: fact.type, isOptional: fact.isOptional, origin: .schema,
        defaultValue: fact.defaultValue, meaning: fact.meaning)
    }
    hashSlots()
  }

  /// An empty layout.
  init() {}

  /// Feeds the slots not hashed yet into ``slotHash``.
  private mutating func hashSlots() {
    var hash = slotHash
    for slot in slots[hashedSlotCount...] {
      FactLayout.mix(slot.name, into: &hash)
      FactLayout.mix(slot.type.rawValue, into: &hash)
      FactLayout.mix(slot.isOptional ? "?" : "", into: &hash)
      if case .declaration = slot.origin, let value = slot.defaultValue {
        FactLayout.mix("=" + value.description, into: &hash)
      }
    }
    slotHash = hash
    hashedSlotCount = slots.count
  }

  /// Feeds `text` and a field end into `hash`.
  private static func mix(_ text: String, into hash: inout FNV1a) {
    var text = text
    text.withUTF8 { hash.feed($0) }  // contiguous bytes: no per-byte index checks
    hash.feed(0xff)  // ends the field
  }

  /// Computes ``fingerprint`` (FNV-1a over slot names, types, the defaults of declared facts and
  /// string ids): a snapshot made for one layout holds that layout's defaults.
  mutating func computeFingerprint() {
    hashSlots()
    var hash = slotHash
    for (text, id) in stringIDs.stablySorted(by: { $0.value < $1.value }) {
      FactLayout.mix(text, into: &hash)
      FactLayout.mix(String(id), into: &hash)
    }
    fingerprint = hash.value
  }

  /// The slot named `name` (`days`, `events("purchase")`), if the policy has one.
  package func slot(named name: String) -> Int? {
    slotsByName[name]
  }

  mutating func addSlot(
    name: String, type: PolicyType, isOptional: Bool, origin: FactOrigin, defaultValue: Value?, meaning: String
  ) -> Int {
    let index = slots.count
    slots.append(
      FactSlot(
        name: name, type: type, isOptional: isOptional, origin: origin, defaultValue: defaultValue,
        meaning: meaning, word: wordCount))
    wordCount += type == .version ? 2 : 1
    slotsByName[name] = index
    return index
  }

  /// The id of the string literal `text`, interning it if needed.
  mutating func intern(_ text: String) -> Int64 {
    if let id = stringIDs[text] { return id }
    let id = Int64(stringIDs.count + 1)
    stringIDs[text] = id
    return id
  }

  /// The name of member `key` of `family`, such as `events("purchase")` or `logins_within(365d)`.
  ///
  /// A duration key is written in the largest unit that divides it exactly, so `365d`,
  /// `52w 1d` and `8760h` all name `logins_within(365d)`.
  static func memberName(family: String, key: Value) -> String {
    guard case .duration(let span) = key, !span.isInfinite, span.milliseconds != 0 else {
      return "\(family)(\(key))"
    }
    for unit in DurationUnit.allCases.reversed() where span.milliseconds % unit.milliseconds == 0 {
      return "\(family)(\(span.milliseconds / unit.milliseconds)\(unit.symbol))"
    }
    return "\(family)(\(span))"
  }

  /// The name of member `key` of `family` in this layout: ``memberName(family:key:)`` of the key
  /// cut to the family's key length, as the checker names the slot.
  package func memberName(family: String, key: Value) -> String {
    FactLayout.memberName(
      family: family, key: FactFamilyDefinition.memberKey(key, keyLength: familyKeyLengths[family]))
  }

  /// The canonical member name in this layout for text such as `logins_within(8760h)` or
  /// `events('x')` written the way a policy writes it (a string key cut to its family's key
  /// length), or nil when `text` is not `family(literal)`.
  package func canonicalMemberName(_ text: String) -> String? {
    FactLayout.member(parsing: text).map { memberName(family: $0.family, key: $0.key) }
  }

  /// The family and key of text such as `events("x")` or `logins_within(8w)`, written the
  /// way a policy writes a member; nil when `text` is not `family(literal)`.
  package static func member(parsing text: String) -> (family: String, key: Value)? {
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
    let family = String(text[..<open])
    let argument = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    if argument.hasPrefix("\""), argument.hasSuffix("\""), argument.count >= 2 {
      return (family, .string(StringLiteral.unquoted(ArraySlice(argument.utf8))))
    }
    if let integer = Int64(argument) { return (family, .int(integer)) }
    if let span = TimeSpan(parsing: argument) { return (family, .duration(span)) }
    return nil
  }
}
