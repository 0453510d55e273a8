import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// Applies the fix-its of a policy's diagnostics, one at a time, keeping only the fixes that
/// leave the policy better: `policyc check --fix` and the editor's "fix all".
///
/// A fix is kept when the fixed file has fewer syntax errors (a file that parses further is
/// checked further, so fixing its syntax may surface checking errors that the syntax error hid;
/// they get their own fixes), or else no more syntax errors and no more errors than before, and
/// fewer errors or fewer warnings. After each kept fix the file is checked again, so later fixes
/// see the new text; this repeats until no fix helps (a fixed point: syntax errors never grow,
/// so it ends), at most ``maximumChecks`` checks in all. Fixes that were tried and not kept are
/// not tried again. A file that parsed still parses after its fixes.
public struct PolicyFixer: Sendable {
  /// The diagnostics of a policy: what `policyc check` reports.
  public typealias Check = @Sendable (SourceFile) -> [Diagnostic]

  /// The check `policyc check` runs for an app that does not name its events: the compiler
  /// with ``PolicyEnvironment/standard``, then the analyzer's warnings.
  public static let standardCheck: Check = check(in: .standard)

  /// The check `policyc check` runs in `environment` (for example with the event names the app
  /// records, from its project file or `--events`): ``PolicyEnvironment/check(_:)``.
  public static func check(in environment: PolicyEnvironment) -> Check {
    { source in environment.check(source) }
  }

  /// The most checks one ``fix(_:)`` runs (the bound of the fixed-point iteration).
  public var maximumChecks: Int
  /// How a candidate is checked.
  public var check: Check

  /// Creates a fixer that checks with `check` and runs at most `maximumChecks` checks per file.
  public init(maximumChecks: Int = 256, check: @escaping Check = PolicyFixer.standardCheck) {
    self.maximumChecks = max(1, maximumChecks)
    self.check = check
  }

  /// Creates a fixer that checks as `policyc check` does in `environment`, running at most
  /// `maximumChecks` checks per file.
  public init(environment: PolicyEnvironment, maximumChecks: Int = 256) {
    self.init(maximumChecks: maximumChecks, check: PolicyFixer.check(in: environment))
  }

  /// One fix that was applied.
  public struct AppliedFix: Sendable, Hashable {
    /// The code of the diagnostic the fix belongs to.
    public var code: DiagnosticCode
    /// The fix's message, such as "replace `&&` with `and`".
    public var message: String
    /// Where the diagnostic was, in the file as it was just before this fix.
    public var location: SourceLocation
  }

  /// What ``fix(_:)`` did to one file.
  public struct Outcome: Sendable {
    /// The file as given.
    public var original: SourceFile
    /// The file with every kept fix applied (the original when none was).
    public var fixed: SourceFile
    /// The fixes kept, in the order they were applied.
    public var applied: [AppliedFix]
    /// The diagnostics of the original file.
    public var diagnosticsBefore: [Diagnostic]
    /// The diagnostics of the fixed file.
    public var diagnosticsAfter: [Diagnostic]
    /// Whether the iteration stopped at ``PolicyFixer/maximumChecks`` rather than at a fixed point.
    public var reachedBound: Bool

    /// Whether any fix was applied.
    public var changed: Bool { !applied.isEmpty }
  }

  /// How good a file is: fewer is better, compared in this order.
  struct Score: Comparable {
    var syntaxErrors: Int
    var errors: Int
    /// Where checking stopped at the cap on errors (`PC199`); `Int.max` when it did not stop. With as
    /// many errors as before, a later stop means a fix removed an error in front of the cap.
    var checkedUpTo: Int
    var warnings: Int

    init(_ source: SourceFile, _ diagnostics: [Diagnostic]) {
      syntaxErrors = Parser.parse(source).diagnostics.filter { $0.severity == .error }.count
      errors = diagnostics.filter { $0.severity == .error }.count
      checkedUpTo =
        diagnostics.first { $0.code == PolicyCoreCode.tooManyErrors.code }?.range.start ?? Int.max
      warnings = diagnostics.count - errors
    }

    static func < (lhs: Score, rhs: Score) -> Bool {
      (lhs.syntaxErrors, lhs.errors, rhs.checkedUpTo, lhs.warnings)
        < (rhs.syntaxErrors, rhs.errors, lhs.checkedUpTo, rhs.warnings)
    }

    /// Whether `self` (a candidate) is better than `current`: fewer syntax errors whatever the
    /// rest (the checker now sees what the syntax errors hid: `uses = 20` fixed to `uses == 20`
    /// lets it report the misspelt facts around it, with their own fixes), else worse in no way.
    func improves(on current: Score) -> Bool {
      if syntaxErrors < current.syntaxErrors { return true }
      return syntaxErrors <= current.syntaxErrors && errors <= current.errors && self < current
    }
  }

  /// A fix already tried and refused, recognised by what it says and the text it replaces.
  private struct Attempt: Hashable {
    var code: String
    var message: String
    var fix: String
    var edits: [String]
  }

  /// Applies the fix-its of `source`'s diagnostics that make it better; see ``PolicyFixer``.
  public func fix(_ source: SourceFile) -> Outcome {
    let before = check(source)
    var outcome = Outcome(
      original: source, fixed: source, applied: [], diagnosticsBefore: before, diagnosticsAfter: before,
      reachedBound: false)
    guard source.bytes.count <= Limits.maximumFileSize else { return outcome }
    var current = source
    var diagnostics = before
    var score = Score(source, before)
    var refused: Set<Attempt> = []
    var checks = 1
    search: while true {
      for diagnostic in diagnostics {
        // Only the fixes that repair what was written; suggestions that change the decisions stay for a person.
        for fixIt in diagnostic.fixIts where fixIt.isAutomatic {
          let attempt = Attempt(
            code: diagnostic.code.rawValue, message: diagnostic.message, fix: fixIt.message,
            edits: fixIt.edits.map { current.text(in: $0.range) + "\u{0}" + $0.replacement })
          guard !refused.contains(attempt) else { continue }
          guard checks < maximumChecks else {
            outcome.reachedBound = true
            break search
          }
          guard case .success(let bytes) = fixIt.apply(to: current.bytes), bytes != current.bytes else {
            refused.insert(attempt)
            continue
          }
          let candidate = SourceFile(path: current.path, bytes: bytes)
          let candidateDiagnostics = check(candidate)
          checks += 1
          let candidateScore = Score(candidate, candidateDiagnostics)
          guard candidateScore.improves(on: score) else {
            refused.insert(attempt)
            continue
          }
          outcome.applied.append(
            AppliedFix(
              code: diagnostic.code, message: fixIt.message, location: current.location(of: diagnostic.range.start)))
          current = candidate
          diagnostics = candidateDiagnostics
          score = candidateScore
          continue search
        }
      }
      break
    }
    outcome.fixed = current
    outcome.diagnosticsAfter = diagnostics
    return outcome
  }
}
