/// `bucket("name")`: a number in `0..<100` fixed for one subject and one name, for rollouts and
/// experiments (`ask when bucket("new-ask") < 10 and ...` holds for 10% of subjects).
///
/// The language knows no subject: the host gives each snapshot a 64-bit ``Facts/seed`` (for
/// example a random one stored per install). The name is hashed when the policy is
/// checked (its argument is a string literal), and evaluation mixes the two with SplitMix64's
/// finaliser, so the value is stable for a seed and name, uniform over seeds, and independent
/// across names. Pure and allocation-free: the evaluator calls it.
package enum Bucket {
  /// The number of buckets: values are `0..<count`.
  static let count: Int64 = 100

  /// The 64-bit FNV-1a hash of `name`'s UTF-8 bytes, computed once when the policy is checked.
  static func nameHash(_ name: String) -> UInt64 {
    FNV1a.hash(name.utf8)
  }

  /// The bucket of the subject with `seed` for the name whose hash is `nameHash`.
  @inline(__always)
  static func value(seed: UInt64, nameHash: UInt64) -> Int64 {
    // Mixing the seed first, then the pair, keeps two names' buckets independent even for
    // seeds that differ in few bits; the modulo bias (2^64 mod 100 of 2^64) is negligible.
    Int64(SeededGenerator.mix(SeededGenerator.mix(seed) ^ nameHash) % UInt64(count))
  }

  /// The bucket of the subject with `seed` for `name`.
  package static func value(seed: UInt64, name: String) -> Int64 {
    value(seed: seed, nameHash: nameHash(name))
  }
}
