import Testing

@testable import PolicyCore

/// Compiles `text` and returns its only error; fails unless there is exactly one.
private func onlyError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Diagnostic {
  let compilation = compile(text)
  let errors = compilation.diagnostics.filter { $0.severity == .error }
  #expect(
    errors.count == 1, "\(compilation.diagnostics.map { "\($0.code.rawValue) \($0.message)" })",
    sourceLocation: sourceLocation)
  #expect(compilation.policy == nil, sourceLocation: sourceLocation)
  return try #require(errors.first, sourceLocation: sourceLocation)
}

/// Compiles `text`, requires no errors, and returns the warnings.
private func warnings(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
  let compilation = compile(text)
  #expect(
    !compilation.hasErrors, "\(compilation.diagnostics.map { "\($0.code.rawValue) \($0.message)" })",
    sourceLocation: sourceLocation)
  #expect(compilation.policy != nil, sourceLocation: sourceLocation)
  return compilation.diagnostics.filter { $0.severity == .warning }
}

/// The typed condition of the first rule of `text`.
private func condition(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> TypedExpr {
  let policy = try compiled(text, sourceLocation: sourceLocation)
  return try #require(policy.rules.first, sourceLocation: sourceLocation).condition
}

/// The typed operands of a comparison condition.
private func comparison(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (
  ComparisonOperator, TypedExpr, TypedExpr
) {
  let typed = try condition(text, sourceLocation: sourceLocation)
  guard case .compare(let op, let lhs, let rhs) = typed.node else {
    Issue.record("not a comparison: \(typed.node)", sourceLocation: sourceLocation)
    throw CancellationError()
  }
  return (op, lhs, rhs)
}

@Suite("Checker: types")
struct CheckerTypeTests {
  @Test("an int compared with a number is promoted to a number")
  func intNumberPromotion() throws {
    let (op, lhs, rhs) = try comparison("ask when session_score > 3")
    #expect(op == .greater)
    #expect(lhs.type == .number && rhs.type == .number)
    guard case .promote(let inner) = rhs.node else {
      Issue.record("the int side is not promoted: \(rhs.node)")
      return
    }
    #expect(inner.type == .int)
    guard case .constant(let constant) = inner.node else {
      Issue.record("the promoted side is not a constant: \(inner.node)")
      return
    }
    #expect(constant == .int(3))

    let (_, left, _) = try comparison("ask when days + 0.5 > 30")
    #expect(left.type == .number)
    guard case .arithmetic(.addNumber, let days, _) = left.node, case .promote = days.node else {
      Issue.record("`days + 0.5` is not number addition of a promoted int: \(left.node)")
      return
    }
  }

  @Test("int and number mix in min/max, lists and defaults")
  func promotionElsewhere() throws {
    let (_, extremum, _) = try comparison("ask when max(days, session_score) > 1")
    #expect(extremum.type == .number)
    let membership = try condition("ask when session_score in [1, 2.5]")
    guard case .membership(false, _, let values) = membership.node else {
      Issue.record("not a membership test")
      return
    }
    #expect(values == [.number(Number(scaled: 1_000_000)), .number(Number(scaled: 2_500_000))])
    let (_, coalesced, _) = try comparison("ask when average_score(3) ?? 0 >= 75")
    #expect(coalesced.type == .number)
    #expect(!coalesced.isOptional)
  }

  @Test("duration arithmetic: instant - instant, duration * int, int * duration, duration / duration")
  func durationArithmetic() throws {
    let cases: [(String, Arithmetic, PolicyType)] = [
      ("now - first_use >= 30d", .subtractInstants, .duration),
      ("since(first_use) * 2 > 1d", .multiplyDuration, .duration),
      ("2 * since(first_use) > 1d", .multiplyIntByDuration, .duration),
      ("since(first_use) / 1d >= 30", .divideDurations, .int),
      ("since(first_use) / 2 > 1d", .divideDurationByInt, .duration),
      ("since(first_use) + 1d > 1d", .addDuration, .duration),
      ("since(first_use) - 1d > 1d", .subtractDuration, .duration),
      ("first_use + 1d < now", .addToInstant, .instant),
      ("1d + first_use < now", .addInstantToDuration, .instant),
      ("first_use - 1d < now", .subtractFromInstant, .instant),
      ("days * 2 > 1", .multiplyInt, .int),
      ("days % 7 == 1", .remainderInt, .int),
      ("session_score / 2 > 1", .divideNumber, .number),
    ]
    for (text, operation, type) in cases {
      let (_, lhs, _) = try comparison("ask when " + text)
      guard case .arithmetic(let found, let left, let right) = lhs.node else {
        Issue.record("`\(text)`: not arithmetic")
        continue
      }
      #expect(found == operation, "\(text)")
      #expect(lhs.type == type, "\(text)")
      // Operands keep their written order, so evaluation (and the first fault) goes left to right.
      #expect(left.range.start < right.range.start, "\(text)")
    }
  }

  @Test(
    "arithmetic that has no meaning is PC204 with advice",
    arguments: [
      (
        "since(first_use) * 1.5 > 1d", "cannot multiply a `duration` and a `number` in `since(first_use) * 1.5`",
        "`1.5` is a `number`; turn it into a duration by multiplying by a unit, as in `1.5 * 1d`"
      ),
      (
        "1d * 1d > 1d", "cannot multiply a `duration` and a `duration` in `1d * 1d`",
        "multiply a duration by an int, as in `2 * 1d`"
      ),
      (
        "first_use + first_use > now", "cannot add an `instant` and an `instant` in `first_use + first_use`",
        "subtract instants to get the duration between them: `first_use - first_use`"
      ),
      (
        "since(last_prompt) + 3 > 1d", "cannot add a `duration` and an `int` in `since(last_prompt) + 3`",
        "add a unit to the number: `3d` for 3 days, `3h` for hours, `3w` for weeks"
      ),
      (
        "session_score % 2 > 1", "cannot take the remainder of a `number` and a `number` in `session_score % 2`",
        "`%` works on ints, numbers and durations, and adds durations to instants"
      ),
      (
        "1d - first_use > 1d", "cannot subtract a `duration` and an `instant` in `1d - first_use`",
        "to compare how long ago `first_use` was, write `since(first_use)`"
      ),
    ])
  func invalidOperands(text: String, message: String, help: String) throws {
    let error = try onlyError("ask when " + text)
    #expect(error.code == .invalidOperands)
    #expect(error.message == message)
    #expect(error.help == [help])
  }

  @Test("comparing an int with a duration is PC203 and the help adds a unit")
  func intVersusDuration() throws {
    let compilation = compile("ask when since(last_prompt) >= 30")
    let error = try diagnostic(.incomparableTypes, in: compilation)
    #expect(error.message == "`since(last_prompt) >= 30` compares a `duration` with an `int`")
    #expect(error.help == ["add a unit to the number: `30d` for 30 days, `30h` for hours, `30w` for weeks"])
    #expect(text(error.range, in: compilation) == "since(last_prompt) >= 30")
    #expect(compilation.policy == nil)

    let reversed = try onlyError("ask when days > since(first_use)")
    #expect(reversed.code == .incomparableTypes)
    #expect(
      reversed.help == ["`days` is an `int`; turn it into a duration by multiplying by a unit, as in `days * 1d`"])
    let instant = try onlyError("ask when first_use > 30d")
    #expect(instant.help == ["to compare how long ago `first_use` was, write `since(first_use)`"])
    let instantNumber = try onlyError("ask when first_use > 30")
    #expect(
      instantNumber.help == [
        "to compare how long ago `first_use` was, write `since(first_use)` and give the number a unit, as in `30d`"
      ])
  }

  @Test(
    "a version compared with a number literal suggests a version literal",
    arguments: [
      ("version >= 2.1", "`version >= 2.1` compares a `version` with a `number`", "write versions with a `v`: `v2.1`"),
      ("version >= 2", "`version >= 2` compares a `version` with an `int`", "write versions with a `v`: `v2.0`"),
      (
        "version >= \"2.1\"", "`version >= \"2.1\"` compares a `version` with a `string`",
        "write versions without quotes: `v2.1`"
      ),
      ("version > days", "`version > days` compares a `version` with an `int`", "`days` is an `int`, not a version"),
      (
        "declined == 0", "`declined == 0` compares a `bool` with an `int`",
        "write `declined == true` or `declined == false`, or use `declined` and `not declined`"
      ),
    ])
  func versionHelp(text: String, message: String, help: String) throws {
    let error = try onlyError("ask when " + text)
    #expect(error.code == .incomparableTypes)
    #expect(error.message == message)
    #expect(error.help == [help])
  }

  @Test("strings and bools have no order (PC213)")
  func unordered() throws {
    let string = try onlyError("fact plan: string\nask when plan < \"pro\"")
    #expect(string.code == .unorderedType)
    #expect(string.message == "`<` needs ordered values, but `plan` is a `string`")
    #expect(string.help == ["strings can only be compared with `==`, `!=` and `in`"])
    let bool = try onlyError("ask when declined >= rated")
    #expect(bool.code == .unorderedType)
    #expect(bool.help == ["compare `bool` values with `==` or `!=`, or use `not`"])
    // Equality is fine for both.
    #expect(compile("fact plan: string\nask when plan != \"pro\" and declined == rated").policy != nil)
  }

  @Test("conditions must be bool (PC205)")
  func notBoolean() throws {
    let rule = try onlyError("ask when uses")
    #expect(rule.code == .notBoolean)
    #expect(rule.message == "the condition of `ask when` must be a `bool`, but `uses` is an `int`")
    #expect(rule.help == ["compare it, for example `uses >= 20`"])
    let bare = try onlyError("first_use")
    #expect(bare.message == "the condition must be a `bool`, but `first_use` is an `instant`")
    #expect(bare.help == ["compare the time since it: `since(first_use) >= 30d`"])
    let operand = try onlyError("ask when declined and days")
    #expect(operand.message == "each operand of `and` must be a `bool`, but `days` is an `int`")
    let negation = try onlyError("never when not version")
    #expect(negation.message == "the operand of `not` must be a `bool`, but `version` is a `version`")
    let string = try onlyError("fact plan: string\nask when plan")
    #expect(string.help == ["compare it, for example `plan == \"value\"`"])
  }

  @Test("unary minus needs an int, number or duration")
  func negation() throws {
    let error = try onlyError("ask when -declined")
    #expect(error.code == .invalidOperands)
    #expect(error.message == "`-` needs an int, number or duration, but `declined` is a `bool`")
    #expect(try condition("ask when -since(first_use) < 0s").type == .bool)
    #expect(try condition("ask when -session_score < 0").type == .bool)
  }

  @Test(
    "division by a literal zero is PC214",
    arguments: [
      "uses / 0 > 1", "uses % (0) > 1", "session_score / 0.0 > 1", "since(first_use) / 0s > 1",
      "session_score / -0.0 > 1", "since(first_use) / 0 > 1d",
    ])
  func divisionByZero(text: String) throws {
    let error = try onlyError("ask when " + text)
    #expect(error.code == .divisionByZero)
    #expect(error.message.hasSuffix("divides by zero"))
  }

  @Test("min and max: at least two ordered values of one type")
  func extremum() throws {
    #expect(try comparison("ask when min(since(last_prompt), since(first_use)) > 1d").1.type == .duration)
    #expect(try comparison("ask when max(version, v2.0, v1.0) > v2.0").1.type == .version)
    let count = try onlyError("ask when min(days) > 1")
    #expect(count.code == .wrongArgumentCount)
    #expect(count.message == "`min` takes at least 2 arguments, but 1 was given")
    let mixed = try onlyError("ask when max(days, 1d) > 1")
    #expect(mixed.code == .wrongArgumentType)
    #expect(mixed.message == "`max` needs arguments of one type, but `days` is an `int` and `1d` is a `duration`")
    let unorderedArgument = try onlyError("ask when min(declined, rated)")
    #expect(unorderedArgument.code == .wrongArgumentType)
    #expect(unorderedArgument.message == "`min` needs ordered values, but `declined` is a `bool`")
    let absent = try onlyError("ask when min(last_prompt, now) < now")
    #expect(absent.code == .unguardedAbsentValue)
  }

  @Test("lists: literals of one type, only on the right of `in`")
  func lists() throws {
    let element = try onlyError("ask when days in [uses, 3]")
    #expect(element.code == .invalidListElement)
    #expect(element.message == "list elements must be literals, but `uses` is not")
    let mixed = try onlyError("ask when days in [1, \"a\"]")
    #expect(mixed.code == .invalidListElement)
    #expect(mixed.message == "list elements must have one type, but `1` is an `int` and `\"a\"` is a `string`")
    let misplaced = try onlyError("ask when [1, 2] == days")
    #expect(misplaced.code == .misplacedList)
    #expect(misplaced.message == "a list can only appear on the right of `in`")
    let notAList = try onlyError("ask when days in 3")
    #expect(notAList.code == .misplacedList)
    #expect(notAList.message == "the right of `in` must be a list")
    let wrongType = try onlyError("ask when days in [\"a\"]")
    #expect(wrongType.code == .incomparableTypes)
    #expect(wrongType.message == "`days in [\"a\"]` looks for an `int` in a list of `string` values")
    // A list through a `let`, negative literals and parenthesized literals are fine.
    #expect(compile("let small = [-1, (2), -3.5]\nask when session_score in small").policy != nil)
    #expect(compile("ask when since(first_use) not in [-1d, 2w]").policy != nil)
  }

  @Test("`has x` where `x` names a list `let` is an error, not a silently dropped rule")
  func hasOnListLet() {
    let compilation = compile("let langs = [\"en\"]\nask when has langs")
    #expect(compilation.policy == nil)
    #expect(compilation.diagnostics.map(\.code) == [.misplacedList])
    #expect(compilation.diagnostics.first?.message == "`langs` is a list and is never absent")
  }
}

@Suite("Checker: absent values")
struct CheckerAbsenceTests {
  @Test("an unguarded absent value is PC206 with a guard, a default and (for instants) `since`")
  func unguarded() throws {
    let version = try onlyError("ask when last_prompt_version < version")
    #expect(version.code == .unguardedAbsentValue)
    #expect(version.message == "`last_prompt_version` can be absent")
    #expect(
      version.help == [
        "guard it: `has last_prompt_version and ...`", "or give a default: `last_prompt_version ?? v0.0`",
      ])
    let instant = try onlyError("ask when last_prompt < now")
    #expect(
      instant.help == [
        "guard it: `has last_prompt and ...`", "or give a default: `last_prompt ?? now`",
        "or measure the time since it with `since(last_prompt)`, which is infinite when it never happened",
      ])
  }

  @Test(
    "`has` guards the rest of an `and` chain",
    arguments: [
      "has last_prompt_version and version > last_prompt_version",
      "has last_prompt_version and declined and version > last_prompt_version",
      "(has last_prompt_version) and version > last_prompt_version",
      "has last_prompt_version and (version > last_prompt_version or rated)",
      "(has last_prompt_version and rated) and version > last_prompt_version",
      "has last_prompt and has last_decline and last_prompt < last_decline",
      "not not has last_prompt_version and version > last_prompt_version",
    ])
  func guardInAnd(text: String) {
    #expect(warnings("ask when " + text).isEmpty)
  }

  @Test(
    "`not has` guards the rest of an `or` chain",
    arguments: [
      "not has last_prompt_version or version > last_prompt_version",
      "not (has last_prompt_version) or version > last_prompt_version",
      "rated or not has last_prompt_version or version > last_prompt_version",
      "not (has last_prompt_version and has last_decline) or last_prompt_version < version",
      "(not has last_prompt_version or rated) or version > last_prompt_version",
    ])
  func guardInOr(text: String) {
    #expect(warnings("ask when " + text).isEmpty)
  }

  @Test(
    "guards that do not guard",
    arguments: [
      "has last_prompt_version or version > last_prompt_version",
      "not has last_prompt_version and version > last_prompt_version",
      "(has last_prompt_version or rated) and version > last_prompt_version",
      "has last_prompt_version and rated or version > last_prompt_version",
      "not (has last_prompt_version or rated) or version > last_prompt_version",
      "(has last_prompt_version) == true and version > last_prompt_version",
      "version > last_prompt_version and has last_prompt_version",
    ])
  func notGuards(text: String) throws {
    let error = try onlyError("ask when " + text)
    #expect(error.code == .unguardedAbsentValue)
  }

  @Test("a guard does not reach across rules")
  func notAcrossRules() throws {
    let error = try onlyError("never when not has last_prompt_version\nask when version > last_prompt_version")
    #expect(error.code == .unguardedAbsentValue)
  }

  @Test("a guard does not reach through a `let`")
  func notThroughLet() throws {
    let error = try onlyError("let seen = has last_prompt_version\nask when seen and version > last_prompt_version")
    #expect(error.code == .unguardedAbsentValue)
    // ...but a `let` that can be absent can itself be guarded.
    #expect(warnings("let previous = last_prompt_version\nask when has previous and version > previous").isEmpty)
    #expect(
      try onlyError("let previous = last_prompt_version\nask when version > previous").code == .unguardedAbsentValue)
  }

  @Test("`??` gives a default of the same type; an absent default keeps the result absent")
  func defaults() throws {
    #expect(warnings("ask when (last_prompt_version ?? v0.0) < version").isEmpty)
    #expect(warnings("ask when average_score(3) ?? 0 >= 75").isEmpty)
    #expect(warnings("ask when (last_prompt ?? last_reminder ?? now) <= now").isEmpty)
    let stillAbsent = try onlyError("ask when (last_prompt ?? last_reminder) < now")
    #expect(stillAbsent.code == .unguardedAbsentValue)
    let wrongType = try onlyError("ask when (last_prompt_version ?? 3) < version")
    #expect(wrongType.code == .incomparableTypes)
    #expect(wrongType.message == "the default `3` is an `int`, but `last_prompt_version` is a `version`")
    #expect(wrongType.help == ["give a default of the same type, such as `v0.0`"])
    // An int that can be absent cannot take a number default (the int is not promoted).
    #expect(try onlyError("ask when (sessions_since_prompt ?? 1.5) > 1").code == .incomparableTypes)
  }

  @Test("`since` accepts an instant that can be absent")
  func since() throws {
    let (_, lhs, _) = try comparison("ask when since(last_prompt) >= 8w")
    guard case .since(let argument) = lhs.node else {
      Issue.record("not since")
      return
    }
    #expect(argument.isOptional)
    #expect(lhs.type == .duration && !lhs.isOptional)
    let wrongType = try onlyError("ask when since(days) > 1d")
    #expect(wrongType.code == .wrongArgumentType)
    #expect(wrongType.message == "`since` needs an `instant`, but `days` is an `int`")
    #expect(wrongType.help == ["`days` is already an `int`; compare it directly"])
    let noArgument = try onlyError("ask when since() > 1d")
    #expect(noArgument.code == .wrongArgumentCount)
    #expect(noArgument.message == "`since` takes 1 argument, but 0 were given")
    #expect(try onlyError("ask when since(now, now) > 1d").code == .wrongArgumentCount)
  }

  @Test("keyed facts: string keys that agree on the family's key length name one member, cut in whole characters")
  func keyLength() throws {
    let schema = try FactSchema(
      facts: [],
      families: [
        FactFamilyDefinition("tag", key: .string, keyMeaning: "tag", .int, meaning: "tags", keyLength: 4),
        FactFamilyDefinition("full", key: .string, keyMeaning: "name", .int, meaning: "names"),
      ])
    let policy = try compiled(
      "ask when tag(\"abcdX\") == 1 and tag(\"abcdY\") >= 1 and tag(\"ab\u{e9}z\") == 2 and full(\"abcdX\") == 3",
      schema: schema)
    // Both long keys are the member `tag("abcd")`; `é` is 2 bytes, so "abéz" cuts to "abé".
    let warnings = compile(
      "ask when tag(\"abcdX\") == 1 and tag(\"abcdY\") >= 1 and tag(\"ab\u{e9}z\") == 2 and full(\"abcdX\") == 3",
      schema: schema
    ).diagnostics
    #expect(warnings.map(\.code) == [.cutFactKey, .cutFactKey, .cutFactKey])
    #expect(warnings.first?.message == "`tag` keeps a member under the first 4 bytes of its key; this key has 5")
    #expect(warnings.map { $0.fixIts.first?.edits.first?.replacement } == ["\"abcd\"", "\"abcd\"", "\"ab\u{e9}\""])
    #expect(policy.layout.slots.map(\.name) == ["tag(\"abcd\")", "tag(\"ab\u{e9}\")", "full(\"abcdX\")"])
    var facts = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
    #expect(try facts.set(family: "tag", key: .string("abcdZZZ"), to: .int(1)))
    try facts.set("tag(\"ab\u{e9}\u{e9}\")", to: .int(2))
    try facts.set("full(\"abcdX\")", to: .int(3))
    #expect(facts.value(of: "tag(\"abcdQ\")") == .int(1))
    #expect(policy.decide(facts).shouldAsk)
    // A key not cut is its own member.
    #expect(try !facts.set(family: "full", key: .string("abcdY"), to: .int(3)))
    #expect(FactFamilyDefinition.prefix("ab\u{e9}z", utf8Bytes: 3) == "ab")
    #expect(FactFamilyDefinition.prefix("abc", utf8Bytes: 3) == "abc")
    // A key length must be positive, and only a string key has one.
    #expect(throws: FactSchema.DefinitionError.invalidKeyLength("tag")) {
      try FactSchema(
        facts: [],
        families: [FactFamilyDefinition("tag", key: .string, keyMeaning: "tag", .int, meaning: "tags", keyLength: 0)])
    }
    #expect(throws: FactSchema.DefinitionError.invalidKeyLength("count")) {
      try FactSchema(
        facts: [],
        families: [FactFamilyDefinition("count", key: .int, keyMeaning: "n", .int, meaning: "n", keyLength: 4)])
    }
  }

  @Test("keyed facts: a literal key of the family's key type")
  func keyedFacts() throws {
    let policy = try compiled(
      "ask when events(\"purchase\") >= 3 and prompts_within(365d) < 3 and (average_score(3) ?? 0.0) > 4.5")
    #expect(policy.layout.slot(named: "events(\"purchase\")") != nil)
    #expect(policy.layout.slot(named: "prompts_within(365d)") != nil)
    // Any spelling of the same key names the same member.
    #expect(policy.layout.canonicalMemberName("prompts_within(8760h)") == "prompts_within(365d)")
    #expect(policy.layout.canonicalMemberName("prompts_within(2w)") == "prompts_within(2w)")
    #expect(policy.layout.canonicalMemberName("prompts_within(14d)") == "prompts_within(2w)")
    #expect(policy.layout.canonicalMemberName("events(\"a b\")") == "events(\"a b\")")
    #expect(policy.layout.canonicalMemberName("average_score(3)") == "average_score(3)")
    #expect(policy.layout.canonicalMemberName("days") == nil)
    #expect(policy.layout.slot(named: "average_score(3)") != nil)
    let optional = try onlyError("ask when average_score(3) > 4.5")
    #expect(optional.code == .unguardedAbsentValue)
    let wrongKey = try onlyError("ask when events(3) > 1")
    #expect(wrongKey.code == .invalidFactKey)
    #expect(wrongKey.message == "the key of `events` must be a `string` literal (event name)")
    #expect(wrongKey.help == ["write `events(\"purchase\")`"])
    let noKey = try onlyError("ask when average_score > 1")
    #expect(noKey.code == .invalidFactKey)
    #expect(noKey.message == "`average_score` needs a key (number of sessions)")
    #expect(noKey.help == ["write `average_score(3)`"])
    #expect(
      try onlyError("ask when average_score(0) ?? 0 > 1").message == "the key of `average_score` must be positive")
    #expect(try onlyError("ask when days(2) > 1").message == "`days` is not a function")
    #expect(
      try onlyError("ask when events(\"a\", \"b\") > 1").message
        == "`events` takes 1 key (event name), but 2 were given")
    #expect(try onlyError("fact name: string\nask when events(name) > 1").code == .invalidFactKey)
    // The same member twice shares one slot.
    let shared = try compiled("ask when events(\"a\") > 1 or events(\"a\") < -1")
    #expect(shared.layout.slots.filter { $0.name == "events(\"a\")" }.count == 1)
  }
}

@Suite("Checker: names")
struct CheckerNameTests {
  @Test("unknown names (PC201) suggest a close name")
  func unknownName() throws {
    let compilation = compile("ask when dayz >= 30")
    let error = try diagnostic(.unknownName, in: compilation)
    #expect(error.message == "unknown name `dayz`")
    #expect(error.help == ["did you mean `days`?"])
    #expect(text(error.range, in: compilation) == "dayz")
    #expect(try onlyError("ask when TRUE").help == ["keywords are lowercase: write `true`"])
    #expect(try onlyError("ask when int > 3").help == ["type names are only used in `fact` declarations"])
    #expect(try onlyError("ask when since > 1d").message == "`since` is a function and needs arguments")
    #expect(
      try onlyError("ask when zzzzzz").help == [
        "declare app-specific facts with `fact zzzzzz: <type>`; `policyc facts` lists the standard ones"
      ])
    // Case differences are free; longer names allow more edits.
    #expect(try onlyError("ask when Days > 1").help == ["did you mean `days`?"])
    #expect(try onlyError("ask when sesssionz > 1").help == ["did you mean `sessions`?"])
    #expect(try onlyError("ask when sessizn > 1").help.first?.hasPrefix("declare app-specific facts") == true)
    // A let is a candidate too.
    #expect(try onlyError("let engaged = days > 3\nask when engagd").help == ["did you mean `engaged`?"])
  }

  @Test("unknown functions (PC202) suggest a close one")
  func unknownFunction() throws {
    let error = try onlyError("ask when sinse(last_prompt) > 1d")
    #expect(error.code == .unknownFunction)
    #expect(error.message == "unknown function `sinse`")
    #expect(error.help == ["did you mean `since`?"])
  }

  @Test("a `let` used before its definition is PC215")
  func useBeforeDefinition() throws {
    let compilation = compile("ask when engaged\nlet engaged = days > 3")
    let error = try diagnostic(.useBeforeDefinition, in: compilation)
    #expect(error.message == "`engaged` is used before its definition on line 2")
    #expect(error.help == ["move `let engaged = ...` above this line"])
    #expect(text(error.range, in: compilation) == "engaged")
    #expect(try onlyError("let a = a + 1\nask when a > 1").code == .useBeforeDefinition)
  }

  @Test("a `fact` declaration applies to the whole file, wherever it is written")
  func factAnywhere() {
    #expect(warnings("ask when plan == \"pro\"\nfact plan: string").isEmpty)
  }

  @Test("names are unique (PC208, PC207)")
  func duplicates() throws {
    let schemaLet = try onlyError("let days = 3\nask when days > 1")
    #expect(schemaLet.code == .duplicateDefinition)
    #expect(schemaLet.message == "`days` is already defined")
    #expect(schemaLet.help == ["`days` is already a fact; choose another name"])
    let twoLets = try onlyError("let a = 1\nlet a = 2\nask when a > 1")
    #expect(twoLets.help == ["choose another name"])
    #expect(twoLets.notes == [DiagnosticNote("`a` is first defined here", at: SourceRange(start: 4, end: 5))])
    let schemaFact = try onlyError("fact days: int\nask when days > 1")
    #expect(schemaFact.message == "fact `days` is already defined")
    #expect(schemaFact.help == ["`days` is a fact of the schema (int); remove this declaration"])
    let twoFacts = try onlyError("fact x: int\nfact x: bool\nask when x > 1")
    #expect(twoFacts.help == ["remove this declaration"])
    #expect(twoFacts.notes == [DiagnosticNote("`x` is first declared here", at: SourceRange(start: 5, end: 6))])
    let builtinFact = try onlyError("fact now: instant\nask when rated")
    #expect(builtinFact.message == "`now` is a built-in name and cannot be declared as a fact")
    let builtinLet = try onlyError("let since = 3\nask when rated")
    #expect(builtinLet.help == ["`since` is built in; choose another name"])
    let rules = try onlyError("ask loyal when rated\nask loyal when declined")
    #expect(rules.code == .duplicateRuleName)
    #expect(rules.message == "rule `loyal` is already defined")
    #expect(rules.help == ["give this rule another name"])
    #expect(rules.notes == [DiagnosticNote("`loyal` is first defined here", at: SourceRange(start: 4, end: 9))])
    #expect(rules.range == SourceRange(start: 25, end: 30))
  }

  @Test("one mistake gives one diagnostic, however far it reaches")
  func noCascade() {
    #expect(codes(compile("ask when dayz + 1 > 30 and not (dayz * 2 < 3)")) == [.unknownName, .unknownName])
    #expect(codes(compile("let x = dayz\nask when x > 1 and x < 5")) == [.unknownName])
    #expect(codes(compile("ask when since(dayz) > 1d")) == [.unknownName])
  }

  @Test("every independent error is reported")
  func allErrors() {
    let compilation = compile("ask when dayz > 1\nnever when since(last_prompt) >= 30\nask when uses")
    #expect(errorCodes(compilation) == [.unknownName, .incomparableTypes, .notBoolean])
  }
}

@Suite("Checker: warnings")
struct CheckerWarningTests {
  @Test("an unused `let` is PC302")
  func unusedLet() throws {
    let found = warnings("let spare = days + 1\nask when rated")
    #expect(found.map(\.code) == [.unusedLet])
    #expect(found.first?.message == "`spare` is defined but never used")
    #expect(found.first?.range == SourceRange(start: 4, end: 9))
    // A let used only by another let counts as used; the last one does not.
    #expect(warnings("let a = days\nlet b = a + 1\nask when rated").map(\.message) == ["`b` is defined but never used"])
  }

  @Test("an unused declared fact is PC303")
  func unusedFact() {
    let found = warnings("fact plan: string\nask when rated")
    #expect(found.map(\.code) == [.unusedFact])
    #expect(found.first?.message == "fact `plan` is declared but never used")
  }

  @Test("a policy without `ask` rules is PC301")
  func noAskRule() {
    let onlyNever = warnings("never when rated")
    #expect(onlyNever.map(\.code) == [.noAskRule])
    #expect(onlyNever.first?.message == "policy has no `ask` rule, so it never asks")
    let empty = warnings("")
    #expect(empty.map(\.message) == ["policy has no rules, so it never asks"])
    #expect(warnings("let x = days\nask when x > 1").isEmpty)
  }

  @Test("a needless default is PC305")
  func needlessDefault() throws {
    let compilation = compile("ask when (days ?? 0) > 1")
    let warning = try diagnostic(.needlessDefault, in: compilation)
    #expect(warning.severity == .warning)
    #expect(warning.message == "`days` is never absent, so the default `0` is never used")
    #expect(text(warning.range, in: compilation) == "0")
    #expect(compilation.policy != nil)
  }

  @Test("`has` on a value that is always present is PC304")
  func alwaysPresent() {
    let found = warnings("ask when has days and has now")
    #expect(found.map(\.code) == [.alwaysPresent, .alwaysPresent])
    #expect(
      found.map(\.message) == [
        "`days` is never absent, so `has days` is always true", "`now` is always present, so `has now` is always true",
      ])
  }

  @Test("an empty list is PC306")
  func emptyList() {
    let found = warnings("fact plan: string\nask when plan in [] or plan not in []")
    #expect(found.map(\.code) == [.emptyList, .emptyList])
    #expect(
      found.map(\.message) == [
        "`plan in []` tests an empty list, so it is always false",
        "`plan not in []` tests an empty list, so it is always true",
      ])
  }

  @Test("warnings are warnings; the policy still compiles")
  func warningSeverity() {
    #expect(
      PolicyCoreCode.allCases.filter { $0.severity == .warning } == [
        .noAskRule, .unusedLet, .unusedFact, .alwaysPresent, .needlessDefault, .emptyList, .cutFactKey,
        .misspeltSilencingComment, .ruleNeverHolds,
        .ruleAlwaysHolds, .shadowedAskRule, .contradictoryComparisons, .redundantComparison, .unknownDirective,
        .unknownAllowedCode, .unusedAllow, .analysisIncomplete, .tooManyWarnings,
      ])
    #expect(PolicyCoreCode.allCases.filter { $0.severity == .warning }.allSatisfy { $0.rawValue.hasPrefix("PC3") })
  }

  @Test("more than 100 warnings stop at PC399, and the policy still compiles")
  func tooManyWarnings() {
    let text = (0..<150).map { "let spare\($0) = \($0)" }.joined(separator: "\n") + "\nask when rated"
    let compilation = compile(text)
    #expect(compilation.policy != nil)
    #expect(compilation.diagnostics.count == Limits.maximumErrors + 1)
    #expect(compilation.diagnostics.filter { $0.code == .unusedLet }.count == Limits.maximumErrors)
    #expect(compilation.diagnostics.last?.code == .tooManyWarnings)
    #expect(compilation.diagnostics.last?.severity == .warning)
  }
}

@Suite("checker: built-in functions")
struct BuiltinFunctionCheckerTests {
  @Test("abs takes one int, number or duration and has its type")
  func absTypes() throws {
    for (text, type) in [
      ("abs(days - 40)", PolicyType.int), ("abs(session_score)", .number), ("abs(1d - since(first_use))", .duration),
    ] {
      let compilation = compile("let x = \(text)\nask when x == x")
      #expect(errorCodes(compilation) == [], "\(text)")
      #expect(compilation.policy?.lets.first?.value?.type == type, "\(text)")
    }
  }

  @Test("abs with a wrong argument is PC210; with a wrong count PC209; it is a reserved name")
  func absErrors() throws {
    let instant = compile("ask when abs(first_use) > 3d")
    let wrongType = try diagnostic(.wrongArgumentType, in: instant)
    #expect(wrongType.message == "`abs` needs an `int`, `number` or `duration`, but `first_use` is an `instant`")
    #expect(text(wrongType.range, in: instant) == "first_use")
    #expect(wrongType.help == ["write `abs(x)`"])
    let two = compile("ask when abs(days, uses) > 3")
    #expect(try diagnostic(.wrongArgumentCount, in: two).message == "`abs` takes 1 argument, but 2 were given")
    #expect(errorCodes(compile("ask when abs() > 3")) == [.wrongArgumentCount])
    #expect(errorCodes(compile("ask when abs(last_prompt_version) > 3")) != [])
    #expect(errorCodes(compile("fact abs: int\nask when abs > 3")).contains(.duplicateDefinition))
    #expect(try diagnostic(.unknownFunction, in: compile("ask when abz(days) > 3")).help == ["did you mean `abs`?"])
  }
}
