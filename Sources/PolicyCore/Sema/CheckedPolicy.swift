/// A policy after checking: every name resolved to a fact slot or `let`, every expression typed.
///
/// The checker (Sema) produces it and lowering (``ProgramBuilder``) consumes it; the runtime keeps
/// its parts (``CompiledPolicy/layout``, ``CompiledPolicy/rules``, ``CompiledPolicy/lets``,
/// ``CompiledPolicy/readSlots``) for explanations and analysis.
struct CheckedPolicy: Sendable {
  /// The source it was checked from.
  var source: SourceFile
  /// The facts the policy can read, with their storage positions (fingerprint computed).
  var layout: FactLayout
  /// The `let` definitions, in source order.
  var lets: [CheckedLet]
  /// The rules, in source order.
  var rules: [CheckedRule]
  /// The slots of the facts the rules and `let`s read.
  var usedSlots: Set<Int>
  /// The event names the policy declares with `event`, sorted; empty when it declares none.
  var declaredEvents: [String]
  /// The schema's relations between facts (``FactSchema/relations``), for the analyzer.
  var relations: [FactRelation] = []
  /// The names of the `bucket("name")` calls of the rules and `let`s, sorted, without
  /// duplicates (the checker collects them as it types the calls: no walk of the trees).
  var bucketNames: [String] = []
}

/// A rule after checking.
public struct CheckedRule: Sendable {
  /// `ask` or `never`.
  public var kind: RuleKind
  /// The rule's name, if it has one.
  public var name: String?
  /// How the rule is named in output: its name, or `ask rule at line 3`.
  public var label: String
  /// The typed condition.
  package var condition: TypedExpr
  /// The whole rule in the source.
  public var range: SourceRange
}

/// A `let` after checking.
public struct CheckedLet: Sendable {
  /// The name.
  public var name: String
  /// The typed value (for a list, a constant of the first element's type; see ``listValues``).
  package var value: TypedExpr?
  /// The elements when the `let` names a list.
  public var listValues: [Value]?
  /// The element type of a list `let` (nil for an empty list).
  public var listType: PolicyType?
  /// Whether any rule or later `let` uses it.
  package var isUsed: Bool
  /// The declaration.
  public var range: SourceRange
}
