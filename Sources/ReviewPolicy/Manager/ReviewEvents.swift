/// Delegate-style callbacks for analytics, called after the locks are released on the calling
/// thread: a prompt shown, then its answer (a prompt closed unanswered calls ``unknown``).
public struct ReviewEvents: Sendable {
  /// A prompt is about to be presented.
  public var shown: (@Sendable (PromptRequest) -> Void)?
  /// The user chose to rate.
  public var rated: (@Sendable () -> Void)?
  /// The user chose "no thanks" (or the prompt was left showing, configured as declined).
  public var declined: (@Sendable () -> Void)?
  /// The user chose "remind me later".
  public var remindLater: (@Sendable () -> Void)?
  /// The user chose to give feedback.
  public var feedback: (@Sendable () -> Void)?
  /// Asked, outcome unknown: a system prompt's `.unknown`, a dismissal, or a prompt closed
  /// unanswered by a launch or a return to the foreground.
  public var unknown: (@Sendable () -> Void)?

  /// Creates callbacks; each is optional.
  public init(
    shown: (@Sendable (PromptRequest) -> Void)? = nil, rated: (@Sendable () -> Void)? = nil,
    declined: (@Sendable () -> Void)? = nil, remindLater: (@Sendable () -> Void)? = nil,
    feedback: (@Sendable () -> Void)? = nil, unknown: (@Sendable () -> Void)? = nil
  ) {
    self.shown = shown
    self.rated = rated
    self.declined = declined
    self.remindLater = remindLater
    self.feedback = feedback
    self.unknown = unknown
  }

  /// Calls the callback of `response`.
  func answered(_ response: ReviewResponse) {
    switch response {
    case .rated: rated?()
    case .declined: declined?()
    case .remindLater: remindLater?()
    case .feedback: feedback?()
    case .dismissed, .unknown: unknown?()
    }
  }
}
