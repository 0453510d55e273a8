/// "Did you mean" support: edit distance with a cap, counting a swap of two adjacent letters
/// (`exprot` for `export`) as one edit, like an insertion, a deletion or a substitution (the
/// optimal string alignment distance).
package enum EditDistance {
  /// The most cells of distance tables one suggestion may fill: with the cap of 100 errors, the
  /// suggestions of a whole file cost a bounded amount however many names it declares.
  static let maximumWork = 1 << 18

  /// The edit distance between `a` and `b`, or nil when it exceeds `limit`.
  ///
  /// Names whose lengths differ by more than `limit` are rejected before anything is allocated,
  /// and only the band of cells within `limit` of the diagonal is filled, stopping at the first
  /// row whose every cell exceeds `limit`: O(length × limit).
  package static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
    if abs(a.utf8.count - b.utf8.count) > limit { return nil }
    let lhs = Array(a.utf8)
    let rhs = Array(b.utf8)
    if lhs.isEmpty { return rhs.count <= limit ? rhs.count : nil }
    if rhs.isEmpty { return lhs.count <= limit ? lhs.count : nil }
    let outside = limit + 1
    var previous = (0...rhs.count).map { min($0, outside) }
    var current = [Int](repeating: outside, count: rhs.count + 1)
    // The row before `previous`, for swaps.
    var twoBack = [Int](repeating: outside, count: rhs.count + 1)
    for i in 1...lhs.count {
      let low = max(1, i - limit)
      let high = min(rhs.count, i + limit)
      current[0] = min(i, outside)
      if low > 1 { current[low - 1] = outside }
      var rowMinimum = current[0]
      if low <= high {
        for j in low...high {
          let cost = lowercased(lhs[i - 1]) == lowercased(rhs[j - 1]) ? 0 : 1
          current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, outside)
          if i > 1 && j > 1 && cost == 1 && lowercased(lhs[i - 1]) == lowercased(rhs[j - 2])
            && lowercased(lhs[i - 2]) == lowercased(rhs[j - 1])
          {
            current[j] = min(current[j], twoBack[j - 2] + 1)
          }
          rowMinimum = min(rowMinimum, current[j])
        }
      }
      if high < rhs.count { current[high + 1] = outside }
      if rowMinimum > limit { return nil }
      // Rotate: the new row becomes `previous`, the old `previous` becomes `twoBack`.
      swap(&twoBack, &previous)
      swap(&previous, &current)
    }
    return previous[rhs.count] <= limit ? previous[rhs.count] : nil
  }

  /// The closest candidate to `name`, if one is close enough to be a likely typo.
  ///
  /// The allowed distance grows with the name: 1 for names up to 4 bytes,
  /// then one more per 4 bytes, capped at 3. Ties go to the earliest candidate. At most
  /// `maximumWork` cells are computed: past them the best candidate so far is the answer.
  package static func suggestion(for name: String, among candidates: [String], maximumWork: Int = maximumWork)
    -> String?
  {
    let length = name.utf8.count
    let limit = min(3, max(1, length / 4))
    var best: (name: String, distance: Int)?
    var work = 0
    for candidate in candidates where candidate != name {
      // Filtered by length first: no table for a name that cannot be close.
      guard abs(candidate.utf8.count - length) <= limit else { continue }
      work += (length + 1) * (2 * limit + 1)
      if work > maximumWork { break }
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
