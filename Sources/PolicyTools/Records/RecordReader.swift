import PolicyCore
import ReviewPolicy

/// Reads one line of the record format (docs/records.md) into a ``ReviewRecord``, or says
/// where and why it is not one.
///
/// A hand-written reader for the format's one flat object, byte by byte, with no intermediate
/// tree: `policyc report` reads millions of lines. Keys it does not know are skipped (a later
/// version of the format may add them); a `schema` above ``ReviewRecord/schema`` is refused.
/// Nesting is bounded (``maximumDepth``) and every loop consumes a byte.
package enum RecordReader {
  /// Why a line is not a record: a message with its help, at a byte range of the line.
  package struct Problem: Error, Sendable, Hashable {
    /// The first byte the problem is about (0-based, within the line).
    package var start: Int
    /// One past the last byte.
    package var end: Int
    /// The message.
    package var message: String
    /// How to fix it.
    package var help: String
  }

  /// The deepest nesting of arrays and objects skipped inside an unknown key.
  package static let maximumDepth = 32

  /// The record on `line` (its bytes without the newline).
  package static func record(in line: UnsafeBufferPointer<UInt8>) -> Result<ReviewRecord, Problem> {
    var recent = RecentStrings()
    return record(in: line, recent: &recent)
  }

  /// The record on `line`, reusing the strings of `recent` (the last install and policy read)
  /// when they recur, as they do line after line.
  package static func record(in line: UnsafeBufferPointer<UInt8>, recent: inout RecentStrings) -> Result<
    ReviewRecord, Problem
  > {
    var cursor = Cursor(bytes: line)
    do throws(Problem) {
      return .success(try cursor.record(recent: &recent))
    } catch {
      return .failure(error)
    }
  }

  /// The last `install` and `policy` strings read, with their bytes: a records file names one
  /// install line after line, so most lines make no new string for them.
  package struct RecentStrings {
    var install: (bytes: [UInt8], text: String) = ([], "")
    var policy: (bytes: [UInt8], text: String) = ([], "")

    /// A cache with nothing in it.
    package init() {}
  }

  /// The record in `line` (text without the newline).
  package static func record(in line: String) -> Result<ReviewRecord, Problem> {
    var line = line
    return line.withUTF8 { record(in: $0) }
  }
}

/// The reader's position in one line.
private struct Cursor {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  typealias Problem = RecordReader.Problem
  typealias Messages = RecordMessages

  var atEnd: Bool { index >= bytes.count }

  /// What the reader met at the current byte, for messages.
  var found: String {
    guard index < bytes.count else { return "the end of the line" }
    let byte = bytes[index]
    return byte >= 0x20 && byte < 0x7F ? "`\(Character(UnicodeScalar(byte)))`" : "byte 0x\(String(byte, radix: 16))"
  }

  mutating func skipSpace() {
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D {
      index += 1
    }
  }

  mutating func expect(_ byte: UInt8, _ what: String) throws(Problem) {
    skipSpace()
    guard index < bytes.count, bytes[index] == byte else { throw Messages.expected(what, found: found, at: index) }
    index += 1
  }

  /// record = "{" member { "," member } "}" (the members in any order).
  mutating func record(recent: inout RecordReader.RecentStrings) throws(Problem) -> ReviewRecord {
    skipSpace()
    let open = index
    try expect(UInt8(ascii: "{"), "`{` (a record is one JSON object)")
    var fields = Fields()
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
    } else {
      while true {
        skipSpace()
        let keyStart = index
        let key = try recordKey()
        let keyEnd = index
        try expect(UInt8(ascii: ":"), "`:` after the key")
        skipSpace()
        if let key {
          try member(key, keyRange: keyStart..<keyEnd, into: &fields, recent: &recent)
        } else {
          try skipValue(depth: 0)
        }
        skipSpace()
        guard index < bytes.count else { throw Messages.expected("`,` or `}`", found: found, at: index) }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(UInt8(ascii: "}"), "`,` or `}`")
        break
      }
    }
    skipSpace()
    guard atEnd else { throw Messages.trailing(found: found, at: index) }
    return try fields.record(closing: index - 1, opening: open)
  }

  /// The value of `key`, into `fields`.
  /// A member's key (the cursor at its opening quote): one of the format's, or nil for another
  /// (skipped). A key without escapes is matched by its bytes, with no string made.
  mutating func recordKey() throws(Problem) -> RecordKey? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw Messages.expected("a key in double quotes", found: found, at: index)
    }
    var end = index + 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return RecordKey(rawValue: try string()) }
    let start = index + 1
    index = end + 1
    return RecordKey(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  mutating func member(
    _ recordKey: RecordKey, keyRange: Range<Int>, into fields: inout Fields, recent: inout RecordReader.RecentStrings
  ) throws(Problem) {
    let start = index
    let key = recordKey.rawValue
    func once<T>(_ slot: inout T?, _ value: T) throws(Problem) {
      guard slot == nil else { throw Messages.duplicate(key, at: keyRange) }
      slot = value
    }
    switch recordKey {
    case .schema:
      let schema = try integer(key)
      guard schema >= 1 else { throw Messages.badValue(key, "a schema version from 1", at: start..<index) }
      guard schema <= Int64(ReviewRecord.schema) else { throw Messages.newerSchema(schema, at: start..<index) }
      try once(&fields.schema, Int(schema))
    case .install: try once(&fields.install, try text(key, recent: &recent.install))
    case .time:
      // Parsed where it lies when it has no escapes (it never has: the writer writes none).
      let time: Timestamp?
      if let raw = plainString() {
        time = Timestamp(iso8601UTF8: UnsafeBufferPointer(rebasing: bytes[raw]))
      } else {
        time = Timestamp(iso8601: try text(key))
      }
      guard let time else {
        throw Messages.badValue(key, "an ISO 8601 instant such as `2026-11-29T04:20:00Z`", at: start..<index)
      }
      try once(&fields.time, time)
    case .event: try once(&fields.event, try text(key))
    case .app: try once(&fields.app, try text(key))
    case .build: try once(&fields.build, try text(key))
    case .policy: try once(&fields.policy, try text(key, recent: &recent.policy))
    case .origin: try once(&fields.origin, try text(key))
    case .reason: try once(&fields.reason, try text(key))
    case .answer: try once(&fields.answer, try text(key))
    case .name: try once(&fields.name, try text(key))
    case .asked: try once(&fields.asked, try boolean(key))
    case .counted: try once(&fields.counted, try boolean(key))
    case .bad: try once(&fields.bad, try boolean(key))
    case .outside: try once(&fields.outside, try boolean(key))
    case .score: try once(&fields.score, try number(key))
    case .rules: try once(&fields.rules, try strings(key))
    case .buckets: try once(&fields.buckets, try buckets(key))
    case .seed:
      guard let seed = ReviewRecord.seed(hex: try text(key)) else {
        throw Messages.badValue(key, "16 hexadecimal digits", at: start..<index)
      }
      try once(&fields.seed, seed)
    }
  }

  /// A JSON string (the cursor at its opening quote).
  mutating func string() throws(Problem) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw Messages.expected("a key in double quotes", found: found, at: index)
    }
    index += 1
    let start = index
    // The common case, no escapes: one copy of the bytes.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      guard byte >= 0x20 else { throw Messages.controlInString(at: index) }
      index += 1
    }
    var scalars: [UInt8] = Array(bytes[start..<min(index, bytes.count)])
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: scalars, as: UTF8.self)
      }
      guard byte >= 0x20 else { throw Messages.controlInString(at: index) }
      guard byte == UInt8(ascii: "\\") else {
        scalars.append(byte)
        index += 1
        continue
      }
      let escape = index
      index += 1
      guard index < bytes.count else { break }
      switch bytes[index] {
      case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
      case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
      case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
      case UInt8(ascii: "b"): scalars.append(0x08)
      case UInt8(ascii: "f"): scalars.append(0x0C)
      case UInt8(ascii: "n"): scalars.append(0x0A)
      case UInt8(ascii: "r"): scalars.append(0x0D)
      case UInt8(ascii: "t"): scalars.append(0x09)
      case UInt8(ascii: "u"):
        var value = try hex4(escape)
        if (0xD800..<0xDC00).contains(value) {
          // A high surrogate must be followed by a low one.
          guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u")
          else { throw Messages.badEscape(at: escape..<(index + 1)) }
          index += 2
          let low = try hex4(escape)
          guard (0xDC00..<0xE000).contains(low) else { throw Messages.badEscape(at: escape..<(index + 1)) }
          value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(value) {
          throw Messages.badEscape(at: escape..<(index + 1))
        }
        guard let scalar = Unicode.Scalar(value) else { throw Messages.badEscape(at: escape..<(index + 1)) }
        scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
      default: throw Messages.badEscape(at: escape..<(index + 1))
      }
      index += 1
    }
    throw Messages.unterminatedString(at: start - 1..<bytes.count)
  }

  /// The four hexadecimal digits after `\u` (the cursor at the `u`); leaves the cursor at the last digit.
  mutating func hex4(_ escape: Int) throws(Problem) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      index += 1
      guard index < bytes.count, let digit = Cursor.hexValue(bytes[index]) else {
        throw Messages.badEscape(at: escape..<min(index + 1, bytes.count))
      }
      value = value << 4 | digit
    }
    return value
  }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// A string value of `key`.
  /// ``text(_:)``, or `recent`'s string when the string at the cursor has its bytes (else it
  /// becomes `recent`).
  mutating func text(_ key: String, recent: inout (bytes: [UInt8], text: String)) throws(Problem) -> String {
    let start = index
    if let raw = plainString() {
      if recent.bytes.elementsEqual(bytes[raw]) { return recent.text }
      index = start
    }
    let text = try text(key)
    // Read: the string's bytes lie between the quotes at `start` and `index - 1`.
    recent = (Array(bytes[(start + 1)..<(index - 1)]), text)
    return text
  }

  /// The bytes of the string at the cursor, which then moves past it, when it has no escape and
  /// no control character; else nil and the cursor stays.
  mutating func plainString() -> Range<Int>? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    var end = index + 1
    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
    defer { index = end + 1 }
    return (index + 1)..<end
  }

  mutating func text(_ key: String) throws(Problem) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw Messages.wrongType(key, "a string", found: found, at: index)
    }
    return try string()
  }

  /// A boolean value of `key`.
  mutating func boolean(_ key: String) throws(Problem) -> Bool {
    if matches("true") { return true }
    if matches("false") { return false }
    throw Messages.wrongType(key, "`true` or `false`", found: found, at: index)
  }

  /// Whether `word` follows (consumed if so).
  mutating func matches(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
    index += count
    return true
  }

  /// The bytes of a JSON number from the cursor (consumed), or nil when none starts here.
  mutating func numberBytes() -> Range<Int>? {
    let start = index
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let digits = index
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    guard index > digits else {
      index = start
      return nil
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    }
    return start..<index
  }

  /// An integer value of `key` (within 64 bits).
  mutating func integer(_ key: String) throws(Problem) -> Int64 {
    let at = index
    guard let range = numberBytes() else { throw Messages.wrongType(key, "a whole number", found: found, at: at) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    guard let value = Int64(text) else { throw Messages.badValue(key, "a whole number within 64 bits", at: range) }
    return value
  }

  /// A finite number value of `key`.
  mutating func number(_ key: String) throws(Problem) -> Double {
    let at = index
    guard let range = numberBytes() else { throw Messages.wrongType(key, "a number", found: found, at: at) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { throw Messages.badValue(key, "a finite number", at: range) }
    return value
  }

  /// An array of strings, the value of `key`.
  mutating func strings(_ key: String) throws(Problem) -> [String] {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
      throw Messages.wrongType(key, "an array of strings", found: found, at: index)
    }
    index += 1
    var result: [String] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return result
    }
    while true {
      skipSpace()
      result.append(try text(key))
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "]"), "`,` or `]`")
      return result
    }
  }

  /// An object of bucket values (0 to 99), the value of `key`.
  mutating func buckets(_ key: String) throws(Problem) -> [String: Int64] {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      throw Messages.wrongType(key, "an object of bucket values", found: found, at: index)
    }
    index += 1
    var result: [String: Int64] = [:]
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return result
    }
    while true {
      skipSpace()
      let nameStart = index
      let name = try string()
      let nameRange = nameStart..<index
      try expect(UInt8(ascii: ":"), "`:` after the bucket's name")
      skipSpace()
      let valueStart = index
      let value = try integer(key)
      guard (0..<100).contains(value) else {
        throw Messages.badValue(key, "bucket values from 0 to 99", at: valueStart..<index)
      }
      guard result.updateValue(value, forKey: name) == nil else {
        throw Messages.duplicate("buckets: \(name)", at: nameRange)
      }
      skipSpace()
      if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      try expect(UInt8(ascii: "}"), "`,` or `}`")
      return result
    }
  }

  /// Skips any JSON value (of a key this reader does not know).
  mutating func skipValue(depth: Int) throws(Problem) {
    guard depth < RecordReader.maximumDepth else { throw Messages.tooDeep(at: index) }
    skipSpace()
    guard index < bytes.count else { throw Messages.expected("a value", found: found, at: index) }
    switch bytes[index] {
    case UInt8(ascii: "\""): _ = try string()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      let isObject = close == UInt8(ascii: "}")
      index += 1
      skipSpace()
      if index < bytes.count, bytes[index] == close {
        index += 1
        return
      }
      while true {
        skipSpace()
        if isObject {
          _ = try string()
          try expect(UInt8(ascii: ":"), "`:` after the key")
        }
        try skipValue(depth: depth + 1)
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        try expect(close, isObject ? "`,` or `}`" : "`,` or `]`")
        return
      }
    default:
      if matches("true") || matches("false") || matches("null") || numberBytes() != nil { return }
      throw Messages.expected("a value", found: found, at: index)
    }
  }
}

/// The keys of the format (docs/records.md).
enum RecordKey: String, CaseIterable {
  case schema, install, time, event, app, build, policy, origin, reason, answer, name, asked, counted, bad, score,
    rules, buckets, seed, outside

  /// The key whose UTF-8 bytes are `bytes`, or nil: by length, then by bytes, with no string
  /// and no table (the reader meets a key every few bytes).
  init?(bytes: UnsafeBufferPointer<UInt8>) {
    func equals(_ key: StaticString) -> Bool {
      guard key.utf8CodeUnitCount == bytes.count else { return false }
      for offset in 0..<bytes.count where key.utf8Start[offset] != bytes[offset] { return false }
      return true
    }
    let key: RecordKey?
    switch bytes.count {
    case 3: key = equals("app") ? .app : equals("bad") ? .bad : nil
    case 4: key = equals("time") ? .time : equals("name") ? .name : equals("seed") ? .seed : nil
    case 5:
      key =
        equals("event")
        ? .event
        : equals("build")
          ? .build : equals("asked") ? .asked : equals("score") ? .score : equals("rules") ? .rules : nil
    case 6:
      key =
        equals("schema")
        ? .schema
        : equals("policy")
          ? .policy : equals("origin") ? .origin : equals("reason") ? .reason : equals("answer") ? .answer : nil
    case 7:
      key =
        equals("install")
        ? .install : equals("counted") ? .counted : equals("buckets") ? .buckets : equals("outside") ? .outside : nil
    default: key = nil
    }
    guard let key else { return nil }
    self = key
  }
}

/// The members read so far.
private struct Fields {
  var schema: Int?
  var install: String?
  var time: Timestamp?
  var event: String?
  var app: String?
  var build: String?
  var policy: String?
  var origin: String?
  var reason: String?
  var answer: String?
  var name: String?
  var asked: Bool?
  var counted: Bool?
  var bad: Bool?
  var score: Double?
  var rules: [String]?
  var buckets: [String: Int64]?
  var seed: Int64?
  var outside: Bool?

  /// The record, or the first required member missing (reported at the closing brace).
  func record(closing: Int, opening: Int) throws(RecordReader.Problem) -> ReviewRecord {
    if schema == nil { throw RecordMessages.missing("schema", at: closing) }
    if install == nil { throw RecordMessages.missing("install", at: closing) }
    if time == nil { throw RecordMessages.missing("time", at: closing) }
    if event == nil { throw RecordMessages.missing("event", at: closing) }
    if app == nil { throw RecordMessages.missing("app", at: closing) }
    var identity: PolicyIdentity?
    if let policy {
      guard let origin, let kind = PolicyOrigin(rawValue: origin) else {
        throw RecordMessages.missingOrigin(origin, at: opening..<(closing + 1))
      }
      identity = PolicyIdentity(origin: kind, fingerprint: policy)
    }
    var record = ReviewRecord(
      install: install ?? "", time: time ?? Timestamp(millisecondsSince1970: 0), event: event ?? "",
      appVersion: app ?? "", build: build, policy: identity, asked: asked, reason: reason, rules: rules ?? [],
      buckets: buckets ?? [:], answer: answer, name: name)
    record.schema = schema ?? ReviewRecord.schema
    record.counted = counted
    record.score = score
    record.bad = bad
    record.seed = seed
    record.outside = outside
    return record
  }
}
