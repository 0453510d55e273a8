import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

// MARK: - The original

/// Appirater (arashpayan/appirater at 4004792, `Appirater.m`) with its defaults, as its code decides
/// (reference notes, section 2): `daysUntilPrompt` 30, `usesUntilPrompt` 20, `significantEventsUntilPrompt`
/// -1 (off), `timeBeforeReminding` 1 day, debug off, the network up, Appirater's own alert (not the
/// SKStoreReviewController path), no delegate.
///
/// `NSUserDefaults` reads a missing double or integer as 0; dates are `timeIntervalSince1970` doubles.
struct AppiraterOriginal: CustomStringConvertible {
  /// Switches for each documented deliberate difference.
  struct Mode: Sendable {
    /// A new version whose first increment is a significant event: Appirater stores FirstUseDate = 0
    /// (1970), so the next increment sets it to that later moment (true); the project starts the
    /// version's first use when the version starts (false).
    var firstUseOf1970AfterVersionChangeByEvent: Bool

    static let asCoded = Mode(firstUseOf1970AfterVersionChangeByEvent: true)
    static let asIntended = Mode(firstUseOf1970AfterVersionChangeByEvent: false)
  }

  enum Answer: String, CaseIterable, Sendable {
    case rate, remind, decline

    var response: ReviewResponse {
      switch self {
      case .rate: .rated
      case .remind: .remindLater
      case .decline: .declined
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

  /// The alert's buttons: "Rate" (`rateApp`), "Remind me later", "No, Thanks".
  mutating func answer(_ answer: Answer, now: Date) {
    switch answer {
    case .rate: ratedCurrentVersion = true
    case .remind: reminderRequestDate = now.timeIntervalSince1970
    case .decline: declinedToRate = true
    }
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

  /// `connectedToNetwork && !declined && !alertVisible && !ratedCurrentVersion` (the network is up and the
  /// alert is answered before the next call).
  var ratingAlertIsAppropriate: Bool {
    !declinedToRate && !ratedCurrentVersion
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
  /// The process starts again, running `version`.
  case relaunch(String)

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
      random.pick([.remind, .remind, .remind, .rate, .decline, .decline])
    }
    var steps: [AppiraterStep] = [.launch(mayPrompt: random.chance(0.7), answer: answer(&random))]
    while steps.count < length {
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
      case 68..<96: steps.append(.event(mayPrompt: random.chance(0.8), answer: answer(&random)))
      default:
        // A relaunch, an update most of the time; the app calls appLaunched: (or, now and then, reports a
        // significant event first).
        if random.chance(0.7) { version = EquivVersions.upgrade(version, &random) }
        steps.append(.relaunch(version))
        if random.chance(0.75) {
          steps.append(.launch(mayPrompt: random.chance(0.7), answer: answer(&random)))
        } else {
          // The version starts with a significant event; often some time passes before the next use.
          steps.append(.event(mayPrompt: random.chance(0.7), answer: answer(&random)))
          if random.chance(0.6) { steps.append(.wait(random.gap())) }
        }
      }
    }
    return steps
  }

  /// Every Appirater entry point counts something before it decides, so every history is modelled.
  static func isValid(_ history: [AppiraterStep]) -> Bool { true }

  static func run(_ history: [AppiraterStep], mode: Mode, policy: String, explain: Bool) throws -> EquivOutcome {
    let clock = EquivClock()
    var original = AppiraterOriginal(bundleVersion: EquivVersions.initial, mode: mode)
    let harness = try EquivHarness(policy: policy, appVersion: EquivVersions.initial, clock: clock, explain: explain)
    var outcome = EquivOutcome()
    var versionStart: (version: String, date: Int64)?
    for (index, step) in history.enumerated() {
      let now = clock.date
      var originalPrompted: Bool?
      var managerPrompted = false
      switch step {
      case .launch, .foreground, .event:
        if versionStart?.version != original.bundleVersion {
          versionStart = (original.bundleVersion, clock.milliseconds)
        }
      case .wait, .waitUntil, .relaunch: break
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
        if shown { original.answer(answer, now: now) }
        originalPrompted = mayPrompt ? shown : nil
        managerPrompted = harness.prompted(answering: answer.response) { manager in
          if isLaunch { manager.appLaunched() } else { manager.appEnteredForeground() }
          return mayPrompt ? manager.promptIfAppropriate() : false
        }
      case .event(let mayPrompt, let answer):
        let shown = original.userDidSignificantEvent(canPromptForRating: mayPrompt, now: now)
        if shown { original.answer(answer, now: now) }
        originalPrompted = mayPrompt ? shown : nil
        managerPrompted = harness.prompted(answering: answer.response) { $0.significantEvent(mayPrompt: mayPrompt) }
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

@Suite("Equivalence: Appirater")
struct EquivalenceAppiraterTests {
  static let policy = (try? EquivPolicies.example("appirater")) ?? ""
  static let histories = 2_000
  static let shards = 4

  @Test("the example policy loads and compiles")
  func policyLoads() throws {
    #expect(Self.policy.contains("ask appirater_defaults"))
    _ = try EquivHarness(policy: Self.policy, appVersion: "1.0", clock: EquivClock(), explain: false)
  }

  @Test("random histories: the manager prompts exactly when Appirater (as intended) does", arguments: 0..<shards)
  func randomHistories(shard: Int) throws {
    let seeds = EquivProperty.seeds(base: 30_000, count: Self.histories, shard: shard, of: Self.shards)
    let stats = try EquivProperty.check(AppiraterDriver.self, seeds: seeds, mode: .asIntended, policy: Self.policy)
    print("Equivalence: Appirater shard \(shard): \(stats)")
    #expect(stats.mismatches == 0)
    #expect(stats.originalPrompts > stats.histories / 2)
  }

  @Test(
    "as coded, random histories run into the documented difference (the 1970 first use of a version started by a significant event)"
  )
  func codedDifferenceIsReached() throws {
    let found = try EquivProperty.firstDisagreement(
      AppiraterDriver.self, seeds: (30_000..<30_000 + 1_000).map { UInt64($0) }, mode: AppiraterOriginal.Mode.asCoded,
      policy: Self.policy)
    let report = try #require(found.report, "no disagreement in \(found.histories) histories as coded")
    print("Equivalence: Appirater as coded, first disagreement after \(found.histories) histories:\n\(report)")
    #expect(AppiraterDriver.isValid(found.minimised))
    let replay = try AppiraterDriver.run(
      found.minimised, mode: AppiraterOriginal.Mode.asIntended, policy: Self.policy, explain: false)
    #expect(replay.mismatch == nil, "the minimised history also disagrees as intended")
  }

  @Test("the histories are sharp enough to catch an off-by-one in each threshold")
  func mutantsAreCaught() throws {
    let mutants = [
      ("uses >= 20", "uses > 20"),
      ("since(first_use) >= 30d", "since(first_use) > 30d"),
      ("since(last_reminder) >= 1d", "since(last_reminder) > 1d"),
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
    "difference: Appirater's first use of a version started by a significant event is 1970, then the next increment")
  func differenceFirstUse1970() throws {
    let history = Self.newVersionByEvent
    let coded = try AppiraterDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(!mismatch.original && mismatch.manager)
    // The 1970 date itself: right after the event, Appirater's days condition passes.
    #expect(coded.decisions.first.map { !$0.original && !$0.manager } == true)

    var flipped = AppiraterOriginal.Mode.asCoded
    flipped.firstUseOf1970AfterVersionChangeByEvent = false
    let intended = try AppiraterDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.last.map { $0.original && $0.manager } == true)
  }

  @Test("the same update started by a launch agrees in both modes")
  func updateStartedByALaunch() throws {
    let history: [AppiraterStep] =
      [.launch(mayPrompt: false, answer: .remind), .relaunch("1.0.1")]
      + Array(repeating: .launch(mayPrompt: false, answer: .remind), count: 19) + [
        .waitUntil(.firstUse, 30 * EquivTime.day - 1), .launch(mayPrompt: true, answer: .remind), .wait(1),
        .foreground(mayPrompt: true, answer: .remind), .waitUntil(.reminder, EquivTime.day),
        .event(mayPrompt: true, answer: .rate), .wait(EquivTime.week), .event(mayPrompt: true, answer: .rate),
      ]
    for mode in [AppiraterOriginal.Mode.asCoded, .asIntended] {
      let outcome = try AppiraterDriver.run(history, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false, true, true, false])
    }
  }
}
