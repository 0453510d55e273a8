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
