import PolicyCore

/// Every diagnostic and note the analyzer's own checks write, one factory per message, so the
/// wording lives here: `PolicyAnalyzer.swift` writes no message of its own.
///
/// Rules are named as ``AnalysisContext/title(ofRule:)`` names them ("ask rule `loyal`", "the
/// never rule at line 3", "the condition"); comparisons are their source text in backticks, and
/// `fact` is the fact they compare as written in messages (`` `days` ``, `` `since(seen)` ``).
/// `AnalyzerMessagesTests` analyses a policy for each factory and compares the warnings.
enum AnalyzerMessages {
  // MARK: - PC313, PC314: comparisons within one chain

  /// `PC313`: the comparison `later` of an `and` contradicts the earlier `earlier`.
  static func contradiction(_ later: String, _ earlier: String, fact: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.contradictoryComparisons, "\(later) contradicts \(earlier), so this `and` never holds", at: range,
      help: ["no value of \(fact) satisfies both"])
  }

  /// `PC313`: the comparisons `earlier` and `later` of an `or` together cover every value of `fact`.
  static func tautology(_ earlier: String, _ later: String, fact: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.contradictoryComparisons,
      "\(earlier) or \(later) covers every value of \(fact), so this `or` always holds", at: range,
      help: ["one of them always holds; check the constants"])
  }

  /// `PC314`: in an `and`, the comparison `redundant` follows from `other`.
  static func impliedComparison(_ redundant: String, by other: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.redundantComparison, "\(redundant) is redundant: \(other) implies it", at: range,
      help: ["remove \(redundant)"])
  }

  /// `PC314`: in an `or`, `other` holds whenever the comparison `redundant` does.
  static func coveredComparison(_ redundant: String, by other: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.redundantComparison, "\(redundant) is redundant: \(other) holds whenever it does", at: range,
      help: ["remove \(redundant)"])
  }

  /// `diagnostic` (a `PC310` or `PC312`) with a first help line naming the relations between facts
  /// that make it so, by their reasons: without them some facts would satisfy the rule, but no
  /// real user has such facts.
  static func dueToRelations(_ diagnostic: Diagnostic, reasons: [String]) -> Diagnostic {
    guard !reasons.isEmpty else { return diagnostic }
    var result = diagnostic
    result.help.insert("it needs facts that no real user has, since " + reasons.joined(separator: "; "), at: 0)
    return result
  }

  // MARK: - PC319: the whole policy

  /// `PC319`: no facts satisfying the schema's relations make the policy ask; `reasons` say why,
  /// rule by rule ("ask rule `happy` can never decide: whenever it holds, never rule `answered` holds too").
  static func neverAsks(reasons: [String], at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.neverAsks, "the policy never asks anyone: no facts a real user can have make it ask", at: range,
      help: reasons + [
        "a policy that never asks reaches no one; change the rules named above",
        "to stop asking on purpose, write `# policyc: allow PC319` on the line above this rule",
      ])
  }

  // MARK: - PC310, PC311, PC312: whole rules

  /// `PC310`: the rule called `title`, of `kind`, holds for no facts.
  static func ruleNeverHolds(_ title: String, kind: RuleKind, at range: SourceRange) -> Diagnostic {
    let effect: String
    switch kind {
    case .ask: effect = "it never asks"
    case .never: effect = "it never stops the policy from asking"
    }
    return Diagnostic(
      PolicyCoreCode.ruleNeverHolds, "\(title) can never hold", at: range,
      help: ["no facts satisfy its condition, so \(effect); check the comparisons or remove the rule"])
  }

  /// `PC311`: the `never` rule called `title` holds for all facts.
  static func neverRuleAlwaysHolds(_ title: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.ruleAlwaysHolds, "\(title) always holds, so the policy never asks", at: range,
      help: ["every set of facts satisfies its condition; check the comparisons or remove the rule"])
  }

  /// `PC311`: the `ask` rule called `title` holds for all facts; `explicitForm` is how to write
  /// that on purpose (`ask loyal when true`).
  static func askRuleAlwaysHolds(_ title: String, explicitForm: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.ruleAlwaysHolds, "\(title) always holds", at: range,
      help: [
        "every set of facts satisfies its condition, so the policy asks whenever no `never` rule holds",
        "if that is intended, write `\(explicitForm)`",
      ])
  }

  /// `PC312`: whenever the `ask` rule called `title` holds, the `never` rule called `never` does.
  static func askRuleShadowed(_ title: String, by never: String, at range: SourceRange) -> Diagnostic {
    askRuleShadowed(title, "\(never) holds too", at: range)
  }

  /// `PC312`: whenever the `ask` rule called `title` holds, one of the `never` rules `nevers`
  /// (named as ``Analysis/reference(_:)`` names them) does.
  static func askRuleShadowed(_ title: String, byOneOf nevers: [String], at range: SourceRange) -> Diagnostic {
    askRuleShadowed(title, "one of the never rules \(nevers.joined(separator: ", ")) holds", at: range)
  }

  /// `PC312` for the rule called `title`, shadowed as `cause` says.
  private static func askRuleShadowed(_ title: String, _ cause: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.shadowedAskRule, "\(title) can never decide: whenever it holds, \(cause)", at: range,
      help: [
        "a `never` rule always wins, so this rule never makes the policy ask; remove it or change the `never` rules"
      ])
  }

  // MARK: - Limits

  // The cap on warnings (`PC399`) is `DiagnosticCap`'s, shared with the compiler's warnings.

  /// The note for a policy of `size` conditions, over the `limit`.
  static func tooLargeNote(size: Int, limit: Int) -> String {
    "the policy is too large to analyse (\(size) conditions; the limit is \(limit)), so no analysis warnings are given"
  }

  /// The note for `count` checks the search budget did not let finish.
  static func inconclusiveNote(count: Int) -> String {
    let (subject, object) = count == 1 ? ("1 check was", "it") : ("\(count) checks were", "them")
    return "\(subject) too complex to complete within the analysis limits; nothing is reported for \(object)"
  }

  // MARK: - PC318: the work budget

  /// `PC318`: the analysis ran out of its work budget; `unchecked` of the `rules` rules were not
  /// (fully) checked, from the rule `first` names on. Located at the start of the file, so the
  /// cap on warnings never drops it.
  static func analysisIncomplete(unchecked: Int, rules: Int, from first: String, at range: SourceRange)
    -> Diagnostic
  {
    let count = unchecked == 1 ? "1 rule was" : "\(unchecked) rules were"
    return Diagnostic(
      PolicyCoreCode.analysisIncomplete,
      "analysis incomplete: the policy is too large to analyze fully; \(count) not checked", at: range,
      help: [
        "the analysis stopped at \(first), out of \(rules) rules; the policy is valid and runs as written, but warnings about the rules from there on are missing",
        "to have every rule analyzed, merge or remove rules",
      ])
  }

  // MARK: - PC309, PC315, PC316, PC317: silencing comments

  /// `PC309`: the comment `written`, at `range`, means to silence warnings but is not spelt
  /// `# policyc: allow PCnnn`: its prefix is misspelt, or it writes `misspelt` codes otherwise
  /// (`pc321`, `PC 321`, each with its right spelling); `corrected` is the comment spelt right.
  static func misspeltSilencingComment(
    _ written: String, misspelt: [(written: String, right: String)], corrected: String, at range: SourceRange
  ) -> Diagnostic {
    let codes = misspelt.map { "`\(LiteralText.abbreviated($0.written))`" }.joined(separator: ", ")
    let rights = misspelt.map { "`\($0.right)`" }.joined(separator: ", ")
    let message =
      misspelt.isEmpty
      ? "`\(LiteralText.abbreviated(written, limit: 60))` silences nothing: it is not spelt `# policyc: allow PCnnn`"
      : misspelt.count == 1
        ? "\(codes) silences nothing: a code is written \(rights)"
        : "\(codes) silence nothing: codes are written \(rights)"
    let right = LiteralText.abbreviated(corrected, limit: 100)
    return Diagnostic(
      PolicyCoreCode.misspeltSilencingComment, message, at: range, help: ["write `\(right)`"],
      fixIts: [FixIt("write `\(right)`", edits: [SourceEdit(replacing: range, with: corrected)])])
  }

  /// `PC315`: a `policyc:` comment whose directive `word` is not `allow`.
  static func unknownDirective(_ word: String, at range: SourceRange) -> Diagnostic {
    let suggestion =
      EditDistance.suggestion(for: word.lowercased(), among: ["allow"])
      ?? (word.lowercased() == "allow" ? "allow" : nil)
    return Diagnostic(
      PolicyCoreCode.unknownDirective, "unknown directive `\(LiteralText.abbreviated(word))` in a `policyc:` comment",
      at: range,
      help: [
        suggestion.map { "did you mean `\($0)`?" }
          ?? "the only directive is `allow`, as in `# policyc: allow PC314`; this comment silences nothing"
      ],
      fixIts: suggestion.map {
        [
          FixIt(
            "replace `\(LiteralText.abbreviated(word))` with `\($0)`", edits: [SourceEdit(replacing: range, with: $0)])
        ]
      } ?? [])
  }

  /// `PC316`: an `allow` of `written`, which is not a code; `silenceable` are the codes comments can silence.
  static func unknownAllowedCode(_ written: String, silenceable: [String], at range: SourceRange) -> Diagnostic {
    let upper = written.uppercased()
    let suggestion =
      silenceable.contains(upper) ? upper : EditDistance.suggestion(for: upper, among: silenceable)
    return Diagnostic(
      PolicyCoreCode.unknownAllowedCode, "unknown code `\(LiteralText.abbreviated(written))` in `allow`", at: range,
      help: [suggestion.map { "did you mean `\($0)`?" } ?? silenceableList(silenceable)],
      fixIts: suggestion.map {
        [
          FixIt(
            "replace `\(LiteralText.abbreviated(written))` with `\($0)`",
            edits: [SourceEdit(replacing: range, with: $0)])
        ]
      } ?? [])
  }

  /// `PC316`: an `allow` of `code`, a code of PolicyCore that no comment can silence.
  static func unsilenceableCode(_ code: DiagnosticCode, silenceable: [String], at range: SourceRange) -> Diagnostic {
    let what = code.severity == .error ? "an error" : "a warning of the checker"
    return Diagnostic(
      PolicyCoreCode.unknownAllowedCode, "`\(code.rawValue)` (\(code.summary)) cannot be silenced", at: range,
      help: [
        code.severity == .error
          ? "\(code.rawValue) is \(what); fix the policy instead"
          : "\(code.rawValue) is \(what); fix or remove what it reports",
        silenceableList(silenceable),
      ])
  }

  /// `PC317`: an `allow` of `code` that silenced no warning; `fix` removes it.
  static func unusedAllow(_ code: String, fix: SourceEdit, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unusedAllow, "`allow \(code)` silences nothing here", at: range,
      help: [
        "no \(code) warning is reported for the rule or `let` this comment applies to: the one starting on its line, or on the next line when the comment stands alone",
        "remove `\(code)`, or move the comment to the declaration it is about",
      ],
      fixIts: [FixIt("remove `\(code)`", edits: [fix])])
  }

  /// "the codes that comments can silence are `PC310`, ..."
  static func silenceableList(_ codes: [String]) -> String {
    "the codes that comments can silence are \(codes.sorted().map { "`\($0)`" }.joined(separator: ", "))"
  }
}
