import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

// MARK: - The original

/// RateOurAppHelper (the "Snippet of the Week: Rating Your App" code, seed file 002; reference notes,
/// section 4) with `actionThreshold` 2, a fresh helper per call over one `UserDefaults`, as intended.
struct RateOurAppOriginal: CustomStringConvertible {
  /// Switches for each documented deliberate difference.
  struct Mode: Sendable {
    /// Swift does not run `didSet` during `init`, so a helper created with no stored version never stores
    /// the bundle version: every later helper starts from the running version, `performMigration()` never
    /// sees a change, and "feedback" / "maybe later" silence the helper for good (true). The post's intent,
    /// and the project's: they silence it until the next app version (false).
    var versionNeverStored: Bool
    /// `trigger` never looks at whether the app's dialog is still on screen, so the app is told to show
    /// another (true); the project never asks while a prompt is showing (false).
    var asksWhileDialogUp: Bool

    static let asCoded = Mode(versionNeverStored: true, asksWhileDialogUp: true)
    static let asIntended = Mode(versionNeverStored: false, asksWhileDialogUp: false)
  }

  enum UserSelection: Int, CaseIterable, Sendable {
    case noSelection = 0
    case writeReview, giveFeedback, maybeLater
  }

  /// What the user does with the app's dialog: one of its three choices, or nothing (the app never calls
  /// `saveUserSelection`), or nothing yet (`hold`: the dialog stays up and is answered at a later step).
  enum Answer: String, CaseIterable, Sendable {
    case writeReview = "review"
    case giveFeedback = "feedback"
    case maybeLater = "later"
    case none
    case hold

    var selection: UserSelection? {
      switch self {
      case .writeReview: .writeReview
      case .giveFeedback: .giveFeedback
      case .maybeLater: .maybeLater
      case .none, .hold: nil
      }
    }

    /// What the manager's presenter answers for it (nothing while the dialog stays up).
    var response: ReviewResponse? {
      switch self {
      case .writeReview: .rated
      case .giveFeedback: .feedback
      case .maybeLater: .remindLater
      case .none: .dismissed
      case .hold: nil
      }
    }
  }

  /// A helper instance: `init(actionThreshold:userDefaults:bundle:)` reads the three keys.
  struct Helper {
    var lastKnownAppVersion: String
    var actionCounter: Int
    var userSelection: UserSelection
  }

  let actionThreshold = 2
  let mode: Mode

  // UserDefaults.
  var storedLastKnownAppVersion: String?
  var storedActionCounter = 0
  var storedUserSelection = 0

  /// Whether the app's dialog is on screen (the app's, not stored).
  var dialogVisible = false

  /// `CFBundleShortVersionString` of the running app.
  var bundleVersion: String

  init(bundleVersion: String, mode: Mode) {
    self.bundleVersion = bundleVersion
    self.mode = mode
  }

  /// `RateOurAppHelper()`.
  private mutating func helper() -> Helper {
    let version: String
    if let stored = storedLastKnownAppVersion {
      version = stored
    } else {
      version = bundleVersion
      // As coded, this assignment happens in `init`, where `didSet` does not run.
      if !mode.versionNeverStored { storedLastKnownAppVersion = version }
    }
    return Helper(
      lastKnownAppVersion: version, actionCounter: storedActionCounter,
      userSelection: UserSelection(rawValue: storedUserSelection) ?? .noSelection)
  }

  // MARK: Entry points (each on a fresh helper)

  /// `performMigration()`, at every launch.
  mutating func performMigration() {
    let helper = helper()
    let currentAppVersion = bundleVersion
    if currentAppVersion != helper.lastKnownAppVersion {
      storedLastKnownAppVersion = currentAppVersion
      storedActionCounter = 0
      if helper.userSelection != .writeReview {
        storedUserSelection = UserSelection.noSelection.rawValue
      }
    }
  }

  /// `increaseActionCounter()`.
  mutating func increaseActionCounter() {
    let helper = helper()
    storedActionCounter = helper.actionCounter + 1
  }

  /// `trigger(notificationCenter:handler:)`: returns whether the dialog is shown (`shouldAskUser()`).
  mutating func trigger() -> Bool {
    let helper = helper()
    if dialogVisible && !mode.asksWhileDialogUp { return false }
    return helper.userSelection == .noSelection && helper.actionCounter >= actionThreshold
  }

  /// `saveUserSelection(_:)`.
  mutating func saveUserSelection(_ selection: UserSelection) {
    _ = helper()
    storedUserSelection = selection.rawValue
  }

  var description: String {
    "lastKnownAppVersion=\(storedLastKnownAppVersion ?? "nil (not stored)") (bundle \(bundleVersion)) "
      + "actionCounter=\(storedActionCounter) userSelection=\(UserSelection(rawValue: storedUserSelection) ?? .noSelection)"
  }
}

// MARK: - Histories

enum RateOurAppStep: Sendable, CustomStringConvertible {
  case wait(Int64)
  /// A launch: `performMigration()`; the manager's `appLaunched()`.
  case launch
  /// A return to the foreground: nothing to the helper; the manager's `appEnteredForeground()`.
  case foreground
  /// `increaseActionCounter()`; the manager's `significantEvent(mayPrompt: false)`.
  case action
  /// `trigger()`, and the user's answer if the dialog shows; the manager's `promptIfAppropriate()`.
  case trigger(RateOurAppOriginal.Answer)
  /// The user answers the dialog still on screen (nothing if none is up): the manager's held reply.
  case answer(RateOurAppOriginal.Answer)
  /// The process starts again, running `version`.
  case relaunch(String)

  var description: String {
    switch self {
    case .wait(let gap): "+\(EquivTime.describe(gap))"
    case .launch: "L"
    case .foreground: "F"
    case .action: "A"
    case .trigger(let answer): "T?\(answer.rawValue)"
    case .answer(let answer): "A:\(answer.rawValue)"
    case .relaunch(let version): "R(\(version))"
    }
  }
}

enum RateOurAppDriver: EquivDriver {
  typealias Step = RateOurAppStep
  typealias Mode = RateOurAppOriginal.Mode

  static let name = "RateOurAppHelper"

  static func generate(_ random: inout EquivRandom) -> [RateOurAppStep] {
    let length = random.int(50...200)
    var version = EquivVersions.initial
    var steps: [RateOurAppStep] = [.launch]
    func choice(_ random: inout EquivRandom) -> RateOurAppOriginal.Answer {
      random.pick([.writeReview, .giveFeedback, .giveFeedback, .maybeLater, .maybeLater])
    }
    while steps.count < length {
      if case .trigger(.hold) = steps.last {
        // The dialog stays up (the helper does nothing when the app leaves): time passes, the app goes to the
        // background and comes back, counts actions and triggers again; then the user chooses.
        for _ in 0..<random.int(0...3) {
          switch random.int(0..<4) {
          case 0: steps.append(.wait(random.lateGap()))
          case 1: steps.append(.foreground)
          case 2: steps.append(.action)
          default: steps.append(.trigger(choice(&random)))
          }
        }
        steps.append(.wait(random.lateGap()))
        steps.append(.answer(choice(&random)))
      }
      switch random.int(0..<100) {
      case 0..<8:
        if random.chance(0.75) { version = EquivVersions.upgrade(version, &random) }
        steps.append(.relaunch(version))
        steps.append(.launch)
      case 8..<11: steps.append(.foreground)
      case 11..<20: steps.append(.wait(random.gap()))
      case 20..<55: steps.append(.action)
      default:
        steps.append(
          .trigger(random.pick([.writeReview, .giveFeedback, .giveFeedback, .maybeLater, .maybeLater, .none, .hold])))
      }
    }
    return steps
  }

  /// The app calls `performMigration()` first at every launch: after an update, nothing else comes before it.
  static func isValid(_ history: [RateOurAppStep]) -> Bool {
    var running = EquivVersions.initial
    var migrated = EquivVersions.initial
    for step in history {
      switch step {
      case .relaunch(let version): running = version
      case .launch: migrated = running
      case .action, .trigger: if migrated != running { return false }
      case .wait, .foreground, .answer: break
      }
    }
    return true
  }

  static func run(_ history: [RateOurAppStep], mode: Mode, policy: String, explain: Bool) throws -> EquivOutcome {
    let clock = EquivClock()
    var original = RateOurAppOriginal(bundleVersion: EquivVersions.initial, mode: mode)
    let harness = try EquivHarness(policy: policy, appVersion: EquivVersions.initial, clock: clock, explain: explain)
    var outcome = EquivOutcome()
    var dialogShownAt: Int64?
    for (index, step) in history.enumerated() {
      var originalPrompted: Bool?
      var managerPrompted = false
      switch step {
      case .launch, .relaunch:
        // A launch is a new process: a dialog still up is gone, unanswered.
        if original.dialogVisible {
          original.dialogVisible = false
          harness.promptGone()
        }
      case .foreground:
        if original.dialogVisible { outcome.leftWithAlertUp += 1 }
      case .trigger:
        if original.dialogVisible { outcome.checksWhileUp += 1 }
      case .wait, .action, .answer: break
      }
      switch step {
      case .wait(let gap):
        clock.advance(gap)
      case .answer(let answer):
        if original.dialogVisible, let selection = answer.selection, let response = answer.response {
          original.dialogVisible = false
          original.saveUserSelection(selection)
          let delay = clock.milliseconds - (dialogShownAt ?? clock.milliseconds)
          outcome.lateAnswer(after: delay)
          harness.answerLater(response, delay: delay)
        }
      case .launch:
        original.performMigration()
        managerPrompted = harness.silent { $0.appLaunched() }
      case .foreground:
        managerPrompted = harness.silent { $0.appEnteredForeground() }
      case .action:
        original.increaseActionCounter()
        managerPrompted = harness.silent { $0.significantEvent(mayPrompt: false) }
      case .trigger(let answer):
        let shown = original.trigger()
        if shown, let selection = answer.selection { original.saveUserSelection(selection) }
        if shown, answer == .hold {
          original.dialogVisible = true
          dialogShownAt = clock.milliseconds
        }
        originalPrompted = shown
        managerPrompted = harness.prompted(answering: answer.response) { $0.promptIfAppropriate() }
      case .relaunch(let version):
        original.bundleVersion = version
        try harness.relaunch(appVersion: version)
      }
      if !harness.timestampIsExact || !harness.inconsistencies.isEmpty {
        outcome.fail(
          step: index, "harness: inexact timestamp or \(harness.inconsistencies)", state: original.description,
          explanation: harness.explanation)
        break
      }
      let keepGoing = outcome.record(
        step: index, original: originalPrompted, manager: managerPrompted, state: original.description,
        explanation: harness.explanation)
      if !keepGoing { break }
    }
    return outcome
  }
}

// MARK: - Tests

@Suite("Equivalence: RateOurAppHelper")
struct EquivalenceRateOurAppTests {
  static let policy = (try? EquivPolicies.example("rate-our-app")) ?? ""
  static let histories = 2_000
  static let shards = 4

  @Test("the example policy loads and compiles")
  func policyLoads() throws {
    #expect(Self.policy.contains("ask rate_our_app"))
    _ = try EquivHarness(policy: Self.policy, appVersion: "1.0", clock: EquivClock(), explain: false)
  }

  @Test("random histories: the manager prompts exactly when RateOurAppHelper (as intended) does", arguments: 0..<shards)
  func randomHistories(shard: Int) throws {
    let seeds = EquivProperty.seeds(base: 70_000, count: Self.histories, shard: shard, of: Self.shards)
    let stats = try EquivProperty.check(RateOurAppDriver.self, seeds: seeds, mode: .asIntended, policy: Self.policy)
    print("Equivalence: RateOurAppHelper shard \(shard): \(stats)")
    #expect(stats.mismatches == 0)
    #expect(stats.originalPrompts > stats.histories)
    // Not vacuous: the dialog stays up across foregrounds and time, is answered late and triggered while up.
    #expect(stats.answersAfterTimeout > stats.histories / 10 && stats.checksWhileUp > stats.histories / 20)
    #expect(stats.leftWithAlertUp > stats.histories / 20)
  }

  @Test("as coded, random histories run into the documented difference (the didSet bug)")
  func codedDifferenceIsReached() throws {
    let found = try EquivProperty.firstDisagreement(
      RateOurAppDriver.self, seeds: (70_000..<70_000 + 1_000).map { UInt64($0) }, mode: RateOurAppOriginal.Mode.asCoded,
      policy: Self.policy)
    let report = try #require(found.report, "no disagreement in \(found.histories) histories as coded")
    print("Equivalence: RateOurAppHelper as coded, first disagreement after \(found.histories) histories:\n\(report)")
    #expect(RateOurAppDriver.isValid(found.minimised))
    let replay = try RateOurAppDriver.run(
      found.minimised, mode: RateOurAppOriginal.Mode.asIntended, policy: Self.policy, explain: false)
    #expect(replay.mismatch == nil, "the minimised history also disagrees as intended")
  }

  @Test("the histories are sharp enough to catch each condition")
  func mutantsAreCaught() throws {
    let mutants = [
      ("events >= 2 ", "events > 2 "),
      ("events >= 2 ", "total_events >= 2 "),
      ("and not rated_any", "and not rated"),
      ("and not feedback", ""),
      ("and not has last_reminder", ""),
    ]
    for (old, new) in mutants {
      let policy = EquivPolicies.mutant(Self.policy, replacing: old, with: new)
      let stats = try EquivProperty.check(
        RateOurAppDriver.self, seeds: (80_000..<80_400).map { UInt64($0) }, mode: .asIntended, policy: policy,
        reports: 0, stopAtFirstMismatch: true)
      #expect(stats.mismatches > 0, "mutant `\(old)` → `\(new)` was not caught in \(stats.histories) histories")
    }
  }

  /// Two actions and a dialog that stays up; the app goes to the background and comes back, counts an
  /// action and triggers again (the dialog is still up); 3 hours later the user chooses `answer`; an hour
  /// later two more actions and a trigger.
  static func dialogLeftUp(_ answer: RateOurAppOriginal.Answer) -> [RateOurAppStep] {
    [
      .launch, .action, .action, .trigger(.hold), .wait(EquivTime.hour), .foreground, .action,
      .trigger(.writeReview), .wait(2 * EquivTime.hour), .answer(answer), .wait(EquivTime.hour), .action, .action,
      .trigger(.maybeLater),
    ]
  }

  @Test("the dialog answered 3 hours later, after a return to the foreground: recorded and respected")
  func lateChoiceIsRecorded() throws {
    for answer in [RateOurAppOriginal.Answer.maybeLater, .giveFeedback, .writeReview] {
      let outcome = try RateOurAppDriver.run(
        Self.dialogLeftUp(answer), mode: .asIntended, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.manager) == [true, false, false])
      #expect((outcome.lateAnswers, outcome.answersAfterTimeout, outcome.checksWhileUp) == (1, 1, 1))
    }
  }

  @Test("difference: the helper tells the app to show its dialog again while it is up; the manager does not ask")
  func differenceAsksWhileDialogUp() throws {
    let history = Self.dialogLeftUp(.maybeLater)
    let coded = try RateOurAppDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == 7)
    #expect(mismatch.original && !mismatch.manager)

    var flipped = RateOurAppOriginal.Mode.asCoded
    flipped.asksWhileDialogUp = false
    let intended = try RateOurAppDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
  }

  /// Two actions, "maybe later", an update, two actions and a trigger. As coded, the version was never
  /// stored, so the migration sees no change and "maybe later" still holds: no dialog. As intended (and in
  /// the manager), the update resets the choice and the counter: the dialog shows again.
  static let maybeLaterThenUpdate: [RateOurAppStep] = [
    .launch, .action, .action, .trigger(.maybeLater), .trigger(.maybeLater), .wait(EquivTime.week),
    .relaunch("1.1.0"), .launch, .action, .trigger(.giveFeedback), .action, .trigger(.giveFeedback),
  ]

  @Test("difference: as coded, \"maybe later\" and \"feedback\" silence the helper for good (the didSet bug)")
  func differenceDidSet() throws {
    let history = Self.maybeLaterThenUpdate
    let coded = try RateOurAppDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(!mismatch.original && mismatch.manager)
    #expect(coded.decisions.map(\.original) == [true, false, false, false])

    var flipped = RateOurAppOriginal.Mode.asCoded
    flipped.versionNeverStored = false
    let intended = try RateOurAppDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.map(\.original) == [true, false, false, true])

    // "Write a review" silences both for good, whatever the mode.
    let review = history.map { step -> RateOurAppStep in
      if case .trigger(.maybeLater) = step { return .trigger(.writeReview) }
      return step
    }
    for mode in [RateOurAppOriginal.Mode.asCoded, flipped] {
      let outcome = try RateOurAppDriver.run(review, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [true, false, false, false])
    }
  }
}
