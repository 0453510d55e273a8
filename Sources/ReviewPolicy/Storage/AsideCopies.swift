import Foundation

/// The names of copies of unusable data kept aside (`<name>.corrupt-<milliseconds>...`): each
/// carries the instant it was kept, later than every copy before it, so the newest are known by
/// name alone and only they are kept (``JSONFileStore/keptAsideCopies``).
enum AsideCopies {
  /// The instant to name a new copy with: now in milliseconds, or just after the newest of
  /// `names` that start with `prefix` when that is not earlier (copies made within one
  /// millisecond, or after the clock went back).
  static func nextStamp(after names: [String], prefix: String) -> Int64 {
    let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    let newest = names.compactMap { stamp(of: $0, prefix: prefix) }.max() ?? .min
    return newest >= now && newest < .max ? newest + 1 : now
  }

  /// Those of `names` that start with `prefix`, newest first (by the instant in the name).
  static func newestFirst(_ names: [String], prefix: String) -> [String] {
    names.filter { $0.hasPrefix(prefix) }.stablySorted { left, right in
      let (a, b) = (stamp(of: left, prefix: prefix) ?? .min, stamp(of: right, prefix: prefix) ?? .min)
      return a != b ? a > b : right.utf8.lexicographicallyPrecedes(left.utf8)
    }
  }

  /// The instant in `name` after `prefix`; nil when there is none.
  private static func stamp(of name: String, prefix: String) -> Int64? {
    guard name.hasPrefix(prefix) else { return nil }
    return Int64(String(name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }))
  }
}
