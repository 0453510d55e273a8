/// Collects the diagnostics of one file across phases and caps the number of errors.
///
/// It applies ``DiagnosticCap``: after ``Limits/maximumErrors`` errors it records one `PC199`
/// and ignores the rest; after as many warnings, one `PC399` and no more warnings. A file of
/// random bytes gives a bounded report. A diagnostic counts as an error or a warning by its
/// code's severity, whatever module defined the code.
struct DiagnosticBag: Sendable {
  private(set) var diagnostics: [Diagnostic] = []
  private(set) var isFull = false

  private var errors = DiagnosticCap(.error)
  private var warnings = DiagnosticCap(.warning)

  /// The errors recorded (at most ``Limits/maximumErrors``).
  var errorCount: Int { errors.count }

  mutating func report(_ diagnostic: Diagnostic) {
    guard !isFull else { return }
    switch diagnostic.severity == .error ? errors.admit(diagnostic) : warnings.admit(diagnostic) {
    case .admitted: diagnostics.append(diagnostic)
    case .overflowed(let marker):
      diagnostics.append(marker)
      // Past the cap on errors checking stops: later phases see a full bag and do not run.
      if diagnostic.severity == .error { isFull = true }
    case .dropped: break
    }
  }

  var hasErrors: Bool { errorCount > 0 }

  /// `PC399`: more warnings than ``Limits/maximumErrors``; the range is the first one left out.
  static func tooManyWarnings(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyWarnings, "too many warnings; stopped after \(Limits.maximumErrors)", at: range,
      help: ["fix the warnings above and check again"])
  }

  /// `PC199`: more errors than ``Limits/maximumErrors``; the range is the first one left out.
  static func tooManyErrors(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyErrors, "too many errors; stopped after \(Limits.maximumErrors)", at: range,
      help: ["fix the errors above and check again"])
  }
}

/// The cap on the diagnostics of one severity reported for one file: the one place the cap is
/// applied, by ``DiagnosticBag`` (the compiler's errors and warnings) and by
/// ``PolicyAnalyzer/merge(_:_:)`` (the analyzer's and the checks' warnings, counted with the
/// compiler's). Grammar.md §7 documents it.
///
/// ``Limits/maximumErrors`` diagnostics are admitted; the next one is replaced by the cap's
/// marker (``DiagnosticBag/tooManyErrors(at:)``, `PC199`, or
/// ``DiagnosticBag/tooManyWarnings(at:)``, `PC399`) at its range, and the rest are dropped.
package struct DiagnosticCap: Sendable {
  /// What happens to one diagnostic.
  package enum Outcome: Equatable {
    /// It is reported.
    case admitted
    /// It is the first past the cap: the marker is reported instead.
    case overflowed(marker: Diagnostic)
    /// The cap was passed before: it is not reported.
    case dropped
  }

  /// The severity capped.
  let severity: Severity
  /// The diagnostics admitted so far.
  private(set) var count: Int
  /// Whether the marker was given.
  private(set) var isPassed = false

  /// A cap on diagnostics of `severity`, `count` of them already admitted.
  package init(_ severity: Severity, count: Int = 0) {
    self.severity = severity
    self.count = count
  }

  /// Whether `diagnostic` (of the cap's severity) is admitted, replaced by the marker or dropped.
  package mutating func admit(_ diagnostic: Diagnostic) -> Outcome {
    if count < Limits.maximumErrors {
      count += 1
      return .admitted
    }
    guard !isPassed else { return .dropped }
    isPassed = true
    let marker =
      severity == .error
      ? DiagnosticBag.tooManyErrors(at: diagnostic.range) : DiagnosticBag.tooManyWarnings(at: diagnostic.range)
    return .overflowed(marker: marker)
  }

  /// The codes of the markers in the order they end a report: `PC399`, then `PC199`.
  static let markerCodes = [PolicyCoreCode.tooManyWarnings.code, PolicyCoreCode.tooManyErrors.code]
}

extension Diagnostic {
  /// Whether this is the marker of the cap on a file's diagnostics (`PC199` after
  /// ``Limits/maximumErrors`` errors, `PC399` after as many warnings): it says where reporting
  /// stopped rather than what is wrong, so it is not a problem to count.
  package var isCapMarker: Bool { DiagnosticCap.markerCodes.contains(code) }
}
