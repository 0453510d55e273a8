import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// A state file deleted, truncated or replaced between two calls of a manager that holds the state
/// in memory: detected, merged with memory, saved, nothing already saved lost, one report per episode.
@Suite("Reliability: state file deleted, truncated or replaced")
struct ReliabilityStoreReplacedTests {
  typealias F = RuntimeFixtures

  /// Random rounds per fault kind.
  static let rounds = 40

  /// A manager over a real `JSONFileStore` in a temporary folder, with its log.
  struct Rig {
    let directory: RuntimeTemporaryDirectory
    let url: URL
    let log = RuntimeLogCollector()
    let clock = RuntimeTestClock()
    let manager: ReviewManager

    init() throws {
      directory = try RuntimeTemporaryDirectory()
      url = directory.file("review-state.json")
      manager = try F.manager(store: JSONFileStore(url: url), clock: clock, logger: log.logger)
    }

    /// The problems logged so far.
    var problems: [ReviewLogEntry] { log.entries(.problem) }

    /// A few calls of every kind: launches, sessions, named events, a prompt answered "no thanks".
    func use(_ generator: inout SeededGenerator, decline: Bool = false) {
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        clock.advance(seconds: 3_600)
        manager.appLaunched()
        manager.sessionStarted()
        _ = manager.significantEvent(["export", "share", "edit"][Int(generator.next() % 3)], mayPrompt: false)
      }
      if decline {
        _ = manager.promptIfAppropriate()
        _ = manager.record(.declined)
      }
    }

    /// What a new store over the same file loads now.
    var stored: ReviewState? {
      guard case .loaded(let state) = JSONFileStore(url: url).load() else { return nil }
      return state
    }

    /// Removes the state file, its journal and anything kept aside.
    func removeFiles() {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? [] {
        try? FileManager.default.removeItem(at: directory.file(name))
      }
    }
  }

  /// Expects nothing in `before` to be missing from `after`: every lifetime count at least as high,
  /// by name too, and the "no thanks" kept.
  static func expectNothingLost(
    _ before: ReviewState, _ after: ReviewState?, _ what: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    guard let after else {
      Issue.record("\(what): nothing stored", sourceLocation: sourceLocation)
      return
    }
    for path in [\ReviewState.totalUses, \.totalEvents, \.totalSessions, \.totalPrompts] {
      #expect(
        after[keyPath: path] >= before[keyPath: path],
        "\(what): \(path) \(after[keyPath: path]) < \(before[keyPath: path])",
        sourceLocation: sourceLocation)
    }
    for (name, count) in before.totalEventsByName {
      #expect((after.totalEventsByName[name] ?? 0) >= count, "\(what): \(name)", sourceLocation: sourceLocation)
    }
    #expect(
      !before.declinedAny || after.declinedAny, "\(what): the \"no thanks\" was lost", sourceLocation: sourceLocation)
    #expect(after.responses.count >= before.responses.count, "\(what): answers lost", sourceLocation: sourceLocation)
  }

  /// Runs `rounds` episodes of `fault` (given the rig, the state saved before and a random source)
  /// and checks each: after the next call nothing saved is lost, in memory and on disk, and the
  /// episode is reported once, however many calls follow and whether the fault repeats.
  static func checkEpisodes(
    _ what: String, seed: UInt64, repeats: Bool = false,
    sourceLocation: Testing.SourceLocation = #_sourceLocation,
    _ fault: (Rig, ReviewState, inout SeededGenerator) throws -> Void
  ) throws {
    var generator = SeededGenerator(seed: seed)
    let rig = try Rig()
    rig.use(&generator, decline: true)
    for round in 0..<rounds {
      rig.use(&generator)
      let before = rig.manager.currentState
      let reported = rig.problems.count
      try fault(rig, before, &generator)
      for call in 0..<3 {
        if call > 0 && repeats { try fault(rig, rig.manager.currentState, &generator) }
        rig.manager.appEnteredForeground()
        expectNothingLost(before, rig.manager.currentState, "\(what) round \(round) call \(call) (memory)")
      }
      expectNothingLost(before, rig.stored, "\(what) round \(round) (stored)", sourceLocation: sourceLocation)
      #expect(rig.manager.currentState.totalUses == before.totalUses + 3, "\(what) round \(round)")
      let new = rig.problems.dropFirst(reported).map(\.summary)
      #expect(new.count == 1, "\(what) round \(round): \(new)", sourceLocation: sourceLocation)
    }
  }

  @Test("a deleted state file (with its journal) is restored from memory, reported once per episode")
  func deleted() throws {
    try Self.checkEpisodes("deleted", seed: 1) { rig, _, _ in rig.removeFiles() }
    try Self.checkEpisodes("deleted before every call", seed: 2, repeats: true) { rig, _, _ in rig.removeFiles() }
  }

  @Test("a state file truncated to a random length is recovered and merged with memory")
  func truncated() throws {
    try Self.checkEpisodes("truncated", seed: 3) { rig, before, generator in
      // The whole state in the file (no journal), then cut.
      rig.removeFiles()
      let bytes = ReviewStateJSON.encode(before)
      let length = Int(generator.next() % UInt64(bytes.count))
      try Data(bytes.prefix(length)).write(to: rig.url)
    }
  }

  @Test("a state file replaced by random bytes is recovered and merged with memory")
  func randomBytes() throws {
    try Self.checkEpisodes("random bytes", seed: 4) { rig, _, generator in
      let count = Int(generator.next() % 2_000)
      try Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }).write(to: rig.url)
    }
  }

  @Test("a state file replaced by an older copy of itself (a restored backup) is merged with memory")
  func olderCopy() throws {
    var copies: [ReviewState] = []
    try Self.checkEpisodes("older copy", seed: 5) { rig, before, generator in
      copies.append(before)
      // Any copy saved before the last call: the last one is `before` itself, so go back at least one.
      var older = copies[Int(generator.next() % UInt64(copies.count))]
      older.totalUses = min(older.totalUses, before.totalUses - 1)
      rig.removeFiles()
      try Data(ReviewStateJSON.encode(older)).write(to: rig.url, options: .atomic)
    }
  }

  @Test("a reset made elsewhere (a higher epoch) wins; a copy from before a reset (a lower epoch) loses")
  func epochs() throws {
    var generator = SeededGenerator(seed: 6)
    let rig = try Rig()
    rig.use(&generator, decline: true)
    let beforeReset = rig.manager.currentState
    #expect(beforeReset.epoch == 0 && beforeReset.declinedAny)

    // Another manager resets the state: this one takes the reset, with no problem reported.
    let other = try F.manager(store: JSONFileStore(url: rig.url), clock: rig.clock)
    other.reset()
    rig.manager.appLaunched()
    #expect(rig.manager.currentState.epoch == 1)
    #expect(rig.manager.currentState.totalUses == 1 && !rig.manager.currentState.declinedAny)
    #expect(rig.problems.isEmpty, "\(rig.problems.map(\.summary))")

    // A backup from before the reset comes back: stale, memory wins, reported once.
    rig.use(&generator)
    let afterReset = rig.manager.currentState
    rig.removeFiles()
    try Data(ReviewStateJSON.encode(beforeReset)).write(to: rig.url, options: .atomic)
    rig.manager.appLaunched()
    rig.manager.appLaunched()
    #expect(rig.manager.currentState.epoch == 1)
    #expect(rig.manager.currentState.totalUses == afterReset.totalUses + 2)
    #expect(!rig.manager.currentState.declinedAny, "the state from before the reset came back")
    #expect(rig.stored == rig.manager.currentState)
    #expect(rig.problems.count == 1, "\(rig.problems.map(\.summary))")
    #expect(rig.problems.first?.summary.hasPrefix("the stored review state was replaced by an older copy") == true)
  }

  @Test("the other stores: a cleared in-memory store and a removed defaults key are restored from memory, once")
  func otherStores() throws {
    let suite = "ReviewPolicyStoreReplacedTests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer { defaults.removePersistentDomain(forName: suite) }
    let memory = InMemoryReviewStore()
    let userDefaults = UserDefaultsStore(defaults: defaults, keyPrefix: "R.")
    let stores: [(any ReviewStore, () -> Void)] = [
      (memory, { memory.clear() }), (userDefaults, { defaults.removeObject(forKey: userDefaults.stateKey) }),
    ]
    for (store, delete) in stores {
      let log = RuntimeLogCollector()
      let manager = try F.manager(store: store, logger: log.logger)
      for _ in 0..<4 { manager.appLaunched() }
      manager.recordWithoutPrompt(.declined)
      for _ in 0..<3 {
        delete()
        manager.appLaunched()
      }
      manager.appLaunched()
      guard case .loaded(let stored) = store.load() else {
        Issue.record("\(store): nothing stored")
        continue
      }
      #expect(stored.totalUses == 8 && stored.declinedAny && stored == manager.currentState, "\(store)")
      #expect(
        log.entries(.problem).map(\.summary) == [
          "the stored review state was deleted since the last call; restored from memory (4 lifetime counts)"
        ], "\(store)")
    }
  }

  @Test("the epoch is written only once a state was reset, and read as 0 when absent, by both decoders")
  func epochCoding() throws {
    var state = RuntimeStoreTests.fullState
    #expect(!String(decoding: ReviewStateJSON.encode(state), as: UTF8.self).contains("epoch"))
    state.reset()
    state.reset()
    #expect(state.epoch == 2)
    let bytes = ReviewStateJSON.encode(state)
    #expect(String(decoding: bytes, as: UTF8.self).contains("\"epoch\":2"))
    #expect(bytes.withUnsafeBufferPointer { ReviewStateJSON.decode($0) } == state)
    #expect(try JSONDecoder().decode(ReviewState.self, from: Data(bytes)) == state)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    #expect(try encoder.encode(state) == Data(bytes))
    #expect(
      try encoder.encode(RuntimeStoreTests.fullState) == Data(ReviewStateJSON.encode(RuntimeStoreTests.fullState)))
    // A patch carries the epoch both ways.
    let patch = ReviewStateJSON.patch(from: RuntimeStoreTests.fullState, to: state).dropLast()
    #expect(
      Array(patch).withUnsafeBufferPointer { ReviewStateJSON.applying(patch: $0, to: RuntimeStoreTests.fullState) }
        == state)
    let back = ReviewStateJSON.patch(from: state, to: RuntimeStoreTests.fullState).dropLast()
    #expect(
      Array(back).withUnsafeBufferPointer { ReviewStateJSON.applying(patch: $0, to: state) }
        == RuntimeStoreTests.fullState)
  }
}
