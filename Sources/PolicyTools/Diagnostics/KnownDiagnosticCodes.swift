import PolicyCore
import ReviewPolicy

/// Every diagnostic code the tools can report, of every module's domain: PolicyCore's
/// (``PolicyCoreCode``), ReviewPolicy's (``ReviewPolicyCode``) and PolicyTools' own
/// (``PolicyToolsCode``).
package enum KnownDiagnosticCodes {
  /// Every code, sorted by its stable spelling (`PC100` first).
  package static let all: [DiagnosticCode] =
    (PolicyCoreCode.allCases.map(\.code) + ReviewPolicyCode.allCases.map(\.code) + PolicyToolsCode.allCases.map(\.code))
    .sorted { $0.rawValue < $1.rawValue }

  /// The code spelled `rawValue`, such as `PC201`, of whichever domain defines it.
  package static func code(_ rawValue: String) -> DiagnosticCode? {
    all.first { $0.rawValue == rawValue }
  }
}
