import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The relations `ReviewSchema` declares are derived from the tracker: random histories through
/// the real `ReviewTracker` (every call it offers, answers early and late, version moves up and
/// down, waits from nothing to years, the device clock set back and forward), every relation
/// checked on the complete facts after every step. A relation the tracker does not guarantee
/// cannot be declared without this test failing.
@Suite("the review schema's relations hold for every history")
struct FactRelationTests {
  /// A policy whose layout has every standard fact and members of each family; it always asks,
  /// so `promptIfAppropriate` shows prompts.
  static let probe = """
    ask probe when events("a") >= 0 or total_events("a") >= 0 or events("zz") >= 0 or total_events("zz") >= 0
      or prompts_within(1s) >= 0 or prompts_within(1h) >= 0 or prompts_within(1d) >= 0 or prompts_within(8w) >= 0
      or prompts_within(365d) >= 0 or prompts_within(100000d) >= 0 or (average_score(3) ?? 0) >= 0 or (average_score(1) ?? 0) >= 0 or (average_score(25) ?? 0) >= 0
      or true
    """

  /// The facts of `facts` (all of the layout's host facts) as an assignment.
  static func assignment(_ facts: Facts, _ policy: CompiledPolicy) -> [AssignedFact] {
    policy.layout.slots.compactMap { slot in
      switch slot.origin {
      case .schema: AssignedFact(slot.name, facts.value(of: slot.name))
      case .family(let family, let key): AssignedFact(slot.name, family: family, key: key, facts.value(of: slot.name))
      case .declaration: nil
      }
    }
  }

  /// One random step of a history, applied to `tracker` at `now`; its description.
  static func step(
    _ tracker: inout ReviewTracker, at now: Timestamp, random: inout EquivRandom, shown: inout [Timestamp],
    version: inout [Int]
  ) -> String {
    let responses: [ReviewResponse] = [.rated, .declined, .remindLater, .feedback, .dismissed, .unknown]
    switch random.int(0..<16) {
    case 0:
      let counting = random.chance(0.8)
      _ = tracker.launch(at: now, countingUse: counting)
      return "launch(\(counting))"
    case 1:
      let counting = random.chance(0.8)
      _ = tracker.appear(at: now, countingUse: counting)
      return "appear(\(counting))"
    case 2:
      tracker.countUse(at: now)
      return "use"
    case 3:
      // A few names, and now and then a burst of distinct ones past the name limit.
      let name: String? =
        random.chance(0.05) ? "name\(random.int(0..<400))" : random.pick([nil, "a", "a", "zz", "b"])
      tracker.countEvent(named: name, at: now)
      return "event(\(name ?? "-"))"
    case 4:
      tracker.startSession(at: now)
      return "session"
    case 5:
      tracker.endSession(at: now)
      return "end session"
    case 6:
      let score = random.pick([-50.0, 0, 10, 80, 500])
      let bad = random.chance(0.2)
      tracker.addAction(score: score, isBad: bad, at: now)
      return "action(\(score), \(bad))"
    case 7, 8:
      let asked = tracker.promptIfAppropriate(at: now)
      if asked, let last = tracker.state.lastPrompt { shown.append(last.date) }
      if asked && random.chance(0.6) {
        let response = random.pick(responses)
        _ = tracker.record(response, at: now)
        return "prompt -> \(response)"
      }
      return "prompt(\(asked))"
    case 9:
      shown.append(tracker.recordShownPrompt(at: now))
      return "shown"
    case 10:
      guard let prompt = shown.last else { return "no late answer" }
      let response = random.pick(responses)
      _ = tracker.answer(response, toPromptShownAt: prompt, at: now)
      return "late \(response)"
    case 11:
      let response = random.pick(responses)
      tracker.recordWithoutPrompt(response, at: now)
      return "outside \(response)"
    case 12:
      // A version move, mostly up, sometimes down.
      if random.chance(0.8) { version[1] += 1 } else { version[1] = max(0, version[1] - 1) }
      let text = version.map(String.init).joined(separator: ".")
      tracker.move(to: text, build: random.chance(0.3) ? "b\(random.int(0..<3))" : nil)
      return "move(\(text))"
    case 13:
      _ = tracker.leaveForegroundWithPromptShowing(at: now, meaning: random.pick(responses))
      return "leave"
    default:
      _ = tracker.launch(at: now, countingUse: true)
      return "launch"
    }
  }

  /// How far each step moves real time: nothing, milliseconds, hours, days or years.
  static func wait(_ random: inout EquivRandom) -> Int64 {
    switch random.int(0..<6) {
    case 0: 0
    case 1: Int64(random.int(1...2_000))
    case 2: Int64(random.int(1...48)) * 3_600_000
    case 3: Int64(random.int(1...60)) * 86_400_000
    case 4: Int64(random.int(1...400)) * 86_400_000 + Int64(random.int(0...86_399_999))
    default: Int64(random.int(1...4)) * 365 * 86_400_000
    }
  }

  @Test(
    "10,000 random histories (4 x 2,500, in parallel): every relation holds on the facts after every step, each exercised both ways",
    arguments: 0..<4)
  func relationsHoldOverRandomHistories(part: UInt64) throws {
    let policy = try #require(PolicyCompiler.compile(Self.probe, schema: ReviewSchema.standard).policy)
    let schema = ReviewSchema.standard
    // For each relation, the two situations in which it was seen holding.
    var seen = Array(repeating: (false, false), count: schema.relations.count)
    var checkedSteps = 0
    for seed in (part * 2_500 + 1)...(part * 2_500 + 2_500) {
      var random = EquivRandom(seed: seed)
      var tracker = ReviewTracker(policy: policy, appVersion: "1.0")
      var real: Int64 = 1_700_000_000_000
      var offset: Int64 = 0
      var shown: [Timestamp] = []
      var version = [1, 0]
      var history: [String] = []
      for _ in 0..<random.int(5...40) {
        real += Self.wait(&random)
        if random.chance(0.05) {
          // The device clock is set back or forward (a small or a large jump), or right again.
          offset = random.pick([-Int64(random.int(1...3_600_000)), -Int64(random.int(1...730)) * 86_400_000, 0])
          history.append("clock \(offset)")
        }
        let now = Timestamp(millisecondsSince1970: real + offset)
        history.append(Self.step(&tracker, at: now, random: &random, shown: &shown, version: &version))
        guard case .success(let facts) = tracker.facts(at: now, complete: true) else { continue }
        checkedSteps += 1
        let assignment = Self.assignment(facts, policy)
        let broken = schema.brokenRelations(in: assignment, now: now)
        if !broken.isEmpty {
          Issue.record(
            "seed \(seed): \(broken.map { "\($0.relation.statement(in: schema)) broken by \($0.facts)" }) after \(history)"
          )
          return
        }
        let indexed = Indexed(assignment)
        for (index, relation) in schema.relations.enumerated() {
          if let situation = Self.situation(relation, indexed, now: now) {
            if situation { seen[index].0 = true } else { seen[index].1 = true }
          }
        }
      }
    }
    #expect(checkedSteps > 40_000)
    for (index, relation) in schema.relations.enumerated() {
      #expect(
        seen[index].0 && seen[index].1, "not exercised both ways: \(relation.statement(in: schema)) \(seen[index])")
    }
  }

  /// An assignment by name: plain facts, and members by family.
  struct Indexed {
    var plain: [String: Value?] = [:]
    var members: [String: [AssignedFact]] = [:]

    init(_ facts: [AssignedFact]) {
      for fact in facts {
        if let family = fact.family { members[family, default: []].append(fact) } else { plain[fact.name] = fact.value }
      }
    }
  }

  /// Which of a relation's two situations `facts` shows, nil when it shows neither: a bound or
  /// an increasing family with equal and with unequal sides; a minimum reached and exceeded; an
  /// instant at `now` and before; a presence present and absent; a count of whole units zero and
  /// positive; a window's count positive and zero; two distinct facts both present and not; a
  /// window longer than the age of the instant and none.
  static func situation(_ relation: FactRelation, _ facts: Indexed, now: Timestamp) -> Bool? {
    func value(_ name: String) -> Value?? { facts.plain[name] }
    func members(_ family: String) -> [AssignedFact] { facts.members[family] ?? [] }
    switch relation.kind {
    case .boundWhen(_, let condition):
      // Seen applying and not applying (a family's condition: for one of its members).
      guard case .some(let current) = value(condition.fact) else {
        let held = members(condition.fact).map { condition.holds(for: $0.value) }
        return held.isEmpty ? nil : held.contains(true)
      }
      return condition.holds(for: current)
    case .bound(let bound):
      guard case .some(let low?) = value(bound.lower), case .some(let high?) = value(bound.upper) else {
        guard let member = members(bound.lower).first(where: { $0.value != nil }),
          case .some(let high?) = value(bound.upper)
        else { return nil }
        return member.value == high
      }
      return low == high
    case .minimum(let name, let minimum):
      guard case .some(let current?) = value(name) else { return members(name).first.map { $0.value == minimum } }
      return current == minimum
    case .notAfterNow(let name):
      guard case .some(.instant(let instant)?) = value(name) else { return nil }
      return instant == now
    case .increasing(let name):
      let values = members(name).compactMap(\.value)
      guard values.count > 1 else { return nil }
      return Set(values).count == 1
    case .presence(let name, _):
      guard case .some(let current) = value(name) else { return nil }
      return current != nil
    case .wholeUnits(let count, _, _):
      guard case .some(.int(let units)?) = value(count) else { return nil }
      return units == 0
    case .window(let family, _):
      let counts = members(family).compactMap { member -> Int64? in
        if case .int(let count)? = member.value { return count }
        return nil
      }
      guard !counts.isEmpty else { return nil }
      return counts.contains { $0 >= 1 }
    case .distinct(let first, _):
      guard case .some(let current) = value(first) else { return nil }
      return current != nil
    case .boundWhenAtMost(_, let name, let limit):
      // Applying and not.
      guard case .some(.int(let current)?) = value(name), case .some(.int(let most)?) = value(limit) else {
        return nil
      }
      return current <= most
    case .boundWhenAbove(_, let name, let limit):
      // Applying and not.
      switch (value(name), value(limit)) {
      case (.some(.int(let current)?), .some(.int(let other)?)): return current > other
      case (.some(.instant(let current)?), .some(.instant(let other)?)): return current > other
      default: return nil
      }
    case .presentFrom(let name, let count, let minimum):
      // Applying (the count reached) and not.
      guard case .some(.int(let current)?) = value(count), !members(name).isEmpty || value(name) != nil else {
        return nil
      }
      return current >= minimum
    case .presentTogether(let family, let fromKey, _):
      // All present, and all absent (the members at or above the key).
      let together = members(family).filter { member in
        guard case .int(let key)? = member.key else { return false }
        return key >= fromKey
      }
      guard together.count > 1 else { return nil }
      return together.allSatisfy { $0.value != nil }
    case .membersSum(let family, let total):
      // The members leave nothing of the total, and they leave some.
      guard case .some(.int(let whole)?) = value(total) else { return nil }
      let counts = members(family).compactMap { member -> Int64? in
        if case .int(let count)? = member.value { return count }
        return nil
      }
      guard !counts.isEmpty else { return nil }
      return counts.reduce(0, +) == whole
    case .windowCovers(let family, _, let since, let latest, let longest, _):
      // Applying (some window longer than the age of `since`, the latest occurrence at most
      // `longest` after it) and not.
      guard case .some(.instant(let start)?) = value(since), case .some(.instant(let last)?) = value(latest) else {
        return nil
      }
      let age = now.millisecondsSince1970 - start.millisecondsSince1970
      let windows = members(family).compactMap { member -> Int64? in
        if case .duration(let window)? = member.key { return window.milliseconds }
        return nil
      }
      guard !windows.isEmpty else { return nil }
      return last.millisecondsSince1970 - start.millisecondsSince1970 <= longest.milliseconds
        && windows.contains { age < $0 }
    }
  }
}
