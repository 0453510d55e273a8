/// Shows review prompts: a custom alert, or a system prompt such as StoreKit's.
///
/// A presenter reports through the ``PromptReply`` it is given: ``PromptReply/shown()`` when the
/// prompt is on screen (the manager records the prompt then, and only then),
/// ``PromptReply/answer(_:)`` with the user's answer (however late; it implies shown), or
/// ``PromptReply/notPresented(_:)`` when it could show nothing (no window to show it in): nothing
/// is recorded and the policy can ask again at the next check. A system prompt, which never says
/// what the user did, answers ``ReviewResponse/unknown``: asked, outcome unknown.
///
/// A presenter that implements only ``present(_:respond:)`` (the first form of this protocol) is
/// taken as shown when it is called, and its `respond` is its answer.
public protocol ReviewPresenter: Sendable {
  /// Shows the prompt described by `request`; `respond` takes the user's answer. Called on the
  /// thread that triggered it, unless ``present(_:reply:)`` is implemented.
  func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void)

  /// Shows the prompt described by `request` and reports to `reply`: shown, its answer, or not
  /// presented. Called on the thread that triggered it. The default calls ``present(_:respond:)``
  /// after reporting the prompt shown.
  func present(_ request: PromptRequest, reply: PromptReply)
}

extension ReviewPresenter {
  /// Reports the prompt shown, then presents it with ``present(_:respond:)``, whose answer is the reply's.
  public func present(_ request: PromptRequest, reply: PromptReply) {
    reply.shown()
    present(request) { reply.answer($0) }
  }
}

/// A presenter built from a closure.
public struct ClosurePresenter: ReviewPresenter {
  private let body: @Sendable (PromptRequest, PromptReply) -> Void

  private init(body: @escaping @Sendable (PromptRequest, PromptReply) -> Void) {
    self.body = body
  }

  /// A presenter that calls `body`, which reports to the reply: shown, the answer, or not presented.
  ///
  /// ```swift
  /// let presenter = ClosurePresenter.reporting { request, reply in
  ///   guard let window = activeWindow() else { return reply.notPresented("no active window") }
  ///   showAlert(request.texts, in: window, answer: reply.answer)
  ///   reply.shown()
  /// }
  /// ```
  public static func reporting(_ body: @escaping @Sendable (PromptRequest, PromptReply) -> Void) -> ClosurePresenter {
    ClosurePresenter(body: body)
  }

  /// Creates a presenter that calls `body` and takes the prompt as shown when it is called; `body`
  /// calls its second argument with the user's answer.
  public init(_ body: @escaping @Sendable (PromptRequest, @escaping @Sendable (ReviewResponse) -> Void) -> Void) {
    self.body = { request, reply in
      reply.shown()
      body(request) { reply.answer($0) }
    }
  }

  /// Calls the closure; the answer goes to `respond` (not presented, to nothing).
  public func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
    body(request, PromptReply(handler: { if case .answered(let response) = $0 { respond(response) } }))
  }

  /// Calls the closure.
  public func present(_ request: PromptRequest, reply: PromptReply) {
    body(request, reply)
  }
}
