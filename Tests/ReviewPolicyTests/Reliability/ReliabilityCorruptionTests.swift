import Foundation
import PolicyCore
import ReliabilitySupport
import Testing

@testable import ReviewPolicy

/// Unusable stored state, far beyond the basic cases of `RuntimeStoreTests`: truncations at over a thousand lengths
/// of a real state file, random bytes, a corpus of hostile JSON (huge numbers, deep nesting,
/// 10^6-element arrays, NaN-like strings, duplicate keys, wrong-typed nested records) and
/// newer formats. With both `JSONFileStore` and `UserDefaultsStore`, each must be recovered
/// from (`.recovered` with the right `StoreProblem.Kind`), kept aside byte for byte, and a
/// manager over it must start fresh and keep working.
@Suite("reliability: corrupt stored state")
struct ReliabilityCorruptionTests {
  typealias F = RuntimeFixtures
  typealias Kind = StoreProblem.Kind

  // MARK: - A real state file

  /// The bytes a `JSONFileStore` wrote after a realistic history: two versions, sessions
  /// with scores, named events, prompts, every kind of answer and a policy update.
  static let realStateBytes: [UInt8] = {
    guard let directory = try? RuntimeTemporaryDirectory() else { return [] }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    let presenter = RuntimeRecordingPresenter(answer: .remindLater)
    let policy = "never too_soon when since(last_prompt) < 3d\nask when uses >= 3 and events(\"export\") >= 1"
    for (version, answers) in [("1.0", [ReviewResponse.remindLater, .declined]), ("1.1", [.unknown, .rated])] {
      guard
        let manager = try? F.manager(
          policy: policy, appVersion: version, store: JSONFileStore(url: url), clock: clock, presenter: presenter)
      else { return [] }
      for (day, answer) in answers.enumerated() {
        presenter.setAnswer(answer)
        for use in 0..<4 {
          manager.appLaunched()
          manager.sessionStarted()
          manager.action(score: Double(use * 10 + day), isBad: use == 3, mayPrompt: false)
          manager.significantEvent(use.isMultiple(of: 2) ? "export" : "ünïcödé \"quoted\" \\ ✓")
          clock.advance(days: 2)
        }
        manager.recordWithoutPrompt(.feedback)
      }
      _ = manager.updatePolicy(policy + "\nask loyal when total_uses >= 100")
    }
    // The journal's changes folded into the state file, as the store writes it whole.
    try? JSONFileStore(url: url).compact()
    return (try? Array(Data(contentsOf: url))) ?? []
  }()

  @Test("every hostile input is the base state with its change applied (no replacement missed)")
  func everyReplacementApplied() {
    _ = Self.hostileInputs
    _ = Self.unboundedInputs
    Self.missingLock.lock()
    defer { Self.missingLock.unlock() }
    #expect(Self.missingReplacements.isEmpty, "not in \(Self.baseJSON)")
    #expect(Self.hostileInputs.allSatisfy { !$0.bytes.isEmpty || $0.name.contains("empty") })
  }

  @Test("the real state file is a real one: it loads, and uses every part of the state")
  func realStateFile() throws {
    let state = try #require(try? JSONDecoder().decode(ReviewState.self, from: Data(Self.realStateBytes)))
    #expect(Self.realStateBytes.count > 1500, "\(Self.realStateBytes.count) bytes")
    #expect(state.version == "1.1" && state.previousVersion == "1.0")
    #expect(state.totalUses == 16 && state.totalEventsByName.count == 2)
    #expect(state.recentSessions.count == 15 && state.currentSession != nil && state.lastBadSession != nil)
    #expect(state.totalPrompts >= 2 && !state.promptHistory.isEmpty && state.responses.count >= 6)
    #expect(state.ratedAny && state.declinedAny && state.policySource != nil)
  }

  // MARK: - Checks shared by every case

  /// Loads `bytes` from a `JSONFileStore` file and checks the recovery: `.recovered` with a
  /// fresh state and `kind`, the bytes kept aside unchanged beside the file under the right
  /// name, the state file gone. Returns the problem.
  @discardableResult
  static func expectFileRecovery(
    _ bytes: [UInt8], _ kind: Kind, in directory: RuntimeTemporaryDirectory, _ name: String,
    detail: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> StoreProblem? {
    let url = directory.file("review-state.json")
    try Data(bytes).write(to: url)
    guard case .recovered(let fresh, let problem) = JSONFileStore(url: url).load() else {
      Issue.record("\(name): expected `.recovered(\(kind))`", sourceLocation: sourceLocation)
      try? FileManager.default.removeItem(at: url)
      return nil
    }
    let recovered = SalvageExpectation.state(bytes, kind)
    #expect(fresh == recovered ?? ReviewState(), "\(name)", sourceLocation: sourceLocation)
    #expect(problem.kind == kind, "\(name): \(problem)", sourceLocation: sourceLocation)
    if let detail {
      #expect(problem.detail.contains(detail), "\(name): \(problem.detail)", sourceLocation: sourceLocation)
    }
    let keptAt = try #require(problem.keptAt, "\(name): not kept", sourceLocation: sourceLocation)
    #expect(F.bytes(at: keptAt) == Data(bytes), "\(name): the kept bytes differ", sourceLocation: sourceLocation)
    let keptName = URL(fileURLWithPath: keptAt).lastPathComponent
    let prefix = "review-state.json." + (kind == .futureFormat ? "unsupported-" : "corrupt-")
    #expect(keptName.hasPrefix(prefix), "\(name): \(keptName)", sourceLocation: sourceLocation)
    if let recovered {
      // What was recovered is stored in the file's place.
      let stored = try? ReviewStateCoding.decode(Data(contentsOf: url)).get()
      #expect(stored == recovered, "\(name): the recovered state is not stored", sourceLocation: sourceLocation)
      try? FileManager.default.removeItem(at: url)
    } else {
      #expect(!FileManager.default.fileExists(atPath: url.path), "\(name)", sourceLocation: sourceLocation)
    }
    try? FileManager.default.removeItem(atPath: keptAt)
    return problem
  }

  /// Loads `bytes` as the `UserDefaultsStore` value and checks the recovery like
  /// ``expectFileRecovery(_:_:in:_:detail:sourceLocation:)``, the value kept under another key.
  @discardableResult
  static func expectDefaultsRecovery(
    _ bytes: [UInt8], _ kind: Kind, in defaults: UserDefaults, _ name: String, detail: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> StoreProblem? {
    let store = UserDefaultsStore(defaults: defaults, keyPrefix: "Reliability.")
    defaults.set(Data(bytes), forKey: store.stateKey)
    guard case .recovered(let fresh, let problem) = store.load() else {
      Issue.record("\(name): expected `.recovered(\(kind))`", sourceLocation: sourceLocation)
      defaults.removeObject(forKey: store.stateKey)
      return nil
    }
    let recovered = SalvageExpectation.state(bytes, kind)
    #expect(fresh == recovered ?? ReviewState(), "\(name)", sourceLocation: sourceLocation)
    #expect(problem.kind == kind, "\(name): \(problem)", sourceLocation: sourceLocation)
    if let detail {
      #expect(problem.detail.contains(detail), "\(name): \(problem.detail)", sourceLocation: sourceLocation)
    }
    let key = try #require(problem.keptAt, "\(name): not kept", sourceLocation: sourceLocation)
    #expect(defaults.data(forKey: key) == Data(bytes), "\(name): the kept bytes differ", sourceLocation: sourceLocation)
    let prefix = "Reliability.state." + (kind == .futureFormat ? "unsupported-" : "corrupt-")
    #expect(key.hasPrefix(prefix), "\(name): \(key)", sourceLocation: sourceLocation)
    if let recovered {
      let stored = defaults.data(forKey: store.stateKey).flatMap { try? ReviewStateCoding.decode($0).get() }
      #expect(stored == recovered, "\(name): the recovered state is not stored", sourceLocation: sourceLocation)
      defaults.removeObject(forKey: store.stateKey)
    } else {
      #expect(defaults.object(forKey: store.stateKey) == nil, "\(name)", sourceLocation: sourceLocation)
    }
    defaults.removeObject(forKey: key)
    return problem
  }

  /// With the unusable data in place (`put`), a manager over `store` logs exactly one problem
  /// of `kind`, starts from a fresh state, prompts, records, and saves a state that loads back.
  static func expectManagerKeepsWorking(
    store: any ReviewStore, kind: Kind, _ name: String, bytes: [UInt8] = [],
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let recovered = SalvageExpectation.state(bytes, kind)
    let log = RuntimeLogCollector()
    let presenter = RuntimeRecordingPresenter(answer: .declined)
    let manager = try F.manager(store: store, presenter: presenter, logger: log.logger)
    let problems = log.entries(.problem).map(\.summary)
    let start: String
    switch kind {
    case .corrupt: start = "corrupt review state: "
    case .futureFormat: start = "review state written by a newer version of the library: "
    case .unreadable: start = "unreadable review state: "
    }
    #expect(
      problems.count == 1 && problems.first?.hasPrefix(start) == true, "\(name): \(problems)",
      sourceLocation: sourceLocation)
    #expect(problems.first?.contains("; kept at `") == true, "\(name)", sourceLocation: sourceLocation)
    #expect(manager.currentState == recovered ?? ReviewState(), "\(name)", sourceLocation: sourceLocation)
    manager.appLaunched()
    manager.significantEvent("export", mayPrompt: false)
    if let recovered {
      SalvageExpectation.expectWentOn(
        from: recovered, to: manager.currentState, name, sourceLocation: sourceLocation)
    } else {
      #expect(manager.promptIfAppropriate(), "\(name)", sourceLocation: sourceLocation)
      let state = manager.currentState
      #expect(
        state.uses == 1 && state.eventsByName == ["export": 1] && state.totalPrompts == 1 && state.declined,
        "\(name)", sourceLocation: sourceLocation)
    }
    let state = manager.currentState
    guard case .loaded(let loaded) = store.load() else {
      Issue.record("\(name): the manager's new state does not load", sourceLocation: sourceLocation)
      return
    }
    #expect(loaded == state, "\(name)", sourceLocation: sourceLocation)
  }

  /// A fresh, uniquely named defaults suite, removed after `body`.
  static func withDefaults(_ body: (UserDefaults) throws -> Void) throws {
    let suite = "ReviewPolicyReliabilityTests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer { defaults.removePersistentDomain(forName: suite) }
    try body(defaults)
  }

  // MARK: - Truncations

  /// The truncation lengths tried: every length up to 512 bytes and in the last 64, every 4th
  /// between (all 3,093 took 9 s with `JSONFileStore` in a debug build).
  static let truncationLengths: [Int] = {
    let count = realStateBytes.count
    return (0..<count).filter { $0 < 512 || $0 >= count - 64 || $0.isMultiple(of: 4) }
  }()

  /// Truncations that a manager is also started over (starting one over each took 16 s per store
  /// in a debug build).
  static func startsManager(length: Int) -> Bool {
    length < 16 || length.isMultiple(of: 16)
  }

  @Test(
    "JSONFileStore: truncations of a real state file are recovered as corrupt and kept byte for byte; a manager over them keeps working"
  )
  func everyTruncationJSONFile() throws {
    let bytes = Self.realStateBytes
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    var managers = 0
    for length in Self.truncationLengths {
      let prefix = Array(bytes.prefix(length))
      try Self.expectFileRecovery(prefix, .corrupt, in: directory, "the first \(length) bytes")
      guard Self.startsManager(length: length) else { continue }
      managers += 1
      try Data(prefix).write(to: url)
      try Self.expectManagerKeepsWorking(
        store: JSONFileStore(url: url), kind: .corrupt, "the first \(length) bytes", bytes: prefix)
      for name in try directory.contents() { try FileManager.default.removeItem(at: directory.file(name)) }
    }
    // The whole file still loads.
    try Data(bytes).write(to: url)
    guard case .loaded = JSONFileStore(url: url).load() else {
      Issue.record("the whole file should load")
      return
    }
    print(
      "reliability: corrupt state: \(Self.truncationLengths.count) truncations of a \(bytes.count)-byte state file "
        + "recovered and kept (JSONFileStore); a manager started over \(managers) of them")
  }

  @Test(
    "UserDefaultsStore: truncations of a real state are recovered as corrupt and kept byte for byte; a manager over them keeps working"
  )
  func everyTruncationDefaults() throws {
    let bytes = Self.realStateBytes
    var managers = 0
    try Self.withDefaults { defaults in
      let store = UserDefaultsStore(defaults: defaults, keyPrefix: "Reliability.")
      for length in Self.truncationLengths {
        let prefix = Array(bytes.prefix(length))
        try Self.expectDefaultsRecovery(prefix, .corrupt, in: defaults, "the first \(length) bytes")
        guard Self.startsManager(length: length) else { continue }
        managers += 1
        defaults.set(Data(prefix), forKey: store.stateKey)
        try Self.expectManagerKeepsWorking(store: store, kind: .corrupt, "the first \(length) bytes", bytes: prefix)
        for key in defaults.dictionaryRepresentation().keys where key.hasPrefix("Reliability.") {
          defaults.removeObject(forKey: key)
        }
      }
      defaults.set(Data(bytes), forKey: store.stateKey)
      guard case .loaded = store.load() else {
        Issue.record("the whole state should load")
        return
      }
    }
    print(
      "reliability: corrupt state: \(Self.truncationLengths.count) truncations recovered and kept (UserDefaultsStore); "
        + "a manager started over \(managers) of them")
  }

  // MARK: - Random bytes

  /// 300 seeded random byte strings of 1 to 4,096 bytes; a third start like a state file.
  static let randomInputs: [[UInt8]] = {
    var generator = SeededGenerator(seed: 0xC0FF_EE00_D15E_A5E5)
    return (0..<300).map { index in
      let length = Int(generator.next() % 4096) + 1
      var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      if index % 3 == 0 { bytes = Array("{\"format\":1,\"uses\":".utf8) + bytes }
      if index % 3 == 1 { bytes = bytes.map { $0 & 0x7F } }  // ASCII noise
      return bytes
    }
  }()

  @Test("random bytes (300 inputs): recovered as corrupt and kept, with both stores")
  func randomBytes() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    try Self.withDefaults { defaults in
      for (index, bytes) in Self.randomInputs.enumerated() {
        try Self.expectFileRecovery(bytes, .corrupt, in: directory, "random input \(index)")
        try Self.expectDefaultsRecovery(bytes, .corrupt, in: defaults, "random input \(index)")
      }
    }
    print("reliability: corrupt state: \(Self.randomInputs.count * 2) random inputs recovered (both stores)")
  }

  // MARK: - Hostile JSON

  /// One unusable input: its bytes, the kind of problem, and text the problem's detail must contain.
  struct Hostile: Sendable, CustomTestStringConvertible {
    /// What it is.
    var name: String
    /// The stored bytes.
    var bytes: [UInt8]
    /// The kind of problem it must be reported as.
    var kind: Kind
    /// Text the problem's detail must contain, if any.
    var detail: String?

    /// The name, for test reports.
    var testDescription: String { name }
  }

  /// The encoded ``RuntimeStoreTests/fullState`` as text: every field present, keys sorted.
  static let baseJSON: String = {
    let data = (try? ReviewStateCoding.encode(RuntimeStoreTests.fullState)) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }()

  /// Replacements that found nothing to replace (a test checks there are none, so that no
  /// input silently becomes plain garbage).
  nonisolated(unsafe) static var missingReplacements: [String] = []
  /// Guards ``missingReplacements``.
  static let missingLock = NSLock()

  /// `baseJSON` with the first occurrence of `old` (which must occur) replaced by `new`.
  static func base(replacing old: String, with new: String) -> [UInt8] {
    base(replacing: old, withBytes: Array(new.utf8))
  }

  /// `baseJSON` with the first occurrence of `old` (which must occur) replaced by the bytes `new`.
  static func base(replacing old: String, withBytes new: [UInt8]) -> [UInt8] {
    guard let range = baseJSON.range(of: old) else {
      missingLock.lock()
      missingReplacements.append(old)
      missingLock.unlock()
      return []
    }
    return Array(baseJSON[..<range.lowerBound].utf8) + new + Array(baseJSON[range.upperBound...].utf8)
  }

  /// `baseJSON` with a new (unknown) key `field` holding the raw JSON `value`, first.
  static func base(newField field: String, raw value: String) -> [UInt8] {
    precondition(!baseJSON.contains("\"\(field)\":"))
    return Array(("{\"\(field)\":\(value)," + baseJSON.dropFirst()).utf8)
  }

  /// The hostile JSON corpus, each with the kind of problem it must be reported as.
  static let hostileInputs: [Hostile] = {
    var inputs: [Hostile] = []
    func add(_ name: String, _ bytes: [UInt8], _ kind: Kind = .corrupt, _ detail: String? = nil) {
      inputs.append(Hostile(name: name, bytes: bytes, kind: kind, detail: detail))
    }
    let current = "\"currentSession\":{\"isBad\":true,\"number\":30,"
    // Huge numbers.
    add("uses = 1e400", base(replacing: "\"uses\":7", with: "\"uses\":1e400"))
    add("uses = 2^64", base(replacing: "\"uses\":7", with: "\"uses\":18446744073709551616"))
    add("totalEvents = Int.max + 1", base(replacing: "\"totalEvents\":40", with: "\"totalEvents\":9223372036854775808"))
    add(
      "uses = a 400-digit number", base(replacing: "\"uses\":7", with: "\"uses\":" + String(repeating: "9", count: 400))
    )
    add("firstUse = Int64.min - 1", base(replacing: "\"firstUse\":", with: "\"firstUse\":-9223372036854775809,\"_\":"))
    add("firstUse = 1e19", base(replacing: "\"firstUse\":", with: "\"firstUse\":1e19,\"_\":"))
    add("uses = 7.5", base(replacing: "\"uses\":7", with: "\"uses\":7.5"))
    add(
      "session number = 1e300", base(replacing: current, with: "\"currentSession\":{\"isBad\":true,\"number\":1e300,"))
    add("session score = \"1e400\"", base(replacing: "\"score\":\"-12.345678\"", with: "\"score\":\"1e400\""))
    add(
      "session score = 30 digits",
      base(replacing: "\"score\":\"-12.345678\"", with: "\"score\":\"" + String(repeating: "9", count: 30) + "\""))
    add("format = 1e400", base(replacing: "\"format\":1", with: "\"format\":1e400"))
    add("a number of 1,000,000 digits", Array(("{\"uses\":" + String(repeating: "7", count: 1_000_000) + "}").utf8))
    // NaN-like strings and non-finite numbers.
    for text in ["NaN", "nan", "Infinity", "-Infinity", "inf", "1e999", "", "0x10", "١٢", "1,5", "12.3.4", "--1"] {
      add(
        "session score = \"\(text)\"", base(replacing: "\"score\":\"-12.345678\"", with: "\"score\":\"\(text)\""),
        .corrupt, "currentSession")
    }
    add("uses = \"NaN\"", base(replacing: "\"uses\":7", with: "\"uses\":\"NaN\""), .corrupt, "`uses`")
    add("uses = NaN (bare)", base(replacing: "\"uses\":7", with: "\"uses\":NaN"))
    add("uses = Infinity (bare)", base(replacing: "\"uses\":7", with: "\"uses\":Infinity"))
    add("uses = -0x1p3", base(replacing: "\"uses\":7", with: "\"uses\":-0x1p3"))
    // Deep nesting.
    add(
      "policySource nested 100,000 arrays deep",
      base(
        replacing: "\"policySource\":\"",
        with: "\"policySource\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
          + ",\"_\":\""))
    add(
      "an unknown key nested 100,000 objects deep",
      base(
        newField: "zz", raw: String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)
      ))
    add("a megabyte of [", Array(repeating: UInt8(ascii: "["), count: 1 << 20))
    add("a megabyte of {\"a\":", Array(String(repeating: "{\"a\":", count: (1 << 20) / 5).utf8))
    // 10^6-element arrays, under the size limit.
    let million = 1_000_000
    add(
      "recentSessions = 10^6 zeros",
      base(replacing: "\"recentSessions\":[", with: "\"recentSessions\":[" + String(repeating: "0,", count: million)),
      .corrupt, "recentSessions")
    add(
      "promptHistory = 10^6 empty objects",
      base(replacing: "\"promptHistory\":[", with: "\"promptHistory\":[" + String(repeating: "{},", count: million)),
      .corrupt, "promptHistory")
    add(
      "responses = 10^6 empty arrays",
      base(replacing: "\"responses\":[", with: "\"responses\":[" + String(repeating: "[],", count: million)), .corrupt,
      "responses")
    add(
      "importedLegacy = 10^6 numbers",
      base(replacing: "\"importedLegacy\":[", with: "\"importedLegacy\":[" + String(repeating: "1,", count: million)),
      .corrupt, "importedLegacy")
    add(
      "eventsByName = 250,000 wrong-typed entries",
      base(
        replacing: "\"eventsByName\":{", with: "\"eventsByName\":{" + (0..<250_000).map { "\"\($0)\":[]," }.joined()),
      .corrupt, "eventsByName")
    add("a top-level array of 10^6 numbers", Array(("[" + String(repeating: "1,", count: million - 1) + "1]").utf8))
    // Wrong-typed nested session, prompt and answer records.
    add(
      "currentSession.number = \"30\"",
      base(replacing: current, with: "\"currentSession\":{\"isBad\":true,\"number\":\"30\","), .corrupt,
      "currentSession.number")
    add(
      "currentSession.isBad = \"yes\"",
      base(replacing: current, with: "\"currentSession\":{\"isBad\":\"yes\",\"number\":30,"), .corrupt,
      "currentSession.isBad")
    add(
      "currentSession.score = 12.5 (a number, not text)",
      base(replacing: "\"score\":\"-12.345678\"", with: "\"score\":12.5"), .corrupt, "currentSession.score")
    add(
      "currentSession.start = \"yesterday\"",
      base(replacing: "\"start\":1700000000005", with: "\"start\":\"yesterday\""), .corrupt, "currentSession.start")
    add(
      "currentSession = []",
      base(replacing: current, with: "\"currentSession\":[],\"_\":{\"isBad\":true,\"number\":30,"), .corrupt,
      "currentSession")
    add(
      "currentSession without number", base(replacing: current, with: "\"currentSession\":{\"isBad\":true,"), .corrupt,
      "number")
    add(
      "recentSessions[0] = []", base(replacing: "\"recentSessions\":[", with: "\"recentSessions\":[[],"), .corrupt,
      "recentSessions[0]")
    add(
      "recentSessions = {}", base(replacing: "\"recentSessions\":[", with: "\"recentSessions\":{},\"_\":["), .corrupt,
      "recentSessions")
    add(
      "recentSessions[1].version = 1.2",
      base(
        replacing: "\"recentSessions\":[",
        with:
          "\"recentSessions\":[{\"isBad\":false,\"number\":1,\"score\":\"0\",\"start\":0,\"version\":\"1\"},{\"isBad\":false,\"number\":2,\"score\":\"0\",\"start\":0,\"version\":1.2},"
      ), .corrupt, "recentSessions[1].version")
    add(
      "lastBadSession = \"bad\"", base(replacing: "\"lastBadSession\":{", with: "\"lastBadSession\":\"bad\",\"_\":{"),
      .corrupt, "lastBadSession")
    add(
      "promptHistory[0].outcome = \"maybe\"",
      base(replacing: "\"outcome\":\"remindLater\"", with: "\"outcome\":\"maybe\""), .corrupt,
      "promptHistory[0].outcome")
    add(
      "promptHistory[0].session = null", base(replacing: "\"session\":20", with: "\"session\":null"), .corrupt,
      "promptHistory[0].session")
    add(
      "responses[0].response = 3", base(replacing: "\"response\":\"remindLater\"", with: "\"response\":3"), .corrupt,
      "responses[0].response")
    add(
      "eventsByName = {\"export\": \"3\"}",
      base(replacing: "\"eventsByName\":{\"export\":3", with: "\"eventsByName\":{\"export\":\"3\""), .corrupt,
      "eventsByName")
    add(
      "eventsByName = [\"export\", 3]",
      base(replacing: "\"eventsByName\":{", with: "\"eventsByName\":[\"export\",3],\"_\":{"), .corrupt, "eventsByName")
    add(
      "importedLegacy = \"appirater\"",
      base(replacing: "\"importedLegacy\":[\"appirater\"]", with: "\"importedLegacy\":\"appirater\""), .corrupt,
      "importedLegacy")
    add(
      "previousVersion = 1.0", base(replacing: "\"previousVersion\":\"1.0\"", with: "\"previousVersion\":1.0"),
      .corrupt, "previousVersion")
    for (name, text) in [
      ("true", "true"), ("1", "1"), ("a string", "\"state\""), ("[]", "[]"), ("{}", "{}"), ("null", "null"),
    ] {
      add("a top level of \(name)", Array(text.utf8))
    }
    // Broken text.
    add(
      "invalid UTF-8 in a string",
      base(replacing: "\"1.2.3-beta\"", withBytes: Array("\"1.2.3-beta".utf8) + [0xFF, 0xFE, 0x22]))
    add("an unpaired surrogate escape", base(replacing: "\"1.2.3-beta\"", with: "\"1.2.3\\ud800-beta\""))
    add("a NUL byte in the middle", Array(baseJSON.utf8.prefix(40)) + [0] + Array(baseJSON.utf8.dropFirst(40)))
    add("trailing garbage", Array((baseJSON + " garbage").utf8))
    add("two objects", Array((baseJSON + baseJSON).utf8))
    add("a comment", Array(("/* state */" + baseJSON).utf8))
    add("4 MiB of spaces (the size limit)", Array(repeating: UInt8(ascii: " "), count: ReviewStateCoding.maximumSize))
    // Newer formats.
    var future = RuntimeStoreTests.fullState
    future.format = ReviewState.currentFormat + 1
    add("a full state of format 2", Array((try? ReviewStateCoding.encode(future)) ?? Data()), .futureFormat, "format 2")
    add("format 2, nothing else", Array("{\"format\":2}".utf8), .futureFormat, "format 2")
    add("format Int.max", Array("{\"format\":9223372036854775807}".utf8), .futureFormat, "format 9223372036854775807")
    add(
      "format 2 with every other field of another type",
      Array("{\"uses\":\"lots\",\"format\":2,\"currentSession\":[],\"version\":{}}".utf8), .futureFormat)
    add(
      "format 2 with new fields", base(replacing: "\"format\":1", with: "\"format\":2,\"sessionsV2\":[{\"id\":\"x\"}]"),
      .futureFormat)
    return inputs
  }()

  @Test(
    "JSONFileStore: hostile JSON is recovered with the right kind and kept byte for byte; a manager over it keeps working",
    arguments: ReliabilityCorruptionTests.hostileInputs)
  func hostileJSONFile(_ input: Hostile) throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    try Self.expectFileRecovery(input.bytes, input.kind, in: directory, input.name, detail: input.detail)
    let url = directory.file("review-state.json")
    try Data(input.bytes).write(to: url)
    try Self.expectManagerKeepsWorking(store: JSONFileStore(url: url), kind: input.kind, input.name, bytes: input.bytes)
    let names = try directory.contents()
    #expect(names.count == 2 && names.contains("review-state.json"), "\(input.name): \(names)")
  }

  /// The hostile inputs of at most 64 KiB, and the largest one (4 MiB). `UserDefaultsStore` decodes
  /// with the same ``ReviewStateCoding`` as `JSONFileStore`, which takes every input; a value of
  /// megabytes in a Linux defaults suite is slow to write (22 s for the whole corpus in a debug build).
  static let hostileDefaultsInputs = hostileInputs.filter {
    $0.bytes.count <= 64 * 1024 || $0.bytes.count == ReviewStateCoding.maximumSize
  }

  @Test(
    "UserDefaultsStore: hostile JSON is recovered with the right kind and kept byte for byte; a manager over it keeps working",
    arguments: ReliabilityCorruptionTests.hostileDefaultsInputs)
  func hostileJSONDefaults(_ input: Hostile) throws {
    try Self.withDefaults { defaults in
      try Self.expectDefaultsRecovery(input.bytes, input.kind, in: defaults, input.name, detail: input.detail)
      let store = UserDefaultsStore(defaults: defaults, keyPrefix: "Reliability.")
      defaults.set(Data(input.bytes), forKey: store.stateKey)
      try Self.expectManagerKeepsWorking(store: store, kind: input.kind, input.name, bytes: input.bytes)
    }
  }

  // MARK: - Values that are not data, and files that are not files

  @Test("UserDefaultsStore: a value that is not data (string, number, bool, date, array, dictionary) is kept as it was")
  func defaultsValuesOfOtherTypes() throws {
    let values: [(String, Any)] = [
      ("a string", "{\"format\":1}"), ("an integer", 42), ("a double", Double.pi), ("a bool", true),
      ("a date", Date(timeIntervalSince1970: 1_700_000_000)), ("an array", [1, 2, 3]),
      ("a dictionary", ["format": 1, "uses": 3]), ("an array of data", [Data([1, 2])]),
    ]
    try Self.withDefaults { defaults in
      let store = UserDefaultsStore(defaults: defaults, keyPrefix: "Reliability.")
      for (name, value) in values {
        defaults.set(value, forKey: store.stateKey)
        let stored = defaults.object(forKey: store.stateKey) as? NSObject
        guard case .recovered(let fresh, let problem) = store.load() else {
          Issue.record("\(name): expected recovered")
          continue
        }
        #expect(fresh == ReviewState())
        #expect(problem.kind == .corrupt && problem.detail == "the stored value is not data", "\(name): \(problem)")
        let key = try #require(problem.keptAt)
        #expect((defaults.object(forKey: key) as? NSObject) == stored, "\(name): not kept as it was")
        defaults.set(value, forKey: store.stateKey)
        try Self.expectManagerKeepsWorking(store: store, kind: .corrupt, name)
      }
    }
  }

  @Test(
    "JSONFileStore: a directory where the state file should be is unreadable: moved aside intact, and a manager keeps working"
  )
  func directoryInsteadOfFile() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Data("inside".utf8).write(to: url.appendingPathComponent("note"))
    guard case .recovered(let fresh, let problem) = JSONFileStore(url: url).load() else {
      Issue.record("expected recovered")
      return
    }
    #expect(fresh == ReviewState())
    #expect(problem.kind == .unreadable, "\(problem)")
    let keptAt = try #require(problem.keptAt)
    #expect(F.bytes(at: keptAt + "/note") == Data("inside".utf8))
    try FileManager.default.removeItem(atPath: keptAt)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Self.expectManagerKeepsWorking(store: JSONFileStore(url: url), kind: .unreadable, "a directory")
  }

  // MARK: - Duplicate keys and other encodings

  @Test(
    "duplicate keys (which JSONEncoder never writes) are resolved one way, the same way by the format check and the decoder",
    arguments: ["json", "defaults"])
  func duplicateKeys(store kind: String) throws {
    // Which occurrence the platform's JSON parser keeps.
    let parsed = try JSONDecoder().decode([String: Int].self, from: Data("{\"a\":1,\"a\":2}".utf8))
    let keepsFirst = parsed["a"] == 1
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    try Self.withDefaults { defaults in
      let store: any ReviewStore =
        kind == "json"
        ? JSONFileStore(url: directory.file("review-state.json"))
        : UserDefaultsStore(defaults: defaults, keyPrefix: "D.")
      func put(_ bytes: [UInt8]) throws {
        if kind == "json" {
          try Data(bytes).write(to: directory.file("review-state.json"))
        } else {
          defaults.set(Data(bytes), forKey: "D.state")
        }
      }
      for (first, second) in [(1, 2), (2, 1), (1, 1), (2, 3)] {
        try put(Self.base(replacing: "\"format\":1", with: "\"format\":\(first),\"format\":\(second)"))
        let format = keepsFirst ? first : second
        switch store.load() {
        case .loaded(let state):
          #expect(format <= ReviewState.currentFormat && state.format == format, "format \(first) then \(second)")
        case .recovered(_, let problem):
          #expect(
            format > ReviewState.currentFormat && problem.kind == .futureFormat,
            "format \(first) then \(second): \(problem)")
        case .empty:
          Issue.record("format \(first) then \(second): nothing loaded")
        }
      }
      try put(Self.base(replacing: "\"uses\":7", with: "\"uses\":7,\"uses\":8"))
      guard case .loaded(let state) = store.load() else {
        Issue.record("uses twice: expected a loaded state")
        return
      }
      #expect(state.uses == (keepsFirst ? 7 : 8))
      try put(Self.base(replacing: "\"number\":30,", with: "\"number\":30,\"number\":\"thirty\","))
      if keepsFirst {
        guard case .loaded(let state) = store.load() else {
          Issue.record("a session number twice: expected a loaded state")
          return
        }
        #expect(state.currentSession?.number == 30)
      } else {
        guard case .recovered(_, let problem) = store.load() else {
          Issue.record("a session number twice: expected recovered")
          return
        }
        #expect(problem.kind == .corrupt)
      }
    }
  }

  @Test("a state in UTF-16 (big or little endian) loads like the UTF-8 one")
  func utf16() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    for bigEndian in [true, false] {
      let bytes = Self.baseJSON.utf16.flatMap { unit -> [UInt8] in
        let high = UInt8(truncatingIfNeeded: unit >> 8)
        let low = UInt8(truncatingIfNeeded: unit)
        return bigEndian ? [high, low] : [low, high]
      }
      try Data(bytes).write(to: url)
      guard case .loaded(let state) = JSONFileStore(url: url).load() else {
        Issue.record("UTF-16 \(bigEndian ? "BE" : "LE"): expected a loaded state")
        continue
      }
      #expect(state == RuntimeStoreTests.fullState)
    }
  }

  // MARK: - Valid but extreme

  /// A policy that reads every standard fact, so every extreme value goes through the binder and the evaluator.
  static let everyFactPolicy = """
    never answered when declined or rated or feedback or declined_any or rated_any or session_bad
    never soon when since(last_prompt) < 8w or since(last_reminder) < 3d or since(last_decline) < 26w or since(last_rating) < 52w
    never bad when since(last_bad_session) < 1d or (sessions_since_bad ?? 3) < 2 or (sessions_since_prompt ?? 9) < 3
    never capped when prompts_within(365d) >= 3 or prompts >= 1 or total_prompts > 10
    never old when has previous_version and version < previous_version or has last_prompt_version and version <= last_prompt_version
    ask engaged when days >= 14 and total_days >= 30 and uses >= 10 and total_uses >= 20 and since(first_use) >= 1d and since(install_date) >= 1d
    ask loved when events >= 3 and total_events >= 5 and events("export") >= 1 and total_events("export") >= 1 and sessions >= 1 and total_sessions >= 2
    ask happy when session_score >= 10 or (average_score(3) ?? 0) >= 75
    """

  /// A state with every counter at `Int.max` or `Int.min` and every instant at the ends of time.
  static func extremeState(_ big: Bool) -> ReviewState {
    let count = big ? Int.max : Int.min
    let instant = Timestamp(millisecondsSince1970: big ? .max : .min)
    var state = RuntimeStoreTests.fullState
    state.version = "1.0"
    for keyPath in [
      \ReviewState.uses, \.events, \.sessions, \.prompts, \.totalUses, \.totalEvents, \.totalSessions, \.totalPrompts,
    ] {
      state[keyPath: keyPath] = count
    }
    state.eventsByName = ["export": count]
    state.totalEventsByName = ["export": count]
    state.firstUse = instant
    state.installDate = Timestamp(millisecondsSince1970: big ? .min : .max)
    state.lastReminder = instant
    state.lastDecline = instant
    state.lastRating = instant
    state.currentSession = SessionRecord(
      number: count, start: instant, version: "1.0", score: Number(scaled: big ? .max : .min), isBad: false)
    state.recentSessions = [
      SessionRecord(
        number: count, start: instant, version: "9" + String(repeating: ".9", count: 200), score: Number(scaled: .max)),
      SessionRecord(number: 0, start: instant, version: "", score: Number(scaled: .min)),
    ]
    state.lastBadSession = SessionRecord(number: count, start: instant, version: "1.0", isBad: true)
    state.promptHistory = [
      PromptRecord(date: instant, version: "999999999999999999999.0", session: count, outcome: .pending)
    ]
    state.responses = [ResponseRecord(response: .rated, date: instant, version: "1.0")]
    state.declined = false
    state.rated = false
    state.feedback = false
    state.declinedAny = false
    state.ratedAny = false
    state.policySource = nil
    return state
  }

  @Test(
    "extreme but valid values (counters at Int.max or Int.min, instants at the ends of time) load, decide and saturate without trapping",
    arguments: [true, false])
  func extremeValues(big: Bool) throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    for now in [RuntimeFixtures.start, Date(timeIntervalSince1970: 9e15), Date(timeIntervalSince1970: -9e15)] {
      try Data(ReviewStateCoding.encode(Self.extremeState(big))).write(to: url)
      guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
        Issue.record("an extreme but valid state should load")
        return
      }
      // Loading brings negative counts to 0 and session numbers within the total.
      #expect(loaded.uses == (big ? .max : 0) && loaded.totalSessions >= 0)
      #expect(loaded.promptHistory.allSatisfy { $0.session >= 0 && $0.session <= loaded.totalSessions })
      let clock = RuntimeTestClock(now)
      let log = RuntimeLogCollector()
      let manager = try F.manager(
        policy: Self.everyFactPolicy, store: JSONFileStore(url: url), clock: clock,
        presenter: RuntimeRecordingPresenter(answer: .remindLater), logger: log.logger)
      manager.appLaunched()
      manager.sessionStarted()
      manager.action(score: big ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude, isBad: false, mayPrompt: false)
      manager.action(score: .infinity, isBad: false, mayPrompt: false)
      manager.action(score: .nan, isBad: false, mayPrompt: false)
      manager.significantEvent("export")
      _ = manager.promptIfAppropriate()
      manager.recordWithoutPrompt(.declined)
      let explanation = manager.explainCurrentDecision()
      #expect(explanation.decision?.shouldAsk == false, "\(explanation.text)")
      let state = manager.currentState
      #expect(state.totalUses == (big ? .max : 1) && state.totalEvents == (big ? .max : 1), "counters saturate")
      #expect(state.totalEventsByName["export"] == (big ? .max : 1))
      #expect(state.declined)
      #expect(log.entries(.problem).isEmpty, "\(log.entries(.problem).map(\.summary))")
      guard case .loaded(let reloaded) = JSONFileStore(url: url).load() else {
        Issue.record("the saved extreme state should load")
        return
      }
      // What the manager saved loads back unchanged (see `ReliabilityRelaunchTests`).
      #expect(reloaded == state)
    }
  }

  @Test("a valid state with 100,000 event names and 50,000 answers loads bounded to the limits")
  func manyNamesAndAnswers() throws {
    var names = "{"
    for index in 0..<100_000 { names += "\"name\(index)\":\(index)," }
    names.removeLast()
    names += "}"
    let answers =
      "[" + (0..<40_000).map { "{\"date\":\($0),\"response\":\"rated\",\"version\":\"1\"}" }.joined(separator: ",")
      + "]"
    let bytes = Self.base(
      replacing: "\"eventsByName\":{\"export\":3,", with: "\"eventsByName\":\(names),\"_\":{\"export\":3,")
    let json = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
      of: "\"responses\":[", with: "\"responses\":\(answers),\"__\":[")
    #expect(json.utf8.count < ReviewStateCoding.maximumSize)
    guard case .success(let state) = ReviewStateCoding.decode(Data(json.utf8)) else {
      Issue.record("expected a valid state")
      return
    }
    #expect(state.eventsByName.count == ReviewLimits.eventNames)
    #expect(state.responses.count == ReviewLimits.responseHistory)
    #expect(state.responses.last?.date.millisecondsSince1970 == 39_999)
  }

  /// Valid states whose size no history bound limits: every save of them writes megabytes.
  static let unboundedInputs: [Hostile] = [
    Hostile(
      name: "importedLegacy = 10^6 strings",
      bytes: base(
        replacing: "\"importedLegacy\":[", with: "\"importedLegacy\":[" + String(repeating: "\"x\",", count: 1_000_000)),
      kind: .corrupt),
    Hostile(
      name: "policySource = 3 MB of text",
      bytes: base(
        replacing: "\"policySource\":\"", with: "\"policySource\":\"" + String(repeating: "#", count: 3_000_000)),
      kind: .corrupt),
    Hostile(
      name: "previousVersion = 3 MB of text",
      bytes: base(
        replacing: "\"previousVersion\":\"", with: "\"previousVersion\":\"" + String(repeating: "9", count: 3_000_000)),
      kind: .corrupt),
  ]

  @Test(
    "a valid-shaped state of megabytes (10^6 legacy names, a 3 MB policy or version) does not stay megabytes after loading",
    arguments: ReliabilityCorruptionTests.unboundedInputs)
  func unboundedFieldsAreBounded(_ input: Hostile) throws {
    #expect(input.bytes.count < ReviewStateCoding.maximumSize)
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    try Data(input.bytes).write(to: url)
    let manager = try F.manager(appVersion: "1.2.3-beta", store: JSONFileStore(url: url))
    manager.appLaunched()
    let saved = try Data(contentsOf: url).count
    // A bounded state is at most tens of kilobytes; loading (or recovering) must not keep megabytes.
    // Regression: loading used to bound the histories but not importedLegacy, policySource or
    // version strings, so these states loaded as valid and every call rewrote megabytes.
    #expect(saved < 256 * 1024, "\(input.name): every save writes \(saved) bytes")
  }

  @Test("loading bounds every version string and legacy name, and drops a policy update too large to compile")
  func textsBoundedOnLoad() throws {
    let long = "1." + String(repeating: "9", count: 10_000)
    var state = RuntimeStoreTests.fullState
    state.version = long
    state.previousVersion = long
    state.currentSession?.version = long
    state.recentSessions = [SessionRecord(number: 1, start: Timestamp(millisecondsSince1970: 0), version: long)]
    state.lastBadSession = SessionRecord(
      number: 1, start: Timestamp(millisecondsSince1970: 0), version: long, isBad: true)
    state.promptHistory = [
      PromptRecord(date: Timestamp(millisecondsSince1970: 0), version: long, session: 1, outcome: .rated)
    ]
    state.responses = [ResponseRecord(response: .rated, date: Timestamp(millisecondsSince1970: 0), version: long)]
    state.policySource = String(repeating: "#", count: Limits.maximumFileSize + 1)
    state.importedLegacy = ["appirater", "appirater", String(repeating: "n", count: 65)] + (0..<100).map { "m\($0)" }
    let loaded = state.sanitized()
    let cut = "1." + String(repeating: "9", count: ReviewLimits.versionLength - 2)
    let versions =
      [loaded.version, loaded.previousVersion, loaded.currentSession?.version, loaded.lastBadSession?.version]
      + loaded.recentSessions.map(\.version) + loaded.promptHistory.map(\.version) + loaded.responses.map(\.version)
    #expect(versions == Array(repeating: cut, count: 7))
    #expect(loaded.policySource == nil)
    #expect(loaded.importedLegacy == ["appirater"] + (0..<(ReviewLimits.legacyImports - 1)).map { "m\($0)" })
    // A policy update within the update limit is kept whole.
    state.policySource = String(repeating: "#", count: ReviewLimits.updateSize)
    #expect(state.sanitized().policySource == state.policySource)
    // Bounding is idempotent.
    #expect(loaded.sanitized() == loaded)
  }
}
