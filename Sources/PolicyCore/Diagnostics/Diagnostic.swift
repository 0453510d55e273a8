/// How serious a ``Diagnostic`` is.
public enum Severity: String, Sendable, Hashable, Codable {
  /// The policy cannot be used until this is fixed.
  case error
  /// The policy works, but probably not as its author meant.
  case warning
}

/// One problem found in a policy, located by a ``SourceRange``.
///
/// Messages are lowercase, have no final period and name the offending text
/// in backticks. Advice goes into ``help`` lines, never into the message; other
/// places that explain it (where a name was first defined) go into ``notes``.
/// The ``severity`` follows from the ``code``. Each phase writes its messages in
/// one file of factories (`LexerMessages`, `ParserMessages`, `CheckerMessages`).
public struct Diagnostic: Sendable, Hashable {
  /// The stable code, for example `PC201`, of any module's domain.
  public var code: DiagnosticCode
  /// The one-line message.
  public var message: String
  /// The bytes the diagnostic points at; the renderer puts a caret under them.
  public var range: SourceRange
  /// Advice lines shown after the source excerpt, each rendered as `help: ...`.
  public var help: [String]
  /// Other places in the same file that explain the diagnostic, each rendered after it with
  /// its own location and excerpt, as `PATH:LINE:COL: note: ...`.
  public var notes: [DiagnosticNote]
  /// Machine-applicable fixes, each a set of edits to the file. The renderer does not show them.
  public var fixIts: [FixIt]

  /// Whether this is an error or a warning: the code's severity.
  public var severity: Severity { code.severity }

  /// Creates a diagnostic; its severity is the code's.
  public init(
    _ code: DiagnosticCode, _ message: String, at range: SourceRange, help: [String] = [],
    notes: [DiagnosticNote] = [], fixIts: [FixIt] = []
  ) {
    self.code = code
    self.message = message
    self.range = range
    self.help = help
    self.notes = notes
    self.fixIts = fixIts
  }

  /// Creates a diagnostic with a code of any module, such as `PolicyCoreCode.unknownName`.
  public init(
    _ code: some DiagnosticCodeDefinition, _ message: String, at range: SourceRange, help: [String] = [],
    notes: [DiagnosticNote] = [], fixIts: [FixIt] = []
  ) {
    self.init(code.code, message, at: range, help: help, notes: notes, fixIts: fixIts)
  }
}

extension Array where Element == Diagnostic {
  /// Whether any element is an error.
  package var hasErrors: Bool { contains { $0.severity == .error } }

  /// The elements sorted by position, errors before warnings at the same position.
  package func sortedByPosition() -> [Diagnostic] {
    // Stable: diagnostics at one position keep their order.
    stablySorted { $0.range.start < $1.range.start }
  }
}
