/// A small seeded random generator (SplitMix64, Vigna's `splitmix64.c`): fast, and the same seed
/// gives the same stream on every platform, so a seed names one run for good.
///
/// The one generator of the package: property tests, fuzz harnesses, the reliability checks and
/// `policyc simulate` all draw from it, so a seed printed by any of them replays exactly.
@frozen
package struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
  /// The generator's state: the seed, advanced by the golden-ratio increment at every draw.
  var state: UInt64

  /// The increment added to the state at every draw (2^64 divided by the golden ratio).
  static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// A generator whose stream is fixed by `seed` (the state starts at `seed`).
  @inlinable
  package init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  @inlinable @inline(__always)
  package mutating func next() -> UInt64 {
    state &+= SeededGenerator.increment
    return SeededGenerator.finalize(state)
  }

  /// SplitMix64's output function over `value + increment`: a bijective scramble of 64 bits, for
  /// deriving independent seeds from a seed and an index.
  @inlinable
  package static func mix(_ value: UInt64) -> UInt64 {
    finalize(value &+ increment)
  }

  /// SplitMix64's finaliser (a variant of MurmurHash3's), without the increment.
  @inlinable @inline(__always)
  static func finalize(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
