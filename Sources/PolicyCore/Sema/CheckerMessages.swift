/// Every diagnostic the checker reports, one factory per message, so the wording lives here:
/// the checker (`Checker.swift`, `Checker+Expressions.swift`) writes no message of its own.
/// `CheckerMessagesTests` compiles a policy for each factory and compares the diagnostics.
///
/// Examples in help name no fact of a particular schema: they are built-in names, literals, the
/// policy's own text, or facts the caller takes from the schema (``sinceArgumentCount(_:instant:at:)``).
///
/// `written` arguments are source text as the checker shows it (``Checker/written(_:)``:
/// shortened to 40 characters); ranges are where the caret goes.
package enum CheckerMessages {
  /// An operand named in a message: its expression (to recognise literals), its text as
  /// written and its type.
  struct Operand {
    /// The expression.
    var expr: Expr
    /// Its text, as ``Checker/written(_:)`` gives it.
    var written: String
    /// Its type.
    var type: PolicyType
  }

  // MARK: - Declarations

  /// `PC207`: a second rule named `name`; `first` is the first one's name.
  static func duplicateRuleName(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateRuleName, "rule `\(name)` is already defined", at: range,
      help: ["give this rule another name"], notes: [DiagnosticNote("`\(name)` is first defined here", at: first)])
  }

  /// `PC208`: a second `fact name` declaration; `first` is the first one's name.
  static func factDeclaredTwice(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateDefinition, "fact `\(name)` is already defined", at: range,
      help: ["remove this declaration"], notes: [DiagnosticNote("`\(name)` is first declared here", at: first)])
  }

  /// `PC208`: a `fact` declaration of a fact of the schema, whose type is `type`.
  static func factOfSchemaDeclared(_ name: String, type: PolicyType, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateDefinition, "fact `\(name)` is already defined", at: range,
      help: ["`\(name)` is a fact of the schema (\(type)); remove this declaration"])
  }

  /// `PC208`: a `fact` declaration of a built-in name (`now`, `since`, ...).
  static func builtinDeclaredAsFact(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateDefinition, "`\(name)` is a built-in name and cannot be declared as a fact",
      at: range, help: ["choose another name"])
  }

  /// `PC208`: a second `let name`; `first` is the first one's name.
  static func letDefinedTwice(_ name: String, first: SourceRange, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateDefinition, "`\(name)` is already defined", at: range, help: ["choose another name"],
      notes: [DiagnosticNote("`\(name)` is first defined here", at: first)])
  }

  /// `PC208`: a `let` named like a built-in.
  static func builtinDefinedAsLet(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateDefinition, "`\(name)` is already defined", at: range,
      help: ["`\(name)` is built in; choose another name"])
  }

  /// `PC208`: a `let` named like a fact.
  static func factDefinedAsLet(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.duplicateDefinition, "`\(name)` is already defined", at: range,
      help: ["`\(name)` is already a fact; choose another name"])
  }

  /// `PC218`: the default of `fact name: type` is not a literal (`found` is nil) or is a literal
  /// of type `found`; the range is the default as written. An `instant` has no literal, so its
  /// help suggests an optional fact instead.
  static func invalidFactDefault(_ name: String, type: PolicyType, found: PolicyType?, at range: SourceRange)
    -> Diagnostic
  {
    let problem = found.map { "is \(article($0)), not \(article(type))" } ?? "is not a literal"
    let help =
      type == .instant
      ? "an `instant` has no literal: declare `fact \(name): instant?` and guard it with `has` or `since`"
      : "write a literal of the declared type, such as `fact \(name): \(type) = \(defaultExample(for: type))`"
    return Diagnostic(
      PolicyCoreCode.invalidFactDefault, "the default of fact `\(name)` \(problem)", at: range, help: [help])
  }

  /// `PC302`: a `let` nothing uses; the range is its name.
  static func unusedLet(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unusedLet, "`\(name)` is defined but never used", at: range,
      help: ["use it in a rule or remove it"])
  }

  /// `PC303`: a declared fact nothing uses; the range is its name.
  static func unusedFact(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unusedFact, "fact `\(name)` is declared but never used", at: range,
      help: ["use it in a rule or remove the declaration"])
  }

  /// `PC301`: a policy without `ask` rules; `hasRules` when it has `never` rules. The range is empty.
  static func noAskRule(hasRules: Bool, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.noAskRule,
      hasRules ? "policy has no `ask` rule, so it never asks" : "policy has no rules, so it never asks", at: range,
      help: ["add a rule such as `ask when days >= 30 and uses >= 20`"])
  }

  // MARK: - Values

  /// `PC212`: a list where a value is needed.
  @inline(never)
  static func listOutsideIn(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.misplacedList, "a list can only appear on the right of `in`", at: range,
      help: ["test membership with `x in \(written)`"])
  }

  /// `PC206`: a value of `type` that can be absent, used unguarded; `isName` when it is a plain name.
  static func unguardedAbsentValue(_ written: String, isName: Bool, type: PolicyType, at range: SourceRange)
    -> Diagnostic
  {
    var help: [String] = []
    if isName {
      help.append("guard it: `has \(written) and ...`")
    }
    help.append("or give a default: `\(written) ?? \(defaultExample(for: type))`")
    if type == .instant {
      help.append("or measure the time since it with `\(sinceCall(written))`, which is infinite when it never happened")
    }
    return Diagnostic(PolicyCoreCode.unguardedAbsentValue, "`\(written)` can be absent", at: range, help: help)
  }

  /// What needs a `bool` in ``notBoolean(_:context:at:)``: the condition of `rule`.
  static func conditionContext(of rule: Rule) -> String {
    rule.isBare ? "the condition" : "the condition of `\(rule.kind.rawValue) when`"
  }

  /// What needs a `bool` in ``notBoolean(_:context:at:)``: the operand of `not`.
  static let notOperandContext = "the operand of `not`"

  /// What needs a `bool` in ``notBoolean(_:context:at:)``: each operand of `op`.
  static func logicalOperandContext(_ op: LogicalOperator) -> String {
    "each operand of `\(op.rawValue)`"
  }

  /// `PC205`: `operand` is not a `bool` where `context` ("the operand of `not`") needs one.
  static func notBoolean(_ operand: Operand, context: String, at range: SourceRange) -> Diagnostic {
    var help = [
      "compare it, for example `\(operand.written) \(operand.type == .string ? "==" : ">=") \(sampleLiteral(for: operand.type))`"
    ]
    if operand.type == .instant { help = ["compare the time since it: `\(sinceCall(operand.written)) >= 30d`"] }
    return Diagnostic(
      PolicyCoreCode.notBoolean, "\(context) must be a `bool`, but `\(operand.written)` is \(article(operand.type))",
      at: range, help: help)
  }

  // MARK: - Names

  /// `PC215`: a `let` used above the line that defines it.
  static func useBeforeDefinition(_ name: String, definedOnLine line: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.useBeforeDefinition, "`\(name)` is used before its definition on line \(line)", at: range,
      help: ["move `let \(name) = ...` above this line"])
  }

  /// `PC216`: a keyed fact used without its key.
  static func missingKey(_ family: FactFamilyDefinition, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidFactKey, "`\(family.name)` needs a key (\(family.keyMeaning))", at: range,
      help: ["write `\(family.name)(\(sampleKey(for: family)))`"])
  }

  /// `PC201`: a function named without arguments.
  static func functionWithoutArguments(_ builtin: Builtin, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unknownName, "`\(builtin.rawValue)` is a function and needs arguments", at: range,
      help: ["call it: `\(builtin.signature)`"])
  }

  /// `PC201`: a name that is nothing known; `candidates` (evaluated only when needed) are the
  /// names to suggest from.
  static func unknownName(_ name: String, candidates: @autoclosure () -> [String], at range: SourceRange)
    -> Diagnostic
  {
    let help: String
    var fixIts: [FixIt] = []
    if TokenKind.keywords.contains(name.lowercased()) {
      help = "keywords are lowercase: write `\(name.lowercased())`"
      fixIts = [renaming(name, to: name.lowercased(), at: range)]
    } else if PolicyType(rawValue: name) != nil {
      help = "type names are only used in `fact` declarations"
    } else if name == "event" {
      help = "declare the events the policy counts with their names: `event purchase, export`"
    } else if let suggestion = EditDistance.suggestion(for: name, among: candidates()) {
      help = "did you mean `\(suggestion)`?"
      fixIts = [renaming(name, to: suggestion, at: range)]
    } else {
      help = "declare app-specific facts with `fact \(name): <type>`; `policyc facts` lists the standard ones"
    }
    return Diagnostic(PolicyCoreCode.unknownName, "unknown name `\(name)`", at: range, help: [help], fixIts: fixIts)
  }

  /// `PC201`: a name that is nothing known but spells, give or take a plural, a key the policy
  /// uses with a string-keyed family (`purchases` beside `events("purchase")`); `forms` are the
  /// families with keys of the same meaning, and the fix-it uses `family`.
  static func unknownNameLikeKey(_ name: String, family: String, key: String, forms: [String], at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyCoreCode.unknownName, "unknown name `\(name)`", at: range,
      help: ["`\(key)` is used as a key elsewhere: " + keyedFormList(key: key, forms: forms)],
      fixIts: [renaming(name, to: "\(family)(\(StringLiteral.quoted(key)))", at: range)])
  }

  /// A help line for a plural name that may count by a key (`purchases`): the keyed forms.
  static func keyedFormAdvice(key: String, keyMeaning: String, forms: [String]) -> String {
    "to count by \(keyMeaning), " + keyedFormList(key: key, forms: forms)
  }

  /// "write `events("purchase")` or `total_events("purchase")`".
  static func keyedFormList(key: String, forms: [String]) -> String {
    let written = forms.map { "`\($0)(\(StringLiteral.quoted(key)))`" }
    let list =
      written.count > 1 ? written.dropLast().joined(separator: ", ") + " or " + (written.last ?? "") : written.joined()
    return "write \(list)"
  }

  /// A fix-it that replaces the name `name` at `range` by `replacement`.
  static func renaming(_ name: String, to replacement: String, at range: SourceRange) -> FixIt {
    FixIt("replace `\(name)` with `\(replacement)`", edits: [SourceEdit(replacing: range, with: replacement)])
  }

  /// `PC217`: an event name the policy does not declare (`fromDeclarations`) or the app does not
  /// record; `range` is the name as written, `quoted` when it is a string. The fix-it puts in the
  /// closest known name (quoted when the name was, or when it is not a word).
  static func unknownEvent(
    _ name: String, known: [String], fromDeclarations: Bool, declaredAt declaration: SourceRange?,
    quoted: Bool = true, at range: SourceRange
  ) -> Diagnostic {
    let list = LiteralText.abbreviated(known.map { "`\($0)`" }.joined(separator: ", "), limit: 80)
    let whose = fromDeclarations ? "the policy declares" : "the app records"
    var help: [String] = []
    var fixIts: [FixIt] = []
    if let suggestion = EditDistance.suggestion(for: name, among: known)
      ?? known.first(where: { $0.lowercased() == name.lowercased().filter { !$0.isWhitespace } })
    {
      help.append("did you mean `\(suggestion)`?")
      let isWord =
        suggestion.first.map { $0.isLetter || $0 == "_" } == true
        && suggestion.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        && !TokenKind.keywords.contains(suggestion)
      let replacement = quoted || !isWord ? StringLiteral.quoted(suggestion) : suggestion
      fixIts.append(FixIt("replace with \(replacement)", edits: [SourceEdit(replacing: range, with: replacement)]))
    }
    help.append(
      fromDeclarations
        ? "\(whose) \(list); add `\(name)` to an `event` declaration if the app records it"
        : "\(whose) \(list)")
    return Diagnostic(
      PolicyCoreCode.unknownEvent, "unknown event `\(name)`", at: range, help: help,
      notes: declaration.map { [DiagnosticNote("the events are declared here", at: $0)] } ?? [], fixIts: fixIts)
  }

  /// `PC212`: `has` on a `let` that names a list.
  static func hasOnList(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.misplacedList, "`\(name)` is a list and is never absent", at: range,
      help: ["`has` tests a fact or `let` that can be absent; test membership with `x in \(name)`"])
  }

  /// `PC304`: `has now`.
  static func hasNow(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.alwaysPresent, "`now` is always present, so `has now` is always true", at: range,
      help: ["remove the test"])
  }

  /// `PC304`: `has` on a fact or `let` that is never absent.
  static func alwaysPresent(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.alwaysPresent, "`\(name)` is never absent, so `has \(name)` is always true", at: range,
      help: ["remove the test"])
  }

  // MARK: - Calls

  /// `PC216`: a plain fact, `let` or `now` called like a function.
  static func notAFunction(_ name: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidFactKey, "`\(name)` is not a function", at: range,
      help: ["write `\(name)` without parentheses"])
  }

  /// `PC202`: a call of an unknown function; `families` are the schema's keyed facts.
  static func unknownFunction(_ name: String, families: [String], at range: SourceRange) -> Diagnostic {
    let candidates = Builtin.functionNames + families
    let suggestion = EditDistance.suggestion(for: name, among: candidates)
    let help =
      suggestion.map { ["did you mean `\($0)`?"] }
      ?? ["the functions are \(Builtin.functionNames.map { "`\($0)`" }.joined(separator: ", "))"]
    return Diagnostic(
      PolicyCoreCode.unknownFunction, "unknown function `\(name)`", at: range, help: help,
      fixIts: suggestion.map { [renaming(name, to: $0, at: range)] } ?? [])
  }

  /// `PC209`: `since` with `count` arguments other than 1; `instant` is an instant fact to show
  /// in the example (see ``Checker/exampleInstant()``), nil when the policy knows none.
  static func sinceArgumentCount(_ count: Int, instant: String?, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.wrongArgumentCount, "`since` takes 1 argument, but \(count) were given", at: range,
      help: [instant.map { "write `since(\($0))`" } ?? "write `since(x)`, where `x` is an instant"])
  }

  /// `PC210`: `since` of something other than an instant; `instant` as in
  /// ``sinceArgumentCount(_:instant:at:)``.
  static func sinceArgumentType(_ argument: Operand, instant: String?, at range: SourceRange) -> Diagnostic {
    var help = ["`since` measures the time from an instant to now, as in `since(\(instant ?? "x")) >= 8w`"]
    if argument.type == .duration || argument.type == .int {
      help = ["`\(argument.written)` is already \(article(argument.type)); compare it directly"]
    }
    return Diagnostic(
      PolicyCoreCode.wrongArgumentType,
      "`since` needs an `instant`, but `\(argument.written)` is \(article(argument.type))", at: range, help: help)
  }

  /// `PC209`: a call of `function` with `count` arguments, not its arity.
  static func functionArgumentCount(_ function: BuiltinFunction, count: Int, at range: SourceRange) -> Diagnostic {
    let takes = "\(function.arity) argument\(function.arity == 1 ? "" : "s")"
    return Diagnostic(
      PolicyCoreCode.wrongArgumentCount,
      "`\(function.name)` takes \(takes), but \(count) \(count == 1 ? "was" : "were") given", at: range,
      help: ["write `\(function.signature)`"])
  }

  /// `PC209`: `bucket` with other than one argument.
  static func bucketArgumentCount(_ count: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.wrongArgumentCount,
      "`bucket` takes 1 argument, but \(count) \(count == 1 ? "was" : "were") given", at: range,
      help: ["write `bucket(\"name\")` with the name of the rollout, such as `bucket(\"new-ask\") < 10`"])
  }

  /// `PC210`: a `bucket` argument that is not a string literal; `written` is the argument.
  static func bucketArgumentNotLiteral(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.wrongArgumentType, "`bucket` needs a string literal, but `\(written)` is not one", at: range,
      help: ["the name is fixed in the policy so each rollout has its own buckets: write `bucket(\"new-ask\")`"])
  }

  /// `PC210`: an argument of `function` of a type it does not accept, or of another type than
  /// the first argument.
  static func functionArgumentType(_ function: BuiltinFunction, _ argument: Operand, at range: SourceRange)
    -> Diagnostic
  {
    // "an `int`, `number` or `duration`"
    let kinds = function.argumentTypes.enumerated().map { $0.offset == 0 ? article($0.element) : "`\($0.element)`" }
    let list = kinds.count > 1 ? kinds.dropLast().joined(separator: ", ") + " or " + (kinds.last ?? "") : kinds.joined()
    let needs = function.argumentTypes.contains(argument.type) ? "arguments of one type" : list
    return Diagnostic(
      PolicyCoreCode.wrongArgumentType,
      "`\(function.name)` needs \(needs), but `\(argument.written)` is \(article(argument.type))", at: range,
      help: ["write `\(function.signature)`"])
  }

  /// `PC209`: `min` or `max` with fewer than 2 arguments.
  static func extremumArgumentCount(_ name: String, count: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.wrongArgumentCount,
      "`\(name)` takes at least 2 arguments, but \(count) \(count == 1 ? "was" : "were") given", at: range,
      help: ["write `\(name)(a, b)`"])
  }

  /// `PC210`: an argument of `min` or `max` of a type without order.
  static func extremumUnorderedArgument(_ name: String, _ argument: Operand, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.wrongArgumentType,
      "`\(name)` needs ordered values, but `\(argument.written)` is \(article(argument.type))", at: range,
      help: ["`\(name)` works on ints, numbers, durations, instants and versions"])
  }

  /// `PC210`: arguments of `min` or `max` of different types; `other` is the first that differs from `first`.
  static func extremumMixedArguments(_ name: String, first: Operand, other: Operand, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyCoreCode.wrongArgumentType,
      "`\(name)` needs arguments of one type, but `\(first.written)` is \(article(first.type)) and `\(other.written)` is \(article(other.type))",
      at: range, help: unitHelp(first, other), fixIts: unitFixIts(first, other))
  }

  /// `PC209`: a keyed fact with `count` keys other than 1.
  static func familyKeyCount(_ family: FactFamilyDefinition, count: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.wrongArgumentCount,
      "`\(family.name)` takes 1 key (\(family.keyMeaning)), but \(count) were given", at: range,
      help: ["write `\(family.name)(\(sampleKey(for: family)))`"])
  }

  /// `PC216`: a key that is not a literal of the family's key type.
  static func familyKeyType(_ family: FactFamilyDefinition, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidFactKey,
      "the key of `\(family.name)` must be \(article(family.keyType)) literal (\(family.keyMeaning))", at: range,
      help: ["write `\(family.name)(\(sampleKey(for: family)))`"])
  }

  /// `PC216`: a key that is zero or negative.
  static func familyKeyNotPositive(_ family: FactFamilyDefinition, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidFactKey, "the key of `\(family.name)` must be positive", at: range,
      help: ["write `\(family.name)(\(sampleKey(for: family)))`"])
  }

  // MARK: - Lists

  /// `PC211`: a list element that is not a literal.
  static func nonLiteralListElement(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidListElement, "list elements must be literals, but `\(written)` is not", at: range,
      help: ["compare separately and join with `or`"])
  }

  /// `PC211`: list elements of different types; `other` is the first that differs from `first`.
  static func mixedListElements(first: Operand, other: Operand, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidListElement,
      "list elements must have one type, but `\(first.written)` is \(article(first.type)) and `\(other.written)` is \(article(other.type))",
      at: range, help: ["use elements of one type"])
  }

  /// `PC211`: an int list element compared with numbers but too large to be one (`written` is
  /// the element, or its value when the list came from a `let`).
  static func integerTooLargeForNumber(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidListElement, "`\(written)` is compared with numbers but is too large to be a number",
      at: range, help: ["numbers range up to about 9.2 trillion; use a smaller value"])
  }

  // MARK: - Operators

  /// `PC204`: `-` before something other than an int, number or duration.
  static func invalidNegation(_ operand: Operand, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidOperands,
      "`-` needs an int, number or duration, but `\(operand.written)` is \(article(operand.type))", at: range,
      help: ["only ints, numbers and durations can be negated"])
  }

  /// `PC203`: the comparison `written` of two values of different types.
  static func incomparableTypes(_ written: String, _ lhs: Operand, _ rhs: Operand, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyCoreCode.incomparableTypes, "`\(written)` compares \(article(lhs.type)) with \(article(rhs.type))",
      at: range, help: unitHelp(lhs, rhs), fixIts: unitFixIts(lhs, rhs))
  }

  /// `PC213`: an ordering comparison `op` of values without order.
  static func unorderedComparison(_ op: BinaryOperator, _ lhs: Operand, at range: SourceRange) -> Diagnostic {
    let help =
      lhs.type == .bool
      ? "compare `bool` values with `==` or `!=`, or use `not`"
      : "strings can only be compared with `==`, `!=` and `in`"
    return Diagnostic(
      PolicyCoreCode.unorderedType,
      "`\(op.rawValue)` needs ordered values, but `\(lhs.written)` is \(article(lhs.type))", at: range, help: [help])
  }

  /// `PC212`: the right of `in` (or `not in`) is not a list.
  static func membershipWithoutList(negated: Bool, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.misplacedList, "the right of `\(negated ? "not in" : "in")` must be a list", at: range,
      help: ["write a list of literals, as in `country in [\"US\", \"CA\"]`"])
  }

  /// `PC307`: the key `key` of `family`, longer than the family's key length, names the member
  /// of its first bytes, `cut`; the fix writes that key, which names the same fact.
  static func cutFactKey(_ family: FactFamilyDefinition, key: String, cut: String, at range: SourceRange) -> Diagnostic
  {
    let length = family.keyLength ?? 0
    let replacement = StringLiteral.quoted(cut)
    return Diagnostic(
      PolicyCoreCode.cutFactKey,
      "`\(family.name)` keeps a member under the first \(length) bytes of its key; this key has \(key.utf8.count)",
      at: range,
      help: [
        "it names `\(family.name)(\(replacement))`, as does every key that starts with the same \(length) bytes",
        "shorten the key to at most \(length) bytes",
      ],
      fixIts: [
        FixIt("shorten the key to its first \(length) bytes", edits: [SourceEdit(replacing: range, with: replacement)])
      ])
  }

  /// `PC306`: the membership test `written` of an empty list.
  static func emptyList(_ written: String, negated: Bool, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.emptyList, "`\(written)` tests an empty list, so it is always \(negated ? "true" : "false")",
      at: range, help: ["add elements or remove the test"])
  }

  /// `PC203`: the membership test `written` of a value of `type` in a list of `elementType`.
  static func membershipTypeMismatch(
    _ written: String, type: PolicyType, elementType: PolicyType, at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.incomparableTypes, "`\(written)` looks for \(article(type)) in a list of `\(elementType)` values",
      at: range, help: ["the value and the list elements must have the same type"])
  }

  /// `PC305`: a default for a value that is never absent.
  static func needlessDefault(_ value: String, default fallback: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.needlessDefault, "`\(value)` is never absent, so the default `\(fallback)` is never used",
      at: range, help: ["remove `?? \(fallback)`"])
  }

  /// `PC203`: a default of another type than the value.
  static func defaultTypeMismatch(_ value: Operand, default fallback: Operand, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.incomparableTypes,
      "the default `\(fallback.written)` is \(article(fallback.type)), but `\(value.written)` is \(article(value.type))",
      at: range, help: ["give a default of the same type, such as `\(defaultExample(for: value.type))`"])
  }

  /// `PC214`: the division `written` by a literal zero.
  static func divisionByZero(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.divisionByZero, "`\(written)` divides by zero", at: range,
      help: ["division by zero has no value"])
  }

  /// `PC204`: the arithmetic `written` (operator `op`) on operand types it does not accept.
  static func invalidArithmetic(
    _ op: BinaryOperator, _ written: String, _ lhs: Operand, _ rhs: Operand, at range: SourceRange
  ) -> Diagnostic {
    let verb: String
    switch op {
    case .add: verb = "add"
    case .subtract: verb = "subtract"
    case .multiply: verb = "multiply"
    case .divide: verb = "divide"
    case .remainder: verb = "take the remainder of"
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .in, .notIn, .coalesce:
      verb = "take the remainder of"  // not arithmetic; the checker never reports these here
    }
    var help = unitHelp(lhs, rhs)
    var fixIts = unitFixIts(lhs, rhs)
    if lhs.type == .instant && rhs.type == .instant && op == .add {
      fixIts = []
      help = ["subtract instants to get the duration between them: `\(lhs.written) - \(rhs.written)`"]
    } else if lhs.type == .duration && rhs.type == .duration && op == .multiply {
      help = ["multiply a duration by an int, as in `2 * 1d`"]
      fixIts = []
    } else if help == ["both sides must have the same type"] {
      help = ["`\(op.rawValue)` works on ints, numbers and durations, and adds durations to instants"]
    }
    return Diagnostic(
      PolicyCoreCode.invalidOperands,
      "cannot \(verb) \(article(lhs.type)) and \(article(rhs.type)) in `\(written)`", at: range, help: help,
      fixIts: fixIts)
  }

  // MARK: - Shared wording

  /// "an `int`", "a `duration`".
  package static func article(_ type: PolicyType) -> String {
    switch type {
    case .int, .instant: "an `\(type)`"
    case .bool, .number, .duration, .version, .string: "a `\(type)`"
    }
  }

  /// A literal of `type` for examples in help.
  static func sampleLiteral(for type: PolicyType) -> String {
    switch type {
    case .bool: "true"
    case .int: "20"
    case .number: "4.5"
    case .duration: "30d"
    case .instant: "now"
    case .version: "v2.0"
    case .string: "\"value\""
    }
  }

  /// A default of `type` for `?? ...` in help.
  static func defaultExample(for type: PolicyType) -> String {
    switch type {
    case .bool: "false"
    case .int: "0"
    case .number: "0.0"
    case .duration: "0s"
    case .instant: "now"
    case .version: "v0.0"
    case .string: "\"\""
    }
  }

  /// A key of `family` for examples in help.
  static func sampleKey(for family: FactFamilyDefinition) -> String {
    switch family.keyType {
    case .int: "3"
    case .duration: "365d"
    case .bool, .number, .instant, .version, .string: "\"purchase\""
    }
  }

  /// `since(written)`, without doubling the parentheses of an operand written in parentheses:
  /// `(seen ?? now)` gives `since(seen ?? now)`, not `since((seen ?? now))`.
  static func sinceCall(_ written: String) -> String {
    guard written.first == "(", written.last == ")" else { return "since(\(written))" }
    // The outer parentheses enclose the whole text only when the first one closes at the end.
    var depth = 0
    for (offset, character) in written.enumerated() {
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if depth == 0 && offset < written.count - 1 { return "since(\(written))" }
    }
    return "since\(written)"
  }

  /// Advice for two operands of different types: a missing unit, a unit too many, quotes
  /// around a literal, `since`, a version literal.
  static func unitHelp(_ lhs: Operand, _ rhs: Operand) -> [String] {
    for (a, b) in [(lhs, rhs), (rhs, lhs)] {
      if let unquoted = unquotedLiteral(b, as: a.type) {
        return ["remove the quotes: `\(unquoted)` is \(article(a.type)), `\(b.written)` is a string"]
      }
    }
    for (a, b) in [(lhs, rhs), (rhs, lhs)] {
      switch (a.type, b.type) {
      case (.duration, .int), (.duration, .number):
        if case .literal(let literal) = b.expr.kind, case .int(let count) = literal {
          return [
            "add a unit to the number: `\(count)d` for \(count) days, `\(count)h` for hours, `\(count)w` for weeks"
          ]
        }
        let multiply =
          "`\(b.written)` is \(article(b.type)); turn it into a duration by multiplying by a unit, as in `\(b.written) * 1d`"
        if let count = durationLiteralCount(a) {
          return ["drop the unit: `\(count)` is an `int`, like `\(b.written)`", "or \(multiply)"]
        }
        return [multiply]
      case (.instant, .duration):
        return ["to compare how long ago `\(a.written)` was, write `\(sinceCall(a.written))`"]
      case (.instant, .int), (.instant, .number):
        return [
          "to compare how long ago `\(a.written)` was, write `\(sinceCall(a.written))` and give the number a unit, as in `30d`"
        ]
      case (.version, .number), (.version, .int):
        if case .literal = b.expr.kind {
          return ["write versions with a `v`: `v\(b.written)\(b.type == .int ? ".0" : "")`"]
        }
        return ["`\(b.written)` is \(article(b.type)), not a version"]
      case (.version, .string):
        if case .literal(.string(let text)) = b.expr.kind, let version = Version(parsing: text) {
          return ["write versions without quotes: `v\(version)`"]
        }
        return ["versions are written like `v2.1`"]
      case (.bool, .int):
        if case .literal = a.expr.kind {  // `uses >= true`: the literal is what is wrong
          return ["`\(b.written)` is an `int`: compare it with a number, for example `\(b.written) >= 1`"]
        }
        return ["write `\(a.written) == true` or `\(a.written) == false`, or use `\(a.written)` and `not \(a.written)`"]
      default:
        continue  // pairs without advice; the general advice follows
      }
    }
    return ["both sides must have the same type"]
  }

  /// The exact fixes behind ``unitHelp(_:_:)``'s first line, when it has one: remove the quotes,
  /// drop the unit, add the unit `d`, write a quoted version as a version literal.
  static func unitFixIts(_ lhs: Operand, _ rhs: Operand) -> [FixIt] {
    for (a, b) in [(lhs, rhs), (rhs, lhs)] {
      if let unquoted = unquotedLiteral(b, as: a.type) {
        return [FixIt("remove the quotes", edits: [SourceEdit(replacing: b.expr.range, with: unquoted)])]
      }
    }
    for (a, b) in [(lhs, rhs), (rhs, lhs)] {
      switch (a.type, b.type) {
      case (.duration, .int), (.duration, .number):
        if case .literal(.int) = b.expr.kind {
          return [FixIt("add the unit `d` (days)", edits: [SourceEdit.insert("d", at: b.expr.range.end)])]
        }
        if let count = durationLiteralCount(a) {
          return [FixIt("drop the unit", edits: [SourceEdit(replacing: a.expr.range, with: count)])]
        }
        return []
      case (.version, .number), (.version, .int):
        guard case .literal = b.expr.kind, b.expr.range.length == b.written.utf8.count else { return [] }
        return [
          FixIt(
            "write a version literal",
            edits: [SourceEdit(replacing: b.expr.range, with: "v\(b.written)\(b.type == .int ? ".0" : "")")])
        ]
      case (.version, .string):
        guard case .literal(.string(let text)) = b.expr.kind, let version = Version(parsing: text) else { return [] }
        return [FixIt("write a version literal", edits: [SourceEdit(replacing: b.expr.range, with: "v\(version)")])]
      default:
        continue
      }
    }
    return []
  }

  /// The digits of `operand` when it is a duration literal written as digits and a unit (`14d`).
  static func durationLiteralCount(_ operand: Operand) -> String? {
    guard case .literal(.duration) = operand.expr.kind, operand.expr.range.length == operand.written.utf8.count
    else { return nil }
    let digits = operand.written.prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty ? nil : String(digits)
  }

  /// The text of `operand` without its quotes, when it is a string literal whose text is a
  /// literal of `type` (`"30"` for an int, `"7.5"` for a number, `"30d"` for a duration, `"true"`).
  static func unquotedLiteral(_ operand: Operand, as type: PolicyType) -> String? {
    guard case .literal(.string(let text)) = operand.expr.kind, !text.isEmpty, text.utf8.count <= 40 else { return nil }
    let source = SourceFile(path: "", bytes: Array(text.utf8))
    var lexer = Lexer(source: source)
    var bag = DiagnosticBag()
    lexer.lex(into: &bag)
    guard bag.diagnostics.isEmpty, lexer.tokens.count == 2, let token = lexer.tokens.first,
      token.range == SourceRange(start: 0, end: source.bytes.count)
    else { return nil }
    switch (type, token.kind) {
    case (.int, .integer), (.number, .integer), (.number, .number), (.duration, .duration),
      (.bool, .trueKeyword), (.bool, .falseKeyword):
      return text
    case (.bool, _), (.int, _), (.number, _), (.duration, _), (.instant, _), (.version, _), (.string, _):
      return nil
    }
  }
}
