/// Deterministic number formatting for reports (no locale, no `String(format:)`).
package enum SimulationFormat {
  /// `value` rounded to `places` decimals: `decimal(0.125, places: 2)` is `0.13`; trailing zeros are kept.
  package static func decimal(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return String(value) }
    let units = Int64(scaled)
    let divisor = Int64(scale)
    var text = String(units / divisor)
    if places > 0 {
      let fraction = String(units % divisor)
      text += "." + String(repeating: "0", count: places - fraction.count) + fraction
    }
    return (value < 0 && units != 0 ? "-" : "") + text
  }

  /// `value` with at most `places` decimals, trailing zeros removed: `0.5`, `2`.
  package static func trimmed(_ value: Double, places: Int) -> String {
    var text = decimal(value, places: places)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }

  /// A share as a percentage with at most one decimal: `20%`, `12.5%`.
  package static func share(_ share: Double) -> String {
    trimmed(share * 100, places: 1) + "%"
  }

  /// `part` of `whole` as a percentage with one decimal (`61.2%`); `-` when `whole` is 0.
  package static func percent(_ part: Int, of whole: Int) -> String {
    whole == 0 ? "-" : decimal(Double(part) * 100 / Double(whole), places: 1) + "%"
  }

  /// An integer with thousands separators: `1,234,567`.
  package static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return (value < 0 ? "-" : "") + result
  }
}
