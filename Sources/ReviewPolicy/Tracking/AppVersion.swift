import PolicyCore

/// Parses app version strings as apps report them.
enum AppVersion {
  /// The version in `text`: a strict parse first (`2.1`, `v1.2.3`), then the leading
  /// numeric part of strings such as `1.2.3-beta` or `2.0 (45)`. Nil when there is no number at the start.
  static func parse(_ text: String) -> Version? {
    if let version = Version(parsing: text) { return version }
    var prefix = Substring(text.drop { $0 == " " || $0 == "v" || $0 == "V" })
    prefix = prefix.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    while prefix.hasSuffix(".") { prefix = prefix.dropLast() }
    let parts = prefix.split(separator: ".", omittingEmptySubsequences: false)
    guard !prefix.isEmpty else { return nil }
    return Version(parsing: parts.prefix(Version.maximumParts).joined(separator: "."))
  }
}
