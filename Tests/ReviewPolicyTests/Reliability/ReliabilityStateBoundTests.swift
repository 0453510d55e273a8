import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// A state no payload can wipe (issue 23): the largest state the manager can write stays below the
/// store's read limit; an update over the update limit, a state file over the read limit and
/// journal lines that cannot be read are reported and what they hold is recovered; copies kept
/// aside are capped; `reset()` leaves nothing earlier on disk.
@Suite("reliability: bounded state")
struct ReliabilityStateBoundTests {
  typealias F = RuntimeFixtures

  /// The guardrail the wipe-then-ask attack bypassed.
  static let guardrail = "never answered when declined_any or rated_any"

  /// A manager at version 1.0 over `url` with the guardrail, asking whenever its policy lets it.
  static func manager(
    _ url: URL, clock: RuntimeTestClock, log: RuntimeLogCollector? = nil,
    presenter: RuntimeRecordingPresenter = RuntimeRecordingPresenter(answer: .declined)
  ) throws -> ReviewManager {
    try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: "ask when uses >= 1", store: JSONFileStore(url: url),
        clock: clock.function, texts: .english, presenter: presenter, logger: log?.logger,
        guardrails: guardrail))
  }

  /// A text of `count` bytes of the characters JSON escapes worst: control characters (6 bytes
  /// each), quotes and backslashes (2 each) and newlines.
  static func worstEscaping(_ count: Int) -> String {
    let pattern: [UInt8] = [0x01, 0x1F, UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x7F, 0x02]
    return String(
      decoding: (0..<count).map { pattern[$0 % pattern.count] & ($0 % 5 == 4 ? 0x1F : 0xFF) }, as: UTF8.self)
  }

  /// The largest update: `ask when days >= 0` and a comment of control characters, quotes and
  /// newlines (each newline starting the next comment line), exactly ``ReviewLimits/updateSize`` bytes.
  static let largestUpdate: String = {
    let head = "ask when days >= 0\n#"
    var body = ""
    let pattern = "\u{1}\u{2}\u{1F}\"\\\u{1}\n#"
    while head.utf8.count + body.utf8.count + pattern.utf8.count <= ReviewLimits.updateSize { body += pattern }
    body += String(repeating: "\u{1}", count: ReviewLimits.updateSize - head.utf8.count - body.utf8.count)
    return head + body
  }()

  /// The largest state sanitizing keeps: every history full, every text at its longest in the
  /// characters JSON escapes worst, the most event names at their longest with the largest counts,
  /// the largest update, every instant and number at its longest.
  static let maximalState: ReviewState = {
    let instant = Timestamp(millisecondsSince1970: .min)
    let version = worstEscaping(ReviewLimits.versionLength)
    let score = Number(scaled: .min)
    var state = ReviewState()
    state.version = version
    state.build = version
    state.previousVersion = version
    state.firstUse = instant
    state.installDate = instant
    state.firstSession = instant
    state.lastReminder = instant
    state.lastDecline = instant
    state.lastRating = instant
    state.clockHighWater = instant
    state.installSeed = .min
    for count in StoredFacts.counts { state[keyPath: count.path] = .max }
    for flag in StoredFacts.flags { state[keyPath: flag.path] = true }
    state.epoch = .max
    var names: [String: Int] = [:]
    for index in 0..<ReviewLimits.eventNames {
      let suffix = "\(index)"
      names[worstEscaping(ReviewLimits.eventNameLength - suffix.utf8.count) + suffix] = .max
    }
    state.eventsByName = names
    state.totalEventsByName = names
    let session = SessionRecord(number: .max, start: instant, version: version, score: score, isBad: true)
    state.currentSession = session
    state.lastBadSession = session
    state.recentSessions = Array(repeating: session, count: ReviewLimits.sessionHistory)
    state.promptHistory = Array(
      repeating: PromptRecord(date: instant, version: version, session: .max, outcome: .remindLater),
      count: ReviewLimits.promptHistory)
    state.responses = Array(
      repeating: ResponseRecord(response: .remindLater, date: instant, version: version),
      count: ReviewLimits.responseHistory)
    state.policySource = worstEscaping(ReviewLimits.updateSize)
    state.policyReceivedUnder = version
    state.importedLegacy = (0..<ReviewLimits.legacyImports).map {
      let suffix = "\($0)"
      return worstEscaping(ReviewLimits.legacyNameLength - suffix.utf8.count) + suffix
    }
    return state
  }()

  @Test("the largest state the manager can write is far below the read limit, whole and as a journal line")
  func maximalStateFits() throws {
    let state = Self.maximalState
    // Maximal: sanitizing keeps every part of it (so every part is at its bound, not beyond).
    #expect(state.sanitized() == state)
    // And every bound holds: one more of anything is cut by sanitizing.
    var over = state
    over.eventsByName["one more"] = 1
    over.totalEventsByName["one more"] = 1
    over.recentSessions.append(state.recentSessions[0])
    over.promptHistory.append(state.promptHistory[0])
    over.responses.append(state.responses[0])
    over.version = (over.version ?? "") + "x"
    over.importedLegacy.append("one-more")
    #expect(over.sanitized().encodedSize == state.encodedSize)
    over.policySource = (state.policySource ?? "") + "x"
    #expect(over.sanitized().policySource == nil)

    let whole = ReviewStateJSON.encode(state).count
    let line = ReviewStateJSON.patch(from: ReviewState(), to: state).count
    let limit = ReviewStateCoding.maximumSize
    print(
      "reliability: bounded state: the largest state is \(whole) bytes (a journal line of it \(line) bytes); "
        + "read limit \(limit) bytes (\(String(format: "%.1f", Double(limit) / Double(whole)))x)")
    // With margin: below half the read limit, the size up to which the store journals over a file.
    #expect(whole < JSONFileStore.journalledFileSize)
    #expect(line < JSONFileStore.journalledFileSize)
    // The update alone is bounded by 6 bytes per byte.
    #expect(
      ReviewStateJSON.patch(from: ReviewState(), to: ReviewState().with(update: state.policySource)).count
        <= 6 * ReviewLimits.updateSize + 64)
    // It round-trips through the store: nothing is dropped or reported.
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let store = JSONFileStore(url: url)
    try store.save(state)
    guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
      Issue.record("the largest state should load")
      return
    }
    #expect(loaded == state)
  }

  @Test(
    "wipe-then-ask: the largest update full of control characters is stored; after a relaunch the counts and the \"no thanks\" are intact and the guardrail holds"
  )
  func wipeThenAsk() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    let first = try Self.manager(url, clock: clock)
    for _ in 0..<5 {
      first.appLaunched()
      first.significantEvent("export", mayPrompt: false)
    }
    #expect(first.promptIfAppropriate())  // declined
    let before = first.currentState
    #expect(before.declinedAny && before.totalUses == 5 && before.totalEvents == 5)
    let update = Self.largestUpdate
    #expect(update.utf8.count == ReviewLimits.updateSize)
    let result = first.updatePolicy(update)
    #expect(result.isAccepted, "\(result.renderedDiagnostics)")
    first.appLaunched()
    clock.advance(days: 1)
    // The state is written whole (as a compaction would), then read by a new manager.
    try JSONFileStore(url: url).compact()
    let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    #expect(size < ReviewStateCoding.maximumSize / 4, "\(size) bytes")
    let log = RuntimeLogCollector()
    let second = try Self.manager(url, clock: clock, log: log)
    #expect(log.entries(.problem).isEmpty, "\(log.entries(.problem).map(\.summary))")
    let after = second.currentState
    #expect(after.policySource == update)
    #expect(after.totalUses == 6 && after.totalEvents == 5 && after.declinedAny && after.totalPrompts == 1)
    second.appLaunched()
    #expect(!second.promptIfAppropriate(), "the user who declined was asked again")
    #expect(!second.wouldAsk())
  }

  @Test("kill right after an update: the journal line holding it is read at the next launch")
  func killRightAfterUpdate() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    let first = try Self.manager(url, clock: clock)
    first.appLaunched()
    #expect(first.promptIfAppropriate())
    try JSONFileStore(url: url).compact()
    for _ in 0..<3 { first.significantEvent("export", mayPrompt: false) }
    #expect(first.updatePolicy(Self.largestUpdate).isAccepted)
    // The process ends here: no compaction, no later call. The update is the journal's last line.
    let journal = try Data(contentsOf: JSONFileStore(url: url).journalURL)
    #expect(journal.count > ReviewLimits.updateSize && journal.last == 0x0A)
    let log = RuntimeLogCollector()
    let second = try Self.manager(url, clock: clock, log: log)
    #expect(log.entries(.problem).isEmpty, "\(log.entries(.problem).map(\.summary))")
    let state = second.currentState
    #expect(state.policySource == Self.largestUpdate)
    #expect(state.totalEvents == 3 && state.declinedAny && state.totalUses == 1)
  }

  @Test("a stored update over the update limit is dropped with a report; the counts and answers stay")
  func oversizedUpdateDropped() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    var state = ReviewState()
    state.totalUses = 40
    state.declinedAny = true
    state.version = "1.0"
    state.policySource = "ask when days >= 0\n#" + String(repeating: "x", count: ReviewLimits.updateSize)
    try Data(ReviewStateJSON.encode(state)).write(to: url)
    guard case .recovered(let loaded, let problem) = JSONFileStore(url: url).load() else {
      Issue.record("expected a report")
      return
    }
    #expect(problem.detail.contains("over the \(ReviewLimits.updateSize)-byte limit"), "\(problem.detail)")
    #expect(loaded.policySource == nil && loaded.totalUses == 40 && loaded.declinedAny)
    let kept = try #require(problem.keptAt)
    #expect(FileManager.default.fileExists(atPath: kept))
    // Reported once: the state without it is stored.
    guard case .loaded(let again) = JSONFileStore(url: url).load() else {
      Issue.record("the state without the update should be stored")
      return
    }
    #expect(again == loaded)
  }

  @Test(
    "a state file over the read limit (an old library's 2 MiB update of control characters): the counts, answers and \"no thanks\" are recovered, and the guardrail holds"
  )
  func stateOverReadLimitRecovered() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    let first = try Self.manager(url, clock: clock)
    for _ in 0..<4 {
      first.appLaunched()
      first.significantEvent("export", mayPrompt: false)
    }
    #expect(first.promptIfAppropriate())
    var stored = first.currentState
    // What the library before issue 23 wrote after accepting a 2 MiB update: 12 MB of escapes.
    stored.policySource = String(repeating: "\u{1}", count: Limits.maximumFileSize)
    let bytes = ReviewStateJSON.encode(stored)
    #expect(bytes.count > ReviewStateCoding.maximumSize)
    try Data(bytes).write(to: url)
    let log = RuntimeLogCollector()
    let second = try Self.manager(url, clock: clock, log: log)
    let problems = log.entries(.problem).map(\.summary)
    #expect(problems.count == 1 && problems.first?.contains("larger than any valid state") == true, "\(problems)")
    #expect(problems.first?.contains("recovered") == true)
    let state = second.currentState
    #expect(state.totalUses == 4 && state.totalEvents == 4 && state.declinedAny && state.totalPrompts == 1)
    #expect(state.responses == stored.responses && state.totalEventsByName == ["export": 4])
    #expect(state.policySource == nil)
    second.appLaunched()
    #expect(!second.promptIfAppropriate())
    // The copy kept aside is cut to the read limit.
    let kept = try directory.contents().filter { $0.contains(".corrupt-") }
    #expect(kept.count == 1)
    let keptSize = try FileManager.default.attributesOfItem(atPath: directory.file(kept[0]).path)[.size] as? Int
    #expect(keptSize == ReviewStateCoding.maximumSize)
  }

  /// A store whose state file holds `state` and whose journal holds `lines` after its header.
  static func storeWithJournal(_ url: URL, state: ReviewState, lines: [[UInt8]]) throws -> JSONFileStore {
    let store = JSONFileStore(url: url)
    try store.save(state)
    let identity = try #require(FileIdentity(path: url.path))
    var journal = Array(JSONFileStore.header(for: identity).utf8)
    for line in lines { journal += line }
    try Data(journal).write(to: store.journalURL)
    return store
  }

  @Test("a journal line that cannot be read is reported, its whole members recovered, and the lines after it applied")
  func damagedJournalLine() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    var base = ReviewState()
    base.version = "1.0"
    base.totalUses = 1
    let lines: [[UInt8]] = [
      Array("{\"totalUses\":2}\n".utf8),
      Array("{\"declinedAny\":true,\"totalEvents\":7,\"uses\":\u{1}garbage".utf8) + [0xFF, 0x0A],
      Array("{\"totalUses\":3,\"ratedAny\":\"yes\"}\n".utf8),
      Array("{\"totalUses\":4,\"tot".utf8),  // the last line, cut by a kill: dropped, not reported
    ]
    let store = try Self.storeWithJournal(url, state: base, lines: lines)
    guard case .recovered(let state, let problem) = store.load() else {
      Issue.record("expected a report")
      return
    }
    #expect(state.totalUses == 3 && state.declinedAny && state.totalEvents == 7 && !state.ratedAny)
    #expect(problem.detail.contains("is not valid JSON; recovered 2 of its members"), "\(problem.detail)")
    #expect(problem.detail.contains("ratedAny to a value of the wrong type"), "\(problem.detail)")
    let kept = try #require(problem.keptAt)
    #expect(kept.hasSuffix("-journal") && (F.bytes(at: kept)?.count ?? 0) > 0)
    // The recovered state is stored whole; the next load has nothing to report.
    guard case .loaded(let again) = JSONFileStore(url: url).load() else {
      Issue.record("the recovered state should be stored")
      return
    }
    #expect(again == state)
  }

  @Test("a torn last line is dropped without a report, and every line before it is applied")
  func tornLastLine() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let lines: [[UInt8]] = [
      Array("{\"totalUses\":2}\n".utf8), Array("{\"declinedAny\":true}\n".utf8), Array("{\"totalUses\":3,\"to".utf8),
    ]
    let store = try Self.storeWithJournal(url, state: ReviewState(), lines: lines)
    guard case .loaded(let state) = store.load() else {
      Issue.record("a torn last line is not a problem")
      return
    }
    #expect(state.totalUses == 2 && state.declinedAny)
  }

  @Test("copies of unusable data kept aside: the newest two of each kind, each cut to the read limit")
  func asideCopiesCapped() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    for index in 0..<5 {
      try Data("garbage \(index)".utf8).write(to: url)
      guard case .recovered = JSONFileStore(url: url).load() else {
        Issue.record("expected a recovery")
        return
      }
    }
    let kept = try directory.contents().filter { $0.contains(".corrupt-") }
    #expect(kept.count == JSONFileStore.keptAsideCopies, "\(kept)")
    let contents = Set(kept.map { String(decoding: F.bytes(at: directory.file($0).path) ?? Data(), as: UTF8.self) })
    #expect(contents == ["garbage 3", "garbage 4"])
  }

  @Test("reset() leaves no earlier count, answer or event name in any file of the store's folder")
  func resetLeavesNothingEarlier() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    // An earlier corrupt file kept aside, and a killed save's temporary file.
    try Data("{\"secret-aside\":1".utf8).write(to: url)
    try Data("{\"totalUses\":41,\"secret-temporary\":1}".utf8).write(to: directory.file(".review-state.json.123.tmp"))
    let manager = try Self.manager(url, clock: clock)
    for _ in 0..<41 {
      manager.appLaunched()
      manager.significantEvent("secret-event-name", mayPrompt: false)
    }
    #expect(manager.promptIfAppropriate())  // declined
    try JSONFileStore(url: url).compact()
    manager.significantEvent("secret-journal-name", mayPrompt: false)
    #expect(manager.updatePolicy("ask when uses >= 2").isAccepted)
    manager.reset()
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    #expect(names == [".review-state.json.lock", "review-state.json"], "\(names)")
    for name in names {
      let text = String(decoding: F.bytes(at: directory.file(name).path) ?? Data(), as: UTF8.self)
      for earlier in [
        "secret", "\"totalUses\":41", "\"uses\":41", "\"totalEvents\":4", "declinedAny\":true", "\"declined\":true",
        "remindLater",
      ] {
        #expect(!text.contains(earlier), "\(name) still holds \(earlier): \(text)")
      }
    }
    let state = manager.currentState
    #expect(state.totalUses == 0 && !state.declinedAny && state.epoch == 1)
    // The stored policy update stays: it is the app's configuration, not the user's data.
    #expect(state.policySource == "ask when uses >= 2")
  }

  @Test("UserDefaultsStore: reset removes the copies of unusable data kept aside")
  func defaultsResetRemovesCopies() throws {
    let suite = "ReviewPolicyStateBoundTests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer { defaults.removePersistentDomain(forName: suite) }
    let store = UserDefaultsStore(defaults: defaults, keyPrefix: "B.")
    defaults.set(Data("{\"declinedAny\":true,\"totalUses\":9,".utf8), forKey: store.stateKey)
    guard case .recovered(let recovered, let problem) = store.load(), let kept = problem.keptAt else {
      Issue.record("expected a recovery")
      return
    }
    #expect(recovered.declinedAny && recovered.totalUses == 9)
    #expect(defaults.object(forKey: kept) != nil)
    try store.reset { _ in ReviewState() }
    #expect(defaults.object(forKey: kept) == nil)
    #expect(defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix("B.") }.sorted() == ["B.state"])
  }
}

extension ReviewState {
  /// The size of the state as stored.
  fileprivate var encodedSize: Int { ReviewStateJSON.encode(self).count }

  /// A fresh state holding `update` as its stored policy update.
  fileprivate func with(update: String?) -> ReviewState {
    var state = self
    state.policySource = update
    return state
  }
}
