/// A module's diagnostic codes: an enum with one case per code, in the manner of swift-syntax's
/// `MessageID(domain:id:)`.
///
/// Each module that reports diagnostics defines its own codes, with their severity and summary,
/// and names itself in ``domain``:
///
/// ```swift
/// enum PolicyToolsCode: String, DiagnosticCodeDefinition {
///   static let domain = "PolicyTools"
///   case invalidJSON = "PC401"
///
///   var severity: Severity {
///     switch self {
///     case .invalidJSON: .error
///     }
///   }
///
///   var summary: String {
///     switch self {
///     case .invalidJSON: "invalid JSON"
///     }
///   }
/// }
/// ```
///
/// A ``Diagnostic`` stores the ``code`` of a case, a ``DiagnosticCode``, so it needs to know
/// nothing of the module that defined it. Raw values keep the stable `PCnnn` spelling that
/// users see and name in `# policyc: allow` comments; each range of numbers belongs to one
/// domain, and a published code never changes meaning. Write ``severity`` and ``summary`` as
/// switches without `default:`, so a new case cannot be added without them.
public protocol DiagnosticCodeDefinition: RawRepresentable, CaseIterable, Sendable, Hashable
where RawValue == String {
  /// The module that defines the codes, such as `PolicyCore`.
  static var domain: String { get }
  /// Whether diagnostics with this code are errors or warnings; decided here, never by the reporter.
  var severity: Severity { get }
  /// A short title for the code, such as "unknown name" (for SARIF rules and the documentation).
  var summary: String { get }
}

extension DiagnosticCodeDefinition {
  /// The code as a ``Diagnostic`` stores it.
  public var code: DiagnosticCode { DiagnosticCode(self) }
}
