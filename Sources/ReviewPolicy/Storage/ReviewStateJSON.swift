import PolicyCore

/// A fast, exact JSON encoder and decoder for ``ReviewState`` in the format Foundation's `Codable`
/// writes (sorted keys, no spaces, instants as milliseconds, numbers as decimal text).
///
/// Foundation's coders cost about a millisecond for a two-year state; these cost a few
/// microseconds. The decoder is strict: anything it does not fully understand (an unexpected type,
/// a duplicate key, deep nesting, a newer format) returns nil, and ``ReviewStateCoding`` then
/// decodes with Foundation, which is the reference and explains the problem.
enum ReviewStateJSON {
  // MARK: - Encoding

  /// The JSON for `state`.
  static func encode(_ state: ReviewState) -> [UInt8] {
    var writer = Writer()
    writer.bytes.reserveCapacity(1024 + 48 * (state.recentSessions.count + state.promptHistory.count))
    writer.state(state, changedFrom: nil)
    return writer.bytes
  }

  /// A patch from `old` to `new`: a JSON object of the top-level members that differ (a removed
  /// optional member as `null`), then a newline. Applying it to `old` gives `new`.
  static func patch(from old: ReviewState, to new: ReviewState) -> [UInt8] {
    var writer = Writer()
    writer.bytes.reserveCapacity(256)
    writer.state(new, changedFrom: old)
    writer.bytes.append(0x0A)
    return writer.bytes
  }

  /// Writes JSON into a byte buffer. Keys are written in sorted order by hand.
  struct Writer {
    var bytes: [UInt8] = []
    private var needsComma = false

    /// Writes `s`: every member, or with `old` only those that differ from it.
    mutating func state(_ s: ReviewState, changedFrom old: ReviewState?) {
      begin()
      func member<T: Equatable>(_ name: StaticString, _ path: KeyPath<ReviewState, T>, _ value: (inout Writer) -> Void)
      {
        if let old, old[keyPath: path] == s[keyPath: path] { return }
        key(name, value)
      }
      func optional<T: Equatable>(
        _ name: StaticString, _ path: KeyPath<ReviewState, T?>, _ value: ((inout Writer) -> Void)?
      ) {
        if let old, old[keyPath: path] == s[keyPath: path] { return }
        if let value {
          key(name, value)
        } else if old != nil {
          key(name) { $0.null() }
        }
      }
      optional("build", \.build, s.build.map(stringWriter))
      optional("clockHighWater", \.clockHighWater, s.clockHighWater.map(instantWriter))
      optional("currentSession", \.currentSession, s.currentSession.map(sessionWriter))
      member("declined", \.declined) { $0.bool(s.declined) }
      member("declinedAny", \.declinedAny) { $0.bool(s.declinedAny) }
      // Left out while 0 (as the state's `Codable` does), so a state never reset is written as before.
      if old.map({ $0.epoch != s.epoch }) ?? (s.epoch != 0) { key("epoch") { $0.int(s.epoch) } }
      member("events", \.events) { $0.int(s.events) }
      member("eventsByName", \.eventsByName) { $0.counts(s.eventsByName) }
      member("feedback", \.feedback) { $0.bool(s.feedback) }
      optional("firstSession", \.firstSession, s.firstSession.map(instantWriter))
      optional("firstUse", \.firstUse, s.firstUse.map(instantWriter))
      member("format", \.format) { $0.int(s.format) }
      member("importedLegacy", \.importedLegacy) { w in w.array(s.importedLegacy) { $0.string($1) } }
      optional("installDate", \.installDate, s.installDate.map(instantWriter))
      optional("installSeed", \.installSeed, s.installSeed.map(int64Writer))
      optional("lastBadSession", \.lastBadSession, s.lastBadSession.map(sessionWriter))
      optional("lastDecline", \.lastDecline, s.lastDecline.map(instantWriter))
      optional("lastRating", \.lastRating, s.lastRating.map(instantWriter))
      optional("lastReminder", \.lastReminder, s.lastReminder.map(instantWriter))
      optional("policyReceivedUnder", \.policyReceivedUnder, s.policyReceivedUnder.map(stringWriter))
      optional("policySource", \.policySource, s.policySource.map(stringWriter))
      optional("previousVersion", \.previousVersion, s.previousVersion.map(stringWriter))
      member("promptHistory", \.promptHistory) { w in w.array(s.promptHistory) { $0.prompt($1) } }
      member("prompts", \.prompts) { $0.int(s.prompts) }
      member("rated", \.rated) { $0.bool(s.rated) }
      member("ratedAny", \.ratedAny) { $0.bool(s.ratedAny) }
      member("recentSessions", \.recentSessions) { w in w.array(s.recentSessions) { $0.session($1) } }
      member("responses", \.responses) { w in w.array(s.responses) { $0.response($1) } }
      member("sessions", \.sessions) { $0.int(s.sessions) }
      member("totalEvents", \.totalEvents) { $0.int(s.totalEvents) }
      member("totalEventsByName", \.totalEventsByName) { $0.counts(s.totalEventsByName) }
      member("totalPrompts", \.totalPrompts) { $0.int(s.totalPrompts) }
      member("totalSessions", \.totalSessions) { $0.int(s.totalSessions) }
      member("totalUses", \.totalUses) { $0.int(s.totalUses) }
      member("uses", \.uses) { $0.int(s.uses) }
      optional("version", \.version, s.version.map(stringWriter))
      end()
    }

    private mutating func null() {
      bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    // Curried writers for optional values: `s.firstUse.map(instant)` is nil when absent.
    private func instantWriter(_ value: Timestamp) -> (inout Writer) -> Void {
      { $0.int64(value.millisecondsSince1970) }
    }
    private func stringWriter(_ value: String) -> (inout Writer) -> Void { { $0.string(value) } }
    private func int64Writer(_ value: Int64) -> (inout Writer) -> Void { { $0.int64(value) } }
    private func sessionWriter(_ value: SessionRecord) -> (inout Writer) -> Void { { $0.session(value) } }

    private mutating func begin() {
      bytes.append(UInt8(ascii: "{"))
      needsComma = false
    }

    private mutating func end() {
      bytes.append(UInt8(ascii: "}"))
      needsComma = true
    }

    private mutating func key(_ name: StaticString, _ value: ((inout Writer) -> Void)?) {
      guard let value else { return }
      key(name, value)
    }

    private mutating func key(_ name: StaticString, _ value: (inout Writer) -> Void) {
      if needsComma { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      name.withUTF8Buffer { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ":"))
      value(&self)
      needsComma = true
    }

    private mutating func array<T>(_ items: [T], _ item: (inout Writer, T) -> Void) {
      bytes.append(UInt8(ascii: "["))
      for (index, element) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        item(&self, element)
      }
      bytes.append(UInt8(ascii: "]"))
      needsComma = true
    }

    private mutating func counts(_ counts: [String: Int]) {
      begin()
      for name in counts.keys.sorted() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
        int(counts[name] ?? 0)
        needsComma = true
      }
      end()
    }

    private mutating func session(_ record: SessionRecord) {
      begin()
      key("isBad") { $0.bool(record.isBad) }
      key("number") { $0.int(record.number) }
      key("score") { $0.string(record.score.description) }
      key("start") { $0.int64(record.start.millisecondsSince1970) }
      key("version") { $0.string(record.version) }
      end()
    }

    private mutating func prompt(_ record: PromptRecord) {
      begin()
      key("date") { $0.int64(record.date.millisecondsSince1970) }
      key("outcome") { $0.string(record.outcome.rawValue) }
      key("session") { $0.int(record.session) }
      key("version") { $0.string(record.version) }
      end()
    }

    private mutating func response(_ record: ResponseRecord) {
      begin()
      key("date") { $0.int64(record.date.millisecondsSince1970) }
      key("response") { $0.string(record.response.rawValue) }
      key("version") { $0.string(record.version) }
      end()
    }

    private mutating func bool(_ value: Bool) {
      if value {
        bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
      } else {
        bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
      }
    }

    private mutating func int(_ value: Int) {
      int64(Int64(value))
    }

    private mutating func int64(_ value: Int64) {
      if value < 0 { bytes.append(UInt8(ascii: "-")) }
      var magnitude = value.magnitude
      // Up to 20 digits, written from the end of a small buffer.
      var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
      withUnsafeMutableBytes(of: &digits) { buffer in
        var index = 20
        repeat {
          index -= 1
          buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
          magnitude /= 10
        } while magnitude > 0
        bytes.append(contentsOf: buffer[index..<20])
      }
    }

    private mutating func string(_ value: String) {
      bytes.append(UInt8(ascii: "\""))
      for byte in value.utf8 {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0..<0x20:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: [
            UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
            hex[Int(byte & 0xF)],
          ])
        default: bytes.append(byte)
        }
      }
      bytes.append(UInt8(ascii: "\""))
    }
  }

  // MARK: - Decoding

  /// The state in `bytes`, or nil when the fast decoder does not accept them (Foundation then decides).
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> ReviewState? {
    var parser = Parser(bytes: bytes)
    guard let value = parser.parseDocument(), let members = members(value) else { return nil }
    var state = ReviewState()
    return apply(members, to: &state, complete: true) ? state : nil
  }

  /// The members of the JSON object in `bytes` (one journal line, without its newline), or nil.
  static func object(_ bytes: UnsafeBufferPointer<UInt8>) -> [(key: String, value: Value)]? {
    var parser = Parser(bytes: bytes)
    guard case .object(let list)? = parser.parseDocument() else { return nil }
    return list
  }

  /// `state` with `members` (the last value of each member over several patches) set, or nil
  /// when one has the wrong type.
  static func applying(members: [String: Value], to state: ReviewState) -> ReviewState? {
    var patched = state
    return apply(members, to: &patched, complete: false) ? patched : nil
  }

  /// `state` with the patch in `bytes` (one journal line, without its newline) applied, or nil
  /// when the line is not a patch this decoder understands.
  static func applying(patch bytes: UnsafeBufferPointer<UInt8>, to state: ReviewState) -> ReviewState? {
    var parser = Parser(bytes: bytes)
    guard let value = parser.parseDocument(), let members = members(value) else { return nil }
    var patched = state
    return apply(members, to: &patched, complete: false) ? patched : nil
  }

  /// A parsed JSON value.
  indirect enum Value {
    case object([(key: String, value: Value)])
    case array([Value])
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
  }

  /// A strict recursive-descent JSON parser: integers only (no fraction or exponent), bounded depth.
  struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    static let maximumDepth = 16

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    mutating func parseDocument() -> Value? {
      guard let value = parseValue() else { return nil }
      skipSpace()
      return index == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x0A, 0x0D, 0x09: index += 1
        default: return
        }
      }
    }

    private mutating func parseValue() -> Value? {
      skipSpace()
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"): return parseObject()
      case UInt8(ascii: "["): return parseArray()
      case UInt8(ascii: "\""): return parseString().map(Value.string)
      case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return literal("null") ? .null : nil
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return parseInteger()
      default: return nil
      }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
      let count = word.utf8CodeUnitCount
      guard bytes.count - index >= count else { return false }
      let matches = word.withUTF8Buffer { expected in
        (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
      }
      if matches { index += count }
      return matches
    }

    private mutating func parseObject() -> Value? {
      guard depth < Parser.maximumDepth else { return nil }
      depth += 1
      defer { depth -= 1 }
      index += 1
      var members: [(key: String, value: Value)] = []
      skipSpace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = parseString() else { return nil }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        guard let value = parseValue() else { return nil }
        members.append((key, value))
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        } else {
          return nil
        }
      }
    }

    private mutating func parseArray() -> Value? {
      guard depth < Parser.maximumDepth else { return nil }
      depth += 1
      defer { depth -= 1 }
      index += 1
      var items: [Value] = []
      skipSpace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        guard let value = parseValue() else { return nil }
        items.append(value)
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
        } else if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(items)
        } else {
          return nil
        }
      }
    }

    /// A plain integer: `-?(0|[1-9][0-9]*)`, within `Int64`. Anything else is left to Foundation.
    private mutating func parseInteger() -> Value? {
      var negative = false
      if bytes[index] == UInt8(ascii: "-") {
        negative = true
        index += 1
      }
      let start = index
      var magnitude: UInt64 = 0
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
        let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
        guard !overflow1, !overflow2 else { return nil }
        magnitude = sum
        index += 1
      }
      let digits = index - start
      guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
      if index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: break
        }
      }
      if negative {
        guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return .integer(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
      }
      guard magnitude <= UInt64(Int64.max) else { return nil }
      return .integer(Int64(magnitude))
    }

    /// A string; the index is at its opening quote. Nil for invalid UTF-8 or escapes.
    private mutating func parseString() -> String? {
      index += 1
      let start = index
      var plain = true
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          break
        } else if byte == UInt8(ascii: "\\") {
          plain = false
          index += 2
        } else if byte < 0x20 {
          return nil
        } else {
          index += 1
        }
      }
      guard index < bytes.count else { return nil }
      let end = index
      index += 1
      let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
      if plain { return String(validating: raw, as: UTF8.self) }
      return unescape(raw)
    }

    private func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
      var output: [UInt8] = []
      output.reserveCapacity(raw.count)
      var position = 0
      while position < raw.count {
        let byte = raw[position]
        guard byte == UInt8(ascii: "\\") else {
          output.append(byte)
          position += 1
          continue
        }
        guard position + 1 < raw.count else { return nil }
        let escaped = raw[position + 1]
        position += 2
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
          guard let unit = hex4(raw, position) else { return nil }
          position += 4
          var scalarValue = UInt32(unit)
          if (0xD800...0xDBFF).contains(unit) {
            guard position + 6 <= raw.count, raw[position] == UInt8(ascii: "\\"),
              raw[position + 1] == UInt8(ascii: "u"),
              let low = hex4(raw, position + 2), (0xDC00...0xDFFF).contains(low)
            else { return nil }
            position += 6
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(scalarValue) else { return nil }
          output.append(contentsOf: String(Character(scalar)).utf8)
        default:
          return nil
        }
      }
      return output.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
    }

    private func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt16? {
      guard start + 4 <= raw.count else { return nil }
      var value: UInt16 = 0
      for offset in 0..<4 {
        let byte = raw[start + offset]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: return nil
        }
        value = value << 4 | UInt16(digit)
      }
      return value
    }
  }

  // MARK: - Mapping values to the state

  /// The members of an object by key; nil when a key repeats (Foundation's choice is left to Foundation).
  private static func members(_ value: Value) -> [String: Value]? {
    guard case .object(let list) = value else { return nil }
    var result: [String: Value] = [:]
    result.reserveCapacity(list.count)
    for (key, member) in list {
      guard result.updateValue(member, forKey: key) == nil else { return nil }
    }
    return result
  }

  /// Reads required and optional members; any mismatch sets `failed`.
  private struct Reader {
    let members: [String: Value]
    var failed = false

    mutating func int(_ key: String) -> Int {
      guard case .integer(let value)? = members[key], let int = Int(exactly: value) else {
        failed = true
        return 0
      }
      return int
    }

    mutating func bool(_ key: String) -> Bool {
      guard case .bool(let value)? = members[key] else {
        failed = true
        return false
      }
      return value
    }

    mutating func string(_ key: String) -> String {
      guard case .string(let value)? = members[key] else {
        failed = true
        return ""
      }
      return value
    }

    mutating func instant(_ key: String) -> Timestamp {
      guard case .integer(let value)? = members[key] else {
        failed = true
        return Timestamp(millisecondsSince1970: 0)
      }
      return Timestamp(millisecondsSince1970: value)
    }

    mutating func array<T>(_ key: String, _ element: (Value) -> T?) -> [T] {
      guard case .array(let items)? = members[key] else {
        failed = true
        return []
      }
      var result: [T] = []
      result.reserveCapacity(items.count)
      for item in items {
        guard let converted = element(item) else {
          failed = true
          return []
        }
        result.append(converted)
      }
      return result
    }

    mutating func counts(_ key: String) -> [String: Int] {
      guard case .object(let list)? = members[key] else {
        failed = true
        return [:]
      }
      var result: [String: Int] = [:]
      result.reserveCapacity(list.count)
      for (name, value) in list {
        guard case .integer(let count) = value, let int = Int(exactly: count),
          result.updateValue(int, forKey: name) == nil
        else {
          failed = true
          return [:]
        }
      }
      return result
    }

    mutating func session(_ key: String) -> SessionRecord {
      guard let value = members[key], let record = ReviewStateJSON.session(value) else {
        failed = true
        return SessionRecord(number: 0, start: Timestamp(millisecondsSince1970: 0), version: "")
      }
      return record
    }
  }

  /// Sets the members of `state` found in `members`: every member when `complete` (a whole state,
  /// where an absent optional member is nil), or only those present (a patch). Returns false
  /// when a member has the wrong type or, when `complete`, a required one is missing.
  private static func apply(_ members: [String: Value], to state: inout ReviewState, complete: Bool) -> Bool {
    var r = Reader(members: members)
    func required<T>(_ key: String, _ path: WritableKeyPath<ReviewState, T>, _ read: (inout Reader, String) -> T) {
      guard complete || members[key] != nil else { return }
      state[keyPath: path] = read(&r, key)
    }
    func optional<T>(_ key: String, _ path: WritableKeyPath<ReviewState, T?>, _ read: (inout Reader, String) -> T) {
      switch members[key] {
      case nil: if complete { state[keyPath: path] = nil }
      case .null?: state[keyPath: path] = nil
      default: state[keyPath: path] = read(&r, key)
      }
    }
    required("format", \.format) { $0.int($1) }
    guard !r.failed, state.format <= ReviewState.currentFormat else { return false }
    optional("version", \.version) { $0.string($1) }
    optional("build", \.build) { $0.string($1) }
    optional("firstUse", \.firstUse) { $0.instant($1) }
    required("uses", \.uses) { $0.int($1) }
    required("events", \.events) { $0.int($1) }
    required("eventsByName", \.eventsByName) { $0.counts($1) }
    required("sessions", \.sessions) { $0.int($1) }
    required("prompts", \.prompts) { $0.int($1) }
    required("declined", \.declined) { $0.bool($1) }
    required("rated", \.rated) { $0.bool($1) }
    required("feedback", \.feedback) { $0.bool($1) }
    optional("lastReminder", \.lastReminder) { $0.instant($1) }
    optional("installDate", \.installDate) { $0.instant($1) }
    optional("firstSession", \.firstSession) { $0.instant($1) }
    optional("installSeed", \.installSeed) { Int64($0.int($1)) }
    optional("previousVersion", \.previousVersion) { $0.string($1) }
    if members["epoch"] != nil {
      state.epoch = r.int("epoch")
    } else if complete {
      state.epoch = 0
    }
    required("totalUses", \.totalUses) { $0.int($1) }
    required("totalEvents", \.totalEvents) { $0.int($1) }
    required("totalEventsByName", \.totalEventsByName) { $0.counts($1) }
    required("totalSessions", \.totalSessions) { $0.int($1) }
    required("totalPrompts", \.totalPrompts) { $0.int($1) }
    required("declinedAny", \.declinedAny) { $0.bool($1) }
    required("ratedAny", \.ratedAny) { $0.bool($1) }
    optional("lastDecline", \.lastDecline) { $0.instant($1) }
    optional("lastRating", \.lastRating) { $0.instant($1) }
    optional("clockHighWater", \.clockHighWater) { $0.instant($1) }
    optional("currentSession", \.currentSession) { $0.session($1) }
    required("recentSessions", \.recentSessions) { $0.array($1, session) }
    optional("lastBadSession", \.lastBadSession) { $0.session($1) }
    required("promptHistory", \.promptHistory) { $0.array($1, prompt) }
    required("responses", \.responses) { $0.array($1, response) }
    optional("policySource", \.policySource) { $0.string($1) }
    optional("policyReceivedUnder", \.policyReceivedUnder) { $0.string($1) }
    required("importedLegacy", \.importedLegacy) { reader, key in
      reader.array(key) { value in
        if case .string(let name) = value { return name }
        return nil
      }
    }
    return !r.failed
  }

  private static func session(_ value: Value) -> SessionRecord? {
    guard let members = members(value) else { return nil }
    var r = Reader(members: members)
    let number = r.int("number")
    let start = r.instant("start")
    let version = r.string("version")
    let scoreText = r.string("score")
    let isBad = r.bool("isBad")
    guard !r.failed, let score = Number(parsing: scoreText) else { return nil }
    return SessionRecord(number: number, start: start, version: version, score: score, isBad: isBad)
  }

  private static func prompt(_ value: Value) -> PromptRecord? {
    guard let members = members(value) else { return nil }
    var r = Reader(members: members)
    let date = r.instant("date")
    let version = r.string("version")
    let session = r.int("session")
    let outcome = PromptOutcome(rawValue: r.string("outcome"))
    guard !r.failed, let outcome else { return nil }
    return PromptRecord(date: date, version: version, session: session, outcome: outcome)
  }

  private static func response(_ value: Value) -> ResponseRecord? {
    guard let members = members(value) else { return nil }
    var r = Reader(members: members)
    let answer = ReviewResponse(rawValue: r.string("response"))
    let date = r.instant("date")
    let version = r.string("version")
    guard !r.failed, let answer else { return nil }
    return ResponseRecord(response: answer, date: date, version: version)
  }
}
