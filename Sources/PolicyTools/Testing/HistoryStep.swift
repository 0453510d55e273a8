import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// One step of a usage history: `launch`, `event export x 3`, `prompt -> remind`, `wait 2d`,
/// `shown -> decline`, `unprompted -> rate`...
package struct HistoryStep: Sendable {
  /// What the step does: a review manager call, waiting, or an app update.
  package enum Action: Sendable {
    /// `launch`: `appLaunched()`.
    case launch
    /// `foreground`: `appEnteredForeground()`.
    case foreground
    /// `session`: `sessionStarted()`.
    case session
    /// `end session`: `sessionEnded()`.
    case endSession
    /// `event [name]`: `significantEvent(_:)`.
    case event(String?)
    /// `silent event [name]`: `significantEvent(_:mayPrompt: false)`, an event counted with no prompt check.
    case silentEvent(String?)
    /// `action <score> [bad] [prompt]`.
    case action(score: Double, isBad: Bool, mayPrompt: Bool)
    /// `prompt`: `promptIfAppropriate()`.
    case prompt
    /// `shown`: a prompt recorded as shown whatever the policy says (and answered with the
    /// step's answer), as a replayed witness needs.
    case shown
    /// `unprompted -> <answer>`: `recordWithoutPrompt(_:)`, an answer given outside any prompt
    /// (a "Rate this app" row); the answer is required.
    case unprompted
    /// `late -> <answer>`: the user's answer, given now however late, to the newest prompt shown
    /// that has no answer yet (its outcome pending, unknown or dismissed); it belongs to the
    /// version that prompt was shown under, so after an `update` it sets only the facts of all
    /// versions (`rated_any`, `last_rating`...). The answer is required.
    case late
    /// `wait <duration>`: the clock moves on.
    case wait(TimeSpan)
    /// `update <version>`: the manager is created again with a new app version.
    case update(String)
  }

  /// The action.
  package var action: Action
  /// How many times the action happens (`x <count>`), 1 to 100000.
  package var repetitions: Int
  /// The time between repetitions (`every <duration>`).
  package var every: TimeSpan?
  /// The answer to a prompt the step triggers (`-> rate`).
  package var answer: ReviewResponse?
  /// Where the step is written.
  package var range: SourceRange
  /// The step as written, trimmed (for traces and messages).
  package var text = ""

  /// The event the step records by name (`event export`, `silent event export`), if any.
  package var eventName: String? {
    switch action {
    case .event(let name), .silentEvent(let name): name
    case .launch, .foreground, .session, .endSession, .action, .prompt, .shown, .unprompted, .late, .wait, .update:
      nil
    }
  }

  /// Whether the step's answer goes to no prompt the step shows (`unprompted -> rate`, `late -> rate`), so it
  /// needs none shown.
  package var answersOutsidePrompt: Bool {
    switch action {
    case .unprompted, .late: return true
    case .launch, .foreground, .session, .endSession, .event, .silentEvent, .action, .prompt, .shown, .wait, .update:
      return false
    }
  }

  /// Parses one step written as `text`, located at `range`.
  package static func parse(_ text: String, range: SourceRange) -> Result<HistoryStep, Problems> {
    func failure(_ make: (SourceRange) -> Diagnostic) -> Result<HistoryStep, Problems> {
      .failure(Problems([make(range)]))
    }
    var body = text.trimmingCharacters(in: .whitespaces)
    var answer: ReviewResponse?
    if let arrow = body.range(of: "->") {
      let word = body[arrow.upperBound...].trimmingCharacters(in: .whitespaces)
      let answers: [String: ReviewResponse] = [
        "rate": .rated, "decline": .declined, "remind": .remindLater, "feedback": .feedback, "dismiss": .dismissed,
        "unknown": .unknown,
      ]
      guard let response = answers[word] else {
        return failure { TestFileMessages.unknownAnswer(word, at: $0) }
      }
      answer = response
      body = body[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
    }
    var repetitions = 1
    var every: TimeSpan?
    let words = body.split(separator: " ").map(String.init)
    var core = words
    if let times = words.lastIndex(of: "x"), times + 1 < words.count, let count = Int(words[times + 1]) {
      guard count >= 1 && count <= 100_000 else { return failure(TestFileMessages.repetitionsOutOfRange) }
      repetitions = count
      let rest = Array(words[(times + 2)...])
      if !rest.isEmpty {
        guard rest[0] == "every", rest.count > 1, let span = TimeSpan(parsing: rest.dropFirst().joined(separator: " ")),
          span.milliseconds >= 0, !span.isInfinite
        else { return failure { TestFileMessages.expectedEvery(count: count, at: $0) } }
        every = span
      }
      core = Array(words[..<times])
    }
    guard let verb = core.first else { return failure(TestFileMessages.emptyStep) }
    let argument = core.dropFirst().joined(separator: " ")
    let action: Action
    switch verb {
    case "launch" where argument.isEmpty: action = .launch
    case "foreground" where argument.isEmpty: action = .foreground
    case "session" where argument.isEmpty: action = .session
    case "end" where argument == "session": action = .endSession
    case "event":
      action = .event(eventName(argument))
    case "silent" where core.count >= 2 && core[1] == "event":
      action = .silentEvent(eventName(core.dropFirst(2).joined(separator: " ")))
    case "shown" where argument.isEmpty: action = .shown
    case "unprompted" where argument.isEmpty:
      guard answer != nil else { return failure(TestFileMessages.unpromptedWithoutAnswer) }
      action = .unprompted
    case "late" where argument.isEmpty:
      guard answer != nil else { return failure(TestFileMessages.lateWithoutAnswer) }
      action = .late
    case "action":
      var parts = core.dropFirst().makeIterator()
      guard let scoreText = parts.next(), let score = Double(scoreText), score.isFinite else {
        return failure(TestFileMessages.missingActionScore)
      }
      var isBad = false
      var mayPrompt = false
      while let word = parts.next() {
        switch word {
        case "bad": isBad = true
        case "prompt": mayPrompt = true
        default: return failure { TestFileMessages.unknownActionWord(word, score: scoreText, at: $0) }
        }
      }
      action = .action(score: score, isBad: isBad, mayPrompt: mayPrompt)
    case "prompt" where argument.isEmpty: action = .prompt
    case "wait":
      guard let span = TimeSpan(parsing: argument), span.milliseconds >= 0, !span.isInfinite else {
        return failure(TestFileMessages.missingWaitDuration)
      }
      action = .wait(span)
    case "update":
      guard !argument.isEmpty else { return failure(TestFileMessages.missingUpdateVersion) }
      action = .update(argument)
    default:
      let verbs = [
        "launch", "foreground", "session", "end", "event", "silent", "action", "prompt", "shown", "unprompted", "late",
        "wait",
        "update",
      ]
      let suggestion = EditDistance.suggestion(for: verb, among: verbs)
      return failure { TestFileMessages.unknownStep(text, suggestion: suggestion, at: $0) }
    }
    if case .unprompted = action, repetitions != 1 { return failure(TestFileMessages.unpromptedRepeated) }
    if case .late = action, repetitions != 1 { return failure(TestFileMessages.lateRepeated) }
    var step = HistoryStep(action: action, repetitions: repetitions, every: every, answer: answer, range: range)
    step.text = text.trimmingCharacters(in: .whitespaces)
    return .success(step)
  }

  /// The event name written as `argument` (quotes removed), nil when there is none.
  private static func eventName(_ argument: String) -> String? {
    var name = argument
    if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
    return name.isEmpty ? nil : name
  }
}
