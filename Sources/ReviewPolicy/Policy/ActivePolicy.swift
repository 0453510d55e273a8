import PolicyCore

/// The policy a manager runs, with its fact binder.
struct ActivePolicy: Sendable {
  let compiled: CompiledPolicy
  let binder: ReviewFactBinder
  /// Where it came from and the fingerprint of its source, for the log.
  let identity: PolicyIdentity

  /// Where the policy came from.
  var origin: PolicyOrigin { identity.origin }

  init(_ compiled: CompiledPolicy, origin: PolicyOrigin, appVersion: String) {
    self.init(
      compiled, binder: ReviewFactBinder(policy: compiled, appVersion: appVersion),
      identity: PolicyIdentity(origin: origin, fingerprint: PolicyIdentity.fingerprint(of: compiled.source.bytes)))
  }

  private init(_ compiled: CompiledPolicy, binder: ReviewFactBinder, identity: PolicyIdentity) {
    self.compiled = compiled
    self.binder = binder
    self.identity = identity
  }

  /// The same policy bound for another app version.
  func with(appVersion: String) -> ActivePolicy {
    ActivePolicy(compiled, binder: binder.with(appVersion: appVersion), identity: identity)
  }
}
