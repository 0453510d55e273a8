import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

// MARK: - The original

/// ReviewKit (simonmitchell/ReviewKit v1.2.3, `ReviewRequestController`) with its defaults, as its code
/// decides (reference notes, section 3), and a requester that always reports `nil` (StoreKit: "sent,
/// outcome unknown"). The storage is in memory, like ReviewKit's test suite's, unless
/// `Mode.userDefaultsStorageBug` models the default `UserDefaults` storage and its wrong-key bug.
///
/// One controller per process (`ReviewRequestController.shared`, a lazily created static): it is
/// created at its first use in the process, with a default session (version 1.0.0, score 0) that
/// `startSession` replaces. Actions logged before any `startSession` in the process go into that default
/// session: it is saved into the session list at the first action but not counted (`numberOfSessions`
/// and `firstSessionDate` stay).
struct ReviewKitOriginal: CustomStringConvertible {
  /// Switches for each documented deliberate difference.
  struct Mode: Sendable {
    /// `current - last` is taken part by part, each floored at 0, and compared with (0,0,1) by `>=`, so a
    /// downgrade (1.2.5 after 1.3.0 gives (0,0,5)) passes (true); the project needs a higher version (false).
    var downgradePassesVersionCheck: Bool
    /// The bad-session timeout's session count is `storage.sessions.count - offset`, where `offset` is the
    /// bad session's position among the previous sessions, so it counts the bad session and the current one
    /// too (true); the project counts the sessions started since the bad session (false).
    var badSessionDifferenceAsCoded: Bool
    /// ReviewKit's default storage, `UserDefaults`, writes `lastRequestVersion` under the sessions key
    /// (reference notes, 3.5): every request erases the session history and the last version always reads
    /// back nil, so the version check always passes (true). The in-memory storage keeps both (false). Not
    /// listed in reviewkit.policy's comment; the random histories use the in-memory storage either way
    /// unless a test sets it.
    var userDefaultsStorageBug: Bool = false
    /// The default session runs version 1.0.0 (`Version.initial`), whatever the app runs (true); the
    /// project's runs the app's version (false). It matters to the version check only.
    var defaultSessionRunsInitialVersion: Bool
    /// The bad-session timeout's count takes every stored session, the default sessions (actions logged with
    /// no session started) included (true); the project counts the sessions the app started (false), as
    /// ReviewKit's own `numberOfSessions` does.
    var badSessionCountsDefaultSessions: Bool

    static let asCoded = Mode(
      downgradePassesVersionCheck: true, badSessionDifferenceAsCoded: true, defaultSessionRunsInitialVersion: true,
      badSessionCountsDefaultSessions: true)
    static let asIntended = Mode(
      downgradePassesVersionCheck: false, badSessionDifferenceAsCoded: false, defaultSessionRunsInitialVersion: false,
      badSessionCountsDefaultSessions: false)
  }

  struct Version: Equatable, Comparable, CustomStringConvertible, Sendable {
    var major: UInt
    var minor: UInt
    var patch: UInt

    static let initial = Version(major: 1, minor: 0, patch: 0)

    /// `Bundle.version`: missing parts and parts that are not numbers are 0.
    init(_ text: String) {
      let parts = text.split(separator: ".").map { UInt($0) ?? 0 }
      major = parts.count > 0 ? parts[0] : 0
      minor = parts.count > 1 ? parts[1] : 0
      patch = parts.count > 2 ? parts[2] : 0
    }

    init(major: UInt, minor: UInt, patch: UInt) {
      self.major = major
      self.minor = minor
      self.patch = patch
    }

    static func < (lhs: Version, rhs: Version) -> Bool {
      guard lhs.major == rhs.major else { return lhs.major < rhs.major }
      guard lhs.minor == rhs.minor else { return lhs.minor < rhs.minor }
      return lhs.patch < rhs.patch
    }

    /// ReviewKit's subtraction: each part floored at 0.
    static func - (lhs: Version, rhs: Version) -> Version {
      Version(
        major: UInt(max(0, Int(lhs.major) - Int(rhs.major))), minor: UInt(max(0, Int(lhs.minor) - Int(rhs.minor))),
        patch: UInt(max(0, Int(lhs.patch) - Int(rhs.patch))))
    }

    var description: String { "\(major).\(minor).\(patch)" }
  }

  struct Session: Equatable, CustomStringConvertible {
    var date: Date
    var version: Version
    var score: Double
    var isBad: Bool
    /// A default session (not started by `startSession`, not counted); not part of ReviewKit's model.
    var isDefault = false

    /// Two sessions are equal when their date and version are.
    static func == (lhs: Session, rhs: Session) -> Bool {
      lhs.date == rhs.date && lhs.version == rhs.version
    }

    var description: String {
      "{\(EquivTime.milliseconds(date.timeIntervalSince1970) - EquivTime.start)ms v\(version) \(score)"
        + "\(isBad ? " bad" : "")\(isDefault ? " default" : "")}"
    }
  }

  struct Timeout {
    enum Operator { case and, or }
    var sessions: Int
    var duration: TimeInterval
    var operation: Operator

    func hasElapsedFor(sessions testSessions: Int, duration testDuration: TimeInterval) -> Bool {
      switch operation {
      case .and: testSessions > sessions && testDuration > duration
      case .or: testSessions > sessions || testDuration > duration
      }
    }
  }

  static let day: TimeInterval = 24 * 60 * 60
  static let week: TimeInterval = 7 * day

  // Configuration (defaults).
  let averageScoreThreshold: (score: Double, sessions: Int) = (score: 75, sessions: 3)
  let scoreThreshold: Double = 100
  let scoreBounds: ClosedRange<Double>? = -200.0...200.0
  let initialRequestTimeout = Timeout(sessions: 2, duration: 4 * day, operation: .and)
  let reviewRequestTimeout = Timeout(sessions: 4, duration: 8 * week, operation: .and)
  let reviewVersionTimeout: Version? = Version(major: 0, minor: 0, patch: 1)
  let disabledForBadSession = true
  let badSessionTimeout = Timeout(sessions: 2, duration: 2 * day, operation: .or)
  let mode: Mode

  // Storage (in memory).
  var sessions: [Session] = []
  var lastRequestDate: Date?
  var lastRequestSession: Int?
  var lastRequestVersion: Version?
  var firstSessionDate: Date?
  var numberOfSessions = 0

  // The controller (one per process): nil until its first use in the process.
  var controllerSession: Session?
  /// The version the app runs (what the project's default session runs).
  var appVersion: Version

  init(mode: Mode, appVersion: Version) {
    self.mode = mode
    self.appVersion = appVersion
  }

  /// The current session: the controller's, or the default session of a controller created now.
  var currentSession: Session {
    controllerSession
      ?? Session(
        date: Date(timeIntervalSince1970: 0), version: mode.defaultSessionRunsInitialVersion ? .initial : appVersion,
        score: 0, isBad: false, isDefault: true)
  }

  /// Whether the next action creates the controller, and so the default session, at its date.
  var needsDefaultSession: Bool { controllerSession == nil }

  /// A new process, running `version`: the controller is created again at its first use.
  mutating func relaunch(version: Version) {
    appVersion = version
    controllerSession = nil
  }

  private mutating func save(_ session: Session) {
    if let index = sessions.firstIndex(of: session) {
      sessions[index] = session
    } else {
      sessions.append(session)
    }
  }

  // MARK: Entry points

  mutating func startSession(version: Version, date: Date) {
    controllerSession = Session(date: date, version: version, score: 0, isBad: false)
    if firstSessionDate == nil { firstSessionDate = date }
    save(currentSession)
    numberOfSessions += 1
  }

  /// `log(action:callback:date:)`; returns whether a review was requested (and reported sent).
  mutating func log(score: Double, showReview: Bool, isBad: Bool, date currentDate: Date) -> Bool {
    if controllerSession == nil {
      // The controller is created now, with its default session.
      var session = currentSession
      session.date = currentDate
      controllerSession = session
    }
    guard var currentSession = controllerSession else { return false }
    defer { controllerSession = currentSession }
    if let scoreBounds {
      currentSession.score = min(max(currentSession.score + score, scoreBounds.lowerBound), scoreBounds.upperBound)
    } else {
      currentSession.score += score
    }
    if !currentSession.isBad, isBad { currentSession.isBad = true }
    controllerSession = currentSession
    save(currentSession)
    guard showReview else { return false }
    guard !currentSession.isBad || !disabledForBadSession else { return false }
    guard currentSessionIsAboveScoreThreshold else { return false }
    guard timeoutSinceFirstSessionHasElapsed(for: currentDate) else { return false }
    guard timeoutSinceLastBadSessionHasElapsed(for: currentDate) else { return false }
    guard versionChangeSinceLastRequestIsSatisfied else { return false }
    guard timeoutSinceLastRequestHasElapsed(for: currentDate) else { return false }
    guard averageScoreThresholdIsMet else { return false }
    // The requester reports nil ("unknown"), which counts as sent.
    lastRequestDate = currentDate
    lastRequestSession = numberOfSessions
    if mode.userDefaultsStorageBug {
      // `set { set(encoded version, forKey: "ReviewRequestSessions") }`: the sessions now decode to [].
      sessions = []
    } else {
      lastRequestVersion = currentSession.version
    }
    return true
  }

  // MARK: The criteria

  func timeoutSinceFirstSessionHasElapsed(for date: Date) -> Bool {
    let firstSessionDate = firstSessionDate ?? currentSession.date
    return initialRequestTimeout.hasElapsedFor(
      sessions: numberOfSessions, duration: date.timeIntervalSince(firstSessionDate))
  }

  func timeoutSinceLastRequestHasElapsed(for date: Date) -> Bool {
    guard let lastRequestDate, let lastRequestSession else { return true }
    return reviewRequestTimeout.hasElapsedFor(
      sessions: numberOfSessions - lastRequestSession, duration: date.timeIntervalSince(lastRequestDate))
  }

  /// The last bad session among the previous sessions, with its position among them.
  var lastBadSession: (offset: Int, element: Session)? {
    let previous = sessions.filter { $0 != currentSession }
    return previous.enumerated().map { $0 }.last(where: { $0.element.isBad })
  }

  func timeoutSinceLastBadSessionHasElapsed(for date: Date) -> Bool {
    guard let lastBad = lastBadSession else { return true }
    let sessionsDiff: Int
    if mode.badSessionDifferenceAsCoded && mode.badSessionCountsDefaultSessions {
      sessionsDiff = sessions.count - lastBad.offset
    } else {
      // Sessions since the bad one: the ones after it in the list (the current one included); only those
      // `startSession` started, unless the default sessions count; as coded, the bad session too.
      let after = sessions.filter {
        (mode.badSessionCountsDefaultSessions || !$0.isDefault) && $0.date > lastBad.element.date
      }.count
      sessionsDiff = mode.badSessionDifferenceAsCoded ? after + 1 : after
    }
    let timeSince = date.timeIntervalSince(lastBad.element.date)
    return badSessionTimeout.hasElapsedFor(sessions: sessionsDiff, duration: timeSince)
  }

  var versionChangeSinceLastRequestIsSatisfied: Bool {
    guard let lastRequestVersion, let reviewVersionTimeout else { return true }
    if mode.downgradePassesVersionCheck {
      return !(currentSession.version - lastRequestVersion < reviewVersionTimeout)
    }
    return currentSession.version > lastRequestVersion
  }

  var averageScoreThresholdIsMet: Bool {
    let previous = sessions.filter { $0 != currentSession }
    guard averageScoreThreshold.sessions > 0 else { return true }
    guard !previous.isEmpty else { return false }
    let scores = previous.suffix(averageScoreThreshold.sessions).map(\.score)
    let average = scores.reduce(0, +) / Double(scores.count)
    return average >= averageScoreThreshold.score
  }

  var currentSessionIsAboveScoreThreshold: Bool {
    currentSession.score > scoreThreshold
  }

  var description: String {
    let recent = sessions.suffix(6).map(\.description).joined(separator: " ")
    return "numberOfSessions=\(numberOfSessions) current=\(controllerSession.map(\.description) ?? "none yet") "
      + "firstSessionDate=\(firstSessionDate.map { "\(EquivTime.milliseconds($0.timeIntervalSince1970) - EquivTime.start)ms" } ?? "nil") "
      + "lastRequest=\(lastRequestDate.map { "\(EquivTime.milliseconds($0.timeIntervalSince1970) - EquivTime.start)ms" } ?? "nil") "
      + "session \(lastRequestSession.map(String.init) ?? "nil") version \(lastRequestVersion?.description ?? "nil") "
      + "sessions(\(sessions.count), last 6)=[\(recent)] "
      + "(times are ms after the history's start)"
  }
}

// MARK: - Histories

enum ReviewKitAnchor: String, Sendable {
  case firstSession, lastRequest, lastBadSession
}

enum ReviewKitStep: Sendable, CustomStringConvertible {
  case wait(Int64)
  case waitUntil(ReviewKitAnchor, Int64)
  /// `startSession(version:)`; the manager's `sessionStarted()`.
  case start
  /// `log(action: Action(score:showReview:isBad:))`; the manager's `action(score:isBad:mayPrompt:)`.
  case action(score: Double, isBad: Bool, showReview: Bool)
  /// The process starts again, running `version` (a new controller and a new manager); the app reports
  /// the launch (`appLaunched()`). A history starts with a launch of version 1.0.0.
  case relaunch(String)
  /// The app returns to the foreground (`appEnteredForeground()`; nothing to ReviewKit).
  case foreground

  var description: String {
    switch self {
    case .wait(let gap): return "+\(EquivTime.describe(gap))"
    case .waitUntil(let anchor, let offset): return "@\(anchor.rawValue)+\(EquivTime.describe(offset))"
    case .start: return "S"
    case .action(let score, let isBad, let showReview):
      let number = score == score.rounded() ? String(Int(score)) : String(score)
      return "A\(number)\(isBad ? "!" : "")\(showReview ? "?" : "")"
    case .relaunch(let version): return "R(\(version))"
    case .foreground: return "F"
    }
  }
}

enum ReviewKitDriver: EquivDriver {
  typealias Step = ReviewKitStep
  typealias Mode = ReviewKitOriginal.Mode

  static let name = "ReviewKit"

  static func score(_ random: inout EquivRandom) -> Double {
    switch random.int(0..<100) {
    case 0..<5: 1000
    case 5..<9: -1000
    case 9..<20: Double(-random.int(1...60))
    case 20..<25: 0
    case 25..<30: random.pick([12.5, 37.5, 62.5, 0.5])
    default: Double(random.pick([5, 10, 20, 25, 25, 30, 40, 50, 50, 60, 75, 75, 80, 100, 101, 120, 150, 200]))
    }
  }

  /// What the app does after a launch: start a session at once, start one a while later (ReviewKit's
  /// initial wait runs from the first session, not from the launch), or log actions with no session
  /// (they go into the default session).
  static func afterLaunch(_ random: inout EquivRandom) -> [ReviewKitStep] {
    switch random.int(0..<10) {
    case 0..<6: [.start]
    case 6..<8: [.wait(random.gap()), .start]
    default: []
    }
  }

  static func generate(_ random: inout EquivRandom) -> [ReviewKitStep] {
    let length = random.int(50...200)
    var version = EquivVersions.initial
    var steps: [ReviewKitStep] = afterLaunch(&random)
    // One history in five starts many sessions (more than the 50 the manager keeps).
    let sessionHeavy = random.chance(0.2)
    while steps.count < length {
      if sessionHeavy && random.chance(0.3) {
        steps.append(.start)
        continue
      }
      switch random.int(0..<100) {
      case 0..<8:
        if random.chance(0.6) { version = EquivVersions.upgrade(version, &random) }
        steps.append(.relaunch(version))
        steps += afterLaunch(&random)
      case 8..<10: steps.append(.foreground)
      case 10..<18: steps.append(.start)
      case 18..<32: steps.append(.wait(random.gap()))
      case 32..<38:
        steps.append(.wait(random.exactGap([4 * EquivTime.day, 2 * EquivTime.day, 8 * EquivTime.week, EquivTime.day])))
      case 38..<46:
        switch random.int(0..<3) {
        case 0: steps.append(.waitUntil(.firstSession, random.exactGap([4 * EquivTime.day])))
        case 1: steps.append(.waitUntil(.lastRequest, random.exactGap([8 * EquivTime.week])))
        default: steps.append(.waitUntil(.lastBadSession, random.exactGap([2 * EquivTime.day])))
        }
      default:
        steps.append(.action(score: score(&random), isBad: random.chance(0.05), showReview: random.chance(0.6)))
      }
    }
    return steps
  }

  /// Every history is modelled: actions logged with no session started go into the default session.
  /// (Two sessions begun at the same instant in the same version would be one session to ReviewKit: `run`
  /// keeps them a millisecond apart.)
  static func isValid(_ history: [ReviewKitStep]) -> Bool { true }

  static func run(_ history: [ReviewKitStep], mode: Mode, policy: String, explain: Bool) throws -> EquivOutcome {
    let clock = EquivClock()
    var appVersion = EquivVersions.initial
    var original = ReviewKitOriginal(mode: mode, appVersion: ReviewKitOriginal.Version(appVersion))
    let harness = try EquivHarness(policy: policy, appVersion: appVersion, clock: clock, explain: explain)
    _ = harness.silent { $0.appLaunched() }
    var outcome = EquivOutcome()
    var lastStart: Int64?
    for (index, step) in history.enumerated() {
      if case .action = step, original.needsDefaultSession {
        // The default session begins now: a millisecond after the last session, as for `start`.
        if lastStart == clock.milliseconds { clock.advance(1) }
        lastStart = clock.milliseconds
      }
      let now = clock.date
      var originalPrompted: Bool?
      var managerPrompted = false
      switch step {
      case .wait(let gap):
        clock.advance(gap)
      case .waitUntil(let anchor, let offset):
        let base: Date? =
          switch anchor {
          case .firstSession: original.firstSessionDate
          case .lastRequest: original.lastRequestDate
          case .lastBadSession: original.lastBadSession?.element.date
          }
        if let base { clock.advance(to: EquivTime.milliseconds(base.timeIntervalSince1970) + offset) }
      case .start:
        // Two sessions at the same instant would be one session to ReviewKit: keep them a millisecond apart.
        if lastStart == clock.milliseconds { clock.advance(1) }
        lastStart = clock.milliseconds
        original.startSession(version: ReviewKitOriginal.Version(appVersion), date: clock.date)
        managerPrompted = harness.silent { $0.sessionStarted() }
      case .action(let score, let isBad, let showReview):
        originalPrompted = original.log(score: score, showReview: showReview, isBad: isBad, date: now)
        if !showReview { originalPrompted = nil }
        managerPrompted = harness.prompted(answering: .unknown) {
          $0.action(score: score, isBad: isBad, mayPrompt: showReview)
        }
      case .relaunch(let version):
        appVersion = version
        original.relaunch(version: ReviewKitOriginal.Version(version))
        try harness.relaunch(appVersion: version)
        managerPrompted = harness.silent { $0.appLaunched() }
      case .foreground:
        managerPrompted = harness.silent { $0.appEnteredForeground() }
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

@Suite("Equivalence: ReviewKit")
struct EquivalenceReviewKitTests {
  static let policy = (try? EquivPolicies.example("reviewkit")) ?? ""
  static let histories = 2_000
  static let shards = 4

  @Test("the example policy loads and compiles")
  func policyLoads() throws {
    #expect(Self.policy.contains("ask reviewkit_defaults"))
    _ = try EquivHarness(policy: Self.policy, appVersion: "1.0", clock: EquivClock(), explain: false)
  }

  @Test("random histories: the manager prompts exactly when ReviewKit (as intended) does", arguments: 0..<shards)
  func randomHistories(shard: Int) throws {
    let seeds = EquivProperty.seeds(base: 50_000, count: Self.histories, shard: shard, of: Self.shards)
    let stats = try EquivProperty.check(ReviewKitDriver.self, seeds: seeds, mode: .asIntended, policy: Self.policy)
    print("Equivalence: ReviewKit shard \(shard): \(stats)")
    #expect(stats.mismatches == 0)
    #expect(stats.originalPrompts > stats.histories / 4)
  }

  @Test(
    "as coded, random histories run into a documented difference (the bad-session formula or the default session's version; no downgrades are generated)"
  )
  func codedDifferenceIsReached() throws {
    let found = try EquivProperty.firstDisagreement(
      ReviewKitDriver.self, seeds: (50_000..<50_000 + 1_000).map { UInt64($0) }, mode: ReviewKitOriginal.Mode.asCoded,
      policy: Self.policy)
    let report = try #require(found.report, "no disagreement in \(found.histories) histories as coded")
    print("Equivalence: ReviewKit as coded, first disagreement after \(found.histories) histories:\n\(report)")
    #expect(ReviewKitDriver.isValid(found.minimised))
    let replay = try ReviewKitDriver.run(
      found.minimised, mode: ReviewKitOriginal.Mode.asIntended, policy: Self.policy, explain: false)
    #expect(replay.mismatch == nil, "the minimised history also disagrees as intended")
  }

  @Test("the histories are sharp enough to catch an off-by-one in each threshold")
  func mutantsAreCaught() throws {
    let mutants = [
      ("session_score > 100", "session_score >= 100"),
      ("total_sessions > 2", "total_sessions >= 2"),
      ("since(first_session) > 4d", "since(first_session) >= 4d"),
      ("since(first_session) > 4d", "since(install_date) > 4d"),
      ("(sessions_since_bad ?? 0) > 2", "(sessions_since_bad ?? 0) > 1"),
      ("since(last_bad_session) > 2d", "since(last_bad_session) >= 2d"),
      ("(sessions_since_prompt ?? 5) > 4", "(sessions_since_prompt ?? 5) > 3"),
      ("since(last_prompt) > 8w", "since(last_prompt) >= 8w"),
      ("(average_score(3) ?? -1) >= 75", "(average_score(3) ?? -1) > 75"),
      ("(average_score(3) ?? -1) >= 75", "(average_score(2) ?? -1) >= 75"),
      ("never bad_session when session_bad", ""),
    ]
    for (old, new) in mutants {
      let policy = EquivPolicies.mutant(Self.policy, replacing: old, with: new)
      let stats = try EquivProperty.check(
        ReviewKitDriver.self, seeds: (60_000..<60_600).map { UInt64($0) }, mode: .asIntended, policy: policy,
        reports: 0, stopAtFirstMismatch: true)
      #expect(stats.mismatches > 0, "mutant `\(old)` → `\(new)` was not caught in \(stats.histories) histories")
    }
  }

  /// Three good sessions over more than 4 days, a prompt in 1.3.0, then a "downgrade" to 1.2.5 and, more than
  /// 8 weeks and 4 sessions later, a session good enough to prompt again.
  static let downgrade: [ReviewKitStep] = {
    var steps: [ReviewKitStep] = [.relaunch("1.3.0")]
    for _ in 0..<3 {
      steps += [.start, .action(score: 150, isBad: false, showReview: false), .wait(2 * EquivTime.day + 1)]
    }
    steps += [.start, .action(score: 150, isBad: false, showReview: true)]  // the prompt in 1.3.0
    steps += [.relaunch("1.2.5")]
    for _ in 0..<5 {
      steps += [.start, .action(score: 150, isBad: false, showReview: false), .wait(2 * EquivTime.week)]
    }
    steps += [.waitUntil(.lastRequest, 8 * EquivTime.week + 1), .action(score: 150, isBad: false, showReview: true)]
    return steps
  }()

  @Test("difference: a downgrade passes ReviewKit's version check")
  func differenceDowngrade() throws {
    let history = Self.downgrade
    let coded = try ReviewKitDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)
    #expect(coded.decisions.first.map { $0.original && $0.manager } == true)

    var flipped = ReviewKitOriginal.Mode.asCoded
    flipped.downgradePassesVersionCheck = false
    let intended = try ReviewKitDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.originalPrompts == 1)

    // An upgrade instead of the downgrade: both prompt again, in either mode.
    let upgrade = history.map { step -> ReviewKitStep in
      if case .relaunch("1.2.5") = step { return .relaunch("1.3.1") }
      return step
    }
    for mode in [ReviewKitOriginal.Mode.asCoded, flipped] {
      let outcome = try ReviewKitDriver.run(upgrade, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.originalPrompts == 2)
    }
  }

  /// The same history without the downgrade: a second prompt in 1.3.0.
  static let sameVersion: [ReviewKitStep] = downgrade.filter {
    if case .relaunch("1.2.5") = $0 { return false }
    return true
  }

  @Test(
    "reference notes 3.5: ReviewKit's UserDefaults storage forgets the last version, so it asks twice in one version")
  func userDefaultsStorageBug() throws {
    let history = Self.sameVersion
    var userDefaults = ReviewKitOriginal.Mode.asIntended
    userDefaults.userDefaultsStorageBug = true
    let coded = try ReviewKitDriver.run(history, mode: userDefaults, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)

    let inMemory = try ReviewKitDriver.run(history, mode: .asIntended, policy: Self.policy, explain: false)
    #expect(inMemory.mismatch == nil)
    #expect(inMemory.originalPrompts == 1)
  }

  /// Three good sessions over more than 4 days, then a bad session, then two more sessions (the second is the
  /// current one) within a day of the bad one. ReviewKit counts [bad, x, current] as 3 > 2 sessions and
  /// prompts; the project counts 2 sessions since the bad one, not more than 2, and waits.
  static let badSession: [ReviewKitStep] = {
    var steps: [ReviewKitStep] = []
    for _ in 0..<3 {
      steps += [.start, .action(score: 150, isBad: false, showReview: false), .wait(2 * EquivTime.day + 1)]
    }
    steps += [.start, .action(score: 150, isBad: true, showReview: true), .wait(EquivTime.hour)]
    steps += [.start, .action(score: 150, isBad: false, showReview: true), .wait(EquivTime.hour)]
    steps += [.start, .action(score: 150, isBad: false, showReview: true)]
    return steps
  }()

  @Test("difference: ReviewKit's bad-session timeout counts the bad session and the current one")
  func differenceBadSessionFormula() throws {
    let history = Self.badSession
    let coded = try ReviewKitDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)
    #expect(coded.decisions.map(\.original) == [false, false, true])

    var flipped = ReviewKitOriginal.Mode.asCoded
    flipped.badSessionDifferenceAsCoded = false
    let intended = try ReviewKitDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.map(\.original) == [false, false, false])

    // One more session and both prompt; or, instead, more than 2 days after the bad session.
    for tail: [ReviewKitStep] in [
      [.wait(EquivTime.hour), .start, .action(score: 150, isBad: false, showReview: true)],
      [.waitUntil(.lastBadSession, 2 * EquivTime.day + 1), .action(score: 1, isBad: false, showReview: true)],
    ] {
      let outcome = try ReviewKitDriver.run(history + tail, mode: flipped, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.last.map { $0.original && $0.manager } == true)
    }
    // Exactly 2 days after the bad session is not enough (strict), for both.
    let exact =
      history + [.waitUntil(.lastBadSession, 2 * EquivTime.day), .action(score: 1, isBad: false, showReview: true)]
    let outcome = try ReviewKitDriver.run(exact, mode: flipped, policy: Self.policy, explain: false)
    #expect(outcome.mismatch == nil)
    #expect(outcome.decisions.last.map { !$0.original && !$0.manager } == true)
  }

  /// Three good sessions over more than 4 days, a bad session, then two relaunches whose actions go into
  /// default sessions (no session started), and, three hours after the bad session, a started session
  /// good enough to prompt. ReviewKit's list holds [.., bad, default, default, current]: 4 sessions counted
  /// from the bad one, more than 2, so it asks; the project counts 1 session started since the bad one.
  static let badSessionThenDefaultSessions: [ReviewKitStep] = {
    var steps: [ReviewKitStep] = []
    for _ in 0..<3 {
      steps += [.start, .action(score: 150, isBad: false, showReview: false), .wait(2 * EquivTime.day + 1)]
    }
    steps += [.start, .action(score: 150, isBad: true, showReview: true)]
    for _ in 0..<2 {
      steps += [.wait(EquivTime.hour), .relaunch("1.0.0"), .action(score: 150, isBad: false, showReview: false)]
    }
    steps += [.wait(EquivTime.hour), .relaunch("1.0.0"), .start, .action(score: 150, isBad: false, showReview: true)]
    return steps
  }()

  @Test(
    "difference: ReviewKit counts its default sessions in the bad-session timeout; the manager counts started sessions")
  func differenceBadSessionCountsDefaultSessions() throws {
    let history = Self.badSessionThenDefaultSessions
    let coded = try ReviewKitDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(mismatch.original && !mismatch.manager)

    // Switched: the count (as coded, the bad session included) over the started sessions only agrees.
    var flipped = ReviewKitOriginal.Mode.asCoded
    flipped.badSessionCountsDefaultSessions = false
    let intended = try ReviewKitDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.map(\.original) == [false, false])
    // The same history with started sessions in place of the default ones: both ask.
    let started = history.map { step -> ReviewKitStep in
      if case .relaunch = step { return .start }
      return step
    }
    let outcome = try ReviewKitDriver.run(started, mode: .asIntended, policy: Self.policy, explain: false)
    #expect(outcome.mismatch == nil)
    #expect(outcome.decisions.last.map { $0.original && $0.manager } == true)
  }

  /// Three good sessions, each begun a day after its launch, then a good session more than 4 days after
  /// the install but not after the first session: ReviewKit waits 4 days from the first session.
  static let firstSessionLate: [ReviewKitStep] = [
    .wait(EquivTime.day), .start, .action(score: 150, isBad: false, showReview: false), .wait(EquivTime.day),
    .start, .action(score: 150, isBad: false, showReview: false), .wait(EquivTime.day),
    .start, .action(score: 150, isBad: false, showReview: false),
    .waitUntil(.firstSession, 4 * EquivTime.day - EquivTime.hour), .start,
    .action(score: 150, isBad: false, showReview: true),
    .waitUntil(.firstSession, 4 * EquivTime.day + 1), .action(score: 1, isBad: false, showReview: true),
  ]

  @Test("the initial wait runs from the first session, not from the launch before it")
  func initialWaitFromFirstSession() throws {
    for mode in [ReviewKitOriginal.Mode.asCoded, .asIntended] {
      let outcome = try ReviewKitDriver.run(Self.firstSessionLate, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false, true])
    }
    // From the install (the launch a day before the first session), the first check would already ask.
    let fromInstall = EquivPolicies.mutant(Self.policy, replacing: "since(first_session)", with: "since(install_date)")
    let outcome = try ReviewKitDriver.run(Self.firstSessionLate, mode: .asIntended, policy: fromInstall, explain: false)
    let mismatch = try #require(outcome.mismatch)
    #expect(!mismatch.original && mismatch.manager)
  }

  /// Three good sessions over more than 4 days; a fourth that reaches 90; a relaunch with no session started,
  /// then actions. ReviewKit logs them into a fresh default session (score 0, not counted), so +20 gives 20,
  /// not 110; +90 more gives 110 and it asks. The manager does the same.
  static let defaultSession: [ReviewKitStep] = {
    var steps: [ReviewKitStep] = []
    for _ in 0..<3 {
      steps += [.start, .action(score: 150, isBad: false, showReview: false), .wait(2 * EquivTime.day + 1)]
    }
    steps += [.start, .action(score: 90, isBad: false, showReview: true), .wait(EquivTime.hour)]
    steps += [.relaunch("1.0.0"), .wait(EquivTime.minute), .action(score: 20, isBad: false, showReview: true)]
    steps += [.foreground, .action(score: 90, isBad: false, showReview: true)]
    return steps
  }()

  @Test("after a relaunch with no session started, actions go into a fresh, uncounted default session")
  func defaultSessionAfterRelaunch() throws {
    for mode in [ReviewKitOriginal.Mode.asCoded, .asIntended] {
      let outcome = try ReviewKitDriver.run(Self.defaultSession, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false, false, true])
    }
    // The manager's state: four sessions counted, the fourth in the history, the default one in progress.
    let clock = EquivClock()
    let harness = try EquivHarness(policy: Self.policy, appVersion: "1.0.0", clock: clock, explain: false)
    harness.manager.appLaunched()
    harness.manager.sessionStarted()
    harness.manager.action(score: 90, mayPrompt: false)
    clock.advance(EquivTime.hour)
    try harness.relaunch(appVersion: "1.0.0")
    harness.manager.appLaunched()
    clock.advance(EquivTime.minute)
    harness.manager.action(score: 20, mayPrompt: false)
    let state = harness.manager.currentState
    #expect((state.sessions, state.totalSessions) == (1, 1))
    #expect(state.recentSessions.map(\.score) == [Number(90)])
    let current = try #require(state.currentSession)
    #expect((current.number, current.score, current.version) == (1, Number(20), "1.0.0"))
    #expect(state.firstSession == Timestamp(millisecondsSince1970: EquivTime.start))
  }

  /// The default-session history after an update to 1.0.1, once a prompt was shown in 1.0.0: ReviewKit's
  /// default session runs 1.0.0, which is not 0.0.1 above the last prompt's version, so it does not ask;
  /// the manager's runs 1.0.1, and it does.
  static let defaultSessionAfterUpdate: [ReviewKitStep] = {
    var steps: [ReviewKitStep] = []
    for _ in 0..<3 {
      steps += [.start, .action(score: 150, isBad: false, showReview: false), .wait(2 * EquivTime.day + 1)]
    }
    steps += [.start, .action(score: 150, isBad: false, showReview: true)]  // the prompt in 1.0.0
    for _ in 0..<5 {
      steps += [.wait(2 * EquivTime.week), .start, .action(score: 150, isBad: false, showReview: false)]
    }
    steps += [.waitUntil(.lastRequest, 8 * EquivTime.week + 1), .relaunch("1.0.1")]
    steps += [.action(score: 150, isBad: false, showReview: true)]
    return steps
  }()

  @Test("difference: ReviewKit's default session runs version 1.0.0, the manager's the app's version")
  func differenceDefaultSessionVersion() throws {
    let history = Self.defaultSessionAfterUpdate
    let coded = try ReviewKitDriver.run(history, mode: .asCoded, policy: Self.policy, explain: false)
    let mismatch = try #require(coded.mismatch)
    #expect(mismatch.step == history.count - 1)
    #expect(!mismatch.original && mismatch.manager)
    #expect(coded.decisions.first.map { $0.original && $0.manager } == true)

    var flipped = ReviewKitOriginal.Mode.asCoded
    flipped.defaultSessionRunsInitialVersion = false
    let intended = try ReviewKitDriver.run(history, mode: flipped, policy: Self.policy, explain: false)
    #expect(intended.mismatch == nil)
    #expect(intended.decisions.map(\.original) == [true, true])
  }

  @Test("scores are clamped to -200...200 on both sides")
  func clamping() throws {
    // In the fourth session: +1000 gives 200 (not 1000), so -150 leaves 50 and does not prompt (850 would);
    // then -1000 gives -200 (not -950), so +301 reaches 101 and prompts (-649 would not).
    let history: [ReviewKitStep] = [
      .start, .action(score: 1000, isBad: false, showReview: false),
      .action(score: 1000, isBad: false, showReview: false),
      .wait(3 * EquivTime.day), .start, .action(score: 200, isBad: false, showReview: false),
      .wait(3 * EquivTime.day), .start, .action(score: 200, isBad: false, showReview: false),
      .start, .action(score: 1000, isBad: false, showReview: false),
      .action(score: -150, isBad: false, showReview: true),
      .action(score: -1000, isBad: false, showReview: false), .action(score: 301, isBad: false, showReview: true),
    ]
    for mode in [ReviewKitOriginal.Mode.asCoded, .asIntended] {
      let outcome = try ReviewKitDriver.run(history, mode: mode, policy: Self.policy, explain: false)
      #expect(outcome.mismatch == nil)
      #expect(outcome.decisions.map(\.original) == [false, true])
    }
  }
}
