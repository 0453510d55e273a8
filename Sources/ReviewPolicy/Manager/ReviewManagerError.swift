/// Why a manager could not be created.
public enum ReviewManagerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The bundled policy has errors (the rendered diagnostics). This is a bug in the app.
  case invalidBundledPolicy(String)
  /// The guardrails have errors or an `ask` rule (the rendered diagnostics). This is a bug in the app.
  case invalidGuardrails(String)

  /// A description with the diagnostics.
  public var description: String {
    switch self {
    case .invalidBundledPolicy(let diagnostics): "the bundled policy does not compile:\n\(diagnostics)"
    case .invalidGuardrails(let diagnostics): "the guardrails do not compile:\n\(diagnostics)"
    }
  }
}
