/// The 64-bit FNV-1a hash: stable on every platform, in every process and every release, for
/// fingerprints and names (not for security). Pure and allocation-free.
package struct FNV1a: Sendable, Hashable {
  /// The hash of everything fed so far.
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  /// A hash of nothing fed yet (the FNV offset basis).
  init() {}

  /// The hash of `bytes`.
  package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hasher = FNV1a()
    hasher.feed(bytes)
    return hasher.value
  }

  /// Feeds one byte.
  @inline(__always)
  mutating func feed(_ byte: UInt8) {
    value ^= UInt64(byte)
    value = value &* 0x100_0000_01b3
  }

  /// Feeds `bytes` in order.
  mutating func feed(_ bytes: some Sequence<UInt8>) {
    for byte in bytes { feed(byte) }
  }
}
