import Foundation
import PolicyCore
import ReviewAnalysis
import ReviewMigration
import Testing

@testable import ReviewPolicy

// Shared helpers for the runtime behaviour tests (the `Runtime...` suites).

/// A clock the tests move by hand.
final class RuntimeTestClock: @unchecked Sendable {
  // @unchecked: `current` is only touched under `lock`.
  private let lock = NSLock()
  private var current: Date

  init(_ start: Date = RuntimeFixtures.start) {
    current = start
  }

  var now: Date {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  func set(_ date: Date) {
    lock.lock()
    current = date
    lock.unlock()
  }

  func advance(seconds: Double) {
    lock.lock()
    current = current.addingTimeInterval(seconds)
    lock.unlock()
  }

  func advance(days: Double) {
    advance(seconds: days * 86_400)
  }

  var function: @Sendable () -> Date {
    { [self] in self.now }
  }
}

/// Collects log entries from any thread.
final class RuntimeLogCollector: @unchecked Sendable {
  // @unchecked: `storage` is only touched under `lock`.
  private let lock = NSLock()
  private var storage: [ReviewLogEntry] = []

  var entries: [ReviewLogEntry] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  var logger: @Sendable (ReviewLogEntry) -> Void {
    { [self] entry in
      self.lock.lock()
      self.storage.append(entry)
      self.lock.unlock()
    }
  }

  /// The decision entries: what the logger received before every call was logged.
  var decisions: [ReviewLogEntry] {
    entries.filter(\.isDecision)
  }

  func entries(_ event: ReviewLogEntry.Event) -> [ReviewLogEntry] {
    entries.filter { $0.event == event }
  }
}

/// A presenter that records every request and answers with a fixed response (or not at all).
final class RuntimeRecordingPresenter: ReviewPresenter, @unchecked Sendable {
  // @unchecked: the mutable fields are only touched under `lock`.
  private let lock = NSLock()
  private var storage: [PromptRequest] = []
  private var answer: ReviewResponse?
  /// Called inside `present`, before answering (for checks of what was stored at that moment).
  private let onPresent: (@Sendable (PromptRequest) -> Void)?

  init(answer: ReviewResponse? = nil, onPresent: (@Sendable (PromptRequest) -> Void)? = nil) {
    self.answer = answer
    self.onPresent = onPresent
  }

  var requests: [PromptRequest] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  func setAnswer(_ response: ReviewResponse?) {
    lock.lock()
    answer = response
    lock.unlock()
  }

  func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
    lock.lock()
    storage.append(request)
    let response = answer
    lock.unlock()
    onPresent?(request)
    if let response { respond(response) }
  }
}

/// A thread-safe counter.
final class RuntimeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// A temporary directory removed when the value is released.
final class RuntimeTemporaryDirectory: @unchecked Sendable {
  let url: URL

  init() throws {
    url = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("ReviewPolicyRuntimeTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// The names of the files in the directory, sorted (hidden files included), except the lock
  /// file and the journal that `JSONFileStore` keeps beside its state file (`.<name>.lock`,
  /// `.<name>.journal`, see ``storeFiles()``).
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !Self.isStoreFile($0) }.sorted()
  }

  /// The lock files and journals in the directory, sorted.
  func storeFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).filter(Self.isStoreFile).sorted()
  }

  private static func isStoreFile(_ name: String) -> Bool {
    name.hasPrefix(".") && (name.hasSuffix(".json.lock") || name.hasSuffix(".json.journal"))
  }
}

enum RuntimeFixtures {
  /// 2023-11-14T22:13:20Z.
  static let start = Date(timeIntervalSince1970: 1_700_000_000)
  static let startMilliseconds: Int64 = 1_700_000_000_000
  static let day: Int64 = 86_400_000

  /// The instant `milliseconds` after ``start``.
  static func at(_ milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: startMilliseconds + milliseconds)
  }

  /// The date `milliseconds` after ``start``.
  static func date(_ milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(startMilliseconds + milliseconds) / 1000)
  }

  static func number(_ text: String) -> Number {
    guard let number = Number(parsing: text) else {
      Issue.record("bad number literal \(text)")
      return Number(scaled: 0)
    }
    return number
  }

  /// A policy that asks whenever it is consulted.
  static let alwaysPolicy = "ask when uses >= 0"

  /// A manager with English texts, a fake clock and (by default) an in-memory store.
  static func manager(
    policy: String = alwaysPolicy, appVersion: String = "1.0", appName: String = "Darkroom",
    store: any ReviewStore = InMemoryReviewStore(), clock: RuntimeTestClock = RuntimeTestClock(),
    presenter: (any ReviewPresenter)? = nil, logger: (@Sendable (ReviewLogEntry) -> Void)? = nil,
    shouldCountUse: (@Sendable (ReviewManager.UseKind) -> Bool)? = nil,
    scoreBounds: ClosedRange<Double>? = -200...200, alwaysAsk: Bool = false,
    legacySources: [LegacyImport.Source] = [], build: String? = nil,
    newVersionOn: ReviewManager.NewVersionTrigger = .appVersion, analyzeUpdates: Bool = false
  ) throws -> ReviewManager {
    var configuration = ReviewManager.Configuration(
      appVersion: appVersion, build: build, bundledPolicy: policy, appName: appName, store: store,
      clock: clock.function,
      texts: .english, presenter: presenter, logger: logger, shouldCountUse: shouldCountUse,
      scoreBounds: scoreBounds, alwaysAsk: alwaysAsk, legacySources: legacySources,
      newVersionOn: newVersionOn)
    if analyzeUpdates { configuration.analyzeUpdates() }
    return try ReviewManager(configuration: configuration)
  }

  /// The explanation of `ask when <condition>` for `state` at `now`, through a manager over an
  /// in-memory store seeded with `state` (`appVersion` defaults to the state's version).
  static func explain(
    _ condition: String, state: ReviewState, now: Date, appVersion: String? = nil, declarations: String = ""
  ) throws -> ReviewExplanation {
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: appVersion ?? state.version ?? "1.0", bundledPolicy: declarations + "ask when " + condition,
        store: InMemoryReviewStore(state), clock: { now }, texts: .english))
    return manager.explainCurrentDecision()
  }

  /// The file's bytes, or nil.
  static func bytes(at path: String) -> Data? {
    FileManager.default.contents(atPath: path)
  }
}

/// Expects `ask when <condition>` to ask (the condition holds) for `state` at `now`.
func expectRuntimeFact(
  _ condition: String, _ state: ReviewState, now: Date, appVersion: String? = nil,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  do {
    let explanation = try RuntimeFixtures.explain(condition, state: state, now: now, appVersion: appVersion)
    #expect(
      explanation.decision?.shouldAsk == true, "`\(condition)` should hold:\n\(explanation.text)",
      sourceLocation: sourceLocation)
  } catch {
    Issue.record("`\(condition)` does not compile: \(error)", sourceLocation: sourceLocation)
  }
}

/// Expects each condition to hold.
func expectRuntimeFacts(
  _ conditions: [String], _ state: ReviewState, now: Date, appVersion: String? = nil,
  sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
  for condition in conditions {
    expectRuntimeFact(condition, state, now: now, appVersion: appVersion, sourceLocation: sourceLocation)
  }
}
