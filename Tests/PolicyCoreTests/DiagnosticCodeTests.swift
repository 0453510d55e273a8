import Testing

@testable import PolicyCore

/// Codes of a module other than PolicyCore, defined only for these tests (as PolicyTools defines
/// PC401-PC407 and ReviewPolicy PC320-PC322).
enum SampleToolCode: String, DiagnosticCodeDefinition {
  static let domain = "SampleTools"

  case brokenFixture = "PC901"
  case staleFixture = "PC902"

  var severity: Severity {
    switch self {
    case .brokenFixture: .error
    case .staleFixture: .warning
    }
  }

  var summary: String {
    switch self {
    case .brokenFixture: "broken fixture"
    case .staleFixture: "stale fixture"
    }
  }
}

/// Another test domain that reuses a PolicyCore spelling, to show that codes are told apart by domain.
enum ClashingCode: String, DiagnosticCodeDefinition {
  static let domain = "Clashing"

  case unknownName = "PC201"

  var severity: Severity {
    switch self {
    case .unknownName: .warning
    }
  }

  var summary: String {
    switch self {
    case .unknownName: "a clashing code"
    }
  }
}

@Suite("diagnostic codes: domains, severity, summaries")
struct DiagnosticCodeTests {
  @Test("a code of another domain carries its own severity and summary, and renders like any other")
  func foreignDomain() {
    let source = SourceFile(path: "cases.test.json", text: "{\"cases\": 3}\n")
    let error = Diagnostic(SampleToolCode.brokenFixture, "`cases` must be a list", at: SourceRange(start: 10, end: 11))
    let warning = Diagnostic(SampleToolCode.staleFixture, "fixture is older than its policy", at: .empty(at: 0))
    #expect(error.code.domain == "SampleTools")
    #expect(error.code.rawValue == "PC901")
    #expect(error.code.name == "brokenFixture")
    #expect(error.code.summary == "broken fixture")
    #expect(error.severity == .error)
    #expect(warning.severity == .warning)
    #expect(error.code == SampleToolCode.brokenFixture.code)
    #expect(error.code != warning.code)
    #expect([error, warning].hasErrors)
    #expect(
      DiagnosticRenderer().render([error, warning], in: source)
        == """
        cases.test.json:1:11: error: `cases` must be a list [PC901]
         1 | {"cases": 3}
           |           ^
        cases.test.json:1:1: warning: fixture is older than its policy [PC902]
         1 | {"cases": 3}
           | ^

        """)
  }

  @Test("codes are equal by domain and spelling: the same PCnnn of two domains differs")
  func equalityByDomain() {
    #expect(ClashingCode.unknownName.code != PolicyCoreCode.unknownName.code)
    let codes = [ClashingCode.unknownName.code, PolicyCoreCode.unknownName.code, PolicyCoreCode.unknownName.code]
    #expect(Set(codes).count == 2)
    #expect(PolicyCoreCode.unknownName.code == DiagnosticCode(PolicyCoreCode.unknownName))
  }

  @Test("severity comes from the code, whoever reports it")
  func severityFromCode() {
    let range = SourceRange.empty(at: 0)
    #expect(Diagnostic(PolicyCoreCode.unusedLet, "x", at: range).severity == .warning)
    #expect(Diagnostic(PolicyCoreCode.unknownName, "x", at: range).severity == .error)
    #expect(Diagnostic(ClashingCode.unknownName, "x", at: range).severity == .warning)
    for code in PolicyCoreCode.allCases {
      #expect(Diagnostic(code, "x", at: range).severity == code.severity)
    }
  }

  @Test("the bag caps another domain's warnings and errors by their codes' severity (PC399, PC199)")
  func bagCountsBySeverity() {
    var bag = DiagnosticBag()
    for offset in 0...Limits.maximumErrors {
      bag.report(Diagnostic(SampleToolCode.staleFixture, "stale", at: .empty(at: offset)))
    }
    #expect(bag.diagnostics.count == Limits.maximumErrors + 1)
    #expect(bag.diagnostics.last?.code == PolicyCoreCode.tooManyWarnings.code)
    #expect(!bag.hasErrors)
    for offset in 0...Limits.maximumErrors {
      bag.report(Diagnostic(SampleToolCode.brokenFixture, "broken", at: .empty(at: offset)))
    }
    #expect(bag.hasErrors && bag.isFull)
    #expect(bag.diagnostics.filter { $0.code == SampleToolCode.brokenFixture.code }.count == Limits.maximumErrors)
    #expect(bag.diagnostics.last?.code == PolicyCoreCode.tooManyErrors.code)
  }

  @Test("PolicyCore's codes: unique stable spellings, a summary each, warnings exactly the PC3xx but PC319")
  func policyCoreCodes() {
    let spellings = PolicyCoreCode.allCases.map(\.rawValue)
    #expect(Set(spellings).count == spellings.count)
    #expect(spellings.allSatisfy { $0.hasPrefix("PC") && $0.count == 5 && Int($0.dropFirst(2)) != nil })
    #expect(spellings == spellings.sorted())
    for code in PolicyCoreCode.allCases {
      #expect(!code.summary.isEmpty, "\(code.rawValue) has no summary")
      #expect(
        code.summary == code.summary.lowercased() || code.summary.contains("UTF-8") || code.summary.contains("JSON"))
      // PC319 (the policy never asks anyone) is the analyzer's one error.
      #expect((code.severity == .warning) == (code.rawValue.hasPrefix("PC3") && code != .neverAsks), "\(code.rawValue)")
      #expect(code.code.domain == "PolicyCore")
    }
  }

  @Test("DiagnosticCode's static members name PolicyCoreCode's cases")
  func staticMembersMirror() {
    #expect(PolicyCoreCode.allCases.map(\.code.name) == PolicyCoreCode.allCases.map { String(describing: $0) })
    #expect(DiagnosticCode.unknownName == PolicyCoreCode.unknownName.code)
    #expect(DiagnosticCode.tooManyWarnings == PolicyCoreCode.tooManyWarnings.code)
    #expect(DiagnosticCode.redundantComparison == PolicyCoreCode.redundantComparison.code)
    // Interpolation names the case.
    #expect(String(describing: DiagnosticCode.unknownName) == "unknownName")
    #expect(DiagnosticCode.unusedLet.severity == .warning && DiagnosticCode.unknownName.severity == .error)
    let unused = Diagnostic(PolicyCoreCode.unusedLet, "x", at: .empty(at: 0))
    #expect(Diagnostic(.unusedLet, "x", at: .empty(at: 0)) == unused)
    #expect(unused.severity == .warning)
    #expect(Diagnostic(.unknownName, "x", at: .empty(at: 0)).severity == .error)
    #expect(PolicyCoreCode(rawValue: "PC201")?.code == .unknownName)
    #expect(PolicyCoreCode(rawValue: "PC901") == nil)
  }
}
