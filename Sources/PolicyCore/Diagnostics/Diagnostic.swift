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
/// in backticks. Advice goes into ``help`` lines, never into the message.
public struct Diagnostic: Sendable, Hashable {
  /// Whether this is an error or a warning.
  public var severity: Severity
  /// The stable code, for example `PC201`.
  public var code: DiagnosticCode
  /// The one-line message.
  public var message: String
  /// The bytes the diagnostic points at; the renderer puts a caret under them.
  public var range: SourceRange
  /// Advice lines shown after the source excerpt, each rendered as `help: ...`.
  public var help: [String]

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ code: DiagnosticCode, _ message: String, at range: SourceRange,
    help: [String] = []
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.range = range
    self.help = help
  }

  /// Creates an error.
  public static func error(
    _ code: DiagnosticCode, _ message: String, at range: SourceRange, help: [String] = []
  ) -> Diagnostic {
    Diagnostic(.error, code, message, at: range, help: help)
  }

  /// Creates a warning.
  public static func warning(
    _ code: DiagnosticCode, _ message: String, at range: SourceRange, help: [String] = []
  ) -> Diagnostic {
    Diagnostic(.warning, code, message, at: range, help: help)
  }
}

extension Array where Element == Diagnostic {
  /// Whether any element is an error.
  public var hasErrors: Bool { contains { $0.severity == .error } }

  /// The elements sorted by position, errors before warnings at the same position.
  public func sortedByPosition() -> [Diagnostic] {
    enumerated().sorted { lhs, rhs in
      if lhs.element.range.start != rhs.element.range.start {
        return lhs.element.range.start < rhs.element.range.start
      }
      return lhs.offset < rhs.offset
    }.map(\.element)
  }
}
