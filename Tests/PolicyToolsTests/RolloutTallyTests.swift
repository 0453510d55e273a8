import Foundation
import PolicyCore
import Testing

@testable import PolicyTools
@testable import ReviewPolicy

/// The read-out's counts from a real manager's records.
@Suite("records: rollout tally")
struct RolloutTallyTests {
  final class Lines: @unchecked Sendable {
    // @unchecked: `all` is only touched under `lock`.
    let lock = NSLock()
    var all: [Data] = []
  }

  @Test("300 installs under a two-arm policy: each in the arm its bucket picks, every prompt and answer counted")
  func twoArms() throws {
    let text = """
      ask new when bucket("arm") < 30 and uses >= 2
      ask old when bucket("arm") >= 30 and uses >= 4
      """
    let policy = try #require(PolicyEnvironment.standard.compile(text).policy)
    let lines = Lines()
    var expected: [String: (installs: Int, rated: Int, declined: Int)] = [:]
    for index in 0..<300 {
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: text, store: InMemoryReviewStore(), texts: .english,
          recorder: { data in
            lines.lock.lock()
            lines.all.append(data)
            lines.lock.unlock()
          }))
      for _ in 0..<5 { manager.appLaunched() }
      #expect(manager.promptIfAppropriate())
      if index % 3 == 0 { _ = manager.record(.rated) }
      if index % 3 == 1 { _ = manager.record(.declined) }
      let seed = try #require(manager.snapshot().installSeed)
      let arm = Bucket.value(seed: UInt64(bitPattern: seed), name: "arm") < 30 ? "new" : "old"
      var counts = expected[arm] ?? (0, 0, 0)
      counts.installs += 1
      if index % 3 == 0 { counts.rated += 1 }
      if index % 3 == 1 { counts.declined += 1 }
      expected[arm] = counts
    }
    var tally = RolloutTally(policies: [policy])
    lines.lock.lock()
    let all = lines.all
    lines.lock.unlock()
    for data in all { tally.add(try RecordReader.record(in: String(decoding: data.dropLast(), as: UTF8.self)).get()) }
    let arms = tally.arms
    #expect(arms.map(\.arm.name) == ["new", "old"])
    for (arm, counts) in arms {
      let want = try #require(expected[arm.name])
      #expect(counts.installs == want.installs)
      #expect(counts.promptedInstalls == want.installs)
      #expect(counts.ratedInstalls == want.rated && counts.declinedInstalls == want.declined)
      #expect(counts.answers["rated", default: 0] == want.rated)
      #expect(counts.shown == want.installs && counts.asks == want.installs)
      #expect(counts.prompted.rate == 1)
    }
    #expect(arms.map(\.counts.installs).reduce(0, +) == 300)
  }

  @Test("policyc report streams a real file in small pieces and reads what was written")
  func reportFromFile() throws {
    let record = ReviewRecord(
      install: "0123456789abcdef0123456789abcdef", time: Timestamp(millisecondsSince1970: 1_767_225_600_000),
      event: "promptCheck", appVersion: "1.0", policy: PolicyIdentity(origin: .bundled, fingerprint: "ab"),
      asked: true, reason: "askRuleHeld", rules: ["a"])
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).jsonl").path
    try String(repeating: record.line + "\r\n", count: 40).write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = policyc(["report", path])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.hasPrefix("read 40 records from 40 lines of 1 file\n"))
    #expect(result.output.contains("  all         1      40    40      0"))
    #expect(policyc(["report", FileManager.default.temporaryDirectory.path]).errors.contains("Is a directory"))
  }
}
