/// "Did you mean" support: Levenshtein distance with a cap.
package enum EditDistance {
  /// The edit distance between `a` and `b`, or nil when it exceeds `limit`.
  static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
    let lhs = Array(a.utf8)
    let rhs = Array(b.utf8)
    if abs(lhs.count - rhs.count) > limit { return nil }
    if lhs.isEmpty { return rhs.count <= limit ? rhs.count : nil }
    if rhs.isEmpty { return lhs.count <= limit ? lhs.count : nil }
    var previous = Array(0...rhs.count)
    var current = [Int](repeating: 0, count: rhs.count + 1)
    for i in 1...lhs.count {
      current[0] = i
      var rowMinimum = current[0]
      for j in 1...rhs.count {
        let cost = lowercased(lhs[i - 1]) == lowercased(rhs[j - 1]) ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return nil }
      swap(&previous, &current)
    }
    return previous[rhs.count] <= limit ? previous[rhs.count] : nil
  }

  /// The closest candidate to `name`, if one is close enough to be a likely typo.
  ///
  /// The allowed distance grows with the name: 1 for names up to 4 bytes,
  /// then one more per 4 bytes, capped at 3. Ties go to the earliest candidate.
  package static func suggestion(for name: String, among candidates: [String]) -> String? {
    let limit = min(3, max(1, name.utf8.count / 4))
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
      guard let distance = distance(name, candidate, limit: limit) else { continue }
      if let current = best, current.distance <= distance { continue }
      best = (candidate, distance)
    }
    return best?.name
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
  }
}
