import PolicyCore

/// One of `count` parts of the installs of some records (`--shard index/count`, 1-based as
/// written): an install belongs to the part its identifier's FNV-1a hash falls in, so every
/// machine reading every file agrees, and the parts of all shards make the whole.
package struct RecordShard: Sendable, Hashable {
  /// The part, from 0.
  package var index: Int
  /// The number of parts, from 1.
  package var count: Int

  /// The most parts a read may be split into.
  package static let maximumCount = 10_000

  /// Part `index` (from 0) of `count`.
  package init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// The shard written `i/n` (1 ≤ i ≤ n ≤ ``maximumCount``), or nil.
  package init?(_ text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), (1...Self.maximumCount).contains(n),
      (1...n).contains(i)
    else { return nil }
    self.init(index: i - 1, count: n)
  }

  /// `i/n`, 1-based.
  package var description: String { "\(index + 1)/\(count)" }

  /// Whether the install `install` is in this part.
  package func contains(install: String) -> Bool {
    count <= 1 || Int(FNV1a.hash(install.utf8) % UInt64(count)) == index
  }
}
