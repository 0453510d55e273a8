/// Collects the diagnostics of one file across phases and caps the number of errors.
///
/// After ``Limits/maximumErrors`` errors it records one `PC199` and ignores the
/// rest; after as many warnings, one `PC399` and no more warnings. A file of
/// random bytes gives a bounded report. A diagnostic counts as an error or a warning by its
/// code's severity, whatever module defined the code.
struct DiagnosticBag: Sendable {
  private(set) var diagnostics: [Diagnostic] = []
  private(set) var errorCount = 0
  private(set) var isFull = false

  private(set) var warningCount = 0

  mutating func report(_ diagnostic: Diagnostic) {
    guard !isFull else { return }
    if diagnostic.severity == .warning {
      warningCount += 1
      if warningCount == Limits.maximumErrors + 1 {
        diagnostics.append(Self.tooManyWarnings(at: diagnostic.range))
      }
      if warningCount > Limits.maximumErrors { return }
    }
    if diagnostic.severity == .error {
      if errorCount == Limits.maximumErrors {
        isFull = true
        diagnostics.append(Self.tooManyErrors(at: diagnostic.range))
        return
      }
      errorCount += 1
    }
    diagnostics.append(diagnostic)
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
