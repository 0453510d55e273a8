import PolicyCore
import ReviewPolicy

/// Every problem the record reader reports, one factory per message (`RecordReader.swift` writes
/// none of its own). Each becomes a `PC411` diagnostic (``PolicyToolsCode/invalidRecord``) at its
/// line of the records file. `found` describes what the reader met: `` `x` ``, `byte 0x01`,
/// `the end of the line`. Offsets are within the line.
enum RecordMessages {
  typealias Problem = RecordReader.Problem

  /// Something else where `what` should be.
  static func expected(_ what: String, found: String, at offset: Int) -> Problem {
    Problem(
      start: offset, end: offset + 1, message: "expected \(what), found \(found)",
      help: "each line of a records file is one JSON object, as docs/records.md shows")
  }

  /// Something after the record's closing brace.
  static func trailing(found: String, at offset: Int) -> Problem {
    Problem(
      start: offset, end: offset + 1, message: "unexpected \(found) after the record",
      help: "one record per line: put the next record on a line of its own")
  }

  /// A key given twice.
  static func duplicate(_ key: String, at range: Range<Int>) -> Problem {
    Problem(
      start: range.lowerBound, end: range.upperBound, message: "`\(key)` is given twice",
      help: "a record gives each key once")
  }

  /// A value of the wrong JSON type.
  static func wrongType(_ key: String, _ expected: String, found: String, at offset: Int) -> Problem {
    Problem(
      start: offset, end: offset + 1, message: "`\(key)` must be \(expected), found \(found)",
      help: "docs/records.md lists each key with its type")
  }

  /// A value of the right type out of its range or form.
  static func badValue(_ key: String, _ expected: String, at range: Range<Int>) -> Problem {
    Problem(
      start: range.lowerBound, end: max(range.upperBound, range.lowerBound + 1),
      message: "`\(key)` must be \(expected)", help: "docs/records.md lists each key with what it holds")
  }

  /// A record of a later version of the format.
  static func newerSchema(_ schema: Int64, at range: Range<Int>) -> Problem {
    Problem(
      start: range.lowerBound, end: range.upperBound,
      message: "record schema \(schema) is newer than this policyc reads (\(ReviewRecord.schema))",
      help: "update policyc to read records of schema \(schema)")
  }

  /// A required key missing (at the record's closing brace).
  static func missing(_ key: String, at offset: Int) -> Problem {
    Problem(
      start: offset, end: offset + 1, message: "the record has no `\(key)`",
      help: "every record has `schema`, `install`, `time`, `event` and `app`")
  }

  /// `policy` without a valid `origin`.
  static func missingOrigin(_ origin: String?, at range: Range<Int>) -> Problem {
    Problem(
      start: range.lowerBound, end: range.upperBound,
      message: origin.map { "`origin` must be `bundled`, `update` or `guardrails`, found `\($0)`" }
        ?? "the record has `policy` but no `origin`",
      help: "a record that names a policy gives its origin: `bundled`, `update` or `guardrails`")
  }

  /// A line longer than the reader holds.
  static func overlong(_ length: Int, limit: Int) -> Problem {
    Problem(
      start: 0, end: 1, message: "a line of \(length) bytes, longer than \(limit)",
      help: "a record is one short JSON object per line; is this a records file?")
  }

  /// `PC411`: `problem` as a diagnostic at `range` of its file.
  static func diagnostic(_ problem: Problem, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidRecord, problem.message, at: range, help: [problem.help])
  }

  /// A control byte inside a string.
  static func controlInString(at offset: Int) -> Problem {
    Problem(
      start: offset, end: offset + 1, message: "a control character inside a string",
      help: "write it escaped, as `\\n` or `\\u0001`")
  }

  /// A backslash escape JSON does not have, or a lone surrogate.
  static func badEscape(at range: Range<Int>) -> Problem {
    Problem(
      start: range.lowerBound, end: range.upperBound, message: "an invalid escape in a string",
      help:
        "JSON escapes are `\\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` and `\\uXXXX` (surrogates in pairs)")
  }

  /// A string that does not end on its line.
  static func unterminatedString(at range: Range<Int>) -> Problem {
    Problem(
      start: range.lowerBound, end: range.upperBound, message: "a string with no closing quote",
      help: "a record is one line: a string ends on it with `\"`")
  }

  /// Arrays or objects nested too deep inside an unknown key.
  static func tooDeep(at offset: Int) -> Problem {
    Problem(
      start: offset, end: offset + 1, message: "values nested deeper than \(RecordReader.maximumDepth) levels",
      help: "a record's values are at most an array or an object of plain values")
  }
}
