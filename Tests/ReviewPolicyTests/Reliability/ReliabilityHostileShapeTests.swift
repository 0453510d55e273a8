import Foundation
import PolicyCore
import ReliabilitySupport
import Testing

@testable import ReviewPolicy

/// Issue 23's hostile update shapes (``HostileShapes``) through `updatePolicy` → relaunch → tracked
/// calls → relaunch, at 2 KiB and at the update limit: the counts, the "no thanks" and the
/// guardrail survive every shape. `review-stress hostile` runs them at 64 KiB, 1 MiB and the update
/// limit in a release build, timed (`.ci/reliability`).
@Suite("reliability: hostile update shapes")
struct ReliabilityHostileShapeTests {
  typealias F = RuntimeFixtures

  /// A manager over the state file in `folder`, as the driver makes them.
  static func manager(_ folder: URL, logger: RuntimeLogCollector) throws -> ReviewManager {
    try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: HostileShapes.bundledPolicy,
        store: JSONFileStore(url: folder.appendingPathComponent("review-state.json")), texts: .english,
        logger: logger.logger, guardrails: HostileShapes.guardrails))
  }

  @Test(
    "every shape: counts, the answer and the guardrail survive the update and two relaunches",
    arguments: HostileShapes.all.map(\.name), [2048, HostileShapes.updateLimit])
  func shapeSurvives(_ name: String, bytes: Int) throws {
    let shape = try #require(HostileShapes.shape(named: name))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-shape-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = RuntimeLogCollector()
    var expected: KeptRecord
    var accepted = false
    do {
      let first = try Self.manager(folder, logger: log)
      for _ in 0..<3 { first.appLaunched() }
      for _ in 0..<5 { first.significantEvent("export", mayPrompt: false) }
      #expect(first.promptIfAppropriate())
      #expect((try? first.record(.declined).get()) != nil)
      expected = KeptRecord(first.currentState)
      #expect(expected.declined && expected.uses == 3 && expected.events == 5)
      let result = first.updatePolicy(shape.source(bytes: bytes))
      // At 2 KiB the language decides; at the update limit a shape may also meet another limit
      // (rules, nodes) and be rejected, but the state must survive either way.
      // A shape the language accepts may meet an update limit (facts, events, rules), which
      // rejects it with that limit's error alone.
      let limitCodes: Set<String> = ["PC100", "PC122", "PC123", "PC124", "PC125", "PC126"]
      let hitLimit = result.diagnostics.contains { limitCodes.contains($0.code.rawValue) }
      if shape.alwaysRejected || (bytes == 2048 && !hitLimit) {
        #expect(result.isAccepted != shape.alwaysRejected, "\(name): \(result.renderedDiagnostics.prefix(300))")
      }
      accepted = result.isAccepted
      #expect(KeptRecord(first.currentState) == expected)
    }
    let second = try Self.manager(folder, logger: log)
    #expect(KeptRecord(second.currentState) == expected, "\(name): lost at the relaunch")
    #expect(second.policyOrigin == (accepted ? .update : .bundled))
    for _ in 0..<4 {
      second.appLaunched()
      #expect(!second.significantEvent("export"), "\(name): the user who declined was asked")
      #expect(!second.wouldAsk())
      #expect(!second.promptIfAppropriate())
    }
    expected.uses += 4
    expected.events += 4
    expected.export += 4
    let third = try Self.manager(folder, logger: log)
    #expect(KeptRecord(third.currentState) == expected, "\(name): lost at the second relaunch")
    #expect(!third.promptIfAppropriate() && !third.wouldAsk())
    // Every entry the logger received is bounded.
    for entry in log.entries {
      #expect(entry.summary.utf8.count <= ReviewLogEntry.maximumSummaryBytes + 200)
      #expect(entry.details.utf8.count <= ReviewLogEntry.maximumDetailsBytes + 200)
      #expect(entry.diagnostics.count <= ReviewLogEntry.maximumDiagnostics)
    }
  }

  /// `fact f0: int` ... `fact f{count-1}: int`, and a rule that reads the first.
  static func unsetFactsPolicy(_ count: Int) -> String {
    (0..<count).map { "fact f\($0): int\n" }.joined() + "ask when days >= 0 or f0 >= 0\n"
  }

  @Test("unset app facts are reported once per name (64 by name, the rest as a count), however many calls")
  func unsetFactsOncePerName() throws {
    let log = RuntimeLogCollector()
    // 100 declared facts: over the update limits (64), so the bundled policy, compiled under the
    // file limits, carries them; the bound must hold whatever the limits are.
    let manager = try F.manager(policy: Self.unsetFactsPolicy(100), logger: log.logger)
    for _ in 0..<30 { manager.significantEvent("export") }
    for _ in 0..<30 { manager.promptIfAppropriate() }
    let entries = log.entries(.unsetFact)
    let named = entries.compactMap(\.name)
    #expect(named.count == ReviewManager.reportedUnsetFactsLimit)
    #expect(Set(named).count == named.count)
    #expect(entries.filter { $0.name == nil }.count == 1)
    #expect(entries.contains { $0.name == nil && $0.summary.hasPrefix("36 more app facts") })
    // Setting a fact changes the unset facts: the ones already named are not named again.
    manager.setFact("f99", .int(1))
    for _ in 0..<10 { manager.promptIfAppropriate() }
    let after = log.entries(.unsetFact)
    #expect(after.compactMap(\.name).count == ReviewManager.reportedUnsetFactsLimit)
    // And the leftover count is reported once per change, not per call.
    #expect(after.filter { $0.name == nil }.count == 2)
  }

  @Test("the tracker finds the unset facts once per change, not per call")
  func unsetFactsFoundOncePerChange() throws {
    let compiled = try #require(
      PolicyCompiler.compile(Self.unsetFactsPolicy(50), schema: ReviewSchema.standard).policy)
    var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
    let generation = tracker.unsetFactsGeneration
    #expect(tracker.unsetAppFacts.count == 50)
    for step in 0..<100 {
      tracker.countEvent(named: "e", at: Timestamp(millisecondsSince1970: Int64(step) * 1000))
      _ = tracker.promptIfAppropriate(at: Timestamp(millisecondsSince1970: Int64(step) * 1000 + 1))
    }
    #expect(tracker.unsetFactsGeneration == generation)
    tracker.setFact("f3", .int(1))
    #expect(tracker.unsetFactsGeneration == generation + 1)
    #expect(tracker.unsetAppFacts.count == 49 && !tracker.unsetAppFacts.contains { $0.name == "f3" })
    // The explanation lists at most `listedNames` of them by name and counts the rest.
    let text = tracker.explanation(at: Timestamp(millisecondsSince1970: 200_000)).text
    #expect(text.components(separatedBy: "is not set").count - 1 == ReviewTracker.listedNames)
    #expect(text.contains("33 more app facts declared without a default are not set"))
  }

  @Test("a decision entry of a policy with 2,000 rules is bounded and says how much was left out")
  func decisionEntryBounded() throws {
    let log = RuntimeLogCollector()
    // 2,000 rules: over the update limits (256 rules), so the bundled policy carries them.
    let policy = "ask when days >= 0\n" + (0..<2000).map { "never when uses == \($0 + 1_000_000)\n" }.joined()
    let manager = try F.manager(policy: policy, logger: log.logger)
    manager.promptIfAppropriate()
    let decision = try #require(log.decisions.last)
    #expect(decision.details.utf8.count <= ReviewLogEntry.maximumDetailsBytes)
    // The check explains the first `explainedRules` rules and counts the rest.
    #expect(decision.details.contains("… \(2001 - ReviewTracker.explainedRules) more rules not shown\n"))
    #expect(decision.summary.utf8.count <= ReviewLogEntry.maximumSummaryBytes)
    // The same text as an update is rejected by the rule limit, and its entry is bounded too.
    #expect(!manager.updatePolicy(policy).isAccepted)
    let rejected = try #require(log.entries(.policyRejected).last)
    #expect(rejected.diagnostics.count <= ReviewLogEntry.maximumDiagnostics)
    #expect(rejected.details.utf8.count <= ReviewLogEntry.maximumDetailsBytes)
  }

  @Test("a cut keeps whole scalars and lines, and counts the bytes left out")
  func cutText() {
    let text = String(repeating: "é line\n", count: 1000)
    let cut = ManagerMessages.cut(text, to: 1000, atLine: true)
    #expect(cut.utf8.count <= 1000)
    #expect(cut.hasPrefix("é line\n"))
    let kept = cut.components(separatedBy: "…").first ?? ""
    #expect(kept.hasSuffix("\n"))
    #expect(cut.hasSuffix("(\(text.utf8.count - kept.utf8.count) more bytes left out)"))
    #expect(!ManagerMessages.cut(text, to: 101, atLine: false).contains("\u{FFFD}"))
  }

  @Test("an undeclared event is logged once per name however many calls")
  func undeclaredEventOnce() throws {
    let log = RuntimeLogCollector()
    // 300 declared events: over the update limits (64), so the bundled policy declares them.
    let policy = (0..<300).map { "event e\($0)\n" }.joined() + "ask when events(\"e0\") >= 1000\n"
    let manager = try F.manager(policy: policy, logger: log.logger)
    for _ in 0..<20 {
      manager.significantEvent("e5", mayPrompt: false)
      manager.significantEvent("other", mayPrompt: false)
    }
    #expect(log.entries(.problem).filter { $0.summary.contains("`other` is not declared") }.count == 1)
    #expect(!log.entries(.problem).contains { $0.summary.contains("`e5`") })
  }
}
