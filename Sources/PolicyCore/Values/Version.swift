/// An app version, the language's `version` type: up to four numeric parts.
///
/// Parsing is tolerant (`v2.1`, `2.1.0`, `2`) and comparison is part by part
/// as numbers, with missing parts equal to zero: `1.10 > 1.9` and `2.0 == 2`.
public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The most parts a version can have.
  public static let maximumParts = 4

  /// Parts 1 and 2, packed as `part1 << 32 | part2`; compared first.
  package var high: UInt64
  /// Parts 3 and 4, packed as `part3 << 32 | part4`.
  package var low: UInt64

  /// Creates a version from packed words.
  package init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// Creates a version from up to four parts; nil when there are more or none.
  public init?(parts: [UInt32]) {
    guard (1...Version.maximumParts).contains(parts.count) else { return nil }
    let padded = parts + Array(repeating: 0, count: Version.maximumParts - parts.count)
    self.high = UInt64(padded[0]) << 32 | UInt64(padded[1])
    self.low = UInt64(padded[2]) << 32 | UInt64(padded[3])
  }

  /// The reason a version string was rejected by ``init(parsing:)``.
  public enum ParseError: Error, Sendable, Hashable {
    /// The text is empty.
    case empty
    /// A part is not a run of decimal digits (for example `1.2-beta`).
    case notNumeric
    /// More than ``Version/maximumParts`` parts.
    case tooManyParts
    /// A part is larger than 4294967295.
    case partTooLarge
  }

  /// Parses `1.2.3`, `v2.1` or `2`: an optional `v`, then 1 to 4 dot-separated numbers.
  ///
  /// Surrounding spaces are ignored. Leading zeros are allowed (`2.01` is `2.1`).
  public static func parse(_ text: some StringProtocol) -> Result<Version, ParseError> {
    parse(text: Substring(text))
  }

  /// ``parse(_:)``'s work, once for every kind of text (the generic function is kept whole in
  /// every app, beside each specialization).
  private static func parse(text: Substring) -> Result<Version, ParseError> {
    var utf8 = text.utf8[...]
    while utf8.first == UInt8(ascii: " ") { utf8 = utf8.dropFirst() }
    while utf8.last == UInt8(ascii: " ") { utf8 = utf8.dropLast() }
    if utf8.first == UInt8(ascii: "v") || utf8.first == UInt8(ascii: "V") { utf8 = utf8.dropFirst() }
    guard !utf8.isEmpty else { return .failure(.empty) }
    var parts: [UInt32] = []
    var current: UInt64 = 0
    var digits = 0
    for byte in utf8 {
      if byte == UInt8(ascii: ".") {
        guard digits > 0 else { return .failure(.notNumeric) }
        parts.append(UInt32(current))
        guard parts.count < Version.maximumParts else { return .failure(.tooManyParts) }
        current = 0
        digits = 0
        continue
      }
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return .failure(.notNumeric) }
      current = current * 10 + UInt64(byte - UInt8(ascii: "0"))
      digits += 1
      guard current <= UInt64(UInt32.max) else { return .failure(.partTooLarge) }
    }
    guard digits > 0 else { return .failure(.notNumeric) }
    parts.append(UInt32(current))
    guard let version = Version(parts: parts) else { return .failure(.tooManyParts) }
    return .success(version)
  }

  /// Parses a version like ``parse(_:)``, returning nil on failure.
  public init?(parsing text: some StringProtocol) {
    guard case .success(let version) = Version.parse(text) else { return nil }
    self = version
  }

  /// The four parts, zero-padded.
  public var parts: [UInt32] {
    [UInt32(high >> 32), UInt32(high & 0xFFFF_FFFF), UInt32(low >> 32), UInt32(low & 0xFFFF_FFFF)]
  }

  /// Orders versions part by part.
  public static func < (lhs: Version, rhs: Version) -> Bool {
    (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }

  /// The version with trailing zero parts dropped, keeping at least two: `2.0`, `1.10`, `1.2.3`.
  public var description: String {
    var shown = parts
    while shown.count > 2 && shown.last == 0 { shown.removeLast() }
    return shown.map(String.init).joined(separator: ".")
  }
}
