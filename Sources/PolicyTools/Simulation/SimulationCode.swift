import PolicyCore

/// The diagnostic codes of `policyc simulate`'s inputs.
///
/// Transitional: PC408 belongs with PC401-PC407 in the PolicyTools range; when those move into a
/// `PolicyToolsCode` enum, this case moves there with its spelling unchanged.
public enum SimulationCode: String, DiagnosticCodeDefinition {
  /// The module that defines the codes.
  public static let domain = "PolicyTools"

  /// A behaviour file that is valid JSON but not a behaviour model: an unknown key, a value
  /// of the wrong kind or out of range, shares that do not add up.
  case invalidBehaviour = "PC408"

  /// Every code here is an error.
  public var severity: Severity {
    switch self {
    case .invalidBehaviour: .error
    }
  }

  /// A short title for the code.
  public var summary: String {
    switch self {
    case .invalidBehaviour: "invalid behaviour file"
    }
  }
}
