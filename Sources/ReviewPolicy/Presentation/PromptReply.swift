/// Where a presenter reports what became of one prompt request: shown, the user's answer, or not
/// presented. Give the reply to the code that shows the prompt and call it from any thread.
///
/// The manager records a prompt only once it is reported shown (or answered): a request its
/// presenter could not present spends nothing of the policy's prompt budget. The first report of
/// each kind counts; an answer after ``notPresented(_:)`` is ignored.
public struct PromptReply: Sendable {
  /// What a presenter reports.
  public enum Report: Sendable, Hashable {
    /// The prompt is on screen.
    case shown
    /// The user's answer (or ``ReviewResponse/unknown`` for a system prompt): the prompt was shown.
    case answered(ReviewResponse)
    /// Nothing could be shown, and why (for the log).
    case notPresented(String)
  }

  private let handler: @Sendable (Report) -> Void

  /// A reply that passes each report to `handler`: for tests and for presenters that wrap another.
  public init(handler: @escaping @Sendable (Report) -> Void) {
    self.handler = handler
  }

  /// The prompt is on screen: the manager records it now, pending its answer.
  public func shown() {
    handler(.shown)
  }

  /// The user's answer to the prompt (which was shown): recorded however late it comes.
  public func answer(_ response: ReviewResponse) {
    handler(.answered(response))
  }

  /// Nothing could be shown (for example, no foreground-active window scene): nothing is recorded,
  /// `reason` is logged once per run of such replies, and the policy may ask again at the next check.
  public func notPresented(_ reason: String) {
    handler(.notPresented(reason))
  }
}
