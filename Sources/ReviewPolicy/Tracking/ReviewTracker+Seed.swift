import PolicyCore

extension ReviewTracker {
  /// The install's seed, from which policies draw `bucket("name")` (see ``ReviewState/installSeed``).
  ///
  /// Tools that drive trackers for many simulated installs give each its own reproducible seed
  /// before the first call; otherwise the first tracking call under a policy that reads a bucket
  /// draws a random one.
  public var installSeed: Int64? {
    get { state.installSeed }
    set { state.installSeed = newValue }
  }
}
