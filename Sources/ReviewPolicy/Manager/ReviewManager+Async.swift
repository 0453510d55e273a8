import Foundation

extension ReviewManager {
  /// Counts `trigger` (if any), asks for a review if the policy says so now, and waits for the
  /// outcome: the prompt's answer, recorded as ``record(_:)`` records it.
  ///
  /// The configured presenter shows the prompt (called on the caller's actor, so a main-actor
  /// caller presents on the main actor); the prompt is recorded when the presenter reports it
  /// shown or answered, and nothing when it reports "not presented"
  /// (``PromptCheckOutcome/notPresented(_:)``). The wait ends after ``Configuration/promptTimeout``
  /// (in real time) or when the task is cancelled, with ``PromptCheckOutcome/unanswered``; an answer
  /// that comes later is still recorded.
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
    var asked: (request: PromptRequest, ticket: PromptTicket)?
    let capture: (PromptRequest, PromptTicket) -> Void = { asked = ($0, $1) }
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
    guard let asked else {
      let decision = currentDecision()
      if configuration.process == .appExtension, decision.decision?.shouldAsk == true {
        return .notPresented(ManagerMessages.extensionNeverPrompts)
      }
      return .notAsked(decision)
    }
    guard let presenter = configuration.presenter else { return .needsPresentation(asked.request) }
    switch await report(on: asked.ticket, from: presenter, isolation: isolation) {
    case nil: return asked.ticket.isForced ? .forced(nil) : .unanswered
    case .forced(let response): return .forced(response)
    case .notPresented(let reason): return .notPresented(reason)
    case .recorded(let response, .success):
      switch response {
      case .rated, .declined, .remindLater, .feedback: return .answered(response)
      case .dismissed, .unknown: return .outcomeUnknown(response)
      }
    case .recorded(let response, .failure(let error)):
      return .refused(response, error)
    case .ignored, .shown:
      return .unanswered
    }
  }

  /// Presents the prompt of `ticket` and waits for the presenter's answer or "not presented" (each
  /// report is recorded as it comes, whether or not anyone still waits); nil when the prompt
  /// timeout passes first or the task is cancelled.
  private func report(
    on ticket: PromptTicket, from presenter: any ReviewPresenter, isolation: isolated (any Actor)?
  ) async -> ReceivedReport? {
    guard let request = ticket.request else { return nil }
    let waiter = AnswerWaiter<ReceivedReport>()
    presenter.present(
      request,
      reply: PromptReply { [weak self] report in
        guard let received = self?.receive(report, for: ticket) else { return }
        switch received {
        case .recorded, .notPresented, .forced: waiter.finish(received)
        case .ignored, .shown: break
        }
      })
    let timer = AnswerWaiterTiming.nanoseconds(configuration.promptTimeout).map { nanoseconds in
      Task {
        try? await Task.sleep(nanoseconds: nanoseconds)
        waiter.finish(nil)
      }
    }
    let received = await withTaskCancellationHandler {
      await waiter.wait()
    } onCancel: {
      waiter.finish(nil)
    }
    timer?.cancel()
    return received
  }
}

/// Hands the first of an answer, a timeout or a cancellation to one waiting task; later ones are ignored.
final class AnswerWaiter<Value: Sendable>: @unchecked Sendable {
  // @unchecked: every field is only touched under `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value?, Never>?
  private var isFinished = false
  private var result: Value?

  /// Finishes the wait with `response` (nil: no answer), unless it finished already.
  func finish(_ response: Value?) {
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
  func wait() async -> Value? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
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
}

/// How long an ``AnswerWaiter`` waits.
enum AnswerWaiterTiming {
  /// `seconds` in nanoseconds for `Task.sleep`; nil for no limit (nil, NaN, negative or infinite).
  static func nanoseconds(_ seconds: Double?) -> UInt64? {
    guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
    let nanoseconds = (seconds * 1e9).rounded(.down)
    return nanoseconds >= 1.8e19 ? 18_000_000_000_000_000_000 : UInt64(nanoseconds)
  }
}
