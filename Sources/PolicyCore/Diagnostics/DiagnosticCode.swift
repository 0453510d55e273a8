/// The stable code of a ``Diagnostic``, such as `PC201`, with what it implies: the module that
/// defined it, its severity and its summary.
///
/// Each module defines its codes as an enum conforming to ``DiagnosticCodeDefinition``
/// (PolicyCore's are `PolicyCoreCode`); `DiagnosticCode` wraps one of its cases, so a
/// diagnostic can carry a code of any module. It holds only the case, not copies of its
/// strings, and is cheap to make.
///
/// Two codes are equal when they have the same ``domain`` and ``rawValue``.
public struct DiagnosticCode: Sendable, Hashable, CustomStringConvertible {
  /// The case that defines the code.
  public let definition: any DiagnosticCodeDefinition

  /// Wraps a case of a module's codes.
  @inline(never)
  public init(_ definition: some DiagnosticCodeDefinition) {
    self.definition = definition
  }

  /// The module that defines the code, such as `PolicyCore`.
  public var domain: String { type(of: definition).domain }

  /// The stable spelling, such as `PC201`.
  public var rawValue: String { definition.rawValue }

  /// The Swift name of the code's case, such as `unknownName`; SARIF writes it in Pascal case as
  /// the rule's name.
  public var name: String { String(describing: definition) }

  /// Whether diagnostics with this code are errors or warnings.
  public var severity: Severity { definition.severity }

  /// A short title for the code, such as "unknown name" (for SARIF rules and documentation).
  public var summary: String { definition.summary }

  /// The case ``name``, such as `unknownName`, so interpolating a code in a message or a test
  /// name reads as the case does.
  public var description: String { name }

  /// Whether two codes have the same domain and spelling.
  public static func == (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool {
    lhs.rawValue == rhs.rawValue && lhs.domain == rhs.domain
  }

  /// Hashes the domain and the spelling.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(domain)
    hasher.combine(rawValue)
  }
}
