import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// `AnalyzerMessages` writes every warning the analyzer's logic checks give: each case analyses a
/// policy and compares the analyzer's warning with the factory's, made at the same range.
@Suite("analyzer messages: the factories match the analyzer's warnings")
struct AnalyzerMessagesTests {
  /// Analyses `text` (which must compile) and expects exactly one warning with the factory's
  /// code, equal to the factory's warning at its range.
  static func expect(
    _ text: String, _ make: (SourceRange) -> Diagnostic, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let compilation = PolicyCompiler.compile(text, path: "test.policy", schema: CheckerMessagesTests.schema)
    #expect(!compilation.diagnostics.hasErrors, "\(text)", sourceLocation: sourceLocation)
    let code = make(.empty(at: 0)).code
    let matching = PolicyAnalyzer.warnings(for: compilation).filter { $0.code == code }
    #expect(matching.count == 1, "\(text): \(matching.map(\.message))", sourceLocation: sourceLocation)
    guard let actual = matching.first else { return }
    #expect(actual == make(actual.range), "\(text)", sourceLocation: sourceLocation)
  }

  @Test("PC313, PC314: comparisons within one chain")
  func comparisons() {
    Self.expect("ask when days > 10 and days < 5") {
      AnalyzerMessages.contradiction("`days < 5`", "`days > 10`", fact: "`days`", at: $0)
    }
    Self.expect("ask when days > 5 or days < 10") {
      AnalyzerMessages.tautology("`days > 5`", "`days < 10`", fact: "`days`", at: $0)
    }
    Self.expect("ask when days > 10 and days > 5") {
      AnalyzerMessages.impliedComparison("`days > 5`", by: "`days > 10`", at: $0)
    }
    Self.expect("ask when days > 10 or days > 5") {
      AnalyzerMessages.coveredComparison("`days > 10`", by: "`days > 5`", at: $0)
    }
  }

  @Test("PC315, PC316, PC317: silencing comments are checked")
  func silencingComments() throws {
    let logic = PolicyAnalyzer.logicCodes.map(\.rawValue)
    Self.expect("# policyc: alow PC314\nask when days > 10") { AnalyzerMessages.unknownDirective("alow", at: $0) }
    Self.expect("ask when days > 10  # policyc: allow PC302") {
      AnalyzerMessages.unsilenceableCode(PolicyCoreCode.unusedLet.code, silenceable: logic, at: $0)
    }
    Self.expect("# policyc: allow PC310\nask when days > 10") {
      AnalyzerMessages.unusedAllow("PC310", fix: .delete(SourceRange(start: 0, end: 23)), at: $0)
    }
    Self.expect("ask when days > 10 and days > 5  # policyc: allow PC314, PC310 because") {
      AnalyzerMessages.unusedAllow("PC310", fix: .delete(SourceRange(start: 55, end: 62)), at: $0)
    }
    // Codes of other domains are known only through the checks; with a check, unknown ones are reported.
    let quiet = AnalysisCheck(name: "quiet", codes: []) { _ in }
    let compilation = PolicyCompiler.compile(
      "ask when days > 10  # policyc: allow PC999, pc314", path: "test.policy", schema: CheckerMessagesTests.schema)
    let warnings = PolicyAnalyzer.warnings(for: compilation, checks: [quiet])
    // `pc314` is a misspelt code (PC309, with or without checks), not an unknown one.
    let misspelt = AnalyzerMessages.misspeltSilencingComment(
      "# policyc: allow PC999, pc314", misspelt: [("pc314", "PC314")], corrected: "# policyc: allow PC999, PC314",
      at: SourceRange(start: 20, end: 49))
    #expect(
      warnings == [
        misspelt,
        AnalyzerMessages.unknownAllowedCode("PC999", silenceable: logic, at: SourceRange(start: 37, end: 42)),
      ])
    #expect(warnings.first?.help == ["write `# policyc: allow PC999, PC314`"])
    #expect(PolicyAnalyzer.warnings(for: compilation) == [misspelt], "without checks, unknown codes are not judged")
  }

  @Test("PC309: a comment meant to silence but spelt otherwise silences nothing and says how to spell it")
  func misspeltSilencingComments() {
    let cases: [(comment: String, misspelt: [(String, String)], corrected: String)] = [
      ("# policy: allow PC310", [], "# policyc: allow PC310"),
      ("# policyc allow PC310", [], "# policyc: allow PC310"),
      ("# Policyc: Allow PC310 because", [], "# policyc: allow PC310 because"),
      ("# policy allow pc310", [], "# policyc: allow PC310"),
      ("# policyc: allow PC 310", [("PC 310", "PC310")], "# policyc: allow PC310"),
      (
        "# policyc: allow pc310, PC 311 as planned", [("pc310", "PC310"), ("PC 311", "PC311")],
        "# policyc: allow PC310, PC311 as planned"
      ),
    ]
    for (comment, misspelt, corrected) in cases {
      Self.expect("\(comment)\nask when days > 10 and days < 5") {
        AnalyzerMessages.misspeltSilencingComment(comment, misspelt: misspelt, corrected: corrected, at: $0)
      }
    }
    // Prose is not a near miss: no code follows `allow`.
    let prose = PolicyCompiler.compile(
      "# policy: allow users to say no\nask when days > 10", path: "test.policy", schema: CheckerMessagesTests.schema)
    #expect(PolicyAnalyzer.warnings(for: prose).isEmpty)
  }

  @Test("PC310, PC311, PC312: whole rules")
  func rules() {
    Self.expect("let big = days > 10\nask when big and days < 5") {
      AnalyzerMessages.ruleNeverHolds("the ask rule at line 2", kind: .ask, at: $0)
    }
    Self.expect("let big = days > 10\nnever when big and days < 5\nask when score > 1.0") {
      AnalyzerMessages.ruleNeverHolds("the never rule at line 2", kind: .never, at: $0)
    }
    Self.expect("let some = days >= 0\nnever when some or days < 0\nask when score > 1.0") {
      AnalyzerMessages.neverRuleAlwaysHolds("the never rule at line 2", at: $0)
    }
    Self.expect("let some = days >= 0\nask loyal when some or days < 0") {
      AnalyzerMessages.askRuleAlwaysHolds("ask rule `loyal`", explicitForm: "ask loyal when true", at: $0)
    }
    Self.expect("never when days > 5\nask when days > 10") {
      AnalyzerMessages.askRuleShadowed("the ask rule at line 2", by: "the never rule at line 1", at: $0)
    }
    Self.expect("never when days > 5\nnever when days < 0\nask when days > 10 or days < -1") {
      AnalyzerMessages.askRuleShadowed(
        "the ask rule at line 3", byOneOf: ["the never rule at line 1", "the never rule at line 2"], at: $0)
    }
  }

  @Test("notes: a policy too large to analyse")
  func notes() {
    let compilation = PolicyCompiler.compile(
      "ask when days > 3", path: "test.policy", schema: CheckerMessagesTests.schema)
    guard let policy = compilation.policy else {
      Issue.record("\(compilation.diagnostics)")
      return
    }
    let report = PolicyAnalyzer.analyze(policy, options: AnalysisOptions(maximumConditions: 1))
    #expect(report.notes == [AnalyzerMessages.tooLargeNote(size: Analysis.size(of: policy), limit: 1)])
    #expect(AnalyzerMessages.inconclusiveNote(count: 1).hasPrefix("1 check was too complex"))
    #expect(AnalyzerMessages.inconclusiveNote(count: 2).hasPrefix("2 checks were too complex"))
  }
}
