import PolicyCore

/// Located problems in an input file (a facts file, a test file), as an error.
public struct Problems: Error, Sendable {
  /// The problems, each located in the file.
  public var diagnostics: [Diagnostic]

  /// Wraps `diagnostics`.
  public init(_ diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }
}
