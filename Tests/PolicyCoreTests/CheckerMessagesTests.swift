import Testing

@testable import PolicyCore

/// `CheckerMessages` writes every message the checker writes: each case compiles a policy and
/// compares the checker's diagnostic with the factory's, made at the same range, so each factory
/// is reached from the checker with the arguments it expects.
@Suite("checker messages: the factories match the checker's diagnostics")
struct CheckerMessagesTests {
  /// A toy schema: one fact of each type, two optional facts and two keyed families.
  static let schema: FactSchema = {
    let facts = [
      FactDefinition("days", .int, meaning: "days"), FactDefinition("score", .number, meaning: "score"),
      FactDefinition("wait", .duration, meaning: "wait"), FactDefinition("version", .version, meaning: "version"),
      FactDefinition("plan", .string, meaning: "plan"), FactDefinition("rated", .bool, meaning: "rated"),
      FactDefinition("first_use", .instant, meaning: "first use"),
      FactDefinition("last_prompt", .instant, isOptional: true, meaning: "last prompt"),
      FactDefinition("nickname", .string, isOptional: true, meaning: "nickname"),
    ]
    let families = [
      FactFamilyDefinition("events", key: .string, keyMeaning: "event name", .int, meaning: "events"),
      FactFamilyDefinition("prompts_within", key: .duration, keyMeaning: "a window", .int, meaning: "prompts"),
    ]
    return (try? FactSchema(facts: facts, families: families)) ?? FactSchema.empty
  }()

  static var events: FactFamilyDefinition { schema.families[0] }
  static var promptsWithin: FactFamilyDefinition { schema.families[1] }

  /// An operand that is a name.
  static func name(_ written: String, _ type: PolicyType) -> CheckerMessages.Operand {
    let expr = Expr(.name(Identifier(written, range: .empty(at: 0))), range: .empty(at: 0))
    return CheckerMessages.Operand(expr: expr, written: written, type: type)
  }

  /// An operand that is a literal, at `start` in the policy's text (where a fix-it edits it).
  static func literal(_ literal: Literal, _ written: String, at start: Int = 0) -> CheckerMessages.Operand {
    let range = SourceRange(start: start, end: start == 0 ? 0 : start + written.utf8.count)
    return .init(expr: Expr(.literal(literal), range: range), written: written, type: literal.value.type)
  }

  /// Compiles `text` and expects exactly one diagnostic with the factory's code, equal to the
  /// factory's diagnostic at its range.
  static func expect(
    _ text: String, _ make: (SourceRange) -> Diagnostic, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let compilation = PolicyCompiler.compile(text, path: "test.policy", schema: schema)
    let code = make(.empty(at: 0)).code
    let matching = compilation.diagnostics.filter { $0.code == code }
    #expect(
      matching.count == 1, "\(text): \(compilation.diagnostics.map { "\($0.code.rawValue) \($0.message)" })",
      sourceLocation: sourceLocation)
    guard let actual = matching.first else { return }
    #expect(actual == make(actual.range), "\(text)", sourceLocation: sourceLocation)
  }

  @Test("declarations: duplicates (with notes), unused names, no ask rule")
  func declarations() {
    Self.expect("ask loyal when rated\nask loyal when days > 1") {
      CheckerMessages.duplicateRuleName("loyal", first: SourceRange(start: 4, end: 9), at: $0)
    }
    Self.expect("fact x: int\nfact x: bool\nask when x > 1") {
      CheckerMessages.factDeclaredTwice("x", first: SourceRange(start: 5, end: 6), at: $0)
    }
    Self.expect("fact days: int\nask when days > 1") {
      CheckerMessages.factOfSchemaDeclared("days", type: .int, at: $0)
    }
    Self.expect("fact now: instant\nask when rated") { CheckerMessages.builtinDeclaredAsFact("now", at: $0) }
    Self.expect("let a = 1\nlet a = 2\nask when a > 1") {
      CheckerMessages.letDefinedTwice("a", first: SourceRange(start: 4, end: 5), at: $0)
    }
    Self.expect("let since = 3\nask when rated") { CheckerMessages.builtinDefinedAsLet("since", at: $0) }
    Self.expect("let days = 3\nask when rated") { CheckerMessages.factDefinedAsLet("days", at: $0) }
    Self.expect("let x = 3\nask when rated") { CheckerMessages.unusedLet("x", at: $0) }
    Self.expect("fact extra: int\nask when rated") { CheckerMessages.unusedFact("extra", at: $0) }
    Self.expect("never when rated") { CheckerMessages.noAskRule(hasRules: true, at: $0) }
    Self.expect("") { CheckerMessages.noAskRule(hasRules: false, at: $0) }
  }

  @Test("values: lists outside `in`, absent values, conditions that are not bools")
  func values() {
    Self.expect("ask when [1, 2] == days") { CheckerMessages.listOutsideIn("[1, 2]", at: $0) }
    Self.expect("ask when last_prompt < now") {
      CheckerMessages.unguardedAbsentValue("last_prompt", isName: true, type: .instant, at: $0)
    }
    Self.expect("ask when (nickname) == \"a\"") {
      CheckerMessages.unguardedAbsentValue("(nickname)", isName: false, type: .string, at: $0)
    }
    Self.expect("ask when days") {
      CheckerMessages.notBoolean(Self.name("days", .int), context: "the condition of `ask when`", at: $0)
    }
    Self.expect("ask when first_use") {
      CheckerMessages.notBoolean(Self.name("first_use", .instant), context: "the condition of `ask when`", at: $0)
    }
    Self.expect("ask when not plan") {
      CheckerMessages.notBoolean(Self.name("plan", .string), context: "the operand of `not`", at: $0)
    }
    Self.expect("score") { CheckerMessages.notBoolean(Self.name("score", .number), context: "the condition", at: $0) }
    Self.expect("ask when rated and days") {
      CheckerMessages.notBoolean(Self.name("days", .int), context: "each operand of `and`", at: $0)
    }
  }

  @Test("names: use before definition, keyed facts without a key, functions without arguments, unknown names")
  func names() {
    Self.expect("ask when engaged\nlet engaged = days > 3") {
      CheckerMessages.useBeforeDefinition("engaged", definedOnLine: 2, at: $0)
    }
    Self.expect("ask when events > 3") { CheckerMessages.missingKey(Self.events, at: $0) }
    Self.expect("ask when since > 3d") { CheckerMessages.functionWithoutArguments(.since, at: $0) }
    let candidates = Self.schema.facts.map(\.name) + ["now"]
    Self.expect("ask when dayz > 3") { CheckerMessages.unknownName("dayz", candidates: candidates, at: $0) }
    Self.expect("ask when TRUE") { CheckerMessages.unknownName("TRUE", candidates: candidates, at: $0) }
    Self.expect("ask when int > 3") { CheckerMessages.unknownName("int", candidates: candidates, at: $0) }
    Self.expect("ask when events(\"export\") >= 3 or exports >= 3") {
      CheckerMessages.unknownNameLikeKey("exports", family: "events", key: "export", forms: ["events"], at: $0)
    }
    Self.expect("ask when zzzzqqq > 3") { CheckerMessages.unknownName("zzzzqqq", candidates: candidates, at: $0) }
    Self.expect("let tiers = [\"a\"]\nask when has tiers") { CheckerMessages.hasOnList("tiers", at: $0) }
    Self.expect("ask when has now") { CheckerMessages.hasNow(at: $0) }
    Self.expect("ask when has days") { CheckerMessages.alwaysPresent("days", at: $0) }
  }

  @Test("calls: built-ins and keyed facts")
  func calls() {
    let families = ["events", "prompts_within"]
    Self.expect("ask when days(3) > 1") { CheckerMessages.notAFunction("days", at: $0) }
    Self.expect("ask when sinse(last_prompt) > 3d") {
      CheckerMessages.unknownFunction("sinse", families: families, at: $0)
    }
    Self.expect("ask when frobnicate(1) > 3") {
      CheckerMessages.unknownFunction("frobnicate", families: families, at: $0)
    }
    // The example instant is the one the policy gave, else the schema's first instant fact.
    Self.expect("ask when since() > 1d") { CheckerMessages.sinceArgumentCount(0, instant: "first_use", at: $0) }
    Self.expect("ask when since(last_prompt, now) > 1d") {
      CheckerMessages.sinceArgumentCount(2, instant: "last_prompt", at: $0)
    }
    Self.expect("ask when since(days, now) > 1d") {
      CheckerMessages.sinceArgumentCount(2, instant: "first_use", at: $0)
    }
    Self.expect("ask when since(days) > 1d") {
      CheckerMessages.sinceArgumentType(Self.name("days", .int), instant: "first_use", at: $0)
    }
    Self.expect("ask when since(plan) > 1d") {
      CheckerMessages.sinceArgumentType(Self.name("plan", .string), instant: "first_use", at: $0)
    }
    Self.expect("ask when abs(days, days) > 1") {
      CheckerMessages.functionArgumentCount(.abs, count: 2, at: $0)
    }
    Self.expect("ask when abs(plan) == \"a\"") {
      CheckerMessages.functionArgumentType(.abs, Self.name("plan", .string), at: $0)
    }
    Self.expect("ask when min(days) > 1") { CheckerMessages.extremumArgumentCount("min", count: 1, at: $0) }
    Self.expect("ask when max() > 1") { CheckerMessages.extremumArgumentCount("max", count: 0, at: $0) }
    Self.expect("ask when max(plan, plan) == \"a\"") {
      CheckerMessages.extremumUnorderedArgument("max", Self.name("plan", .string), at: $0)
    }
    Self.expect("ask when min(wait, 3) > 1d") {
      CheckerMessages.extremumMixedArguments(
        "min", first: Self.name("wait", .duration), other: Self.literal(.int(3), "3", at: 19), at: $0)
    }
    Self.expect("ask when events() > 1") { CheckerMessages.familyKeyCount(Self.events, count: 0, at: $0) }
    Self.expect("ask when events(3) > 1") { CheckerMessages.familyKeyType(Self.events, at: $0) }
    Self.expect("ask when prompts_within(0d) > 1") { CheckerMessages.familyKeyNotPositive(Self.promptsWithin, at: $0) }
  }

  @Test("`since` examples come from the policy: a declared instant, or a placeholder without one")
  func sinceExamples() {
    let facts = [FactDefinition("days", .int, meaning: "days")]
    let schema = (try? FactSchema(facts: facts, families: [])) ?? FactSchema.empty
    for (text, instant) in [("ask when since() > 1d", nil), ("fact seen: instant\nask when since() > 1d", "seen")] {
      let compilation = PolicyCompiler.compile(text, path: "test.policy", schema: schema)
      let actual = compilation.diagnostics.filter { $0.code == PolicyCoreCode.wrongArgumentCount.code }
      let range = actual.first?.range ?? .empty(at: 0)
      #expect(actual == [CheckerMessages.sinceArgumentCount(0, instant: instant, at: range)])
    }
  }

  @Test("lists: elements that are not literals, of mixed types, or too large to be numbers")
  func lists() {
    Self.expect("ask when days in [days, 3]") { CheckerMessages.nonLiteralListElement("days", at: $0) }
    Self.expect("ask when days in [1, \"a\"]") {
      CheckerMessages.mixedListElements(
        first: Self.literal(.int(1), "1"), other: Self.literal(.string("a"), "\"a\""), at: $0)
    }
    Self.expect("ask when score in [1.5, 9223372036854775807]") {
      CheckerMessages.integerTooLargeForNumber("9223372036854775807", at: $0)
    }
    Self.expect("let big = [9223372036854775807]\nask when score in big") {
      CheckerMessages.integerTooLargeForNumber("9223372036854775807", at: $0)
    }
  }

  @Test("operators: negation, comparisons, membership, defaults, arithmetic")
  func operators() {
    Self.expect("ask when -plan == \"a\"") { CheckerMessages.invalidNegation(Self.name("plan", .string), at: $0) }
    Self.expect("ask when since(last_prompt) >= 30") {
      CheckerMessages.incomparableTypes(
        "since(last_prompt) >= 30", Self.name("since(last_prompt)", .duration), Self.literal(.int(30), "30", at: 31),
        at: $0)
    }
    Self.expect("ask when version >= 2.1") {
      CheckerMessages.incomparableTypes(
        "version >= 2.1", Self.name("version", .version),
        Self.literal(.number(Number(parsing: "2.1") ?? Number(scaled: 0)), "2.1", at: 20), at: $0)
    }
    Self.expect("ask when first_use > 3") {
      CheckerMessages.incomparableTypes(
        "first_use > 3", Self.name("first_use", .instant), Self.literal(.int(3), "3"), at: $0)
    }
    Self.expect("ask when plan < \"pro\"") {
      CheckerMessages.unorderedComparison(.less, Self.name("plan", .string), at: $0)
    }
    Self.expect("ask when rated < true") {
      CheckerMessages.unorderedComparison(.less, Self.name("rated", .bool), at: $0)
    }
    Self.expect("ask when plan in plan") { CheckerMessages.membershipWithoutList(negated: false, at: $0) }
    Self.expect("ask when plan not in plan") { CheckerMessages.membershipWithoutList(negated: true, at: $0) }
    Self.expect("ask when plan in []") { CheckerMessages.emptyList("plan in []", negated: false, at: $0) }
    Self.expect("ask when plan not in []") { CheckerMessages.emptyList("plan not in []", negated: true, at: $0) }
    Self.expect("ask when plan in [1, 2]") {
      CheckerMessages.membershipTypeMismatch("plan in [1, 2]", type: .string, elementType: .int, at: $0)
    }
    Self.expect("ask when (days ?? 0) > 1") { CheckerMessages.needlessDefault("days", default: "0", at: $0) }
    Self.expect("ask when (nickname ?? 3) == \"a\"") {
      CheckerMessages.defaultTypeMismatch(
        Self.name("nickname", .string), default: Self.literal(.int(3), "3"), at: $0)
    }
    Self.expect("ask when days / 0 > 1") { CheckerMessages.divisionByZero("days / 0", at: $0) }
    Self.expect("ask when plan + 1 == \"a\"") {
      CheckerMessages.invalidArithmetic(
        .add, "plan + 1", Self.name("plan", .string), Self.literal(.int(1), "1"), at: $0)
    }
    Self.expect("ask when first_use + first_use > now") {
      CheckerMessages.invalidArithmetic(
        .add, "first_use + first_use", Self.name("first_use", .instant), Self.name("first_use", .instant), at: $0)
    }
    Self.expect("ask when wait * wait > 1d") {
      CheckerMessages.invalidArithmetic(
        .multiply, "wait * wait", Self.name("wait", .duration), Self.name("wait", .duration), at: $0)
    }
    Self.expect("ask when wait % 2 > 1d") {
      CheckerMessages.invalidArithmetic(
        .remainder, "wait % 2", Self.name("wait", .duration), Self.literal(.int(2), "2", at: 16), at: $0)
    }
  }

  /// The advice to measure the time since an instant written in parentheses names one pair of
  /// parentheses, not two; other texts keep theirs.
  @Test("since(...) advice does not double an operand's parentheses")
  func sinceAdviceKeepsOnePairOfParentheses() {
    let compilation = PolicyCompiler.compile(
      "ask when (last_prompt ?? first_use) > 30d\n", path: "test.policy", schema: Self.schema)
    let help = compilation.diagnostics.flatMap(\.help)
    #expect(
      help.contains("to compare how long ago `(last_prompt ?? first_use)` was, write `since(last_prompt ?? first_use)`")
    )
    #expect(!help.joined().contains("since(("))
    #expect(CheckerMessages.sinceCall("(a) + (b)") == "since((a) + (b))")
    #expect(CheckerMessages.sinceCall("first_use") == "since(first_use)")
    #expect(CheckerMessages.sinceCall("((x))") == "since((x))")
  }
}
