import Foundation

/// Raw JSON spliced into a ``JSONWriter``'s output: the writer gets a placeholder string,
/// replaced by the raw text afterwards (the writer cannot write numbers with decimals).
public struct RawJSON: Sendable {
  /// No raw texts yet.
  private var texts: [String] = []

  /// No raw texts yet.
  public init() {}

  /// A placeholder to write with `JSONWriter.string` in place of `raw`.
  public mutating func placeholder(_ raw: String) -> String {
    texts.append(raw)
    return "\u{1}raw\(texts.count - 1)\u{1}"
  }

  /// `output` with every placeholder replaced by its raw text.
  public func resolve(_ output: String) -> String {
    var result = output
    for (index, raw) in texts.enumerated() {
      result = result.replacingOccurrences(of: JSONWriter.quoted("\u{1}raw\(index)\u{1}"), with: raw)
    }
    return result
  }
}
