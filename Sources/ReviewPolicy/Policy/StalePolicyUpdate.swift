/// A stored policy update that stopped applying because the app ships another bundled policy
/// (see ``ReviewLogEntry/Event/policyStale``): the fingerprints involved.
public struct StalePolicyUpdate: Sendable, Hashable {
  /// The fingerprint of the stored update's source.
  public var update: String
  /// The fingerprint of the bundled policy the update was received under.
  public var receivedUnder: String
  /// The fingerprint of the bundled policy the app ships now, which runs instead.
  public var bundled: String
}
