/// What ``ReviewManager/askIfAppropriate(after:isolation:)`` counts before it checks the policy.
public enum PromptTrigger: Sendable, Hashable {
  /// A significant event, by name if given (as ``ReviewManager/significantEvent(_:mayPrompt:)``).
  case significantEvent(String? = nil)
  /// An action's score (as ``ReviewManager/action(score:isBad:mayPrompt:)``).
  case action(score: Double, isBad: Bool = false)
}

/// How a prompt check ended: what ``ReviewManager/askIfAppropriate(after:isolation:)`` returns.
public enum PromptCheckOutcome: Sendable {
  /// The policy did not ask: its decision as of just after the check, with the rules that decided
  /// (a nil ``CurrentDecision/decision`` when the facts could not be built).
  case notAsked(CurrentDecision)
  /// Asked, and the user's answer was recorded: rated, declined, remind later or feedback.
  case answered(ReviewResponse)
  /// Asked, outcome unknown, as recorded: ``ReviewResponse/unknown`` (a system prompt, which never
  /// reports what the user did) or ``ReviewResponse/dismissed``.
  case outcomeUnknown(ReviewResponse)
  /// Asked, but no answer came while waiting (the presenter did not respond within
  /// ``ReviewManager/Configuration/promptTimeout``, or the waiting task was cancelled): the prompt stays
  /// on screen until the manager closes it as "asked, outcome unknown".
  case unanswered
  /// Asked, but the answer was refused: the prompt had been answered already. Nothing was recorded.
  case refused(ReviewResponse, PromptAnswerError)
  /// Asked with no presenter configured: the app shows its own prompt for `request` and calls
  /// ``ReviewManager/record(_:)`` with the answer.
  case needsPresentation(PromptRequest)
  /// The policy asked, but nothing could be shown (the presenter found no window scene to show
  /// it in, or the manager runs in an app extension), and why: nothing was recorded, and the
  /// policy may ask again at the next check.
  case notPresented(String)
  /// A debug prompt forced by ``ReviewManager/Configuration/alwaysAsk``: shown, its answer (nil
  /// when none came) not recorded.
  case forced(ReviewResponse?)

  /// Whether a prompt was requested and shown, or handed to the app (every outcome but
  /// ``notAsked(_:)`` and ``notPresented(_:)``).
  public var isAsked: Bool {
    switch self {
    case .notAsked, .notPresented: false
    case .answered, .outcomeUnknown, .unanswered, .refused, .needsPresentation, .forced: true
    }
  }

  /// The answer recorded, if any.
  public var recordedResponse: ReviewResponse? {
    switch self {
    case .answered(let response), .outcomeUnknown(let response): response
    case .notAsked, .notPresented, .unanswered, .refused, .needsPresentation, .forced: nil
    }
  }
}
