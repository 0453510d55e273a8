import Foundation
import PolicyCore

/// One entry for the logger: a decision with its explanation, or a problem.
public struct ReviewLogEntry: Sendable {
  /// What happened.
  public enum Event: String, Sendable, Hashable, CaseIterable {
    /// A launch was counted (or vetoed).
    case launch
    /// A return to the foreground was counted (or vetoed).
    case foreground
    /// A session started.
    case sessionStart
    /// A session ended.
    case sessionEnd
    /// A significant event, with a prompt check.
    case significantEvent
    /// An action, with a prompt check.
    case action
    /// An explicit prompt check.
    case promptCheck
    /// A response was recorded (an answer, or a prompt closed as outcome unknown).
    case response
    /// A prompt was shown (after the decision entry that asked): its presenter reported it shown
    /// or answered, or it was handed to an app without a presenter.
    case promptShown
    /// The presenter could not show the prompt the policy asked for (no window scene to show it
    /// in), or the manager runs in an app extension, which never prompts: nothing was recorded.
    /// Logged once per run of such checks, with the reason.
    case promptNotPresented
    /// A policy update was accepted.
    case policyUpdated
    /// A policy update was rejected.
    case policyRejected
    /// ``ReviewManager/resetPolicy()`` went back to the bundled policy.
    case policyReset
    /// The stored policy update stopped applying: it was received under another bundled policy
    /// (the fingerprints are in ``ReviewLogEntry/staleUpdate``).
    case policyStale
    /// ``ReviewManager/reset()`` forgot everything tracked.
    case reset
    /// ``ReviewManager/setFact(_:_:)`` set or removed an app fact (named in ``ReviewLogEntry/name``).
    case factSet
    /// An app fact the policy declares without a default has not been set (named in
    /// ``ReviewLogEntry/name``): a policy that reads it never asks. Reported once per fact.
    case unsetFact
    /// A problem: unusable stored state, a failed save, a stored policy that no longer compiles.
    case problem
  }

  /// What happened.
  public var event: Event
  /// When.
  public var date: Date
  /// One line.
  public var summary: String
  /// The full explanation or diagnostics, if any.
  public var details: String = ""
  /// The decision, for decision entries.
  public var decision: Decision?
  /// Whether this entry is a prompt check's decision (its ``decision`` is nil when the facts could
  /// not be built); other entries record a call, an answer, a prompt shown or a problem.
  public var isDecision = false
  /// The policy that decided (decision entries), was accepted (``Event/policyUpdated``), runs after a
  /// reset or a stale update (``Event/policyReset``, ``Event/policyStale``), or reads an unset fact.
  public var policy: PolicyIdentity?
  /// What the entry is about, by name: the app fact of ``Event/factSet`` and ``Event/unsetFact``,
  /// the significant event's name (``Event/significantEvent``, when it has one).
  public var name: String?
  /// The rules that decided, by name (an unnamed rule by its label), for decision entries.
  public var decidingRuleNames: [String] = []
  /// The `bucket("name")` values the deciding policy reads, for this install, for decision entries.
  public var buckets: [String: Int64] = [:]
  /// For decision entries of a policy that reads `bucket("name")`: the install's seed the bucket
  /// values are drawn from (``ReviewState/installSeed``), so a replay draws the same values for
  /// any bucket name.
  public var bucketSeed: Int64?
  /// For ``Event/response`` entries: whether the answer was given outside any prompt
  /// (``ReviewManager/recordWithoutPrompt(_:)``).
  public var isOutsidePrompt = false
  /// For ``Event/launch`` and ``Event/foreground`` entries: whether the use was counted (false:
  /// ``ReviewManager/Configuration/shouldCountUse`` vetoed it).
  public var counted: Bool?
  /// For ``Event/action`` entries: the action's score and whether it marked the session bad.
  public var score: Double?
  /// For ``Event/action`` entries: whether the action marked the session bad.
  public var isBad: Bool?
  /// The answer recorded, for ``Event/response`` entries.
  public var response: ReviewResponse?
  /// The diagnostics of a policy update (``Event/policyUpdated``, ``Event/policyRejected``):
  /// errors, warnings and the analyzer's warnings.
  public var diagnostics: [Diagnostic] = []
  /// The fingerprints of a stale update, for ``Event/policyStale`` entries.
  public var staleUpdate: StalePolicyUpdate?

  /// An entry for an event.
  @inline(never)
  init(
    event: Event, date: Date, summary: String, details: String = "", decision: Decision? = nil,
    isDecision: Bool = false
  ) {
    self.event = event
    self.date = date
    self.summary = summary
    self.details = details
    self.decision = decision
    self.isDecision = isDecision
  }

  /// The most UTF-8 bytes of ``summary`` a logger receives.
  public static let maximumSummaryBytes = 1024
  /// The most UTF-8 bytes of ``details`` a logger receives (an explanation of a large policy, or
  /// the rendered diagnostics of a large update, is cut at a line and says how much was left out).
  public static let maximumDetailsBytes = 16 * 1024
  /// The most ``diagnostics`` an entry carries (the update's result carries them all).
  public static let maximumDiagnostics = 200

  /// This entry within ``maximumSummaryBytes``, ``maximumDetailsBytes`` and
  /// ``maximumDiagnostics``: what is cut is counted in the text that remains.
  func bounded() -> ReviewLogEntry {
    var entry = self
    if summary.utf8.count > Self.maximumSummaryBytes {
      entry.summary = ManagerMessages.cut(summary, to: Self.maximumSummaryBytes, atLine: false)
    }
    if details.utf8.count > Self.maximumDetailsBytes {
      entry.details = ManagerMessages.cut(details, to: Self.maximumDetailsBytes, atLine: true)
    }
    if diagnostics.count > Self.maximumDiagnostics {
      let left = diagnostics.count - Self.maximumDiagnostics
      entry.diagnostics = Array(diagnostics.prefix(Self.maximumDiagnostics))
      entry.summary += ManagerMessages.diagnosticsLeftOut(left)
    }
    return entry
  }
}
