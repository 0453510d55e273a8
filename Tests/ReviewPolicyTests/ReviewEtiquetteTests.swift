import Foundation
import ReliabilitySupport
import Testing

@testable import PolicyAnalysis
@testable import PolicyCore
@testable import ReviewAnalysis
@testable import ReviewPolicy

// The review-etiquette checks (PC320-PC322) run through the analyzer's hook.

/// Compiles `text` against the standard schema and requires success.
func etiquetteCompiled(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
  -> CompiledPolicy
{
  let compilation = PolicyCompiler.compile(text, path: "test.policy", schema: ReviewSchema.standard)
  let errors = compilation.diagnostics.filter { $0.severity == .error }
  #expect(errors.isEmpty, "unexpected errors: \(errors.map(\.message))", sourceLocation: sourceLocation)
  return try #require(compilation.policy, sourceLocation: sourceLocation)
}

/// Analyses `text` (which must compile) with the standard schema and the etiquette checks.
func analyzed(
  _ text: String, options: AnalysisOptions = .all, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (report: AnalysisReport, policy: CompiledPolicy) {
  let policy = try etiquetteCompiled(text, sourceLocation: sourceLocation)
  return (PolicyAnalyzer.analyze(policy, options: options, checks: ReviewEtiquette.checks), policy)
}

/// A warning as `code line:column message`.
func describedWarning(_ diagnostic: Diagnostic, in policy: CompiledPolicy) -> String {
  let location = policy.source.location(of: diagnostic.range.start)
  return "\(diagnostic.code.rawValue) \(location.line):\(location.column) \(diagnostic.message)"
}

/// The warnings of `text` with the given codes, described.
func analyzerWarnings(
  _ text: String, codes: Set<DiagnosticCode>? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> [String] {
  let (report, policy) = try analyzed(text, sourceLocation: sourceLocation)
  return report.warnings.filter { codes?.contains($0.code) ?? true }.map { describedWarning($0, in: policy) }
}

let etiquetteCodes = Set(ReviewPolicyCode.allCases.map(\.code))

/// The never rules that make a policy polite.
let polite = """
  never answered when declined or rated
  never too_soon when since(last_prompt) < 8w
  never yearly_cap when prompts_within(365d) >= 3

  """

@Suite("analyzer: review etiquette")
struct AnalyzerEtiquetteTests {
  /// Evaluates the witness of every etiquette finding: the policy must ask through the rule.
  func expectVerifiedWitnesses(
    _ report: AnalysisReport, _ policy: CompiledPolicy, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    for finding in report.findings where etiquetteCodes.contains(finding.diagnostic.code) {
      guard let witness = finding.witness else {
        Issue.record("\(finding.diagnostic.code.rawValue) has no witness", sourceLocation: sourceLocation)
        continue
      }
      let decision = policy.decide(witness.facts(for: policy))
      #expect(decision.shouldAsk, sourceLocation: sourceLocation)
      let rule = policy.rules.firstIndex { $0.range == finding.owner }
      #expect(rule.map(decision.decidingRules.contains) == true, sourceLocation: sourceLocation)
    }
  }

  @Test("PC320: a policy that does not check `rated` can ask a user who rated; the example asks")
  func asksAfterRating() throws {
    let text =
      "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30 and not declined\n"
    let (report, policy) = try analyzed(text)
    #expect(
      report.warnings.map { describedWarning($0, in: policy) } == [
        "PC320 3:1 ask rule `loyal` can ask a user who rated this version"
      ])
    #expect(
      report.warnings[0].help == [
        "for example when `days` = 30, `declined` = false, `rated` = true",
        "respect the answer, as `never answered when declined or rated` does",
      ])
    let witness = try #require(report.findings[0].witness)
    #expect(witness.fact(named: "rated")?.value == .bool(true))
    #expect(witness.fact(named: "rated_any")?.value == .bool(true))
    expectVerifiedWitnesses(report, policy)
  }

  @Test("PC320: declined or rated; `declined_any` and `rated_any` also stop it")
  func declinedOrRated() throws {
    let text =
      "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30\n"
    #expect(
      try analyzerWarnings(text) == ["PC320 3:1 ask rule `loyal` can ask a user who declined or rated this version"])
    let anyVersion =
      "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nnever answered when declined_any or rated_any\nask loyal when days >= 30\n"
    #expect(try analyzerWarnings(anyVersion) == [])
  }

  @Test("PC321: asking again within 7 days; the example's last prompt is a day old")
  func asksTooSoon() throws {
    let text =
      "never answered when declined or rated\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30\n"
    let (report, policy) = try analyzed(text)
    #expect(
      report.warnings.map { describedWarning($0, in: policy) } == [
        "PC321 3:1 ask rule `loyal` can ask again within 7 days of the last prompt"
      ])
    #expect(
      report.warnings[0].help == [
        "for example when `days` = 30, the last prompt was 1d ago",
        "wait at least 7 days after a prompt, as `never too_soon when since(last_prompt) < 8w` does",
      ])
    expectVerifiedWitnesses(report, policy)
  }

  @Test("PC321: any wait of at least 7 days is enough; a shorter one is not")
  func waitLength() throws {
    let base =
      "never answered when declined or rated\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30\n"
    #expect(try analyzerWarnings(base + "never too_soon when since(last_prompt) < 7d\n") == [])
    #expect(try analyzerWarnings(base + "never too_soon when since(last_prompt) < 1w\n") == [])
    #expect(
      try analyzerWarnings(base + "never too_soon when since(last_prompt) <= 6d\n", codes: etiquetteCodes) == [
        "PC321 3:1 ask rule `loyal` can ask again within 7 days of the last prompt"
      ])
    // Counting recent prompts works as well as measuring the time since the last one.
    #expect(try analyzerWarnings(base + "never too_soon when prompts_within(30d) > 0\n") == [])
    #expect(
      try analyzerWarnings(base + "never too_soon when prompts_within(3d) > 0\n", codes: etiquetteCodes) == [
        "PC321 3:1 ask rule `loyal` can ask again within 7 days of the last prompt"
      ])
  }

  @Test("PC322: no cap on prompts in 365 days")
  func asksTooOften() throws {
    let text =
      "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\nask loyal when days >= 30\n"
    let (report, policy) = try analyzed(text)
    #expect(
      report.warnings.map { describedWarning($0, in: policy) } == [
        "PC322 3:1 ask rule `loyal` can ask after 3 prompts in 365 days"
      ])
    #expect(
      report.warnings[0].help == [
        "for example when `days` = 56, 3 prompts were shown in 365 days, the last 8w ago",
        "no condition of the policy bounds the number of prompts in 365 days",
        "cap the prompts, as `never yearly_cap when prompts_within(365d) >= 3` does",
      ])
    expectVerifiedWitnesses(report, policy)
  }

  @Test("PC322: caps that work and caps that do not")
  func caps() throws {
    let base =
      "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\nask loyal when days >= 30\n"
    for cap in [
      "never cap when prompts_within(365d) >= 3", "never cap when prompts_within(400d) > 2",
      "never cap when total_prompts >= 3", "never cap when since(last_prompt) < 366d",
    ] {
      #expect(try analyzerWarnings(base + cap) == [], "\(cap)")
    }
    for cap in [
      "never cap when prompts_within(365d) >= 4", "never cap when prompts_within(30d) >= 3",
      "never cap when prompts >= 3",
    ] {
      let (report, policy) = try analyzed(base + cap)
      #expect(report.warnings.map(\.code) == [ReviewPolicyCode.asksTooOften.code], "\(cap)")
      #expect(
        !report.warnings[0].help.contains("no condition of the policy bounds the number of prompts in 365 days"),
        "\(cap)")
      expectVerifiedWitnesses(report, policy)
    }
  }

  @Test("a policy that never asks has no etiquette warnings; rules are checked one by one")
  func perRule() throws {
    #expect(try analyzerWarnings("never when declined") == [])
    let text =
      polite.replacingOccurrences(of: "never answered when declined or rated\n", with: "")
      + "ask a when days >= 30 and not declined and not rated\nask b when uses >= 20\n"
    #expect(try analyzerWarnings(text) == ["PC320 4:1 ask rule `b` can ask a user who declined or rated this version"])
  }

  @Test("the shipped example review.policy has no warnings")
  func reviewExample() throws {
    let text = try String(contentsOf: Examples.url("review.policy"), encoding: .utf8)
    let (report, _) = try analyzed(text)
    #expect(report.warnings == [])
    #expect(report.notes == [])
  }

  @Test(
    "the other shipped examples reproduce libraries that do not space or cap prompts",
    arguments: [
      ("appirater.policy", ["PC321 21:1", "PC322 21:1"]),
      ("appirater-alert.policy", ["PC321 19:1", "PC322 19:1"]),
      ("armchair.policy", ["PC321 18:1", "PC322 18:1"]),
      ("one-liner.policy", ["PC320 1:1", "PC321 1:1", "PC322 1:1"]),
      ("rate-our-app.policy", ["PC321 11:1", "PC322 11:1"]),
      ("reviewkit.policy", ["PC320 24:1", "PC322 24:1"]),
    ])
  func otherExamples(name: String, expected: [String]) throws {
    let shipped = try String(contentsOf: Examples.url(name), encoding: .utf8)
    // The library reproductions silence these warnings on purpose: they are what the libraries do.
    let (silenced, _) = try analyzed(shipped)
    #expect(silenced.warnings.isEmpty == (name != "one-liner.policy"))
    // Without the silencing comment the analyzer finds them.
    let text = shipped.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains("policyc: allow") }.joined(separator: "\n")
    let (report, policy) = try analyzed(text)
    #expect(report.warnings.map { String(describedWarning($0, in: policy).prefix(expected[0].count)) } == expected)
    #expect(report.warnings.allSatisfy { etiquetteCodes.contains($0.code) })
    expectVerifiedWitnesses(report, policy)
  }
}

/// The `Examples/` directory of the package.
enum Examples {
  static func url(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples").appendingPathComponent(name)
  }
}

@Suite("analyzer: silencing etiquette warnings, the search budget")
struct EtiquetteSilencingTests {
  let unpolite = "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\n"

  @Test("a comment on the rule's line or alone on the line above silences the named code")
  func silences() throws {
    let above = unpolite + "# policyc: allow PC320\nask loyal when days >= 30\n"
    let (report, _) = try analyzed(above)
    #expect(report.warnings == [])
    #expect(report.silenced.map(\.diagnostic.code) == [ReviewPolicyCode.asksAfterAnswer.code])
    #expect(try analyzerWarnings(unpolite + "ask loyal when days >= 30  # policyc: allow PC320\n") == [])
    #expect(try analyzerWarnings(unpolite + "ask loyal when days >= 30  #policyc:allow PC320\n") == [])
  }

  @Test("only the named codes, only for that rule")
  func onlyNamed() throws {
    let text = "# policyc: allow PC321\nask a when days >= 30\nask b when days >= 40\n"
    #expect(
      try analyzerWarnings(text).map { String($0.prefix(9)) } == [
        "PC320 2:1", "PC322 2:1", "PC320 3:1", "PC321 3:1", "PC322 3:1",
      ])
    #expect(try analyzerWarnings("ask a when days >= 30 # policyc: allow PC320, PC321 PC322\n") == [])
  }

  @Test("a comment trailing the previous rule, or two lines above, does not silence")
  func placement() throws {
    let trailing =
      unpolite + "ask a when days >= 30 and not declined and not rated  # policyc: allow PC320\nask b when days >= 40\n"
    // The misplaced comments silence nothing, which is itself a warning (PC317).
    #expect(
      try analyzerWarnings(trailing) == [
        "PC317 3:72 `allow PC320` silences nothing here",
        "PC320 4:1 ask rule `b` can ask a user who declined or rated this version",
      ])
    let twoAbove = unpolite + "# policyc: allow PC320\n\nask b when days >= 40\n"
    #expect(
      try analyzerWarnings(twoAbove) == [
        "PC317 3:18 `allow PC320` silences nothing here",
        "PC320 5:1 ask rule `b` can ask a user who declined or rated this version",
      ])
    // A misspelt comment silences nothing either, and says how to spell it (PC309).
    let misspelt = unpolite + "# policyc allow PC320\nask b when days >= 40\n"
    #expect(
      try analyzerWarnings(misspelt) == [
        "PC309 3:1 `# policyc allow PC320` silences nothing: it is not spelt `# policyc: allow PCnnn`",
        "PC320 4:1 ask rule `b` can ask a user who declined or rated this version",
      ])
  }

  @Test("checks beyond the search budget are skipped with a note and PC318, never guessed")
  func budget() throws {
    let (report, _) = try analyzed("ask loyal when days >= 30", options: AnalysisOptions(searchSteps: 3))
    // No etiquette warning is guessed: the one warning says the analysis stopped.
    #expect(report.warnings.map(\.code) == [.analysisIncomplete])
    #expect(report.notes.count == 1)
    #expect(
      report.notes[0].contains("too complex to complete within the analysis limits; nothing is reported for"))
  }

  @Test("`check` without the etiquette checks gives no etiquette warning")
  func withoutChecks() throws {
    let policy = try etiquetteCompiled("ask loyal when days >= 30")
    #expect(PolicyAnalyzer.analyze(policy).warnings == [])
    #expect(try analyzerWarnings("ask loyal when days >= 30").count == 3)
  }

  @Test("random single policies: every etiquette example asks through its rule")
  func randomAnalyses() throws {
    var random = SeededGenerator(seed: 7)
    let atoms = [
      "days >= 30", "days < 10", "uses > 20", "declined", "not declined", "rated", "not rated",
      "since(last_prompt) < 7d", "since(last_prompt) >= 8w", "prompts_within(365d) >= 3", "prompts_within(30d) > 0",
      "total_prompts >= 3", "has last_reminder", "version > v2.0", "(average_score(3) ?? 0) >= 75",
    ]
    func condition() -> String {
      let count = Int.random(in: 1...3, using: &random)
      let joiner = Bool.random(using: &random) ? " and " : " or "
      return (0..<count).map { _ in atoms[Int.random(in: 0..<atoms.count, using: &random)] }.joined(separator: joiner)
    }
    var witnesses = 0
    for _ in 0..<150 {
      var rules = ["ask a when \(condition())"]
      if Bool.random(using: &random) { rules.append("never n when \(condition())") }
      if Bool.random(using: &random) { rules.append("ask b when \(condition())") }
      let (report, policy) = try analyzed(rules.joined(separator: "\n"))
      for finding in report.findings where etiquetteCodes.contains(finding.diagnostic.code) {
        let rule = policy.rules.firstIndex { $0.range == finding.owner }
        let witness = try #require(finding.witness)
        let decision = policy.decide(witness.facts(for: policy))
        #expect(decision.shouldAsk && rule.map(decision.decidingRules.contains) == true, "\(rules)")
        witnesses += 1
      }
    }
    #expect(witnesses >= 100)
  }
}

@Suite("ReviewPolicy's diagnostic codes")
struct ReviewPolicyCodeTests {
  @Test("PC320-PC322: the ReviewPolicy domain, warnings, stable spellings; the etiquette checks report them")
  func codes() throws {
    #expect(ReviewPolicyCode.allCases.map(\.rawValue) == ["PC320", "PC321", "PC322"])
    #expect(ReviewPolicyCode.allCases.allSatisfy { $0.severity == .warning && $0.code.domain == "ReviewPolicy" })
    #expect(
      ReviewPolicyCode.allCases.map(\.summary) == [
        "asks after a decline or rating", "asks again within 7 days", "asks more than 3 times in 365 days",
      ])
    #expect(Set(ReviewPolicyCode.allCases.map(\.rawValue)).isDisjoint(with: PolicyCoreCode.allCases.map(\.rawValue)))
    let (report, _) = try analyzed("ask loyal when days >= 30\n")
    #expect(report.warnings.map(\.code) == ReviewPolicyCode.allCases.map(\.code))
    #expect(report.warnings.allSatisfy { $0.code.domain == "ReviewPolicy" && $0.severity == .warning })
  }
}
