import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

/// The limits of a remote policy update (`PolicyLimits.remoteUpdate`): each one rejects an update
/// received or stored with its own error before the work it guards, and the largest update within
/// them is accepted and analysed within the analysis's linear budget.
@Suite("runtime: update limits")
struct UpdateLimitsTests {
  typealias F = RuntimeFixtures
  static let bundled = "ask bundled when uses >= 100"
  static let limits = PolicyLimits.remoteUpdate

  /// An update past each limit, and the error it gets.
  static let overLimits: [(name: String, source: String, code: DiagnosticCode)] = [
    ("65 KiB", "ask when rated\n" + String(repeating: "#\n", count: 32_768), .fileTooLarge),
    ("257 rules", String(repeating: "ask when rated\n", count: 257), .tooManyRules),
    ("257 lets", (0...256).map { "let l\($0) = \($0)\n" }.joined() + "ask when days > l0\n", .tooManyLets),
    ("65 facts", (0...64).map { "fact f\($0): int\n" }.joined() + "ask when f0 > 1\n", .tooManyFactDeclarations),
    (
      "65 events", "event " + (0...64).map { "e\($0)" }.joined(separator: ", ") + "\nask when events(\"e0\") > 1\n",
      .tooManyEventDeclarations
    ),
    (
      "8,194 nodes", "ask when " + (0..<2731).map { "days > \($0)" }.joined(separator: " and ") + "\n",
      .tooManyExpressionNodes
    ),
    ("a 65-byte name", "ask when " + String(repeating: "a", count: 65) + "\n", .identifierTooLong),
    (
      "a 1,025-byte string", "fact plan: string\nask when plan == \"\(String(repeating: "a", count: 1025))\"\n",
      .stringTooLong
    ),
    ("a 257-element list", "ask when days in [\((0...256).map(String.init).joined(separator: ", "))]\n", .listTooLong),
    (
      "33 levels", "ask when " + String(repeating: "(", count: 33) + "rated" + String(repeating: ")", count: 33),
      .nestingTooDeep
    ),
  ]

  @Test("the limits are those docs/remote-updates.md states")
  func numbers() {
    #expect(Self.limits.maximumSize == 65_536 && Self.limits.maximumRules == 256 && Self.limits.maximumLets == 256)
    #expect(Self.limits.maximumFactDeclarations == 64 && Self.limits.maximumEventDeclarations == 64)
    #expect(Self.limits.maximumExpressionNodes == 8192 && Self.limits.maximumIdentifierLength == 64)
    #expect(Self.limits.maximumStringLength == 1024 && Self.limits.maximumListLength == 256)
    #expect(Self.limits.maximumNestingDepth == 32 && Self.limits.maximumDeclarations == 640)
    #expect(Self.limits.subject == "update")
  }

  @Test("an update over a limit is rejected with that limit's error alone; the running policy stays")
  func rejected() throws {
    for (name, source, code) in Self.overLimits {
      let manager = try F.manager(policy: Self.bundled)
      let result = manager.updatePolicy(source)
      #expect(!result.isAccepted, "\(name)")
      #expect(result.diagnostics.filter { $0.severity == .error }.map(\.code) == [code], "\(name)")
      #expect(manager.policyOrigin == .bundled, "\(name)")
      // The same text is a valid policy file but for names it does not know: only the update's
      // limits reject it.
      #expect(
        code == .fileTooLarge || code == .tooManyExpressionNodes || code == .identifierTooLong
          || !PolicyEnvironment.standard.compile(source).hasErrors, "\(name)")
    }
  }

  /// An update up to every limit: 64 facts, 64 events, 256 `let`s and 256 rules, dense conditions.
  static let largest: String = {
    let types = ["int", "bool", "number", "duration", "instant?", "version?", "string", "int?"]
    var lines = (0..<64).map { "fact f\($0): \(types[$0 % 8])" }
    lines.append("event " + (0..<64).map { "e\($0)" }.joined(separator: ", "))
    for index in 0..<256 {
      lines.append("let l\(index) = days >= \(index) and uses > \(index % 7) or events(\"e\(index % 64)\") >= 2")
    }
    for index in 0..<256 {
      let fact = "f\(index % 64)"
      let condition: String
      switch types[index % 64 % 8] {
      case "int": condition = "\(fact) > \(index)"
      case "bool": condition = "not \(fact)"
      case "number": condition = "\(fact) >= 1.5"
      case "duration": condition = "\(fact) < 3d"
      case "instant?": condition = "since(\(fact) ?? now) >= 2d"
      case "version?": condition = "has \(fact)"
      case "string": condition = "\(fact) in [\"a\", \"b\"]"
      default: condition = "(\(fact) ?? 0) > 2"
      }
      let kind = index % 8 == 0 ? "never" : "ask"
      lines.append(
        "\(kind) r\(index) when l\(index) and \(condition) and total_prompts < \(index % 5 + 1) or rated_any and days > \(index)"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }()

  @Test("the largest update within every limit is accepted, analysed within the linear budget, and runs at relaunch")
  func largestAccepted() throws {
    #expect(Self.largest.utf8.count <= Self.limits.maximumSize)
    let store = InMemoryReviewStore()
    let manager = try F.manager(policy: Self.bundled, store: store)
    let result = manager.updatePolicy(Self.largest)
    #expect(result.isAccepted)
    #expect(!result.diagnostics.hasErrors)
    #expect(manager.policyOrigin == .update)
    let next = try F.manager(policy: Self.bundled, store: store)
    #expect(next.policyOrigin == .update)
    // The analysis spends at most its budget, linear in the policy.
    let environment = PolicyEnvironment.standard
    let compiled = try #require(environment.compile(Self.largest, limits: Self.limits).policy)
    let report = environment.analyze(compiled)
    #expect(report.workSpent <= AnalysisOptions.all.workBudget(forConditions: 8192))
  }

  @Test("an update stored under looser limits that passes the update's is not run at relaunch")
  func storedOverLimit() throws {
    let store = InMemoryReviewStore()
    let manager = try F.manager(policy: Self.bundled, store: store)
    #expect(manager.updatePolicy("ask updated when uses >= 1").isAccepted)
    // The stored source replaced by one over the limits (as an older version could have stored).
    var state = try #require(store.storedState)
    state.policySource = String(repeating: "ask when uses >= 1\n", count: 300)
    try store.save(state)
    let log = RuntimeLogCollector()
    let next = try F.manager(policy: Self.bundled, store: store, logger: log.logger)
    #expect(next.policyOrigin == .bundled)
  }
}
