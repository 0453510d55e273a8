import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Clock changes through the ``ReviewManager``: random histories against a monotonic "real" time
/// while the device clock jumps back up to two years and ahead up to five (and by hours, and is
/// set right again), for every example policy, checking the guarantees of ``ReviewClockRules``,
/// after every call.
@Suite("Reliability: clock jumps through the review manager")
struct ReliabilityClockPropertyTests {
  static let hour: Int64 = 3_600_000
  static let day: Int64 = 24 * hour
  static let week: Int64 = 7 * day

  /// How far apart, in real time, a policy keeps two prompts when the clock only moves forward:
  /// `spacing`, and whether it holds across a version change (else only within one version).
  struct Spacing {
    var spacing: Int64
    var acrossVersions: Bool
  }

  /// The example policies and their own spacing rules (nil: the policy has none, as `one-liner`,
  /// which asks again right after "remind me later").
  static let policies: [(name: String, spacing: Spacing?)] = [
    ("review", Spacing(spacing: 8 * week, acrossVersions: true)),  // since(last_prompt) < 8w
    ("reviewkit", Spacing(spacing: 8 * week, acrossVersions: true)),  // since(last_prompt) > 8w
    ("appirater", Spacing(spacing: .max, acrossVersions: false)),  // prompts == 0
    ("appirater-alert", Spacing(spacing: day, acrossVersions: false)),  // since(last_reminder) >= 1d
    ("armchair", Spacing(spacing: day, acrossVersions: false)),  // since(last_reminder) >= 1d
    ("rate-our-app", Spacing(spacing: .max, acrossVersions: false)),  // not has last_reminder
    ("one-liner", nil),
  ]

  static let seeds = 16
  static let steps = 300

  /// The instant facts that record a past moment.
  static let recorded = [
    "first_use", "install_date", "first_session", "last_prompt", "last_reminder", "last_decline", "last_rating",
    "last_bad_session",
  ]

  /// The start instants, whose elapsed time (like the day counts) never decreases.
  static let starts = ["install_date", "first_session"]

  /// The counts that never decrease within a version, and those that never decrease at all.
  static let versionCounts = ["days", "uses", "events", "sessions", "prompts"]
  static let totalCounts = ["total_days", "total_uses", "total_events", "total_sessions", "total_prompts"]

  /// The instants a wait runs from, with the answer (or prompt) that records them.
  static let waits: [(fact: String, response: ReviewResponse?)] = [
    ("last_prompt", nil), ("last_reminder", .remindLater), ("last_decline", .declined), ("last_rating", .rated),
  ]

  @Test("day counts and counts never decrease, no burst, no lockout, at every step", arguments: policies.map(\.name))
  func guaranteesHoldAtEveryStep(policyName: String) throws {
    let source = try EquivPolicies.example(policyName)
    let spacing = Self.policies.first { $0.name == policyName }?.spacing
    var violations: [String] = []
    var prompts = 0
    var jumps = 0
    for seed in 1...UInt64(Self.seeds) {
      let history = try ClockHistory(policy: source, seed: seed, spacing: spacing)
      violations += history.run(steps: Self.steps)
      prompts += history.promptCount
      jumps += history.jumpCount
    }
    let shown = violations.prefix(8).joined(separator: "\n")
    #expect(violations.isEmpty, "\(policyName): \(violations.count) violations\n\(shown)")
    // The histories exercise what they check: prompts are shown and the clock jumps.
    #expect(prompts > 0, "\(policyName): no prompt in \(Self.seeds) histories")
    #expect(jumps > Self.seeds * 5)
  }
}

/// One random history through a ``ReviewManager``, with its real time, device clock and checks.
final class ClockHistory {
  typealias T = ReliabilityClockPropertyTests

  private let manager: ReviewManager
  private let clock: RuntimeTestClock
  private var random: EquivRandom
  private let spacing: T.Spacing?
  private let label: String

  /// Real time (monotonic) and the device clock's offset from it, in milliseconds.
  private var real: Int64 = 1_700_000_000_000
  private var offset: Int64 = 0
  /// The sum of the forward jumps of the device clock so far (never decreases).
  private var aheadSum: Int64 = 0
  /// The real time of the first step of the current run of steps with the clock right (nil: wrong now).
  private var rightSince: Int64? = 1_700_000_000_000
  private var versionNumber = 0
  /// Version changes so far.
  private var versionChanges = 0
  /// The last prompt: real time, forward jumps so far and version changes so far then.
  private var lastPrompt: (real: Int64, aheadSum: Int64, versions: Int)?
  /// The real time of the event behind each wait fact.
  private var waitEvents: [String: Int64] = [:]
  /// The counts and elapsed times read after the last step that recorded a call.
  private var previous: [String: Int64] = [:]
  private(set) var promptCount = 0
  private(set) var jumpCount = 0

  init(policy source: String, seed: UInt64, spacing: T.Spacing?) throws {
    clock = RuntimeTestClock(Date(timeIntervalSince1970: 1_700_000_000))
    random = EquivRandom(seed: seed)
    self.spacing = spacing
    label = "seed \(seed)"
    manager = try ReviewManager(
      configuration: ReviewManager.Configuration(
        appVersion: "1.0", bundledPolicy: source, store: InMemoryReviewStore(), clock: clock.function))
    // The app facts the examples declare without a default (review.policy's crash flag).
    if source.contains("crashed_this_session") { manager.setFact("crashed_this_session", .bool(false)) }
  }

  private var now: Timestamp { Timestamp(millisecondsSince1970: real + offset) }

  /// Runs `steps` steps; returns the violations found.
  func run(steps: Int) -> [String] {
    var violations: [String] = []
    for step in 0..<steps {
      advance()
      clock.set(Date(timeIntervalSince1970: Double(real + offset) / 1000))
      let (recorded, versionChanged) = act()
      violations += check(step: step, recorded: recorded, versionChanged: versionChanged)
    }
    return violations
  }

  /// Moves real time on and, sometimes, the device clock.
  private func advance() {
    // Minutes, hours or days: spacings of a day or weeks are crossed in several steps or in one.
    switch random.int(0..<10) {
    case 0..<3: real += Int64(random.int(1...60)) * 60_000
    case 3..<6: real += Int64(random.int(1...24)) * T.hour
    default: real += Int64(random.int(1...(20 * 24))) * T.hour
    }
    let before = offset
    if random.chance(0.04) {
      offset -= Int64(random.int(1...730)) * T.day  // back up to two years
    } else if random.chance(0.04) {
      offset += Int64(random.int(1...(5 * 365))) * T.day  // ahead up to five years
    } else if random.chance(0.04) {
      offset += Int64(random.int(-48...48)) * T.hour  // a time zone or a small correction
    } else if random.chance(0.06) {
      offset = 0  // set right
    }
    if offset != before { jumpCount += 1 }
    if offset > before { aheadSum += offset - before }
    if offset != 0 {
      rightSince = nil
    } else if rightSince == nil {
      rightSince = real
    }
  }

  /// One random call (and the answer to a prompt it shows), or only read-only checks; returns
  /// whether the step recorded anything (a prompt check that asks nothing records nothing, and
  /// nothing is written for it) and whether the version changed.
  private func act() -> (recorded: Bool, versionChanged: Bool) {
    let stateBefore = manager.currentState
    let promptsBefore = stateBefore.totalPrompts
    var versionChanged = false
    switch random.int(0..<20) {
    case 0..<3: manager.appLaunched()
    case 3..<5: manager.appEnteredForeground()
    case 5..<7: manager.sessionStarted()
    case 7..<11: _ = manager.significantEvent(random.pick(["export", "purchase", "share", nil]))
    case 11..<14: _ = manager.action(score: Double(random.int(0...150)), isBad: random.chance(0.1))
    case 14:
      if random.chance(0.3) {
        versionNumber += 1
        versionChanges += 1
        versionChanged = true
        manager.setAppVersion("1.\(versionNumber)")
        manager.appLaunched()
      } else {
        _ = manager.wouldAsk()  // only read-only checks at this step
      }
    default:
      // The read-only check agrees with the call that records.
      let would = manager.wouldAsk()
      let asked = manager.promptIfAppropriate()
      if would != asked { failures.append("wouldAsk \(would) but promptIfAppropriate \(asked)") }
    }
    if manager.currentState.totalPrompts > promptsBefore { answerPrompt() }
    // The high-water mark alone is not written (ReviewManager saves only other changes).
    var stateAfter = manager.currentState
    stateAfter.clockHighWater = stateBefore.clockHighWater
    return (stateAfter != stateBefore, versionChanged)
  }

  private var failures: [String] = []

  /// Records the prompt just shown and answers it.
  private func answerPrompt() {
    promptCount += 1
    if let spacing, let last = lastPrompt, spacing.acrossVersions || last.versions == versionChanges {
      // Exact: the real gap is at least the spacing less the clock's forward jumps in between.
      let ahead = aheadSum - last.aheadSum
      let gap = real - last.real
      if spacing.spacing == .max {
        if ahead == 0 { failures.append("a second prompt in one version \(gap / T.hour)h after the first") }
      } else if gap < spacing.spacing - ahead {
        failures.append("burst: prompts \(gap / T.hour)h apart, spacing \(spacing.spacing / T.hour)h, ahead \(ahead)ms")
      }
    }
    lastPrompt = (real, aheadSum, versionChanges)
    waitEvents["last_prompt"] = real
    let response = random.pick([ReviewResponse.remindLater, .remindLater, .declined, .rated])
    _ = manager.record(response)
    for (fact, recording) in T.waits where recording == response { waitEvents[fact] = real }
  }

  /// The checks after one step.
  private func check(step: Int, recorded: Bool, versionChanged: Bool) -> [String] {
    var found = failures.map { "\(label) step \(step): \($0)" }
    failures = []
    func fail(_ text: String) { found.append("\(label) step \(step): \(text)") }
    guard let facts = manager.currentFacts()?.facts else {
      fail("no facts")
      return found
    }
    let now = self.now
    var current: [String: Int64] = [:]
    for name in T.versionCounts + T.totalCounts {
      if case .int(let value)? = facts.value(of: name) { current[name] = value }
    }
    // Recorded instants never after now; the elapsed time since the start instants never decreases.
    for name in T.recorded {
      guard case .instant(let instant)? = facts.value(of: name) else { continue }
      if instant > now { fail("\(name) \(instant) after now \(now)") }
      if T.starts.contains(name) {
        current["since " + name] = now.millisecondsSince1970 - instant.millisecondsSince1970
      }
      if name == "first_use" { current["since first_use"] = now.millisecondsSince1970 - instant.millisecondsSince1970 }
    }
    for (name, value) in current {
      if value < 0 { fail("\(name) is negative: \(value)") }
      let perVersion = T.versionCounts.contains(name) || name == "since first_use"
      if let before = previous[name], value < before, !(perVersion && versionChanged) {
        fail("\(name) decreased from \(before) to \(value)")
      }
    }
    // Compared with the last step that recorded: a read-only check that sees the clock later than
    // every recorded call reads the days as of that clock, but records no high-water mark.
    if recorded { previous = current }
    // No lockout: with the clock right since `rightSince`, a wait runs from its event or from then.
    if let rightSince, offset == 0 {
      for (name, _) in T.waits {
        guard case .instant(let instant)? = facts.value(of: name), let event = waitEvents[name] else { continue }
        let elapsed = now.millisecondsSince1970 - instant.millisecondsSince1970
        let owed = min(real - event, real - rightSince)
        if elapsed < owed { fail("lockout: since(\(name)) \(elapsed)ms, real time owed \(owed)ms") }
      }
    }
    if versionChanged {
      waitEvents["last_reminder"] = nil
    }
    return found
  }
}
