import PolicyCore

/// A JSON value with the source range of every node, for files people write by hand
/// (facts files, test files): every error can name its line and column.
///
/// Numbers keep their text, so `7.25` becomes an exact ``Number``, not a binary float.
package indirect enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as written.
  case number(String)
  /// A string, unescaped.
  case string(String)
  /// An array.
  case array([JSONNode])
  /// An object, members in file order.
  case object([JSONMember])

  /// A short name for the kind of value, for messages: "a string", "an object".
  package var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A JSON value and where it is.
package struct JSONNode: Sendable, Hashable {
  /// The value.
  package var value: JSONValue
  /// Where the value is in its file.
  package var range: SourceRange
}

/// One member of a JSON object.
package struct JSONMember: Sendable, Hashable {
  /// The key, unescaped.
  package var key: String
  /// Where the key is (with its quotes).
  package var keyRange: SourceRange
  /// The value.
  package var value: JSONNode
}

extension JSONNode {
  /// The member named `key`, if this is an object that has one.
  package func member(_ key: String) -> JSONMember? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }
  }
}

/// A strict JSON parser (RFC 8259) that reports the first error with its location.
///
/// Limits: nesting depth 64, the file size limit of policies. Duplicate keys are an error
/// (people write these files by hand, and a duplicate is always a mistake).
package struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  package static let maximumDepth = 64

  private let bytes: [UInt8]
  private var position: Int
  private var depth = 0

  /// A parse error: the `PC401` diagnostic that reports it (its message, where, and advice).
  package struct Failure: Error, Sendable {
    /// The error as a facts, test or behaviour file reports it, written by `JSONMessages`.
    package var diagnostic: Diagnostic

    /// What is wrong.
    package var message: String { diagnostic.message }
    /// Where.
    package var range: SourceRange { diagnostic.range }
    /// Advice, one line each.
    package var help: [String] { diagnostic.help }

    init(_ diagnostic: Diagnostic) {
      self.diagnostic = diagnostic
    }
  }

  /// Parses the whole of `source` as one JSON value.
  package static func parse(_ source: SourceFile) -> Result<JSONNode, Failure> {
    var parser = JSONParser(bytes: source.bytes, position: source.hasByteOrderMark ? 3 : 0)
    do throws(Failure) {
      parser.skipWhitespace()
      let node = try parser.parseValue()
      parser.skipWhitespace()
      guard parser.position == parser.bytes.count else {
        throw Failure(
          JSONMessages.trailingContent(
            found: parser.describeCurrent(), at: SourceRange(start: parser.position, end: parser.position + 1)))
      }
      return .success(node)
    } catch {
      return .failure(error)
    }
  }

  private init(bytes: [UInt8], position: Int) {
    self.bytes = bytes
    self.position = position
  }

  private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

  /// `byte` as `0xAB`, for messages.
  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
  }

  private mutating func skipWhitespace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
  }

  private func describeCurrent() -> String {
    guard let byte = peek() else { return "end of file" }
    if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
    if let (scalar, _) = UTF8Scanner.decode(bytes, at: position), scalar.value >= 0x80 {
      return "`\(Character(scalar))`"
    }
    return "byte \(JSONParser.hex(byte))"
  }

  /// The byte the parser stopped at (empty at the end of the file): where most errors point.
  private var here: SourceRange { SourceRange(start: position, end: min(position + 1, bytes.count)) }

  private mutating func parseValue() throws(Failure) -> JSONNode {
    let start = position
    guard let byte = peek() else { throw Failure(JSONMessages.missingValue(at: here)) }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""):
      let text = try parseString()
      return JSONNode(value: .string(text), range: SourceRange(start: start, end: position))
    case UInt8(ascii: "t"):
      try expectWord("true"); return JSONNode(value: .bool(true), range: SourceRange(start: start, end: position))
    case UInt8(ascii: "f"):
      try expectWord("false"); return JSONNode(value: .bool(false), range: SourceRange(start: start, end: position))
    case UInt8(ascii: "n"):
      try expectWord("null"); return JSONNode(value: .null, range: SourceRange(start: start, end: position))
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case UInt8(ascii: "'"):
      throw Failure(JSONMessages.singleQuote(at: here))
    default:
      throw Failure(JSONMessages.expectedValue(found: describeCurrent(), at: here))
    }
  }

  private mutating func expectWord(_ word: String) throws(Failure) {
    let start = position
    for byte in word.utf8 {
      guard peek() == byte else {
        position = start
        throw Failure(JSONMessages.expectedLiteral(word, at: here))
      }
      position += 1
    }
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    if depth > JSONParser.maximumDepth {
      throw Failure(JSONMessages.nestingTooDeep(at: here))
    }
  }

  private mutating func parseObject() throws(Failure) -> JSONNode {
    let start = position
    try enter()
    position += 1
    var members: [JSONMember] = []
    var seen: [String: SourceRange] = [:]
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return JSONNode(value: .object([]), range: SourceRange(start: start, end: position))
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        throw Failure(
          JSONMessages.expectedKey(
            found: describeCurrent(), beforeClosingBrace: peek() == UInt8(ascii: "}"), at: here))
      }
      let keyStart = position
      let key = try parseString()
      let keyRange = SourceRange(start: keyStart, end: position)
      if seen[key] != nil {
        throw Failure(JSONMessages.duplicateKey(key, at: keyRange))
      }
      seen[key] = keyRange
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else {
        throw Failure(JSONMessages.expectedColon(found: describeCurrent(), at: here))
      }
      position += 1
      skipWhitespace()
      let value = try parseValue()
      members.append(JSONMember(key: key, keyRange: keyRange, value: value))
      skipWhitespace()
      if peek() == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard peek() == UInt8(ascii: "}") else {
        throw Failure(JSONMessages.expectedObjectSeparator(found: describeCurrent(), at: here))
      }
      position += 1
      depth -= 1
      return JSONNode(value: .object(members), range: SourceRange(start: start, end: position))
    }
  }

  private mutating func parseArray() throws(Failure) -> JSONNode {
    let start = position
    try enter()
    position += 1
    var elements: [JSONNode] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return JSONNode(value: .array([]), range: SourceRange(start: start, end: position))
    }
    while true {
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {
        throw Failure(JSONMessages.trailingCommaInArray(at: here))
      }
      elements.append(try parseValue())
      skipWhitespace()
      if peek() == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard peek() == UInt8(ascii: "]") else {
        throw Failure(JSONMessages.expectedArraySeparator(found: describeCurrent(), at: here))
      }
      position += 1
      depth -= 1
      return JSONNode(value: .array(elements), range: SourceRange(start: start, end: position))
    }
  }

  private mutating func parseNumber() throws(Failure) -> JSONNode {
    let start = position
    if peek() == UInt8(ascii: "-") { position += 1 }
    guard let first = peek(), first >= 0x30 && first <= 0x39 else {
      throw Failure(JSONMessages.missingDigitAfterMinus(at: here))
    }
    if first == 0x30 {
      position += 1
      if let next = peek(), next >= 0x30 && next <= 0x39 {
        throw Failure(JSONMessages.leadingZero(at: here))
      }
    } else {
      while let byte = peek(), byte >= 0x30 && byte <= 0x39 { position += 1 }
    }
    if peek() == UInt8(ascii: ".") {
      position += 1
      guard let byte = peek(), byte >= 0x30 && byte <= 0x39 else {
        throw Failure(JSONMessages.missingFractionDigit(at: here))
      }
      while let byte = peek(), byte >= 0x30 && byte <= 0x39 { position += 1 }
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      position += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
      guard let byte = peek(), byte >= 0x30 && byte <= 0x39 else {
        throw Failure(JSONMessages.missingExponentDigit(at: here))
      }
      while let byte = peek(), byte >= 0x30 && byte <= 0x39 { position += 1 }
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    return JSONNode(value: .number(text), range: SourceRange(start: start, end: position))
  }

  private mutating func parseString() throws(Failure) -> String {
    let start = position
    position += 1
    var result: [UInt8] = []
    while true {
      guard let byte = peek() else {
        throw Failure(JSONMessages.unterminatedString(at: SourceRange(start: start, end: position)))
      }
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        return String(decoding: result, as: UTF8.self)
      case UInt8(ascii: "\\"):
        position += 1
        try parseEscape(into: &result)
      case 0x00..<0x20:
        throw Failure(byte == 0x0A ? JSONMessages.lineBreakInString(at: here) : JSONMessages.controlCharacter(at: here))
      case 0x80...:
        guard let (_, length) = UTF8Scanner.decode(bytes, at: position) else {
          throw Failure(JSONMessages.invalidUTF8(byte, at: here))
        }
        result.append(contentsOf: bytes[position..<position + length])
        position += length
      default:
        result.append(byte)
        position += 1
      }
    }
  }

  private mutating func parseEscape(into result: inout [UInt8]) throws(Failure) {
    guard let byte = peek() else { throw Failure(JSONMessages.unfinishedEscape(at: here)) }
    position += 1
    switch byte {
    case UInt8(ascii: "\""): result.append(0x22)
    case UInt8(ascii: "\\"): result.append(0x5C)
    case UInt8(ascii: "/"): result.append(0x2F)
    case UInt8(ascii: "b"): result.append(0x08)
    case UInt8(ascii: "f"): result.append(0x0C)
    case UInt8(ascii: "n"): result.append(0x0A)
    case UInt8(ascii: "r"): result.append(0x0D)
    case UInt8(ascii: "t"): result.append(0x09)
    case UInt8(ascii: "u"):
      var value = try parseHex4()
      if (0xD800...0xDBFF).contains(value) {
        guard peek() == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
          throw Failure(JSONMessages.missingLowSurrogate(after: value, at: here))
        }
        position += 2
        let low = try parseHex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw Failure(JSONMessages.invalidLowSurrogate(at: here)) }
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(value) {
        throw Failure(JSONMessages.loneLowSurrogate(at: here))
      }
      guard let scalar = Unicode.Scalar(value) else { throw Failure(JSONMessages.invalidEscape(at: here)) }
      result.append(contentsOf: Array(String(Character(scalar)).utf8))
    default:
      position -= 1
      throw Failure(JSONMessages.unknownEscape(Character(Unicode.Scalar(byte)), at: here))
    }
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek() else { throw Failure(JSONMessages.expectedHexDigits(at: here)) }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw Failure(JSONMessages.expectedHexDigits(at: here))
      }
      value = value * 16 + digit
      position += 1
    }
    return value
  }
}
