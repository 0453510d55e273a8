import PolicyCore

/// Every message of `policyc simulate`'s inputs, one factory per message, so the wording lives
/// here: `SimulationBehaviour.swift`, `SimulationModel.swift`, `SimulationAppFacts.swift` and
/// `SimulationInputs.swift` write no message of their own.
///
/// A behaviour file's problems are `PC408` diagnostics (invalid JSON is `PC401`,
/// ``JSONMessages``); the model's flags and `--fact` values are usage errors, one line of text
/// each, without a code; warnings and notes are lines for standard error. Keys are as the file
/// writes them; `kind` is the kind of a JSON value as ``JSONValue/kindName`` gives it; `found`
/// describes a value as the behaviour reader writes it (`` `1.5` ``, `` `"often"` ``, `an array`).
enum SimulationMessages {
  // MARK: - Behaviour files (PC408)

  /// `PC408`: a behaviour file whose root is `kind`, not an object.
  static func behaviourNotAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "a behaviour file is a JSON object, but this is \(kind)", at: range,
      help: ["write the model as `{\"events\": {\"purchase\": 0.2}, \"releaseEvery\": 30}`"])
  }

  /// `PC408`: the key `key`, not a key of behaviour files; `suggestion` is the key it may mean.
  static func unknownBehaviourKey(_ key: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "unknown key `\(key)` in a behaviour file", at: range,
      help: suggestion.map { ["did you mean `\($0)`?"] }
        ?? ["the keys are " + SimulationBehaviour.keys.map { "`\($0)`" }.joined(separator: ", ")])
  }

  /// `PC408`: the number of `key`, which is `found`, not `unit` within `bounds`.
  static func numberOutOfRange(
    _ key: String, unit: String, bounds: ClosedRange<Double>, found: String, at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`\(key)` must be \(unit) from \(SimulationFormat.trimmed(bounds.lowerBound, places: 0)) to "
        + "\(SimulationFormat.trimmed(bounds.upperBound, places: 0)), but this is \(found)", at: range)
  }

  /// `PC408`: a `releaseEvery` within its bounds that is not a whole number.
  static func fractionalReleaseEvery(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "`releaseEvery` must be a whole number of days from 0 to 3650", at: range)
  }

  /// `PC408`: the share of `key`, which is `found`, not a share.
  static func invalidShare(_ key: String, found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`\(key)` must be a share from 0 to 1 (or \"0%\" to \"100%\"), but this is \(found)", at: range)
  }

  /// `PC408`: `events` that is `kind`, not an object.
  static func eventsNotAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`events` must be an object from event names to counts per session, but this is \(kind)", at: range,
      help: ["write `\"events\": {\"purchase\": 0.2, \"export\": 1.5}`"])
  }

  /// `PC408`: an empty event name in `events`.
  static func emptyEventName(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidBehaviour, "an event name cannot be empty", at: range)
  }

  /// `PC408`: the event `name` a second time in `events`.
  static func duplicateEvent(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidBehaviour, "the event `\(name)` is given twice", at: range)
  }

  /// `PC408`: `facts` that is `kind`, not an object.
  static func factsNotAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`facts` must be an object from app fact names to value shares, but this is \(kind)", at: range,
      help: ["write `\"facts\": {\"plan\": {\"free\": 0.7, \"pro\": 0.3}}`"])
  }

  /// `PC408`: the fact `name` in `facts`, whose value is `kind` or, when `kind` is nil, an empty object.
  static func factNotShares(_ name: String, kind: String?, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "the fact `\(name)` must be an object from values to shares, but this is " + (kind ?? "empty"), at: range,
      help: ["write `\"\(name)\": {\"free\": 0.7, \"pro\": 0.3}`"])
  }

  /// `PC408`: the shares of the fact `name` add up to `total`, not 1.
  static func sharesNotWhole(_ name: String, total: Double, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "the shares of `\(name)` add up to \(SimulationFormat.share(total)); they must add up to 100%", at: range)
  }

  /// `PC408`: `answers` that is `kind`, not an object.
  static func answersNotAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "`answers` must be an object of shares, but this is \(kind)", at: range,
      help: ["write `\"answers\": {\"rate\": 0.25, \"decline\": 0.4, \"later\": 0.35}`"])
  }

  /// `PC408`: the key `key` in `answers`, not an answer; `suggestion` is the answer it may mean.
  /// `dismiss` is not given but left over, and the help says so.
  static func unknownAnswer(_ key: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
    if key.lowercased().hasPrefix("dismis") {
      return Diagnostic(
        PolicyToolsCode.invalidBehaviour, "unknown answer `\(key)`", at: range,
        help: [
          "dismissing is not given: it is the share that `rate`, `decline` and `later` leave (with 25%, 40% and 30%, 5% dismiss)",
          "remove `\(key)` and give the other answers; their shares add up to at most 100%",
        ])
    }
    return Diagnostic(
      PolicyToolsCode.invalidBehaviour, "unknown answer `\(key)`", at: range,
      help: suggestion.map { ["did you mean `\($0)`?"] } ?? ["the answers are `rate`, `decline` and `later`"])
  }

  /// `PC408`: the shares of `answers` add up to `total`, over 1; the range is `answers`.
  static func answersOverWhole(total: Double, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "the answers add up to \(SimulationFormat.share(total)); they must add up to at most 100% "
        + "(the rest dismiss the prompt)", at: range)
  }

  // MARK: - Segments (PC408)

  /// `PC408`: `segments` that is `kind`, not an object.
  static func segmentsNotAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`segments` must be an object from segment names to segments, but this is \(kind)", at: range,
      help: [segmentsExample])
  }

  /// `PC408`: `segments` without a segment.
  static func noSegments(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "`segments` has no segment; give at least one, or leave `segments` out",
      at: range, help: [segmentsExample])
  }

  /// `PC408`: a segment beyond the most a behaviour file may have, at its name.
  static func tooManySegments(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "a behaviour file has at most \(SimulationSegment.maximumCount) segments; this is one more", at: range)
  }

  /// `PC408`: an empty segment name.
  static func emptySegmentName(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidBehaviour, "a segment name cannot be empty", at: range)
  }

  /// `PC408`: a segment name of `bytes` bytes, over the most.
  static func longSegmentName(bytes: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "a segment name has at most \(SimulationSegment.maximumNameBytes) bytes, but this one has \(bytes)", at: range)
  }

  /// `PC408`: the segment `name`, whose value is `kind`, not an object.
  static func segmentNotAnObject(_ name: String, kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "the segment `\(name)` must be an object with its `share` and the settings it changes, but this is \(kind)",
      at: range, help: ["write `\"\(name)\": {\"share\": \"20%\", \"events\": {\"purchase\": 0.05}}`"])
  }

  /// `PC408`: the segment `name` without a `share`; the range is its name.
  static func missingSegmentShare(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "the segment `\(name)` has no `share`", at: range,
      help: ["give the segment's share of users, such as `\"share\": \"20%\"`"])
  }

  /// `PC408`: the key `key` in the segment `segment`, not a key of segments; `suggestion` is the key it may mean.
  static func unknownSegmentKey(_ key: String, segment: String, suggestion: String?, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour, "unknown key `\(key)` in the segment `\(segment)`", at: range,
      help: suggestion.map { ["did you mean `\($0)`?"] }
        ?? ["the keys of a segment are " + SimulationBehaviour.segmentKeys.map { "`\($0)`" }.joined(separator: ", ")])
  }

  /// `PC408`: `releaseEvery` in the segment `segment`: releases are one calendar for the app.
  static func releaseEveryInSegment(segment: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`releaseEvery` cannot be set in the segment `\(segment)`: releases are one calendar for the whole app",
      at: range, help: ["set `releaseEvery` at the top level of the file"])
  }

  /// `PC408`: `segments` in the segment `segment`: segments do not nest.
  static func nestedSegments(segment: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "`segments` cannot be given in the segment `\(segment)`: segments do not nest", at: range,
      help: ["give every segment at the top level of the file, with its share of all users"])
  }

  /// `PC408`: the shares of the segments add up to `total`, not 1; the range is `segments`.
  static func segmentSharesNotWhole(total: Double, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "the shares of the segments add up to \(SimulationFormat.share(total)); they must add up to 100%", at: range)
  }

  /// `PC408`: the answers of the segment `segment`, with the file's answers it does not give, add up to `total`, over 1;
  /// the range is the segment's `answers`.
  static func segmentAnswersOverWhole(_ segment: String, total: Double, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidBehaviour,
      "the answers of the segment `\(segment)` add up to \(SimulationFormat.share(total)) (with the top level's "
        + "answers it does not give); they must add up to at most 100% (the rest dismiss the prompt)", at: range)
  }

  /// An example of `segments`, for help lines.
  private static let segmentsExample =
    "write `\"segments\": {\"buyers\": {\"share\": \"20%\", \"events\": {\"purchase\": 0.05}}, "
    + "\"others\": {\"share\": \"80%\"}}`"

  // MARK: - Model flags (usage errors)

  /// The share flag `--name` given `text`, not a share.
  static func invalidShareFlag(_ name: String, _ text: String) -> String {
    "`--\(name) \(text)` must be a share from 0 to 1 (or 0% to 100%)"
  }

  /// `--sessions` given `text`, not a number from 1 to 20.
  static func invalidSessions(_ text: String) -> String {
    "`--sessions \(text)` must be a number from 1 to 20"
  }

  /// `--events` given `text`, not a number from 0 to 20.
  static func invalidEventsPerSession(_ text: String) -> String {
    "`--event-rate \(text)` must be a number from 0 to 20"
  }

  /// `--release-every` given `text`, not a whole number from 0 to 3650.
  static func invalidReleaseEvery(_ text: String) -> String {
    "`--release-every \(text)` must be a whole number of days from 0 to 3650"
  }

  /// `--name`, not a flag of the model.
  static func unknownModelFlag(_ name: String) -> String {
    "unknown model option `--\(name)`"
  }

  /// `--rate`, `--remind` and `--decline` add up to `total`, over 1.
  static func answerFlagsOverWhole(total: Double) -> String {
    "`--rate`, `--remind` and `--decline` add up to \(SimulationFormat.share(total)); they must add up to at most 100%"
  }

  /// `--rate`, `--remind` and `--decline`, with the segment `segment`'s own answers, add up to `total`, over 1.
  static func segmentAnswerFlagsOverWhole(_ segment: String, total: Double) -> String {
    "the answers of the segment `\(segment)` add up to \(SimulationFormat.share(total)) with `--rate`, `--remind` "
      + "and `--decline`; they must add up to at most 100%"
  }

  // MARK: - App facts (usage errors and notes)

  /// `--fact name=...` names `name`, a fact the review manager tracks.
  static func trackedFactGiven(_ name: String) -> String {
    "`--fact \(name)=...`: `\(name)` is tracked by the review manager; `--fact` sets app facts a policy declares"
  }

  /// `--fact name=text` names a fact no simulated policy declares (`policyCount` of them);
  /// `suggestion` is the declared fact it may mean.
  static func undeclaredFactGiven(_ name: String, _ text: String, policyCount: Int, suggestion: String?) -> String {
    let policiesText = policyCount == 1 ? "the policy does not declare" : "neither policy declares"
    return "`--fact \(name)=\(text)`: \(policiesText) `fact \(name)`"
      + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
  }

  /// The behaviour file gives the fact `name`, a `type` in the policy at `path`, the value `value`,
  /// which is no `type`.
  static func distributedValueMismatch(_ name: String, value: String, type: PolicyType, path: String) -> String {
    "the behaviour file gives `\(name)` the value `\(value)`, but `\(name)` is \(article(type)) `\(type)` in \(path); \(example(type))"
  }

  /// `--fact name=text`, where `name` is a `type` in the policy at `path` and `text` no `type`.
  static func givenValueMismatch(_ name: String, _ text: String, type: PolicyType, path: String) -> String {
    "`--fact \(name)=\(text)`: `\(name)` is \(article(type)) `\(type)` in \(path); \(example(type))"
  }

  /// The note for the policy at `path`, whose declared facts took the defaults `defaulted` (`` `plan` = "" ``).
  static func defaultedFactsNote(path: String, defaulted: [String]) -> String {
    "\(path) declares app facts the simulation cannot know; using \(defaulted.joined(separator: ", ")) (set them with --fact NAME=VALUE)"
  }

  /// "a" or "an" before the name of `type`.
  private static func article(_ type: PolicyType) -> String {
    type == .int || type == .instant ? "an" : "a"
  }

  /// Advice on writing a value of `type`.
  private static func example(_ type: PolicyType) -> String {
    switch type {
    case .bool: "write true or false"
    case .int: "write a whole number such as 3"
    case .number: "write a number such as 7.5"
    case .duration: "write a duration such as 30d"
    case .version: "write a version such as 3.1"
    case .instant: "write an ISO-8601 instant such as 2026-03-01T12:00:00Z"
    case .string: "write any text"
    }
  }

  // MARK: - Inputs (warnings)

  /// The warning for the event `name`, which the model never produces and the policies named
  /// `readers` read as `forms` (`events("x")`, `total_events("x")`).
  static func unproducedEvent(_ name: String, readers: [String], forms: [String]) -> String {
    "the behaviour model never produces the event `\(name)` that \(readers.joined(separator: " and ")) reads "
      + "(\(forms.map { "`\($0)`" }.joined(separator: ", "))), "
      + "so it stays 0; give its rate in a behaviour file (--behaviour FILE)"
  }
}
