import PolicyCore

/// The simulation's random streams: the package's ``SeededGenerator`` (SplitMix64), seeded per
/// run, user and stream, with the draws the behaviour model needs.
typealias SimulationRandom = SeededGenerator

extension SeededGenerator {
  /// A generator for stream `stream` of user `user` in a run seeded with `seed`.
  init(seed: UInt64, user: Int, stream: UInt64) {
    let userKey = SeededGenerator.mix(UInt64(truncatingIfNeeded: user) &* 4 &+ stream &+ 0x5851_F42D_4C95_7F2D)
    self.init(seed: SeededGenerator.mix(SeededGenerator.mix(seed) ^ userKey))
  }

  /// A uniform 53-bit value, compared with a ``SimulationProbability``.
  @inline(__always)
  mutating func next53() -> UInt64 { next() >> 11 }

  /// True with probability `probability`.
  @inline(__always)
  mutating func chance(_ probability: SimulationProbability) -> Bool { next53() < probability.threshold }

  /// A uniform integer in `0..<bound` (`bound` > 0), by multiplication (no division).
  @inline(__always)
  mutating func below(_ bound: UInt64) -> UInt64 { next().multipliedFullWidth(by: bound).high }

  /// The number of successes before the first failure, each with probability `continuing`, at most `limit`.
  @inline(__always)
  mutating func geometric(_ continuing: SimulationProbability, limit: Int) -> Int {
    var count = 0
    while count < limit && chance(continuing) { count += 1 }
    return count
  }
}
