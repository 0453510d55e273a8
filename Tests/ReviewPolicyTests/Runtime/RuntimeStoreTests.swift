import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The stores: JSON file, UserDefaults, memory; round trips and recovery from unusable data.
@Suite("runtime: stores")
struct RuntimeStoreTests {
  typealias F = RuntimeFixtures

  /// A state that uses every field.
  static var fullState: ReviewState {
    var state = ReviewState()
    state.version = "1.2.3-beta"
    state.firstUse = F.at(1)
    state.uses = 7
    state.events = 4
    state.eventsByName = ["export": 3, "ünïcödé ✓": 1]
    state.sessions = 3
    state.prompts = 1
    state.declined = true
    state.rated = true
    state.feedback = true
    state.feedbackAny = true
    state.lastReminder = F.at(2)
    state.installDate = F.at(-5)
    state.installSeed = -1_234_567_890_123_456_789
    state.previousVersion = "1.0"
    state.totalUses = 70
    state.totalEvents = 40
    state.totalEventsByName = ["export": 30, "quote \"and\" \\ slash": 2]
    state.totalSessions = 30
    state.totalPrompts = 5
    state.declinedAny = true
    state.ratedAny = true
    state.lastDecline = F.at(3)
    state.lastRating = F.at(4)
    state.currentSession = SessionRecord(
      number: 30, start: F.at(5), version: "1.2.3-beta", score: F.number("-12.345678"), isBad: true)
    state.recentSessions = [
      SessionRecord(number: 29, start: F.at(0), version: "1.2.3-beta", score: F.number("0.000001"))
    ]
    state.lastBadSession = SessionRecord(number: 20, start: F.at(-3), version: "1.0", isBad: true)
    state.promptHistory = [PromptRecord(date: F.at(-2), version: "1.0", session: 20, outcome: .remindLater)]
    state.responses = [ResponseRecord(response: .remindLater, date: F.at(-1), version: "1.0")]
    state.policySource = "ask when uses >= 3 # ✓"
    state.importedLegacy = ["appirater"]
    return state
  }

  // MARK: - JSON file

  @Test("JSONFileStore: a missing file is empty; a saved state loads back equal")
  func jsonRoundTrip() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let store = JSONFileStore(url: directory.file("review-state.json"))
    guard case .empty = store.load() else {
      Issue.record("a missing file should load as empty")
      return
    }
    try store.save(Self.fullState)
    guard case .loaded(let loaded) = store.load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect(loaded == Self.fullState)
    // Sorted keys: equal states give equal bytes.
    let bytes = try Data(contentsOf: store.url)
    #expect(bytes == (try ReviewStateCoding.encode(Self.fullState)))
    try JSONFileStore(url: store.url, flushesToDisk: true).save(ReviewState())
    guard case .loaded(let fresh) = store.load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect(fresh == ReviewState())
  }

  @Test("JSONFileStore: many saves leave exactly one file and no temporary files")
  func noTemporaryFilesLeft() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let store = JSONFileStore(url: directory.file("review-state.json"))
    let manager = try F.manager(store: store)
    for index in 0..<50 {
      manager.significantEvent("e\(index % 3)")
    }
    #expect(try directory.contents() == ["review-state.json"])
    guard case .loaded(let loaded) = store.load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect(loaded == manager.currentState)
    #expect(loaded.events == 50)
  }

  @Test("JSONFileStore: saving into a directory that does not exist creates it")
  func createsDirectory() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.url.appendingPathComponent("a/b/c/state.json")
    let store = JSONFileStore(url: url)
    #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    try store.save(Self.fullState)
    guard case .loaded(let loaded) = store.load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect(loaded == Self.fullState)
  }

  @Test("JSONFileStore: saving where a directory cannot be created throws and the manager logs a problem")
  func saveFailure() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    // A regular file where the directory should be.
    try Data("x".utf8).write(to: directory.file("blocker"))
    let store = JSONFileStore(url: directory.url.appendingPathComponent("blocker/state.json"))
    #expect(throws: StoreSaveError.self) { try store.save(ReviewState()) }
    let log = RuntimeLogCollector()
    let manager = try F.manager(store: store, logger: log.logger)
    manager.appLaunched()
    manager.appLaunched()
    #expect(manager.currentState.uses == 2)
    // One report per fault episode, not one per failing call.
    #expect(log.entries(.problem).count == 1)
    #expect(log.entries(.problem).first?.summary.hasPrefix("cannot save the review state: cannot create `") == true)
  }

  @Test("a prompt check that asks nothing writes nothing; a change, a prompt or an earlier failed save writes")
  func savesOnlyChanges() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let manager = try F.manager(policy: "ask later when uses >= 3", store: store, clock: clock)
    manager.appLaunched()
    #expect(store.saveCount == 1)
    // Nothing changes: the disk already holds this state.
    #expect(manager.promptIfAppropriate() == false)
    clock.advance(days: 1)
    #expect(manager.promptIfAppropriate() == false)
    #expect(store.saveCount == 1)
    #expect(store.storedState == manager.currentState)
    manager.appLaunched()
    manager.appLaunched()
    #expect(store.saveCount == 3)
    // Asking records a pending prompt: saved before the prompt is shown.
    #expect(manager.promptIfAppropriate())
    #expect(store.saveCount == 4)
    #expect(store.storedState?.promptHistory.count == 1)
    #expect(store.storedState == manager.currentState)
  }

  @Test(
    "a state not loaded from the store (fresh or imported) is written by the first call, even one that changes nothing")
  func firstCallSavesFreshState() throws {
    let seeded = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let first = try F.manager(policy: "ask later when uses >= 3", store: seeded, clock: clock)
    first.appLaunched()
    #expect(seeded.saveCount == 1)
    // Loaded from the store: an unchanged prompt check writes nothing.
    let again = try F.manager(policy: "ask later when uses >= 3", store: seeded, clock: clock)
    #expect(again.promptIfAppropriate() == false)
    #expect(seeded.saveCount == 1)
    // A fresh state that the first call leaves as it is still reaches the store.
    let empty = InMemoryReviewStore()
    let fresh = try F.manager(policy: "ask later when uses >= 3", store: empty, clock: clock)
    #expect(fresh.promptIfAppropriate() == false)
    #expect(empty.saveCount == 1)
    #expect(empty.storedState == fresh.currentState)
  }

  @Test("after a failed save, the next call retries even when it changes nothing")
  func retriesFailedSave() throws {
    final class FlakyStore: ReviewStore, @unchecked Sendable {
      // @unchecked: touched by one test thread only.
      var failuresLeft = 1
      var saved: ReviewState?
      func load() -> StoreLoadResult { saved.map { .loaded($0) } ?? .empty }
      func save(_ state: ReviewState) throws(StoreSaveError) {
        if failuresLeft > 0 {
          failuresLeft -= 1
          throw StoreSaveError(detail: "disk full")
        }
        saved = state
      }
    }
    let store = FlakyStore()
    store.saved = ReviewState()
    let manager = try F.manager(policy: "ask later when uses >= 3", store: store)
    manager.appLaunched()  // fails
    #expect(store.saved?.uses == 0)
    #expect(manager.promptIfAppropriate() == false)  // changes nothing, but retries
    #expect(store.saved?.uses == 1)
    #expect(store.saved == manager.currentState)
  }

  /// Bytes that no store can use, with the kind of problem they are.
  static var unusableInputs: [(name: String, bytes: [UInt8], kind: StoreProblem.Kind)] {
    let valid = (try? ReviewStateCoding.encode(fullState)) ?? Data()
    var random: [UInt8] = []
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<512 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      random.append(UInt8(truncatingIfNeeded: seed >> 33))
    }
    var future = fullState
    future.format = ReviewState.currentFormat + 1
    let futureBytes = (try? ReviewStateCoding.encode(future)) ?? Data()
    let wrongType = String(decoding: valid, as: UTF8.self).replacingOccurrences(
      of: "\"uses\":7", with: "\"uses\":\"seven\"")
    return [
      ("an empty file", [], .corrupt),
      ("truncated JSON", Array(valid.prefix(valid.count / 2)), .corrupt),
      ("random bytes", random, .corrupt),
      ("a JSON array", Array("[1,2,3]".utf8), .corrupt),
      ("a JSON object of another shape", Array("{\"hello\":\"world\"}".utf8), .corrupt),
      ("null", Array("null".utf8), .corrupt),
      ("a field of the wrong type", Array(wrongType.utf8), .corrupt),
      (
        "a timestamp as text",
        Array(
          String(decoding: valid, as: UTF8.self).replacingOccurrences(
            of: "\"firstUse\":", with: "\"firstUse\":\"x\",\"_\":"
          ).utf8), .corrupt
      ),
      ("a newer format", Array(futureBytes), .futureFormat),
      ("a newer format of another shape", Array("{\"format\":99}".utf8), .futureFormat),
    ]
  }

  @Test(
    "JSONFileStore: unusable data loads as recovered with a fresh state, the bytes kept aside",
    arguments: RuntimeStoreTests.unusableInputs)
  func jsonRecovery(name: String, bytes: [UInt8], kind: StoreProblem.Kind) throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    try Data(bytes).write(to: url)
    guard case .recovered(let fresh, let problem) = JSONFileStore(url: url).load() else {
      Issue.record("\(name): expected a recovered state")
      return
    }
    let recovered = SalvageExpectation.state(bytes, kind)
    #expect(fresh == recovered ?? ReviewState())
    #expect(problem.kind == kind, "\(name): \(problem)")
    let keptAt = try #require(problem.keptAt, "\(name)")
    #expect(F.bytes(at: keptAt) == Data(bytes), "\(name)")
    let keptName = URL(fileURLWithPath: keptAt).lastPathComponent
    #expect(
      keptName.hasPrefix("review-state.json." + (kind == .futureFormat ? "unsupported-" : "corrupt-")), "\(keptName)")
    #expect(
      URL(fileURLWithPath: keptAt).deletingLastPathComponent().standardizedFileURL.path
        == directory.url.standardizedFileURL.path)
    #expect(problem.description.hasSuffix("; kept at `\(keptAt)`"))
    if let recovered {
      // What was recovered is stored in the file's place, and the next load reads it.
      #expect(problem.detail.contains("; recovered "), "\(problem.detail)")
      guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
        Issue.record("\(name): the recovered state should have been stored")
        return
      }
      #expect(loaded == recovered, "\(name)")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: url.path))
    // Nothing stored any more: the next load is a fresh install.
    guard case .empty = JSONFileStore(url: url).load() else {
      Issue.record("\(name): the unusable file should have been moved")
      return
    }
  }

  @Test(
    "a manager over an unusable file starts fresh, logs a problem and keeps working",
    arguments: RuntimeStoreTests.unusableInputs)
  func managerOverUnusableFile(name: String, bytes: [UInt8], kind: StoreProblem.Kind) throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    try Data(bytes).write(to: url)
    let log = RuntimeLogCollector()
    let presenter = RuntimeRecordingPresenter(answer: .declined)
    let manager = try F.manager(store: JSONFileStore(url: url), presenter: presenter, logger: log.logger)
    let problems = log.entries(.problem)
    #expect(problems.count == 1, "\(name)")
    let expectedStart =
      kind == .futureFormat ? "review state written by a newer version of the library: " : "corrupt review state: "
    #expect(problems.first?.summary.hasPrefix(expectedStart) == true, "\(problems.first?.summary ?? "")")
    #expect(problems.first?.summary.contains("; kept at `") == true)
    let recovered = SalvageExpectation.state(bytes, kind)
    #expect(manager.currentState == recovered ?? ReviewState())
    manager.appLaunched()
    if let recovered {
      manager.significantEvent("export", mayPrompt: false)
      SalvageExpectation.expectWentOn(from: recovered, to: manager.currentState, name)
    } else {
      #expect(manager.promptIfAppropriate())
      let state = manager.currentState
      #expect((state.uses, state.totalPrompts, state.declined) == (1, 1, true))
    }
    let state = manager.currentState
    guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
      Issue.record("\(name): the manager should have saved a new state")
      return
    }
    #expect(loaded == state)
    let names = try directory.contents()
    #expect(names.count == 2, "\(names)")
    #expect(names.filter { $0.contains("corrupt") || $0.contains("unsupported") }.count == 1, "\(names)")
  }

  @Test("JSONFileStore: a file larger than ReviewStateCoding.maximumSize is kept aside, cut to the read limit")
  func oversizedFile() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let bytes = Data(repeating: 0x20, count: ReviewStateCoding.maximumSize + 1)
    try bytes.write(to: url)
    guard case .recovered(let fresh, let problem) = JSONFileStore(url: url).load() else {
      Issue.record("expected a recovered state")
      return
    }
    #expect(fresh == ReviewState())
    #expect(problem.kind == .corrupt)
    #expect(problem.keptAt.map { F.bytes(at: $0) == bytes.prefix(ReviewStateCoding.maximumSize) } == true)
  }

  @Test("two corrupt files recovered in the same millisecond are both kept")
  func twoRecoveries() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("s.json")
    var kept: Set<String> = []
    for index in 0..<3 {
      try Data("garbage \(index)".utf8).write(to: url)
      guard case .recovered(_, let problem) = JSONFileStore(url: url).load(), let path = problem.keptAt else {
        Issue.record("expected a recovered state")
        return
      }
      #expect(F.bytes(at: path) == Data("garbage \(index)".utf8))
      kept.insert(path)
    }
    #expect(kept.count == 3)
  }

  // MARK: - UserDefaults

  /// A fresh, uniquely named defaults suite, removed after `body`.
  static func withDefaults(_ body: (UserDefaults, String) throws -> Void) throws {
    let suite = "ReviewPolicyRuntimeTests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer {
      defaults.removePersistentDomain(forName: suite)
    }
    try body(defaults, suite)
  }

  @Test("UserDefaultsStore: empty, round trip, one JSON value under <prefix>state")
  func defaultsRoundTrip() throws {
    try Self.withDefaults { defaults, _ in
      let store = UserDefaultsStore(defaults: defaults, keyPrefix: "MyApp.review.")
      #expect(store.stateKey == "MyApp.review.state")
      guard case .empty = store.load() else {
        Issue.record("expected empty")
        return
      }
      try store.save(Self.fullState)
      #expect(defaults.data(forKey: "MyApp.review.state") == (try ReviewStateCoding.encode(Self.fullState)))
      guard case .loaded(let loaded) = store.load() else {
        Issue.record("expected a loaded state")
        return
      }
      #expect(loaded == Self.fullState)
      // Another prefix is another store.
      guard case .empty = UserDefaultsStore(defaults: defaults, keyPrefix: "Other.").load() else {
        Issue.record("another prefix should be empty")
        return
      }
      #expect(UserDefaultsStore(defaults: defaults).stateKey == "ReviewPolicy.state")
    }
  }

  @Test("UserDefaultsStore: a manager persists through it across launches")
  func defaultsManager() throws {
    try Self.withDefaults { defaults, _ in
      let first = try F.manager(store: UserDefaultsStore(defaults: defaults, keyPrefix: "p."))
      first.appLaunched()
      first.significantEvent("x", mayPrompt: false)
      let second = try F.manager(store: UserDefaultsStore(defaults: defaults, keyPrefix: "p."))
      second.appLaunched()
      #expect((second.currentState.uses, second.currentState.eventsByName) == (2, ["x": 1]))
    }
  }

  static let unusableDefaults: [(name: String, value: String, kind: StoreProblem.Kind)] = [
    ("garbage data", "data:garbage", .corrupt),
    ("empty data", "data:", .corrupt),
    ("a string instead of data", "string:hello", .corrupt),
    ("a number instead of data", "int:42", .corrupt),
    ("a newer format", "data:{\"format\":2}", .futureFormat),
  ]

  @Test(
    "UserDefaultsStore: an unusable value is kept aside under another key",
    arguments: RuntimeStoreTests.unusableDefaults)
  func defaultsRecovery(name: String, value: String, kind: StoreProblem.Kind) throws {
    try Self.withDefaults { defaults, _ in
      let store = UserDefaultsStore(defaults: defaults, keyPrefix: "App.")
      if value.hasPrefix("data:") {
        defaults.set(Data(value.dropFirst(5).utf8), forKey: "App.state")
      } else if value.hasPrefix("string:") {
        defaults.set(String(value.dropFirst(7)), forKey: "App.state")
      } else {
        defaults.set(Int(value.dropFirst(4)) ?? 0, forKey: "App.state")
      }
      guard case .recovered(let fresh, let problem) = store.load() else {
        Issue.record("\(name): expected recovered")
        return
      }
      #expect(fresh == ReviewState())
      #expect(problem.kind == kind)
      let key = try #require(problem.keptAt)
      #expect(key.hasPrefix("App.state." + (kind == .futureFormat ? "unsupported-" : "corrupt-")), "\(key)")
      if value.hasPrefix("data:") {
        #expect(defaults.data(forKey: key) == Data(value.dropFirst(5).utf8))
      } else if value.hasPrefix("string:") {
        #expect(defaults.string(forKey: key) == "hello")
      } else {
        #expect(defaults.integer(forKey: key) == 42)
      }
      #expect(defaults.object(forKey: "App.state") == nil)
      guard case .empty = store.load() else {
        Issue.record("\(name): expected empty after recovery")
        return
      }
      // A manager over it works and saves a valid state.
      if value.hasPrefix("data:") {
        defaults.set(Data(value.dropFirst(5).utf8), forKey: "App.state")
      }
      let log = RuntimeLogCollector()
      let manager = try F.manager(store: store, logger: log.logger)
      manager.appLaunched()
      #expect(log.entries(.problem).count == (value.hasPrefix("data:") ? 1 : 0))
      guard case .loaded(let loaded) = store.load() else {
        Issue.record("\(name): expected a loaded state")
        return
      }
      #expect(loaded.uses == 1)
    }
  }

  @Test("UserDefaultsStore: unusable values recovered in quick succession are each kept, the newest two remain")
  func defaultsRepeatedRecovery() throws {
    try Self.withDefaults { defaults, _ in
      let store = UserDefaultsStore(defaults: defaults, keyPrefix: "R.")
      var kept: [String: Data] = [:]
      for index in 0..<5 {
        defaults.set(Data("garbage \(index)".utf8), forKey: store.stateKey)
        guard case .recovered(_, let problem) = store.load(), let key = problem.keptAt else {
          Issue.record("expected recovered")
          return
        }
        kept[key] = Data("garbage \(index)".utf8)
      }
      #expect(kept.count == 5)
      let remaining = kept.keys.filter { defaults.data(forKey: $0) != nil }
      #expect(remaining.count == JSONFileStore.keptAsideCopies, "\(remaining)")
      for key in remaining { #expect(defaults.data(forKey: key) == kept[key], "\(key)") }
      #expect(Set(remaining.compactMap { kept[$0] }) == [Data("garbage 3".utf8), Data("garbage 4".utf8)])
    }
  }

  // MARK: - Memory

  @Test("InMemoryReviewStore: empty, seeded, saves counted")
  func inMemory() throws {
    let empty = InMemoryReviewStore()
    guard case .empty = empty.load() else {
      Issue.record("expected empty")
      return
    }
    #expect(empty.storedState == nil)
    #expect(empty.saveCount == 0)
    try empty.save(Self.fullState)
    #expect(empty.storedState == Self.fullState)
    #expect(empty.saveCount == 1)
    guard case .loaded(let loaded) = empty.load() else {
      Issue.record("expected loaded")
      return
    }
    #expect(loaded == Self.fullState)

    let store = InMemoryReviewStore(Self.fullState)
    let manager = try F.manager(appVersion: "1.2.3-beta", store: store)
    #expect(manager.currentState == Self.fullState)
    #expect(store.saveCount == 0)
    manager.appLaunched()
    manager.significantEvent(mayPrompt: false)
    manager.sessionStarted()
    #expect(store.saveCount == 3)
    #expect(store.storedState == manager.currentState)
    #expect(store.storedState?.uses == 8)
  }
}
