import PolicyCore

/// The result of ``ReviewManager/updatePolicy(_:)``.
public struct PolicyUpdateResult: Sendable {
  /// Whether the update replaced the running policy.
  public var isAccepted: Bool
  /// The compiler's errors (when rejected) and warnings; the analyzer's are in ``warnings``.
  public var diagnostics: [Diagnostic]
  /// The diagnostics and the analyzer's warnings rendered as text, ready to log or show.
  public var renderedDiagnostics: String
  /// Every warning, ordered by position: the compiler's, then (for an update that compiles) the
  /// analyzer's, including the review etiquette (PC320 asks a user who declined or rated, PC321
  /// asks again within 7 days, PC322 asks after 3 prompts in 365 days), and PC319 when no user
  /// can ever be asked: an error of `policyc check`, which does not reject an update (serving
  /// one is how a team pauses prompts). Warnings never reject.
  public var warnings: [Diagnostic]

  /// The errors that rejected the update (empty when accepted).
  public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}
