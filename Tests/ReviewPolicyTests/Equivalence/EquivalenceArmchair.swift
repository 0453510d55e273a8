import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

// MARK: - The original

/// Armchair (UrbanApps/Armchair at b92da20, `Source/Armchair.swift`) with its default settings, as its
/// code decides (reference notes, section 1): `daysUntilPrompt` 30, `usesUntilPrompt` 20,
/// `significantEventsUntilPrompt` 0, `daysBeforeReminding` 1, `tracksNewVersions` and
/// `shouldPromptIfRated` true, an app ID set, debug off, the network up, no closures.
///
/// The stored keys are modelled as `UserDefaults` reads them: a missing double or integer reads 0.
/// Dates are `timeIntervalSince1970` doubles, compared in `TimeInterval` seconds as Armchair does.
struct ArmchairOriginal: CustomStringConvertible {
  /// Switches for each documented deliberate difference: `asCoded` is the library, `asIntended` the project.
  struct Mode: Sendable {
    /// A new version whose first counted increment is a significant event: Armchair's reset stores
    /// UseCount = 1 and SignificantEventCount = 0 (true); the project counts the event as the event it is,
    /// uses 0 and events 1 (false).
    var newVersionByEventCountsAUse: Bool
    /// With `useStoreKitReviewPrompt`, Armchair marks the version (and any version) rated as soon as it
    /// requests the StoreKit prompt (true); the project records "asked, outcome unknown" (false).
    var storeKitPromptMarksRated: Bool
    /// `showPrompt(ifNecessary:)` never looks at whether its alert is already on screen, so a check while
    /// it is up shows another (true); the project never asks while a prompt is showing (false).
    var asksWhileAlertUp: Bool

    static let asCoded = Mode(
      newVersionByEventCountsAUse: true, storeKitPromptMarksRated: true, asksWhileAlertUp: true)
    static let asIntended = Mode(
      newVersionByEventCountsAUse: false, storeKitPromptMarksRated: false, asksWhileAlertUp: false)
  }

  /// The buttons of Armchair's alert, or none yet: the user leaves the app with the alert up (`leave`), or
  /// leaves it on screen and answers at a later step of the history (`hold`).
  enum Answer: String, CaseIterable, Sendable {
    case rate, remind, decline, leave, hold

    /// What the manager's presenter answers for it (nothing while the alert stays up).
    var response: ReviewResponse? {
      switch self {
      case .rate: .rated
      case .remind: .remindLater
      case .decline: .declined
      case .leave, .hold: nil
      }
    }
  }

  private enum Counter { case uses, events }

  // Settings (defaults).
  let daysUntilPrompt: UInt = 30
  let usesUntilPrompt: UInt = 20
  let significantEventsUntilPrompt: UInt = 0
  let daysBeforeReminding: UInt = 1
  let tracksNewVersions = true
  let shouldPromptIfRated = true
  /// Opt-in SKStoreReviewController (off by default; only the StoreKit difference test turns it on).
  var useStoreKitReviewPrompt = false
  let mode: Mode

  // The stored keys.
  var firstUseDate: Double = 0
  var useCount = 0
  var significantEventCount = 0
  var currentVersion: String?
  var ratedCurrentVersion = false
  var declinedToRate = false
  var reminderRequestDate: Double = 0
  var previousVersion: String?
  var previousVersionRated = false
  var previousVersionDeclinedToRate = false
  var ratedAnyVersion = false
  /// Whether the rating alert is on screen (not stored).
  var alertVisible = false

  /// `CFBundleVersion` of the running app.
  var bundleVersion: String

  init(bundleVersion: String, mode: Mode) {
    self.bundleVersion = bundleVersion
    self.mode = mode
  }

  // MARK: Entry points

  /// The launch notification: counts a use, never prompts.
  mutating func appLaunched(now: Date) {
    increment(.uses, now: now)
  }

  /// The foreground notification: counts a use, never prompts.
  mutating func appEnteredForeground(now: Date) {
    increment(.uses, now: now)
  }

  /// The resign-active notification: on iOS, `hideRatingAlert()` dismisses an alert still on screen and
  /// calls `dontRate()`, so leaving the app with the alert up declines.
  mutating func appResignedActive() {
    guard alertVisible else { return }
    alertVisible = false
    declinedToRate = true
  }

  /// `userDidSignificantEvent(canPromptForRating)`: counts the event, then `showPrompt(ifNecessary:)`.
  /// Returns whether the rating prompt is shown.
  mutating func userDidSignificantEvent(canPromptForRating: Bool, now: Date) -> Bool {
    increment(.events, now: now)
    return showPrompt(ifNecessary: canPromptForRating, now: now)
  }

  /// `showPromptIfNecessary()`. Returns whether the rating prompt is shown.
  mutating func showPromptIfNecessary(now: Date) -> Bool {
    showPrompt(ifNecessary: true, now: now)
  }

  /// The user's answer to the alert (`dontRate`, `remindMeLater`, `_rateApp`).
  mutating func answer(_ answer: Answer, now: Date) {
    switch answer {
    case .rate:
      alertVisible = false
      ratedCurrentVersion = true
      ratedAnyVersion = true
    case .remind:
      alertVisible = false
      reminderRequestDate = now.timeIntervalSince1970
    case .decline:
      alertVisible = false
      declinedToRate = true
    case .leave, .hold:
      alertVisible = true
    }
  }

  // MARK: The library's logic

  private mutating func showPrompt(ifNecessary canPromptForRating: Bool, now: Date) -> Bool {
    guard canPromptForRating, ratingConditionsHaveBeenMet(now: now) else { return false }
    // As coded, a second alert goes over the first (the one answered later closes both, as the model
    // keeps one); as intended, nothing while it is up.
    if alertVisible && !mode.asksWhileAlertUp { return false }
    // showRatingAlert(): with StoreKit, request the system prompt and assume the user rated.
    if useStoreKitReviewPrompt, mode.storeKitPromptMarksRated {
      ratedCurrentVersion = true
      ratedAnyVersion = true
    }
    return true
  }

  /// `_incrementCountForKeyType`.
  private mutating func increment(_ counter: Counter, now: Date) {
    if currentVersion == nil { currentVersion = bundleVersion }
    if currentVersion == bundleVersion {
      if firstUseDate == 0 { firstUseDate = now.timeIntervalSince1970 }
      switch counter {
      case .uses: useCount += 1
      case .events: significantEventCount += 1
      }
    } else if tracksNewVersions {
      // resetAllCounters(): nothing is incremented on this call.
      previousVersion = currentVersion
      previousVersionRated = ratedCurrentVersion
      previousVersionDeclinedToRate = declinedToRate
      currentVersion = bundleVersion
      firstUseDate = now.timeIntervalSince1970
      if counter == .events && !mode.newVersionByEventCountsAUse {
        useCount = 0
        significantEventCount = 1
      } else {
        useCount = 1
        significantEventCount = 0
      }
      ratedCurrentVersion = false
      declinedToRate = false
      reminderRequestDate = 0
    }
  }

  /// `ratingConditionsHaveBeenMet()`.
  func ratingConditionsHaveBeenMet(now: Date) -> Bool {
    let dateOfFirstLaunch = Date(timeIntervalSince1970: firstUseDate)
    let timeSinceFirstLaunch = now.timeIntervalSince(dateOfFirstLaunch)
    let timeUntilRate: TimeInterval = 60 * 60 * 24 * Double(daysUntilPrompt)
    if timeSinceFirstLaunch < timeUntilRate { return false }
    if UInt(useCount) <= usesUntilPrompt { return false }
    if UInt(significantEventCount) < significantEventsUntilPrompt { return false }
    if declinedToRate { return false }
    if ratedCurrentVersion { return false }
    let reminderRequestDate = Date(timeIntervalSince1970: reminderRequestDate)
    let timeSinceReminderRequest = now.timeIntervalSince(reminderRequestDate)
    let timeUntilReminder: TimeInterval = 60 * 60 * 24 * Double(daysBeforeReminding)
    if timeSinceReminderRequest < timeUntilReminder { return false }
    if !shouldPromptIfRated && ratedAnyVersion { return false }
    return true
  }

  var description: String {
    "CurrentVersion=\(currentVersion ?? "nil") (bundle \(bundleVersion)) FirstUseDate=\(firstUseDate) "
      + "UseCount=\(useCount) SignificantEventCount=\(significantEventCount) RatedCurrentVersion=\(ratedCurrentVersion) "
      + "DeclinedToRate=\(declinedToRate) ReminderRequestDate=\(reminderRequestDate) RatedAnyVersion=\(ratedAnyVersion)"
  }
}

// MARK: - Histories

/// What a history's `waitUntil` steps are anchored to (in the original's state).
enum ArmchairAnchor: String, Sendable {
  case firstUse, reminder
}

enum ArmchairStep: Sendable, CustomStringConvertible {
  /// Time passes.
  case wait(Int64)
  /// Time passes until the anchor plus the offset (if that is later than now; nothing if the anchor is unset).
  case waitUntil(ArmchairAnchor, Int64)
  /// The app launches (Armchair's launch notification; the manager's `appLaunched()`).
  case launch
  /// The app returns to the foreground.
  case foreground
  /// The app launches and the app vetoes counting it (Armchair's `shouldIncrementUseCountClosure`, the
  /// manager's `shouldCountUse`).
  case vetoedLaunch
  /// The app resigns active (Armchair's notification; the manager's `appLeftForegroundWithPromptShowing()`,
  /// which the app calls when its alert is up, with `promptLeftShowing: .declined`).
  case background
  /// `userDidSignificantEvent(canPromptForRating:)`; `answer` is the user's answer if the prompt shows.
  case event(mayPrompt: Bool, answer: ArmchairOriginal.Answer)
  /// `showPromptIfNecessary()`.
  case check(ArmchairOriginal.Answer)
  /// The user taps a button of the alert still on screen (nothing if none is up): the manager's held reply.
  case answer(ArmchairOriginal.Answer)
  /// The process starts again, running `version` (an update when it differs).
  case relaunch(String)

  var description: String {
    switch self {
    case .wait(let gap): "+\(EquivTime.describe(gap))"
    case .waitUntil(let anchor, let offset): "@\(anchor.rawValue)+\(EquivTime.describe(offset))"
    case .launch: "L"
    case .foreground: "F"
    case .vetoedLaunch: "L-"
    case .background: "B"
    case .event(false, _): "E"
    case .event(true, let answer): "E?\(answer.rawValue)"
    case .check(let answer): "C?\(answer.rawValue)"
    case .answer(let answer): "A:\(answer.rawValue)"
    case .relaunch(let version): "R(\(version))"
    }
  }
}

enum ArmchairDriver: EquivDriver {
  typealias Step = ArmchairStep
  typealias Mode = ArmchairOriginal.Mode

  static let name = "Armchair"

  static func generate(_ random: inout EquivRandom) -> [ArmchairStep] {
    let length = random.int(50...200)
    var steps: [ArmchairStep] =
      random.chance(0.9) ? [.launch] : [.vetoedLaunch, .event(mayPrompt: random.chance(0.5), answer: .remind)]
    var version = EquivVersions.initial
    func answer(_ random: inout EquivRandom) -> ArmchairOriginal.Answer {
      random.pick([.remind, .remind, .remind, .rate, .decline, .decline, .leave, .hold, .hold])
    }
    while steps.count < length {
      switch steps.last {
      // The user who leaves with the alert up sends the app to the background.
      case .event(true, .leave), .check(.leave): steps.append(.background)
      // The alert stays up: time passes, the app checks again (an event, a check), then the user answers
      // or leaves the app with it up, minutes to days later.
      case .event(true, .hold), .check(.hold):
        for _ in 0..<random.int(0...3) {
          switch random.int(0..<4) {
          case 0: steps.append(.wait(random.lateGap()))
          case 1: steps.append(.wait(random.gap()))
          case 2: steps.append(.check(answer(&random)))
          default: steps.append(.event(mayPrompt: random.chance(0.8), answer: answer(&random)))
          }
        }
        steps.append(.wait(random.lateGap()))
        steps.append(random.chance(0.8) ? .answer(random.pick([.remind, .remind, .rate, .decline])) : .background)
      default: break
      }
      switch random.int(0..<100) {
      case 0..<25: steps.append(.launch)
      case 25..<33: steps.append(.foreground)
      case 33..<37: steps += [.background, .foreground]
      case 37..<50: steps.append(.wait(random.gap()))
      case 50..<55:
        steps.append(
          .wait(random.exactGap([30 * EquivTime.day, EquivTime.day, 4 * EquivTime.day, 8 * EquivTime.week])))
      case 55..<63:
        if random.chance(0.6) {
          steps.append(.waitUntil(.firstUse, random.exactGap([30 * EquivTime.day])))
        } else {
          steps.append(.waitUntil(.reminder, random.exactGap([EquivTime.day])))
        }
      case 63..<78: steps.append(.event(mayPrompt: random.chance(0.8), answer: answer(&random)))
      case 78..<97: steps.append(.check(answer(&random)))
      default:
        // A relaunch; an update most of the time. Armchair counts the launch by itself, on its
        // launch notification, and the app reports it; now and then the app vetoes counting it (its
        // shouldIncrementUseCountClosure, the manager's shouldCountUse) and the first counted thing is a
        // significant event.
        if random.chance(0.7) { version = EquivVersions.upgrade(version, &random) }
        steps.append(.relaunch(version))
        steps +=
          random.chance(0.85)
          ? [.launch] : [.vetoedLaunch, .event(mayPrompt: random.chance(0.5), answer: answer(&random))]
      }
    }
    return steps
  }

  /// A prompt check while the running version has not counted anything yet is left out: Armchair then
  /// decides on the previous version's counters while the manager has already started the new version
  /// (see `checkBeforeTheFirstCountedUseOfAnUpdate` below).
  static func isValid(_ history: [ArmchairStep]) -> Bool {
    var running = EquivVersions.initial
    var tracked: String?
    for step in history {
      switch step {
      case .relaunch(let version): running = version
      case .launch, .foreground, .event: tracked = running
      case .check: if tracked != running { return false }
      case .wait, .waitUntil, .vetoedLaunch, .background, .answer: break
      }
    }
    return true
  }

  static func run(_ history: [ArmchairStep], mode: Mode, policy: String, explain: Bool) throws -> EquivOutcome {
    try run(history, mode: mode, policy: policy, explain: explain, storeKit: false)
  }

  /// Runs `history`. With `storeKit`, Armchair uses SKStoreReviewController and the presenter answers
  /// `.unknown`, as a system prompt does.
  ///
  /// `promptLeftShowing` is the manager's configuration (Armchair on iOS declines: `.declined`).
  static func run(
    _ history: [ArmchairStep], mode: Mode, policy: String, explain: Bool, storeKit: Bool,
    promptLeftShowing: ReviewManager.PromptLeftShowing = .declined
  ) throws -> EquivOutcome {
    let clock = EquivClock()
    var original = ArmchairOriginal(bundleVersion: EquivVersions.initial, mode: mode)
    original.useStoreKitReviewPrompt = storeKit
    // On iOS, Armchair declines when the app leaves the foreground with its alert up: so does the manager
    // configured with `promptLeftShowing: .declined`.
    let harness = try EquivHarness(
      policy: policy, appVersion: EquivVersions.initial, clock: clock, explain: explain,
      settings: EquivSettings(promptLeftShowing: promptLeftShowing))
    var outcome = EquivOutcome()
    // When the alert on screen appeared.
    var alertShownAt: Int64?
    for (index, step) in history.enumerated() {
      let now = clock.date
      var originalPrompted: Bool?
      var managerPrompted = false
      switch step {
      case .launch, .foreground, .vetoedLaunch, .relaunch:
        // On iOS the app resigns active before it is launched again or comes back: an alert still up
        // is dismissed and declined (Armchair's hideRatingAlert), as `background` does.
        if original.alertVisible {
          outcome.leftWithAlertUp += 1
          original.appResignedActive()
          _ = harness.silent { $0.appLeftForegroundWithPromptShowing() }
          harness.promptGone()
        }
      case .background:
        if original.alertVisible { outcome.leftWithAlertUp += 1 }
      case .event(true, _), .check:
        if original.alertVisible && !storeKit { outcome.checksWhileUp += 1 }
      case .wait, .waitUntil, .event, .answer: break
      }
      switch step {
      case .wait(let gap):
        clock.advance(gap)
      case .waitUntil(let anchor, let offset):
        let base: Double = anchor == .firstUse ? original.firstUseDate : original.reminderRequestDate
        if base != 0 { clock.advance(to: EquivTime.milliseconds(base) + offset) }
      case .answer(let answer):
        if original.alertVisible, let response = answer.response {
          original.answer(answer, now: now)
          let delay = clock.milliseconds - (alertShownAt ?? clock.milliseconds)
          outcome.lateAnswer(after: delay)
          harness.answerLater(response, delay: delay)
        }
      case .launch:
        original.appLaunched(now: now)
        managerPrompted = harness.silent { $0.appLaunched() }
      case .foreground:
        original.appEnteredForeground(now: now)
        managerPrompted = harness.silent { $0.appEnteredForeground() }
      case .vetoedLaunch:
        managerPrompted = harness.silent(vetoingUse: true) { $0.appLaunched() }
      case .background:
        original.appResignedActive()
        managerPrompted = harness.silent { $0.appLeftForegroundWithPromptShowing() }
        // Armchair hid the alert: its buttons are gone.
        harness.promptGone()
      case .event(let mayPrompt, let answer):
        let shown = original.userDidSignificantEvent(canPromptForRating: mayPrompt, now: now)
        if shown && !storeKit {
          original.answer(answer, now: now)
          alertShownAt = clock.milliseconds
        }
        originalPrompted = mayPrompt ? shown : nil
        let response = storeKit ? ReviewResponse.unknown : answer.response
        managerPrompted = harness.prompted(answering: response) { $0.significantEvent(mayPrompt: mayPrompt) }
      case .check(let answer):
        let shown = original.showPromptIfNecessary(now: now)
        if shown && !storeKit {
          original.answer(answer, now: now)
          alertShownAt = clock.milliseconds
        }
        originalPrompted = shown
        let response = storeKit ? ReviewResponse.unknown : answer.response
        managerPrompted = harness.prompted(answering: response) { $0.promptIfAppropriate() }
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

@Suite("Equivalence: Armchair")
struct EquivalenceArmchairTests {
  static let policy = (try? EquivPolicies.example("armchair")) ?? ""
  static let histories = 2_000
  static let shards = 4

  @Test("the example policy loads and compiles")
  func policyLoads() throws {
    #expect(Self.policy.contains("ask armchair_defaults"))
    _ = try EquivHarness(policy: Self.policy, appVersion: "1.0", clock: EquivClock(), explain: false)
  }

  @Test("random histories: the manager prompts exactly when Armchair (as intended) does", arguments: 0..<shards)
  func randomHistories(shard: Int) throws {
    let seeds = EquivProperty.seeds(base: 10_000, count: Self.histories, shard: shard, of: Self.shards)
    let stats = try EquivProperty.check(ArmchairDriver.self, seeds: seeds, mode: .asIntended, policy: Self.policy)
    print("Equivalence: Armchair shard \(shard): \(stats)")
    #expect(stats.mismatches == 0)
    // Not vacuous: the histories reach the thresholds and the original prompts often.
    #expect(stats.originalPrompts > stats.histories / 2)
    // ... and its alert stays up across later steps: late answers, some after 10 minutes, checks while
    // it is up, and the app left with it up.
    #expect(stats.answersAfterTimeout > stats.histories / 20 && stats.checksWhileUp > stats.histories / 20)
    #expect(stats.leftWithAlertUp > stats.histories / 20)
  }

  @Test(
    "as coded, random histories run into the documented difference (the new version started by a significant event)")
  func codedDifferenceIsReached() throws {
    let found = try EquivProperty.firstDisagreement(
      ArmchairDriver.self, seeds: (10_000..<10_000 + 1_000).map { UInt64($0) }, mode: ArmchairOriginal.Mode.asCoded,
      policy: Self.policy)
    let report = try #require(found.report, "no disagreement in \(found.histories) histories as coded")
    print("Equivalence: Armchair as coded, first disagreement after \(found.histories) histories:\n\(report)")
    #expect(ArmchairDriver.isValid(found.minimised))
    let replay = try ArmchairDriver.run(
      found.minimised, mode: ArmchairOriginal.Mode.asIntended, policy: Self.policy, explain: false)
    #expect(replay.mismatch == nil, "the minimised history also disagrees as intended")
  }

  @Test("the histories are sharp enough to catch an off-by-one in each threshold")
  func mutantsAreCaught() throws {
    let mutants = [
      ("uses > 20", "uses >= 20"),
      ("since(first_use) >= 30d", "since(first_use) > 30d"),
      ("since(last_reminder) >= 1d", "since(last_reminder) > 1d"),
      ("and not declined", ""),
    ]
    for (old, new) in mutants {
      let policy = EquivPolicies.mutant(Self.policy, replacing: old, with: new)
      let stats = try EquivProperty.check(
        ArmchairDriver.self, seeds: (20_000..<21_000).map { UInt64($0) }, mode: .asIntended, policy: policy,
        reports: 0, stopAtFirstMismatch: true)
      #expect(stats.mismatches > 0, "mutant `\(old)` → `\(new)` was not caught in \(stats.histories) histories")
    }
  }

  // MARK: Documented differences

  /// v1 used, then an update whose first counted thing is a significant event (the launch was not counted),
  /// then 20 launches, 30 days and a prompt check. Armchair counted the event as a use (UseCount 21 > 20): it
  /// prompts. The manager counted an event and 20 uses: it does not.
  static let newVersionByEvent: [ArmchairStep] =
    [.launch, .wait(EquivTime.day), .relaunch("1.0.1"), .event(mayPrompt: false, answer: .remind)]
    + Array(repeating: .launch, count: 20) + [.waitUntil(.firstUse, 30 * EquivTime.day), .check(.remind)]

  @Test("difference: a new version that starts with a significant event counts a use in Armchair")
  func differenceNewVersionByEvent() throws {
    let history = Self.newVersionByEvent
    let coded = try ArmchairDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)

    var flipped = ArmchairOriginal.Mode.asCoded
    flipped.newVersionByEventCountsAUse = false
    let intended = try ArmchairDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.steps == history.count)
    // One more launch and both prompt.
    var longer = history
    longer.insert(.launch, at: history.count - 1)
    let agreed = try ArmchairDriver.run(longer, mode: flipped, policy: Self.policy, explain: false)
    #expect(agreed.mismatch == nil)
    #expect(agreed.decisions.last.map { $0.original && $0.manager } == true)
  }

  /// 21 launches over 30 days, a StoreKit prompt, then another check a day later.
  static let storeKit: [ArmchairStep] =
    Array(repeating: .launch, count: 21) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .check(.remind), .wait(EquivTime.day), .check(.remind),
    ]

  @Test("difference: Armchair's StoreKit prompt marks the version rated; the manager records an unknown outcome")
  func differenceStoreKitMarksRated() throws {
    let history = Self.storeKit
    let coded = try ArmchairDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false, storeKit: true)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(!mismatch.original && mismatch.manager)
    #expect(coded.decisions.first.map { $0.original && $0.manager } == true)

    var flipped = ArmchairOriginal.Mode.asCoded
    flipped.storeKitPromptMarksRated = false
    let intended = try ArmchairDriver.run(history, mode: flipped, policy: Self.policy, explain: false, storeKit: true)
    #expect(intended.mismatch == nil)
    #expect(intended.originalPrompts == 2)
  }

  /// 21 launches over 30 days, a check whose alert the user leaves on screen while the app goes to the
  /// background, and another check two days later.
  static let leftWithAlertUp: [ArmchairStep] =
    Array(repeating: .launch, count: 21) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .check(.leave), .background, .wait(2 * EquivTime.day), .foreground,
      .check(.remind),
    ]

  @Test("leaving the app with the alert up declines on iOS: promptLeftShowing .declined, not the default .dismissed")
  func leavingWithTheAlertUpDeclines() throws {
    let history = Self.leftWithAlertUp
    for mode in [ArmchairOriginal.Mode.asCoded, .asIntended] {
      let outcome = try ArmchairDriver.run(history, mode: mode, policy: Self.policy, explain: false, storeKit: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [true, false])
    }
    // With the default meaning, "dismissed", the manager would ask again.
    let dismissed = try ArmchairDriver.run(
      history, mode: .asIntended, policy: Self.policy, explain: false, storeKit: false, promptLeftShowing: .dismissed)
    let mismatch = try #require(dismissed.mismatch)
    #expect(!mismatch.original && mismatch.manager)
  }

  // MARK: The alert on screen across later steps

  /// 21 launches over 30 days, a check whose alert stays up; an hour later another check and an event
  /// (the alert is still up); two more hours, then the user taps `answer`; two days later a last check.
  static func answeredThreeHoursLater(_ answer: ArmchairOriginal.Answer) -> [ArmchairStep] {
    Array(repeating: .launch, count: 21) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .check(.hold), .wait(EquivTime.hour), .check(.remind),
      .event(mayPrompt: true, answer: .remind), .wait(2 * EquivTime.hour), .answer(answer), .wait(2 * EquivTime.day),
      .check(.remind),
    ]
  }

  @Test("a \"No thanks\" 3 hours after the alert appeared is recorded and respected; a late \"remind me later\" too")
  func lateAnswerIsRecordedAndRespected() throws {
    let declined = try ArmchairDriver.run(
      Self.answeredThreeHoursLater(.decline), mode: .asIntended, policy: Self.policy, explain: false)
    #expect(declined.mismatch == nil)
    // Asked once; not again while the alert is up; not again after the late "No thanks".
    #expect(declined.decisions.map(\.original) == [true, false, false, false])
    #expect(declined.decisions.map(\.manager) == [true, false, false, false])
    #expect((declined.lateAnswers, declined.answersAfterTimeout, declined.checksWhileUp) == (1, 1, 2))
    // "Remind me later" at the same moment: both ask again a day after it.
    let reminded = try ArmchairDriver.run(
      Self.answeredThreeHoursLater(.remind), mode: .asIntended, policy: Self.policy, explain: false)
    #expect(reminded.mismatch == nil)
    #expect(reminded.decisions.map(\.manager) == [true, false, false, true])
  }

  /// The alert left up for 5 hours, then the app leaves the foreground; two days later, a check.
  static let leftAfterFiveHours: [ArmchairStep] =
    Array(repeating: .launch, count: 21) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .check(.hold), .wait(5 * EquivTime.hour), .background,
      .wait(2 * EquivTime.day), .foreground, .check(.remind),
    ]

  @Test("leaving the app 5 hours after the alert appeared still declines (promptLeftShowing .declined)")
  func leavingHoursLaterDeclines() throws {
    let outcome = try ArmchairDriver.run(
      Self.leftAfterFiveHours, mode: .asIntended, policy: Self.policy, explain: false)
    #expect(outcome.mismatch == nil)
    #expect(outcome.decisions.map(\.manager) == [true, false])
    #expect(outcome.leftWithAlertUp == 1)
  }

  /// 21 launches over 30 days, a check whose alert stays up, and another check an hour later.
  static let checkWhileUp: [ArmchairStep] =
    Array(repeating: .launch, count: 21) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .check(.hold), .wait(EquivTime.hour), .check(.decline),
    ]

  @Test("difference: Armchair shows another alert at a check while its alert is up; the manager does not ask")
  func differenceAsksWhileAlertUp() throws {
    let history = Self.checkWhileUp
    let coded = try ArmchairDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)

    var flipped = ArmchairOriginal.Mode.asCoded
    flipped.asksWhileAlertUp = false
    let intended = try ArmchairDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.map(\.original) == [true, false])
  }

  @Test("every focused history agrees in both modes when it avoids the difference")
  func focusedHistoriesWithoutTheDifference() throws {
    // The same update, started by a counted launch: no difference between the modes.
    let history: [ArmchairStep] =
      [.launch, .relaunch("1.0.1"), .launch] + Array(repeating: .launch, count: 20) + [
        .waitUntil(.firstUse, 30 * EquivTime.day - 1), .check(.remind), .wait(1), .check(.remind),
        .waitUntil(.reminder, EquivTime.day - 1), .event(mayPrompt: true, answer: .decline), .wait(1),
        .event(mayPrompt: true, answer: .decline), .wait(EquivTime.week), .check(.rate),
      ]
    for mode in [ArmchairOriginal.Mode.asCoded, .asIntended] {
      let outcome = try ArmchairDriver.run(history, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false, true, false, true, false])
    }
  }

  // MARK: A documented difference: the manager starts a new version at any call

  /// After an update, a prompt check that comes before Armchair has counted anything in the new version
  /// (the app calls `showPromptIfNecessary()` in `didFinishLaunching`, before Armchair's own launch
  /// notification counts the launch on its background queue). Armchair still decides on the previous
  /// version's counters; the manager has already started the new version (README, "The systems we
  /// replace, as policies").
  static let checkBeforeTheFirstCountedUse: [ArmchairStep] =
    Array(repeating: .launch, count: 21) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .check(.remind), .wait(2 * EquivTime.day), .relaunch("1.0.1"),
      .check(.remind), .launch,
    ]

  @Test("documented difference: a prompt check before the first counted use of an update")
  func checkBeforeTheFirstCountedUseOfAnUpdate() throws {
    let history = Self.checkBeforeTheFirstCountedUse
    // The random histories leave this case out, because the two disagree here by design.
    #expect(!ArmchairDriver.isValid(history))
    let outcome = try ArmchairDriver.run(history, mode: .asIntended, policy: Self.policy, explain: false)
    // Both prompt at the first check; after the update, Armchair still prompts on 1.0.0's counters,
    // while the manager has started 1.0.1 (0 days, 0 uses) and does not.
    #expect(outcome.decisions.map(\.original) == [true, true])
    #expect(outcome.decisions.map(\.manager) == [true, false])
    #expect(outcome.mismatch != nil)
  }
}
