/// A length of time, the language's `duration` type, in milliseconds.
///
/// One value, ``infinite``, stands for the time since something that never
/// happened: it is longer than every finite duration.
public struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The length in milliseconds; `Int64.max` means ``infinite``.
  public var milliseconds: Int64

  /// Creates a duration from milliseconds. `Int64.max` is ``infinite``.
  public init(milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  /// The duration longer than every finite one: the time since an event that never happened.
  public static let infinite = TimeSpan(milliseconds: .max)

  /// Whether this is ``infinite``.
  public var isInfinite: Bool { milliseconds == .max }

  /// A duration of `count` units, or nil when it does not fit.
  init?(_ count: Int64, _ unit: DurationUnit) {
    let (value, overflow) = count.multipliedReportingOverflow(by: unit.milliseconds)
    guard !overflow, value != .max else { return nil }
    self.milliseconds = value
  }

  /// Parses duration text: one or more `<whole number><unit>` parts, optionally separated by
  /// spaces, with an optional leading `-` (`30d`, `1d 12h`, `2w3d`, `90m`, `1.5s`); or `infinite`.
  ///
  /// Seconds may have up to three decimals. Returns nil for anything else or an out-of-range total.
  public init?(parsing text: some StringProtocol) {
    self.init(parsingText: Substring(text))
  }

  /// ``init(parsing:)``'s work, once for every kind of text (the generic initializer is kept whole
  /// in every app, beside each specialization).
  private init?(parsingText text: Substring) {
    var utf8 = text.utf8[...]
    while utf8.first == UInt8(ascii: " ") { utf8 = utf8.dropFirst() }
    while utf8.last == UInt8(ascii: " ") { utf8 = utf8.dropLast() }
    if utf8.elementsEqual("infinite".utf8) {
      self = .infinite
      return
    }
    var negative = false
    if utf8.first == UInt8(ascii: "-") {
      negative = true
      utf8 = utf8.dropFirst()
    }
    var total: Int64 = 0
    var sawPart = false
    while !utf8.isEmpty {
      while utf8.first == UInt8(ascii: " ") { utf8 = utf8.dropFirst() }
      let digits = utf8.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") || $0 == UInt8(ascii: ".") }
      guard !digits.isEmpty else { return nil }
      utf8 = utf8.dropFirst(digits.count)
      let unitText = utf8.prefix { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
      utf8 = utf8.dropFirst(unitText.count)
      guard unitText.count == 1, let unit = unitText.first.flatMap(DurationUnit.init(byte:)),
        let amount = Number(parsing: String(decoding: digits, as: UTF8.self)), amount.scaled >= 0
      else { return nil }
      // Only seconds may have a fraction, and at most milliseconds.
      guard let milliseconds = Number.scaledQuotient(amount.scaled, unit.milliseconds, Number.scale),
        unit == .seconds || amount.scaled % Number.scale == 0,
        amount.scaled % 1000 == 0
      else { return nil }
      let (sum, overflow) = total.addingReportingOverflow(milliseconds)
      guard !overflow else { return nil }
      total = sum
      sawPart = true
    }
    guard sawPart, total != .max else { return nil }
    self.milliseconds = negative ? -total : total
  }

  /// Orders durations by length; ``infinite`` is the longest.
  public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }

  /// Text such as `30d`, `1d 2h 30m`, `1.5s` or `infinite`.
  public var description: String {
    if isInfinite { return "infinite" }
    if milliseconds == 0 { return "0s" }
    var remaining = milliseconds.magnitude
    var parts: [String] = []
    for unit in [DurationUnit.weeks, .days, .hours, .minutes] {
      let size = UInt64(unit.milliseconds)
      if remaining >= size {
        parts.append("\(remaining / size)\(unit.symbol)")
        remaining %= size
      }
    }
    if remaining > 0 {
      let seconds = remaining / 1000
      let fraction = remaining % 1000
      if fraction == 0 {
        parts.append("\(seconds)s")
      } else {
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        parts.append("\(seconds).\(digits)s")
      }
    }
    return (milliseconds < 0 ? "-" : "") + parts.joined(separator: " ")
  }
}

/// A unit of a duration literal.
package enum DurationUnit: String, Sendable, Hashable, CaseIterable {
  /// `s`
  case seconds = "s"
  /// `m`
  case minutes = "m"
  /// `h`
  case hours = "h"
  /// `d`: 24 hours exactly (no calendar, no daylight-saving shifts).
  case days = "d"
  /// `w`: 7 days.
  case weeks = "w"

  /// Creates the unit written `symbol`, if there is one.
  init?(_ symbol: String) {
    self.init(rawValue: symbol)
  }

  /// Creates the unit whose one-letter symbol is the ASCII byte `symbol`, if there is one.
  init?(byte symbol: UInt8) {
    switch symbol {
    case UInt8(ascii: "s"): self = .seconds
    case UInt8(ascii: "m"): self = .minutes
    case UInt8(ascii: "h"): self = .hours
    case UInt8(ascii: "d"): self = .days
    case UInt8(ascii: "w"): self = .weeks
    default: return nil
    }
  }

  /// The symbol as written in literals.
  var symbol: String { rawValue }

  /// The length of one unit in milliseconds.
  var milliseconds: Int64 {
    switch self {
    case .seconds: 1000
    case .minutes: 60_000
    case .hours: 3_600_000
    case .days: 86_400_000
    case .weeks: 604_800_000
    }
  }

  /// The English name of the unit, plural.
  var name: String {
    switch self {
    case .seconds: "seconds"
    case .minutes: "minutes"
    case .hours: "hours"
    case .days: "days"
    case .weeks: "weeks"
    }
  }

  /// Advice for a literal like `1.5h`: the same length in a smaller whole unit when there is one.
  static func wholeNumberAdvice(for number: String, unit: String) -> String {
    if let unit = DurationUnit(unit), let value = Number(parsing: number) {
      for smaller in DurationUnit.allCases.reversed() where smaller.milliseconds < unit.milliseconds {
        // value × unit / smaller must be a whole number.
        if let scaled = Number.scaledQuotient(value.scaled, unit.milliseconds, smaller.milliseconds),
          scaled % Number.scale == 0
        {
          return "durations are whole numbers; write `\(scaled / Number.scale)\(smaller.symbol)`"
        }
      }
    }
    return "durations are whole numbers of `s`, `m`, `h`, `d` or `w`"
  }

  /// The unit an unknown suffix such as `days`, `hrs` or `D` stands for, if any: a spelled-out
  /// unit or a unit in capitals.
  static func meant(by suffix: String) -> DurationUnit? {
    let lower = suffix.lowercased()
    let known: [(String, DurationUnit)] = [
      ("sec", .seconds), ("second", .seconds), ("min", .minutes), ("minute", .minutes),
      ("hour", .hours), ("hr", .hours), ("day", .days), ("week", .weeks), ("wk", .weeks),
    ]
    for (prefix, unit) in known where lower == prefix || lower == prefix + "s" { return unit }
    return DurationUnit(lower)
  }

  /// Advice for an unknown unit such as `30days` or `30x`.
  static func unitAdvice(for number: String, suffix: String) -> String {
    guard let unit = meant(by: suffix) else {
      return "the units are `s`, `m`, `h`, `d` and `w`, as in `\(number)d`"
    }
    if DurationUnit(suffix.lowercased()) != nil {
      return "units are lowercase; write `\(number)\(unit.symbol)`"
    }
    return "write `\(number)\(unit.symbol)` for \(number) \(unit.name)"
  }
}
