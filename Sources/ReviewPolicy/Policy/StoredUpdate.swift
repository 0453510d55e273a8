import PolicyCore

/// A stored policy update: its source and the fingerprint of the bundled policy it was received under.
struct StoredUpdate: Sendable, Equatable {
  var source: String
  var receivedUnder: String?

  init(source: String, receivedUnder: String?) {
    self.source = source
    self.receivedUnder = receivedUnder
  }

  /// The update stored in `state`; nil when there is none.
  init?(_ state: ReviewState) {
    guard let source = state.policySource else { return nil }
    self.init(source: source, receivedUnder: state.policyReceivedUnder)
  }
}
