import Testing

@testable import PolicyCore

/// The bucket ranges a rule requires, for rollout read-outs.
@Suite("bucket ranges of rules")
struct BucketRangeTests {
  static let schema: FactSchema? = try? FactSchema(facts: [FactDefinition("days", .int, meaning: "days")])

  @Test(
    "comparisons with a constant in the top-level `and` chain give ranges; other shapes none",
    arguments: [
      (#"ask new when bucket("a") < 10 and days > 3"#, ["a": 0...9]),
      (#"ask when 10 <= bucket("a") and bucket("a") < 20"#, ["a": 10...19]),
      (#"ask when bucket("a") == 7 and bucket("b") > 90"#, ["a": 7...7, "b": 91...99]),
      (#"ask when bucket("a") < 10 and bucket("a") > 20"#, ["a": 100...100]),
      (#"ask when bucket("a") >= 50"#, ["a": 50...99]),
      (#"ask when bucket("a") >= 50 or days > 3"#, [:]),
      (#"ask when not bucket("a") < 10"#, [:]),
      (#"ask when bucket("a") != 3 and days > 1"#, [:]),
      (#"ask when days > 1"#, [:]),
    ] as [(String, [String: ClosedRange<Int64>])])
  func ranges(text: String, expected: [String: ClosedRange<Int64>]) throws {
    let schema = try #require(Self.schema)
    let policy = try #require(PolicyCompiler.compile(SourceFile(path: "p.policy", text: text), schema: schema).policy)
    #expect(policy.bucketRanges(ofRule: 0) == expected)
    #expect(policy.bucketRanges(ofRule: 1).isEmpty)
  }

  @Test("a subject whose bucket is outside a rule's range never gets that rule to hold (1,000 seeds)")
  func agreesWithEvaluation() throws {
    let text =
      #"ask low when bucket("a") < 30 and days >= 0"# + "\n" + #"ask mid when 30 <= bucket("a") and bucket("a") <= 59"#
    let schema = try #require(Self.schema)
    let policy = try #require(PolicyCompiler.compile(SourceFile(path: "p.policy", text: text), schema: schema).policy)
    let ranges = [policy.bucketRanges(ofRule: 0)["a"], policy.bucketRanges(ofRule: 1)["a"]]
    #expect(ranges == [0...29, 30...59])
    for seed in 0..<UInt64(1_000) {
      var facts = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
      try facts.set("days", to: .int(1))
      facts.seed = seed &* 0x9E37_79B9_7F4A_7C15
      let value = Bucket.value(seed: facts.seed, name: "a")
      let decision = policy.decide(facts)
      for (index, range) in ranges.enumerated() {
        #expect(decision.decidingRules.contains(index) == range?.contains(value), "seed \(seed), bucket \(value)")
      }
    }
  }
}
