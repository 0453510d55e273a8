import PolicyCore

extension ReviewStateJSON {
  /// A parsed JSON value.
  indirect enum Value: Sendable {
    case object([(key: String, value: Value)])
    case array([Value])
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
  }

  /// Members of an object read so far, and whether the object ended where it should.
  struct MemberList {
    /// The members, in order.
    var members: [(key: String, value: Value)] = []
    /// Whether the object ended where it should.
    var complete = false
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

    /// The members of the object that starts the bytes, as far as they are whole: parsing stops
    /// at the first member that is cut short or not understood, and a member counts only when a
    /// `,` or `}` follows its value (so a number cut short is not taken for a smaller one).
    /// `complete` says whether the object ended where it should. Linear in the bytes.
    mutating func parseLeadingMembers() -> MemberList {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return MemberList() }
      index += 1
      depth = 1
      return parseMembers(endingDocument: false)
    }

    /// The members from the index (just after a `,` between two members of the top-level object)
    /// to the object's end, which must end the bytes; nil when they do not parse that far.
    mutating func parseTrailingMembers() -> [(key: String, value: Value)]? {
      depth = 1
      let list = parseMembers(endingDocument: true)
      return list.complete ? list.members : nil
    }

    /// Members up to the closing `}` (and, with `endingDocument`, the end of the bytes after it).
    private mutating func parseMembers(endingDocument: Bool) -> MemberList {
      var list = MemberList()
      skipSpace()
      if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
        index += 1
        skipSpace()
        list.complete = !endingDocument || index == bytes.count
        return list
      }
      while true {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = parseString() else {
          return list
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return list }
        index += 1
        guard let value = parseValue() else { return list }
        skipSpace()
        guard index < bytes.count else { return list }
        if bytes[index] == UInt8(ascii: ",") {
          list.members.append((key, value))
          index += 1
        } else if bytes[index] == UInt8(ascii: "}") {
          list.members.append((key, value))
          index += 1
          skipSpace()
          list.complete = !endingDocument || index == bytes.count
          return list
        } else {
          return list
        }
      }
    }

    private mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x0A, 0x0D, 0x09: index += 1
        default: return
        }
      }
    }

    @inline(never)
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
          UTF8.encode(scalar) { output.append($0) }
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
}
