/// A snapshot of the facts one decision is made on, laid out for one compiled policy.
///
/// Create it with ``CompiledPolicy/makeFacts(now:)``, set values by name (a
/// hash lookup, done once when the snapshot is built) or by slot, then pass it
/// to ``CompiledPolicy/decide(_:)`` as often as needed: evaluation reads
/// fixed storage words and never looks a name up.
///
/// `@unchecked Sendable`: the storage buffer is a class, written only after ``Facts`` has made
/// sure it holds the only reference (copy on write), so a buffer two threads can see is never written.
public struct Facts: @unchecked Sendable {
  /// The instant of the evaluation: `now` in policies, the reference point of `since`.
  public var now: Timestamp
  /// The subject's 64-bit seed, from which `bucket("name")` draws its value (see `Bucket`): the
  /// host gives each subject (an install, a simulated user) its own, stable one. 0 until set.
  public var seed: UInt64 = 0
  let fingerprint: UInt64
  /// The layout, string tables, value words and presence bits, in one copy-on-write allocation:
  /// copying a snapshot is one reference count, not one per array.
  private var buffer: FactsBuffer

  init(layout: FactLayout, now: Timestamp) {
    self.fingerprint = layout.fingerprint
    self.now = now
    self.buffer = FactsBuffer.make(layout: layout)
    for (slot, definition) in layout.slots.enumerated() {
      if let value = definition.defaultValue {
        store(value, at: slot)
      }
    }
  }

  /// The buffer's header, reached through its address: `ManagedBuffer.header` is a class's
  /// stored property, and every access to one is checked for exclusivity at run time (about
  /// 80 instructions, more than the write it guards). Valid while `buffer` is not replaced.
  private var header: UnsafeMutablePointer<FactsHeader> {
    buffer.withUnsafeMutablePointerToHeader { $0 }
  }

  /// The layout the snapshot follows.
  package var layout: FactLayout {
    _read { yield header.pointee.layout }  // borrowed: reading a slot copies nothing
  }

  /// The number of value words, then of presence words, the snapshot holds.
  var storageCounts: (words: Int, presence: Int) {
    let header = header
    return (header.pointee.wordCount, header.pointee.presenceCount)
  }

  /// Calls `body` with the value words and the presence bits (one bit per slot).
  func withStorage<Result>(
    _ body: (_ words: UnsafePointer<Int64>, _ presence: UnsafePointer<UInt64>) -> Result
  ) -> Result {
    let (wordCount, presenceCount) = storageCounts
    return buffer.withUnsafeMutablePointerToElements { elements in
      (elements + wordCount).withMemoryRebound(to: UInt64.self, capacity: presenceCount) { presence in
        body(UnsafePointer(elements), UnsafePointer(presence))
      }
    }
  }

  /// Makes the buffer this snapshot's own before a write.
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
  }

  private func word(_ index: Int) -> Int64 {
    buffer.withUnsafeMutablePointerToElements { $0[index] }
  }

  private mutating func setWord(_ index: Int, to value: Int64) {
    makeUnique()
    buffer.withUnsafeMutablePointerToElements { $0[index] = value }
  }

  private func presenceWord(_ index: Int) -> UInt64 {
    UInt64(bitPattern: word(header.pointee.wordCount + index))
  }

  private mutating func setPresent(_ slot: Int, _ present: Bool) {
    let index = header.pointee.wordCount + (slot >> 6)
    let bit = Int64(bitPattern: 1 << UInt64(slot & 63))
    let old = word(index)
    setWord(index, to: present ? old | bit : old & ~bit)
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
    guard let slot = layout.slot(named: name) ?? layout.canonicalMemberName(name).flatMap(layout.slot(named:))
    else {
      throw .unknownFact(name, suggestion: EditDistance.suggestion(for: name, among: layout.slots.map(\.name)))
    }
    try set(slot: slot, to: value)
  }

  /// Sets the fact in slot `slot` (see ``FactLayout/slot(named:)``).
  package mutating func set(slot: Int, to value: Value) throws(SetError) {
    guard layout.slots.indices.contains(slot) else { throw .unknownFact("#\(slot)", suggestion: nil) }
    let type = layout.slots[slot].type
    var value = value
    if type == .number, case .int(let integer) = value, let number = Number(exactly: integer) {
      value = .number(number)
    }
    guard value.type == type else {
      throw .typeMismatch(layout.slots[slot].name, expected: type, found: value.type)
    }
    store(value, at: slot)
  }

  /// Marks the fact in slot `slot` as absent (only for facts that can be absent).
  package mutating func setAbsent(slot: Int) throws(SetError) {
    guard layout.slots.indices.contains(slot) else { throw .unknownFact("#\(slot)", suggestion: nil) }
    guard layout.slots[slot].isOptional else { throw .notOptional(layout.slots[slot].name) }
    forget(slot)
  }

  /// Marks the fact named `name` as absent (only for facts that can be absent).
  public mutating func setAbsent(_ name: String) throws(SetError) {
    guard let slot = layout.slot(named: name) else {
      throw .unknownFact(name, suggestion: EditDistance.suggestion(for: name, among: layout.slots.map(\.name)))
    }
    guard layout.slots[slot].isOptional else { throw .notOptional(name) }
    forget(slot)
  }

  /// Marks slot `slot` absent, dropping its text if it holds a string.
  private mutating func forget(_ slot: Int) {
    setPresent(slot, false)
    if layout.slots[slot].type == .string {
      makeUnique()
      header.pointee.stringTexts[slot] = nil
    }
  }

  /// Sets a family member, such as `events("purchase")`, if the policy reads it.
  ///
  /// Returns false when the policy does not use that member (nothing to set).
  @discardableResult
  public mutating func set(family: String, key: Value, to value: Value) throws(SetError) -> Bool {
    guard let slot = layout.slot(named: layout.memberName(family: family, key: key)) else { return false }
    try set(slot: slot, to: value)
    return true
  }

  /// Writes `value` (of the slot's type) into slot `slot` and marks it present: one uniqueness
  /// check, then plain stores through the buffer's pointers.
  mutating func store(_ value: Value, at slot: Int) {
    makeUnique()
    buffer.withUnsafeMutablePointers { header, words in
      let word = header.pointee.layout.slots[slot].word
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
        if let id = header.pointee.layout.stringIDs[text] {
          words[word] = id
        } else if let id = header.pointee.otherStrings[text] {
          words[word] = id
        } else {
          let id = -Int64(header.pointee.otherStrings.count + 1)
          header.pointee.otherStrings[text] = id
          words[word] = id
        }
        header.pointee.stringTexts[slot] = text
      }
      words[header.pointee.wordCount + (slot >> 6)] |= Int64(bitPattern: 1 << UInt64(slot & 63))
    }
  }

  // MARK: - Reading

  /// Whether slot `slot` has a value.
  package func isPresent(slot: Int) -> Bool {
    layout.slots.indices.contains(slot) && presenceWord(slot >> 6) & (1 << UInt64(slot & 63)) != 0
  }

  /// The value in slot `slot`, or nil when it is absent or unset.
  func value(atSlot slot: Int) -> Value? {
    guard isPresent(slot: slot) else { return nil }
    let (type, first) = (layout.slots[slot].type, layout.slots[slot].word)
    let word = word(first)
    switch type {
    case .bool: return .bool(word != 0)
    case .int: return .int(word)
    case .number: return .number(Number(scaled: word))
    case .duration: return .duration(TimeSpan(milliseconds: word))
    case .instant: return .instant(Timestamp(millisecondsSince1970: word))
    case .version:
      return .version(Version(high: UInt64(bitPattern: word), low: UInt64(bitPattern: self.word(first + 1))))
    case .string: return .string(header.pointee.stringTexts[slot] ?? "")
    }
  }

  /// The value of the fact named `name`, or nil when it is absent, unset or unknown.
  public func value(of name: String) -> Value? {
    (layout.slot(named: name) ?? layout.canonicalMemberName(name).flatMap(layout.slot(named:))).flatMap(value(atSlot:))
  }

  /// The names of facts that cannot be absent but have no value.
  public var missingFacts: [String] {
    layout.slots.indices.filter { !layout.slots[$0].isOptional && !isPresent(slot: $0) }.map { layout.slots[$0].name }
  }
}

/// What a ``FactsBuffer`` holds besides its words.
struct FactsHeader {
  var layout: FactLayout
  /// Value words; the presence words follow them.
  var wordCount: Int
  var presenceCount: Int
  /// Ids for strings that are not literals of the policy (negative, so they never equal a literal).
  var otherStrings: [String: Int64] = [:]
  /// The text of each string-valued slot, for explanations.
  var stringTexts: [Int: String] = [:]
}

/// The storage of one ``Facts`` snapshot: the header, then `wordCount` value words and
/// `presenceCount` presence words. Written only through ``Facts``, which copies it first unless
/// it holds the only reference.
final class FactsBuffer: ManagedBuffer<FactsHeader, Int64> {
  /// A zeroed buffer for `layout`.
  static func make(layout: FactLayout) -> FactsBuffer {
    let wordCount = max(layout.wordCount, 1)
    let presenceCount = max((layout.slots.count + 63) / 64, 1)
    let header = FactsHeader(layout: layout, wordCount: wordCount, presenceCount: presenceCount)
    let buffer = unsafeDowncast(
      FactsBuffer.create(minimumCapacity: wordCount + presenceCount) { _ in header }, to: FactsBuffer.self)
    buffer.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: wordCount + presenceCount) }
    return buffer
  }

  /// A buffer with the same header and words.
  func copy() -> FactsBuffer {
    withUnsafeMutablePointers { header, source in
      let count = header.pointee.wordCount + header.pointee.presenceCount
      let copied = header.pointee
      let buffer = unsafeDowncast(FactsBuffer.create(minimumCapacity: count) { _ in copied }, to: FactsBuffer.self)
      buffer.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: count) }
      return buffer
    }
  }
}
