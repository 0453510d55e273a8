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

  /// `PC399`: the analyzer's warnings went past ``Limits/maximumErrors``; the range is the first one left out.
  static func tooManyWarnings(at range: SourceRange) -> Diagnostic {
    DiagnosticBag.tooManyWarnings(at: range)
  }

  /// The note for a policy of `size` conditions, over the `limit`.
  static func tooLargeNote(size: Int, limit: Int) -> String {
    "the policy is too large to analyse (\(size) conditions; the limit is \(limit)), so no analysis warnings are given"
  }

  /// The note for `count` checks the search budget did not let finish.
  static func inconclusiveNote(count: Int) -> String {
    let (subject, object) = count == 1 ? ("1 check was", "it") : ("\(count) checks were", "them")
    return "\(subject) too complex to complete within the analysis limits; nothing is reported for \(object)"
  }
}
