/// A place in the file that explains a ``Diagnostic``, such as where a name was first defined.
///
/// Rendered after the diagnostic's excerpt and help lines, like a compiler's note:
///
/// ```
/// app.policy:1:5: note: `loyal` is first defined here
///  1 | ask loyal when days >= 30
///    |     ^~~~~
/// ```
public struct DiagnosticNote: Sendable, Hashable {
  /// The one-line message, written like a diagnostic's: lowercase, no final period.
  public var message: String
  /// The bytes the note points at, in the same file as the diagnostic.
  public var range: SourceRange

  /// Creates a note.
  public init(_ message: String, at range: SourceRange) {
    self.message = message
    self.range = range
  }
}
