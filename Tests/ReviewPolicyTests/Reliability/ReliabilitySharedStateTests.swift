import Foundation
import PolicyCore
import ReviewMigration
import Testing

@testable import ReviewPolicy

/// Several writers on one state (issue 11): managers in one process, an app and its extension
/// taking turns, and processes at once. Every call is a transaction on the store, so no count is lost.
@Suite("reliability: shared state")
struct ReliabilitySharedStateTests {
  typealias F = RuntimeFixtures

  static func manager(_ url: URL, clock: RuntimeTestClock = RuntimeTestClock()) throws -> ReviewManager {
    try F.manager(policy: "ask when uses >= 1000000", store: JSONFileStore(url: url), clock: clock)
  }

  static func stored(_ url: URL) throws -> ReviewState {
    guard case .loaded(let state) = JSONFileStore(url: url).load() else {
      Issue.record("the state file does not load")
      return ReviewState()
    }
    return state
  }

  @Test("two managers on one JSON file in one process, 2 threads x 50 events each at once: 200 on disk and in each")
  func twoManagersOneProcess() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let managers = [try Self.manager(url), try Self.manager(url)]
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      for _ in 0..<50 { managers[index % 2].significantEvent("e\(index % 2)", mayPrompt: false) }
    }
    let state = try Self.stored(url)
    #expect((state.events, state.totalEvents) == (200, 200))
    #expect(state.eventsByName == ["e0": 100, "e1": 100])
    // Each manager saw the other's events at its last call; the next call brings it up to date.
    managers[0].appLaunched()
    managers[1].appLaunched()
    #expect(managers[1].currentState.totalEvents == 200)
    #expect(try Self.stored(url).totalUses == 2)
  }

  @Test("a long-lived app records, then its extension, then the app again: every event counted")
  func appExtensionApp() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    let app = try Self.manager(url, clock: clock)
    app.appLaunched()
    for _ in 0..<5 { app.significantEvent(mayPrompt: false) }
    let widget = try Self.manager(url, clock: clock)
    for _ in 0..<10 { widget.significantEvent(mayPrompt: false) }
    app.significantEvent(mayPrompt: false)
    let state = try Self.stored(url)
    #expect((state.events, state.totalEvents, state.uses) == (16, 16, 1))
    #expect(app.currentState == state)
  }

  @Test("two UserDefaultsStore managers over one suite in one process: exact within the process")
  func userDefaultsOneProcess() throws {
    let suite = "ReviewPolicySharedTests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer { defaults.removePersistentDomain(forName: suite) }
    let managers = try (0..<2).map { _ in
      try F.manager(policy: "ask when uses >= 1000000", store: UserDefaultsStore(defaults: defaults, keyPrefix: "S."))
    }
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      for _ in 0..<20 { managers[index].significantEvent(mayPrompt: false) }
    }
    guard case .loaded(let state) = UserDefaultsStore(defaults: defaults, keyPrefix: "S.").load() else {
      Issue.record("nothing stored")
      return
    }
    #expect(state.totalEvents == 40)
  }

  @Test("a policy update stored by one manager runs in the other at its next call")
  func policyUpdateShared() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let first = try Self.manager(url)
    let second = try Self.manager(url)
    #expect(first.updatePolicy("ask when events >= 2").isAccepted)
    #expect(second.significantEvent() == false)
    #expect(second.policyOrigin == .update)
    #expect(second.significantEvent())
  }

  @Test("the store reads again what another writer saved, and only then")
  func cacheFollowsOtherWriters() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let store = JSONFileStore(url: url)
    var seen: [Int] = []
    try store.update { _ in
      var state = ReviewState(); state.uses = 1; return state
    }
    try store.update { loaded in
      if case .loaded(let state) = loaded { seen.append(state.uses) }
      return nil
    }
    // Another store (another process) saves; this one must see it.
    var other = ReviewState()
    other.uses = 7
    try JSONFileStore(url: url).save(other)
    try store.update { loaded in
      if case .loaded(let state) = loaded { seen.append(state.uses) }
      return nil
    }
    // A writer that ignores the lock and replaces the file by itself is seen too.
    other.uses = 9
    try ReviewStateCoding.encode(other).write(to: url, options: .atomic)
    try store.update { loaded in
      if case .loaded(let state) = loaded { seen.append(state.uses) }
      return nil
    }
    #expect(seen == [1, 7, 9])
    #expect(try directory.storeFiles() == [".review-state.json.lock"])
  }

  @Test(
    "the journal: a line cut short by a kill is ignored and dropped by the next save; a state file moved aside by a killed save is taken back"
  )
  func journalAfterKills() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let store = JSONFileStore(url: url)
    func set(_ uses: Int) throws {
      try store.update { loaded in
        guard case .loaded(var state) = loaded else { var fresh = ReviewState(); fresh.uses = uses; return fresh }
        state.uses = uses
        return state
      }
    }
    try set(1)  // the whole file
    try set(2)  // a journal line
    try set(3)
    let journal = store.journalURL
    #expect(FileManager.default.fileExists(atPath: journal.path))
    let handle = try FileHandle(forWritingTo: journal)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("{\"uses\":9".utf8))
    try handle.close()
    guard case .loaded(let torn) = JSONFileStore(url: url).load() else {
      Issue.record("a journal with a line cut short should load")
      return
    }
    #expect(torn.uses == 3)
    try JSONFileStore(url: url).update { loaded in
      guard case .loaded(var state) = loaded else { return nil }
      state.events = 1
      return state
    }
    let text = try String(contentsOf: journal, encoding: .utf8)
    #expect(!text.contains("\"uses\":9"), "\(text)")
    guard case .loaded(let after) = JSONFileStore(url: url).load() else {
      Issue.record("expected a loaded state")
      return
    }
    #expect((after.uses, after.events) == (3, 1))
    // A whole-file save killed after moving the old file aside and before renaming the new one in.
    try JSONFileStore(url: url).compact()
    let previous = directory.file(".review-state.json.previous")
    try FileManager.default.moveItem(at: url, to: previous)
    guard case .loaded(let restored) = JSONFileStore(url: url).load() else {
      Issue.record("the state moved aside should be taken back")
      return
    }
    #expect((restored.uses, restored.events) == (3, 1))
    #expect(try directory.contents() == ["review-state.json"])
  }

  @Test("reset forgets the tracked state, in the store too, and keeps the policy update and the imports")
  func reset() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: "ask when uses >= 3", store: store, clock: clock,
      legacySources: [.appirater(DictionarySource(["kAppiraterUseCount": 40, "kAppiraterDeclinedToRate": true]))])
    manager.appLaunched()
    #expect(manager.updatePolicy("ask when uses >= 2").isAccepted)
    manager.recordWithoutPrompt(.declined)
    manager.reset()
    var expected = ReviewState()
    expected.policySource = "ask when uses >= 2"
    expected.policyReceivedUnder = PolicyIdentity.fingerprint(of: "ask when uses >= 3")
    expected.importedLegacy = ["appirater"]
    expected.epoch = 1  // a reset starts a new epoch, so a copy from before it never comes back
    #expect(store.storedState == expected)
    #expect(manager.currentState == expected)
    // Counting starts again, and the legacy keys are not imported again.
    manager.appLaunched()
    #expect((store.storedState?.uses, store.storedState?.declinedAny) == (1, false))
  }

  @Test("the app version can change without a new manager; a new build starts a version only when configured")
  func versionsWithoutNewManager() throws {
    let store = InMemoryReviewStore()
    let manager = try F.manager(policy: "ask when uses >= 1000", appVersion: "3.0", store: store, build: "100")
    manager.appLaunched()
    manager.appLaunched()
    manager.setAppVersion("3.0", build: "101")
    manager.appLaunched()
    #expect((store.storedState?.uses, store.storedState?.build) == (3, "101"))
    manager.setAppVersion("3.1", build: "102")
    manager.appLaunched()
    #expect(
      (store.storedState?.version, store.storedState?.previousVersion, store.storedState?.uses) == ("3.1", "3.0", 1))
    #expect(manager.appVersion == "3.1")
    let byBuild = try F.manager(
      policy: "ask when uses >= 1000", appVersion: "3.1", store: store, build: "103", newVersionOn: .build)
    byBuild.appLaunched()
    #expect((store.storedState?.version, store.storedState?.build, store.storedState?.uses) == ("3.1", "103", 1))
  }

  @Test(
    "4 processes x 100 calls on one state file: exact totals; then 5 rounds of killed writers lose nothing",
    .enabled(if: ReliabilityKillTests.executable != nil, "needs the review-stress executable"))
  func processes() throws {
    let (status, output) = try ReliabilityKillTests.run([
      "shared", "--processes", "4", "--events", "100", "--kills", "5", "--seed", "7",
    ])
    print(output, terminator: "")
    #expect(status == 0, "\(output)")
    #expect(output.contains("events 400 (expected 400), uses 40 (expected 40), per process [100, 100, 100, 100]"))
    #expect(output.contains("shared: every total exact"))
  }
}
