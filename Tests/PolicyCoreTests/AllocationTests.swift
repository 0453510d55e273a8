import AllocationCounter
import Testing

@testable import PolicyCore

/// Heap blocks allocated by `iterations` calls of `decide` after one warm-up call.
/// The counter is per thread, so tests running in parallel on other threads do not disturb it.
private func allocations(_ policy: CompiledPolicy, _ facts: Facts, iterations: Int = 1000) -> (
  count: UInt64, decision: Decision
) {
  let warmUp = policy.decide(facts)
  var last = warmUp
  // Touch the counter once so its own first use on this thread is not counted.
  allocation_counter_start()
  _ = allocation_counter_stop()
  allocation_counter_start()
  for _ in 0..<iterations {
    last = policy.decide(facts)
  }
  let count = allocation_counter_stop()
  #expect(last == warmUp)
  return (count, last)
}

private let counterAvailable = allocation_counter_is_available() != 0

/// Expects no allocation, in debug and release builds alike.
private func expectNone(_ count: UInt64, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
  #expect(count == 0, "\(what): \(count) allocations", sourceLocation: sourceLocation)
}

@Suite("Allocation", .enabled(if: counterAvailable, "the allocation counter only works on Linux with glibc"))
struct AllocationTests {
  @Test("the counter sees allocations (sanity check)")
  func counterWorks() {
    allocation_counter_start()
    let array = Array(repeating: UInt8(1), count: Int.random(in: 100...200))
    let count = allocation_counter_stop()
    #expect(array.count >= 100)
    #expect(count >= 1)
  }

  @Test("the one-liner decides without allocating")
  func oneLiner() throws {
    let policy = try compiled("days >= 30 and uses >= 20 and not declined")
    var facts = policy.makeFacts(now: testNow)
    expectNone(allocations(policy, facts).count, "fresh install")
    try facts.set("days", to: .int(31))
    try facts.set("uses", to: .int(25))
    let (count, decision) = allocations(policy, facts)
    #expect(decision.shouldAsk)
    expectNone(count, "loyal user")
  }

  @Test("`bucket(\"name\")` decides without allocating, in rules and `let`s")
  func bucket() throws {
    let policy = try compiled(
      "let group = bucket(\"b\")\nask when bucket(\"new-ask\") < 50 and group >= 0 and days >= 1")
    var facts = policy.makeFacts(now: testNow)
    try facts.set("days", to: .int(3))
    for seed: UInt64 in [0, 1, 42, .max] {
      facts.seed = seed
      let (count, decision) = allocations(policy, facts)
      #expect(decision.shouldAsk == (Bucket.value(seed: seed, name: "new-ask") < 50))
      expectNone(count, "seed \(seed)")
    }
  }

  @Test("W1: string, number and int facts declared in the policy")
  func w1() throws {
    let policy = try compiled(
      """
      fact Origin: string
      fact Country: string
      fact Value: number
      fact Adults: int
      (Origin == "MOW" or Country == "RU") and (Value >= 100 or Adults == 1)
      """, schema: .empty)
    let scenarios: [(String, String, Value, Int64, Bool)] = [
      ("MOW", "FR", .number(Number(scaled: 150_000_000)), 2, true),
      ("LED", "RU", .int(5), 1, true),
      ("LED", "DE", .int(500), 1, false),
      ("AMS", "NL", .number(Number(scaled: 99_999_999)), 3, false),
    ]
    for (origin, country, value, adults, asks) in scenarios {
      var facts = policy.makeFacts(now: testNow)
      try facts.set("Origin", to: .string(origin))
      try facts.set("Country", to: .string(country))
      try facts.set("Value", to: value)
      try facts.set("Adults", to: .int(adults))
      let (count, decision) = allocations(policy, facts)
      #expect(decision.shouldAsk == asks, "\(origin) \(country)")
      expectNone(count, "\(origin) \(country)")
    }
  }

  @Test("lets, versions, lists, since, ??, keyed facts and faults decide without allocating")
  func everything() throws {
    let longList = (0..<40).map { String($0 * 7) }.joined(separator: ", ")
    let policy = try compiled(
      """
      fact plan: string
      let engaged = days >= 14 and uses >= 10
      let loved = events("export") >= 3 or (average_score(3) ?? 0) >= 75
      let recently = since(last_prompt) < 8w
      let previous = last_prompt_version
      let ratio = uses / days
      never answered when declined or rated
      never too_soon when recently or since(last_reminder) < 3d
      never capped when prompts_within(365d) >= 3
      never buggy when version >= v3.0 and version < v3.0.3
      never same when has previous and version <= previous
      never odd when version in [v2.9, v3.0.5, 4.0.0.1] and sessions % 2 == 1
      never broken when ratio > 1000 and uses * 4611686018427387904 > 0
      ask loyal when engaged and loved
      ask paying when plan in ["pro", "team"] and days in [\(longList)] and min(uses, sessions) > 2
      ask veteran when max(since(install_date), since(first_use)) / 1d >= 365 and session_score * 2 > 9.5
      """)
    var facts = try standardFacts(policy)
    try facts.set("plan", to: .string("team"))
    try facts.set("days", to: .int(14))
    try facts.set("uses", to: .int(20))
    try facts.set("sessions", to: .int(4))
    try facts.set(family: "events", key: .string("export"), to: .int(4))
    let asking = allocations(policy, facts)
    #expect(asking.decision.shouldAsk)
    expectNone(asking.count, "asking")

    // Faults (division by zero in a let, overflow in a never rule) and absent values.
    try facts.set("days", to: .int(0))
    try facts.set("uses", to: .int(.max))
    try facts.set("last_prompt_version", to: .version(.v("3.0.1")))
    try facts.set(
      "last_prompt", to: .instant(Timestamp(millisecondsSince1970: testNow.millisecondsSince1970 - 3 * day)))
    try facts.set(family: "average_score", key: .int(3), to: .int(80))
    let faulting = allocations(policy, facts)
    #expect(!faulting.decision.shouldAsk)
    #expect(faulting.decision.firstFault != nil)
    expectNone(faulting.count, "faulting")

    // A string that is not a literal of the policy.
    try facts.set("plan", to: .string("enterprise"))
    expectNone(allocations(policy, facts).count, "other string")
  }

  @Test("invalid facts are rejected without allocating")
  func invalidFacts() throws {
    let policy = try compiled("ask when since(first_use) > 1d")
    #expect(allocations(policy, policy.makeFacts(now: testNow)).count == 0)
    let other = try compiled("ask when days > 1")
    let foreign = other.makeFacts(now: testNow)
    let result = allocations(policy, foreign)
    #expect(result.decision.reason == .invalidFacts)
    #expect(result.count == 0)
  }

  @Test("a larger policy (60 lets, about 180 registers) decides without allocating")
  func largePolicy() throws {
    let lets = (0..<60).map { "let x\($0) = days + \($0)" }.joined(separator: "\n")
    let rule = "ask when " + (0..<60).map { "x\($0) > \($0 * 2)" }.joined(separator: " and ")
    let policy = try compiled(lets + "\n" + rule)
    var facts = try standardFacts(policy)
    try facts.set("days", to: .int(1000))
    let (count, decision) = allocations(policy, facts, iterations: 100)
    #expect(decision.shouldAsk)
    #expect(count == 0, "\(count) allocations in 100 decisions")
  }
}
