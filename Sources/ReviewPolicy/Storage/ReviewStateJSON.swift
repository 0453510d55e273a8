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

    /// Writes `s`: every member, or with `old` only those that differ from it (a removed
    /// optional member as `null`), in key order (``ReviewStateJSON/stateMembers``).
    mutating func state(_ s: ReviewState, changedFrom old: ReviewState?) {
      begin()
      for member in ReviewStateJSON.stateMembers {
        if let old {
          if member.isSame(old, s) { continue }
          if member.presence == .omittedWhenZero || member.isPresent(s) {
            key(member.key) { member.write(&$0, s) }
          } else {
            key(member.key) { $0.null() }
          }
        } else if member.isPresent(s) {
          key(member.key) { member.write(&$0, s) }
        }
      }
      end()
    }

    mutating func null() {
      bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    private mutating func begin() {
      bytes.append(UInt8(ascii: "{"))
      needsComma = false
    }

    private mutating func end() {
      bytes.append(UInt8(ascii: "}"))
      needsComma = true
    }

    @inline(never)
    private mutating func key(_ name: StaticString, _ value: (inout Writer) -> Void) {
      if needsComma { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      name.withUTF8Buffer { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ":"))
      value(&self)
      needsComma = true
    }

    /// Writes a member whose key is `name`, already quoted and followed by its colon.
    @inline(never)
    private mutating func key(_ name: [UInt8], _ value: (inout Writer) -> Void) {
      if needsComma { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: name)
      value(&self)
      needsComma = true
    }

    mutating func array<T>(_ items: [T], _ item: (inout Writer, T) -> Void) {
      bytes.append(UInt8(ascii: "["))
      for (index, element) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        item(&self, element)
      }
      bytes.append(UInt8(ascii: "]"))
      needsComma = true
    }

    mutating func counts(_ counts: [String: Int]) {
      begin()
      for name in counts.keys.stablySorted(by: <) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
        int(counts[name] ?? 0)
        needsComma = true
      }
      end()
    }

    mutating func session(_ record: SessionRecord) {
      begin()
      key("isBad") { $0.bool(record.isBad) }
      key("number") { $0.int(record.number) }
      key("score") { $0.string(record.score.description) }
      key("start") { $0.int64(record.start.millisecondsSince1970) }
      key("version") { $0.string(record.version) }
      end()
    }

    mutating func prompt(_ record: PromptRecord) {
      begin()
      key("date") { $0.int64(record.date.millisecondsSince1970) }
      key("outcome") { $0.string(record.outcome.rawValue) }
      key("session") { $0.int(record.session) }
      key("version") { $0.string(record.version) }
      end()
    }

    mutating func response(_ record: ResponseRecord) {
      begin()
      key("date") { $0.int64(record.date.millisecondsSince1970) }
      key("response") { $0.string(record.response.rawValue) }
      key("version") { $0.string(record.version) }
      end()
    }

    mutating func bool(_ value: Bool) {
      if value {
        bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
      } else {
        bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
      }
    }

    mutating func int(_ value: Int) {
      int64(Int64(value))
    }

    mutating func int64(_ value: Int64) {
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

    mutating func string(_ value: String) {
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
  struct Reader {
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
  private static func apply(_ values: [String: Value], to state: inout ReviewState, complete: Bool) -> Bool {
    var reader = Reader(members: values)
    if complete || values["format"] != nil { state.format = reader.int("format") }
    guard !reader.failed, state.format <= ReviewState.currentFormat else { return false }
    for member in ReviewStateJSON.stateMembers where member.name != "format" {
      switch (values[member.name], member.presence) {
      case (nil, _):
        if complete { member.clear(&state) }
        if complete && member.presence == .required { reader.failed = true }
      case (.null?, .optional):
        member.clear(&state)
      default:
        member.read(&reader, member.name, &state)
      }
    }
    return !reader.failed
  }

  static func session(_ value: Value) -> SessionRecord? {
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

  static func prompt(_ value: Value) -> PromptRecord? {
    guard let members = members(value) else { return nil }
    var r = Reader(members: members)
    let date = r.instant("date")
    let version = r.string("version")
    let session = r.int("session")
    let outcome = PromptOutcome(rawValue: r.string("outcome"))
    guard !r.failed, let outcome else { return nil }
    return PromptRecord(date: date, version: version, session: session, outcome: outcome)
  }

  static func response(_ value: Value) -> ResponseRecord? {
    guard let members = members(value) else { return nil }
    var r = Reader(members: members)
    let answer = ReviewResponse(rawValue: r.string("response"))
    let date = r.instant("date")
    let version = r.string("version")
    guard !r.failed, let answer else { return nil }
    return ResponseRecord(response: answer, date: date, version: version)
  }
}
