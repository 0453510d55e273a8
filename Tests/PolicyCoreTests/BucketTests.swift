import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// `bucket("name")`: checking, evaluation (compiled and explained), distribution and analysis.
@Suite("Buckets")
struct BucketTests {
  @Test("bucket takes one string literal and is an int; anything else is a located error")
  func checking() throws {
    let policy = try compiled("ask when bucket(\"new-ask\") < 10 and bucket((\"b\")) + 1 > 0")
    #expect(policy.bucketNames == ["b", "new-ask"])
    #expect(try compiled("ask when days > 1").bucketNames.isEmpty)
    let variable = compile("fact plan: string\nask when bucket(plan) < 10")
    let notLiteral = try diagnostic(PolicyCoreCode.wrongArgumentType.code, in: variable)
    #expect(notLiteral.message == "`bucket` needs a string literal, but `plan` is not one")
    #expect(text(notLiteral.range, in: variable) == "plan")
    let number = compile("ask when bucket(3) < 10")
    #expect(text(try diagnostic(PolicyCoreCode.wrongArgumentType.code, in: number).range, in: number) == "3")
    let none = compile("ask when bucket() < 10")
    #expect(
      try diagnostic(PolicyCoreCode.wrongArgumentCount.code, in: none).message
        == "`bucket` takes 1 argument, but 0 were given")
    #expect(errorCodes(compile("ask when bucket(\"a\", \"b\") < 10")) == [PolicyCoreCode.wrongArgumentCount.code])
    #expect(errorCodes(compile("ask when bucket(\"a\") == \"a\"")) == [PolicyCoreCode.incomparableTypes.code])
    // `bucket` is a built-in name.
    #expect(
      errorCodes(compile("fact bucket: int\nask when bucket > 1")).contains(PolicyCoreCode.duplicateDefinition.code))
    #expect(errorCodes(compile("ask when bucket < 10")) == [PolicyCoreCode.unknownName.code])
  }

  @Test("the compiled program, the explainer and Bucket agree for many seeds")
  func evaluation() throws {
    let policy = try compiled("let group = bucket(\"b\")\nask when bucket(\"new-ask\") < 30 or group == 7")
    var facts = policy.makeFacts(now: testNow)
    var random = SeededGenerator(seed: 9)
    for _ in 0..<500 {
      facts.seed = random.next()
      let expected =
        Bucket.value(seed: facts.seed, name: "new-ask") < 30 || Bucket.value(seed: facts.seed, name: "b") == 7
      #expect(policy.decide(facts).shouldAsk == expected)
      #expect(policy.explain(facts).decision == policy.decide(facts))
    }
    for seed: UInt64 in [0, 1, .max, 0x8000_0000_0000_0000] {
      #expect((0..<100).contains(Bucket.value(seed: seed, name: "")))
      #expect(Bucket.value(seed: seed, name: "x") == Bucket.value(seed: seed, nameHash: Bucket.nameHash("x")))
    }
  }

  @Test("explanations show the bucket's value")
  func explanation() throws {
    let policy = try compiled("ask rollout when bucket(\"new-ask\") < 10")
    var facts = policy.makeFacts(now: testNow)
    facts.seed = 42
    let value = Bucket.value(seed: 42, name: "new-ask")
    let rendered = ExplanationRenderer().render(policy.explain(facts), of: policy)
    #expect(rendered.contains("bucket(\"new-ask\") < 10  bucket(\"new-ask\") = \(value)"), "\(rendered)")
  }

  @Test("10,000 seeds: 10% ± 1% below 10, and two names independent (1% ± 0.5% jointly)")
  func distribution() {
    var random = SeededGenerator(seed: 2026)
    var below = 0
    var both = 0
    for _ in 0..<10_000 {
      let seed = random.next()
      let first = Bucket.value(seed: seed, name: "new-ask") < 10
      if first { below += 1 }
      if first && Bucket.value(seed: seed, name: "other") < 10 { both += 1 }
    }
    #expect((900...1100).contains(below), "\(below)")
    #expect((50...150).contains(both), "\(both)")
    // Consecutive seeds are as good as random ones.
    let consecutive = (UInt64(0)..<10_000).filter { Bucket.value(seed: $0, name: "new-ask") < 10 }.count
    #expect((900...1100).contains(consecutive), "\(consecutive)")
  }

  @Test("the analyzer treats a bucket as an unknown int that never faults")
  func analysis() throws {
    let polite = "never answered when declined or rated\nnever too_soon when since(last_reminder) < 8w\n"
    let codes = { (text: String) throws -> [DiagnosticCode] in
      try analyzed(polite + text).report.warnings.map(\.code)
    }
    let rollout = try codes("ask when bucket(\"x\") < 10 and days >= 3")
    #expect(!rollout.contains(PolicyCoreCode.ruleNeverHolds.code))
    #expect(!rollout.contains(PolicyCoreCode.ruleAlwaysHolds.code))
    // A never rule on a bucket does not shadow the ask rule: it holds only for some installs.
    #expect(
      !(try codes("never when bucket(\"x\") < 50\nask when days >= 3")).contains(PolicyCoreCode.shadowedAskRule.code))
    // A contradiction elsewhere in the rule is still found.
    #expect(
      try codes("ask when bucket(\"x\") < 10 and days > 5 and days < 2").contains(
        PolicyCoreCode.contradictoryComparisons.code))
  }

  @Test("a counterexample names the seed it needs, and the policies decide apart on it")
  func counterexampleSeed() throws {
    // A bucket value that seed 0 does not have but some seed below 128 does.
    let zero = Bucket.value(seed: 0, name: "x")
    let seed = try #require((UInt64(1)..<128).first { Bucket.value(seed: $0, name: "x") != zero })
    let value = Bucket.value(seed: seed, name: "x")
    let old = try compiled("ask when bucket(\"x\") == \(value) and days > 3")
    let new = try compiled("ask when days > 3 and days < 3")
    guard case .different(let counterexample) = PolicyEquivalence.compare(old, new) else {
      Issue.record("expected a difference")
      return
    }
    #expect(counterexample.witness.seed != 0)
    #expect(counterexample.witness.summary().hasSuffix("seed \(counterexample.witness.seed)"))
    let facts = counterexample.witness.facts(for: old)
    #expect(facts.seed == counterexample.witness.seed)
    #expect(old.decide(facts).shouldAsk)
  }
}
