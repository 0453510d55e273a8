import Foundation
import PolicyCore
import ReviewAnalysis
import Testing

@testable import ReviewPolicy

/// Remote policies: stale updates, the analyzer's warnings, guardrails, and the policy named in the log.
@Suite("runtime: remote policies")
struct RuntimeRemotePolicyTests {
  typealias F = RuntimeFixtures
  static let bundledA = "ask bundled_a when uses >= 100"
  static let bundledB = "ask bundled_b when uses >= 200"
  static let update = "ask updated when uses >= 1"
  static let guardrails = """
    never answered when declined_any or rated_any
    never yearly_cap when prompts_within(365d) >= 3
    """

  static func manager(
    bundled: String, store: any ReviewStore, clock: RuntimeTestClock = RuntimeTestClock(),
    logger: (@Sendable (ReviewLogEntry) -> Void)? = nil, guardrails: String? = nil,
    presenter: (any ReviewPresenter)? = nil, analyzeUpdates: Bool = true
  ) throws -> ReviewManager {
    var configuration = ReviewManager.Configuration(
      appVersion: "1.0", bundledPolicy: bundled, store: store, clock: clock.function, texts: .english,
      presenter: presenter, logger: logger, guardrails: guardrails)
    if analyzeUpdates { configuration.analyzeUpdates() }
    return try ReviewManager(configuration: configuration)
  }

  static func sourceText(_ policy: CompiledPolicy) -> String {
    String(decoding: policy.source.bytes, as: UTF8.self)
  }

  // MARK: - Stale updates

  @Test("an update received under bundled A yields to bundled B after an app update, and runs again under A")
  func staleUpdate() throws {
    let store = InMemoryReviewStore()
    let a = PolicyIdentity.fingerprint(of: Self.bundledA)
    let b = PolicyIdentity.fingerprint(of: Self.bundledB)
    let u = PolicyIdentity.fingerprint(of: Self.update)
    #expect(a != b)
    let first = try Self.manager(bundled: Self.bundledA, store: store)
    #expect(first.updatePolicy(Self.update).isAccepted)
    #expect(store.storedState?.policySource == Self.update)
    #expect(store.storedState?.policyReceivedUnder == a)

    // The app ships bundled policy B: B runs, the update stays stored, and the log says why.
    let log = RuntimeLogCollector()
    let underB = try Self.manager(bundled: Self.bundledB, store: store, logger: log.logger)
    #expect(underB.policyOrigin == .bundled)
    #expect(Self.sourceText(underB.currentPolicy) == Self.bundledB)
    let stale = log.entries(.policyStale)
    #expect(stale.count == 1)
    #expect(stale.first?.staleUpdate == StalePolicyUpdate(update: u, receivedUnder: a, bundled: b))
    #expect(stale.first?.policy == PolicyIdentity(origin: .bundled, fingerprint: b))
    #expect(stale.first?.summary.contains(a) == true && stale.first?.summary.contains(b) == true)
    underB.appLaunched()
    #expect(!underB.promptIfAppropriate())
    #expect(underB.currentDecision().decidingRules.isEmpty)
    #expect(store.storedState?.policySource == Self.update)

    // Back under A (for example a rollback): the stored update runs again.
    let underA = try Self.manager(bundled: Self.bundledA, store: store)
    #expect(underA.policyOrigin == .update)
    #expect(Self.sourceText(underA.currentPolicy) == Self.update)
    #expect(underA.promptIfAppropriate())

    // A new update under B takes over under B.
    #expect(underB.updatePolicy(Self.update).isAccepted)
    #expect(store.storedState?.policyReceivedUnder == b)
    let again = try Self.manager(bundled: Self.bundledB, store: store)
    #expect(again.policyOrigin == .update)
  }

  @Test("a manager still running sees another process's stale update as stale")
  func staleUpdateFromAnotherManager() throws {
    let store = InMemoryReviewStore()
    let log = RuntimeLogCollector()
    let underB = try Self.manager(bundled: Self.bundledB, store: store, logger: log.logger)
    let underA = try Self.manager(bundled: Self.bundledA, store: store)
    #expect(underA.updatePolicy(Self.update).isAccepted)
    underB.appLaunched()
    #expect(underB.policyOrigin == .bundled)
    #expect(log.entries(.policyStale).count == 1)
  }

  @Test("an update stored before fingerprints were kept keeps applying; the field round-trips through both coders")
  func backwardCompatibleState() throws {
    var state = ReviewState()
    state.version = "1.0"
    state.policySource = Self.update
    let old = try ReviewStateCoding.encode(state)
    #expect(!String(decoding: old, as: UTF8.self).contains("policyReceivedUnder"))
    let manager = try Self.manager(bundled: Self.bundledA, store: InMemoryReviewStore(state))
    #expect(manager.policyOrigin == .update)

    state.policyReceivedUnder = PolicyIdentity.fingerprint(of: Self.bundledA)
    let data = try ReviewStateCoding.encode(state)
    #expect(try ReviewStateCoding.decode(data).get() == state)
    #expect(try ReviewStateCoding.foundationDecode(data).get().state == state)
    #expect(try JSONDecoder().decode(ReviewState.self, from: old).policyReceivedUnder == nil)
  }

  @Test("fingerprints are stable 16-digit hashes of the source text")
  func fingerprints() {
    #expect(PolicyIdentity.fingerprint(of: "") == "cbf29ce484222325")
    #expect(PolicyIdentity.fingerprint(of: "a") == "af63dc4c8601ec8c")
    #expect(PolicyIdentity.fingerprint(of: Self.update).count == 16)
    #expect(PolicyIdentity(origin: .update, source: "a").description == "update af63dc4c8601ec8c")
  }

  // MARK: - Warnings

  @Test("an update without spacing, cap or respect for a decline is accepted with the etiquette warnings, logged")
  func updateWarnings() throws {
    let log = RuntimeLogCollector()
    let manager = try Self.manager(bundled: Self.bundledA, store: InMemoryReviewStore(), logger: log.logger)
    let result = manager.updatePolicy("ask when days >= 30 and uses >= 20")
    #expect(result.isAccepted)
    #expect(result.errors.isEmpty)
    let codes = result.warnings.map(\.code.rawValue)
    #expect(codes.contains("PC320") && codes.contains("PC321") && codes.contains("PC322"), "\(codes)")
    #expect(result.warnings.allSatisfy { $0.severity == .warning })
    #expect(result.renderedDiagnostics.contains("[PC320]"))
    let entry = log.entries(.policyUpdated).first
    #expect(entry?.summary == "policy updated")
    #expect(entry?.details == result.renderedDiagnostics)
    #expect(entry?.diagnostics.map(\.code.rawValue).contains("PC322") == true)
    #expect(entry?.policy == PolicyIdentity(origin: .update, source: "ask when days >= 30 and uses >= 20"))

    // A polite update has no etiquette warning.
    let polite = manager.updatePolicy(
      """
      never answered when declined or rated
      never too_soon when since(last_prompt) < 8w
      never yearly_cap when prompts_within(365d) >= 3
      ask when days >= 30 and uses >= 20
      """)
    #expect(polite.isAccepted)
    #expect(polite.warnings.isEmpty, "\(polite.renderedDiagnostics)")
    #expect(log.entries(.policyUpdated).last?.diagnostics.isEmpty == true)
  }

  @Test("without analyzeUpdates(), an update gets the compiler's diagnostics only: the runtime runs no analyzer")
  func updatesUnanalyzedByDefault() throws {
    let log = RuntimeLogCollector()
    let manager = try Self.manager(
      bundled: Self.bundledA, store: InMemoryReviewStore(), logger: log.logger, analyzeUpdates: false)
    let result = manager.updatePolicy("let unused = 3\nask when days >= 30 and uses >= 20")
    #expect(result.isAccepted)
    #expect(result.warnings.map(\.code) == [.unusedLet])
    #expect(log.entries(.policyUpdated).first?.diagnostics.map(\.code) == [.unusedLet])
    // The same update with the analysis: the etiquette warnings join the compiler's.
    let analyzed = try Self.manager(bundled: Self.bundledA, store: InMemoryReviewStore())
    let codes = analyzed.updatePolicy("let unused = 3\nask when days >= 30 and uses >= 20").warnings.map(
      \.code.rawValue)
    #expect(codes.contains("PC302") && codes.contains("PC320"), "\(codes)")
  }

  @Test("a rejected update returns its errors and its warnings")
  func rejectedUpdateWarnings() throws {
    let manager = try Self.manager(bundled: Self.bundledA, store: InMemoryReviewStore())
    let result = manager.updatePolicy("let unused = 3\nask when dayz >= 3")
    #expect(!result.isAccepted)
    #expect(result.errors.map(\.code) == [.unknownName])
    #expect(result.warnings.map(\.code) == [.unusedLet])
  }

  // MARK: - Guardrails

  @Test("a guardrail holds whatever the update says, and decisions, explanations and the log name it")
  func guardrailHolds() throws {
    let store = InMemoryReviewStore()
    let log = RuntimeLogCollector()
    let presenter = RuntimeRecordingPresenter(answer: .declined)
    let manager = try Self.manager(
      bundled: Self.bundledA, store: store, logger: log.logger, guardrails: Self.guardrails, presenter: presenter)
    #expect(manager.updatePolicy("ask when uses >= 0").isAccepted)
    manager.appLaunched()
    #expect(manager.promptIfAppropriate())  // declined by the presenter
    #expect(presenter.requests.count == 1)
    #expect(!manager.wouldAsk())
    let current = manager.currentDecision()
    #expect(!current.shouldAsk)
    #expect(current.guardrail == "never answered")
    #expect(current.decidingRules == ["guardrail never answered"])
    #expect(current.decision?.reason == .neverRuleHeld)
    let explanation = manager.explainCurrentDecision()
    #expect(explanation.summary == "don't ask: guardrail `never answered` held")
    #expect(explanation.decision?.shouldAsk == false)
    #expect(explanation.text.hasPrefix("decision: don't ask: guardrail `never answered` held\nrunning policy: ask: "))
    #expect(explanation.text.contains("guardrails:\nnever answered (line 1): held"), "\(explanation.text)")
    #expect(!manager.promptIfAppropriate())
    #expect(!manager.significantEvent())
    #expect(presenter.requests.count == 1)
    #expect(log.decisions.last?.summary == "don't ask: guardrail `never answered` held")
    #expect(log.decisions.last?.decision?.shouldAsk == false)
    // A new update cannot remove the guardrail.
    #expect(manager.updatePolicy("ask always when uses >= 0 or declined_any").isAccepted)
    #expect(!manager.promptIfAppropriate())
    #expect(presenter.requests.count == 1)
  }

  @Test("the yearly cap guardrail stops the fourth prompt in 365 days")
  func yearlyCap() throws {
    let clock = RuntimeTestClock()
    let presenter = RuntimeRecordingPresenter(answer: .remindLater)
    let manager = try Self.manager(
      bundled: "ask when uses >= 0", store: InMemoryReviewStore(), clock: clock, guardrails: Self.guardrails,
      presenter: presenter)
    for _ in 0..<5 {
      _ = manager.promptIfAppropriate()
      clock.advance(days: 30)
    }
    #expect(presenter.requests.count == 3)
    #expect(manager.currentDecision().guardrail == "never yearly_cap")
    clock.advance(days: 365)
    #expect(manager.promptIfAppropriate())
  }

  @Test("a guardrail that faults, or reads an app fact nobody set, fails closed")
  func guardrailFailsClosed() throws {
    let faulting = try Self.manager(
      bundled: "ask when uses >= 0", store: InMemoryReviewStore(),
      guardrails: "never broken when 10 / (uses - uses) > 1")
    #expect(!faulting.promptIfAppropriate())
    #expect(faulting.currentDecision().guardrail == "never broken")
    #expect(faulting.explainCurrentDecision().summary == "don't ask: guardrail `never broken` faulted (fails closed)")

    let unset = try Self.manager(
      bundled: "ask when uses >= 0", store: InMemoryReviewStore(),
      guardrails: "fact paying: bool\nnever paying when paying")
    #expect(!unset.promptIfAppropriate())
    #expect(unset.currentDecision().guardrail == "guardrails")
    #expect(unset.explainCurrentDecision().summary == "don't ask: the guardrails could not be evaluated (fails closed)")
    unset.setFact("paying", .bool(false))
    #expect(unset.promptIfAppropriate())
  }

  @Test("a tracker with guardrails decides as a manager does, and keeps them across versions and app facts")
  func trackerGuardrails() throws {
    let policy = try #require(
      PolicyCompiler.compile("ask when uses >= 0", schema: ReviewSchema.standard).policy)
    let guardrails = try #require(
      PolicyCompiler.compile(
        "fact paying: bool\nnever answered when declined_any\nnever paying when paying", schema: ReviewSchema.standard
      ).policy)
    var tracker = ReviewTracker(policy: policy, appVersion: "1.0")
    tracker.guardrailPolicy = guardrails
    #expect(tracker.unsetAppFacts.map(\.name) == ["paying"])
    let askedUnset = tracker.promptIfAppropriate(at: F.at(0))
    #expect(!askedUnset)  // `paying` is not set: fails closed
    tracker.setFact("paying", .bool(false))
    #expect(tracker.unsetAppFacts.isEmpty)
    #expect(tracker.decision(at: F.at(1))?.shouldAsk == true)
    tracker.recordWithoutPrompt(.declined, at: F.at(2))
    #expect(tracker.guardedDecision(at: F.at(3)).guardrail?.name == "never answered")
    let askedDeclined = tracker.promptIfAppropriate(at: F.at(3))
    #expect(!askedDeclined)
    var moved = tracker.moving(to: "2.0")
    #expect(moved.guardrailPolicy != nil)
    let askedMoved = moved.promptIfAppropriate(at: F.at(4))
    #expect(!askedMoved)
    moved.move(to: "3.0", build: nil)
    moved.setFact("paying", .bool(true))
    #expect(moved.explanation(at: F.at(5)).decision?.shouldAsk == false)
    moved.guardrailPolicy = nil
    let askedFree = moved.promptIfAppropriate(at: F.at(6))
    #expect(askedFree)
  }

  @Test("guardrails with an error or an `ask` rule make init throw")
  func invalidGuardrails() {
    for (source, expected) in [
      ("never when dayz > 3", "unknown name `dayz`"),
      ("never ok when declined\nask when uses > 3", "only `never` rules"),
    ] {
      do throws(ReviewManagerError) {
        _ = try ReviewManager(
          configuration: .init(
            appVersion: "1.0", bundledPolicy: Self.bundledA, store: InMemoryReviewStore(), guardrails: source))
        Issue.record("init should throw for \(source)")
      } catch {
        guard case .invalidGuardrails(let text) = error else {
          Issue.record("wrong error \(error)")
          continue
        }
        #expect(text.contains(expected), "\(text)")
        #expect(error.description.hasPrefix("the guardrails do not compile"))
      }
    }
  }

  // MARK: - The policy in the log

  @Test("every decision entry names the policy's origin and fingerprint")
  func decisionsNameThePolicy() throws {
    let log = RuntimeLogCollector()
    let manager = try Self.manager(bundled: Self.bundledA, store: InMemoryReviewStore(), logger: log.logger)
    #expect(!manager.promptIfAppropriate())
    #expect(manager.updatePolicy(Self.update).isAccepted)
    manager.appLaunched()
    #expect(manager.significantEvent())
    manager.resetPolicy()
    _ = manager.action(score: 1)
    let policies = log.decisions.map(\.policy)
    let bundled = PolicyIdentity(origin: .bundled, source: Self.bundledA)
    let update = PolicyIdentity(origin: .update, source: Self.update)
    #expect(policies == [bundled, update, bundled])
    #expect(log.entries(.policyReset).first?.policy == bundled)
  }

  // MARK: - Unset app facts

  @Test("an app fact nobody sets is reported once through the logger and in every explanation")
  func unsetFactReported() throws {
    let log = RuntimeLogCollector()
    let manager = try Self.manager(
      bundled: "fact plan: string\nfact crashed: bool?\nask pro when plan == \"pro\"", store: InMemoryReviewStore(),
      logger: log.logger)
    manager.appLaunched()
    #expect(log.entries(.unsetFact).isEmpty)  // only calls that decide report it
    #expect(!manager.promptIfAppropriate())
    #expect(!manager.significantEvent())
    let reports = log.entries(.unsetFact)
    #expect(reports.count == 1)
    #expect(reports.first?.name == "plan")
    let call = "manager.setFact(\"plan\", .string(\"…\"))"
    #expect(reports.first?.summary.contains(call) == true, "\(reports.first?.summary ?? "")")
    #expect(reports.first?.summary.hasPrefix("app fact `plan` (string) is not set") == true)
    #expect(manager.explainCurrentDecision().text.contains(call))
    manager.setFact("plan", .string("pro"))
    #expect(!manager.explainCurrentDecision().text.contains(call))
    #expect(manager.promptIfAppropriate())
    #expect(log.entries(.unsetFact).count == 1)
    #expect(log.entries(.factSet).map(\.summary) == ["app fact `plan` set to \"pro\""])
  }

  @Test("an app fact with a declared default is never reported as unset, and decides with its default")
  func factWithDefaultNotReported() throws {
    let log = RuntimeLogCollector()
    let manager = try Self.manager(
      bundled: "fact plan: string = \"pro\"\nfact crashed: bool\nask pro when plan == \"pro\" and not crashed",
      store: InMemoryReviewStore(), logger: log.logger)
    manager.appLaunched()
    #expect(!manager.promptIfAppropriate())  // `crashed` has no default and is unset
    #expect(log.entries(.unsetFact).map(\.name) == ["crashed"])
    manager.setFact("crashed", .bool(false))
    #expect(manager.promptIfAppropriate())  // `plan` decides with its default
    #expect(log.entries(.unsetFact).map(\.name) == ["crashed"])
  }
}
