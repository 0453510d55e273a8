import Foundation
import ReviewPolicy
import Testing

@testable import PolicyCore

/// Analyses `text` (which must compile) with the standard schema.
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
let etiquetteCodes: Set<DiagnosticCode> = [.asksAfterAnswer, .asksTooSoon, .asksTooOften]

/// The never rules that make a policy polite, so tests of logic warnings are not about etiquette.
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
    #expect(try analyzerWarnings(text) == ["PC310 5:1 ask rule `loyal` can never hold"])
    let (report, _) = try analyzed(text)
    #expect(report.warnings[0].help == [
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
      try analyzerWarnings(polite + "never stale when since(last_reminder) < 1d and not has last_reminder\nask when days > 3\n")
        == ["PC310 4:1 never rule `stale` can never hold"])
  }

  @Test("PC311: an ask rule every set of facts satisfies, with the explicit form as advice")
  func askAlwaysHolds() throws {
    let text = polite + "let young = days < 10\nask always when young or days >= 10\n"
    #expect(try analyzerWarnings(text) == ["PC311 5:1 ask rule `always` always holds"])
    let (report, _) = try analyzed(text)
    #expect(report.warnings[0].help == [
      "every set of facts satisfies its condition, so the policy asks whenever no `never` rule holds",
      "if that is intended, write `ask always when true`",
    ])
  }

  @Test("PC311: a never rule that always holds means the policy never asks; no PC312 then")
  func neverAlwaysHolds() throws {
    #expect(
      try analyzerWarnings("never n when declined or not declined\nask a when days > 3\nask b when days > 5\n") == [
        "PC311 1:1 never rule `n` always holds, so the policy never asks"
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
    #expect(try analyzerWarnings("days >= -9223372036854775808", codes: logicCodes) == ["PC311 1:1 the condition always holds"])
    #expect(try analyzerWarnings("declined and not declined") == ["PC310 1:1 the condition can never hold"])
  }

  @Test("PC312: an ask rule one never rule always overrides")
  func shadowedBySingleRule() throws {
    let text = "never too_soon when since(last_prompt) < 8w\nask quick when since(last_prompt) < 1w\n"
    #expect(
      try analyzerWarnings(text, codes: logicCodes) == [
        "PC312 2:1 ask rule `quick` can never decide: whenever it holds, never rule `too_soon` holds too"
      ])
    let (report, _) = try analyzed(text)
    #expect(report.warnings.first { $0.code == .shadowedAskRule }?.help == [
      "a `never` rule always wins, so this rule never makes the policy ask; remove it or change the `never` rules"
    ])
  }

  @Test("PC312: an ask rule several never rules override together")
  func shadowedByRules() throws {
    let text = "never a when days < 10\nnever b when days > 20\nnever c when uses > 3\nask d when days < 5 or days > 25\n"
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
    #expect(try analyzerWarnings(polite + "ask a when uses > 2.5 and uses > 9223372036854", codes: logicCodes) == [
      "PC310 4:1 ask rule `a` can never hold"
    ])
  }
}

@Suite("analyzer: contradictory and redundant comparisons")
struct AnalyzerComparisonTests {
  @Test("PC313: two comparisons of one fact that no value satisfies, in an `and`; no PC310 besides")
  func contradiction() throws {
    let text = polite + "ask when days > 30 and days < 10\n"
    #expect(try analyzerWarnings(text) == ["PC313 4:24 `days < 10` contradicts `days > 30`, so this `and` never holds"])
    let (report, _) = try analyzed(text)
    #expect(report.warnings[0].help == ["no value of `days` satisfies both"])
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
      try analyzerWarnings(polite + "ask when since(first_use) >= 8w and since(first_use) < 56d\n", codes: logicCodes) == [
        "PC313 4:37 `since(first_use) < 56d` contradicts `since(first_use) >= 8w`, so this `and` never holds"
      ])
    #expect(
      try analyzerWarnings(polite + "ask when version >= v3.0 and version < 2.9.9\n", codes: logicCodes) == [
        "PC313 4:30 `version < 2.9.9` contradicts `version >= v3.0`, so this `and` never holds"
      ])
    #expect(
      try analyzerWarnings(polite + "fact plan: string\nask when plan in [\"pro\", \"team\"] and plan == \"free\"\n", codes: logicCodes)
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
    #expect(try analyzerWarnings(text, codes: logicCodes) == ["PC314 4:37 `days > 10` is redundant: `days > 30` implies it"])
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
      try analyzerWarnings(polite + "ask when since(last_reminder) >= 1d and since(last_reminder) > 12h\n", codes: logicCodes) == [
        "PC314 4:41 `since(last_reminder) > 12h` is redundant: `since(last_reminder) >= 1d` implies it"
      ])
  }

  @Test("comparisons in lets are checked too")
  func inLets() throws {
    #expect(
      try analyzerWarnings(polite + "let engaged = days >= 14 and days >= 7\nask when engaged\n", codes: logicCodes) == [
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

@Suite("analyzer: review etiquette")
struct AnalyzerEtiquetteTests {
  /// Evaluates the witness of every etiquette finding: the policy must ask through the rule.
  func expectVerifiedWitnesses(_ report: AnalysisReport, _ policy: CompiledPolicy, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
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
    let text = "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30 and not declined\n"
    let (report, policy) = try analyzed(text)
    #expect(report.warnings.map { describedWarning($0, in: policy) } == [
      "PC320 3:1 ask rule `loyal` can ask a user who rated this version"
    ])
    #expect(report.warnings[0].help == [
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
    let text = "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30\n"
    #expect(try analyzerWarnings(text) == ["PC320 3:1 ask rule `loyal` can ask a user who declined or rated this version"])
    let anyVersion = "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nnever answered when declined_any or rated_any\nask loyal when days >= 30\n"
    #expect(try analyzerWarnings(anyVersion) == [])
  }

  @Test("PC321: asking again within 7 days; the example's last prompt is a day old")
  func asksTooSoon() throws {
    let text = "never answered when declined or rated\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30\n"
    let (report, policy) = try analyzed(text)
    #expect(report.warnings.map { describedWarning($0, in: policy) } == [
      "PC321 3:1 ask rule `loyal` can ask again within 7 days of the last prompt"
    ])
    #expect(report.warnings[0].help == [
      "for example when `days` = 30, the last prompt was 1d ago",
      "wait at least 7 days after a prompt, as `never too_soon when since(last_prompt) < 8w` does",
    ])
    expectVerifiedWitnesses(report, policy)
  }

  @Test("PC321: any wait of at least 7 days is enough; a shorter one is not")
  func waitLength() throws {
    let base = "never answered when declined or rated\nnever yearly_cap when prompts_within(365d) >= 3\nask loyal when days >= 30\n"
    #expect(try analyzerWarnings(base + "never too_soon when since(last_prompt) < 7d\n") == [])
    #expect(try analyzerWarnings(base + "never too_soon when since(last_prompt) < 1w\n") == [])
    #expect(try analyzerWarnings(base + "never too_soon when since(last_prompt) <= 6d\n", codes: etiquetteCodes) == [
      "PC321 3:1 ask rule `loyal` can ask again within 7 days of the last prompt"
    ])
    // Counting recent prompts works as well as measuring the time since the last one.
    #expect(try analyzerWarnings(base + "never too_soon when prompts_within(30d) > 0\n") == [])
    #expect(try analyzerWarnings(base + "never too_soon when prompts_within(3d) > 0\n", codes: etiquetteCodes) == [
      "PC321 3:1 ask rule `loyal` can ask again within 7 days of the last prompt"
    ])
  }

  @Test("PC322: no cap on prompts in 365 days")
  func asksTooOften() throws {
    let text = "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\nask loyal when days >= 30\n"
    let (report, policy) = try analyzed(text)
    #expect(report.warnings.map { describedWarning($0, in: policy) } == [
      "PC322 3:1 ask rule `loyal` can ask after 3 prompts in 365 days"
    ])
    #expect(report.warnings[0].help == [
      "for example when `days` = 30, 3 prompts were shown in 365 days, the last 8w ago",
      "no condition of the policy bounds the number of prompts in 365 days",
      "cap the prompts, as `never yearly_cap when prompts_within(365d) >= 3` does",
    ])
    expectVerifiedWitnesses(report, policy)
  }

  @Test("PC322: caps that work and caps that do not")
  func caps() throws {
    let base = "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\nask loyal when days >= 30\n"
    for cap in [
      "never cap when prompts_within(365d) >= 3", "never cap when prompts_within(400d) > 2",
      "never cap when total_prompts >= 3", "never cap when since(last_prompt) < 366d",
    ] {
      #expect(try analyzerWarnings(base + cap) == [], "\(cap)")
    }
    for cap in ["never cap when prompts_within(365d) >= 4", "never cap when prompts_within(30d) >= 3", "never cap when prompts >= 3"] {
      let (report, policy) = try analyzed(base + cap)
      #expect(report.warnings.map(\.code) == [.asksTooOften], "\(cap)")
      #expect(!report.warnings[0].help.contains("no condition of the policy bounds the number of prompts in 365 days"), "\(cap)")
      expectVerifiedWitnesses(report, policy)
    }
  }

  @Test("a policy that never asks has no etiquette warnings; rules are checked one by one")
  func perRule() throws {
    #expect(try analyzerWarnings("never when declined") == [])
    let text = polite.replacingOccurrences(of: "never answered when declined or rated\n", with: "")
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
      ("appirater.policy", ["PC321 13:1", "PC322 13:1"]),
      ("armchair.policy", ["PC321 18:1", "PC322 18:1"]),
      ("one-liner.policy", ["PC320 1:1", "PC321 1:1", "PC322 1:1"]),
      ("rate-our-app.policy", ["PC321 11:1", "PC322 11:1"]),
      ("reviewkit.policy", ["PC320 18:1", "PC322 18:1"]),
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

@Suite("analyzer: silencing comments, limits and merging")
struct AnalyzerSilencingTests {
  let unpolite = "never too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\n"

  @Test("a comment on the rule's line or alone on the line above silences the named code")
  func silences() throws {
    let above = unpolite + "# policyc: allow PC320\nask loyal when days >= 30\n"
    let (report, _) = try analyzed(above)
    #expect(report.warnings == [])
    #expect(report.silenced.map(\.diagnostic.code) == [.asksAfterAnswer])
    #expect(try analyzerWarnings(unpolite + "ask loyal when days >= 30  # policyc: allow PC320\n") == [])
    #expect(try analyzerWarnings(unpolite + "ask loyal when days >= 30  #policyc:allow PC320\n") == [])
  }

  @Test("only the named codes, only for that rule")
  func onlyNamed() throws {
    let text = "# policyc: allow PC321\nask a when days >= 30\nask b when days >= 40\n"
    #expect(try analyzerWarnings(text).map { String($0.prefix(9)) } == [
      "PC320 2:1", "PC322 2:1", "PC320 3:1", "PC321 3:1", "PC322 3:1",
    ])
    #expect(try analyzerWarnings("ask a when days >= 30 # policyc: allow PC320, PC321 PC322\n") == [])
  }

  @Test("a comment trailing the previous rule, or two lines above, does not silence")
  func placement() throws {
    let trailing = unpolite + "ask a when days >= 30 and not declined and not rated  # policyc: allow PC320\nask b when days >= 40\n"
    #expect(try analyzerWarnings(trailing) == ["PC320 4:1 ask rule `b` can ask a user who declined or rated this version"])
    let twoAbove = unpolite + "# policyc: allow PC320\n\nask b when days >= 40\n"
    #expect(try analyzerWarnings(twoAbove) == ["PC320 5:1 ask rule `b` can ask a user who declined or rated this version"])
    let misspelt = unpolite + "# policyc allow PC320\nask b when days >= 40\n"
    #expect(try analyzerWarnings(misspelt).count == 1)
  }

  @Test("comparison warnings are silenced by the comment of their rule or let")
  func comparisonWarnings() throws {
    #expect(try analyzerWarnings(polite + "# policyc: allow PC314\nask when days > 30 and\n  days > 10\n") == [])
    #expect(try analyzerWarnings(polite + "let a = days > 30 and days > 10  # policyc: allow PC314\nask when a\n") == [])
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
    #expect(report.notes == [
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

  @Test("checks beyond the search budget are skipped with a note, never guessed")
  func budget() throws {
    let (report, _) = try analyzed("ask loyal when days >= 30", options: AnalysisOptions(searchSteps: 3))
    #expect(report.warnings == [])
    #expect(report.notes.count == 1)
    #expect(report.notes[0].hasSuffix("too complex to complete within the analysis limits; nothing is reported for them"))
  }

  @Test("merging with a compilation's diagnostics keeps positions and the warning cap")
  func merging() throws {
    let compilation = compile("let unused = 3\nask loyal when days > 30 and days > 10\n")
    let merged = PolicyAnalyzer.diagnostics(for: compilation, options: AnalysisOptions(etiquette: false))
    #expect(merged.map(\.code) == [.unusedLet, .redundantComparison])
    let many = compile((0..<99).map { "let spare\($0) = \($0)" }.joined(separator: "\n") + "\nask when days > 30 and days > 10 and days > 5\n")
    let capped = PolicyAnalyzer.diagnostics(for: many, options: AnalysisOptions(etiquette: false))
    #expect(capped.filter { $0.severity == .warning && $0.code != .tooManyWarnings }.count == 100)
    #expect(capped.last?.code == .tooManyWarnings)
    #expect(PolicyAnalyzer.warnings(for: compile("ask when dayz > 3")) == [])
  }
}
