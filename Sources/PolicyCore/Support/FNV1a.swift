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

  /// Feeds `bytes` in order: contiguous bytes (a native string's UTF-8, an array) through a
  /// buffer, so an unspecialized caller does not pay a generic call per byte.
  mutating func feed(_ bytes: some Sequence<UInt8>) {
    var hasher = self
    let fed: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      for byte in buffer { hasher.feed(byte) }
    }
    if fed != nil {
      self = hasher
      return
    }
    for byte in bytes { feed(byte) }
  }
}
