import PolicyAnalysis
import PolicyCore
import ReviewPolicy

/// Every warning and fix-it of the review-etiquette checks (``ReviewEtiquette``), one factory
/// per message, so the wording lives here: `ReviewEtiquette.swift` writes no message of its own.
///
/// `title` names the rule as ``AnalysisContext/title(ofRule:)`` does ("ask rule `loyal`");
/// `facts` are the example's facts as ``Witness/summary(reading:limit:)`` writes them (empty
/// when every fact has its default value); `lastPromptAge` is how long before the example's
/// `now` its last prompt was (`1d`). The range is the rule's, and `fixIt` the rule a check
/// would add (``addRule(_:at:newline:)``), nil when the policy is a bare condition.
enum EtiquetteMessages {
  /// `PC320`: the rule called `title` can ask a user who gave one of `answers` (`declined`,
  /// `rated`) this version; `respect` is the condition that would respect the answer
  /// (`declined or rated`).
  static func asksAfterAnswer(
    _ title: String, answers: [String], facts: String, respect: String, fixIt: FixIt?, at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      ReviewPolicyCode.asksAfterAnswer,
      "\(title) can ask a user who \(answers.joined(separator: " or ")) this version", at: range,
      help: [
        example(facts: facts), "respect the answer, as `never answered when \(respect)` does",
      ], fixIts: fixIt.map { [$0] } ?? [])
  }

  /// `PC321`: the rule called `title` can ask again within 7 days of the last prompt.
  static func asksTooSoon(_ title: String, facts: String, lastPromptAge: String, fixIt: FixIt?, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      ReviewPolicyCode.asksTooSoon, "\(title) can ask again within 7 days of the last prompt", at: range,
      help: [
        example(facts: facts, then: "the last prompt was \(lastPromptAge) ago"),
        "wait at least 7 days after a prompt, as `never too_soon when since(last_prompt) < 8w` does",
      ], fixIts: fixIt.map { [$0] } ?? [])
  }

  /// `PC322`: the rule called `title` can ask after 3 prompts in 365 days; `countsPrompts` when
  /// the policy reads a count of prompts (else the help says that nothing bounds it).
  static func asksTooOften(
    _ title: String, facts: String, lastPromptAge: String, countsPrompts: Bool, fixIt: FixIt?, at range: SourceRange
  ) -> Diagnostic {
    var help = [example(facts: facts, then: "3 prompts were shown in 365 days, the last \(lastPromptAge) ago")]
    if !countsPrompts { help.append("no condition of the policy bounds the number of prompts in 365 days") }
    help.append("cap the prompts, as `never yearly_cap when prompts_within(365d) >= 3` does")
    return Diagnostic(
      ReviewPolicyCode.asksTooOften, "\(title) can ask after 3 prompts in 365 days", at: range, help: help,
      fixIts: fixIt.map { [$0] } ?? [])
  }

  /// The fix-it that adds the rule `rule` (`never too_soon when ...`) at `offset`, the end of
  /// the file, on a line of its own (after a line break when the file does not end with one,
  /// `newline` false). An added rule changes what the policy decides: an editor offers it,
  /// `check --fix` does not apply it.
  static func addRule(_ rule: String, at offset: Int, newline: Bool) -> FixIt {
    FixIt("add `\(rule)`", edits: [.insert((newline ? "" : "\n") + rule + "\n", at: offset)], isAutomatic: false)
  }

  /// The help line with an example: `facts`, then `then` (a phrase about the prompt history).
  private static func example(facts: String, then: String? = nil) -> String {
    let parts = [facts, then ?? ""].filter { !$0.isEmpty }
    return "for example when " + (parts.isEmpty ? "every fact has its default value" : parts.joined(separator: ", "))
  }
}
