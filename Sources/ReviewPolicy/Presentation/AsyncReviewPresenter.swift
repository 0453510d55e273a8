/// Shows review prompts and returns the user's answer: an `async` ``ReviewPresenter``.
///
/// Conforming types are presenters: set one as ``ReviewManager/Configuration/presenter`` and the
/// manager's synchronous calls present through it (in a new task) as well as
/// ``ReviewManager/askIfAppropriate(after:isolation:)``. The prompt counts as shown when
/// ``present(_:)`` is called; return the answer whenever the user gives it (a late answer is
/// recorded). A presenter that may be unable to show anything implements
/// ``ReviewPresenter/present(_:reply:)`` instead, as ``SystemReviewPresenter`` does.
///
/// ```swift
/// @MainActor final class AlertPresenter: AsyncReviewPresenter {
///   func present(_ request: PromptRequest) async -> ReviewResponse {
///     await showAlert(request.texts)  // the app's own alert, answering when tapped
///   }
/// }
/// ```
public protocol AsyncReviewPresenter: ReviewPresenter {
  /// Shows the prompt described by `request` and returns the user's answer.
  func present(_ request: PromptRequest) async -> ReviewResponse
}

extension AsyncReviewPresenter {
  /// Presents in a new task and responds with the answer ``present(_:)`` returns.
  public func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
    Task { respond(await present(request)) }
  }
}
