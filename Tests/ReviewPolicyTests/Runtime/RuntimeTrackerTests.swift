import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// `ReviewTracker` is the manager's core: the same calls at the same instants must leave a
/// tracker and a manager (over a memory store) in the same state with the same prompts.
@Suite("ReviewTracker: the manager's core")
struct RuntimeTrackerTests {
  /// One call an app makes.
  enum Step: CaseIterable {
    case launch, foreground, sessionStart, sessionEnd, event, namedEvent, quietEvent, goodAction, badAction
    case promptCheck, setFact, update
  }

  /// The steps with their weights: mostly use, rarely an app update.
  static let weighted: [Step] =
    Array(repeating: .launch, count: 6) + Array(repeating: .foreground, count: 6)
    + Array(repeating: .sessionStart, count: 4) + Array(repeating: .sessionEnd, count: 4)
    + Array(repeating: .event, count: 6) + Array(repeating: .namedEvent, count: 6) + [.quietEvent, .quietEvent]
    + Array(repeating: .goodAction, count: 4) + [.badAction, .badAction] + Array(repeating: .promptCheck, count: 6)
    + [.setFact, .setFact, .update]

  /// Drives a manager and a tracker through the same random history of `steps` calls and
  /// checks after each call that their states and their prompts agree.
  ///
  /// The manager is re-created over the same store on each app update (as at a launch of the new
  /// version); the tracker moves to the new version. Prompts are answered with a seeded answer.
  private func agree(policyName: String, seed: UInt64, steps: Int) throws -> (prompts: Int, updates: Int) {
    let source = try EquivPolicies.example(policyName)
    let compiled = try #require(PolicyCompiler.compile(source, schema: ReviewSchema.standard).policy)
    var random = EquivRandom(seed: seed)
    let clock = RuntimeTestClock()
    let store = InMemoryReviewStore()
    let answers = RuntimeRecordingPresenter(answer: .remindLater)
    var version = "1.0"
    func makeManager() throws -> ReviewManager {
      try ReviewManager(
        configuration: .init(
          appVersion: version, bundledPolicy: source, store: store, clock: clock.function, texts: .defaults(for: "en"),
          presenter: answers))
    }
    var manager = try makeManager()
    var tracker = ReviewTracker(policy: compiled, appVersion: version)
    var appFacts: [(String, Value?)] = []
    var prompts = 0
    var updates = 0
    let responses: [ReviewResponse] = [.rated, .declined, .remindLater, .remindLater, .dismissed, .feedback, .unknown]
    for index in 0..<steps {
      clock.advance(seconds: Double(random.next() % 30_000))
      let now = Timestamp(clock.now)
      let step = RuntimeTrackerTests.weighted[Int(random.next() % UInt64(RuntimeTrackerTests.weighted.count))]
      let answer = responses[Int(random.next() % UInt64(responses.count))]
      answers.setAnswer(answer)
      var managerAsked = false
      var trackerAsked = false
      switch step {
      case .launch:
        manager.appLaunched()
        tracker.launch(at: now, countingUse: true)
      case .foreground:
        manager.appEnteredForeground()
        tracker.countUse(at: now)
      case .sessionStart:
        manager.sessionStarted()
        tracker.startSession(at: now)
      case .sessionEnd:
        manager.sessionEnded()
        tracker.endSession(at: now)
      case .event, .namedEvent, .quietEvent:
        let name: String? = step == .event ? nil : ["export", "purchase", String(repeating: "é", count: 70)][index % 3]
        managerAsked = manager.significantEvent(name, mayPrompt: step != .quietEvent)
        tracker.countEvent(named: name, at: now)
        if step != .quietEvent { trackerAsked = tracker.promptIfAppropriate(at: now) }
      case .goodAction, .badAction:
        let score = step == .badAction ? -150.0 : Double(40 + random.next() % 80)
        manager.action(score: score, isBad: step == .badAction, mayPrompt: false)
        tracker.addAction(score: score, isBad: step == .badAction, at: now)
      case .promptCheck:
        managerAsked = manager.promptIfAppropriate()
        trackerAsked = tracker.promptIfAppropriate(at: now)
      case .setFact:
        let value: Value? =
          switch random.next() % 4 {
          case 0: .string("pro")
          case 1: .string("free")
          case 2: .bool(random.next() % 2 == 0)
          default: nil
          }
        let name = value.map { if case .bool = $0 { "crashed_this_session" } else { "plan" } } ?? "plan"
        manager.setFact(name, value)
        tracker.setFact(name, value)
        appFacts.append((name, value))
      case .update:
        version = EquivVersions.upgrade(version, &random)
        manager = try makeManager()
        for (name, value) in appFacts { manager.setFact(name, value) }
        tracker = tracker.moving(to: version)
        updates += 1
      }
      if trackerAsked {
        tracker.record(answer, at: now)
        prompts += 1
      }
      #expect(managerAsked == trackerAsked, "step \(index) (\(step)) of seed \(seed)")
      #expect(manager.currentState == tracker.state, "step \(index) (\(step)) of seed \(seed)")
      if manager.currentState != tracker.state || managerAsked != trackerAsked { break }
    }
    return (prompts, updates)
  }

  @Test(
    "random histories: a tracker and a manager agree at every step", arguments: ["review", "armchair", "reviewkit"])
  func agreesWithManager(policy: String) throws {
    var prompts = 0
    var updates = 0
    for seed in UInt64(1)...25 {
      let result = try agree(policyName: policy, seed: seed, steps: 600)
      prompts += result.prompts
      updates += result.updates
    }
    // The histories reach prompts and updates, or the comparison would prove little.
    #expect(prompts > 0, "\(policy): \(prompts) prompts")
    #expect(updates > 25)
  }

  @Test("moving to a new version keeps the history and the app facts and restarts the version's counts")
  func movingToNewVersion() throws {
    let source = """
      fact plan: string
      ask paying when plan == "pro" and uses >= 2
      """
    let compiled = try #require(PolicyCompiler.compile(source, schema: ReviewSchema.standard).policy)
    let start = Timestamp(millisecondsSince1970: RuntimeFixtures.startMilliseconds)
    var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
    tracker.setFact("plan", .string("pro"))
    tracker.countUse(at: start)
    tracker.countUse(at: start)
    #expect(tracker.state.uses == 2)
    var moved = tracker.moving(to: "1.1")
    #expect(moved.appVersion == "1.1")
    #expect(moved.appFacts["plan"] == .string("pro"))
    let askedBeforeUse = moved.promptIfAppropriate(at: start)
    #expect(askedBeforeUse == false)  // the new version has no uses yet
    #expect(moved.state.uses == 0 && moved.state.totalUses == 2 && moved.state.previousVersion == "1.0")
    moved.countUse(at: start)
    moved.countUse(at: start)
    let askedAfterUses = moved.promptIfAppropriate(at: start)
    #expect(askedAfterUses)
    #expect(moved.state.promptHistory.last?.outcome == .pending)
    #expect(moved.state.promptHistory.last?.version == "1.1")
  }

  @Test("fails closed: an app version that does not parse never asks and records no prompt")
  func unparsableVersionNeverAsks() throws {
    let compiled = try #require(PolicyCompiler.compile("ask always when true", schema: ReviewSchema.standard).policy)
    let now = Timestamp(millisecondsSince1970: RuntimeFixtures.startMilliseconds)
    var tracker = ReviewTracker(policy: compiled, appVersion: "beta")
    let asked = tracker.promptIfAppropriate(at: now)
    #expect(asked == false)
    #expect(tracker.state.prompts == 0 && tracker.state.promptHistory.isEmpty)
    #expect(tracker.explanation(at: now).summary.contains("does not start with a number"))
    var fixed = tracker.moving(to: "2.0 (45)")
    let askedWhenFixed = fixed.promptIfAppropriate(at: now)
    #expect(askedWhenFixed)
  }

  @Test("app facts of the wrong type or undeclared, and standard names, are ignored; a removed one is absent")
  func appFactsAreChecked() throws {
    let source = """
      fact plan: string?
      ask paying when (plan ?? "free") == "pro"
      """
    let compiled = try #require(PolicyCompiler.compile(source, schema: ReviewSchema.standard).policy)
    let now = Timestamp(millisecondsSince1970: RuntimeFixtures.startMilliseconds)
    var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
    tracker.setFact("plan", .int(3))
    tracker.setFact("unknown", .string("pro"))
    tracker.setFact("days", .int(400))
    #expect(try tracker.facts(at: now).get().value(of: "plan") == nil)
    let asked = tracker.promptIfAppropriate(at: now)
    #expect(asked == false)
    tracker.setFact("plan", .string("pro"))
    #expect(try tracker.facts(at: now).get().value(of: "plan") == .string("pro"))
    let askedForPro = tracker.promptIfAppropriate(at: now)
    #expect(askedForPro)
    tracker.setFact("plan", nil)
    #expect(try tracker.facts(at: now).get().value(of: "plan") == nil)
  }
}
