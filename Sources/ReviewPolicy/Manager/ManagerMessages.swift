import Foundation
import PolicyCore

/// Every problem and report a manager logs, one factory per message, so the wording lives here
/// (as the core's `*Messages` enums hold its diagnostics).
enum ManagerMessages {
  /// A ``ReviewLogEntry/Event/problem`` entry saying `summary`.
  static func problem(_ summary: String, date: Date) -> ReviewLogEntry {
    ReviewLogEntry(event: .problem, date: date, summary: summary)
  }

  /// The store accepted a save after saves had failed.
  static func savedAgain(date: Date) -> ReviewLogEntry {
    problem("the review state is saved again", date: date)
  }

  /// A save failed (reported once per episode of failures); `detail` is the store's reason.
  static func cannotSave(_ detail: String, date: Date) -> ReviewLogEntry {
    problem("cannot save the review state: \(detail)", date: date)
  }

  /// The stored state was lost (`what` says how) and restored from memory, `counts` lifetime counts with it.
  static func restored(_ what: String, counts: Int, date: Date) -> ReviewLogEntry {
    problem("\(what); restored from memory (\(counts) lifetime counts)", date: date)
  }

  /// The stored policy update no longer compiles (the schema or the language changed under it).
  static func storedUpdateNoLongerCompiles(date: Date) -> ReviewLogEntry {
    problem("the stored policy update no longer compiles; using the bundled policy", date: date)
  }

  /// The stored update `source` was received under bundled policy `receivedUnder`; the app ships `bundled`.
  static func staleUpdate(source: String, receivedUnder: String, bundled: PolicyIdentity, date: Date)
    -> ReviewLogEntry
  {
    let update = PolicyIdentity(origin: .update, source: source)
    var entry = ReviewLogEntry(
      event: .policyStale, date: date,
      summary: "the stored policy update \(update.fingerprint) was received under bundled policy "
        + "\(receivedUnder); this app ships bundled policy \(bundled.fingerprint): using the bundled policy "
        + "until a new update arrives")
    entry.policy = bundled
    entry.staleUpdate = StalePolicyUpdate(
      update: update.fingerprint, receivedUnder: receivedUnder, bundled: bundled.fingerprint)
    return entry
  }

  /// An event recorded under `name`, which neither the policy nor the configuration declares (once per name).
  static func undeclaredEvent(_ name: String, date: Date) -> ReviewLogEntry {
    problem(
      "event `\(name)` is not declared: neither the policy's `event` declarations nor Configuration.eventNames name it",
      date: date)
  }

  /// An answer refused (no prompt on screen).
  static func answerRefused(_ error: PromptAnswerError, date: Date) -> ReviewLogEntry {
    problem(error.description, date: date)
  }

  /// An app fact the running policy or the guardrails read that the app has not set (once per fact).
  static func unsetFact(_ name: String, _ type: PolicyType, policy: PolicyIdentity, date: Date) -> ReviewLogEntry {
    var entry = ReviewLogEntry(event: .unsetFact, date: date, summary: ReviewTracker.unsetFactMessage(name, type))
    entry.name = name
    entry.policy = policy
    return entry
  }

  /// A policy update rejected; `rendered` is its diagnostics as text.
  static func updateRejected(_ diagnostics: [Diagnostic], rendered: String, date: Date) -> ReviewLogEntry {
    var entry = ReviewLogEntry(event: .policyRejected, date: date, summary: "policy update rejected", details: rendered)
    entry.diagnostics = diagnostics
    return entry
  }

  /// A policy update accepted, with every warning.
  static func updateAccepted(_ policy: PolicyIdentity, _ diagnostics: [Diagnostic], rendered: String, date: Date)
    -> ReviewLogEntry
  {
    var entry = ReviewLogEntry(event: .policyUpdated, date: date, summary: "policy updated", details: rendered)
    entry.policy = policy
    entry.diagnostics = diagnostics
    return entry
  }

  /// The stored update forgotten: the bundled policy runs.
  static func policyReset(_ bundled: PolicyIdentity, date: Date) -> ReviewLogEntry {
    var entry = ReviewLogEntry(event: .policyReset, date: date, summary: "policy reset to the bundled policy")
    entry.policy = bundled
    return entry
  }

  /// Everything tracked was forgotten.
  static func stateReset(date: Date) -> ReviewLogEntry {
    ReviewLogEntry(event: .reset, date: date, summary: "state reset: everything tracked was forgotten")
  }

  /// An app fact set (`value`) or removed (nil).
  static func factSet(_ name: String, _ value: Value?, date: Date) -> ReviewLogEntry {
    var entry = ReviewLogEntry(
      event: .factSet, date: date,
      summary: value.map { "app fact `\(name)` set to \($0)" } ?? "app fact `\(name)` removed")
    entry.name = name
    return entry
  }

  /// An answer recorded: `note` says which and how.
  static func answered(_ response: ReviewResponse, note: String, date: Date) -> ReviewLogEntry {
    var entry = ReviewLogEntry(event: .response, date: date, summary: note)
    entry.response = response
    return entry
  }

  /// A prompt shown (after the decision entry that asked); `forced` when `alwaysAsk` forced it.
  static func promptShown(forced: Bool, date: Date) -> ReviewLogEntry {
    ReviewLogEntry(
      event: .promptShown, date: date, summary: forced ? "prompt shown (forced by alwaysAsk)" : "prompt shown")
  }

  /// A prompt the policy asked for that could not be shown, and why: nothing was recorded.
  static func promptNotPresented(_ reason: String, date: Date) -> ReviewLogEntry {
    ReviewLogEntry(
      event: .promptNotPresented, date: date,
      summary: "prompt not presented, nothing recorded (the policy may ask again at the next check): \(reason)")
  }

  /// A prompt handed to a presenter that reported nothing (neither shown, answered nor not
  /// presented) within the prompt timeout: taken as not presented.
  static let presenterSilent =
    "the presenter reported nothing within the prompt timeout (call the reply's shown, answer or notPresented)"

  /// Why an app extension never prompts.
  static let extensionNeverPrompts = "the manager runs in an app extension, which never shows a review prompt"

  /// A prompt check's decision, explained; `forced` when `alwaysAsk` turned a "don't ask" into a prompt.
  static func decision(_ trigger: ReviewLogEntry.Event, _ explanation: ReviewExplanation, forced: Bool, date: Date)
    -> ReviewLogEntry
  {
    ReviewLogEntry(
      event: trigger, date: date, summary: explanation.summary + (forced ? " (forced by alwaysAsk)" : ""),
      details: explanation.text, decision: explanation.decision, isDecision: true)
  }

  /// `text` cut to at most about `limit` UTF-8 bytes (at a line break when `atLine` and one is in
  /// the second half), followed by a note of how many bytes were left out.
  static func cut(_ text: String, to limit: Int, atLine: Bool) -> String {
    let utf8 = text.utf8
    var end = utf8.index(utf8.startIndex, offsetBy: max(0, limit - 64), limitedBy: utf8.endIndex) ?? utf8.endIndex
    // Back to the start of a scalar.
    while end > utf8.startIndex && end < utf8.endIndex && UTF8.isContinuation(utf8[end]) {
      end = utf8.index(before: end)
    }
    var kept = text[..<end]
    if atLine, let newline = kept.lastIndex(of: "\n"),
      utf8.distance(from: utf8.startIndex, to: newline) > limit / 2
    {
      kept = text[...newline]
    }
    let left = utf8.count - kept.utf8.count
    return String(kept) + (atLine && kept.last != "\n" ? "\n" : "") + "… (\(left) more bytes left out)"
  }

  /// The note added to an entry's summary when `count` diagnostics were left out of it.
  static func diagnosticsLeftOut(_ count: Int) -> String {
    " (\(count) more diagnostics left out of this entry; the update's result has them all)"
  }

  /// `count` more app facts not set, beyond those reported by name (once per policy change).
  static func moreUnsetFacts(_ count: Int, policy: PolicyIdentity, date: Date) -> ReviewLogEntry {
    var entry = ReviewLogEntry(event: .unsetFact, date: date, summary: ReviewTracker.moreUnsetFactsMessage(count))
    entry.policy = policy
    return entry
  }
}
