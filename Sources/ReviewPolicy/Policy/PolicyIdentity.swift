import PolicyCore

/// Which policy decided: where it came from and a fingerprint of its source text.
///
/// Every decision entry of the log names it (``ReviewLogEntry/policy``), so a decision can be
/// traced to the exact text that made it: the bundled policy or a remote update.
public struct PolicyIdentity: Sendable, Hashable, CustomStringConvertible {
  /// Where the policy came from.
  public var origin: PolicyOrigin
  /// A stable short hash of the policy's source text (``fingerprint(of:)``).
  public var fingerprint: String

  /// An identity for a policy of `origin` whose source text has `fingerprint`.
  public init(origin: PolicyOrigin, fingerprint: String) {
    self.origin = origin
    self.fingerprint = fingerprint
  }

  /// The identity of `source`, a policy's text, from `origin`.
  init(origin: PolicyOrigin, source: String) {
    self.init(origin: origin, fingerprint: PolicyIdentity.fingerprint(of: source))
  }

  /// `bundled 1a2b3c4d5e6f7a8b` or `update 1a2b3c4d5e6f7a8b`.
  public var description: String { "\(origin.rawValue) \(fingerprint)" }

  /// A stable short hash of a policy's source text: 16 lowercase hexadecimal digits of the 64-bit
  /// FNV-1a hash of its UTF-8 bytes. The same text gives the same fingerprint on every platform,
  /// in every process and every release of this library.
  public static func fingerprint(of source: String) -> String {
    fingerprint(of: source.utf8)
  }

  /// The fingerprint of a policy's source bytes, as for its text.
  static func fingerprint<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> String {
    ReviewRecord.hex(Int64(bitPattern: FNV1a.hash(bytes)))
  }
}
