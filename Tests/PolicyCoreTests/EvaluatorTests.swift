import Testing

@testable import PolicyCore

/// Evaluates `ask when <condition>` (after `declarations`) on standard facts changed by `configure`,
/// checks that `decide` and `explain` agree, and returns the rule's outcome.
func outcome(
  _ condition: String, declarations: String = "", schema: FactSchema = ToySchema.standard,
  sourceLocation: Testing.SourceLocation = #_sourceLocation, _ configure: (inout Facts) throws -> Void = { _ in }
) throws -> RuleOutcome {
  let text = declarations + (declarations.isEmpty ? "" : "\n") + "ask when " + condition
  let policy = try compiled(text, schema: schema, sourceLocation: sourceLocation)
  var facts = try standardFacts(policy)
  try configure(&facts)
  let decision = policy.decide(facts)
  let explanation = policy.explain(facts)
  #expect(explanation.decision == decision, sourceLocation: sourceLocation)
  let trace = try #require(explanation.rules.last, sourceLocation: sourceLocation)
  let fromDecision: RuleOutcome =
    if decision.shouldAsk { .held } else if let fault = decision.firstFault { .faulted(fault.kind) } else { .notHeld }
  #expect(
    trace.outcome == fromDecision, "decide and explain disagree on `\(condition)`", sourceLocation: sourceLocation)
  return fromDecision
}

/// Whether `ask when <condition>` holds; a fault is a test failure.
func holds(
  _ condition: String, declarations: String = "", sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ configure: (inout Facts) throws -> Void = { _ in }
) throws -> Bool {
  let result = try outcome(condition, declarations: declarations, sourceLocation: sourceLocation, configure)
  if case .faulted(let kind) = result {
    Issue.record("`\(condition)` faulted: \(kind)", sourceLocation: sourceLocation)
  }
  return result == .held
}

/// `lhs OP rhs` for the comparison operator spelt `op`, as a policy compares two integers.
private func comparison(_ op: String, _ lhs: Int64, _ rhs: Int64) -> Bool {
  switch op {
  case "==": lhs == rhs
  case "!=": lhs != rhs
  case "<": lhs < rhs
  case "<=": lhs <= rhs
  case ">": lhs > rhs
  default: lhs >= rhs
  }
}

private func instant(daysAgo: Int64) -> Value {
  .instant(Timestamp(millisecondsSince1970: testNow.millisecondsSince1970 - daysAgo * day))
}

@Suite("Evaluator: absent values")
struct AbsentValueTests {
  @Test("since(last_prompt) >= 8w holds for a user who was never prompted")
  func neverPrompted() throws {
    #expect(try holds("since(last_prompt) >= 8w"))
    #expect(try !holds("since(last_prompt) < 8w"))
    #expect(try holds("since(last_prompt) > 1000000w"))
    #expect(try holds("since(last_prompt) == since(last_decline)"))
    #expect(try holds("since(last_prompt) + 1d > 5d"))
    #expect(try holds("since(last_prompt) - 1d > 5d"))
    #expect(try holds("since(last_prompt) * 2 > 5d"))
    #expect(try holds("since(last_prompt) / 2 > 5d"))
    #expect(try holds("max(since(last_prompt), 1d) > 5d"))
    #expect(try holds("min(since(last_prompt), 1d) == 1d"))
  }

  @Test("since(last_prompt) measures from now when the user was prompted")
  func prompted() throws {
    #expect(try !holds("since(last_prompt) >= 8w") { try $0.set("last_prompt", to: instant(daysAgo: 1)) })
    #expect(try holds("since(last_prompt) < 8w") { try $0.set("last_prompt", to: instant(daysAgo: 55)) })
    #expect(try holds("since(last_prompt) >= 8w") { try $0.set("last_prompt", to: instant(daysAgo: 56)) })
    #expect(try holds("since(last_prompt) == 56d") { try $0.set("last_prompt", to: instant(daysAgo: 56)) })
    // Marking it absent again makes it infinite again.
    #expect(
      try holds("since(last_prompt) >= 8w") {
        try $0.set("last_prompt", to: instant(daysAgo: 1))
        try $0.setAbsent("last_prompt")
      })
  }

  @Test("`has` guards work at run time")
  func hasGuards() throws {
    let rule = "has last_prompt_version and version > last_prompt_version"
    #expect(try !holds(rule))
    #expect(try holds(rule) { try $0.set("last_prompt_version", to: .version(.v("3.0.9"))) })
    #expect(try !holds(rule) { try $0.set("last_prompt_version", to: .version(.v("3.1"))) })
    let negated = "not has last_prompt_version or version <= last_prompt_version"
    #expect(try holds(negated))
    #expect(try !holds(negated) { try $0.set("last_prompt_version", to: .version(.v("2"))) })
    #expect(try holds("has sessions_since_prompt") { try $0.set("sessions_since_prompt", to: .int(0)) })
    #expect(try !holds("has sessions_since_prompt"))
  }

  @Test("`??` supplies the default only when the value is absent")
  func defaults() throws {
    #expect(try !holds("average_score(3) ?? 0 >= 75"))
    #expect(try holds("average_score(3) ?? 80 >= 75"))
    #expect(
      try holds("average_score(3) ?? 0 >= 75") {
        try $0.set(family: "average_score", key: .int(3), to: .number(Number(scaled: 75_000_000)))
      })
    #expect(
      try holds("average_score(3) ?? 0 >= 75") { try $0.set(family: "average_score", key: .int(3), to: .int(76)) })
    #expect(
      try !holds("average_score(3) ?? 100 >= 75") { try $0.set(family: "average_score", key: .int(3), to: .int(1)) })
    let chain = "(last_prompt ?? last_reminder ?? first_use) == first_use"
    #expect(try holds(chain))
    #expect(try !holds(chain) { try $0.set("last_reminder", to: instant(daysAgo: 2)) })
    #expect(
      try holds("(last_prompt ?? last_reminder ?? now) == now - 3d") {
        try $0.set("last_reminder", to: instant(daysAgo: 2))
        try $0.set("last_prompt", to: instant(daysAgo: 3))
      })
  }

  @Test("`(fact ?? k) OP c` compiles to one jump and agrees with the tree evaluator, on either side, negated or not")
  func fusedDefaults() throws {
    let operators = ["==", "!=", "<", "<=", ">", ">="]
    for op in operators {
      for fallback in [1, 2, 3] {
        for value in [nil, 1, 2, 3] as [Int64?] {
          for text in [
            "(sessions_since_prompt ?? \(fallback)) \(op) 2", "2 \(op) (sessions_since_prompt ?? \(fallback))",
          ] {
            for condition in [text, "not (\(text))", "\(text) or days > 1000"] {
              let configure: (inout Facts) throws -> Void = { facts in
                if let value { try facts.set("sessions_since_prompt", to: .int(value)) }
              }
              // `outcome` checks that the compiled program and the tree evaluator agree.
              let result = try outcome(condition, configure)
              let left = value ?? Int64(fallback)
              let (lhs, rhs) = text.hasPrefix("(") ? (left, Int64(2)) : (Int64(2), left)
              var expected = comparison(op, lhs, rhs)
              if condition.hasPrefix("not") { expected.toggle() }
              #expect(
                result == (expected ? .held : .notHeld), "\(condition) with \(value.map(String.init) ?? "absent")")
            }
          }
        }
      }
    }
    let policy = try compiled("ask when (sessions_since_prompt ?? 5) > 4")
    #expect(policy.instructionCount == 3, "jumpIfOptionalFact, returnTrue, returnFalse:\n\(policy.programListing)")
  }

  @Test("two version facts compare in one jump that agrees with the tree evaluator, for every operator and ordering")
  func fusedVersionFacts() throws {
    for op in ["==", "!=", "<", "<=", ">", ">="] {
      for (earlier, expectedOrdering) in [("3.0.9", 1), ("3.1", 0), ("3.1.0.1", -1), ("10.0", -1)] as [(String, Int64)]
      {
        for condition in [
          "has last_prompt_version and version \(op) last_prompt_version",
          "not has last_prompt_version or not (last_prompt_version \(op) version)",
        ] {
          let version = try #require(Version(parsing: earlier))
          let result = try outcome(condition) { try $0.set("last_prompt_version", to: .version(version)) }
          // `version` is 3.1 in the standard facts; `expectedOrdering` compares it with `earlier`.
          let (lhs, rhs): (Int64, Int64) = condition.hasPrefix("has") ? (expectedOrdering, 0) : (0, expectedOrdering)
          var expected = comparison(op, lhs, rhs)
          if condition.hasPrefix("not") { expected.toggle() }
          #expect(result == (expected ? .held : .notHeld), "\(condition) with \(earlier)")
        }
      }
      #expect(try !holds("has last_prompt_version and version \(op) last_prompt_version"), "absent")
    }
    let policy = try compiled("ask when not has last_prompt_version or version > last_prompt_version")
    #expect(
      policy.instructionCount == 4,
      "jumpIfAbsent, jumpIfFactVersionsOrdered, returnTrue, returnFalse:\n\(policy.programListing)")
  }

  @Test("a guarded `let` that can be absent")
  func optionalLet() throws {
    let declarations = "let previous = last_prompt_version"
    let rule = "has previous and previous < version"
    #expect(try !holds(rule, declarations: declarations))
    #expect(try holds(rule, declarations: declarations) { try $0.set("last_prompt_version", to: .version(.v("1.0"))) })
    #expect(try holds("(previous ?? v9.0) > version", declarations: declarations))
    #expect(try holds("since(moment) > 1d", declarations: "let moment = last_prompt"))
  }
}

@Suite("Evaluator: values and operators")
struct OperatorTests {
  @Test("ints: arithmetic truncates toward zero and `%` has the sign of the dividend")
  func ints() throws {
    let negative: (inout Facts) throws -> Void = { try $0.set("days", to: .int(-7)) }
    #expect(try holds("days / 2 == -3", negative))
    #expect(try holds("days % 3 == -1", negative))
    #expect(try holds("7 % -3 == 1"))
    #expect(try holds("-days == 7", negative))
    #expect(try holds("days * days - 1 == 48", negative))
    #expect(try holds("days + 2 * 3 == -1", negative))
    #expect(try holds("(days + 2) * 3 == -15", negative))
    #expect(try holds("days - 1 - 1 == -9", negative))
    #expect(try holds("days == -9223372036854775808") { try $0.set("days", to: .int(.min)) })
    #expect(try holds("days + 1 > days") { try $0.set("days", to: .int(.max - 1)) })
    #expect(try holds("days % -1 == 0") { try $0.set("days", to: .int(5)) })
  }

  @Test("numbers: exact decimals, truncated to six digits; ints are promoted")
  func numbers() throws {
    let half: (inout Facts) throws -> Void = { try $0.set("session_score", to: .number(Number(scaled: 500_000))) }
    #expect(try holds("session_score * 3 == 1.5", half))
    #expect(try holds("session_score + 0.25 == 0.75", half))
    #expect(try holds("session_score > 0", half))
    #expect(try holds("session_score < 1", half))
    #expect(try holds("1 / (session_score + 2.5) == 0.333333", half))
    #expect(try holds("-session_score == -0.5", half))
    #expect(try holds("session_score == 3") { try $0.set("session_score", to: .int(3)) })
    #expect(try holds("days + 0.5 == 10.5") { try $0.set("days", to: .int(10)) })
    #expect(try holds("0.1 + 0.2 == 0.3"))
    #expect(
      try holds("max(days, session_score) == 4.5") {
        try $0.set("days", to: .int(2))
        try $0.set("session_score", to: .number(Number(scaled: 4_500_000)))
      })
  }

  @Test("durations and instants")
  func durations() throws {
    #expect(try holds("since(first_use) == 40d"))
    #expect(try holds("since(first_use) / 1d == 40"))
    #expect(try holds("since(first_use) / 7 > 5d"))
    #expect(try holds("now - first_use == 40d"))
    #expect(try holds("first_use + 40d == now"))
    #expect(try holds("40d + first_use == now"))
    #expect(try holds("now - 40d == first_use"))
    #expect(try holds("2 * 1d == 48h"))
    #expect(try holds("1d * 2 == 2880m"))
    #expect(try holds("1w - 1d == 144h"))
    #expect(try holds("-1d < 0s"))
    #expect(try holds("1d / 2 == 12h"))
    #expect(try holds("90m / 1h == 1"))
    #expect(try holds("first_use < now"))
    #expect(try holds("max(first_use, install_date, now) == now"))
  }

  @Test("strings: equal and unequal, including strings that are not literals of the policy")
  func strings() throws {
    let declarations = "fact plan: string\nfact other: string"
    func with(_ plan: String, _ other: String = "zzz") -> (inout Facts) throws -> Void {
      { facts in
        try facts.set("plan", to: .string(plan))
        try facts.set("other", to: .string(other))
      }
    }
    #expect(try holds("plan == \"pro\"", declarations: declarations, with("pro")))
    #expect(try !holds("plan == \"pro\"", declarations: declarations, with("team")))
    #expect(try holds("plan != \"pro\"", declarations: declarations, with("team")))
    #expect(try !holds("plan != \"pro\"", declarations: declarations, with("pro")))
    #expect(try holds("plan != \"pro\"", declarations: declarations, with("")))
    #expect(try holds("plan == \"\"", declarations: declarations, with("")))
    #expect(try holds("plan == \"Prö\"", declarations: declarations, with("Prö")))
    #expect(try !holds("plan == \"pro\"", declarations: declarations, with("Pro")))
    // Two facts holding the same text that no literal mentions are equal; different texts are not.
    #expect(try holds("plan == other and plan != \"x\"", declarations: declarations, with("enterprise", "enterprise")))
    #expect(try !holds("plan == other and plan != \"x\"", declarations: declarations, with("enterprise", "business")))
    #expect(try holds("plan != other", declarations: declarations, with("pro", "enterprise")))
    #expect(try holds("plan == other", declarations: declarations, with("pro", "pro")))
    #expect(try holds("plan in [\"pro\", \"team\"]", declarations: declarations, with("team")))
    #expect(try !holds("plan in [\"pro\", \"team\"]", declarations: declarations, with("free")))
    #expect(try holds("plan not in [\"pro\", \"team\"]", declarations: declarations, with("free")))
  }

  @Test("versions compare part by part")
  func versions() throws {
    func running(_ text: String) -> (inout Facts) throws -> Void {
      { try $0.set("version", to: .version(.v(text))) }
    }
    #expect(try holds("version == v2.0", running("2")))
    #expect(try holds("version == 2.0.0", running("v2")))
    #expect(try holds("version > v1.9", running("1.10")))
    #expect(try holds("version < v1.10", running("1.2.3")))
    #expect(try holds("version >= v3.0 and version < v3.0.3", running("3.0.2")))
    #expect(try !holds("version >= v3.0 and version < v3.0.3", running("3.0.3")))
    #expect(try holds("version > v1.2.3", running("1.2.3.1")))
    #expect(try holds("version != v1.2.3", running("1.2.3.1")))
    #expect(
      try holds(
        "version > v4294967295.4294967295.4294967295.4294967294", running("4294967295.4294967295.4294967295.4294967295")
      ))
    #expect(try holds("version < v2147483648.0", running("2147483647.4294967295")))
    #expect(try holds("version > v0.0.0.2147483647", running("0.0.0.2147483648")))
    #expect(
      try holds("has previous_version and version > previous_version") {
        try $0.set("version", to: .version(.v("2.0.1")))
        try $0.set("previous_version", to: .version(.v("2.0.0.9")))
      })
    #expect(try holds("min(version, v1.5) == v1.5 and max(version, v1.5) == version", running("1.10")))
    #expect(try holds("min(version, v2.0.0.1) == version", running("2")))
  }

  @Test("`in` and `not in` for ints, numbers, durations, bools and versions")
  func membership() throws {
    func days(_ value: Int64) -> (inout Facts) throws -> Void { { try $0.set("days", to: .int(value)) } }
    #expect(try holds("days in [1, 2, 3]", days(2)))
    #expect(try !holds("days in [1, 2, 3]", days(4)))
    #expect(try holds("days not in [1, 2, 3]", days(4)))
    #expect(try holds("days in [-9223372036854775808, 9223372036854775807]", days(.min)))
    #expect(try holds("days in [-9223372036854775808, 9223372036854775807]", days(.max)))
    // A long list (searched differently) behaves the same.
    let long = "[" + (0..<40).map { String($0 * 3 - 50) }.joined(separator: ", ") + "]"
    for value: Int64 in [-50, -47, -49, 0, 1, 67, 70, 1000] {
      let expected = value >= -50 && value <= 67 && (value + 50) % 3 == 0
      #expect(try holds("days in \(long)", days(value)) == expected, "\(value)")
      #expect(try holds("days not in \(long)", days(value)) == !expected, "\(value)")
    }
    // Ints in a number list are promoted; a number in an int list compares with the ints as numbers.
    #expect(try holds("days in [1.5, 2]", days(2)))
    #expect(try !holds("days in [1.5, 2.25]", days(2)))
    #expect(
      try holds("session_score in [1, 2, 3]") { try $0.set("session_score", to: .number(Number(scaled: 2_000_000))) })
    #expect(
      try !holds("session_score in [1, 2, 3]") { try $0.set("session_score", to: .number(Number(scaled: 2_000_001))) })
    #expect(
      try holds("session_score in [-1.5, 7]") { try $0.set("session_score", to: .number(Number(scaled: -1_500_000))) })
    #expect(try holds("since(first_use) in [1d, 40d]"))
    #expect(try holds("since(first_use) not in [1d, 39d]"))
    #expect(try holds("declined in [false]"))
    #expect(try holds("version in [v1.0, v2.0]") { try $0.set("version", to: .version(.v("2"))) })
    #expect(try !holds("version in [v1.0, v2.0]") { try $0.set("version", to: .version(.v("2.0.0.1"))) })
    #expect(try holds("version not in [v1.0, v2.0]") { try $0.set("version", to: .version(.v("3"))) })
    #expect(try holds("version in [v4294967295.1, 2.1.0]") { try $0.set("version", to: .version(.v("4294967295.1"))) })
    #expect(try holds("days in small", declarations: "let small = [1, 2]", days(1)))
  }

  @Test("a list mixing ints and numbers matches only equal values; an int too large for a number is an error")
  func mixedList() throws {
    // 9223372036854775807 cannot be a number: the checker says so instead of matching wrongly.
    let mixed = compile("ask when days in [9223372036854775807, 2.5]")
    #expect(mixed.policy == nil)
    #expect(mixed.diagnostics.map(\.code) == [.invalidListElement])
    #expect(
      mixed.diagnostics.first?.message
        == "`9223372036854775807` is compared with numbers but is too large to be a number")
    let numberFact = compile("fact n: number\nask when n in [2.5, 9223372036854775807]")
    #expect(numberFact.diagnostics.map(\.code) == [.invalidListElement])
    let intList = compile("fact n: number\nask when n in [9223372036854775807]")
    #expect(intList.diagnostics.map(\.code) == [.invalidListElement])
    // Values that are in range behave.
    #expect(try holds("days in [2, 2.5]") { try $0.set("days", to: .int(2)) })
    #expect(try !holds("days in [2, 2.5]") { try $0.set("days", to: .int(2_500_000)) })
    #expect(
      try holds("n in [2, 7]", declarations: "fact n: number") {
        try $0.set("n", to: .number(Number(scaled: 7_000_000)))
      })
  }

  @Test("bools")
  func bools() throws {
    #expect(try holds("declined == rated"))
    #expect(try holds("declined != true"))
    #expect(try holds("not declined and not not true"))
    #expect(try holds("(declined or rated) == false"))
    #expect(try holds("declined or rated or session_bad or true"))
    #expect(try !holds("declined and true"))
    #expect(try holds("rated") { try $0.set("rated", to: .bool(true)) })
  }

  @Test("keyed facts")
  func keyedFacts() throws {
    #expect(try holds("events(\"export\") == 0 and prompts_within(365d) == 0 and total_events(\"x\") == 0"))
    #expect(
      try holds("events(\"export\") >= 3 and events(\"share\") == 1") {
        try $0.set(family: "events", key: .string("export"), to: .int(3))
        try $0.set(family: "events", key: .string("share"), to: .int(1))
      })
    #expect(
      try holds("prompts_within(365d) == 2 and prompts_within(52w) == 0") {
        try $0.set(family: "prompts_within", key: .duration(TimeSpan(365, .days)!), to: .int(2))
      })
  }
}

@Suite("Evaluator: lets")
struct LetTests {
  @Test("lets are computed once and read by rules")
  func lets() throws {
    let declarations = "let engaged = days >= 14 and uses >= 10\nlet doubled = days * 2\nlet next = doubled + 1"
    #expect(
      try holds("engaged and next == 29", declarations: declarations) {
        try $0.set("days", to: .int(14))
        try $0.set("uses", to: .int(10))
      })
    #expect(try !holds("engaged", declarations: declarations) { try $0.set("days", to: .int(14)) })
  }

  @Test("a let that faults matters only when a rule reads it")
  func faultingLet() throws {
    let declarations = "let risky = uses / days"
    let zero: (inout Facts) throws -> Void = { try $0.set("days", to: .int(0)) }
    #expect(try outcome("declined and risky > 1", declarations: declarations, zero) == .notHeld)
    #expect(try outcome("not declined or risky > 1", declarations: declarations, zero) == .held)
    #expect(try outcome("not declined and risky > 1", declarations: declarations, zero) == .faulted(.divisionByZero))
    #expect(try outcome("risky > 1 or true", declarations: declarations, zero) == .faulted(.divisionByZero))
    // A let built on a faulted let faults the same way when read.
    #expect(
      try outcome("later == 1", declarations: declarations + "\nlet later = risky + 1", zero)
        == .faulted(.divisionByZero))
    // A faulted let read by `has` faults too.
    #expect(
      try outcome("has maybe", declarations: "let maybe = sessions_since_prompt ?? uses / days", zero)
        == .faulted(.divisionByZero))

    let policy = try compiled("let risky = uses / days\nnever when not declined and risky > 1\nask when true")
    var facts = try standardFacts(policy)
    try facts.set("days", to: .int(0))
    let decision = policy.decide(facts)
    #expect(decision.reason == .neverRuleHeld)
    #expect(decision.firstFault?.kind == .divisionByZero)
    #expect(decision.firstFault?.rule == 0)
    // The fault is located where the rule reads the let.
    #expect(decision.firstFault.map { policy.source.text(in: $0.range) } == "risky")
  }

  @Test("an unused let that would fault changes nothing")
  func unusedFaultingLet() throws {
    let (_, decision) = try decide("let risky = uses / days\nask when true") { try $0.set("days", to: .int(0)) }
    #expect(decision.shouldAsk)
    #expect(decision.faultCount == 0)
  }
}

@Suite("Facts")
struct FactsTests {
  @Test("set checks names and types")
  func setErrors() throws {
    let policy = try compiled("fact plan: string\nask when days > 1 and plan == \"pro\" and session_score > 1")
    var facts = policy.makeFacts(now: testNow)
    #expect(throws: Facts.SetError.unknownFact("dayz", suggestion: "days")) { try facts.set("dayz", to: .int(1)) }
    #expect(
      Facts.SetError.unknownFact("dayz", suggestion: "days").description == "unknown fact `dayz`; did you mean `days`?")
    #expect(throws: Facts.SetError.unknownFact("qqqqqqqq", suggestion: nil)) { try facts.set("qqqqqqqq", to: .int(1)) }
    #expect(throws: Facts.SetError.typeMismatch("days", expected: .int, found: .string)) {
      try facts.set("days", to: .string("3"))
    }
    #expect(
      Facts.SetError.typeMismatch("days", expected: .int, found: .string).description
        == "fact `days` is an `int`, not a `string`")
    #expect(throws: Facts.SetError.typeMismatch("plan", expected: .string, found: .int)) {
      try facts.set("plan", to: .int(3))
    }
    #expect(throws: Facts.SetError.notOptional("days")) { try facts.setAbsent("days") }
    #expect(Facts.SetError.notOptional("days").description == "fact `days` cannot be absent")
    #expect(throws: Facts.SetError.self) { try facts.set(slot: 10_000, to: .int(1)) }
    // An int is accepted for a number fact, unless it does not fit.
    try facts.set("session_score", to: .int(3))
    #expect(facts.value(of: "session_score") == .number(Number(scaled: 3_000_000)))
    #expect(throws: Facts.SetError.typeMismatch("session_score", expected: .number, found: .int)) {
      try facts.set("session_score", to: .int(.max))
    }
    // A family member the policy does not read is not set.
    #expect(try facts.set(family: "events", key: .string("unused"), to: .int(1)) == false)
    // A failed set leaves the old value.
    try facts.set("days", to: .int(4))
    _ = try? facts.set("days", to: .bool(true))
    #expect(facts.value(of: "days") == .int(4))
  }

  @Test("values read back as set; absent values read as nil")
  func readBack() throws {
    let policy = try compiled("fact plan: string\nask when plan == \"pro\" and has last_prompt and version > v1.0")
    var facts = policy.makeFacts(now: testNow)
    #expect(facts.value(of: "days") == .int(0))
    #expect(facts.value(of: "plan") == nil)
    #expect(facts.value(of: "last_prompt") == nil)
    #expect(facts.value(of: "nonexistent") == nil)
    try facts.set("plan", to: .string("enterprise"))
    try facts.set("last_prompt", to: instant(daysAgo: 3))
    try facts.set("version", to: .version(.v("4294967295.0.1.4294967295")))
    #expect(facts.value(of: "plan") == .string("enterprise"))
    #expect(facts.value(of: "last_prompt") == instant(daysAgo: 3))
    #expect(facts.value(of: "version") == .version(.v("4294967295.0.1.4294967295")))
    let slot = try #require(policy.layout.slot(named: "last_prompt"))
    #expect(facts.isPresent(slot: slot))
    try facts.setAbsent("last_prompt")
    #expect(!facts.isPresent(slot: slot))
    #expect(facts.value(of: "last_prompt") == nil)
    #expect(!facts.isPresent(slot: -1) && !facts.isPresent(slot: 100_000))
  }
}

@Suite("Evaluator: arithmetic edges")
struct ArithmeticEdgeTests {
  private static let declarations = "fact d: duration\nfact t: instant\nfact i: int"

  private static func set(d: Int64 = 0, t: Int64 = 0, i: Int64 = 0) -> (inout Facts) throws -> Void {
    { facts in
      try facts.set("d", to: .duration(TimeSpan(milliseconds: d)))
      try facts.set("t", to: .instant(Timestamp(millisecondsSince1970: t)))
      try facts.set("i", to: .int(i))
    }
  }

  @Test("the remainder of the smallest int by -1 is 0 (it fits, so it is no overflow)")
  func remainderOfMinimum() throws {
    #expect(try outcome("days / -1 > 0") { try $0.set("days", to: .int(.min)) } == .faulted(.overflow))
    let result = try outcome("days % -1 == 0") { try $0.set("days", to: .int(.min)) }
    #expect(result == .held)
  }

  @Test("duration / int never turns a finite duration into the infinite one")
  func durationDivisionLandingOnInfinity() throws {
    // -(Int64.max) ms / -1 is Int64.max ms: not representable as a finite duration, so an overflow.
    let finiteMinimum = -Int64.max
    let result = try outcome("d / -1 > 1d", declarations: Self.declarations, Self.set(d: finiteMinimum))
    #expect(result == .faulted(.overflow))
    // The same value through other operators does fault.
    #expect(try outcome("-d > 1d", declarations: Self.declarations, Self.set(d: finiteMinimum)) == .faulted(.overflow))
    #expect(
      try outcome("d * -1 > 1d", declarations: Self.declarations, Self.set(d: finiteMinimum)) == .faulted(.overflow))
    #expect(
      try outcome("0s - d > 1d", declarations: Self.declarations, Self.set(d: finiteMinimum)) == .faulted(.overflow))
    // A finite result that lands on Int64.max from instants is an overflow too.
    let landing = testNow.millisecondsSince1970 - Int64.max
    #expect(try outcome("now - t > 1d", declarations: Self.declarations, Self.set(t: landing)) == .faulted(.overflow))
    #expect(try outcome("since(t) > 1d", declarations: Self.declarations, Self.set(t: landing)) == .faulted(.overflow))
    #expect(try outcome("since(t) > 1d", declarations: Self.declarations, Self.set(t: landing + 1)) == .held)
  }

  @Test("operands are evaluated left to right, so the first fault is the left one")
  func leftToRight() throws {
    let both = Self.set(d: .max, t: .min, i: .max)
    // `duration + instant`: `-d` faults (infinite), then `t - 1s` would overflow.
    let (policy, sum) = try decide("\(Self.declarations)\nask when (-d) + (t - 1s) == now", both)
    #expect(sum.firstFault?.kind == .infiniteDuration)
    #expect(sum.firstFault.map { policy.source.text(in: $0.range) } == "-d")
    let (other, product) = try decide("\(Self.declarations)\nask when (i * 2) * (-d) > 1d", both)
    #expect(product.firstFault?.kind == .overflow)
    #expect(product.firstFault.map { other.source.text(in: $0.range) } == "i * 2")
    // Other operators are left to right.
    let (third, difference) = try decide("\(Self.declarations)\nask when (t - 1s) - (-d) == now", both)
    #expect(difference.firstFault?.kind == .overflow)
    #expect(difference.firstFault.map { third.source.text(in: $0.range) } == "t - 1s")
  }
}

@Suite("evaluator: built-in functions")
struct BuiltinFunctionEvaluatorTests {
  @Test("abs of ints, numbers and durations; the infinite duration stays infinite; the smallest int faults")
  func absValues() throws {
    let policy = try compiled(
      "fact i: int\nfact n: number\nfact d: duration\nask a when abs(i) == 5\nask b when abs(n) == 2.5\nask c when abs(d) == 3d\nask e when abs(d) > 1000w",
      schema: .empty)
    func decide(_ i: Int64, _ n: Int64, _ d: Int64) throws -> (Decision, Explanation) {
      var facts = policy.makeFacts(now: testNow)
      try facts.set("i", to: .int(i))
      try facts.set("n", to: .number(Number(scaled: n)))
      try facts.set("d", to: .duration(TimeSpan(milliseconds: d)))
      return (policy.decide(facts), policy.explain(facts))
    }
    for (i, n, d) in [(Int64(-5), Int64(-2_500_000), -3 * day), (5, 2_500_000, 3 * day)] {
      let (decision, explanation) = try decide(i, n, d)
      #expect(Set(decision.decidingRules) == [0, 1, 2])
      #expect(explanation.decision == decision)
    }
    let (infinite, _) = try decide(0, 0, TimeSpan.infinite.milliseconds)
    #expect(Set(infinite.decidingRules) == [3])
    let (overflow, explained) = try decide(Int64.min, 0, 0)
    #expect(overflow.firstFault?.kind == .overflow)
    #expect(explained.rules[0].outcome == .faulted(.overflow))
  }
}
