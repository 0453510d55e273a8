/// Where the running policy came from.
public enum PolicyOrigin: String, Sendable, Hashable {
  /// The policy bundled with the app.
  case bundled
  /// An update received with ``ReviewManager/updatePolicy(_:)`` (possibly in an earlier launch).
  case update
  /// The app's guardrails (``ReviewManager/Configuration/guardrails``), never the running policy.
  case guardrails
}
