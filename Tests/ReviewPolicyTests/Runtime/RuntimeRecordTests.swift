import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The record format (docs/records.md): each log entry as one JSON line for the app's analytics.
@Suite("runtime: records")
struct RuntimeRecordTests {
  /// Collects record lines from any thread.
  final class Lines: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [Data] = []

    var all: [Data] {
      lock.lock()
      defer { lock.unlock() }
      return storage
    }

    var recorder: @Sendable (Data) -> Void {
      { [self] data in
        self.lock.lock()
        self.storage.append(data)
        self.lock.unlock()
      }
    }

    /// Each line parsed by Foundation (a line that is not one JSON object fails the test).
    func objects() throws -> [[String: Any]] {
      try all.map { data in
        #expect(data.last == UInt8(ascii: "\n"))
        #expect(data.dropLast().contains(UInt8(ascii: "\n")) == false)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      }
    }
  }

  @Test("a record is one line with its keys in the documented order, members that do not apply left out")
  func golden() throws {
    let policy = PolicyIdentity(origin: .update, fingerprint: "9c1e5b0a3f9a0c1d")
    let decision = ReviewRecord(
      install: "0123456789abcdef0123456789abcdef", time: try #require(Timestamp(iso8601: "2026-11-29T04:20:00.125Z")),
      event: "significantEvent", appVersion: "2.1", build: "210", policy: policy, asked: true, reason: "askRuleHeld",
      rules: ["happy"], buckets: ["new-ask": 7, "a": 93], name: "purchase \"big\"\n")
    #expect(
      decision.line
        == #"{"schema":1,"install":"0123456789abcdef0123456789abcdef","time":"2026-11-29T04:20:00.125Z","event":"significantEvent","app":"2.1","build":"210","policy":"9c1e5b0a3f9a0c1d","origin":"update","asked":true,"reason":"askRuleHeld","rules":["happy"],"buckets":{"a":93,"new-ask":7},"name":"purchase \"big\"\n"}"#
    )
    let answer = ReviewRecord(
      install: "0123456789abcdef0123456789abcdef", time: try #require(Timestamp(iso8601: "2026-11-29T04:21:00Z")),
      event: "response", appVersion: "2.1", answer: "rated")
    #expect(
      answer.line
        == #"{"schema":1,"install":"0123456789abcdef0123456789abcdef","time":"2026-11-29T04:21:00Z","event":"response","app":"2.1","answer":"rated"}"#
    )
    #expect(answer.data == Data((answer.line + "\n").utf8))
  }

  @Test("a manager with a recorder gives every entry as a record: one install, the decision's rules and buckets")
  func managerRecords() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let lines = Lines()
    let policy = """
      ask happy when uses >= 2 and events("purchase") >= 1 and bucket("arm") < 100
      """
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", build: "7", bundledPolicy: policy, store: store, clock: clock.function, texts: .english,
        shouldCountUse: { $0 == .launch }, recorder: lines.recorder))
    manager.appLaunched()
    clock.advance(days: 1)
    manager.appLaunched()
    manager.appEnteredForeground()
    manager.sessionStarted()
    _ = manager.action(score: 12.5, isBad: true, mayPrompt: false)
    #expect(manager.significantEvent("purchase"))
    _ = manager.record(.rated)
    let records = try lines.objects()
    let events = records.compactMap { $0["event"] as? String }
    #expect(events.contains("launch") && events.contains("significantEvent") && events.contains("response"))
    // One install identifier: 32 lowercase hexadecimal digits, on every line.
    let installs = Set(records.compactMap { $0["install"] as? String })
    #expect(installs.count == 1)
    let install = try #require(installs.first)
    #expect(install.count == 32 && install.allSatisfy { "0123456789abcdef".contains($0) })
    #expect(records.allSatisfy { ($0["schema"] as? Int) == 1 && ($0["app"] as? String) == "1.0" })
    #expect(records.allSatisfy { ($0["build"] as? String) == "7" })
    // The deciding check: asked, by `happy`, with the install's bucket, the event named.
    let asked = try #require(records.first { ($0["asked"] as? Bool) == true })
    #expect(asked["event"] as? String == "significantEvent")
    #expect(asked["name"] as? String == "purchase")
    #expect(asked["rules"] as? [String] == ["happy"])
    #expect(asked["reason"] as? String == "askRuleHeld")
    #expect(asked["origin"] as? String == "bundled")
    let buckets = try #require(asked["buckets"] as? [String: Int])
    let seed = try #require(manager.snapshot().installSeed)
    #expect(buckets == ["arm": Int(Bucket.value(seed: UInt64(bitPattern: seed), name: "arm"))])
    // The seed the buckets are drawn from, so a replay draws any other bucket name the same way.
    #expect(asked["seed"] as? String == ReviewRecord.hex(seed))
    #expect(ReviewRecord.seed(hex: ReviewRecord.hex(seed)) == seed)
    #expect(ReviewRecord.hex(-1) == "ffffffffffffffff" && ReviewRecord.hex(1) == "0000000000000001")
    #expect(records.allSatisfy { $0["outside"] == nil })
    // Launches counted, the return to the foreground vetoed; the action's score and badness.
    #expect(records.filter { $0["event"] as? String == "launch" }.map { $0["counted"] as? Bool } == [true, true])
    #expect(records.first { $0["event"] as? String == "foreground" }?["counted"] as? Bool == false)
    let action = try #require(records.first { $0["event"] as? String == "action" })
    #expect(action["score"] as? Double == 12.5 && action["bad"] as? Bool == true)
    #expect(ReviewRecord.number(25) == "25" && ReviewRecord.number(-0.5) == "-0.5")
    let response = try #require(records.last { ($0["event"] as? String) == "response" })
    #expect(response["answer"] as? String == "rated")
    #expect(response["asked"] == nil && response["rules"] == nil)
    // An answer outside any prompt says so.
    manager.recordWithoutPrompt(.declined)
    let outside = try #require(try lines.objects().last)
    #expect(outside["event"] as? String == "response" && outside["answer"] as? String == "declined")
    #expect(outside["outside"] as? Bool == true)
  }

  @Test("the install identifier is kept in the store for every process, and a reset draws a new one")
  func installIdentifier() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    func manager(_ lines: Lines) throws -> ReviewManager {
      try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 5", store: store, clock: clock.function,
          texts: .english, recorder: lines.recorder))
    }
    let first = Lines()
    try manager(first).appLaunched()
    let second = Lines()
    let again = try manager(second)
    again.appLaunched()
    let before = Set(try (first.objects() + second.objects()).compactMap { $0["install"] as? String })
    #expect(before.count == 1)
    let after = Lines()
    let reset = try manager(after)
    reset.reset()
    reset.appLaunched()
    let ids = try after.objects().compactMap { $0["install"] as? String }
    #expect(ids.count >= 2)
    // The reset entry and everything after it belong to the new install.
    #expect(Set(ids).count == 1)
    #expect(Set(ids).isDisjoint(with: before))
  }

  @Test("docs/records.md lists every event a record can carry, and its example lines are what the writer writes")
  func documented() throws {
    let page = try String(contentsOfFile: RuntimeRecordTests.root + "/docs/records.md", encoding: .utf8)
    for event in ReviewLogEntry.Event.allCases { #expect(page.contains("`\(event.rawValue)`"), "\(event.rawValue)") }
    let policy = PolicyIdentity(origin: .update, fingerprint: "9c1e5b0a3f9a0c1d")
    let example = ReviewRecord(
      install: "0123456789abcdef0123456789abcdef", time: try #require(Timestamp(iso8601: "2026-11-29T04:20:00.125Z")),
      event: "significantEvent", appVersion: "2.1", build: "210", policy: policy, asked: true, reason: "askRuleHeld",
      rules: ["happy"], buckets: ["new-ask": 7], name: "purchase")
    #expect(page.contains(example.line + "\n"))
  }

  /// The package's root directory.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  @Test("without a recorder no install identifier is drawn and nothing is stored for records")
  func noRecorder() throws {
    let store = InMemoryReviewStore()
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: "ask when uses >= 5", store: store, clock: RuntimeTestClock().function,
        texts: .english))
    manager.appLaunched()
    #expect(manager.snapshot().state.recordInstall == nil)
  }
}
