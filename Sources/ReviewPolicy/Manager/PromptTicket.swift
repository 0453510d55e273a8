import PolicyCore

/// One prompt a manager asked for, from the decision until its answer: the presenter's reports
/// (``PromptReply``) about it are matched to it. Its fields are only touched under the manager's lock.
final class PromptTicket: @unchecked Sendable {
  // @unchecked: every `var` is only read or written while holding the manager's lock.

  /// Where the prompt stands.
  enum Phase: Sendable, Hashable {
    /// Handed to the presenter, not yet reported: nothing recorded.
    case requested
    /// On screen: recorded in the state under ``PromptTicket/shownAt``, waiting for the user's answer.
    case shown
    /// Closed without an answer (the app left the foreground with it showing, recorded as
    /// dismissed): nothing blocks asking again, and the user's answer, if it still comes, is recorded.
    case closed
    /// Answered (or a system prompt's "outcome unknown"): nothing is on screen any more.
    case answered
    /// The presenter could show nothing: nothing was recorded.
    case notPresented
  }

  /// When the check asked.
  let requestedAt: Timestamp
  /// Whether a presenter reports on it; false for a prompt handed to the app without one (the
  /// prompt timeout then closes it, and lifts the block on asking again).
  let hasPresenter: Bool
  /// A debug prompt forced by `alwaysAsk`: nothing about it is recorded.
  let isForced: Bool
  /// What the presenter was asked to show (for the `shown` callback).
  let request: PromptRequest?
  /// Where it stands.
  var phase: Phase
  /// The instant the prompt is recorded under, once shown.
  var shownAt: Timestamp?

  /// A ticket for a prompt asked for at `requestedAt`.
  init(
    requestedAt: Timestamp, hasPresenter: Bool, isForced: Bool, request: PromptRequest?, phase: Phase,
    shownAt: Timestamp? = nil
  ) {
    self.requestedAt = requestedAt
    self.request = request
    self.hasPresenter = hasPresenter
    self.isForced = isForced
    self.phase = phase
    self.shownAt = shownAt
  }

  /// Whether the prompt counts as on screen at `now`, so that no check asks again: handed to the
  /// presenter and not reported yet (at most `timeout`), or shown and not answered (a prompt
  /// without a presenter for at most `timeout`).
  func isShowing(at now: Timestamp, timeout: TimeSpan?) -> Bool {
    switch phase {
    case .closed, .answered, .notPresented:
      return false
    case .requested:
      return !PromptTicket.passed(timeout, since: requestedAt, at: now)
    case .shown:
      guard !hasPresenter, let shownAt else { return true }
      return !PromptTicket.passed(timeout, since: shownAt, at: now)
    }
  }

  /// Whether a presenter that reported nothing since the request is past `timeout` at `now`.
  func isSilent(at now: Timestamp, timeout: TimeSpan?) -> Bool {
    phase == .requested && PromptTicket.passed(timeout, since: requestedAt, at: now)
  }

  /// Whether `timeout` (nil: never) has passed since `start` at `now`.
  private static func passed(_ timeout: TimeSpan?, since start: Timestamp, at now: Timestamp) -> Bool {
    guard let timeout, let deadline = start.adding(timeout) else { return false }
    return now >= deadline
  }
}
