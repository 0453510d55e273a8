/// Why an answer was refused.
public enum PromptAnswerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No prompt is on screen: none was shown, the prompt on screen was answered already, or it
  /// was closed (its timeout passed, or the app launched or came back to the foreground since).
  /// Use ``ReviewManager/recordWithoutPrompt(_:)`` for an answer given outside a prompt.
  case noPromptShowing(ReviewResponse)
  /// The prompt was answered already (rated, declined, remind later or feedback): a second answer
  /// to one prompt is refused.
  case alreadyAnswered(ReviewResponse)

  /// What was refused, and why.
  public var description: String {
    switch self {
    case .noPromptShowing(let response):
      "the answer `\(response.rawValue)` was refused: no review prompt is showing (none was shown, or it was "
        + "answered, timed out or closed by a launch or a return to the foreground); use recordWithoutPrompt "
        + "for an answer given outside a prompt"
    case .alreadyAnswered(let response):
      "the answer `\(response.rawValue)` was refused: the user already answered this review prompt; use "
        + "recordWithoutPrompt for an answer given outside a prompt"
    }
  }
}
