import PolicyCore

/// The stable code of every diagnostic PolicyTools reports: the `PolicyTools` domain, `PC4xx`,
/// errors (and one warning) in facts files, test files, simulation behaviour files and records files.
///
/// Codes never change meaning once published. Grammar.md lists each one with its severity,
/// summary and an example (a test checks the table against this enum). Each diagnostic is
/// written by a factory of the `*Messages` enum of its area (`JSONMessages`,
/// `FactsFileMessages`, `TestFileMessages`, `SimulationMessages`), next to the code that reports it.
package enum PolicyToolsCode: String, DiagnosticCodeDefinition {
  /// `PolicyTools`.
  package static let domain = "PolicyTools"

  /// A facts or test file that is not valid JSON.
  case invalidJSON = "PC401"
  /// A JSON value of the wrong shape where a particular one is required (an object of facts, a list of cases).
  case unexpectedJSON = "PC402"
  /// A facts file names a fact the policy does not know.
  case unknownFact = "PC403"
  /// A fact's value has the wrong type or does not parse (`"30"` for a duration, `"yesterday"` for an instant).
  case invalidFactValue = "PC404"
  /// A fact that cannot be absent has no value and no default.
  case missingFact = "PC405"
  /// A history step in a test file that is not one of the documented steps.
  case invalidHistoryStep = "PC406"
  /// A test file names a policy that cannot be read or compiled.
  case unusablePolicy = "PC407"
  /// A behaviour file that is valid JSON but not a behaviour model: an unknown key, a value
  /// of the wrong kind or out of range, shares that do not add up.
  case invalidBehaviour = "PC408"
  /// A facts file gives a fact the policy never reads (a warning: the evaluation goes on).
  case unreadFact = "PC409"
  /// Given facts that no real history has, by a bound of the schema: `days` above `total_days`,
  /// an answer date before `install_date`.
  case impossibleFacts = "PC410"
  /// A line of a records file (docs/records.md) that is not a record: not one JSON object, a key
  /// of the wrong type, a required key missing, a later schema.
  case invalidRecord = "PC411"
  /// A file given to `policyc report --merge` that is not a partial result `--shard` wrote, or
  /// partial results that do not make one whole.
  case invalidPartialResult = "PC412"

  /// Whether diagnostics with this code are errors or warnings: every one but PC409 is an error.
  package var severity: Severity {
    switch self {
    case .invalidJSON, .unexpectedJSON, .unknownFact, .invalidFactValue, .missingFact, .invalidHistoryStep,
      .unusablePolicy, .invalidBehaviour, .impossibleFacts, .invalidRecord, .invalidPartialResult:
      .error
    case .unreadFact: .warning
    }
  }

  /// A short title for the code, such as "invalid JSON" (for SARIF rules and documentation).
  package var summary: String {
    switch self {
    case .invalidJSON: "invalid JSON"
    case .unexpectedJSON: "unexpected JSON"
    case .unknownFact: "unknown fact"
    case .invalidFactValue: "invalid fact value"
    case .missingFact: "missing fact"
    case .invalidHistoryStep: "invalid history step"
    case .unusablePolicy: "unusable policy"
    case .invalidBehaviour: "invalid behaviour file"
    case .unreadFact: "fact the policy never reads"
    case .impossibleFacts: "impossible facts"
    case .invalidRecord: "invalid record"
    case .invalidPartialResult: "invalid partial result"
    }
  }
}
