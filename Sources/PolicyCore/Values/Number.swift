/// A decimal number with six fractional digits, the language's `number` type.
///
/// Stored as a 64-bit integer count of millionths, so `0.1 + 0.2 == 0.3` holds
/// exactly. Every operation reports overflow instead of trapping.
public struct Number: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// How many units of ``scaled`` make 1.
  public static let scale: Int64 = 1_000_000
  /// The number of fractional digits.
  public static let fractionDigits = 6

  /// The value multiplied by ``scale``.
  public var scaled: Int64

  /// Creates a number from its value multiplied by ``scale``.
  public init(scaled: Int64) {
    self.scaled = scaled
  }

  /// Creates a number equal to `integer`, or nil when it is out of range.
  public init?(exactly integer: Int64) {
    let (value, overflow) = integer.multipliedReportingOverflow(by: Number.scale)
    guard !overflow else { return nil }
    self.scaled = value
  }

  /// Parses decimal text such as `7.5`, `-3` or `0.000001`.
  ///
  /// Returns nil for malformed text, more than six fractional digits or an out-of-range value.
  public init?(parsing text: some StringProtocol) {
    self.init(parsingText: Substring(text))
  }

  /// ``init(parsing:)``'s work, once for every kind of text (the generic initializer is kept whole
  /// in every app, beside each specialization).
  private init?(parsingText text: Substring) {
    var utf8 = text.utf8[...]
    var negative = false
    if utf8.first == UInt8(ascii: "-") {
      negative = true
      utf8 = utf8.dropFirst()
    } else if utf8.first == UInt8(ascii: "+") {
      utf8 = utf8.dropFirst()
    }
    var integerPart: UInt64 = 0
    var fraction: UInt64 = 0
    var fractionDigits = 0
    var seenDot = false
    var seenDigit = false
    for byte in utf8 {
      if byte == UInt8(ascii: ".") {
        guard !seenDot else { return nil }
        seenDot = true
        continue
      }
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
      seenDigit = true
      let digit = UInt64(byte - UInt8(ascii: "0"))
      if seenDot {
        fractionDigits += 1
        guard fractionDigits <= Number.fractionDigits else { return nil }
        fraction = fraction * 10 + digit
      } else {
        let (shifted, o1) = integerPart.multipliedReportingOverflow(by: 10)
        let (added, o2) = shifted.addingReportingOverflow(digit)
        guard !o1 && !o2 else { return nil }
        integerPart = added
      }
    }
    guard seenDigit else { return nil }
    while fractionDigits < Number.fractionDigits {
      fraction *= 10
      fractionDigits += 1
    }
    // The magnitude may be 2^63 when negative (the printed form of the smallest number).
    let (whole, o1) = integerPart.multipliedReportingOverflow(by: UInt64(Number.scale))
    let (total, o2) = whole.addingReportingOverflow(fraction)
    guard !o1 && !o2 else { return nil }
    if negative {
      guard total <= UInt64(Int64.max) + 1 else { return nil }
      self.scaled = total == UInt64(Int64.max) + 1 ? .min : -Int64(total)
    } else {
      guard total <= UInt64(Int64.max) else { return nil }
      self.scaled = Int64(total)
    }
  }

  /// Decodes a number from its decimal text, such as `"7.5"` (exact, unlike a floating-point number).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let number = Number(parsing: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a number: \(text)")
    }
    self = number
  }

  /// Encodes the number as its decimal text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The nearest number to `value` (rounded to six digits), or nil when it is not finite or out of range.
  public init?(_ value: Double) {
    let scaled = (value * Double(Number.scale)).rounded()
    guard scaled.isFinite, scaled >= -9.2e18, scaled <= 9.2e18 else { return nil }
    self.scaled = Int64(scaled)
  }

  /// The value as a floating-point number (for display and interoperation).
  public var doubleValue: Double { Double(scaled) / Double(Number.scale) }

  /// The sum, or nil on overflow.
  public func adding(_ other: Number) -> Number? {
    let (value, overflow) = scaled.addingReportingOverflow(other.scaled)
    return overflow ? nil : Number(scaled: value)
  }

  /// The difference, or nil on overflow.
  public func subtracting(_ other: Number) -> Number? {
    let (value, overflow) = scaled.subtractingReportingOverflow(other.scaled)
    return overflow ? nil : Number(scaled: value)
  }

  /// The product, truncated toward zero to six digits, or nil on overflow.
  public func multiplied(by other: Number) -> Number? {
    Number.scaledQuotient(scaled, other.scaled, Number.scale).map(Number.init(scaled:))
  }

  /// The quotient, truncated toward zero to six digits, or nil on overflow or division by zero.
  public func divided(by other: Number) -> Number? {
    guard other.scaled != 0 else { return nil }
    return Number.scaledQuotient(scaled, Number.scale, other.scaled).map(Number.init(scaled:))
  }

  /// Computes `a * b / c` in 128-bit precision, truncating toward zero; nil if the result does not fit.
  static func scaledQuotient(_ a: Int64, _ b: Int64, _ c: Int64) -> Int64? {
    guard c != 0 else { return nil }
    let negative = ((a < 0) != (b < 0)) != (c < 0)
    let product = a.magnitude.multipliedFullWidth(by: b.magnitude)
    let divisor = c.magnitude
    guard product.high < divisor else { return nil }
    let quotient = divisor.dividingFullWidth((product.high, product.low)).quotient
    if negative {
      guard quotient <= UInt64(Int64.max) + 1 else { return nil }
      return quotient == UInt64(Int64.max) + 1 ? Int64.min : -Int64(quotient)
    }
    guard quotient <= UInt64(Int64.max) else { return nil }
    return Int64(quotient)
  }

  /// Orders numbers by value.
  public static func < (lhs: Number, rhs: Number) -> Bool { lhs.scaled < rhs.scaled }

  /// The shortest decimal text for the value, such as `7.5` or `-3`.
  public var description: String {
    let magnitude = scaled.magnitude
    let whole = magnitude / UInt64(Number.scale)
    var fraction = magnitude % UInt64(Number.scale)
    var text = (scaled < 0 ? "-" : "") + String(whole)
    if fraction != 0 {
      var digits = Number.fractionDigits
      while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
      }
      let fractionText = String(fraction)
      text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
    return text
  }
}
