import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// One policy to simulate: its name in reports, its text and the app facts it declares.
public struct SimulationPolicy: Sendable {
  /// The name shown in reports (the path as given).
  public var name: String
  /// The policy text.
  public var text: String
  /// Values for the app-specific facts the policy declares, set for every user.
  public var appFacts: [(name: String, value: Value)]
  /// The names of the facts in ``appFacts`` that took a default (nobody gave them), for reports.
  public var defaultedFacts: [String]
  /// The environment the policy is compiled in (its project file's, or the one `--events` gives).
  public var environment: PolicyEnvironment

  /// A policy named `name` with source `text`, compiled in `environment` (by default that of
  /// an app that does not name its events); `appFacts` set the facts it declares for every user
  /// (`defaultedFacts` names those that are defaults, not given).
  public init(
    name: String, text: String, appFacts: [(name: String, value: Value)] = [], defaultedFacts: [String] = [],
    environment: PolicyEnvironment = .standard
  ) {
    self.name = name
    self.text = text
    self.appFacts = appFacts
    self.defaultedFacts = defaultedFacts
    self.environment = environment
  }

  /// The policy compiled in its ``environment``; nil when it has errors.
  var compiled: CompiledPolicy? { environment.compile(text, path: name).policy }
}

/// Everything a simulation run needs.
public struct SimulationSetup: Sendable {
  /// The number of users, 1...``SimulationSetup/maximumUsers``.
  public var users: Int
  /// The number of days per user, 1...``SimulationSetup/maximumDays``.
  public var days: Int
  /// The seed of every random stream.
  public var seed: UInt64
  /// How users behave.
  public var model: SimulationModel
  /// One or two policies, run over the same population.
  public var policies: [SimulationPolicy]
  /// Receives the records (docs/records.md) of the first policy's installs, as a review manager
  /// with a recorder would write them, each install's lines together and in order (installs in
  /// no set order; called from several threads, one call at a time is up to the sink); nil
  /// writes none.
  public var recordSink: (@Sendable (Data) -> Void)?

  /// A run of `users` users for `days` days each, seeded with `seed`, of one or two policies.
  public init(
    users: Int = 1000, days: Int = 365, seed: UInt64 = 1, model: SimulationModel = SimulationModel(),
    policies: [SimulationPolicy]
  ) {
    self.users = users
    self.days = days
    self.seed = seed
    self.model = model
    self.policies = policies
  }

  /// The most users a run may have.
  public static let maximumUsers = 1_000_000
  /// The most days a run may last.
  public static let maximumDays = 3650
  /// The instant every user installs the app: 2026-01-01T00:00:00Z, in seconds.
  public static let installInstant: Int64 = 1_767_225_600
  /// The number of buckets of the asks-per-user distribution: 0 to 9 asks, and 10 or more.
  public static let askBuckets = 11
  /// The most users whose prompt checks are explained rule by rule (explaining a check costs
  /// about eight decisions): in a larger run, every ``explainStride``-th user, starting with the first.
  public static let explainedUsers = 250

  /// Every how many users one has their prompt checks explained: 1 up to ``explainedUsers`` users.
  public var explainStride: Int { max(1, users / SimulationSetup.explainedUsers) }
}

/// What one policy did to the population: counts only, so merging is exact and order-free.
public struct SimulationPolicyTally: Sendable, Hashable {
  /// Users asked at least once.
  public var usersAsked = 0
  /// Heavy users asked at least once.
  public var heavyUsersAsked = 0
  /// Users by the day of their first ask (index 0 is day 1, the install day).
  public var firstAskDays: [Int]
  /// Prompts shown.
  public var asks = 0
  /// Users by number of asks: index n for n asks, the last bucket for that many or more.
  public var asksPerUser: [Int]
  /// The most asks one user got.
  public var maximumAsks = 0
  /// Asks to users who had answered "no thanks" to an earlier prompt.
  public var asksAfterDecline = 0
  /// Users asked after answering "no thanks".
  public var usersAskedAfterDecline = 0
  /// Asks that were the 4th or later within 365 days (Apple's yearly limit is 3).
  public var asksBeyondYearlyLimit = 0
  /// Users with at least one such ask.
  public var usersBeyondYearlyLimit = 0
  /// The shortest time between two asks to one user, in seconds; nil when nobody was asked twice.
  public var shortestGap: Int64?
  /// Answers "rate".
  public var rated = 0
  /// Answers "remind me later".
  public var remindLater = 0
  /// Answers "no thanks".
  public var declined = 0
  /// Prompts dismissed without an answer.
  public var dismissed = 0
  /// Users who answered "rate" at least once.
  public var usersRated = 0
  /// Users who could not be simulated because the policy does not compile (never asked); 0 for a policy that compiles.
  public var managerFailures = 0
  /// What the rules did at the prompt checks.
  public var checks: SimulationCheckTally
  /// Users asked at least once, per segment of the model (``SimulationModel/segments``); empty without segments.
  public var segmentUsersAsked: [Int]

  /// An empty tally for a run of `days` days of `policy` (nil: no rule counts), with `segments` segments.
  public init(days: Int, policy: CompiledPolicy? = nil, segments: Int = 0) {
    firstAskDays = Array(repeating: 0, count: days)
    asksPerUser = Array(repeating: 0, count: SimulationSetup.askBuckets)
    checks = SimulationCheckTally(policy: policy)
    segmentUsersAsked = Array(repeating: 0, count: segments)
  }

  /// Adds `other`'s counts to this tally.
  public mutating func merge(_ other: SimulationPolicyTally) {
    usersAsked += other.usersAsked
    heavyUsersAsked += other.heavyUsersAsked
    for index in firstAskDays.indices { firstAskDays[index] += other.firstAskDays[index] }
    asks += other.asks
    for index in asksPerUser.indices { asksPerUser[index] += other.asksPerUser[index] }
    maximumAsks = max(maximumAsks, other.maximumAsks)
    asksAfterDecline += other.asksAfterDecline
    usersAskedAfterDecline += other.usersAskedAfterDecline
    asksBeyondYearlyLimit += other.asksBeyondYearlyLimit
    usersBeyondYearlyLimit += other.usersBeyondYearlyLimit
    if let gap = other.shortestGap { shortestGap = min(shortestGap ?? gap, gap) }
    rated += other.rated
    remindLater += other.remindLater
    declined += other.declined
    dismissed += other.dismissed
    usersRated += other.usersRated
    managerFailures += other.managerFailures
    checks.merge(other.checks)
    SimulationActivity.add(other.segmentUsersAsked, to: &segmentUsersAsked)
  }
}

/// What the population did, whatever the policy (identical under every policy by construction).
public struct SimulationActivity: Sendable, Hashable {
  /// Heavy users.
  public var heavyUsers = 0
  /// User-days with the app open.
  public var activeDays = 0
  /// Sessions.
  public var sessions = 0
  /// Significant events.
  public var events = 0
  /// Bad sessions.
  public var badSessions = 0
  /// Prompt checks (session starts and significant events): the moments a policy can ask.
  public var checks = 0
  /// App versions picked up after the first.
  public var updates = 0
  /// Users per segment of the model (``SimulationModel/segments``); empty without segments.
  public var segmentUsers: [Int] = []

  /// Adds `other`'s counts.
  public mutating func merge(_ other: SimulationActivity) {
    heavyUsers += other.heavyUsers
    activeDays += other.activeDays
    sessions += other.sessions
    events += other.events
    badSessions += other.badSessions
    checks += other.checks
    updates += other.updates
    SimulationActivity.add(other.segmentUsers, to: &segmentUsers)
  }

  /// Users of the model's segment `index` (0 for a segment the run does not have).
  public func segmentUsers(_ index: Int) -> Int {
    segmentUsers.indices.contains(index) ? segmentUsers[index] : 0
  }

  /// Adds `counts` to `total` element by element, extending `total` if it is shorter.
  static func add(_ counts: [Int], to total: inout [Int]) {
    if total.count < counts.count { total += Array(repeating: 0, count: counts.count - total.count) }
    for (index, count) in counts.enumerated() { total[index] += count }
  }
}

/// The result of a run: the population's activity and one tally per policy.
public struct SimulationOutcome: Sendable, Hashable {
  /// What the users did.
  public var activity: SimulationActivity
  /// What each policy did, in the order of ``SimulationSetup/policies``.
  public var tallies: [SimulationPolicyTally]
}

/// Counts finished users across worker threads and reports progress.
public final class SimulationProgress: @unchecked Sendable {
  // @unchecked: `finished` and `report` are only used while holding `lock`.
  /// Guards `finished` and serialises `report`.
  private let lock = NSLock()
  /// Users finished so far.
  private var finished = 0
  /// Called with `finished` after each change.
  private let report: (Int) -> Void

  /// Creates a progress counter that calls `report` with the number of finished users (under a lock).
  public init(report: @escaping (Int) -> Void) {
    self.report = report
  }

  /// Records that `count` more users are finished.
  public func add(_ count: Int) {
    lock.lock()
    finished += count
    report(finished)
    lock.unlock()
  }
}

/// Runs the review runtime over a synthetic population (see ``SimulationModel``).
///
/// Each user is a ``ReviewTracker``: the core of ``ReviewManager`` (the same tracking and
/// the same decision, without the lock and the store), driven with the calls an app makes.
public enum SimulationEngine {
  /// Simulates every user under every policy, on all cores.
  ///
  /// Users are split into contiguous chunks; each chunk is simulated on one thread with its
  /// own random streams (seeded by the user's index), and its counts are added to the total
  /// when it finishes. Counts are integer sums, minimums and maximums, so the outcome is the
  /// same whatever the scheduling.
  public static func run(_ setup: SimulationSetup, progress: SimulationProgress? = nil) -> SimulationOutcome {
    let chunkSize = max(1, min(500, (setup.users + 63) / 64))
    let chunkCount = (setup.users + chunkSize - 1) / chunkSize
    let plan = SimulationPlan(setup)
    let total = SimulationTotal(plan)
    DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
      let first = chunk * chunkSize
      let users = first..<min(setup.users, first + chunkSize)
      let worker = SimulationWorker(plan)
      for user in users { worker.simulate(user: user) }
      worker.flushRecords(atLeast: 1)
      total.add(activity: worker.activity, tallies: worker.tallies)
      progress?.add(users.count)
    }
    return total.outcome
  }
}

/// The counts of the finished chunks, added up under a lock.
private final class SimulationTotal: @unchecked Sendable {
  // @unchecked: `activity` and `tallies` are only touched while holding `lock`.
  /// Guards the counts.
  private let lock = NSLock()
  /// The population's activity so far.
  private var activity = SimulationActivity()
  /// Each policy's counts so far.
  private var tallies: [SimulationPolicyTally]

  /// Empty counts for `plan`.
  init(_ plan: SimulationPlan) {
    tallies = plan.trackers.map {
      SimulationPolicyTally(days: plan.setup.days, policy: $0?.policy, segments: plan.setup.model.segments.count)
    }
  }

  /// Adds one chunk's counts.
  func add(activity chunkActivity: SimulationActivity, tallies chunkTallies: [SimulationPolicyTally]) {
    lock.lock()
    activity.merge(chunkActivity)
    for index in tallies.indices { tallies[index].merge(chunkTallies[index]) }
    lock.unlock()
  }

  /// The total.
  var outcome: SimulationOutcome {
    lock.lock()
    defer { lock.unlock() }
    return SimulationOutcome(activity: activity, tallies: tallies)
  }
}

/// The run's constants, prepared once and shared by the workers.
private struct SimulationPlan: Sendable {
  /// The run.
  let setup: SimulationSetup
  /// The behaviour of each segment's users, in the order of the model's segments; one for every
  /// user without segments.
  let segments: [SimulationSegmentPlan]
  /// The upper threshold of each segment's draw; empty without segments.
  let segmentThresholds: [UInt64]
  /// The version string of each release, `1.0`, `1.1`, ...
  let versions: [String]
  /// Per policy: a tracker for a new user on the first release, with the app facts set; nil
  /// when the policy does not compile (its users are never asked).
  let trackers: [ReviewTracker?]
  /// The recorder of the first policy's installs, when the run writes records and it compiles.
  let recorder: SimulationRecorder?

  /// Prepares the constants of `setup`.
  init(_ setup: SimulationSetup) {
    self.setup = setup
    let model = setup.model
    let releases = model.releaseEvery == 0 ? 1 : setup.days / model.releaseEvery + 2
    let versions = (0..<releases).map { "1.\($0)" }
    self.versions = versions
    let trackers = setup.policies.map { policy -> ReviewTracker? in
      guard let compiled = policy.compiled else { return nil }
      var tracker = ReviewTracker(policy: compiled, appVersion: versions[0])
      for fact in policy.appFacts { tracker.setFact(fact.name, fact.value) }
      return tracker
    }
    self.trackers = trackers
    segments = model.segmentModels.map { SimulationSegmentPlan($0, trackers: trackers) }
    segmentThresholds = model.segments.isEmpty ? [] : SimulationSegmentPlan.thresholds(model.segments.map(\.share))
    if setup.recordSink != nil, let first = setup.policies.first, let compiled = trackers.first??.policy {
      recorder = SimulationRecorder(compiled: compiled, source: first.text)
    } else {
      recorder = nil
    }
  }
}

extension FactSlot {
  /// Whether the slot is a `fact` the policy declares.
  var isDeclaration: Bool {
    switch origin {
    case .declaration: true
    case .schema, .family: false
    }
  }
}

/// Simulates users one at a time on one thread, answering each prompt as the user would.
private final class SimulationWorker {
  /// The run's constants.
  let plan: SimulationPlan
  /// Counts of this worker's users.
  var activity = SimulationActivity()
  /// One tally per policy.
  var tallies: [SimulationPolicyTally]

  /// The policy being simulated.
  private var policyIndex = 0
  /// The current user's answer stream.
  private var answers = SimulationRandom(seed: 0, user: 0, stream: 1)
  /// The instants of the current user's asks, in seconds (the storage is reused from user to user).
  private var askTimes: [Int64] = []
  /// The first ask in `askTimes` within 365 days of the latest.
  private var windowStart = 0
  /// Whether the current user has answered "no thanks".
  private var declinedBefore = false
  /// Whether the current user was asked after a "no thanks".
  private var askedAfterDecline = false
  /// Whether the current user got a 4th ask within 365 days.
  private var beyondLimit = false
  /// Whether the current user answered "rate".
  private var ratedOnce = false
  /// Whether the current user's prompt checks are explained (see ``SimulationSetup/explainStride``).
  private var explaining = true
  /// The recorder of the first policy's installs, when the run writes records.
  private var recorder: SimulationRecorder?
  /// Whether the user being simulated is recorded (the first policy's, with a recorder).
  private var recording = false
  /// The behaviour of the current user's segment.
  private var behaviour: SimulationSegmentPlan

  /// A worker for `plan`.
  init(_ plan: SimulationPlan) {
    self.plan = plan
    behaviour = plan.segments[0]
    let segments = plan.setup.model.segments.count
    tallies = plan.trackers.map { SimulationPolicyTally(days: plan.setup.days, policy: $0?.policy, segments: segments) }
    activity.segmentUsers = Array(repeating: 0, count: segments)
    askTimes.reserveCapacity(64)
    recorder = plan.recorder
  }

  /// Hands the records written so far to the run's sink when they are at least `bytes` long.
  func flushRecords(atLeast bytes: Int) {
    guard let sink = plan.setup.recordSink, let count = recorder?.bytes.count, count >= bytes,
      let lines = recorder?.take()
    else { return }
    sink(lines)
  }

  /// Simulates user `user` under every policy, with the same behaviour stream (and segment) each time.
  func simulate(user: Int) {
    explaining = user % plan.setup.explainStride == 0
    let segment = SimulationRandom.segment(ofUser: user, seed: plan.setup.seed, thresholds: plan.segmentThresholds)
    if activity.segmentUsers.indices.contains(segment) { activity.segmentUsers[segment] += 1 }
    behaviour = plan.segments[min(segment, plan.segments.count - 1)]
    for index in plan.setup.policies.indices {
      if explaining { tallies[index].checks.users += 1 }
      policyIndex = index
      answers = SimulationRandom(seed: plan.setup.seed, user: user, stream: 1)
      askTimes.removeAll(keepingCapacity: true)
      windowStart = 0
      declinedBefore = false
      askedAfterDecline = false
      beyondLimit = false
      ratedOnce = false
      recording = index == 0 && recorder != nil
      let isHeavy = live(user: user, countsActivity: index == 0)
      finishUser(isHeavy: isHeavy, segment: segment, in: &tallies[index])
    }
    recording = false
    flushRecords(atLeast: 1 << 20)
  }

  /// Drives a tracker through the user's days; returns whether the user is a heavy user.
  private func live(user: Int, countsActivity: Bool) -> Bool {
    let setup = plan.setup
    let parameters = self.behaviour
    var behaviour = SimulationRandom(seed: setup.seed, user: user, stream: 0)
    let isHeavy = behaviour.chance(parameters.heavy)
    let openRate = isHeavy ? parameters.heavyOpen : parameters.lightOpen
    let cadence = setup.model.releaseEvery
    let phase = cadence == 0 ? 0 : Int(behaviour.below(UInt64(cadence)))
    guard var tracker = plan.trackers[policyIndex] else {
      tallies[policyIndex].managerFailures += 1
      return isHeavy
    }
    // The user's install seed, for `bucket("name")`: its own stream, the same under every policy.
    var seeds = SimulationRandom(seed: setup.seed, user: user, stream: 3)
    tracker.installSeed = Int64(bitPattern: seeds.next())
    if recording {
      recorder?.begin(
        random: &seeds, appVersion: tracker.appVersion, seed: tracker.installSeed,
        bucketNames: tracker.policy.bucketNames)
    }
    if !parameters.factThresholds.isEmpty {
      // App facts: one draw per distributed fact, from a stream of their own.
      var facts = SimulationRandom(seed: setup.seed, user: user, stream: 2)
      for (index, thresholds) in parameters.factThresholds.enumerated() {
        let choice = SimulationSegmentPlan.choice(facts.next53(), among: thresholds)
        if let values = parameters.factValues[policyIndex][index], values.indices.contains(choice) {
          tracker.setFact(parameters.factNames[index], values[choice])
        }
      }
    }
    var release = -1
    var activity = SimulationActivity()
    if isHeavy { activity.heavyUsers = 1 }

    for day in 0..<setup.days {
      // A day without use costs this one draw.
      if day > 0 && !behaviour.chance(openRate) { continue }
      activity.activeDays += 1
      let dayStart = SimulationSetup.installInstant + Int64(day) * 86_400
      let lastStart = dayStart + 23 * 3600
      var time = dayStart + 7 * 3600 + Int64(behaviour.below(12 * 3600))
      let sessions = 1 + behaviour.geometric(parameters.extraSession, limit: 19)
      for session in 0..<sessions {
        if time > lastStart { break }
        if session == 0 {
          // A launch: pick up a release that shipped since the last one.
          let current = cadence == 0 ? 0 : (day + phase) / cadence
          if current != release {
            if release >= 0 { activity.updates += 1 }
            if current > 0 { tracker = tracker.moving(to: plan.versions[min(current, plan.versions.count - 1)]) }
            if recording { recorder?.appVersion = tracker.appVersion }
            release = current
          }
        }
        var now = Timestamp(millisecondsSince1970: time * 1000)
        // A launch (a day's first session) or a return to the foreground, then the session and a
        // prompt check.
        if session == 0 {
          tracker.launch(at: now, countingUse: true)
        } else {
          tracker.appear(at: now, countingUse: true)
        }
        tracker.startSession(at: now)
        if recording {
          recorder?.add(session == 0 ? .launch : .foreground, at: time) { $0.counted = true }
          recorder?.add(.sessionStart, at: time)
        }
        promptIfAppropriate(&tracker, at: time, event: .promptCheck)
        let actions = 1 + Int(behaviour.below(4))
        let isBad = behaviour.chance(parameters.badSession)
        for action in 0..<actions {
          time += 30 + Int64(behaviour.below(270))
          now = Timestamp(millisecondsSince1970: time * 1000)
          let bad = isBad && action == actions - 1
          tracker.addAction(score: bad ? -40 : 30, isBad: bad, at: now)
          if recording {
            recorder?.add(.action, at: time) { record in
              record.score = bad ? -40 : 30
              record.bad = bad
            }
          }
        }
        var events = 0
        if parameters.events.isEmpty {
          events = behaviour.geometric(parameters.event, limit: 50)
          for _ in 0..<events { significantEvent("export", &tracker, &behaviour, &time) }
        } else {
          for (name, more) in parameters.events {
            let count = behaviour.geometric(more, limit: 50)
            for _ in 0..<count { significantEvent(name, &tracker, &behaviour, &time) }
            events += count
          }
        }
        time += 30
        tracker.endSession(at: Timestamp(millisecondsSince1970: time * 1000))
        if recording { recorder?.add(.sessionEnd, at: time) }
        activity.sessions += 1
        activity.events += events
        activity.checks += 1 + events
        if isBad { activity.badSessions += 1 }
        time += 1800 + Int64(behaviour.below(3 * 3600))
      }
    }
    if countsActivity { self.activity.merge(activity) }
    return isHeavy
  }

  /// A significant event named `name` 30 seconds to 5 minutes after `time`, and the prompt check it makes.
  private func significantEvent(
    _ name: String, _ tracker: inout ReviewTracker, _ behaviour: inout SimulationRandom, _ time: inout Int64
  ) {
    time += 30 + Int64(behaviour.below(270))
    tracker.countEvent(named: name, at: Timestamp(millisecondsSince1970: time * 1000))
    promptIfAppropriate(&tracker, at: time, event: .significantEvent, name: name)
  }

  /// Asks `tracker`'s policy at `seconds`; on a prompt, counts it and records the user's answer.
  ///
  /// The decision is also explained (before it is made, so the prompt is not yet recorded), and
  /// every rule and condition counted: what held, what blocked.
  /// A recorded user's check is written as the deciding call `event` (with `name`), then the
  /// prompt shown and the answer.
  private func promptIfAppropriate(
    _ tracker: inout ReviewTracker, at seconds: Int64, event: ReviewLogEntry.Event, name: String? = nil
  ) {
    let now = Timestamp(millisecondsSince1970: seconds * 1000)
    if explaining, case .success(let facts) = tracker.facts(at: now, complete: false) {
      let policy = tracker.policy
      tallies[policyIndex].checks.add(policy.explain(facts), of: policy)
    }
    let decision = recording ? tracker.decision(at: now) : nil
    let asks = tracker.promptIfAppropriate(at: now)
    if recording { recorder?.decision(event, at: seconds, decision: decision, asked: asks, name: name) }
    guard asks else { return }
    let answer = recordAsk(at: seconds, in: &tallies[policyIndex])
    tracker.record(answer, at: now)
    if recording {
      recorder?.add(.promptShown, at: seconds)
      recorder?.add(.response, at: seconds) { $0.answer = answer.rawValue }
    }
  }

  /// Counts an ask at `now` in `tally` (in place: no copy of its arrays) and returns the user's answer.
  private func recordAsk(at now: Int64, in tally: inout SimulationPolicyTally) -> ReviewResponse {
    tally.asks += 1
    if let last = askTimes.last {
      let gap = now - last
      tally.shortestGap = min(tally.shortestGap ?? gap, gap)
    } else {
      let day = Int((now - SimulationSetup.installInstant) / 86_400)
      tally.firstAskDays[min(max(day, 0), tally.firstAskDays.count - 1)] += 1
    }
    askTimes.append(now)
    while askTimes[windowStart] <= now - 365 * 86_400 { windowStart += 1 }
    if askTimes.count - windowStart > 3 {
      tally.asksBeyondYearlyLimit += 1
      beyondLimit = true
    }
    if declinedBefore {
      tally.asksAfterDecline += 1
      askedAfterDecline = true
    }
    let draw = answers.next53()
    if draw < behaviour.rate {
      tally.rated += 1
      ratedOnce = true
      return .rated
    } else if draw < behaviour.remind {
      tally.remindLater += 1
      return .remindLater
    } else if draw < behaviour.decline {
      tally.declined += 1
      declinedBefore = true
      return .declined
    } else {
      tally.dismissed += 1
      return .dismissed
    }
  }

  /// Adds the finished user's per-user counts to `tally`; the user is in the model's segment `segment` (if it has
  /// segments).
  private func finishUser(isHeavy: Bool, segment: Int, in tally: inout SimulationPolicyTally) {
    let asks = askTimes.count
    tally.asksPerUser[min(asks, SimulationSetup.askBuckets - 1)] += 1
    tally.maximumAsks = max(tally.maximumAsks, asks)
    guard asks > 0 else { return }
    tally.usersAsked += 1
    if isHeavy { tally.heavyUsersAsked += 1 }
    if tally.segmentUsersAsked.indices.contains(segment) { tally.segmentUsersAsked[segment] += 1 }
    if askedAfterDecline { tally.usersAskedAfterDecline += 1 }
    if beyondLimit { tally.usersBeyondYearlyLimit += 1 }
    if ratedOnce { tally.usersRated += 1 }
  }
}
