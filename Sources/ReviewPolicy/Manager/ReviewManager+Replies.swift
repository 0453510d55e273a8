import Foundation
import PolicyCore

extension ReviewManager {
  /// What a presenter's report did (for ``askIfAppropriate(after:isolation:)``, which waits for it).
  enum ReceivedReport: Sendable {
    /// Nothing: a report that no longer applies (shown twice, an answer after "not presented").
    case ignored
    /// The prompt was recorded as shown.
    case shown
    /// The answer, and whether it was recorded or refused.
    case recorded(ReviewResponse, Result<Void, PromptAnswerError>)
    /// The presenter could show nothing, and why: nothing was recorded.
    case notPresented(String)
    /// An answer to a forced debug prompt: not recorded.
    case forced(ReviewResponse)
  }

  /// Applies a presenter's `report` about the prompt of `ticket`: records the prompt when it is
  /// reported shown (or answered first), records an answer however late it comes, and records
  /// nothing for a prompt not presented (logged once per episode). Then logs and calls back.
  @discardableResult
  func receive(_ report: PromptReply.Report, for ticket: PromptTicket) -> ReceivedReport {
    let now = Timestamp(configuration.clock())
    var received = ReceivedReport.ignored
    var justShown = false
    var loggedReason: String?
    var problems: [ReviewLogEntry] = []
    var closedTimedOut = false
    lock.lock()
    switch report {
    case .shown where ticket.phase == .requested:
      justShown = true
      ticket.phase = .shown
      notPresentedEpisode = nil
      if !ticket.isForced {
        let result = transaction.run(&tracker, at: now, entering: true) {
          ticket.shownAt = $0.recordShownPrompt(at: now)
        }
        (problems, closedTimedOut) = (result.problems, result.closedTimedOutPrompt)
      }
      received = .shown
    case .answered(let response) where ticket.phase != .notPresented:
      if ticket.phase == .requested {
        justShown = true
        notPresentedEpisode = nil
      }
      if ticket.isForced {
        ticket.phase = .answered
        received = .forced(response)
      } else {
        var outcome: Result<Void, PromptAnswerError> = .success(())
        let result = transaction.run(&tracker, at: now, entering: true) { tracker in
          if ticket.phase == .requested {
            ticket.shownAt = tracker.recordShownPrompt(at: now)
            ticket.phase = .shown
          }
          outcome = tracker.answer(response, toPromptShownAt: ticket.shownAt ?? now, at: now)
        }
        (problems, closedTimedOut) = (result.problems, result.closedTimedOutPrompt)
        // Recorded, or refused because the prompt already has the user's answer (one given outside
        // the prompt while it was up takes it): either way the prompt is answered, and no longer
        // holds back later checks (with the clock standing still, it would hold them forever).
        ticket.phase = .answered
        if self.ticket === ticket { self.ticket = nil }
        received = .recorded(response, outcome)
      }
    case .notPresented(let reason) where ticket.phase == .requested:
      ticket.phase = .notPresented
      if self.ticket === ticket { self.ticket = nil }
      loggedReason = notPresentedEpisode(reason)
      received = .notPresented(reason)
    case .shown, .answered, .notPresented:
      break
    }
    lock.unlock()
    logProblems(problems)
    if closedTimedOut { answered(.unknown, note: "prompt left unanswered: outcome unknown (timed out)") }
    if justShown, let request = ticket.request { announceShown(request, forced: ticket.isForced) }
    if let loggedReason { log(ManagerMessages.promptNotPresented(loggedReason, date: Date(now))) }
    if case .recorded(let response, let outcome) = received {
      switch outcome {
      case .success: answered(response, note: "answer: \(response.rawValue)")
      case .failure(let error): log(ManagerMessages.answerRefused(error, date: Date(now)))
      }
    }
    return received
  }
}
