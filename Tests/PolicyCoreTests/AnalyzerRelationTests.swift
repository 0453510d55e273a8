import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// The toy schema with one relation of each kind, the way a host states what its real histories
/// satisfy: the analyzer must reason over real fact sets only.
enum RelatedToySchema {
  static let day = TimeSpan(milliseconds: 86_400_000)

  static let relations: [FactRelation] = [
    .bound("days", atMost: "total_days", because: "`days` counts this version"),
    .bound("prompts", atMost: "total_prompts", because: "`prompts` counts this version"),
    .bound("rated", atMost: "rated_any", because: "`rated` in this version means `rated_any`"),
    .bound("install_date", atMost: "first_use", because: "nothing happens before the install"),
    .bound("install_date", atMost: "last_prompt", because: "nothing happens before the install"),
    .bound("events", atMost: "total_events", because: "`events` counts this version"),
    .bound("prompts_within", atMost: "total_prompts", because: "recent prompts are some of all"),
    FactRelation(.minimum("days", .int(0)), because: "a count"),
    FactRelation(.minimum("uses", .int(0)), because: "a count"),
    FactRelation(.minimum("total_prompts", .int(0)), because: "a count"),
    FactRelation(.minimum("prompts", .int(0)), because: "a count"),
    FactRelation(.minimum("prompts_within", .int(0)), because: "a count"),
    FactRelation(.notAfterNow("first_use"), because: "recorded"),
    FactRelation(.notAfterNow("install_date"), because: "recorded"),
    FactRelation(.notAfterNow("last_prompt"), because: "recorded"),
    FactRelation(.increasing("prompts_within"), because: "a longer window holds a shorter one's"),
    FactRelation(.presence("last_prompt", when: .positive("total_prompts")), because: "the last of them"),
    FactRelation(.presence("last_decline", when: .isTrue("declined_any")), because: "the last answer"),
    FactRelation(.presence("last_prompt_version", when: .present("last_prompt")), because: "its version"),
    FactRelation(.wholeUnits(count: "days", since: "first_use", unit: day), because: "whole days"),
    FactRelation(.wholeUnits(count: "total_days", since: "install_date", unit: day), because: "whole days"),
    FactRelation(.window(family: "prompts_within", latest: "last_prompt"), because: "the last one is in it"),
    FactRelation(
      .boundWhen(FactBound("total_uses", atMost: "uses", because: ""), when: .absent("previous_version")),
      because: "on the first version every use is this version's"),
    FactRelation(
      .presentTogether(family: "average_score", fromKey: 1, whenPresent: "last_prompt"),
      because: "all average the sessions kept"),
  ]

  static let standard: FactSchema = {
    do {
      return try ToySchema.standard.relating(scopes: [], relations: relations)
    } catch {
      preconditionFailure("invalid related toy schema: \(error)")
    }
  }()
}

/// The codes and messages of `text`'s logic warnings over `schema`.
private func logicWarnings(_ text: String, schema: FactSchema) throws -> [Diagnostic] {
  let policy = try compiled(text, schema: schema)
  return PolicyAnalyzer.analyze(policy).warnings.filter { $0.code == .ruleNeverHolds || $0.code == .shadowedAskRule }
}

@Suite("analyzer: the schema's relations between facts")
struct AnalyzerRelationTests {
  @Test(
    "a rule that holds only where a relation fails is dead, and the help names the relation; without it, it can hold",
    arguments: [
      ("ask when days >= 30 and total_days < 10", "`days` <= `total_days`"),
      // Two facts compared with each other: their order, with the relation's, is a cycle.
      ("ask when days > total_days", "`days` <= `total_days`"),
      ("ask when total_days < days and uses >= 20", "`days` <= `total_days`"),
      ("ask when since(first_use) > since(install_date)", "`install_date` is not after `first_use`"),
      ("ask when first_use < install_date", "`install_date` is not after `first_use`"),
      ("ask when events(\"x\") > total_events(\"x\")", "`events` <= `total_events`"),
      (
        "ask when not has previous_version and total_uses > uses",
        "when `previous_version` is absent, `total_uses` <= `uses`"
      ),
      ("ask when rated and not rated_any", "`rated` implies `rated_any`"),
      ("ask when since(first_use) > 10d and since(install_date) < 5d", "`install_date` is not after `first_use`"),
      ("ask when events(\"x\") > 3 and total_events(\"x\") < 2", "`events` <= `total_events`"),
      ("ask when prompts_within(30d) > 2 and total_prompts < 2", "`prompts_within(k)` <= `total_prompts`"),
      ("ask when uses < 0", "`uses` >= 0"),
      ("ask when since(last_prompt) < 0s", "`last_prompt` is not after now"),
      ("ask when prompts_within(7d) >= 3 and prompts_within(30d) < 2", "`prompts_within(a)` <= `prompts_within(b)`"),
      (
        "ask when total_prompts >= 1 and not has last_prompt",
        "`last_prompt` is present exactly when `total_prompts` >= 1"
      ),
      (
        "ask when declined_any and not has last_decline",
        "`last_decline` is present exactly when `declined_any` is true"
      ),
      ("ask when has last_prompt and not has last_prompt_version", "`last_prompt_version` is present exactly when"),
      ("ask when days >= 3 and since(first_use) < 2d", "`days` is the number of whole 1d periods since `first_use`"),
      ("ask when prompts_within(30d) >= 1 and since(last_prompt) >= 40d", "`prompts_within(w)` >= 1 exactly when"),
      ("ask when prompts_within(30d) == 0 and since(last_prompt) < 10d", "`prompts_within(w)` >= 1 exactly when"),
      (
        "ask when not has previous_version and total_uses > 5 and uses < 3",
        "when `previous_version` is absent, `total_uses` <= `uses`"
      ),
      (
        "ask when (average_score(3) ?? -1000) > -1000 and (average_score(5) ?? 1000) >= 1000 and (average_score(5) ?? -1000) <= -1000",
        "the members `average_score(k)` with k >= 1 are all present or all absent"
      ),
      (
        "ask when has last_prompt and (average_score(2) ?? 1000) >= 1000 and (average_score(2) ?? -1000) <= -1000",
        "and present when `last_prompt` is"
      ),
    ])
  func deadByRelation(text: String, statement: String) throws {
    let related = try logicWarnings(text, schema: RelatedToySchema.standard)
    #expect(related.map(\.code) == [.ruleNeverHolds], "\(text)")
    #expect(related.first?.help.first?.contains(statement) == true, "\(text): \(related.first?.help ?? [])")
    #expect(try logicWarnings(text, schema: ToySchema.standard).isEmpty, "\(text) holds for some facts")
    // The policy never asks a real user: PC319, an error.
    let policy = try compiled(text, schema: RelatedToySchema.standard)
    let never = PolicyAnalyzer.analyze(policy).warnings.filter { $0.code == .neverAsks }
    #expect(never.count == 1 && never.first?.severity == .error, "\(text)")
  }

  @Test("an ask rule blocked by a never rule only through a relation is PC312 naming it")
  func shadowedByRelation() throws {
    let text = "never answered when declined or rated_any\nask happy when uses >= 20 and rated\n"
    let warnings = try logicWarnings(text, schema: RelatedToySchema.standard)
    #expect(warnings.map(\.code) == [.shadowedAskRule])
    #expect(warnings.first?.help.first?.contains("`rated` implies `rated_any`") == true)
    #expect(try logicWarnings(text, schema: ToySchema.standard).isEmpty)
  }

  @Test("PC319 is not reported when some real user is asked, nor silenced when allowed elsewhere")
  func neverAsksOnlyWhenNoOneIs() throws {
    let asks = try compiled(
      "never answered when rated_any\nask a when uses >= 20 and not rated\n", schema: RelatedToySchema.standard)
    #expect(PolicyAnalyzer.analyze(asks).warnings.filter { $0.code == .neverAsks }.isEmpty)
    let allowed = try compiled(
      "never paused when true\n# policyc: allow PC319\nask a when uses >= 20\n", schema: RelatedToySchema.standard)
    let report = PolicyAnalyzer.analyze(allowed)
    #expect(report.warnings.isEmpty)
    #expect(report.silenced.map(\.diagnostic.code) == [.neverAsks])
  }

  @Test("diff of the dead rule against a live one decides, with a counterexample a real user can have")
  func diffDecides() throws {
    let dead = try compiled("ask a when days >= 30 and total_days < 10", schema: RelatedToySchema.standard)
    let live = try compiled("days >= 30 and uses >= 20 and not declined", schema: RelatedToySchema.standard)
    guard case .different(let counterexample) = PolicyEquivalence.compare(dead, live) else {
      Issue.record("expected a counterexample")
      return
    }
    #expect(verified(counterexample, dead, live))
    let witness = counterexample.witness
    #expect(RelatedToySchema.standard.brokenRelations(in: witness.assignment, now: witness.now).isEmpty)
    let same = try compiled("ask early when total_days < 10 and days >= 30", schema: RelatedToySchema.standard)
    guard case .equivalent = PolicyEquivalence.compare(dead, same) else {
      Issue.record("the dead rule and its reordering are the same")
      return
    }
  }

  @Test("brokenRelations reports each kind of relation broken, naming the facts")
  func brokenRelationsPerKind() throws {
    let schema = RelatedToySchema.standard
    let now = Timestamp(millisecondsSince1970: 1_767_225_600_000)
    func instant(daysAgo: Int64) -> Value {
      .instant(Timestamp(millisecondsSince1970: now.millisecondsSince1970 - daysAgo * 86_400_000))
    }
    func member(_ family: String, _ key: Value, _ value: Value?) -> AssignedFact {
      AssignedFact("\(family)(\(key))", family: family, key: key, value)
    }
    let cases: [([AssignedFact], [String])] = [
      ([AssignedFact("days", .int(5)), AssignedFact("total_days", .int(4))], ["days", "total_days"]),
      ([AssignedFact("rated", .bool(true)), AssignedFact("rated_any", .bool(false))], ["rated", "rated_any"]),
      (
        [AssignedFact("install_date", instant(daysAgo: 1)), AssignedFact("first_use", instant(daysAgo: 2))],
        ["install_date", "first_use"]
      ),
      (
        [member("events", .string("x"), .int(3)), member("total_events", .string("x"), .int(2))],
        ["events(\"x\")", "total_events(\"x\")"]
      ),
      (
        [
          member("prompts_within", .duration(TimeSpan(milliseconds: 1000)), .int(3)),
          AssignedFact("total_prompts", .int(2)),
        ], ["prompts_within(1s)", "total_prompts"]
      ),
      ([AssignedFact("uses", .int(-1))], ["uses"]),
      ([AssignedFact("first_use", instant(daysAgo: -1))], ["first_use"]),
      (
        [
          member("prompts_within", .duration(TimeSpan(milliseconds: 1000)), .int(3)),
          member("prompts_within", .duration(TimeSpan(milliseconds: 2000)), .int(2)),
        ], ["prompts_within(1s)", "prompts_within(2s)"]
      ),
      ([AssignedFact("last_prompt", nil), AssignedFact("total_prompts", .int(1))], ["last_prompt", "total_prompts"]),
      (
        [AssignedFact("last_decline", instant(daysAgo: 1)), AssignedFact("declined_any", .bool(false))],
        ["last_decline", "declined_any"]
      ),
      (
        [AssignedFact("last_prompt_version", nil), AssignedFact("last_prompt", instant(daysAgo: 1))],
        ["last_prompt_version", "last_prompt"]
      ),
      ([AssignedFact("days", .int(2)), AssignedFact("first_use", instant(daysAgo: 3))], ["days", "first_use"]),
      (
        [
          member("prompts_within", .duration(TimeSpan(milliseconds: 86_400_000)), .int(0)),
          AssignedFact("last_prompt", instant(daysAgo: 0)),
        ], ["prompts_within(1d)", "last_prompt"]
      ),
      (
        [
          member("average_score", .int(0), nil), member("average_score", .int(2), .number(Number(scaled: 0))),
          member("average_score", .int(7), nil),
        ], ["average_score(2)", "average_score(7)"]
      ),
      (
        [AssignedFact("last_prompt", instant(daysAgo: 1)), member("average_score", .int(4), nil)],
        ["last_prompt", "average_score(4)"]
      ),
    ]
    for (facts, names) in cases {
      let broken = schema.brokenRelations(in: facts, now: now)
      #expect(broken.map(\.facts) == [names], "\(facts)")
    }
    // Facts that are not given break nothing; the same facts made consistent break nothing.
    #expect(schema.brokenRelations(in: [AssignedFact("days", .int(5))], now: now).isEmpty)
    #expect(
      schema.brokenRelations(
        in: [
          AssignedFact("days", .int(2)), AssignedFact("first_use", instant(daysAgo: 2)),
          AssignedFact("total_days", .int(3)), AssignedFact("install_date", instant(daysAgo: 3)),
        ],
        now: now
      ).isEmpty)
  }

  @Test("relations that name missing facts or join the wrong types are refused")
  func invalidRelations() {
    let invalid: [FactRelation] = [
      .bound("dayz", atMost: "total_days", because: "no such fact"),
      .bound("days", atMost: "declined_any", because: "an int and a bool"),
      FactRelation(.minimum("days", .bool(true)), because: "of another type"),
      FactRelation(.notAfterNow("days"), because: "not an instant"),
      FactRelation(.increasing("events"), because: "keyed by strings"),
      FactRelation(.presence("days", when: .positive("uses")), because: "never absent"),
      FactRelation(.presence("last_prompt", when: .positive("declined_any")), because: "not an int"),
      FactRelation(.wholeUnits(count: "days", since: "last_prompt", unit: RelatedToySchema.day), because: "optional"),
      FactRelation(.window(family: "events", latest: "last_prompt"), because: "not keyed by a duration"),
      FactRelation(
        .presentTogether(family: "events", fromKey: 1, whenPresent: nil), because: "keyed by strings, never absent"),
      FactRelation(
        .presentTogether(family: "average_score", fromKey: 1, whenPresent: "days"), because: "`days` is never absent"),
    ]
    for relation in invalid {
      #expect(throws: FactSchema.DefinitionError.self, "\(relation)") {
        try ToySchema.standard.relating(scopes: [], relations: [relation])
      }
    }
  }
}

/// Fact sets a real history of the related toy schema could produce, drawn at random around the
/// generated policies' constants: every relation holds by construction (and is checked).
struct RealFactsGenerator {
  var random: AnalyzerRandom
  static let now = Timestamp(millisecondsSince1970: 1_767_225_600_000)
  static let day: Int64 = 86_400_000

  mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

  /// The values by name (nil: absent) for every fact and member of `policies`' layouts.
  mutating func values() -> [String: Value?] {
    let day = Self.day
    let now = Self.now.millisecondsSince1970
    let firstUseAge = pick([0, 3_600_000, 29 * day, 30 * day, 30 * day + 3_600_000, 31 * day, 60 * day, 100 * day])
    let installAge = firstUseAge + pick([0, day, 30 * day, 100 * day])
    let total = Int64(pick([0, 1, 2, 3, 5]))
    let lastPromptAge: Int64? =
      total == 0 ? nil : min(installAge, pick([0, 6 * day, 7 * day, 56 * day, 60 * day, 400 * day]))
    let declinedAny = Bool.random(using: &random)
    let ratedAny = Bool.random(using: &random)
    let totalEvents = Int64(pick([0, 2, 3, 10]))
    var values: [String: Value?] = [
      "days": .int(firstUseAge / day), "total_days": .int(installAge / day),
      "first_use": .instant(Timestamp(millisecondsSince1970: now - firstUseAge)),
      "install_date": .instant(Timestamp(millisecondsSince1970: now - installAge)),
      "uses": .int(Int64(pick([0, 5, 19, 20, 21, 100]))),
      "total_prompts": .int(total), "prompts": .int(Int64.random(in: 0...total, using: &random)),
      "last_prompt": lastPromptAge.map { .instant(Timestamp(millisecondsSince1970: now - $0)) },
      "last_prompt_version": lastPromptAge.map { _ in Version(parsing: "2.0").map(Value.version) } ?? nil,
      "declined_any": .bool(declinedAny), "declined": .bool(declinedAny && Bool.random(using: &random)),
      "last_decline": declinedAny ? .instant(Timestamp(millisecondsSince1970: now - day)) : nil,
      "rated_any": .bool(ratedAny), "rated": .bool(ratedAny && Bool.random(using: &random)),
      "version": Version(parsing: pick(["1.9", "2.0", "2.0.1", "3.0"])).map(Value.version) ?? .int(0),
      "events#x": .int(Int64.random(in: 0...totalEvents, using: &random)),
      "total_events#x": .int(totalEvents),
    ]
    // Members of `prompts_within`, by the windows the policies use.
    for window in [7 * day, 8 * 7 * day, 30 * day, 365 * day] {
      let inside = lastPromptAge.map { $0 < window } ?? false
      values[Self.windowName(window)] = .int(inside ? (window >= 365 * day ? total : 1) : 0)
    }
    return values
  }

  /// The name of the `prompts_within` member of `window` milliseconds, as layouts name it.
  static func windowName(_ window: Int64) -> String {
    "prompts_within#\(window)"
  }

  /// The key of `values` for the fact in `slot`: its name, or `family#key` for a member.
  static func key(of slot: FactSlot) -> String {
    switch slot.origin {
    case .family(let family, .duration(let window)): "\(family)#\(window.milliseconds)"
    case .family(let family, .string(let key)): "\(family)#\(key)"
    case .family(let family, let key): "\(family)#\(key)"
    case .schema, .declaration: slot.name
    }
  }

  /// The facts of `values` for `policy`, and their assignment for the relations.
  static func facts(_ values: [String: Value?], for policy: CompiledPolicy) throws -> (Facts, [AssignedFact]) {
    var facts = policy.makeFacts(now: now)
    var assignment: [AssignedFact] = []
    for (index, slot) in policy.layout.slots.enumerated() {
      guard let value = values[key(of: slot)] else { continue }
      if let value { try facts.set(slot: index, to: value) } else { try facts.setAbsent(slot.name) }
      switch slot.origin {
      case .family(let family, let key): assignment.append(AssignedFact(slot.name, family: family, key: key, value))
      case .schema: assignment.append(AssignedFact(slot.name, value))
      case .declaration: break
      }
    }
    return (facts, assignment)
  }
}

@Suite("analyzer: relations property test")
struct AnalyzerRelationPropertyTests {
  static let atoms = [
    "days >= 30", "days < 10", "total_days < 10", "total_days >= 31", "uses >= 20", "uses < 0", "rated",
    "not rated_any", "declined", "not declined_any", "has last_prompt", "not has last_prompt", "total_prompts >= 1",
    "total_prompts < 2", "prompts >= 2", "since(last_prompt) < 7d", "since(last_prompt) >= 8w",
    "prompts_within(30d) >= 1", "prompts_within(365d) >= 3", "prompts_within(7d) >= 2", "events(\"x\") > 2",
    "total_events(\"x\") < 3", "since(first_use) < 2d", "since(install_date) >= 30d", "has last_decline",
    // Facts compared with each other (orders between them).
    "days > total_days", "days < total_days", "days == total_days", "uses != total_uses", "total_uses <= uses",
    "since(first_use) < since(install_date)", "first_use >= install_date", "since(last_prompt) > since(last_decline)",
  ]

  static func policy(_ random: inout AnalyzerRandom) -> String {
    func condition() -> String {
      let count = Int.random(in: 1...3, using: &random)
      let joiner = Bool.random(using: &random) ? " and " : " or "
      return (0..<count).map { _ in Self.atoms[Int.random(in: 0..<Self.atoms.count, using: &random)] }.joined(
        separator: joiner)
    }
    var rules = ["ask a when \(condition())"]
    if Bool.random(using: &random) { rules.append("never n when \(condition())") }
    if Bool.random(using: &random) { rules.append("ask b when \(condition())") }
    return rules.joined(separator: "\n")
  }

  @Test("random policies over related facts: no claim is contradicted by a real fact set; every counterexample is real")
  func randomPolicies() throws {
    var random = AnalyzerRandom(seed: 25)
    var generator = RealFactsGenerator(random: AnalyzerRandom(seed: 26))
    let schema = RelatedToySchema.standard
    var counts: [String: Int] = [:]
    for _ in 0..<300 {
      let text = Self.policy(&random)
      let policy = try compiled(text, schema: schema)
      let report = PolicyAnalyzer.analyze(policy)
      let samples = try (0..<60).map { _ in try RealFactsGenerator.facts(generator.values(), for: policy) }
      for (_, assignment) in samples {
        #expect(schema.brokenRelations(in: assignment, now: RealFactsGenerator.now).isEmpty, "the generator")
      }
      for finding in report.findings {
        counts[finding.diagnostic.code.rawValue, default: 0] += 1
        let rule = policy.rules.firstIndex { $0.range == finding.owner }
        switch finding.diagnostic.code {
        case .ruleNeverHolds:
          let index = try #require(rule)
          for (facts, _) in samples where policy.rules[index].kind == .ask {
            #expect(!policy.decide(facts).decidingRules.contains(index), "\(text): \(finding.diagnostic.message)")
          }
        case .neverAsks:
          for (facts, _) in samples {
            #expect(!policy.decide(facts).shouldAsk, "\(text): \(finding.diagnostic.message)")
          }
        default: break
        }
      }
      // Against the policy less its last rule: equivalent means the same on real facts, and a
      // counterexample is a real fact set.
      let lines = text.split(separator: "\n")
      guard lines.count > 1 else { continue }
      let other = try compiled(lines.dropLast().joined(separator: "\n"), schema: schema)
      switch PolicyEquivalence.compare(policy, other) {
      case .equivalent:
        counts["equivalent", default: 0] += 1
        for (facts, assignment) in samples {
          let same = try RealFactsGenerator.facts(values(of: facts, in: policy), for: other).0
          #expect(
            policy.decide(facts).shouldAsk == other.decide(same).shouldAsk, "\(text): said equivalent; \(assignment)")
        }
      case .different(let counterexample):
        counts["different", default: 0] += 1
        #expect(verified(counterexample, policy, other), "\(text)")
        let witness = counterexample.witness
        #expect(
          schema.brokenRelations(in: witness.assignment, now: witness.now).isEmpty, "\(text): \(witness.summary())")
      case .unknown(let reason): Issue.record("\(text): \(reason)")
      case .incomparable(let reason): Issue.record("\(text): \(reason)")
      }
    }
    // Every kind of answer is exercised.
    #expect(counts["PC310", default: 0] >= 20, "\(counts)")
    #expect(counts["PC319", default: 0] >= 10, "\(counts)")
    #expect(counts["equivalent", default: 0] >= 20, "\(counts)")
    #expect(counts["different", default: 0] >= 20, "\(counts)")
  }

  /// The values of `facts` by slot name.
  private func values(of facts: Facts, in policy: CompiledPolicy) -> [String: Value?] {
    var result: [String: Value?] = [:]
    for slot in policy.layout.slots {
      result[RealFactsGenerator.key(of: slot)] = .some(facts.value(of: slot.name))
    }
    return result
  }
}
