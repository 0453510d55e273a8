/// A point in time, the language's `instant` type: milliseconds since 1970-01-01T00:00:00Z.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// Milliseconds since the Unix epoch, UTC.
  public var millisecondsSince1970: Int64

  /// Creates an instant from milliseconds since the Unix epoch.
  public init(millisecondsSince1970: Int64) {
    self.millisecondsSince1970 = millisecondsSince1970
  }

  /// Decodes an instant from its millisecond count.
  public init(from decoder: any Decoder) throws {
    millisecondsSince1970 = try decoder.singleValueContainer().decode(Int64.self)
  }

  /// Encodes the instant as its millisecond count.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(millisecondsSince1970)
  }

  /// The instant `span` later (or earlier, for a negative span), or nil when out of range.
  public func adding(_ span: TimeSpan) -> Timestamp? {
    guard !span.isInfinite else { return nil }
    let (value, overflow) = millisecondsSince1970.addingReportingOverflow(span.milliseconds)
    return overflow ? nil : Timestamp(millisecondsSince1970: value)
  }

  /// The earliest instant accepted from text: 0001-01-01T00:00:00Z.
  public static let earliest = Timestamp(millisecondsSince1970: -62_135_596_800_000)
  /// The latest instant accepted from text: 9999-12-31T23:59:59.999Z.
  public static let latest = Timestamp(millisecondsSince1970: 253_402_300_799_999)

  /// Orders instants in time.
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSince1970 < rhs.millisecondsSince1970
  }

  /// Parses ISO-8601 text: `2025-03-01`, `2025-03-01T12:30:00Z`, `2025-03-01T12:30:00.250+02:00`.
  ///
  /// A date without a time is midnight UTC. A time needs a zone (`Z` or `±HH:MM`).
  /// Returns nil for anything else, including impossible dates such as `2025-02-30`.
  public init?(iso8601 text: some StringProtocol) {
    var text = String(text)
    guard let milliseconds = text.withUTF8({ Timestamp.milliseconds(iso8601: $0) }) else { return nil }
    self.millisecondsSince1970 = milliseconds
  }

  /// ``init(iso8601:)`` of UTF-8 bytes (a records reader parses its lines' bytes in place).
  package init?(iso8601UTF8 bytes: UnsafeBufferPointer<UInt8>) {
    guard let milliseconds = Timestamp.milliseconds(iso8601: bytes) else { return nil }
    self.millisecondsSince1970 = milliseconds
  }

  /// The instant of ISO-8601 text's `bytes` (see ``init(iso8601:)``) in milliseconds, or nil.
  private static func milliseconds(iso8601 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    var scan = ISOScanner(bytes: bytes)
    guard let year = scan.number(4), scan.expect("-"), let month = scan.number(2), scan.expect("-"),
      let day = scan.number(2),
      year >= 1, (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year)
    else { return nil }
    var milliseconds = Timestamp.daysFromCivil(year: year, month: month, day: day) * 86_400_000
    if scan.index < bytes.count {
      guard scan.expect("T") || scan.expect("t") || scan.expect(" "), let hour = scan.number(2), scan.expect(":"),
        let minute = scan.number(2), hour < 24, minute < 60
      else { return nil }
      var second: Int64 = 0
      var millisecond: Int64 = 0
      if scan.expect(":") {
        guard let value = scan.number(2), value < 60 else { return nil }
        second = value
        if scan.expect(".") {
          var digits = 0
          while scan.index < bytes.count, let digit = scan.number(1) {
            if digits < 3 { millisecond = millisecond * 10 + digit }
            digits += 1
          }
          guard digits > 0 else { return nil }
          while digits < 3 {
            millisecond *= 10
            digits += 1
          }
        }
      }
      var offset: Int64 = 0
      if scan.expect("Z") || scan.expect("z") {
        offset = 0
      } else if scan.index < bytes.count,
        bytes[scan.index] == UInt8(ascii: "+") || bytes[scan.index] == UInt8(ascii: "-")
      {
        let sign: Int64 = bytes[scan.index] == UInt8(ascii: "+") ? 1 : -1
        scan.index += 1
        guard let zoneHour = scan.number(2), scan.expect(":"), let zoneMinute = scan.number(2), zoneHour < 24,
          zoneMinute < 60
        else { return nil }
        offset = sign * (zoneHour * 60 + zoneMinute) * 60_000
      } else {
        return nil
      }
      milliseconds += ((hour * 60 + minute) * 60 + second) * 1000 + millisecond - offset
    }
    guard scan.index == bytes.count else { return nil }
    guard milliseconds >= Timestamp.earliest.millisecondsSince1970,
      milliseconds <= Timestamp.latest.millisecondsSince1970
    else { return nil }
    return milliseconds
  }

  /// The instant as ISO-8601 text in UTC, such as `2025-03-01T12:30:00Z`.
  public var description: String {
    // Floor division without overflow, for any Int64 (far outside 0001-9999 years print as they are).
    var days = millisecondsSince1970 / 86_400_000
    var remainder = millisecondsSince1970 % 86_400_000
    if remainder < 0 {
      days -= 1
      remainder += 86_400_000
    }
    let (year, month, day) = Timestamp.civilFromDays(days)
    let hour = remainder / 3_600_000
    let minute = remainder / 60_000 % 60
    let second = remainder / 1000 % 60
    let millisecond = remainder % 1000
    func pad(_ value: Int64, _ width: Int) -> String {
      let text = String(value.magnitude)
      return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
    if millisecond != 0 { text += "." + pad(millisecond, 3) }
    return text + "Z"
  }

  // MARK: - Calendar arithmetic (proleptic Gregorian, after H. Hinnant's days_from_civil)

  package static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let quotient = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
  }

  static func isLeap(_ year: Int64) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}

/// A cursor over ISO-8601 bytes (a struct, so the parse keeps its position in a register).
private struct ISOScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  /// The `digits`-digit decimal number at the cursor, which moves past it; nil (not moving) otherwise.
  mutating func number(_ digits: Int) -> Int64? {
    guard index + digits <= bytes.count else { return nil }
    var value: Int64 = 0
    for offset in 0..<digits {
      let byte = bytes[index + offset]
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    index += digits
    return value
  }

  /// Whether `character` is at the cursor, moving past it if so.
  mutating func expect(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }
}
