import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Policy updates: accepted, rejected, stored across launches, falling back, reset; invalid bundled policies.
@Suite("runtime: policy updates")
struct RuntimePolicyUpdateTests {
  typealias F = RuntimeFixtures
  static let bundled = "ask bundled when uses >= 100"
  static let update = "ask updated when uses >= 1"

  static func sourceText(_ policy: CompiledPolicy) -> String {
    String(decoding: policy.source.bytes, as: UTF8.self)
  }

  @Test("an accepted update replaces the running policy, is stored, and runs in the next launch")
  func acceptedUpdate() throws {
    let store = InMemoryReviewStore()
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: Self.bundled, store: store, logger: log.logger)
    manager.appLaunched()
    #expect(!manager.promptIfAppropriate())
    #expect(manager.policyOrigin == .bundled)

    let result = manager.updatePolicy(Self.update)
    #expect(result.isAccepted)
    #expect(!result.diagnostics.hasErrors)
    #expect(manager.policyOrigin == .update)
    #expect(Self.sourceText(manager.currentPolicy) == Self.update)
    #expect(store.storedState?.policySource == Self.update)
    #expect(log.entries(.policyUpdated).count == 1)
    #expect(manager.explainCurrentDecision().summary == "ask: `ask updated` held")
    #expect(manager.promptIfAppropriate())

    let next = try F.manager(policy: Self.bundled, store: store)
    #expect(next.policyOrigin == .update)
    #expect(Self.sourceText(next.currentPolicy) == Self.update)
    #expect(next.explainCurrentDecision().summary == "ask: `ask updated` held")
  }

  @Test("an update with warnings only is accepted and returns the warnings")
  func updateWithWarnings() throws {
    let manager = try F.manager(policy: Self.bundled)
    let result = manager.updatePolicy("let unused = 3\nask when uses >= 1")
    #expect(result.isAccepted)
    #expect(result.diagnostics.map(\.code) == [.unusedLet])
    #expect(result.renderedDiagnostics.contains("[PC302]"))
  }

  @Test("an update under which no user is ever asked (PC319) pauses prompts: accepted, the error reported and logged")
  func updateThatNeverAsks() throws {
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: "ask when uses >= 1", logger: log.logger, analyzeUpdates: true)
    manager.appLaunched()
    // `rated` implies `rated_any`: the ask rule never decides.
    let result = manager.updatePolicy("never answered when rated_any\nask happy when uses >= 1 and rated")
    #expect(result.isAccepted)
    #expect(result.errors.isEmpty)
    #expect(result.warnings.map(\.code).contains(.neverAsks))
    #expect(result.renderedDiagnostics.contains("[PC319]"))
    #expect(log.entries(.policyUpdated).count == 1)
    #expect(!manager.promptIfAppropriate())
  }

  static let rejectedUpdates: [(name: String, source: String, code: DiagnosticCode)] = [
    ("an unknown fact", "ask when karma > 3", .unknownName),
    ("a misspelled fact", "ask when dayz >= 3", .unknownName),
    ("a type error", "ask when since(last_prompt) >= 30", .incomparableTypes),
    ("a syntax error", "ask when uses >=", .expectedExpression),
    ("an unguarded absent value", "ask when last_prompt_version < v2.0", .unguardedAbsentValue),
    (
      "deep nesting",
      "ask when " + String(repeating: "(", count: 500) + "uses > 1" + String(repeating: ")", count: 500),
      .nestingTooDeep
    ),
    ("a 10 MB string", "ask when uses > 1 # " + String(repeating: "x", count: 10 * 1024 * 1024), .fileTooLarge),
    ("a non-ASCII operator", "ask when uses ≥ 3", .unexpectedCharacter),
  ]

  @Test(
    "a rejected update keeps the running policy, stores nothing and returns its diagnostics",
    arguments: RuntimePolicyUpdateTests.rejectedUpdates)
  func rejectedUpdate(name: String, source: String, code: DiagnosticCode) throws {
    let store = InMemoryReviewStore()
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: Self.bundled, store: store, logger: log.logger)
    #expect(manager.updatePolicy(Self.update).isAccepted)
    manager.appLaunched()

    let result = manager.updatePolicy(source)
    #expect(!result.isAccepted, "\(name)")
    #expect(result.diagnostics.hasErrors)
    #expect(result.diagnostics.contains { $0.code == code }, "\(name): \(result.diagnostics.map(\.code))")
    #expect(result.renderedDiagnostics.contains("[\(code.rawValue)]"))
    #expect(result.renderedDiagnostics.contains("update.policy"))
    #expect(manager.policyOrigin == .update)
    #expect(Self.sourceText(manager.currentPolicy) == Self.update)
    #expect(store.storedState?.policySource == Self.update)
    #expect(manager.promptIfAppropriate())
    let rejected = log.entries(.policyRejected)
    #expect(rejected.count == 1)
    #expect(rejected.first?.details == result.renderedDiagnostics)
  }

  @Test("a stored update that no longer compiles falls back to the bundled policy and logs a problem")
  func storedUpdateNoLongerCompiles() throws {
    var state = ReviewState()
    state.version = "1.0"
    state.policySource = "ask when retired_fact > 3"
    let store = InMemoryReviewStore(state)
    let log = RuntimeLogCollector()
    let manager = try F.manager(policy: Self.bundled, store: store, logger: log.logger)
    #expect(manager.policyOrigin == .bundled)
    #expect(Self.sourceText(manager.currentPolicy) == Self.bundled)
    let problems = log.entries(.problem)
    #expect(problems.map(\.summary) == ["the stored policy update no longer compiles; using the bundled policy"])
    manager.appLaunched()
    #expect(!manager.promptIfAppropriate())
    #expect(manager.currentState.uses == 1)
    // A new, valid update takes over again.
    #expect(manager.updatePolicy(Self.update).isAccepted)
    #expect(manager.promptIfAppropriate())
  }

  @Test("an invalid bundled policy makes init throw with the rendered diagnostics")
  func invalidBundledPolicy() {
    do throws(ReviewManagerError) {
      _ = try ReviewManager(
        configuration: .init(appVersion: "1.0", bundledPolicy: "ask when dayz >= 3", store: InMemoryReviewStore()))
      Issue.record("init should throw")
    } catch {
      guard case .invalidBundledPolicy(let rendered) = error else { return }
      #expect(rendered.contains("bundled.policy:1:10: error: unknown name `dayz`"), "\(rendered)")
      #expect(rendered.contains("[PC201]"))
      #expect(error.description == "the bundled policy does not compile:\n" + rendered)
    }
  }

  @Test("resetPolicy goes back to the bundled policy and forgets the stored update")
  func resetPolicy() throws {
    let store = InMemoryReviewStore()
    let manager = try F.manager(policy: Self.bundled, store: store)
    #expect(manager.updatePolicy(Self.update).isAccepted)
    manager.resetPolicy()
    #expect(manager.policyOrigin == .bundled)
    #expect(Self.sourceText(manager.currentPolicy) == Self.bundled)
    #expect(store.storedState?.policySource == nil)
    let next = try F.manager(policy: Self.bundled, store: store)
    #expect(next.policyOrigin == .bundled)
  }

  @Test("an update persists through a JSON file store")
  func updatePersistsInFile() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let store = JSONFileStore(url: directory.file("state.json"))
    let manager = try F.manager(policy: Self.bundled, store: store)
    #expect(manager.updatePolicy(Self.update).isAccepted)
    let next = try F.manager(policy: Self.bundled, store: JSONFileStore(url: directory.file("state.json")))
    #expect(next.policyOrigin == .update)
    #expect(Self.sourceText(next.currentPolicy) == Self.update)
  }
}
