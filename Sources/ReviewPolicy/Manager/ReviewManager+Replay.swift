import PolicyCore

extension ReviewManager {
  /// Records a review prompt as shown now, whatever the policy says, answered at once with
  /// `answer` when one is given: for replayed histories (the test-file step `shown -> decline`),
  /// which must show prompts at set instants under any policy. The prompt counts like one the
  /// policy asked for (`prompts`, `last_prompt`, ...); without an answer it stays pending until
  /// the next launch or return to the foreground.
  package func recordPromptShownForReplay(answer: ReviewResponse?) {
    var recorded = false
    _ = perform(.promptCheck, prompting: false, note: "prompt recorded as shown (replay)") { tracker, now in
      tracker.recordShownPrompt(at: now)
      if let answer { recorded = (try? tracker.record(answer, at: now).get()) != nil }
    }
    if recorded, let answer { answered(answer, note: "answer: \(answer.rawValue)") }
  }
}

extension ReviewManager {
  /// Records `answer` as the user's late answer to the newest prompt shown that has no answer yet
  /// (pending, closed with its outcome unknown, or dismissed), through
  /// ``ReviewTracker/answer(_:toPromptShownAt:at:)`` as a presenter's late reply is recorded: for
  /// replayed histories (the test-file step `late -> rate`). The answer belongs to the version
  /// the prompt was shown under, so after an update it sets only the facts about the whole
  /// install (`rated_any`, `last_rating`, ...).
  ///
  /// - Returns: Whether a prompt took the answer (false when every prompt kept has its answer).
  @discardableResult
  package func recordLateAnswerForReplay(_ answer: ReviewResponse) -> Bool {
    var recorded = false
    _ = perform(.response, prompting: false, note: nil) { tracker, now in
      let open = tracker.state.promptHistory.last { prompt in
        switch prompt.outcome {
        case .pending, .unknown, .dismissed: true
        case .rated, .declined, .remindLater, .feedback: false
        }
      }
      guard let open else { return }
      recorded = (try? tracker.answer(answer, toPromptShownAt: open.date, at: now).get()) != nil
    }
    if recorded { answered(answer, note: "late answer: \(answer.rawValue)") }
    return recorded
  }
}
