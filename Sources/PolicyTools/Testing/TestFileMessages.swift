import PolicyCore

/// Every diagnostic of `policyc test`, one factory per message, so the wording lives here:
/// the test file (`PolicyTestFile.swift`), its history steps (`HistoryStep.swift`), the runner
/// (`TestRunner.swift`, `PolicyTestSuite.swift`) and the coverage report (`Coverage.swift`)
/// write no message of their own. The facts of a case get the facts file's diagnostics
/// (``FactsFileMessages``).
///
/// Keys and names are as the file writes them; `kind` is the kind of a JSON value as
/// ``JSONValue/kindName`` gives it ("a string"). Ranges are where the caret goes.
enum TestFileMessages {
  // MARK: - The test file

  /// `PC402`: a test file whose root is `kind`, not an object.
  static func notAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "a test file is a JSON object, but this is \(kind)", at: range,
      help: ["write `{\"policy\": \"review.policy\", \"cases\": [...]}`"])
  }

  /// `PC402`: a test file without a `"policy"` string; the range is the file's root.
  static func missingPolicy(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "a test file needs `\"policy\"`: the path of the policy it tests", at: range,
      help: ["add `\"policy\": \"review.policy\"` (relative to the test file)"])
  }

  /// `PC402`: a test file without a `"cases"` array; the range is the file's root.
  static func missingCases(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "a test file needs `\"cases\"`: an array of test cases", at: range)
  }

  /// `PC402`: an empty `"cases"` array.
  static func noCases(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "the test file has no cases", at: range, help: ["add cases to `\"cases\"`"])
  }

  /// `PC402`: a second case named `name`; the range is that case.
  static func duplicateCaseName(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "two cases are named `\(name)`", at: range, help: ["give each case its own name"])
  }

  /// `PC402`: the key `key` in `what` ("a test file", "a test case"), which allows only `allowed`;
  /// `suggestion` is the key it may mean.
  static func unknownKey(_ key: String, in what: String, allowed: [String], suggestion: String?, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "unknown key `\(key)` in \(what)", at: range,
      help: [
        suggestion.map { "did you mean `\($0)`?" }
          ?? "the keys are \(allowed.map { "`\($0)`" }.joined(separator: ", "))"
      ])
  }

  /// `PC402`: the key `key` (`now`, `start`) of a file or a case, whose value is not an ISO-8601 instant.
  static func invalidInstant(_ key: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "`\(key)` must be an ISO-8601 instant such as \"2026-03-01T12:00:00Z\"", at: range
    )
  }

  // MARK: - Cases

  /// `PC402`: a case that is `kind`, not an object.
  static func caseNotAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "a test case is a JSON object, but this is \(kind)", at: range)
  }

  /// `PC402`: a case without a non-empty `"name"`; the range is the case.
  static func missingCaseName(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "a test case needs a `\"name\"`", at: range)
  }

  /// `PC402`: a case without `"expect": "ask"` or `"dont_ask"`; the range is its `"expect"`, or the case.
  static func missingExpectation(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "a test case needs `\"expect\"`: \"ask\" or \"dont_ask\"", at: range)
  }

  /// `PC402`: a case with neither `"facts"` nor `"history"`; the range is the case.
  static func missingFactsOrHistory(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "a test case needs `\"facts\"` or `\"history\"`", at: range,
      help: ["give the facts directly, or a usage history run through the review manager"])
  }

  /// `PC402`: `"facts"` that is not an object.
  static func factsNotAnObject(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "`\"facts\"` must be an object of fact names and values", at: range)
  }

  /// `PC402`: `"history"` that is not an array.
  static func historyNotAnArray(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "`\"history\"` must be an array of steps", at: range)
  }

  /// `PC406`: an element of `"history"` that is not a string.
  static func historyStepNotAString(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidHistoryStep, "a history step is a string such as \"launch x 20\"", at: range)
  }

  /// `PC402`: `"version"` that is not a string.
  static func versionNotAString(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "`\"version\"` must be a string such as \"3.1\"", at: range)
  }

  /// `PC402`: `"deciding"` that is not an array.
  static func decidingNotAnArray(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "`\"deciding\"` must be an array of rule names", at: range)
  }

  /// `PC402`: an element of `"deciding"` that is not a string.
  static func ruleNameNotAString(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "rule names are strings", at: range)
  }

  /// `PC402`: `"prompts"` that is not a whole number.
  static func promptsNotAWholeNumber(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "`\"prompts\"` must be a whole number", at: range)
  }

  // MARK: - History steps

  /// The syntax of history steps: the help of a step that does not parse.
  static let historyStepSyntax =
    "steps are `launch`, `foreground`, `session`, `end session`, `event [name]`, `silent event [name]`, `action <score> [bad] [prompt]`, `prompt`, `shown`, `unprompted -> <answer>`, `late -> <answer>`, `wait <duration>`, `update <version>`; add `x <count> [every <duration>]` to repeat and `-> rate|decline|remind|feedback|dismiss|unknown` to answer a prompt"

  /// `PC406`: the answer `word` after `->`, not one of the answers; the range is the step.
  static func unknownAnswer(_ word: String, at range: SourceRange) -> Diagnostic {
    historyStep(
      "unknown answer `\(word)`", help: "answers are rate, decline, remind, feedback, dismiss and unknown", at: range)
  }

  /// `PC406`: `x <count>` with a count outside 1...100000.
  static func repetitionsOutOfRange(at range: SourceRange) -> Diagnostic {
    historyStep("repeat counts go from 1 to 100000", at: range)
  }

  /// `PC406`: words after `x count` that are not `every <duration>`.
  static func expectedEvery(count: Int, at range: SourceRange) -> Diagnostic {
    historyStep("after `x \(count)`, write `every <duration>`, such as `every 1d`", at: range)
  }

  /// `PC406`: a step with no words.
  static func emptyStep(at range: SourceRange) -> Diagnostic {
    historyStep("empty history step", at: range)
  }

  /// `PC406`: `action` without a finite score.
  static func missingActionScore(at range: SourceRange) -> Diagnostic {
    historyStep("`action` needs a score, such as `action 30` or `action -50 bad`", at: range)
  }

  /// `PC406`: the word `word` after `action score` (written `score`), not `bad` or `prompt`.
  static func unknownActionWord(_ word: String, score: String, at range: SourceRange) -> Diagnostic {
    historyStep("unknown word `\(word)` after `action \(score)`; use `bad` and `prompt`", at: range)
  }

  /// `PC406`: `wait` without a duration.
  static func missingWaitDuration(at range: SourceRange) -> Diagnostic {
    historyStep("`wait` needs a duration, such as `wait 3d` or `wait 1d 12h`", at: range)
  }

  /// `PC406`: `unprompted` without an answer.
  static func unpromptedWithoutAnswer(at range: SourceRange) -> Diagnostic {
    historyStep(
      "`unprompted` needs an answer, such as `unprompted -> rate`",
      help: "`unprompted -> <answer>` records an answer given outside any prompt (a \"Rate this app\" row)", at: range)
  }

  /// `PC406`: `unprompted` repeated with `x <count>`.
  static func unpromptedRepeated(at range: SourceRange) -> Diagnostic {
    historyStep(
      "`unprompted` records one answer and cannot be repeated",
      help: "write one `unprompted -> <answer>` step per answer", at: range)
  }

  /// `PC406`: `late` without an answer.
  static func lateWithoutAnswer(at range: SourceRange) -> Diagnostic {
    historyStep(
      "`late` needs an answer, such as `late -> rate`",
      help: "`late -> <answer>` records the user's late answer to the newest prompt shown that has none yet",
      at: range)
  }

  /// `PC406`: `late` repeated with `x <count>`.
  static func lateRepeated(at range: SourceRange) -> Diagnostic {
    historyStep(
      "`late` records one answer and cannot be repeated", help: "write one `late -> <answer>` step per answer",
      at: range)
  }

  /// `PC406`: `update` without a version.
  static func missingUpdateVersion(at range: SourceRange) -> Diagnostic {
    historyStep("`update` needs a version, such as `update 3.2`", at: range)
  }

  /// `PC406`: the step `text` (as written) starts with no known verb; `suggestion` is the verb it may mean.
  static func unknownStep(_ text: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
    historyStep(
      "unknown history step `\(text)`", help: suggestion.map { "did you mean `\($0)`?" } ?? historyStepSyntax, at: range
    )
  }

  /// A `PC406` diagnostic with one help line, the step syntax unless another is given.
  private static func historyStep(_ message: String, help: String = historyStepSyntax, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(PolicyToolsCode.invalidHistoryStep, message, at: range, help: [help])
  }

  // MARK: - Running cases

  /// `PC402`: `"deciding"` names `name`, which is no rule of the policy (whose rules are `rules`);
  /// `suggestion` is the rule it may mean.
  static func unknownRule(_ name: String, suggestion: String?, rules: [String], at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "the policy has no rule named `\(name)`", at: range,
      help: [
        suggestion.map { "did you mean `\($0)`?" } ?? "the rules are \(rules.map { "`\($0)`" }.joined(separator: ", "))"
      ])
  }

  /// `PC402`: a history case gives `key`, a fact its history computes; the range is the key.
  static func computedFactGiven(_ key: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "a history case computes `\(key)` from its history", at: range,
      help: ["give only the facts the policy declares with `fact`; use a facts case to set standard facts"])
  }

  /// `PC406`: a step records the event `name`, which the policy does not declare (it declares
  /// `declared`); `suggestion` is the declared name it may mean.
  static func undeclaredEvent(_ name: String, suggestion: String?, declared: [String], at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyToolsCode.invalidHistoryStep, "the policy does not declare the event `\(name)`", at: range,
      help: [
        suggestion.map { "did you mean `\($0)`?" }
          ?? "it declares \(declared.map { "`\($0)`" }.joined(separator: ", ")); add `\(name)` to its `event` line"
      ])
  }

  /// `PC406`: a step records the event `name`, which the app does not record (its project file or
  /// `--events` names `recorded`) and the policy declares no events; `suggestion` is the name it may mean.
  static func unrecordedEvent(_ name: String, suggestion: String?, recorded: [String], at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyToolsCode.invalidHistoryStep, "the app does not record the event `\(name)`", at: range,
      help: [
        suggestion.map { "did you mean `\($0)`?" }
          ?? "it records \(recorded.map { "`\($0)`" }.joined(separator: ", ")) (its project file or `--events`)"
      ])
  }

  /// `PC406`: step `number`, written `text`, answers a prompt none showed; `decision` is the
  /// policy's decision at that step, when the manager can tell.
  static func answerWithoutPrompt(number: Int, _ text: String, decision: String?, at range: SourceRange)
    -> Diagnostic
  {
    let why = "the policy did not ask here" + (decision.map { " (now: " + $0 + ")" } ?? "")
    return Diagnostic(
      PolicyToolsCode.invalidHistoryStep, "step \(number) `\(text)` answers a prompt, but no prompt showed",
      at: range, help: [why, "remove the answer, or change the history so the policy asks at this step"])
  }

  /// `PC406`: the step `text` (number `number`), a late answer, with no prompt shown that is still
  /// without an answer.
  static func lateAnswerWithoutPrompt(number: Int, _ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidHistoryStep,
      "step \(number) `\(text)` answers a prompt late, but no prompt shown before it is without an answer",
      at: range,
      help: [
        "a late answer goes to the newest prompt whose outcome is unknown or dismissed",
        "add a `shown` step before it, or remove it",
      ])
  }

  /// `PC402`: the app version `version` of a history case, which does not start with a number.
  static func invalidAppVersion(_ version: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "the app version `\(version)` does not start with a number", at: range)
  }

  // MARK: - The policy

  /// `PC407`: the review manager refuses the policy that compiled; the range is the case.
  static func policyRefusedByManager(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unusablePolicy, "the policy does not compile for the review manager", at: range)
  }

  /// `PC407`: the policy `path` (as the test file writes it) cannot be read, for `error`.
  static func unreadablePolicy(_ path: String, error: any Error, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unusablePolicy, "cannot read the policy `\(path)`: \(error)", at: range,
      help: ["the path is relative to the test file's folder"])
  }

  /// `PC407`: the policy `path` (as the test file writes it) has errors, reported before this.
  static func policyWithErrors(_ path: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unusablePolicy, "the policy `\(path)` has errors", at: range,
      help: ["fix the errors above, then run the tests again"])
  }

  /// `PC407`: the test file itself cannot be read, for `error`; located at the start of the file.
  static func unreadableTestFile(_ error: any Error) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unusablePolicy, "cannot read the test file: \(error)", at: .empty(at: 0))
  }

  /// Why a file could not be read, in the messages above: it does not exist or cannot be read.
  static let unreadableFile = "no such file, or it cannot be read"

  // MARK: - Coverage (report lines, no code)

  /// How a condition fell short of coverage.
  enum ConditionGap {
    /// No case evaluated it.
    case neverEvaluated
    /// It failed in every case that evaluated it.
    case neverHeld
    /// It held in every case that evaluated it.
    case neverFailed
  }

  /// A coverage line: the rule `name` (`ask loyal`, or its label) at `path`:`line` never held
  /// in any case, or held but never decided one.
  static func uncoveredRule(_ name: String, path: String, line: Int, held: Bool) -> String {
    "\(path):\(line): rule `\(name)` never \(held ? "decided" : "held")"
  }

  /// A coverage line: the condition written `text` at `path`:`line`:`column` fell short as `gap` says.
  static func uncoveredCondition(_ text: String, path: String, line: Int, column: Int, gap: ConditionGap) -> String {
    let outcome =
      switch gap {
      case .neverEvaluated: "evaluated"
      case .neverHeld: "held"
      case .neverFailed: "failed"
      }
    return "\(path):\(line):\(column): `\(text)` never \(outcome)"
  }
}
