import Testing

@testable import PolicyCore

@Suite("Number")
struct NumberTests {
  @Test(
    "parses decimal text into millionths",
    arguments: [
      ("7.5", Int64(7_500_000)), ("-3", -3_000_000), ("0.000001", 1), ("+2", 2_000_000), ("0", 0),
      ("12.34", 12_340_000), ("-0.5", -500_000), ("007.250", 7_250_000), (".5", 500_000), ("1.", 1_000_000),
      ("9223372036854.775807", Int64.max), ("-9223372036854.775807", -Int64.max),
    ])
  func parsing(text: String, scaled: Int64) throws {
    let number = try #require(Number(parsing: text))
    #expect(number.scaled == scaled)
  }

  @Test(
    "rejects malformed text, a 7th fractional digit and out-of-range values",
    arguments: [
      "", ".", "-", "+", "1.2.3", "abc", "1e5", "1,5", " 1", "1 ", "--1", "1.2345678", "0.0000001",
      "9223372036854.775808", "9223372036855", "99999999999999999999",
    ])
  func rejects(text: String) {
    #expect(Number(parsing: text) == nil)
  }

  @Test("a 6-digit fraction is exact, so 0.1 + 0.2 == 0.3")
  func exactDecimal() throws {
    let a = try #require(Number(parsing: "0.1"))
    let b = try #require(Number(parsing: "0.2"))
    #expect(a.adding(b) == Number(parsing: "0.3"))
    #expect(try #require(Number(parsing: "0.3")).subtracting(a) == b)
  }

  @Test(
    "prints the shortest text",
    arguments: [
      (Int64(7_500_000), "7.5"), (-3_000_000, "-3"), (1, "0.000001"), (-1, "-0.000001"), (100_000_000, "100"),
      (1_230_000, "1.23"), (-500_000, "-0.5"), (0, "0"), (10_000, "0.01"), (Int64.max, "9223372036854.775807"),
      (Int64.min, "-9223372036854.775808"),
    ])
  func printing(scaled: Int64, text: String) {
    #expect(Number(scaled: scaled).description == text)
  }

  @Test("printing then parsing gives the same number (random values)")
  func roundTrip() {
    var random = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let scaled = Int64(bitPattern: random.next()) >> Int64.random(in: 0...60, using: &random)
      guard scaled != .min else { continue }  // see the known issue below
      let number = Number(scaled: scaled)
      #expect(Number(parsing: number.description) == number, "\(scaled)")
    }
  }

  @Test("the most negative number prints as text that parses back")
  func minimumRoundTrip() {
    let minimum = Number(scaled: .min)
    #expect(Number(parsing: minimum.description) == minimum)
  }

  @Test("addition and subtraction report overflow")
  func additiveOverflow() {
    let max = Number(scaled: .max)
    let min = Number(scaled: .min)
    let tiny = Number(scaled: 1)
    #expect(max.adding(tiny) == nil)
    #expect(min.subtracting(tiny) == nil)
    #expect(max.subtracting(tiny) == Number(scaled: .max - 1))
    #expect(min.adding(tiny) == Number(scaled: .min + 1))
  }

  @Test(
    "multiplication truncates toward zero to six digits",
    arguments: [
      ("1.000001", "0.5", "0.5"), ("-1.000001", "0.5", "-0.5"), ("0.000001", "0.000001", "0"),
      ("2.5", "4", "10"), ("-2.5", "-4", "10"), ("1.5", "1.5", "2.25"), ("0.333333", "3", "0.999999"),
      ("3000000", "3000000", "9000000000000"),
    ])
  func multiplication(lhs: String, rhs: String, product: String) throws {
    let result = try #require(Number(parsing: lhs)).multiplied(by: try #require(Number(parsing: rhs)))
    #expect(result == Number(parsing: product))
  }

  @Test(
    "division truncates toward zero to six digits",
    arguments: [
      ("1", "3", "0.333333"), ("-1", "3", "-0.333333"), ("2", "3", "0.666666"), ("-2", "-3", "0.666666"),
      ("1", "8", "0.125"), ("10", "0.5", "20"), ("0.000001", "2", "0"),
    ])
  func division(lhs: String, rhs: String, quotient: String) throws {
    let result = try #require(Number(parsing: lhs)).divided(by: try #require(Number(parsing: rhs)))
    #expect(result == Number(parsing: quotient))
  }

  @Test("multiplication and division report overflow and division by zero")
  func multiplicativeOverflow() throws {
    let big = try #require(Number(parsing: "9000000000000"))
    let two = try #require(Number(parsing: "2"))
    let tiny = Number(scaled: 1)
    #expect(big.multiplied(by: two) == nil)
    #expect(big.divided(by: tiny) == nil)
    #expect(big.divided(by: Number(scaled: 0)) == nil)
    #expect(Number(scaled: 0).divided(by: Number(scaled: 0)) == nil)
    // The most negative value survives multiplication by one, not division by minus one.
    let one = try #require(Number(parsing: "1"))
    #expect(Number(scaled: .min).multiplied(by: one) == Number(scaled: .min))
    #expect(Number(scaled: .min).divided(by: try #require(Number(parsing: "-1"))) == nil)
  }

  @Test("Number(exactly:) converts integers that fit")
  func exactly() {
    #expect(Number(exactly: 42)?.scaled == 42_000_000)
    #expect(Number(exactly: -9_223_372_036_854)?.scaled == -9_223_372_036_854_000_000)
    #expect(Number(exactly: 9_223_372_036_855) == nil)
    #expect(Number(exactly: .max) == nil)
  }

  @Test("numbers order by value")
  func ordering() throws {
    let values = ["-2.5", "-0.000001", "0", "0.000001", "1.9", "1.10", "10"].compactMap { Number(parsing: $0) }
    #expect(values.count == 7)
    #expect(
      values.sorted() == ["-2.5", "-0.000001", "0", "0.000001", "1.10", "1.9", "10"].compactMap { Number(parsing: $0) })
  }
}

@Suite("TimeSpan")
struct TimeSpanTests {
  @Test(
    "prints in the largest units, seconds with up to 3 fractional digits",
    arguments: [
      (Int64(0), "0s"), (1000, "1s"), (1500, "1.5s"), (1, "0.001s"), (10, "0.01s"), (60_000, "1m"),
      (5_400_000, "1h 30m"), (86_400_000, "1d"), (95_400_000, "1d 2h 30m"), (604_800_000, "1w"),
      (2_592_000_000, "4w 2d"), (-86_400_000, "-1d"), (-1500, "-1.5s"), (90_061_001, "1d 1h 1m 1.001s"),
    ])
  func printing(milliseconds: Int64, text: String) {
    #expect(TimeSpan(milliseconds: milliseconds).description == text)
  }

  @Test("the infinite duration prints as `infinite` and is longer than every finite one")
  func infinite() {
    #expect(TimeSpan.infinite.description == "infinite")
    #expect(TimeSpan.infinite.isInfinite)
    #expect(TimeSpan(milliseconds: .max).isInfinite)
    #expect(!TimeSpan(milliseconds: .max - 1).isInfinite)
    #expect(TimeSpan(milliseconds: .max - 1) < .infinite)
    #expect(Value.duration(.infinite).description == "infinite")
    #expect(TimeSpan(milliseconds: .min).description.hasPrefix("-"))
  }

  @Test("a count of units, or nil when it does not fit")
  func units() {
    #expect(TimeSpan(30, .days)?.milliseconds == Int64(30) * 86_400_000)
    #expect(TimeSpan(8, .weeks)?.milliseconds == Int64(8) * 604_800_000)
    #expect(TimeSpan(90, .minutes)?.milliseconds == 5_400_000)
    #expect(TimeSpan(45, .seconds)?.milliseconds == 45_000)
    #expect(TimeSpan(12, .hours)?.milliseconds == 43_200_000)
    #expect(TimeSpan(Int64.max / 1000 + 1, .seconds) == nil)
    #expect(TimeSpan(Int64.max, .weeks) == nil)
    #expect(TimeSpan(Int64.max / 604_800_000, .weeks) != nil)
    #expect(DurationUnit("d") == .days)
    #expect(DurationUnit("x") == nil)
  }
}

@Suite("Timestamp")
struct TimestampTests {
  static let march1: Int64 = 1_740_787_200_000  // 2025-03-01T00:00:00Z

  static let parsed: [(String, Int64)] = [
    ("1970-01-01", Int64(0)),
    ("1970-01-01T00:00:00Z", 0),
    ("2025-03-01", march1),
    ("2025-03-01T12:30:00Z", march1 + 45_000_000),
    ("2025-03-01T12:30Z", march1 + 45_000_000),
    ("2025-03-01t12:30:00z", march1 + 45_000_000),
    ("2025-03-01 12:30:00Z", march1 + 45_000_000),
    ("2025-03-01T12:30:00.250+02:00", march1 + 37_800_250),
    ("2025-03-01T12:30:00.5Z", march1 + 45_000_500),
    ("2025-03-01T12:30:00.123456Z", march1 + 45_000_123),
    ("2025-03-01T00:00:00-05:30", march1 + 19_800_000),
    ("2024-02-29", 1_709_164_800_000),
    ("2000-02-29", 951_782_400_000),
    ("1969-12-31T23:59:59.999Z", -1),
    ("0001-01-01T00:00:00Z", -62_135_596_800_000),
    ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
  ]

  @Test("parses ISO-8601 dates, times, fractions and offsets", arguments: parsed)
  func parsing(text: String, milliseconds: Int64) throws {
    let instant = try #require(Timestamp(iso8601: text))
    #expect(instant.millisecondsSince1970 == milliseconds)
  }

  @Test(
    "rejects impossible dates, bad times, missing zones and text out of range",
    arguments: [
      "2025-02-30", "2025-02-29", "1900-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00",
      "0000-01-01", "2025-3-1", "25-03-01", "2025/03/01", "2025-03-01T24:00:00Z", "2025-03-01T23:60:00Z",
      "2025-03-01T23:59:60Z", "2025-03-01T12:30:00", "2025-03-01T12:30:00+0200", "2025-03-01T12:30:00+24:00",
      "2025-03-01T12:30:00.Z", "2025-03-01T12Z", "2025-03-01Z", "2025-03-01T", "2025-03-01T12:30:00Zjunk",
      " 2025-03-01", "", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999-00:01",
    ])
  func rejects(text: String) {
    #expect(Timestamp(iso8601: text) == nil)
  }

  static let printed: [(Int64, String)] = [
    (Int64(0), "1970-01-01T00:00:00Z"), (250, "1970-01-01T00:00:00.250Z"), (-1, "1969-12-31T23:59:59.999Z"),
    (march1 + 45_000_000, "2025-03-01T12:30:00Z"), (1_709_164_800_000, "2024-02-29T00:00:00Z"),
    (-62_135_596_800_000, "0001-01-01T00:00:00Z"), (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
  ]

  @Test("prints ISO-8601 in UTC, milliseconds only when nonzero", arguments: printed)
  func printing(milliseconds: Int64, text: String) {
    #expect(Timestamp(millisecondsSince1970: milliseconds).description == text)
  }

  @Test("printing never traps, whatever the instant")
  func extremeInstants() async {
    // Instants far outside the text range still print (facts can hold any millisecond count).
    #expect(Timestamp(millisecondsSince1970: .max).description.hasSuffix("Z"))
    #expect(Timestamp(millisecondsSince1970: .min + 2 * 86_400_000).description.hasSuffix("Z"))
    #if compiler(>=6.2) && (os(macOS) || os(Linux))
      // The trap would end the test process, so it runs in an exit test (a child process).
      await #expect(processExitsWith: .success) {
        _ = Value.instant(Timestamp(millisecondsSince1970: .min)).description
      }
    #endif
  }

  @Test("the accepted range is 0001-01-01 to 9999-12-31")
  func range() {
    #expect(Timestamp.earliest.description == "0001-01-01T00:00:00Z")
    #expect(Timestamp.latest.description == "9999-12-31T23:59:59.999Z")
    #expect(Timestamp(iso8601: Timestamp.earliest.description) == .earliest)
    #expect(Timestamp(iso8601: Timestamp.latest.description) == .latest)
  }

  @Test("printing then parsing round-trips (random instants in range)")
  func roundTrip() {
    var random = SplitMix64(seed: 11)
    let span = UInt64(Timestamp.latest.millisecondsSince1970 - Timestamp.earliest.millisecondsSince1970)
    for _ in 0..<3000 {
      var offset = random.next() % (span + 1)
      if random.next() % 3 == 0 { offset -= offset % 1000 }  // whole seconds print without a fraction
      let instant = Timestamp(millisecondsSince1970: Timestamp.earliest.millisecondsSince1970 + Int64(offset))
      #expect(Timestamp(iso8601: instant.description) == instant, "\(instant.millisecondsSince1970)")
    }
  }

  @Test("every day of four years (one a leap year, 1900 and 2000 around) round-trips through its date")
  func calendar() {
    for start in ["1899-03-01", "1999-03-01", "2023-01-01"] {
      guard let first = Timestamp(iso8601: start) else {
        Issue.record("cannot parse \(start)")
        continue
      }
      var previousDate = ""
      for dayIndex in 0..<(4 * 366) {
        let instant = Timestamp(millisecondsSince1970: first.millisecondsSince1970 + Int64(dayIndex) * day)
        let date = String(instant.description.prefix(10))
        #expect(date > previousDate, "dates must increase: \(previousDate) then \(date)")
        #expect(Timestamp(iso8601: date) == instant, "\(date)")
        previousDate = date
      }
    }
  }
}

@Suite("Version")
struct VersionTests {
  @Test(
    "tolerant parsing",
    arguments: [
      ("v2.1", [UInt32(2), 1, 0, 0]), ("2", [2, 0, 0, 0]), ("V3", [3, 0, 0, 0]), (" 1.2 ", [1, 2, 0, 0]),
      ("1.2.3", [1, 2, 3, 0]), ("1.2.3.4", [1, 2, 3, 4]), ("2.01", [2, 1, 0, 0]),
      ("4294967295.0.0.4294967295", [4_294_967_295, 0, 0, 4_294_967_295]),
    ])
  func parsing(text: String, parts: [UInt32]) throws {
    let version = try #require(Version(parsing: text))
    #expect(version.parts == parts)
  }

  @Test(
    "rejections say why",
    arguments: [
      ("", Version.ParseError.empty), ("v", .empty), ("   ", .empty), ("1.2.3.4.5", .tooManyParts),
      ("1.2.3.4.", .tooManyParts), ("4294967296", .partTooLarge), ("1.99999999999", .partTooLarge),
      ("1.2-beta", .notNumeric), ("1.2.3b", .notNumeric), ("1..2", .notNumeric), (".1", .notNumeric),
      ("1.", .notNumeric), ("vv1", .notNumeric), ("1 .2", .notNumeric), ("-1", .notNumeric),
    ])
  func rejections(text: String, error: Version.ParseError) {
    #expect(Version.parse(text) == .failure(error))
    #expect(Version(parsing: text) == nil)
  }

  @Test("missing parts are zero and parts compare as numbers")
  func comparison() {
    #expect(Version.v("2.0") == Version.v("2"))
    #expect(Version.v("2.0.0.0") == Version.v("v2"))
    #expect(Version.v("1.10") > Version.v("1.9"))
    #expect(Version.v("v1.2.3") < Version.v("v1.10"))
    #expect(Version.v("1.2.3.1") > Version.v("1.2.3"))
    #expect(Version.v("2") > Version.v("1.4294967295.4294967295.4294967295"))
    #expect(Version.v("0.0.0.1") > Version.v("0"))
  }

  @Test(
    "prints without trailing zero parts, keeping two",
    arguments: [
      ("2", "2.0"), ("1.10", "1.10"), ("1.2.3", "1.2.3"), ("1.2.3.4", "1.2.3.4"), ("1.0.0.1", "1.0.0.1"),
      ("3.0.0", "3.0"), ("0", "0.0"),
    ])
  func printing(text: String, printed: String) {
    #expect(Version.v(text).description == printed)
    #expect(Value.version(Version.v(text)).description == "v" + printed)
    #expect(Version(parsing: printed) == Version.v(text))
  }

  @Test("Version(parts:) accepts 1 to 4 parts")
  func parts() {
    #expect(Version(parts: []) == nil)
    #expect(Version(parts: [1, 2, 3, 4, 5]) == nil)
    #expect(Version(parts: [7])?.parts == [7, 0, 0, 0])
  }
}

@Suite("Value")
struct ValueTests {
  @Test("each value knows its type and prints like a literal")
  func typesAndText() {
    let cases: [(Value, PolicyType, String)] = [
      (.bool(true), .bool, "true"), (.int(-42), .int, "-42"), (.number(Number(scaled: 7_500_000)), .number, "7.5"),
      (.duration(TimeSpan(milliseconds: 95_400_000)), .duration, "1d 2h 30m"),
      (.instant(Timestamp(millisecondsSince1970: 0)), .instant, "1970-01-01T00:00:00Z"),
      (.version(Version.v("2.1")), .version, "v2.1"), (.string("free"), .string, "\"free\""),
    ]
    for (value, type, text) in cases {
      #expect(value.type == type)
      #expect(value.description == text)
    }
  }

  @Test("string literals escape quotes, backslashes, newlines and tabs")
  func quoting() {
    #expect(StringLiteral.quoted("a\"b\\c\nd\te") == #""a\"b\\c\nd\te""#)
    #expect(StringLiteral.quoted("héllo") == "\"héllo\"")
  }

  @Test("only bool and string are unordered")
  func ordered() {
    #expect(PolicyType.allCases.filter { !$0.isOrdered } == [.bool, .string])
  }
}
