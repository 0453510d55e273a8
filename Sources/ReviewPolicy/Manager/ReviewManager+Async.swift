import Foundation

extension ReviewManager {
  /// Counts `trigger` (if any), asks for a review if the policy says so now, and waits for the
  /// outcome: the prompt's answer, recorded as ``record(_:)`` records it.
  ///
  /// The configured presenter shows the prompt (an ``AsyncReviewPresenter`` is awaited; a
  /// ``ReviewPresenter`` is called on the caller's actor, so a main-actor caller presents on the main
  /// actor, and its first `respond` counts). The wait ends after ``Configuration/promptTimeout`` (in
  /// real time) or when the task is cancelled, with ``PromptCheckOutcome/unanswered``.
  ///
  /// ```swift
  /// switch await manager.askIfAppropriate(after: .significantEvent("export")) {
  /// case .answered(.rated): showThanks()
  /// default: break
  /// }
  /// ```
  ///
  /// A name of its own, not an `async` overload of ``promptIfAppropriate()``: in an `async` context
  /// Swift prefers an `async` overload, which would turn every existing call into one that must be awaited.
  public func askIfAppropriate(
    after trigger: PromptTrigger? = nil, isolation: isolated (any Actor)? = #isolation
  ) async -> PromptCheckOutcome {
    var asked: (request: PromptRequest, recordsAnswer: Bool)?
    let capture: (PromptRequest, Bool) -> Void = { asked = ($0, $1) }
    switch trigger {
    case nil:
      _ = perform(.promptCheck, prompting: true, note: "prompt check", presenting: capture) { _, _ in }
    case .significantEvent(let name):
      _ = perform(
        .significantEvent, prompting: true, note: "significant event" + (name.map { " `\($0)`" } ?? ""),
        presenting: capture
      ) { tracker, now in tracker.countEvent(named: name, at: now) }
    case .action(let score, let isBad):
      _ = perform(
        .action, prompting: true, note: "action scored \(score)" + (isBad ? ", bad" : ""), presenting: capture
      ) { tracker, now in tracker.addAction(score: score, isBad: isBad, at: now) }
    }
    guard let asked else { return .notAsked(currentDecision()) }
    guard let presenter = configuration.presenter else { return .needsPresentation(asked.request) }
    let response = await answer(to: asked.request, from: presenter, isolation: isolation)
    guard asked.recordsAnswer else { return .forced(response) }
    guard let response else { return .unanswered }
    switch record(response) {
    case .success:
      switch response {
      case .rated, .declined, .remindLater, .feedback: return .answered(response)
      case .dismissed, .unknown: return .outcomeUnknown(response)
      }
    case .failure(let error):
      return .refused(response, error)
    }
  }

  /// The presenter's first answer; nil when the prompt timeout passes first or the task is cancelled.
  private func answer(
    to request: PromptRequest, from presenter: any ReviewPresenter, isolation: isolated (any Actor)?
  ) async -> ReviewResponse? {
    let waiter = AnswerWaiter()
    presenter.present(request) { waiter.finish($0) }
    let timer = AnswerWaiter.nanoseconds(configuration.promptTimeout).map { nanoseconds in
      Task {
        try? await Task.sleep(nanoseconds: nanoseconds)
        waiter.finish(nil)
      }
    }
    let response = await withTaskCancellationHandler {
      await waiter.wait()
    } onCancel: {
      waiter.finish(nil)
    }
    timer?.cancel()
    return response
  }
}

/// Hands the first of an answer, a timeout or a cancellation to one waiting task; later ones are ignored.
final class AnswerWaiter: @unchecked Sendable {
  // @unchecked: every field is only touched under `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<ReviewResponse?, Never>?
  private var isFinished = false
  private var result: ReviewResponse?

  /// Finishes the wait with `response` (nil: no answer), unless it finished already.
  func finish(_ response: ReviewResponse?) {
    lock.lock()
    guard !isFinished else {
      lock.unlock()
      return
    }
    isFinished = true
    result = response
    let waiting = continuation
    continuation = nil
    lock.unlock()
    waiting?.resume(returning: response)
  }

  /// Waits until ``finish(_:)`` is first called (at once if it was).
  func wait() async -> ReviewResponse? {
    await withCheckedContinuation { (continuation: CheckedContinuation<ReviewResponse?, Never>) in
      lock.lock()
      if isFinished {
        let finished = result
        lock.unlock()
        continuation.resume(returning: finished)
      } else {
        self.continuation = continuation
        lock.unlock()
      }
    }
  }

  /// `seconds` in nanoseconds for `Task.sleep`; nil for no limit (nil, NaN, negative or infinite).
  static func nanoseconds(_ seconds: Double?) -> UInt64? {
    guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
    let nanoseconds = (seconds * 1e9).rounded(.down)
    return nanoseconds >= 1.8e19 ? 18_000_000_000_000_000_000 : UInt64(nanoseconds)
  }
}
