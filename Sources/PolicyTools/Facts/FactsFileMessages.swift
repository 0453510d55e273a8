import PolicyCore

/// Every diagnostic a facts file gets, one factory per message, so the wording lives here:
/// `FactsFile.swift` and `FactsConsistency.swift` write no message of their own. Test files
/// report the facts of their cases with the same factories.
///
/// Names are facts and keys as the file writes them; `kind` is the kind of a JSON value as
/// ``JSONValue/kindName`` gives it ("a string"). Ranges are where the caret goes.
enum FactsFileMessages {
  // MARK: - The file

  /// `PC402`: a facts file (or a case's `"facts"`) whose root is `kind`, not an object.
  static func notAnObject(kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "a facts file is a JSON object, but this is \(kind)", at: range,
      help: ["write the facts as `{\"days\": 31, \"uses\": 25}`"])
  }

  /// `PC404`: a `now` key whose value is not an ISO-8601 instant.
  static func invalidNow(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "`now` must be an ISO-8601 instant such as \"2026-03-01T12:00:00Z\"", at: range)
  }

  /// `PC404`: a seed key `key` (`seed`, `install_seed`) whose value is not a 64-bit integer;
  /// `withExample` adds the help line a facts file gets (a history case's facts get none).
  static func invalidSeed(_ key: String, withExample: Bool = true, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "`\(key)` must be an integer, the seed `bucket(\"name\")` draws from",
      at: range, help: withExample ? ["write `\"\(key)\": 12345`"] : [])
  }

  /// `PC403`: the key `key` names no fact of the policy; `suggestion` is the fact it may mean.
  static func unknownFact(_ key: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unknownFact, "unknown fact `\(key)`", at: range,
      help: suggestion.map { ["did you mean `\($0)`?"] }
        ?? ["`policyc facts` lists the standard facts and keyed families; a policy declares its own with `fact`"])
  }

  /// `PC217`: the key names the event `name` (`events("share")`), which is not among the `known`
  /// events: those the policy declares (`fromDeclarations`) or, when it declares none, those the app records.
  static func unknownEvent(_ name: String, known: [String], fromDeclarations: Bool, at range: SourceRange)
    -> Diagnostic
  {
    let list = known.map { "`\($0)`" }.joined(separator: ", ")
    var help: [String] = []
    if let suggestion = EditDistance.suggestion(for: name, among: known) {
      help.append("did you mean `\(suggestion)`?")
    }
    help.append(
      fromDeclarations
        ? "the policy declares the events \(list); no user of it can have `\(name)` events"
        : "the app records the events \(list) (its project file or `--events`)")
    return Diagnostic(PolicyCoreCode.unknownEvent, "unknown event `\(name)`", at: range, help: help)
  }

  /// `PC405`: the fact `name`, of `type`, has no value in the file and no default; the range is the file's root.
  static func missingFact(_ name: String, type: PolicyType, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.missingFact, "fact `\(name)` has no value and no default", at: range,
      help: ["add `\"\(name)\": \(FactsFile.example(for: type))` to the facts file"])
  }

  // MARK: - Values

  /// `PC404`: a value of the right type that the facts refused (`error` says why).
  static func refusedValue(_ error: any Error, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidFactValue, "\(error)", at: range)
  }

  /// `PC404`: `null` for the fact `name`, of `type`, which cannot be absent.
  static func absentValue(_ name: String, type: PolicyType, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "fact `\(name)` cannot be absent", at: range,
      help: ["give it a value such as \(FactsFile.example(for: type))"])
  }

  /// `PC404`: a JSON value of `kind` for the fact `name`, of `type`, that takes another kind.
  static func wrongKind(_ name: String, type: PolicyType, kind: String, at range: SourceRange) -> Diagnostic {
    let (expected, help): (String, String)
    switch type {
    case .bool: (expected, help) = ("`true` or `false`", "write `true` or `false`")
    case .int: (expected, help) = ("an integer", "write a number such as `30`")
    case .number: (expected, help) = ("a number", "write a number such as `4.5`")
    case .duration:
      (expected, help) = ("a duration string", "write durations with a unit, such as \"30d\" or \"1d 12h\"")
    case .instant: (expected, help) = ("an ISO-8601 instant", "write instants such as \"2026-03-01T12:00:00Z\"")
    case .version: (expected, help) = ("a version string", "write versions as strings, such as \"3.1.0\"")
    case .string: (expected, help) = ("a string", "write strings in double quotes")
    }
    return Diagnostic(
      PolicyToolsCode.invalidFactValue, "fact `\(name)` needs \(expected), but this is \(kind)", at: range,
      help: [help])
  }

  /// `PC404`: the number `text` for the `int` fact `name`, not a 64-bit integer.
  static func integerOutOfRange(_ name: String, text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "fact `\(name)` needs an integer, but `\(text)` is not one in range",
      at: range, help: ["ints are whole numbers from -9223372036854775808 to 9223372036854775807"])
  }

  /// `PC404`: the number `text`, which a `number` cannot hold exactly.
  static func inexactNumber(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "`\(text)` is not a number this language can hold exactly", at: range,
      help: ["numbers have at most 6 decimal places, no exponent, and range up to about 9.2 trillion"])
  }

  /// `PC404`: the string `text`, not a duration.
  static func invalidDuration(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "`\(text)` is not a duration", at: range,
      help: ["write a whole number and a unit (s, m, h, d, w), such as \"30d\" or \"1d 12h\""])
  }

  /// `PC404`: the string `text`, not an ISO-8601 instant.
  static func invalidInstant(_ text: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidFactValue, "`\(text)` is not an ISO-8601 instant", at: range,
      help: ["write a date such as \"2026-03-01\" or a time with a zone such as \"2026-03-01T12:00:00Z\""])
  }

  /// `PC404`: the string `text`, not a version for the reason `error`.
  static func invalidVersion(_ text: String, error: Version.ParseError, at range: SourceRange) -> Diagnostic {
    let reason: String
    switch error {
    case .empty: reason = "is empty"
    case .notNumeric: reason = "is not 1 to 4 numbers separated by dots"
    case .tooManyParts: reason = "has more than 4 parts"
    case .partTooLarge: reason = "has a part larger than 4294967295"
    }
    return Diagnostic(
      PolicyToolsCode.invalidFactValue, "version `\(text)` \(reason)", at: range,
      help: ["write versions such as \"3.1\" or \"v2.0.1\""])
  }

  // MARK: - Consistency with the schema

  /// What a ``unreadFact(_:scope:instead:read:at:)`` warning suggests instead of the given fact.
  enum Instead {
    /// The fact's counterpart in another scope, which the policy reads (`total_days` for
    /// `days`), with its scope's name.
    case counterpart(String, scope: String?)
    /// The fact the policy reads whose name is closest.
    case similar(String)
  }

  /// `PC409`: the file gives `name` (of the schema's `scope`), which the policy never reads;
  /// `instead` is what it may mean, and `read` the facts the policy reads, for when there is nothing.
  static func unreadFact(_ name: String, scope: String?, instead: Instead?, read: [String], at range: SourceRange)
    -> Diagnostic
  {
    let help: String
    switch instead {
    case .counterpart(let counterpart, let counterpartScope):
      let scopes = [scope, counterpartScope].map { $0.map { " (\($0))" } ?? "" }
      help = "did you mean `\(counterpart)`? the policy reads `\(counterpart)`\(scopes[1]), not `\(name)`\(scopes[0])"
    case .similar(let suggestion): help = "did you mean `\(suggestion)`? the policy reads it"
    case nil: help = "the policy reads \(list(read)); remove `\(name)` or check the policy"
    }
    return Diagnostic(PolicyToolsCode.unreadFact, "the policy never reads `\(name)`", at: range, help: [help])
  }

  /// `PC410`: the given `lower` (`low`) and `upper` (`high`) break a bound of the schema, for
  /// `reason`. The range is the value of `lower`; a note points at the value of `upper`.
  static func impossibleFacts(
    _ lower: String, _ low: Value, _ upper: String, _ high: Value, reason: String, at range: SourceRange,
    upperAt upperRange: SourceRange
  ) -> Diagnostic {
    let message: String
    let relation: String
    switch low {
    case .bool:
      message = "`\(lower)` is true but `\(upper)` is false"
      relation = "true without"
    case .instant:
      message = "`\(lower)` (\(low)) is after `\(upper)` (\(high))"
      relation = "after"
    case .int, .number, .duration, .version, .string:
      message = "`\(lower)` (\(low)) is more than `\(upper)` (\(high))"
      relation = "more than"
    }
    return Diagnostic(
      PolicyToolsCode.impossibleFacts, message, at: range,
      help: ["\(reason): `\(lower)` cannot be \(relation) `\(upper)`"],
      notes: [DiagnosticNote("`\(upper)` is given here", at: upperRange)])
  }

  /// `PC410`: the given `given` (`value`) breaks a relation of the schema (`statement`, for
  /// `reason`) with `defaulted`, which the file does not give and so takes `defaultValue`; `fix`
  /// is the member to add. The range is the given value.
  static func contradictsDefault(
    _ given: String, _ value: Value?, defaulted: String, _ defaultValue: Value?, statement: String, reason: String,
    fix: String?, at range: SourceRange
  ) -> Diagnostic {
    let shown = { (fact: Value?) in fact.map { "\($0)" } ?? "absent" }
    let taken = defaultValue.map { "defaults to \($0)" } ?? "is absent"
    return Diagnostic(
      PolicyToolsCode.impossibleFacts, "`\(given)` is \(shown(value)), but `\(defaulted)`, not given, \(taken)",
      at: range,
      help: ["no real user has these facts: \(statement): \(reason)"]
        + (fix.map { ["give `\(defaulted)` too: add `\($0)`"] } ?? ["give `\(defaulted)` a value that agrees"]))
  }

  /// `PC410`: the given `facts` (name and value, nil when absent) break a relation of the schema
  /// (`statement`, for `reason`). The range is the first fact's value; `notes` point at the others.
  static func brokenRelation(
    _ facts: [(name: String, value: Value?)], statement: String, reason: String, at range: SourceRange,
    notes: [(String, SourceRange)]
  ) -> Diagnostic {
    let described = facts.map { "`\($0.name)` \($0.value.map { "(\($0))" } ?? "(absent)")" }
    return Diagnostic(
      PolicyToolsCode.impossibleFacts, "no real user has " + described.joined(separator: " with "), at: range,
      help: ["\(statement): \(reason)"],
      notes: notes.map { DiagnosticNote("`\($0.0)` is given here", at: $0.1) })
  }

  /// "`a`, `b` and `c`"; "no facts" for none.
  private static func list(_ names: [String]) -> String {
    let written = names.map { "`\($0)`" }
    guard written.count > 1 else { return written.first ?? "no facts" }
    return written.dropLast().joined(separator: ", ") + " and " + (written.last ?? "")
  }
}
