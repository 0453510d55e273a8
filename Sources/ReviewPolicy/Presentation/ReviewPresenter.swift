/// Shows review prompts: a custom alert, or a system prompt such as StoreKit's.
///
/// Call `respond` once with the user's answer, while the prompt is on screen (see
/// ``ReviewManager/record(_:)``: a late answer is refused). A system prompt that never
/// reports back responds ``ReviewResponse/unknown``: asked, outcome unknown.
public protocol ReviewPresenter: Sendable {
  /// Shows the prompt described by `request`; called on the thread that triggered it.
  func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void)
}

/// A presenter built from a closure.
public struct ClosurePresenter: ReviewPresenter {
  private let body: @Sendable (PromptRequest, @escaping @Sendable (ReviewResponse) -> Void) -> Void

  /// Creates a presenter that calls `body`.
  public init(_ body: @escaping @Sendable (PromptRequest, @escaping @Sendable (ReviewResponse) -> Void) -> Void) {
    self.body = body
  }

  /// Calls the closure.
  public func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
    body(request, respond)
  }
}
