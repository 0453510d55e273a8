// Writes the seed corpus of the `store` fuzz target: review states saved by the real
// JSONFileStore (so the bytes are exactly what the library writes), from hand-made states and
// from ReviewManagers driven through a few simulated weeks.
//
//   Fuzz/tools/make-seeds.sh store      (compiles this with Sources/PolicyCore and Sources/ReviewPolicy)
//
// Usage of the binary: store-seeds OUTPUT-DIRECTORY
import Foundation

@main
struct StoreSeeds {
  static let day: Int64 = 86_400_000
  static let start: Int64 = 1_772_366_400_000  // 2026-03-01T12:00:00Z

  static func at(_ days: Int64) -> Timestamp { Timestamp(millisecondsSince1970: start + days * day) }
  static func number(_ text: String) -> Number { Number(parsing: text) ?? Number(scaled: 0) }

  /// A state that uses every field (as RuntimeStoreTests.fullState).
  static var fullState: ReviewState {
    var state = ReviewState()
    state.version = "1.2.3-beta"
    state.firstUse = at(1)
    state.uses = 7
    state.events = 4
    state.eventsByName = ["export": 3, "ünïcödé ✓": 1]
    state.sessions = 3
    state.prompts = 1
    state.declined = true
    state.rated = true
    state.feedback = true
    state.lastReminder = at(2)
    state.installDate = at(-5)
    state.previousVersion = "1.0"
    state.totalUses = 70
    state.totalEvents = 40
    state.totalEventsByName = ["export": 30, "quote \"and\" \\ slash": 2]
    state.totalSessions = 30
    state.totalPrompts = 5
    state.declinedAny = true
    state.ratedAny = true
    state.lastDecline = at(3)
    state.lastRating = at(4)
    state.currentSession = SessionRecord(
      number: 30, start: at(5), version: "1.2.3-beta", score: number("-12.345678"), isBad: true)
    state.recentSessions = [SessionRecord(number: 29, start: at(0), version: "1.2.3-beta", score: number("0.000001"))]
    state.lastBadSession = SessionRecord(number: 20, start: at(-3), version: "1.0", isBad: true)
    state.promptHistory = [PromptRecord(date: at(-2), version: "1.0", session: 20, outcome: .remindLater)]
    state.responses = [ResponseRecord(response: .remindLater, date: at(-1), version: "1.0")]
    state.policySource = "ask when uses >= 3 # ✓"
    state.importedLegacy = ["appirater"]
    return state
  }

  /// Counters and instants at their extremes.
  static var extremeState: ReviewState {
    var state = fullState
    state.uses = .max
    state.totalUses = .max
    state.events = 0
    state.totalEvents = .max
    state.totalPrompts = .max
    state.totalSessions = .max
    state.eventsByName = ["": 0, String(repeating: "é", count: 64): .max]
    state.firstUse = Timestamp(millisecondsSince1970: .min)
    state.installDate = Timestamp(millisecondsSince1970: .min)
    state.lastReminder = Timestamp(millisecondsSince1970: .max)
    state.lastDecline = Timestamp(millisecondsSince1970: 0)
    state.currentSession = SessionRecord(
      number: .max, start: Timestamp(millisecondsSince1970: .max), version: "", score: Number(scaled: .max))
    state.recentSessions = [
      SessionRecord(
        number: 1, start: Timestamp(millisecondsSince1970: .min), version: "0", score: Number(scaled: .min), isBad: true
      )
    ]
    state.promptHistory = PromptOutcome.allOutcomes.enumerated().map {
      PromptRecord(date: at(Int64($0.offset) - 800), version: "v\($0.offset)", session: $0.offset, outcome: $0.element)
    }
    state.responses = ReviewResponse.allCases.enumerated().map {
      ResponseRecord(response: $0.element, date: at(Int64($0.offset)), version: "9.9")
    }
    return state
  }

  /// A policy that reads most standard facts.
  static let policy = """
    never answered when declined or rated
    never too_soon when since(last_prompt) < 1w or since(last_reminder) < 3d
    never capped when prompts_within(365d) >= 3
    never bad when session_bad or (sessions_since_bad ?? 10) < 2
    ask loyal when days >= 3 and uses >= 5 and (events("export") >= 2 or (average_score(3) ?? 0) >= 1)
    """

  /// A clock the simulation moves.
  final class Clock: @unchecked Sendable {
    var now = Date(timeIntervalSince1970: 1_772_366_400)
    let lock = NSLock()
    func read() -> Date { lock.lock(); defer { lock.unlock() }; return now }
    func advance(hours: Double) { lock.lock(); now += hours * 3600; lock.unlock() }
  }

  /// A linear congruential generator, shared by the simulation and its presenter.
  final class Dice: @unchecked Sendable {
    var state: UInt64
    let lock = NSLock()
    init(_ seed: UInt64) { state = seed }
    func next(_ bound: Int) -> Int {
      lock.lock()
      defer { lock.unlock() }
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  /// Drives a manager saving through a JSONFileStore at `url` for `days` simulated days.
  static func simulate(_ url: URL, seed: UInt64, days: Int, versions: [String]) throws {
    let dice = Dice(seed)
    let next = dice.next
    let clock = Clock()
    let presenter = ClosurePresenter { _, respond in
      respond([ReviewResponse.remindLater, .declined, .rated, .dismissed, .feedback][dice.next(5)])
    }
    for (index, version) in versions.enumerated() {
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: version, bundledPolicy: policy, appName: "Seeds", store: JSONFileStore(url: url),
          clock: { clock.read() }, texts: .english, presenter: presenter, scoreBounds: -10...10))
      for _ in 0..<(days / versions.count + index) {
        manager.appLaunched()
        manager.sessionStarted()
        for _ in 0..<next(4) {
          manager.significantEvent(["export", "share", nil][next(3)])
          manager.action(score: Double(next(7)) - 2, isBad: next(10) == 0)
        }
        manager.sessionEnded()
        clock.advance(hours: Double(6 + next(40)))
      }
    }
  }

  static func main() throws {
    // make-seeds.sh passes the unpacked corpus folder; there is no default: the committed corpus is an archive.
    guard CommandLine.arguments.count == 2 else {
      FileHandle.standardError.write(Data("usage: store-seeds OUTPUT-DIRECTORY\n".utf8))
      exit(2)
    }
    let output = URL(fileURLWithPath: CommandLine.arguments[1])
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    func save(_ state: ReviewState, _ name: String) throws {
      try JSONFileStore(url: output.appendingPathComponent("\(name).json")).save(state)
    }
    try save(ReviewState(), "fresh")
    try save(fullState, "full")
    try save(extremeState, "extremes")
    var fresh = ReviewState()
    fresh.enter(version: "1.0", at: at(0))
    fresh.countUse()
    try save(fresh, "first-launch")
    try simulate(output.appendingPathComponent("simulated-one-version.json"), seed: 1, days: 30, versions: ["2.0"])
    try simulate(
      output.appendingPathComponent("simulated-three-versions.json"), seed: 2, days: 90,
      versions: ["1.0", "1.1", "2.0 (45)"])
    try simulate(
      output.appendingPathComponent("simulated-long.json"), seed: 3, days: 400,
      versions: ["3.0", "3.0.1", "3.1", "4.0"])
    // A few unusable inputs the loader must reject: truncated, another format, another shape.
    let full = try ReviewStateCoding.encode(fullState)
    try full.prefix(full.count / 2).write(to: output.appendingPathComponent("truncated.json"))
    var future = fullState
    future.format = ReviewState.currentFormat + 1
    try save(future, "future-format")
    try Data("{\"format\":1,\"uses\":\"seven\"}".utf8).write(to: output.appendingPathComponent("wrong-type.json"))
  }
}

extension PromptOutcome {
  static let allOutcomes: [PromptOutcome] = [
    .pending, .unknown, .rated, .declined, .remindLater, .feedback, .dismissed,
  ]
}
