import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

// MARK: - The original

/// Appirater (arashpayan/appirater at 4004792, `Appirater.m`) with its defaults, as its code decides
/// (reference notes, section 2): `daysUntilPrompt` 30, `usesUntilPrompt` 20, `significantEventsUntilPrompt`
/// -1 (off), `timeBeforeReminding` 1 day, debug off, the network up, no delegate. By default on the
/// SKStoreReviewController path (iOS 10.3 and later: `showRatingAlert` calls `rateApp`, which marks the
/// build rated, and requests the system prompt); `Mode.alert` takes its own alert instead.
///
/// `NSUserDefaults` reads a missing double or integer as 0; dates are `timeIntervalSince1970` doubles.
struct AppiraterOriginal: CustomStringConvertible {
  /// Switches for each documented deliberate difference.
  struct Mode: Sendable {
    /// A new version whose first increment is a significant event: Appirater stores FirstUseDate = 0
    /// (1970), so the next increment sets it to that later moment (true); the project starts the
    /// version's first use when the version starts (false).
    var firstUseOf1970AfterVersionChangeByEvent: Bool
    /// Appirater's own alert, answered by the user (true), rather than the StoreKit path (false, the
    /// default since iOS 10.3). Not a difference: the path the app runs on.
    var alert = false
    /// `rateApp` after an update, before any increment has started the new build, marks the previous
    /// build's record rated, and the next increment resets it: the rating is lost (true). The project
    /// starts the new build at any call, so the rating counts for it (false).
    var rateAppBeforeNewBuildIsLost: Bool

    static let asCoded = Mode(firstUseOf1970AfterVersionChangeByEvent: true, rateAppBeforeNewBuildIsLost: true)
    static let asIntended = Mode(firstUseOf1970AfterVersionChangeByEvent: false, rateAppBeforeNewBuildIsLost: false)

    /// This mode on the old alert path.
    var onAlertPath: Mode {
      var mode = self
      mode.alert = true
      return mode
    }
  }

  /// The alert's buttons, or none yet (`hold`: the alert stays up, answered at a later step or hidden when
  /// the app resigns active).
  enum Answer: String, CaseIterable, Sendable {
    case rate, remind, decline, hold

    /// What the manager's presenter answers on the alert path (nothing while the alert stays up).
    var response: ReviewResponse? {
      switch self {
      case .rate: .rated
      case .remind: .remindLater
      case .decline: .declined
      case .hold: nil
      }
    }
  }

  let daysUntilPrompt: Double = 30
  let usesUntilPrompt = 20
  let significantEventsUntilPrompt = -1
  let timeBeforeReminding: Double = 1
  let mode: Mode

  // The seven keys.
  var firstUseDate: Double = 0
  var useCount = 0
  var significantEventCount = 0
  var currentVersion: String?
  var ratedCurrentVersion = false
  var declinedToRate = false
  var reminderRequestDate: Double = 0
  /// Whether the alert is on screen (`alertVisible`, not stored).
  var alertVisible = false

  /// `CFBundleVersion` of the running app.
  var bundleVersion: String

  init(bundleVersion: String, mode: Mode) {
    self.bundleVersion = bundleVersion
    self.mode = mode
  }

  // MARK: Entry points (each returns whether the alert shows)

  /// `appLaunched:` → `incrementAndRate:`.
  mutating func appLaunched(canPromptForRating: Bool, now: Date) -> Bool {
    incrementUseCount(now: now)
    return canPromptForRating && ratingConditionsHaveBeenMet(now: now) && ratingAlertIsAppropriate
  }

  /// `appEnteredForeground:` → `incrementAndRate:`.
  mutating func appEnteredForeground(canPromptForRating: Bool, now: Date) -> Bool {
    appLaunched(canPromptForRating: canPromptForRating, now: now)
  }

  /// `userDidSignificantEvent:` → `incrementSignificantEventAndRate:`.
  mutating func userDidSignificantEvent(canPromptForRating: Bool, now: Date) -> Bool {
    incrementSignificantEventCount(now: now)
    return canPromptForRating && ratingConditionsHaveBeenMet(now: now) && ratingAlertIsAppropriate
  }

  /// `showRatingAlert` once a check says to prompt: on the StoreKit path, `rateApp` marks the build rated
  /// and requests the system prompt, which never reports back; on the alert path, the user answers.
  mutating func show(answering answer: Answer, now: Date) {
    if mode.alert {
      if answer == .hold { alertVisible = true } else { self.answer(answer, now: now) }
    } else {
      ratedCurrentVersion = true
    }
  }

  /// `rateApp`, called by the app itself (a "Rate us" row): marks the build rated.
  mutating func rateApp(now: Date) {
    if !mode.rateAppBeforeNewBuildIsLost, let currentVersion, currentVersion != bundleVersion {
      // As intended: the call starts the new build (nothing counted), then the rating counts for it.
      self.currentVersion = bundleVersion
      firstUseDate = now.timeIntervalSince1970
      useCount = 0
      significantEventCount = 0
      declinedToRate = false
      reminderRequestDate = 0
    }
    ratedCurrentVersion = true
  }

  /// `appWillResignActive:` → `hideRatingAlert`: `dismissWithClickedButtonIndex:-1` records nothing.
  mutating func appResignedActive() {
    alertVisible = false
  }

  /// The alert's buttons: "Rate" (`rateApp`), "Remind me later", "No, Thanks".
  mutating func answer(_ answer: Answer, now: Date) {
    switch answer {
    case .rate: ratedCurrentVersion = true
    case .remind: reminderRequestDate = now.timeIntervalSince1970
    case .decline: declinedToRate = true
    case .hold: return
    }
    alertVisible = false
  }

  // MARK: The library's logic

  private mutating func incrementUseCount(now: Date) {
    let version = bundleVersion
    var trackingVersion = currentVersion
    if trackingVersion == nil {
      trackingVersion = version
      currentVersion = version
    }
    if trackingVersion == version {
      if firstUseDate == 0 { firstUseDate = now.timeIntervalSince1970 }
      useCount += 1
    } else {
      currentVersion = version
      firstUseDate = now.timeIntervalSince1970
      useCount = 1
      significantEventCount = 0
      ratedCurrentVersion = false
      declinedToRate = false
      reminderRequestDate = 0
    }
  }

  private mutating func incrementSignificantEventCount(now: Date) {
    let version = bundleVersion
    var trackingVersion = currentVersion
    if trackingVersion == nil {
      trackingVersion = version
      currentVersion = version
    }
    if trackingVersion == version {
      if firstUseDate == 0 { firstUseDate = now.timeIntervalSince1970 }
      significantEventCount += 1
    } else {
      currentVersion = version
      firstUseDate = mode.firstUseOf1970AfterVersionChangeByEvent ? 0 : now.timeIntervalSince1970
      useCount = 0
      significantEventCount = 1
      ratedCurrentVersion = false
      declinedToRate = false
      reminderRequestDate = 0
    }
  }

  func ratingConditionsHaveBeenMet(now: Date) -> Bool {
    let dateOfFirstLaunch = Date(timeIntervalSince1970: firstUseDate)
    let timeSinceFirstLaunch = now.timeIntervalSince(dateOfFirstLaunch)
    let timeUntilRate: TimeInterval = 60 * 60 * 24 * daysUntilPrompt
    if timeSinceFirstLaunch < timeUntilRate { return false }
    if useCount < usesUntilPrompt { return false }
    if significantEventCount < significantEventsUntilPrompt { return false }
    let reminderRequestDate = Date(timeIntervalSince1970: reminderRequestDate)
    let timeSinceReminderRequest = now.timeIntervalSince(reminderRequestDate)
    let timeUntilReminder: TimeInterval = 60 * 60 * 24 * timeBeforeReminding
    if timeSinceReminderRequest < timeUntilReminder { return false }
    return true
  }

  /// `connectedToNetwork && !declined && !alertVisible && !ratedCurrentVersion` (the network is up).
  var ratingAlertIsAppropriate: Bool {
    !declinedToRate && !alertVisible && !ratedCurrentVersion
  }

  var description: String {
    "kAppiraterCurrentVersion=\(currentVersion ?? "nil") (bundle \(bundleVersion)) FirstUseDate=\(firstUseDate) "
      + "UseCount=\(useCount) SignificantEventCount=\(significantEventCount) RatedCurrentVersion=\(ratedCurrentVersion) "
      + "DeclinedToRate=\(declinedToRate) ReminderRequestDate=\(reminderRequestDate)"
  }
}

// MARK: - Histories

enum AppiraterAnchor: String, Sendable {
  /// Appirater's FirstUseDate (0, and so no anchor, right after a version started by an event, as coded).
  case firstUse
  case reminder
  /// When the running version was first used (by any entry point): the driver's own record.
  case versionStart
}

enum AppiraterStep: Sendable, CustomStringConvertible {
  case wait(Int64)
  case waitUntil(AppiraterAnchor, Int64)
  /// `appLaunched:`; the manager's `appLaunched()`, then `promptIfAppropriate()` when it may prompt.
  case launch(mayPrompt: Bool, answer: AppiraterOriginal.Answer)
  /// `appEnteredForeground:`.
  case foreground(mayPrompt: Bool, answer: AppiraterOriginal.Answer)
  /// `userDidSignificantEvent:`.
  case event(mayPrompt: Bool, answer: AppiraterOriginal.Answer)
  /// The process starts again, running build `version` (the app reports the launch with a `launch` step).
  case relaunch(String)
  /// The app calls `rateApp` itself (a "Rate us" row); the manager's `recordWithoutPrompt(.rated)`.
  case rateApp
  /// The user taps a button of the alert still on screen (nothing if none is up): the manager's held reply.
  case answer(AppiraterOriginal.Answer)
  /// The app resigns active and goes to the background: Appirater hides its alert and records nothing; the
  /// app calls the manager's `appLeftForegroundWithPromptShowing()` (`promptLeftShowing` `.dismissed`).
  case background

  var description: String {
    func tag(_ letter: String, _ mayPrompt: Bool, _ answer: AppiraterOriginal.Answer) -> String {
      mayPrompt ? "\(letter)?\(answer.rawValue)" : letter
    }
    switch self {
    case .wait(let gap): return "+\(EquivTime.describe(gap))"
    case .waitUntil(let anchor, let offset): return "@\(anchor.rawValue)+\(EquivTime.describe(offset))"
    case .launch(let mayPrompt, let answer): return tag("L", mayPrompt, answer)
    case .foreground(let mayPrompt, let answer): return tag("F", mayPrompt, answer)
    case .event(let mayPrompt, let answer): return tag("E", mayPrompt, answer)
    case .relaunch(let version): return "R(\(version))"
    case .rateApp: return "Rate"
    case .answer(let answer): return "A:\(answer.rawValue)"
    case .background: return "B"
    }
  }
}

enum AppiraterDriver: EquivDriver {
  typealias Step = AppiraterStep
  typealias Mode = AppiraterOriginal.Mode

  static let name = "Appirater"

  static func generate(_ random: inout EquivRandom) -> [AppiraterStep] {
    let length = random.int(50...200)
    var version = EquivVersions.initial
    func answer(_ random: inout EquivRandom) -> AppiraterOriginal.Answer {
      random.pick([.remind, .remind, .remind, .rate, .decline, .decline, .hold, .hold, .hold, .hold])
    }
    func immediate(_ random: inout EquivRandom) -> AppiraterOriginal.Answer {
      random.pick([.remind, .remind, .remind, .rate, .decline, .decline])
    }
    var steps: [AppiraterStep] = [.launch(mayPrompt: random.chance(0.7), answer: answer(&random))]
    while steps.count < length {
      switch steps.last {
      // The alert stays up: time passes, significant events check again, then the user answers or the app
      // resigns active (Appirater hides the alert), minutes to days later.
      case .launch(true, .hold), .foreground(true, .hold), .event(true, .hold):
        for _ in 0..<random.int(1...4) {
          switch random.int(0..<4) {
          case 0: steps.append(.wait(random.lateGap()))
          case 1: steps.append(.wait(random.gap()))
          default: steps.append(.event(mayPrompt: random.chance(0.8), answer: answer(&random)))
          }
        }
        steps.append(.wait(random.lateGap()))
        steps.append(random.chance(0.8) ? .answer(immediate(&random)) : .background)
      default: break
      }
      switch random.int(0..<100) {
      case 0..<30: steps.append(.launch(mayPrompt: random.chance(0.7), answer: answer(&random)))
      case 30..<42: steps.append(.foreground(mayPrompt: random.chance(0.7), answer: answer(&random)))
      case 42..<55: steps.append(.wait(random.gap()))
      case 55..<60:
        steps.append(
          .wait(random.exactGap([30 * EquivTime.day, EquivTime.day, 4 * EquivTime.day, 8 * EquivTime.week])))
      case 60..<68:
        switch random.int(0..<5) {
        case 0, 1: steps.append(.waitUntil(.firstUse, random.exactGap([30 * EquivTime.day])))
        case 2: steps.append(.waitUntil(.versionStart, random.exactGap([30 * EquivTime.day])))
        default: steps.append(.waitUntil(.reminder, random.exactGap([EquivTime.day])))
        }
      case 68..<95: steps.append(.event(mayPrompt: random.chance(0.8), answer: answer(&random)))
      case 95: steps.append(random.chance(0.5) ? .rateApp : .background)
      default:
        // A relaunch, a new build most of the time; the app reports the launch with appLaunched:, as Appirater
        // asks. Now and then it reports it late, after a first significant event (a launch reported once
        // onboarding is done, say, or Appirater's launch increment, on a concurrent queue, losing the race
        // with the event's): the build then starts with the event, often some time before the launch.
        if random.chance(0.7) { version = EquivVersions.upgrade(version, &random) }
        steps.append(.relaunch(version))
        // Now and then the app's "Rate us" row is the first call of the new build.
        if random.chance(0.04) { steps.append(.rateApp) }
        if random.chance(0.75) {
          steps.append(.launch(mayPrompt: random.chance(0.7), answer: answer(&random)))
        } else {
          // (Answered at once: a launch reported late in the same process, with the alert still up, would be
          // taken for a new process by the manager; see `appLaunched()`.)
          steps.append(.event(mayPrompt: random.chance(0.7), answer: immediate(&random)))
          if random.chance(0.6) { steps.append(.wait(random.gap())) }
          steps.append(.launch(mayPrompt: random.chance(0.7), answer: answer(&random)))
        }
      }
    }
    return steps
  }

  /// Every Appirater entry point counts something before it decides, so every history is modelled.
  static func isValid(_ history: [AppiraterStep]) -> Bool { true }

  /// The app's marketing version, the same for every build of the histories.
  static let marketingVersion = "2.0"

  static func run(_ history: [AppiraterStep], mode: Mode, policy: String, explain: Bool) throws -> EquivOutcome {
    let clock = EquivClock()
    var original = AppiraterOriginal(bundleVersion: EquivVersions.initial, mode: mode)
    // As appirater.policy says: the marketing version stays, the build changes, and a new build starts a
    // new version (Appirater counts per `CFBundleVersion`).
    let harness = try EquivHarness(
      policy: policy, appVersion: marketingVersion, build: EquivVersions.initial, clock: clock, explain: explain,
      settings: EquivSettings(newVersionOn: .build))
    // Appirater's StoreKit request never reports back: the manager records "asked, outcome unknown".
    func response(_ answer: AppiraterOriginal.Answer) -> ReviewResponse? { mode.alert ? answer.response : .unknown }
    var outcome = EquivOutcome()
    var versionStart: (version: String, date: Int64)?
    var alertShownAt: Int64?
    /// The app resigns active: Appirater hides its alert (nothing recorded); the app tells the manager.
    func resignActive() {
      if original.alertVisible { outcome.leftWithAlertUp += 1 }
      original.appResignedActive()
      _ = harness.silent { $0.appLeftForegroundWithPromptShowing() }
      harness.promptGone()
    }
    for (index, step) in history.enumerated() {
      let now = clock.date
      var originalPrompted: Bool?
      var managerPrompted = false
      switch step {
      case .launch, .foreground, .event, .rateApp:
        if versionStart?.version != original.bundleVersion {
          versionStart = (original.bundleVersion, clock.milliseconds)
        }
      case .wait, .waitUntil, .relaunch, .answer, .background: break
      }
      switch step {
      // A launch or a return to the foreground comes after the app resigned active: the alert is hidden.
      case .launch, .foreground, .relaunch: if original.alertVisible { resignActive() }
      case .event(true, _): if original.alertVisible { outcome.checksWhileUp += 1 }
      case .wait, .waitUntil, .event, .rateApp, .answer, .background: break
      }
      switch step {
      case .wait(let gap):
        clock.advance(gap)
      case .waitUntil(let anchor, let offset):
        let base: Int64? =
          switch anchor {
          case .firstUse: original.firstUseDate == 0 ? nil : EquivTime.milliseconds(original.firstUseDate)
          case .reminder: original.reminderRequestDate == 0 ? nil : EquivTime.milliseconds(original.reminderRequestDate)
          case .versionStart: versionStart?.date
          }
        if let base { clock.advance(to: base + offset) }
      case .launch(let mayPrompt, let answer), .foreground(let mayPrompt, let answer):
        let isLaunch = if case .launch = step { true } else { false }
        let shown =
          isLaunch
          ? original.appLaunched(canPromptForRating: mayPrompt, now: now)
          : original.appEnteredForeground(canPromptForRating: mayPrompt, now: now)
        if shown {
          original.show(answering: answer, now: now)
          alertShownAt = clock.milliseconds
        }
        originalPrompted = mayPrompt ? shown : nil
        managerPrompted = harness.prompted(answering: response(answer)) { manager in
          if isLaunch { manager.appLaunched() } else { manager.appEnteredForeground() }
          return mayPrompt ? manager.promptIfAppropriate() : false
        }
      case .event(let mayPrompt, let answer):
        let shown = original.userDidSignificantEvent(canPromptForRating: mayPrompt, now: now)
        if shown {
          original.show(answering: answer, now: now)
          alertShownAt = clock.milliseconds
        }
        originalPrompted = mayPrompt ? shown : nil
        managerPrompted = harness.prompted(answering: response(answer)) { $0.significantEvent(mayPrompt: mayPrompt) }
      case .rateApp:
        original.rateApp(now: now)
        managerPrompted = harness.silent { $0.recordWithoutPrompt(.rated) }
      case .answer(let answer):
        if original.alertVisible, let response = answer.response {
          original.answer(answer, now: now)
          let delay = clock.milliseconds - (alertShownAt ?? clock.milliseconds)
          outcome.lateAnswer(after: delay)
          harness.answerLater(response, delay: delay)
        }
      case .background:
        resignActive()
      case .relaunch(let version):
        original.bundleVersion = version
        try harness.relaunch(appVersion: marketingVersion, build: version)
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

@Suite("Equivalence: Appirater")
struct EquivalenceAppiraterTests {
  /// Appirater's default path since iOS 10.3: once per build, through StoreKit.
  static let policy = (try? EquivPolicies.example("appirater")) ?? ""
  /// Its old alert path.
  static let alertPolicy = (try? EquivPolicies.example("appirater-alert")) ?? ""
  static let histories = 2_000
  static let alertHistories = 1_000
  static let shards = 4

  @Test("the example policies load and compile")
  func policyLoads() throws {
    #expect(Self.policy.contains("ask appirater_defaults"))
    #expect(Self.alertPolicy.contains("ask appirater_alert"))
    for policy in [Self.policy, Self.alertPolicy] {
      _ = try EquivHarness(policy: policy, appVersion: "1.0", clock: EquivClock(), explain: false)
    }
  }

  @Test(
    "random histories: the manager prompts exactly when Appirater (as intended, through StoreKit) does",
    arguments: 0..<shards)
  func randomHistories(shard: Int) throws {
    let seeds = EquivProperty.seeds(base: 30_000, count: Self.histories, shard: shard, of: Self.shards)
    let stats = try EquivProperty.check(AppiraterDriver.self, seeds: seeds, mode: .asIntended, policy: Self.policy)
    print("Equivalence: Appirater shard \(shard): \(stats)")
    #expect(stats.mismatches == 0)
    // (Fewer than before the alert-up steps: the steps that follow an alert kept up, meaningless on this
    // path, take the place of launches.)
    #expect(stats.originalPrompts > stats.histories / 4)
  }

  @Test(
    "random histories on the old alert path: the manager prompts exactly when Appirater (as intended) does",
    arguments: 0..<shards)
  func randomHistoriesAlert(shard: Int) throws {
    let seeds = EquivProperty.seeds(base: 35_000, count: Self.alertHistories, shard: shard, of: Self.shards)
    let stats = try EquivProperty.check(
      AppiraterDriver.self, seeds: seeds, mode: AppiraterOriginal.Mode.asIntended.onAlertPath, policy: Self.alertPolicy)
    print("Equivalence: Appirater (alert) shard \(shard): \(stats)")
    #expect(stats.mismatches == 0)
    #expect(stats.originalPrompts > stats.histories / 3)
    // Not vacuous: the alert stays up across later steps, is answered late and checked while up.
    #expect(stats.answersAfterTimeout > stats.histories / 10 && stats.checksWhileUp > stats.histories / 10)
    #expect(stats.leftWithAlertUp > 0)
  }

  @Test(
    "as coded, random histories run into the documented difference (the 1970 first use of a version started by a significant event)",
    arguments: [false, true])
  func codedDifferenceIsReached(alert: Bool) throws {
    let mode = alert ? AppiraterOriginal.Mode.asCoded.onAlertPath : .asCoded
    let policy = alert ? Self.alertPolicy : Self.policy
    let found = try EquivProperty.firstDisagreement(
      AppiraterDriver.self, seeds: (30_000..<30_000 + 2_000).map { UInt64($0) }, mode: mode, policy: policy)
    let report = try #require(found.report, "no disagreement in \(found.histories) histories as coded")
    print("Equivalence: Appirater as coded, first disagreement after \(found.histories) histories:\n\(report)")
    #expect(AppiraterDriver.isValid(found.minimised))
    var intended = mode
    intended.firstUseOf1970AfterVersionChangeByEvent = false
    intended.rateAppBeforeNewBuildIsLost = false
    let replay = try AppiraterDriver.run(found.minimised, mode: intended, policy: policy, explain: false)
    #expect(replay.mismatch == nil, "the minimised history also disagrees as intended")
  }

  @Test("the histories are sharp enough to catch an off-by-one in each threshold (StoreKit path)")
  func mutantsAreCaught() throws {
    let mutants = [
      ("uses >= 20", "uses > 20"),
      ("since(first_use) >= 30d", "since(first_use) > 30d"),
      ("and prompts == 0", ""),
      ("and prompts == 0", "and prompts <= 1"),
      ("and not rated", ""),
    ]
    for (old, new) in mutants {
      let policy = EquivPolicies.mutant(Self.policy, replacing: old, with: new)
      let stats = try EquivProperty.check(
        AppiraterDriver.self, seeds: (40_000..<40_400).map { UInt64($0) }, mode: .asIntended, policy: policy,
        reports: 0, stopAtFirstMismatch: true)
      #expect(stats.mismatches > 0, "mutant `\(old)` → `\(new)` was not caught in \(stats.histories) histories")
    }
  }

  @Test("the histories are sharp enough to catch an off-by-one in each threshold (alert path)")
  func mutantsAreCaughtAlert() throws {
    let mutants = [
      ("uses >= 20", "uses > 20"),
      ("since(first_use) >= 30d", "since(first_use) > 30d"),
      ("since(last_reminder) >= 1d", "since(last_reminder) > 1d"),
      ("and not rated", ""),
      ("and not declined", ""),
    ]
    for (old, new) in mutants {
      let policy = EquivPolicies.mutant(Self.alertPolicy, replacing: old, with: new)
      let stats = try EquivProperty.check(
        AppiraterDriver.self, seeds: (40_000..<40_400).map { UInt64($0) },
        mode: AppiraterOriginal.Mode.asIntended.onAlertPath, policy: policy, reports: 0, stopAtFirstMismatch: true)
      #expect(stats.mismatches > 0, "mutant `\(old)` → `\(new)` was not caught in \(stats.histories) histories")
    }
  }

  /// 20 launches over 30 days, a check that asks, another a day later; a new build (same marketing
  /// version), 20 launches over 30 days and a check.
  static let oncePerBuild: [AppiraterStep] =
    Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 20) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .launch(mayPrompt: true, answer: .remind),
      .wait(EquivTime.day + 1), .event(mayPrompt: true, answer: .remind), .relaunch("1.0.1"),
    ] + Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 20) + [
      .waitUntil(.firstUse, 30 * EquivTime.day), .event(mayPrompt: true, answer: .remind),
      .wait(EquivTime.week), .launch(mayPrompt: true, answer: .remind),
    ]

  @Test("through StoreKit, Appirater asks once per build; the alert policy would ask again")
  func oncePerBuild() throws {
    for mode in [AppiraterOriginal.Mode.asCoded, .asIntended] {
      let outcome = try AppiraterDriver.run(Self.oncePerBuild, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [true, false, true, false])
    }
    // The alert path's policy, on the StoreKit path: the StoreKit request is "asked, outcome unknown", so
    // nothing stops it the next day.
    let alertOnStoreKit = try AppiraterDriver.run(
      Self.oncePerBuild, mode: .asIntended, policy: Self.alertPolicy, explain: false)
    let mismatch = try #require(alertOnStoreKit.mismatch)
    #expect(!mismatch.original && mismatch.manager)
    // On the alert path, with "remind me later" answers, Appirater asks again after a day.
    let alert = try AppiraterDriver.run(
      Self.oncePerBuild, mode: AppiraterOriginal.Mode.asIntended.onAlertPath, policy: Self.alertPolicy, explain: false)
    #expect(alert.mismatch == nil)
    #expect(alert.decisions.map(\.original) == [true, true, true, true])
  }

  /// v1, then an update whose first increment is a significant event, a launch 5 days later (which sets
  /// Appirater's FirstUseDate, still 0, to that moment), 19 more launches and a check 30 days after the
  /// event. The manager's version started with the event: 30 days have passed and it prompts. Appirater's
  /// first use is 5 days later: only 25 days have passed.
  static let newVersionByEvent: [AppiraterStep] =
    [
      .launch(mayPrompt: false, answer: .remind), .relaunch("1.0.1"), .event(mayPrompt: true, answer: .remind),
      .wait(5 * EquivTime.day),
    ]
    + Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 20) + [
      .wait(25 * EquivTime.day), .event(mayPrompt: true, answer: .remind),
    ]

  @Test(
    "difference: Appirater's first use of a version started by a significant event is 1970, then the next increment",
    arguments: [false, true])
  func differenceFirstUse1970(alert: Bool) throws {
    let history = Self.newVersionByEvent
    let policy = alert ? Self.alertPolicy : Self.policy
    let codedMode = alert ? AppiraterOriginal.Mode.asCoded.onAlertPath : .asCoded
    let coded = try AppiraterDriver.run(history, mode: codedMode, policy: policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(!mismatch.original && mismatch.manager)
    // The 1970 date itself: right after the event, Appirater's days condition passes.
    #expect(coded.decisions.first.map { !$0.original && !$0.manager } == true)

    var flipped = codedMode
    flipped.firstUseOf1970AfterVersionChangeByEvent = false
    let intended = try AppiraterDriver.run(history, mode: flipped, policy: policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.last.map { $0.original && $0.manager } == true)
  }

  // MARK: The alert on screen across later steps

  /// 20 launches over 30 days, a launch whose alert stays up; significant events while it is up, over
  /// more than a day; then the user's `answer`, and a significant event a day later.
  static func alertLeftUp(_ answer: AppiraterOriginal.Answer) -> [AppiraterStep] {
    var steps: [AppiraterStep] = Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 20)
    steps += [.waitUntil(.firstUse, 30 * EquivTime.day), .launch(mayPrompt: true, answer: .hold)]
    for gap in [EquivTime.minute, 10 * EquivTime.minute, EquivTime.hour, 3 * EquivTime.hour, EquivTime.day] {
      steps += [.wait(gap), .event(mayPrompt: true, answer: .rate)]
    }
    steps += [.wait(EquivTime.hour), .answer(answer), .wait(EquivTime.day), .event(mayPrompt: true, answer: .remind)]
    return steps
  }

  @Test(
    "appirater-alert.policy never asks while its alert is up, though the policy would; it asks again after \"remind me later\""
  )
  func alertPolicyNeverAsksWhileUp() throws {
    let history = Self.alertLeftUp(.remind)
    let outcome = try AppiraterDriver.run(
      history, mode: AppiraterOriginal.Mode.asIntended.onAlertPath, policy: Self.alertPolicy, explain: false)
    #expect(outcome.mismatch == nil)
    #expect(outcome.decisions.map(\.manager) == [true, false, false, false, false, false, true])
    #expect(outcome.checksWhileUp == 5 && outcome.lateAnswers == 1 && outcome.answersAfterTimeout == 1)

    // The manager's own decision while the alert is up: the policy asks, the showing prompt blocks it.
    let clock = EquivClock()
    let harness = try EquivHarness(
      policy: Self.alertPolicy, appVersion: "2.0", build: "1", clock: clock, explain: true,
      settings: EquivSettings(newVersionOn: .build))
    for _ in 0..<20 { _ = harness.silent { $0.appLaunched() } }
    clock.advance(30 * EquivTime.day)
    #expect(harness.prompted(answering: nil) { $0.promptIfAppropriate() })
    for gap in [EquivTime.minute, 11 * EquivTime.minute, 5 * EquivTime.hour, 2 * EquivTime.day] {
      clock.advance(gap)
      #expect(!harness.prompted(answering: .rated) { $0.significantEvent(mayPrompt: true) })
      #expect(harness.explanation.contains(ReviewTracker.promptShowingSummary))
    }
    #expect(harness.presenter.requests == 1 && harness.inconsistencies.isEmpty)
  }

  @Test("a \"No, Thanks\" 3 hours after the alert appeared is recorded and respected (alert path)")
  func lateDeclineIsRespected() throws {
    var history: [AppiraterStep] = Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 20)
    history += [
      .waitUntil(.firstUse, 30 * EquivTime.day), .event(mayPrompt: true, answer: .hold), .wait(EquivTime.hour),
      .event(mayPrompt: true, answer: .rate), .wait(2 * EquivTime.hour), .answer(.decline), .wait(2 * EquivTime.day),
      .foreground(mayPrompt: true, answer: .remind), .event(mayPrompt: true, answer: .remind),
    ]
    let outcome = try AppiraterDriver.run(
      history, mode: AppiraterOriginal.Mode.asIntended.onAlertPath, policy: Self.alertPolicy, explain: false)
    #expect(outcome.mismatch == nil)
    #expect(outcome.decisions.map(\.manager) == [true, false, false, false])
    #expect(outcome.answersAfterTimeout == 1)
    // Had the user tapped "Remind me later" instead, both would ask two days later.
    let reminded = history.map { step -> AppiraterStep in
      if case .answer = step { return .answer(.remind) }
      return step
    }
    let again = try AppiraterDriver.run(
      reminded, mode: AppiraterOriginal.Mode.asIntended.onAlertPath, policy: Self.alertPolicy, explain: false)
    #expect(again.mismatch == nil)
    #expect(again.decisions.map(\.manager) == [true, false, true, false])
  }

  /// v1 used, an update to build 1.0.1 whose first call is the app's "Rate us" row (`rateApp`), then 20
  /// launches over 30 days and a launch that may prompt.
  static let rateAppFirst: [AppiraterStep] =
    [.launch(mayPrompt: false, answer: .remind), .relaunch("1.0.1"), .rateApp]
    + Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 20) + [
      .waitUntil(.versionStart, 30 * EquivTime.day), .launch(mayPrompt: true, answer: .remind),
    ]

  @Test(
    "difference: without appLaunched(), Appirater's rateApp before any increment rates the previous build; the manager starts the new one",
    arguments: [false, true])
  func differenceRateAppBeforeTheNewBuild(alert: Bool) throws {
    let history = Self.rateAppFirst
    let policy = alert ? Self.alertPolicy : Self.policy
    let codedMode = alert ? AppiraterOriginal.Mode.asCoded.onAlertPath : .asCoded
    let coded = try AppiraterDriver.run(history, mode: codedMode, policy: policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)

    var flipped = codedMode
    flipped.rateAppBeforeNewBuildIsLost = false
    let intended = try AppiraterDriver.run(history, mode: flipped, policy: policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.map(\.original) == [false])
    // Any other first call (here a launch) starts the new build in both: no difference.
    var launchFirst = history
    launchFirst.insert(.launch(mayPrompt: false, answer: .remind), at: 2)
    for mode in [codedMode, flipped] {
      let outcome = try AppiraterDriver.run(launchFirst, mode: mode, policy: policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false])
    }
  }

  @Test("the same update started by a launch agrees in both modes (alert path)")
  func updateStartedByALaunch() throws {
    let history: [AppiraterStep] =
      [.launch(mayPrompt: false, answer: .remind), .relaunch("1.0.1")]
      + Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 19) + [
        .waitUntil(.firstUse, 30 * EquivTime.day - 1), .launch(mayPrompt: true, answer: .remind), .wait(1),
        .foreground(mayPrompt: true, answer: .remind), .waitUntil(.reminder, EquivTime.day),
        .event(mayPrompt: true, answer: .rate), .wait(EquivTime.week), .event(mayPrompt: true, answer: .rate),
      ]
    for mode in [AppiraterOriginal.Mode.asCoded.onAlertPath, AppiraterOriginal.Mode.asIntended.onAlertPath] {
      let outcome = try AppiraterDriver.run(history, mode: mode, policy: Self.alertPolicy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false, true, true, false])
    }
  }
}
