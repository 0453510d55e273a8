import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// `ReviewState.merged(with:)` over random pairs of states of one install: commutative in counts,
/// idempotent, monotone, bounded; a higher epoch wins whole.
@Suite("runtime: state merge")
struct RuntimeStateMergeTests {
  typealias F = RuntimeFixtures

  /// Random pairs checked.
  static let pairs = 2_000

  /// A random state: small counts, a few names, flags, instants, sessions, prompts and answers
  /// (sometimes more than the bounds keep), then bounded as loading bounds it.
  static func randomState(_ random: inout SeededGenerator, epoch: Int) -> ReviewState {
    func count(_ limit: UInt64 = 60) -> Int { Int(random.next() % limit) }
    func flag() -> Bool { random.next() % 2 == 0 }
    func instant() -> Timestamp? { random.next() % 4 == 0 ? nil : F.at(Int64(random.next() % 1_000) * F.day / 10) }
    let names = ["export", "share", "edit", "print", "import"]
    var state = ReviewState()
    state.epoch = epoch
    state.version = ["1.0", "2.0"][count(2)]
    state.firstUse = instant()
    state.uses = count()
    state.events = count()
    state.sessions = count()
    state.prompts = count(5)
    state.declined = flag()
    state.rated = flag()
    state.feedback = flag()
    state.lastReminder = instant()
    for name in names where flag() { state.eventsByName[name] = count() }
    state.installDate = instant()
    state.firstSession = instant()
    state.installSeed = flag() ? Int64(count(1_000)) + 1 : nil
    state.previousVersion = flag() ? "0.9" : nil
    state.totalUses = state.uses + count()
    state.totalEvents = state.events + count()
    state.totalSessions = state.sessions + count()
    state.totalPrompts = state.prompts + count(5)
    for name in names where flag() { state.totalEventsByName[name] = count() }
    state.declinedAny = state.declined || flag()
    state.ratedAny = state.rated || flag()
    state.lastDecline = instant()
    state.lastRating = instant()
    state.clockHighWater = instant()
    let many = random.next() % 8 == 0
    let sessionNumbers = Set((0..<(many ? 70 : count(8))).map { _ in count(200) }).sorted()
    state.recentSessions = sessionNumbers.map {
      SessionRecord(number: $0, start: F.at(Int64($0) * 3_600_000), version: state.version ?? "1.0")
    }
    if flag() {
      state.currentSession = SessionRecord(
        number: count(200), start: F.at(Int64(count(200)) * 3_600_000), version: "1.0")
    }
    if flag() {
      state.lastBadSession = SessionRecord(number: count(200), start: F.at(Int64(count()) * 60_000), version: "1.0")
    }
    let outcomes: [PromptOutcome] = [.pending, .unknown, .rated, .declined, .remindLater, .feedback, .dismissed]
    state.promptHistory = Set((0..<(many ? 130 : count(6))).map { _ in count(400) }).sorted().map {
      PromptRecord(date: F.at(Int64($0) * F.day), version: "1.0", session: $0 % 7, outcome: outcomes[count(7)])
    }
    let answers = ReviewResponse.allCases
    state.responses = Set((0..<(many ? 30 : count(6))).map { _ in count(400) }).sorted().map {
      ResponseRecord(response: answers[count(UInt64(answers.count))], date: F.at(Int64($0) * F.day), version: "1.0")
    }
    if flag() { state.policySource = "ask when uses >= \(count())" }
    state.importedLegacy = flag() ? ["appirater"] : []
    return state.sanitized()
  }

  static var lifetimeCounts: [KeyPath<ReviewState, Int>] {
    [\.totalUses, \.totalEvents, \.totalSessions, \.totalPrompts]
  }
  static var versionCounts: [KeyPath<ReviewState, Int>] { [\.uses, \.events, \.sessions, \.prompts] }

  @Test("random pairs: commutative in counts, idempotent, monotone, bounded; a higher epoch wins")
  func properties() {
    var random = SeededGenerator(seed: 18)
    var sameVersion = 0
    var overBounds = 0
    for pair in 0..<Self.pairs {
      let epochs = random.next() % 10 == 0 ? (0, 1) : (0, 0)
      let a = Self.randomState(&random, epoch: epochs.0)
      let b = Self.randomState(&random, epoch: epochs.1)
      let ab = a.merged(with: b)
      let ba = b.merged(with: a)
      #expect(a.merged(with: a) == a, "pair \(pair): not idempotent")
      #expect(ab.merged(with: ab) == ab, "pair \(pair): the merge is not idempotent")
      guard a.epoch == b.epoch else {
        #expect(ab == b && ba == b, "pair \(pair): the higher epoch does not win")
        continue
      }
      for path in Self.lifetimeCounts {
        #expect(ab[keyPath: path] == ba[keyPath: path], "pair \(pair): \(path) not commutative")
        #expect(ab[keyPath: path] == max(a[keyPath: path], b[keyPath: path]), "pair \(pair): \(path)")
      }
      #expect(ab.totalEventsByName == ba.totalEventsByName, "pair \(pair)")
      for (name, count) in a.totalEventsByName.merging(b.totalEventsByName, uniquingKeysWith: max) {
        #expect(ab.totalEventsByName[name] == count, "pair \(pair): \(name)")
      }
      #expect(ab.declinedAny == (a.declinedAny || b.declinedAny) && ab.declinedAny == ba.declinedAny)
      #expect(ab.ratedAny == (a.ratedAny || b.ratedAny) && ab.ratedAny == ba.ratedAny)
      #expect(ab.installDate == ba.installDate && ab.lastDecline == ba.lastDecline && ab.lastRating == ba.lastRating)
      // The later clock mark and the earlier start instants: day counts never decrease in a merge.
      #expect(ab.clockHighWater == [a.clockHighWater, b.clockHighWater].compactMap { $0 }.max(), "pair \(pair)")
      #expect(ab.clockHighWater == ba.clockHighWater, "pair \(pair): clock mark not commutative")
      #expect(Set(ab.responses) == Set(ba.responses), "pair \(pair): answers not commutative")
      #expect(Set(ab.promptHistory.map(\.date)) == Set(ba.promptHistory.map(\.date)), "pair \(pair): prompts")
      if a.version == b.version {
        sameVersion += 1
        for path in Self.versionCounts {
          #expect(ab[keyPath: path] == ba[keyPath: path], "pair \(pair): \(path) not commutative")
          #expect(
            ab[keyPath: path] >= a[keyPath: path] && ab[keyPath: path] >= b[keyPath: path], "pair \(pair): \(path)")
        }
        #expect(ab.eventsByName == ba.eventsByName && ab.declined == (a.declined || b.declined))
      } else {
        #expect(ab.version == a.version && ab.uses == a.uses, "pair \(pair): the receiver's version is kept")
      }
      // Bounded as loading bounds it, keeping the newest of both sides.
      let allResponses = Set(a.responses).union(b.responses)
      if allResponses.count > ReviewLimits.responseHistory { overBounds += 1 }
      #expect(ab.responses.count == min(allResponses.count, ReviewLimits.responseHistory), "pair \(pair)")
      #expect(
        ab.recentSessions.count <= ReviewLimits.sessionHistory && ab.promptHistory.count <= ReviewLimits.promptHistory)
      #expect(ab == ab.sanitized(), "pair \(pair): not bounded")
      if let newest = allResponses.max(by: { $0.date < $1.date }) {
        #expect(ab.responses.contains { $0.date == newest.date }, "pair \(pair): the newest answer was dropped")
      }
    }
    #expect(
      sameVersion > Self.pairs / 4 && overBounds > 0, "\(sameVersion) same-version pairs, \(overBounds) over bounds")
  }

  @Test("a prompt pending on one side takes the answer the other recorded; a stale copy is behind")
  func pendingPromptsAndBehind() {
    var memory = ReviewState()
    memory.promptHistory = [PromptRecord(date: F.at(0), version: "1.0", session: 1, outcome: .pending)]
    memory.totalUses = 5
    var stored = memory
    stored.promptHistory[0].outcome = .declined
    stored.declinedAny = true
    #expect(memory.merged(with: stored).promptHistory.map(\.outcome) == [.declined])
    #expect(stored.merged(with: memory).promptHistory.map(\.outcome) == [.declined])
    var older = memory
    older.totalUses = 4
    #expect(older.isBehind(memory) && !memory.isBehind(older) && !memory.isBehind(memory))
    #expect(stored.isBehind(memory) == false && memory.isBehind(stored))
    var reset = older
    reset.reset()
    #expect(!reset.isBehind(memory) && memory.isBehind(reset), "a higher epoch is newer, whatever its counts")
    #expect(older.restoredCount(in: memory.merged(with: older)) == 1)
  }
}
