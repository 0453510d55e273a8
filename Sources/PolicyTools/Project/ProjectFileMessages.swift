import PolicyCore

/// Every diagnostic about a project file (`reviewpolicy.json`), and about a policy whose project
/// file cannot be used, one factory per message (see ``PolicyProject``).
enum ProjectFileMessages {
  /// `PC402`: the project file is a JSON value of kind `kind`, not an object.
  static func notAnObject(_ kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "a project file is a JSON object, but this is \(kind)", at: range,
      help: ["write the app's declarations as `{\"events\": [\"export\", \"purchase\"]}`"])
  }

  /// `PC402`: a key the project file does not have; `suggestion` is the key it may mean, `keys` all of them.
  static func unknownKey(_ key: String, suggestion: String?, keys: [String], at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "unknown key `\(key)` in a project file", at: range,
      help: suggestion.map { ["did you mean `\($0)`?"] } ?? [
        "the keys are " + keys.map { "`\($0)`" }.joined(separator: ", ")
      ])
  }

  /// `PC402`: `events` is a JSON value of kind `kind`, not a list.
  static func eventsNotAList(_ kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON,
      "`events` must be a list of the event names the app records, but this is \(kind)", at: range,
      help: ["write `\"events\": [\"export\", \"purchase\"]`"])
  }

  /// `PC402`: an element of `events` is a JSON value of kind `kind`, not a string.
  static func eventNameNotAString(_ kind: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unexpectedJSON, "an event name must be a string, but this is \(kind)", at: range,
      help: ["write each name in quotes, as in `\"events\": [\"export\", \"purchase\"]`"])
  }

  /// `PC402`: an empty event name.
  static func emptyEventName(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "an event name cannot be empty", at: range)
  }

  /// `PC402`: the event `name` listed a second time.
  static func duplicateEventName(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.unexpectedJSON, "the event `\(name)` is listed twice", at: range, help: ["remove one"])
  }

  /// `PC407`: the project file of the test file's policy `policy` (at `projectPath`) has errors.
  static func policyProjectHasErrors(_ policy: String, projectPath: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.unusablePolicy, "the project file of the policy `\(policy)` has errors", at: range,
      help: ["fix the errors above in `\(projectPath)`, then run the tests again"])
  }

  /// `PC407`: the project file `projectPath` of the test file's policy `policy` cannot be read.
  static func policyProjectUnreadable(_ policy: String, projectPath: String, reason: String, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyToolsCode.unusablePolicy,
      "cannot read the project file `\(projectPath)` of the policy `\(policy)`: \(reason)",
      at: range)
  }
}
