import Foundation
import Testing

@testable import PolicyAnalysis
@testable import PolicyCore
@testable import ReviewAnalysis
@testable import ReviewPolicy

// Shared machinery of the equivalence suites (`Equivalence: ...`): each suite re-implements one
// review manager we replace, exactly as its code decides, and runs the same random usage
// history through that re-implementation and through a real `ReviewManager` running the
// matching `Examples/*.policy`. At every step where the original considers a prompt, the
// manager must ask exactly when the original asks.
//
// Time. Every history runs between `EquivTime.start` and `EquivTime.end`, inside
// [2^30, 2^31) seconds since 1970. There a `Double` number of seconds has the same spacing
// (2^-22 s) everywhere, and `Date(timeIntervalSince1970:)` keeps it (its reference-date value
// stays below 2^31 too), so two instants whose milliseconds differ by a whole number of
// seconds also differ by exactly that many seconds in the originals' `TimeInterval`
// arithmetic. A gap that lands exactly on a threshold (30 days, 1 day, 4 days, 8 weeks) is
// therefore exact for both the originals (seconds, `Double`) and the manager (milliseconds).
// `EquivClock` checks, at every step, that the manager's `Timestamp(date)` gives back the
// milliseconds the history meant.

// MARK: - Time

enum EquivTime {
  static let millisecond: Int64 = 1
  static let second: Int64 = 1000
  static let minute: Int64 = 60 * second
  static let hour: Int64 = 60 * minute
  static let day: Int64 = 24 * hour
  static let week: Int64 = 7 * day

  /// 2004-11-09T11:33:20Z, in milliseconds since 1970.
  static let start: Int64 = 1_100_000_000_000
  /// 2036-07-18T13:20:00Z: histories never go further (2^31 s is in 2038).
  static let end: Int64 = 2_100_000_000_000

  /// The date of `milliseconds` since 1970, the way the clock hands it to both sides.
  static func date(_ milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// The milliseconds of a `timeIntervalSince1970` the originals stored.
  static func milliseconds(_ seconds: Double) -> Int64 {
    Int64((seconds * 1000).rounded())
  }

  /// `30d`, `1d-1ms`, `3h12m5s`, `250ms`.
  static func describe(_ milliseconds: Int64) -> String {
    if milliseconds == 0 { return "0" }
    if milliseconds < 0 { return "-" + describe(-milliseconds) }
    for (unit, name) in [(week, "w"), (day, "d"), (hour, "h"), (minute, "m"), (second, "s")] {
      for delta: Int64 in [0, -1, 1] where (milliseconds - delta) % unit == 0 && milliseconds - delta >= unit {
        let whole = "\((milliseconds - delta) / unit)\(name)"
        return delta == 0 ? whole : whole + (delta > 0 ? "+1ms" : "-1ms")
      }
    }
    var rest = milliseconds
    var text = ""
    for (unit, name) in [(day, "d"), (hour, "h"), (minute, "m"), (second, "s"), (millisecond, "ms")] where rest >= unit
    {
      text += "\(rest / unit)\(name)"
      rest %= unit
    }
    return text
  }
}

/// The clock of one history: it holds the current instant (whole milliseconds) and hands out its `Date`;
/// only the history moves it.
final class EquivClock: @unchecked Sendable {
  // @unchecked: `current` is only touched under `lock`.
  private let lock = NSLock()
  private var current: Int64

  init(_ start: Int64 = EquivTime.start) {
    current = start
  }

  var milliseconds: Int64 {
    lock.lock()
    defer { lock.unlock() }
    return current
  }

  var date: Date { EquivTime.date(milliseconds) }

  /// Moves the clock forward by `delta` milliseconds (never past ``EquivTime/end``).
  func advance(_ delta: Int64) {
    lock.lock()
    current = min(current + max(delta, 0), EquivTime.end)
    lock.unlock()
  }

  /// Moves the clock to `target` if it is later than now (never past ``EquivTime/end``).
  func advance(to target: Int64) {
    lock.lock()
    if target > current { current = min(target, EquivTime.end) }
    lock.unlock()
  }

  var function: @Sendable () -> Date {
    { [self] in self.date }
  }
}

// MARK: - Randomness

/// The package's seeded generator (SplitMix64) with this suite's seeding, so a seed names one history for good.
struct EquivRandom: RandomNumberGenerator {
  private var generator: SeededGenerator

  init(seed: UInt64) {
    generator = SeededGenerator(seed: seed &* SeededGenerator.increment ^ 0xD1B5_4A32_D192_ED03)
  }

  mutating func next() -> UInt64 { generator.next() }

  mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
  mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }
  mutating func pick<T>(_ values: [T]) -> T { values[int(0..<values.count)] }

  /// A gap from 1 ms to 10 weeks, log-uniform: mostly seconds to hours, often days, sometimes weeks.
  mutating func gap() -> Int64 {
    let upper = log(Double(10 * EquivTime.week))
    return max(1, Int64(exp(Double.random(in: 0...upper, using: &self))))
  }

  /// How long an alert stays on screen before the user answers (or the next step): seconds to a day,
  /// often around the manager's 10-minute `promptTimeout` (which no longer closes a presenter's prompt).
  mutating func lateGap() -> Int64 {
    switch int(0..<10) {
    case 0..<3: return pick([10 * EquivTime.minute - 1, 10 * EquivTime.minute, 10 * EquivTime.minute + 1])
    case 3..<5: return pick([5 * EquivTime.second, 2 * EquivTime.minute, 11 * EquivTime.minute])
    case 5..<8: return pick([EquivTime.hour, 3 * EquivTime.hour, 9 * EquivTime.hour])
    default: return pick([EquivTime.day - 1, EquivTime.day, 2 * EquivTime.day])
    }
  }

  /// One of the thresholds the policies use, exactly, or one millisecond either side.
  mutating func exactGap(_ thresholds: [Int64]) -> Int64 {
    pick(thresholds) + pick([0, 0, 0, -1, 1])
  }
}

enum EquivVersions {
  static let initial = "1.0.0"

  /// A higher `major.minor.patch`: mostly a patch, sometimes a minor, rarely a major release; parts
  /// sometimes jump, so they soon have two digits (1.9.0 → 1.10.0 compares as numbers, not text).
  static func upgrade(_ version: String, _ random: inout EquivRandom) -> String {
    var parts = version.split(separator: ".").map { Int($0) ?? 0 }
    while parts.count < 3 { parts.append(0) }
    switch random.int(0..<10) {
    case 0: parts = [parts[0] + 1, 0, 0]
    case 1..<4: parts = [parts[0], parts[1] + random.pick([1, 1, 2, 7]), 0]
    default: parts[2] += random.pick([1, 1, 1, 2, 5, 9])
    }
    return parts.map(String.init).joined(separator: ".")
  }
}

// MARK: - Policies

enum EquivPolicies {
  /// The root of the package, from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Equivalence
    .deletingLastPathComponent()  // ReviewPolicyTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// `Examples/<name>.policy`, as shipped.
  static func example(_ name: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent("Examples/\(name).policy"), encoding: .utf8)
  }

  /// `source` with `old` replaced by `new` (a mutant for the sensitivity tests); records an issue if `old` is absent.
  static func mutant(_ source: String, replacing old: String, with new: String) -> String {
    guard source.contains(old) else {
      Issue.record("the policy no longer contains `\(old)`: update the mutant")
      return source
    }
    return source.replacingOccurrences(of: old, with: new)
  }
}

// MARK: - The manager side

/// Records prompt requests, reports each one shown (an alert on screen), and answers it with the
/// response the history gives the original: at once, or later (`answer == nil` holds the reply until
/// the history's user answers, as an app holds its alert's reply while the alert is up).
final class EquivPresenter: @unchecked Sendable {
  // @unchecked: the mutable fields are only touched under `lock`.
  private let lock = NSLock()
  private var pendingAnswer: ReviewResponse?
  private var recorded: [PromptRequest] = []
  private var oddities: [String] = []
  private var heldReply: PromptReply?

  var answer: ReviewResponse? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return pendingAnswer
    }
    set {
      lock.lock()
      pendingAnswer = newValue
      lock.unlock()
    }
  }

  /// How many prompts were requested.
  var requests: Int {
    lock.lock()
    defer { lock.unlock() }
    return recorded.count
  }

  /// Requests that were not plain policy decisions to ask (forced, or without an "ask" decision).
  var anomalies: [String] {
    lock.lock()
    defer { lock.unlock() }
    return oddities
  }

  /// Whether a prompt is on screen, its reply held for a later answer.
  var isHolding: Bool {
    lock.lock()
    defer { lock.unlock() }
    return heldReply != nil
  }

  /// Answers the prompt on screen with `response`; returns false when none is held.
  func answerHeld(_ response: ReviewResponse) -> Bool {
    lock.lock()
    let reply = heldReply
    heldReply = nil
    lock.unlock()
    reply?.answer(response)
    return reply != nil
  }

  /// The prompt is gone without an answer (the app hid it, or the process ended).
  func dropHeld() {
    lock.lock()
    heldReply = nil
    lock.unlock()
  }

  var presenter: ClosurePresenter {
    ClosurePresenter.reporting { [self] request, reply in
      self.lock.lock()
      self.recorded.append(request)
      if request.isForced || request.explanation.decision?.shouldAsk != true {
        self.oddities.append("a request that the policy did not decide: \(request.explanation.summary)")
      }
      if self.heldReply != nil {
        self.oddities.append("a request while another prompt is on screen: \(request.explanation.summary)")
      }
      let response = self.pendingAnswer
      if response == nil { self.heldReply = reply }
      self.lock.unlock()
      reply.shown()
      if let response { reply.answer(response) }
    }
  }
}

/// Keeps the explanation of the latest decision (only when a history is replayed for a report).
final class EquivDecisionLog: @unchecked Sendable {
  private let lock = NSLock()
  private var text: String?

  var latest: String? {
    lock.lock()
    defer { lock.unlock() }
    return text
  }

  func clear() {
    lock.lock()
    text = nil
    lock.unlock()
  }

  var logger: @Sendable (ReviewLogEntry) -> Void {
    { [self] entry in
      guard
        entry.decision != nil || entry.event == .promptCheck || entry.event == .significantEvent
          || entry.event == .action
      else { return }
      self.lock.lock()
      self.text = entry.details.isEmpty ? entry.summary : entry.details
      self.lock.unlock()
    }
  }
}

/// How a harness configures its managers beyond the policy and the version.
struct EquivSettings {
  /// Whether a new build starts a new version (`newVersionOn: .build`, as Appirater counts per build).
  var newVersionOn: ReviewManager.NewVersionTrigger = .appVersion
  /// What a prompt still showing when the app leaves the foreground means.
  var promptLeftShowing: ReviewManager.PromptLeftShowing = .dismissed
}

/// A switch the harness's `shouldCountUse` reads.
final class EquivVeto: @unchecked Sendable {
  // @unchecked: `on` is only touched under `lock`.
  private let lock = NSLock()
  private var on = false

  var isOn: Bool {
    get {
      lock.lock()
      defer { lock.unlock() }
      return on
    }
    set {
      lock.lock()
      on = newValue
      lock.unlock()
    }
  }
}

/// A real `ReviewManager` over an in-memory store, the history's clock and a recording presenter.
/// A relaunch (or an app update) is a new manager over the same store.
final class EquivHarness {
  let clock: EquivClock
  let store = InMemoryReviewStore()
  let presenter = EquivPresenter()
  let decisions: EquivDecisionLog?
  private let policy: String
  private let settings: EquivSettings
  /// Whether the managers' `shouldCountUse` vetoes the use being reported.
  let veto = EquivVeto()
  private(set) var manager: ReviewManager
  private(set) var appVersion: String
  /// The running build, when the manager is given one.
  private(set) var build: String?
  /// Calls whose returned Bool disagreed with the presenter, and requests the policy did not decide
  /// (should never happen).
  private(set) var inconsistencies: [String] = []
  private var reportedAnomalies = 0

  init(
    policy: String, appVersion: String, build: String? = nil, clock: EquivClock, explain: Bool,
    settings: EquivSettings = EquivSettings()
  ) throws {
    self.policy = policy
    self.clock = clock
    self.appVersion = appVersion
    self.build = build
    self.settings = settings
    decisions = explain ? EquivDecisionLog() : nil
    manager = try EquivHarness.make(policy, appVersion, build, settings, store, clock, presenter, decisions, veto)
  }

  private func make() throws -> ReviewManager {
    try EquivHarness.make(policy, appVersion, build, settings, store, clock, presenter, decisions, veto)
  }

  private static func make(
    _ policy: String, _ appVersion: String, _ build: String?, _ settings: EquivSettings, _ store: InMemoryReviewStore,
    _ clock: EquivClock, _ presenter: EquivPresenter, _ decisions: EquivDecisionLog?, _ veto: EquivVeto
  ) throws -> ReviewManager {
    try ReviewManager(
      configuration: .init(
        appVersion: appVersion, build: build, bundledPolicy: policy, appName: "Equivalence", store: store,
        clock: clock.function, texts: .english, presenter: presenter.presenter, logger: decisions?.logger,
        shouldCountUse: { _ in !veto.isOn }, scoreBounds: -200...200, newVersionOn: settings.newVersionOn,
        promptLeftShowing: settings.promptLeftShowing))
  }

  /// A new process, possibly running a new app version (or build), over the same stored state.
  func relaunch(appVersion: String, build: String? = nil) throws {
    // The process ends: an alert still up is gone, unanswered.
    presenter.dropHeld()
    self.appVersion = appVersion
    self.build = build
    manager = try make()
  }

  /// Runs `body` with `answer` ready for the presenter; returns whether the manager requested a prompt.
  func prompted(answering answer: ReviewResponse?, _ body: (ReviewManager) -> Bool) -> Bool {
    decisions?.clear()
    presenter.answer = answer
    let before = presenter.requests
    let returned = body(manager)
    let presented = presenter.requests > before
    if returned != presented {
      inconsistencies.append("returned \(returned) but the presenter was \(presented ? "" : "not ")asked")
    }
    inconsistencies += presenter.anomalies.dropFirst(reportedAnomalies)
    reportedAnomalies = presenter.anomalies.count
    return presented
  }

  /// The user answers the prompt still on screen with `response`, `delay` milliseconds after it
  /// appeared: the manager must record the answer (however late), not refuse it.
  func answerLater(_ response: ReviewResponse, delay: Int64) {
    decisions?.clear()
    let before = manager.currentState.responses
    guard presenter.answerHeld(response) else {
      inconsistencies.append("no prompt on screen to answer with \(response.rawValue)")
      return
    }
    let after = manager.currentState.responses
    let now = Timestamp(clock.date)
    if after.last?.response != response || after.last?.date != now || after == before {
      inconsistencies.append(
        "the answer \(response.rawValue) \(EquivTime.describe(delay)) after the prompt appeared was not recorded")
    }
  }

  /// The prompt on screen is gone without an answer (the app hid it, or the process ended).
  func promptGone() {
    presenter.dropHeld()
  }

  /// Runs `body`, which must never prompt; returns whether it did. With `vetoingUse`, the configuration's
  /// `shouldCountUse` vetoes the uses `body` reports.
  func silent(vetoingUse: Bool = false, _ body: (ReviewManager) -> Void) -> Bool {
    decisions?.clear()
    presenter.answer = .dismissed
    let before = presenter.requests
    veto.isOn = vetoingUse
    body(manager)
    veto.isOn = false
    return presenter.requests > before
  }

  /// The explanation of the latest decision (when replaying for a report), else of the decision now.
  var explanation: String {
    decisions?.latest ?? manager.explainCurrentDecision().text
  }

  /// Whether the manager sees the clock's instant to the millisecond (see the note at the top).
  var timestampIsExact: Bool {
    Timestamp(clock.date).millisecondsSince1970 == clock.milliseconds
  }
}

// MARK: - Runs and reports

/// The first step where the manager and the original disagree.
struct EquivMismatch {
  var step: Int
  var original: Bool
  var manager: Bool
  var originalState: String
  var explanation: String
  var note: String = ""

  var summary: String {
    original
      ? "the original prompts at step \(step) but the manager does not"
      : "the manager prompts at step \(step) but the original does not"
  }
}

/// What one history did on both sides.
struct EquivOutcome {
  var steps = 0
  /// Steps where the original considered a prompt (and the manager was asked to decide).
  var checks = 0
  var originalPrompts = 0
  var managerPrompts = 0
  var mismatch: EquivMismatch?
  /// The decisions at each check, in order (original, manager).
  var decisions: [(step: Int, original: Bool, manager: Bool)] = []
  /// Answers given to a prompt still on screen at a later step than the one that showed it.
  var lateAnswers = 0
  /// Late answers given more than 10 minutes (the manager's `promptTimeout`) after the prompt appeared.
  var answersAfterTimeout = 0
  /// Checks made while the original's alert was on screen.
  var checksWhileUp = 0
  /// Times the app left the foreground with the original's alert on screen (declined, hidden or kept).
  var leftWithAlertUp = 0

  /// Counts an answer given `delay` milliseconds after its prompt appeared.
  mutating func lateAnswer(after delay: Int64) {
    lateAnswers += 1
    if delay > 10 * EquivTime.minute { answersAfterTimeout += 1 }
  }

  /// Records a step; returns false (stop) at the first disagreement.
  mutating func record(
    step: Int, original: Bool?, manager: Bool, state: @autoclosure () -> String, explanation: @autoclosure () -> String
  ) -> Bool {
    steps = step + 1
    if let original {
      checks += 1
      if original { originalPrompts += 1 }
      decisions.append((step, original, manager))
    }
    if manager { managerPrompts += 1 }
    guard (original ?? false) != manager else { return true }
    mismatch = EquivMismatch(
      step: step, original: original ?? false, manager: manager, originalState: state(), explanation: explanation(),
      note: original == nil ? "(a step where the original never prompts)" : "")
    return false
  }

  /// Records a harness problem as a mismatch at `step`.
  mutating func fail(step: Int, _ note: String, state: String, explanation: String) {
    steps = step + 1
    mismatch = EquivMismatch(
      step: step, original: false, manager: false, originalState: state, explanation: explanation, note: note)
  }
}

/// One system: its history steps, its generator and its driver.
protocol EquivDriver {
  associatedtype Step: CustomStringConvertible
  associatedtype Mode
  static var name: String { get }
  /// A random history (seeded by the caller).
  static func generate(_ random: inout EquivRandom) -> [Step]
  /// Whether `history` is one the driver models (used when minimising).
  static func isValid(_ history: [Step]) -> Bool
  /// Runs `history` through the original in `mode` and through a manager with `policy`.
  /// `explain` keeps the explanation of each decision (slower; for reports).
  static func run(_ history: [Step], mode: Mode, policy: String, explain: Bool) throws -> EquivOutcome
}

struct EquivStats: CustomStringConvertible {
  var histories = 0
  var steps = 0
  var checks = 0
  var originalPrompts = 0
  var managerPrompts = 0
  var mismatches = 0
  var lateAnswers = 0
  var answersAfterTimeout = 0
  var checksWhileUp = 0
  var leftWithAlertUp = 0
  var firstMismatchSeed: UInt64?

  mutating func add(_ outcome: EquivOutcome) {
    histories += 1
    steps += outcome.steps
    checks += outcome.checks
    originalPrompts += outcome.originalPrompts
    managerPrompts += outcome.managerPrompts
    lateAnswers += outcome.lateAnswers
    answersAfterTimeout += outcome.answersAfterTimeout
    checksWhileUp += outcome.checksWhileUp
    leftWithAlertUp += outcome.leftWithAlertUp
    if outcome.mismatch != nil { mismatches += 1 }
  }

  var description: String {
    "\(histories) histories, \(steps) steps, \(checks) prompt checks, \(originalPrompts) prompts by the original, "
      + "\(managerPrompts) by the manager, \(lateAnswers) late answers (\(answersAfterTimeout) after 10 minutes), "
      + "\(checksWhileUp) checks while an alert is up, \(leftWithAlertUp) times the app left with it up, "
      + "\(mismatches) histories with a mismatch"
  }
}

enum EquivProperty {
  /// Runs the histories of `seeds`; records an issue (minimised, explained) for the first `reports` mismatches.
  static func check<D: EquivDriver>(
    _ driver: D.Type, seeds: some Sequence<UInt64>, mode: D.Mode, policy: String, reports: Int = 3,
    stopAtFirstMismatch: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> EquivStats {
    var stats = EquivStats()
    for seed in seeds {
      var random = EquivRandom(seed: seed)
      let history = D.generate(&random)
      let outcome = try D.run(history, mode: mode, policy: policy, explain: false)
      stats.add(outcome)
      guard let mismatch = outcome.mismatch else { continue }
      if stats.firstMismatchSeed == nil { stats.firstMismatchSeed = seed }
      if stats.mismatches <= reports {
        let report = try EquivProperty.report(
          driver, seed: seed, history: history, mismatch: mismatch, mode: mode, policy: policy)
        Issue.record("\(report)", sourceLocation: sourceLocation)
      }
      if stopAtFirstMismatch { break }
    }
    return stats
  }

  /// Runs random histories in `mode` until one disagrees; returns how many ran, and the report
  /// (minimised) of the first disagreement. Used to show that the generator reaches a documented
  /// difference when the original runs as coded.
  static func firstDisagreement<D: EquivDriver>(
    _ driver: D.Type, seeds: some Sequence<UInt64>, mode: D.Mode, policy: String
  ) throws -> (histories: Int, seed: UInt64?, minimised: [D.Step], report: String?) {
    var histories = 0
    for seed in seeds {
      histories += 1
      var random = EquivRandom(seed: seed)
      let history = D.generate(&random)
      let outcome = try D.run(history, mode: mode, policy: policy, explain: false)
      guard let mismatch = outcome.mismatch else { continue }
      let prefix = Array(history.prefix(mismatch.step + 1))
      let minimal = try minimise(driver, prefix, mode: mode, policy: policy)
      let report = try EquivProperty.report(
        driver, seed: seed, history: history, mismatch: mismatch, mode: mode, policy: policy)
      return (histories, seed, minimal, report)
    }
    return (histories, nil, [], nil)
  }

  /// A report of a mismatch: the seed, the history up to it (compact), a minimised history,
  /// the original's state and the manager's explanation at the minimised mismatch.
  static func report<D: EquivDriver>(
    _ driver: D.Type, seed: UInt64?, history: [D.Step], mismatch: EquivMismatch, mode: D.Mode, policy: String
  ) throws -> String {
    let prefix = Array(history.prefix(mismatch.step + 1))
    let minimal = try minimise(driver, prefix, mode: mode, policy: policy)
    let replay = try D.run(minimal, mode: mode, policy: policy, explain: true)
    var text = "\(D.name): \(mismatch.summary) \(mismatch.note)\n"
    if let seed { text += "seed: \(seed)\n" }
    text += "history up to the mismatch (\(prefix.count) steps): \(compact(prefix))\n"
    text += "original's state after step \(mismatch.step): \(mismatch.originalState)\n"
    text += "manager's explainCurrentDecision() after step \(mismatch.step):\n\(mismatch.explanation)"
    if minimal.count < prefix.count, let shown = replay.mismatch {
      text += "minimised (\(minimal.count) steps; \(shown.summary)): \(compact(minimal))\n"
      text += "original's state there: \(shown.originalState)\n"
      text += "manager's decision there:\n\(shown.explanation)"
    } else {
      text += "(no shorter history found)\n"
    }
    return text
  }

  /// The shortest history found (removing chunks, then single steps) that still shows a mismatch.
  /// Candidates must be histories the driver models, unless `history` itself is not one.
  static func minimise<D: EquivDriver>(
    _ driver: D.Type, _ history: [D.Step], mode: D.Mode, policy: String, budget: Int = 600
  ) throws -> [D.Step] {
    let requireValid = D.isValid(history)
    var current = history
    var runs = 0
    var chunk = max(1, current.count / 2)
    while runs < budget {
      var removed = false
      var start = 0
      while start < current.count, runs < budget {
        var candidate = current
        candidate.removeSubrange(start..<min(start + chunk, candidate.count))
        if !requireValid || D.isValid(candidate) {
          runs += 1
          if try D.run(candidate, mode: mode, policy: policy, explain: false).mismatch != nil {
            current = candidate
            removed = true
            continue
          }
        }
        start += chunk
      }
      if !removed {
        if chunk == 1 { break }
        chunk = max(1, chunk / 2)
      }
    }
    return current
  }

  /// Steps joined with spaces, runs of equal steps folded (`L×20`).
  static func compact(_ steps: [some CustomStringConvertible]) -> String {
    var parts: [String] = []
    var previous: String?
    var run = 0
    func flush() {
      if let previous { parts.append(run > 1 ? "\(previous)×\(run)" : previous) }
    }
    for step in steps {
      let text = step.description
      if text == previous {
        run += 1
      } else {
        flush()
        previous = text
        run = 1
      }
    }
    flush()
    return parts.joined(separator: " ")
  }

  /// Seeds `base + i` for the `index`-th of `shards` shards of `count` histories.
  static func seeds(base: UInt64, count: Int, shard: Int, of shards: Int) -> [UInt64] {
    stride(from: shard, to: count, by: shards).map { base + UInt64($0) }
  }
}
