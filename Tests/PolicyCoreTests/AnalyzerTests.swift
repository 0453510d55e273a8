import Foundation
import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// Analyses `text` (which must compile) with the toy schema, running no extra checks.
func analyzed(
  _ text: String, options: AnalysisOptions = .all, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (report: AnalysisReport, policy: CompiledPolicy) {
  let policy = try compiled(text, sourceLocation: sourceLocation)
  return (PolicyAnalyzer.analyze(policy, options: options), policy)
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

let logicCodes: Set<DiagnosticCode> = [
  .ruleNeverHolds, .ruleAlwaysHolds, .shadowedAskRule, .contradictoryComparisons, .redundantComparison,
]

/// Three never rules that many tests share (a host's checks would ask for them; the core runs none).
let polite = """
  never answered when declined or rated
  never too_soon when since(last_prompt) < 8w
  never yearly_cap when prompts_within(365d) >= 3

  """

@Suite("analyzer: rules that never hold, always hold, or never decide")
struct AnalyzerRuleTests {
  @Test("PC310: an ask rule no facts satisfy")
  func askNeverHolds() throws {
    let text = polite + "let old = days > 30\nask loyal when old and days < 10\n"
    #expect(
      try analyzerWarnings(text) == [
        "PC310 5:1 ask rule `loyal` can never hold",
        "PC319 5:1 the policy never asks anyone: no facts a real user can have make it ask",
      ])
    let (report, _) = try analyzed(text)
    #expect(
      report.warnings[0].help == [
        "no facts satisfy its condition, so it never asks; check the comparisons or remove the rule"
      ])
    #expect(report.findings[0].witness == nil)
  }

  @Test("PC310: a never rule no facts satisfy, unnamed rules by line")
  func neverNeverHolds() throws {
    #expect(
      try analyzerWarnings(polite + "never when declined and not declined\nask when days > 3\n", codes: logicCodes) == [
        "PC310 4:1 the never rule at line 4 can never hold"
      ])
    #expect(
      try analyzerWarnings(
        polite + "never stale when since(last_reminder) < 1d and not has last_reminder\nask when days > 3\n")
        == ["PC310 4:1 never rule `stale` can never hold"])
  }

  @Test("PC311: an ask rule every set of facts satisfies, with the explicit form as advice")
  func askAlwaysHolds() throws {
    let text = polite + "let young = days < 10\nask always when young or days >= 10\n"
    #expect(try analyzerWarnings(text) == ["PC311 5:1 ask rule `always` always holds"])
    let (report, _) = try analyzed(text)
    #expect(
      report.warnings[0].help == [
        "every set of facts satisfies its condition, so the policy asks whenever no `never` rule holds",
        "if that is intended, write `ask always when true`",
      ])
  }

  @Test("PC311: a never rule that always holds means the policy never asks; no PC312 then")
  func neverAlwaysHolds() throws {
    #expect(
      try analyzerWarnings("never n when declined or not declined\nask a when days > 3\nask b when days > 5\n") == [
        "PC311 1:1 never rule `n` always holds, so the policy never asks",
        "PC319 2:1 the policy never asks anyone: no facts a real user can have make it ask",
      ])
  }

  @Test("literal constants, `has` of a fact never absent and empty lists are deliberate: no PC310/PC311")
  func constantsAreFree() throws {
    for text in [
      "ask when true", "never when false\nask when days > 3", "ask when has days", "ask when days in []",
      "ask when days not in []", "never when true\nask when days > 3", "ask when false",
    ] {
      #expect(try analyzerWarnings(polite + text, codes: logicCodes) == [], "\(text)")
    }
  }

  @Test("a bare condition is `the condition`")
  func bareCondition() throws {
    #expect(
      try analyzerWarnings("days >= -9223372036854775808", codes: logicCodes) == [
        "PC311 1:1 the condition always holds"
      ])
    #expect(
      try analyzerWarnings("declined and not declined") == [
        "PC310 1:1 the condition can never hold",
        "PC319 1:1 the policy never asks anyone: no facts a real user can have make it ask",
      ])
  }

  @Test("PC312: an ask rule one never rule always overrides")
  func shadowedBySingleRule() throws {
    let text = "never too_soon when since(last_prompt) < 8w\nask quick when since(last_prompt) < 1w\n"
    #expect(
      try analyzerWarnings(text, codes: logicCodes) == [
        "PC312 2:1 ask rule `quick` can never decide: whenever it holds, never rule `too_soon` holds too"
      ])
    let (report, _) = try analyzed(text)
    #expect(
      report.warnings.first { $0.code == .shadowedAskRule }?.help == [
        "a `never` rule always wins, so this rule never makes the policy ask; remove it or change the `never` rules"
      ])
  }

  @Test("PC312: an ask rule several never rules override together")
  func shadowedByRules() throws {
    let text =
      "never a when days < 10\nnever b when days > 20\nnever c when uses > 3\nask d when days < 5 or days > 25\n"
    #expect(
      try analyzerWarnings(text, codes: logicCodes) == [
        "PC312 4:1 ask rule `d` can never decide: whenever it holds, one of the never rules `a`, `b` holds"
      ])
  }

  @Test("a faulting never rule counts as holding: it shadows")
  func faultingNeverRuleShadows() throws {
    // When `days` is 0 the division faults, which counts as holding.
    let text = "never n when uses / days >= 0 or uses / days < 0\nask a when days == 0\n"
    #expect(
      try analyzerWarnings(text, codes: logicCodes) == [
        "PC312 2:1 ask rule `a` can never decide: whenever it holds, never rule `n` holds too"
      ])
  }

  @Test("no logic warning where opaque conditions might make the difference")
  func opaqueConditionsAreNotGuessed() throws {
    for text in [
      "ask when uses * 2 == 7",  // never true in fact, but arithmetic is not modelled
      "ask when uses / days > 3 and days > 0",
      "never n when version <= last_prompt_version ?? v0.0\nask a when has last_prompt_version and version > last_prompt_version",
    ] {
      #expect(try analyzerWarnings(polite + text, codes: logicCodes) == [], "\(text)")
    }
  }

  @Test("faults are modelled: a rule that holds only where it faults never holds")
  func faultsAreModelled() throws {
    // `uses > 2.5` converts `uses` to a number, which faults beyond 9223372036854.
    #expect(
      try analyzerWarnings(polite + "ask a when uses > 2.5 and uses > 9223372036854", codes: logicCodes) == [
        "PC310 4:1 ask rule `a` can never hold"
      ])
  }
}

@Suite("analyzer: contradictory and redundant comparisons")
struct AnalyzerComparisonTests {
  @Test("PC313: two comparisons of one fact that no value satisfies, in an `and`; no PC310 besides")
  func contradiction() throws {
    let text = polite + "ask when days > 30 and days < 10\n"
    #expect(
      try analyzerWarnings(text) == [
        "PC319 4:1 the policy never asks anyone: no facts a real user can have make it ask",
        "PC313 4:24 `days < 10` contradicts `days > 30`, so this `and` never holds",
      ])
    let (report, _) = try analyzed(text)
    #expect(report.warnings[1].help == ["no value of `days` satisfies both"])
    #expect(report.warnings[0].help.first == "the ask rule at line 4 can never hold")
  }

  @Test("PC313: two comparisons that cover every value, in an `or`")
  func tautology() throws {
    #expect(
      try analyzerWarnings(polite + "ask when days > 30 or days <= 30\n", codes: logicCodes) == [
        "PC313 4:23 `days > 30` or `days <= 30` covers every value of `days`, so this `or` always holds"
      ])
  }

  @Test("PC313 with since, versions, strings, lists and guarded optional facts")
  func contradictionKinds() throws {
    #expect(
      try analyzerWarnings(polite + "ask when since(first_use) >= 8w and since(first_use) < 56d\n", codes: logicCodes)
        == [
          "PC313 4:37 `since(first_use) < 56d` contradicts `since(first_use) >= 8w`, so this `and` never holds"
        ])
    #expect(
      try analyzerWarnings(polite + "ask when version >= v3.0 and version < 2.9.9\n", codes: logicCodes) == [
        "PC313 4:30 `version < 2.9.9` contradicts `version >= v3.0`, so this `and` never holds"
      ])
    #expect(
      try analyzerWarnings(
        polite + "fact plan: string\nask when plan in [\"pro\", \"team\"] and plan == \"free\"\n", codes: logicCodes)
        == ["PC313 5:38 `plan == \"free\"` contradicts `plan in [\"pro\", \"team\"]`, so this `and` never holds"])
    #expect(
      try analyzerWarnings(
        polite + "ask when has sessions_since_bad and sessions_since_bad > 3 and sessions_since_bad < 2\n",
        codes: logicCodes) == [
          "PC313 4:64 `sessions_since_bad < 2` contradicts `sessions_since_bad > 3`, so this `and` never holds"
        ])
    // `not declined` is not a comparison: the rule as a whole never holds.
    #expect(
      try analyzerWarnings(polite + "ask when not declined and declined == true\n", codes: logicCodes) == [
        "PC310 4:1 the ask rule at line 4 can never hold"
      ])
  }

  @Test("PC314: a comparison implied by another of the same `and`")
  func redundantInAnd() throws {
    let text = polite + "ask when days > 30 and uses > 3 and days > 10\n"
    #expect(
      try analyzerWarnings(text, codes: logicCodes) == ["PC314 4:37 `days > 10` is redundant: `days > 30` implies it"])
    let (report, _) = try analyzed(text)
    #expect(report.warnings.first { $0.code == .redundantComparison }?.help == ["remove `days > 10`"])
    // The earlier comparison is the redundant one when the later implies it.
    #expect(
      try analyzerWarnings(polite + "ask when days > 10 and days > 30\n", codes: logicCodes) == [
        "PC314 4:10 `days > 10` is redundant: `days > 30` implies it"
      ])
  }

  @Test("PC314: a comparison that implies another of the same `or`")
  func redundantInOr() throws {
    #expect(
      try analyzerWarnings(polite + "ask when days > 30 or days > 10\n", codes: logicCodes) == [
        "PC314 4:10 `days > 30` is redundant: `days > 10` holds whenever it does"
      ])
  }

  @Test("PC314 with `not` and equivalent spellings")
  func redundantSpellings() throws {
    #expect(
      try analyzerWarnings(polite + "ask when not (days <= 29) and days >= 30\n", codes: logicCodes) == [
        "PC314 4:31 `days >= 30` is redundant: `not (days <= 29)` implies it"
      ])
    #expect(
      try analyzerWarnings(
        polite + "ask when since(last_reminder) >= 1d and since(last_reminder) > 12h\n", codes: logicCodes) == [
          "PC314 4:41 `since(last_reminder) > 12h` is redundant: `since(last_reminder) >= 1d` implies it"
        ])
  }

  @Test("comparisons in lets are checked too")
  func inLets() throws {
    #expect(
      try analyzerWarnings(polite + "let engaged = days >= 14 and days >= 7\nask when engaged\n", codes: logicCodes)
        == [
          "PC314 4:30 `days >= 7` is redundant: `days >= 14` implies it"
        ])
  }

  @Test("independent comparisons are fine")
  func independent() throws {
    for text in [
      "ask when days > 10 and days < 30", "ask when days < 10 or days > 30", "ask when days >= 30 and uses >= 20",
      "ask when since(last_prompt) >= 8w and since(last_reminder) >= 1d",
    ] {
      #expect(try analyzerWarnings(polite + text, codes: logicCodes) == [], "\(text)")
    }
  }
}

/// The `Examples/` directory of the package.
enum Examples {
  static func url(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples").appendingPathComponent(name)
  }
}

@Suite("analyzer: silencing comments, limits and merging")
struct AnalyzerSilencingTests {
  @Test("comparison warnings are silenced by the comment of their rule or let")
  func comparisonWarnings() throws {
    #expect(try analyzerWarnings(polite + "# policyc: allow PC314\nask when days > 30 and\n  days > 10\n") == [])
    #expect(
      try analyzerWarnings(polite + "let a = days > 30 and days > 10  # policyc: allow PC314\nask when a\n") == [])
  }

  @Test("the codes of a comment")
  func commentSyntax() {
    #expect(SilencingComments.codes(in: "# policyc: allow PC320") == ["PC320"])
    #expect(SilencingComments.codes(in: "# policyc: allow PC320, PC321 because reasons") == ["PC320", "PC321"])
    #expect(SilencingComments.codes(in: "# policyc: allow pc320") == [])
    #expect(SilencingComments.codes(in: "# allow PC320") == [])
  }

  @Test("a policy too large to analyse gets a note and no analysis warnings")
  func tooLarge() throws {
    let (report, _) = try analyzed("ask when days > 3 and days > 4", options: AnalysisOptions(maximumConditions: 4))
    #expect(report.warnings == [])
    #expect(
      report.notes == [
        "the policy is too large to analyse (7 conditions; the limit is 4), so no analysis warnings are given"
      ])
  }

  @Test("the 200,000-term chain is too large, and quick")
  func hugeChain() throws {
    let text = Array(repeating: "rated", count: 200_000).joined(separator: " and ")
    let policy = try compiled(text)
    let start = ContinuousClock.now
    let report = PolicyAnalyzer.analyze(policy)
    #expect(ContinuousClock.now - start < .seconds(5))
    #expect(report.warnings == [])
    #expect(report.notes.count == 1)
  }

  @Test("long chains of lets (900) are analysed without deep recursion; past 48 levels they are opaque")
  func letChains() throws {
    var lines = ["let l0 = days > 3"]
    for index in 1..<900 { lines.append("let l\(index) = (l\(index - 1) or uses > \(index)) and days > 0") }
    lines.append("ask when l899 and days < 2")
    let (report, _) = try analyzed(polite + lines.joined(separator: "\n"))
    #expect(report.notes == [])
    // Shallow chains are inlined: `l20 and days < 2` never holds (l0 ... l20 need days > 0 and,
    // at the bottom, days > 3 or a large `uses`; with days < 2 only `uses` can make it hold).
    let short = polite + lines.prefix(21).joined(separator: "\n") + "\nask when l20 and days < 1"
    #expect(try analyzerWarnings(short, codes: logicCodes) == ["PC310 25:1 the ask rule at line 25 can never hold"])
  }

  @Test("merging with a compilation's diagnostics keeps positions and the warning cap")
  func merging() throws {
    let compilation = compile("let unused = 3\nask loyal when days > 30 and days > 10\n")
    let merged = PolicyAnalyzer.diagnostics(for: compilation, options: AnalysisOptions())
    #expect(merged.map(\.code) == [.unusedLet, .redundantComparison])
    let many = compile(
      (0..<99).map { "let spare\($0) = \($0)" }.joined(separator: "\n")
        + "\nask when days > 30 and days > 10 and days > 5\n")
    let capped = PolicyAnalyzer.diagnostics(for: many, options: AnalysisOptions())
    #expect(capped.filter { $0.severity == .warning && $0.code != .tooManyWarnings }.count == 100)
    #expect(capped.last?.code == .tooManyWarnings)
    #expect(PolicyAnalyzer.warnings(for: compile("ask when dayz > 3")) == [])
  }
}
