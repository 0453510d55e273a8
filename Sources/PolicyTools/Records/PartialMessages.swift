import PolicyCore

/// Every problem of partial results (`policyc report --merge`), one factory per message. Each is
/// a `PC412` diagnostic (``PolicyToolsCode/invalidPartialResult``).
enum PartialMessages {
  /// A problem with its diagnostic, thrown while a part is read.
  struct PartialFailure: Error {
    /// The `PC412` (or `PC401`) diagnostic.
    var diagnostic: Diagnostic
  }

  /// `PC412`: a JSON file that is not a part `--shard` wrote.
  static func notPartial(at range: SourceRange) -> PartialFailure {
    PartialFailure(
      diagnostic:
        Diagnostic(
          PolicyToolsCode.invalidPartialResult, "this is not a partial result of `policyc report` or `policyc replay`",
          at: range,
          help: ["`--merge` reads the files `policyc report --shard i/n` and `policyc replay --shard i/n` write"]))
  }

  /// `PC412`: a key a part always has is missing.
  static func missing(_ key: String, in range: SourceRange) -> PartialFailure {
    PartialFailure(
      diagnostic:
        Diagnostic(
          PolicyToolsCode.invalidPartialResult, "the partial result has no `\(key)`", at: range,
          help: ["give `--merge` the files `--shard` wrote, unedited"]))
  }

  /// `PC412`: a value of the wrong kind.
  static func wrong(_ what: String, expected: String, at range: SourceRange) -> PartialFailure {
    PartialFailure(
      diagnostic:
        Diagnostic(
          PolicyToolsCode.invalidPartialResult, "\(what) must be \(expected)", at: range,
          help: ["give `--merge` the files `--shard` wrote, unedited"]))
  }

  /// `PC412`: parts that do not make one whole (another kind, another split, a part twice or
  /// missing, other files).
  static func mismatch(_ message: String, help: String, at range: SourceRange) -> PartialFailure {
    PartialFailure(
      diagnostic:
        Diagnostic(PolicyToolsCode.invalidPartialResult, message, at: range, help: [help]))
  }
}
