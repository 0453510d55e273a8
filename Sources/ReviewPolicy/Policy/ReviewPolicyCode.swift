import PolicyCore

/// The stable code of every diagnostic ReviewPolicy reports: the `ReviewPolicy` domain, the
/// review-etiquette warnings of ``ReviewEtiquette`` (`PC320`-`PC322`).
///
/// Codes never change meaning once published. Grammar.md lists each one with its severity,
/// summary and an example (a test checks the table against this enum).
package enum ReviewPolicyCode: String, DiagnosticCodeDefinition {
  /// `ReviewPolicy`.
  package static let domain = "ReviewPolicy"

  /// The policy can ask a user who declined (`declined`) or rated (`rated`) this version.
  case asksAfterAnswer = "PC320"
  /// The policy can ask again within 7 days of the last prompt (`last_prompt`).
  case asksTooSoon = "PC321"
  /// The policy can ask a user who already saw 3 prompts in the last 365 days.
  case asksTooOften = "PC322"

  /// Whether diagnostics with this code are errors or warnings: every one is a warning.
  package var severity: Severity {
    switch self {
    case .asksAfterAnswer, .asksTooSoon, .asksTooOften: .warning
    }
  }

  /// A short title for the code, such as "asks again within 7 days" (for SARIF rules and documentation).
  package var summary: String {
    switch self {
    case .asksAfterAnswer: "asks after a decline or rating"
    case .asksTooSoon: "asks again within 7 days"
    case .asksTooOften: "asks more than 3 times in 365 days"
    }
  }
}
