import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// `fact NAME: TYPE = DEFAULT`: parsing, checking, formatting, evaluation and the declared-fact list.
@Suite("Fact defaults")
struct FactDefaultTests {
  @Test(
    "fact_declaration = \"fact\" identifier \":\" type_name [ \"?\" ] [ \"=\" fact_default ] ;  (parseFactDeclaration)")
  func parsing() throws {
    let parsed = parse("fact plan: string = \"free\"\nfact limit: int? = -3\nask when plan == \"pro\"")
    #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics.map(\.message))")
    guard case .fact(let plan) = parsed.file.declarations[0], case .fact(let limit) = parsed.file.declarations[1]
    else {
      Issue.record("not facts")
      return
    }
    let defaultValue = try #require(plan.defaultValue)
    guard case .literal(let literal) = defaultValue.kind else {
      Issue.record("the default is not a literal: \(defaultValue.kind)")
      return
    }
    #expect(literal == .string("free"))
    #expect(defaultValue.range == SourceRange(start: 20, end: 26))
    #expect(plan.range == SourceRange(start: 0, end: 26))
    #expect(limit.isOptional && limit.defaultValue.map(Sexp.dump) == "-3")
    #expect(
      SyntaxDump.dump(parsed.file).hasPrefix(
        "(fact plan string (string \"free\"))\n(fact limit int? (int -3))\n"))
    // The default is one signed primary: a rule on the next line is not taken in.
    let bare = parse("fact n: int = 3\n-days < 0")
    #expect(bare.diagnostics.isEmpty)
    #expect(bare.file.declarations.count == 2)
    // A missing default is located after `=`.
    let missing = parse("fact plan: string =\nask when true")
    #expect(missing.diagnostics.map(\.code) == [PolicyCoreCode.expectedExpression.code])
  }

  @Test("the default must be a literal of the declared type (PC218), located at the default")
  func checking() throws {
    let wrong = compile("fact plan: string = 3\nask when plan == \"pro\"")
    let mismatch = try diagnostic(PolicyCoreCode.invalidFactDefault.code, in: wrong)
    #expect(mismatch.message == "the default of fact `plan` is an `int`, not a `string`")
    #expect(text(mismatch.range, in: wrong) == "3")
    #expect(mismatch.help == ["write a literal of the declared type, such as `fact plan: string = \"\"`"])
    let notLiteral = compile("fact limit: int = days\nask when limit > 3")
    let name = try diagnostic(PolicyCoreCode.invalidFactDefault.code, in: notLiteral)
    #expect(name.message == "the default of fact `limit` is not a literal")
    #expect(text(name.range, in: notLiteral) == "days")
    let instant = compile("fact trial_end: instant = 3d\nask when since(trial_end) > 1d")
    #expect(
      try diagnostic(PolicyCoreCode.invalidFactDefault.code, in: instant).help == [
        "an `instant` has no literal: declare `fact trial_end: instant?` and guard it with `has` or `since`"
      ])
    // An int literal is a number default; negative numbers and durations are literals.
    for text in [
      "fact score: number = 75", "fact score: number = -1.5", "fact wait: duration = -2d", "fact on: bool = true",
      "fact floor: version = v2.1", "fact n: int = -9",
    ] {
      #expect(errorCodes(compile(text + "\nask when true")).isEmpty, "\(text)")
    }
    let policy = try compiled("fact score: number = 75\nask when score > 1.0")
    #expect(
      policy.layout.slots[try #require(policy.layout.slot(named: "score"))].defaultValue
        == .number(Number(exactly: 75)!))
  }

  @Test("an unset fact with a default has its default; without one it is missing")
  func evaluation() throws {
    let text = "fact plan: string = \"free\"\nfact crashed: bool\nask free when plan == \"free\" and not crashed"
    let policy = try compiled(text)
    var facts = try standardFacts(policy)
    #expect(facts.value(of: "plan") == .string("free"))
    #expect(facts.missingFacts == ["crashed"])
    #expect(policy.decide(facts).reason == .invalidFacts)
    try facts.set("crashed", to: .bool(false))
    #expect(policy.decide(facts).shouldAsk)
    try facts.set("plan", to: .string("pro"))
    #expect(!policy.decide(facts).shouldAsk)
    // An optional fact with a default is present until the app says otherwise.
    let optional = try compiled("fact limit: int? = 3\nask when has limit and limit > 2")
    var optionalFacts = optional.makeFacts(now: testNow)
    #expect(optional.decide(optionalFacts).shouldAsk)
    try optionalFacts.setAbsent("limit")
    #expect(!optional.decide(optionalFacts).shouldAsk)
    // The explanation shows the default as the fact's value.
    let explanation = policy.explain(
      try { () throws -> Facts in
        var facts = try standardFacts(policy)
        try facts.set("crashed", to: .bool(false))
        return facts
      }())
    #expect(explanation.decision.shouldAsk)
  }

  @Test("declared facts are listed with whether each has a default; defaults are part of the fingerprint")
  func declaredFacts() throws {
    let policy = try compiled(
      "fact plan: string = \"free\"\nfact crashed: bool\nfact trial_end: instant?\n"
        + "ask when plan == \"pro\" and not crashed and since(trial_end) > 1d")
    #expect(policy.declaredFacts.map(\.name) == ["plan", "crashed", "trial_end"])
    #expect(policy.declaredFacts.map(\.hasDefault) == [true, false, false])
    #expect(policy.declaredFacts[0].defaultValue == .string("free"))
    #expect(policy.declaredFacts[2].isOptional && policy.declaredFacts[2].type == .instant)
    let other = try compiled(
      "fact plan: string = \"pro\"\nfact crashed: bool\nfact trial_end: instant?\n"
        + "ask when plan == \"pro\" and not crashed and since(trial_end) > 1d")
    #expect(other.layout.fingerprint != policy.layout.fingerprint)
    // A snapshot made for one default is foreign to the other.
    #expect(other.decide(policy.makeFacts(now: testNow)).reason == .invalidFacts)
  }

  @Test("the formatter prints the default, and formats idempotently")
  func formatting() throws {
    let input =
      "fact  plan :string=  \"free\"  # the plan\nfact n:int?=- 3\nask when plan == \"pro\" and (n ?? 0) > 1\n"
    guard case .success(let once) = PolicyFormatter().format(SourceFile(path: "f.policy", text: input)) else {
      Issue.record("format failed")
      return
    }
    #expect(
      once == "fact plan: string = \"free\"  # the plan\nfact n: int? = -3\nask when plan == \"pro\" and (n ?? 0) > 1\n"
    )
    guard case .success(let twice) = PolicyFormatter().format(SourceFile(path: "f.policy", text: once)) else {
      Issue.record("format failed")
      return
    }
    #expect(twice == once)
  }
}
