/// The hard limits the language enforces on a policy file, each reported as a located error.
///
/// They keep every phase bounded in time, memory and stack depth whatever the input. Grammar.md
/// lists the same numbers. They are the limits of ``PolicyLimits/file``; a host that compiles
/// text from elsewhere (a remote update, say) can pass tighter ``PolicyLimits`` to the compiler.
public enum Limits {
  /// The largest policy file, in bytes (2 MiB).
  public static let maximumFileSize = 2 * 1024 * 1024
  /// The deepest expression nesting. A chain of `and` or `or` counts as one level.
  public static let maximumNestingDepth = 64
  /// The longest identifier, in bytes.
  public static let maximumIdentifierLength = 128
  /// The longest string literal, in bytes after escapes are resolved.
  public static let maximumStringLength = 4096
  /// The most declarations (`fact`, `let` and rules together) in one file.
  public static let maximumDeclarations = 65_536
  /// The most elements in one list literal.
  public static let maximumListLength = 4096
  /// The most errors, and separately the most warnings, reported for one file: the one number of
  /// the cap on diagnostics, which `DiagnosticCap` applies to the compiler's diagnostics and to
  /// the analyzer's and the checks' warnings together, each severity ending with its marker
  /// (`Diagnostic.isCapMarker`: `PC199`, `PC399`).
  public static let maximumErrors = 100
}
