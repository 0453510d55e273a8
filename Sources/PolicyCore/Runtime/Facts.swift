/// A snapshot of the facts one decision is made on, laid out for one compiled policy.
///
/// Create it with ``CompiledPolicy/makeFacts(now:)``, set values by name (a
/// hash lookup, done once when the snapshot is built) or by slot, then pass it
/// to ``CompiledPolicy/decide(_:)`` as often as needed: evaluation reads
/// fixed storage words and never looks a name up.
public struct Facts: Sendable {
  /// The layout the snapshot follows.
  public let layout: FactLayout
  /// The instant of the evaluation: `now` in policies, the reference point of `since`.
  public var now: Timestamp
  let fingerprint: UInt64
  var words: [Int64]
  var presence: [UInt64]
  /// Ids for strings that are not literals of the policy (negative, so they never equal a literal).
  var otherStrings: [String: Int64] = [:]
  /// The text of each string-valued slot, for explanations.
  var stringTexts: [Int: String] = [:]

  init(layout: FactLayout, now: Timestamp) {
    self.layout = layout
    self.fingerprint = layout.fingerprint
    self.now = now
    self.words = Array(repeating: 0, count: max(layout.wordCount, 1))
    self.presence = Array(repeating: 0, count: max((layout.slots.count + 63) / 64, 1))
    for (slot, definition) in layout.slots.enumerated() {
      if let value = definition.defaultValue {
        store(value, at: slot)
      }
    }
  }

  /// Why a value could not be set.
  public enum SetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No fact of that name in this policy's layout; `suggestion` is a close name, if any.
    case unknownFact(String, suggestion: String?)
    /// The value's type is not the fact's type.
    case typeMismatch(String, expected: PolicyType, found: PolicyType)
    /// The fact cannot be absent.
    case notOptional(String)

    /// A lowercase message naming the fact in backticks.
    public var description: String {
      switch self {
      case .unknownFact(let name, let suggestion):
        "unknown fact `\(name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
      case .typeMismatch(let name, let expected, let found):
        "fact `\(name)` is \(expected == .int || expected == .instant ? "an" : "a") `\(expected)`, not a `\(found)`"
      case .notOptional(let name):
        "fact `\(name)` cannot be absent"
      }
    }
  }

  // MARK: - Setting

  /// Sets the fact named `name` (`days`, or `events("purchase")` for a family member).
  ///
  /// An `int` is accepted for a `number` fact. Names the policy does not know are
  /// an error, so typos in host code are caught.
  public mutating func set(_ name: String, to value: Value) throws(SetError) {
    guard let slot = layout.slot(named: name) ?? FactLayout.canonicalMemberName(name).flatMap(layout.slot(named:)) else {
      throw .unknownFact(name, suggestion: EditDistance.suggestion(for: name, among: layout.slots.map(\.name)))
    }
    try set(slot: slot, to: value)
  }

  /// Sets the fact in slot `slot` (see ``FactLayout/slot(named:)``).
  public mutating func set(slot: Int, to value: Value) throws(SetError) {
    guard layout.slots.indices.contains(slot) else { throw .unknownFact("#\(slot)", suggestion: nil) }
    let definition = layout.slots[slot]
    var value = value
    if definition.type == .number, case .int(let integer) = value, let number = Number(exactly: integer) {
      value = .number(number)
    }
    guard value.type == definition.type else {
      throw .typeMismatch(definition.name, expected: definition.type, found: value.type)
    }
    store(value, at: slot)
  }

  /// Marks the fact named `name` as absent (only for facts that can be absent).
  public mutating func setAbsent(_ name: String) throws(SetError) {
    guard let slot = layout.slot(named: name) else {
      throw .unknownFact(name, suggestion: EditDistance.suggestion(for: name, among: layout.slots.map(\.name)))
    }
    guard layout.slots[slot].isOptional else { throw .notOptional(name) }
    presence[slot >> 6] &= ~(1 << UInt64(slot & 63))
    stringTexts[slot] = nil
  }

  /// Sets a family member, such as `events("purchase")`, if the policy reads it.
  ///
  /// Returns false when the policy does not use that member (nothing to set).
  @discardableResult
  public mutating func set(family: String, key: Value, to value: Value) throws(SetError) -> Bool {
    guard let slot = layout.slot(named: FactLayout.memberName(family: family, key: key)) else { return false }
    try set(slot: slot, to: value)
    return true
  }

  mutating func store(_ value: Value, at slot: Int) {
    let word = layout.slots[slot].word
    switch value {
    case .bool(let flag): words[word] = flag ? 1 : 0
    case .int(let integer): words[word] = integer
    case .number(let number): words[word] = number.scaled
    case .duration(let span): words[word] = span.milliseconds
    case .instant(let instant): words[word] = instant.millisecondsSince1970
    case .version(let version):
      words[word] = Int64(bitPattern: version.high)
      words[word + 1] = Int64(bitPattern: version.low)
    case .string(let text):
      if let id = layout.stringIDs[text] {
        words[word] = id
      } else if let id = otherStrings[text] {
        words[word] = id
      } else {
        let id = -Int64(otherStrings.count + 1)
        otherStrings[text] = id
        words[word] = id
      }
      stringTexts[slot] = text
    }
    presence[slot >> 6] |= 1 << UInt64(slot & 63)
  }

  // MARK: - Reading

  /// Whether slot `slot` has a value.
  public func isPresent(slot: Int) -> Bool {
    layout.slots.indices.contains(slot) && presence[slot >> 6] & (1 << UInt64(slot & 63)) != 0
  }

  /// The value in slot `slot`, or nil when it is absent or unset.
  public func value(atSlot slot: Int) -> Value? {
    guard isPresent(slot: slot) else { return nil }
    let definition = layout.slots[slot]
    let word = words[definition.word]
    switch definition.type {
    case .bool: return .bool(word != 0)
    case .int: return .int(word)
    case .number: return .number(Number(scaled: word))
    case .duration: return .duration(TimeSpan(milliseconds: word))
    case .instant: return .instant(Timestamp(millisecondsSince1970: word))
    case .version:
      return .version(Version(high: UInt64(bitPattern: word), low: UInt64(bitPattern: words[definition.word + 1])))
    case .string: return .string(stringTexts[slot] ?? "")
    }
  }

  /// The value of the fact named `name`, or nil when it is absent, unset or unknown.
  public func value(of name: String) -> Value? {
    layout.slot(named: name).flatMap(value(atSlot:))
  }

  /// The names of facts that cannot be absent but have no value.
  public var missingFacts: [String] {
    layout.slots.indices.filter { !layout.slots[$0].isOptional && !isPresent(slot: $0) }.map { layout.slots[$0].name }
  }
}
