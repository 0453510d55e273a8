import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// `policyc replay`'s engine (issue 26): each install's real history, rebuilt from its records
/// (docs/records.md) as they stream in, run through the real ``ReviewTracker`` under one or two
/// policies, and compared with what happened.
///
/// Every record is replayed as the call that made it: a launch, a return to the foreground, a
/// session, an action, a significant event, an app update (a new `app` value). At each record of
/// a deciding call (one with `asked`) every replayed policy decides; an "ask" records a prompt as
/// shown at that instant, as a manager without a presenter does. An answer goes to a replayed
/// prompt made at the same instant as the prompt it answered (the user's real answer, late or
/// not); a replayed prompt the app never showed stays unanswered and closes as "outcome unknown"
/// at the next launch or return to the foreground, as in the app. An answer given outside any
/// prompt is recorded as such under every policy.
///
/// An install's `bucket()` values come from the seed its records carry; an install whose records
/// carry none (its policy read no bucket) gets a seed drawn from its identifier, so a policy
/// with a new rollout splits real installs at random, the same way at every run.
///
/// Memory grows with the installs (a tracker each per policy), not with the records; records of
/// one install are replayed in the order they come.
package struct RecordReplay {
  /// One replayed policy: its name in reports and the policy.
  package struct Policy {
    /// The name in reports (the path as given).
    package var name: String
    /// The policy, compiled.
    package var compiled: CompiledPolicy
    /// Values of the app facts it declares, set for every install.
    package var appFacts: [(name: String, value: Value)]

    /// A replayed policy named `name`.
    package init(name: String, compiled: CompiledPolicy, appFacts: [(name: String, value: Value)] = []) {
      self.name = name
      self.compiled = compiled
      self.appFacts = appFacts
    }
  }

  /// What one side (the app's real decisions, or a replayed policy) did, counted over installs.
  package struct Side: Sendable, Hashable {
    /// Prompt checks that asked.
    package var asks = 0
    /// Installs asked at least once.
    package var installsAsked = 0
    /// Installs by the day of their first ask, counted from the install's first record (index 0
    /// is day 1); the last entry counts that day and later.
    package var firstAskDays: [Int] = Array(repeating: 0, count: RecordReplay.dayBuckets)
    /// Answers to this side's prompts by kind (a replayed prompt the app did not show has none).
    package var answers: [String: Int] = [:]

    /// Adds `other`'s counts (of other installs).
    package mutating func add(_ other: Side) {
      asks += other.asks
      installsAsked += other.installsAsked
      for index in firstAskDays.indices where other.firstAskDays.indices.contains(index) {
        firstAskDays[index] += other.firstAskDays[index]
      }
      for (answer, count) in other.answers { answers[answer, default: 0] += count }
    }

    /// The first-ask day at percentile `percent` (1-based days), or nil when nobody was asked.
    package func firstAskDay(percentile percent: Int) -> Int? {
      let total = firstAskDays.reduce(0, +)
      guard total > 0 else { return nil }
      let rank = max(1, (total * percent + 99) / 100)
      var seen = 0
      for (index, count) in firstAskDays.enumerated() {
        seen += count
        if seen >= rank { return index + 1 }
      }
      return firstAskDays.count
    }
  }

  /// How a replayed policy differs from what happened.
  package struct Comparison: Sendable, Hashable {
    /// Prompt checks where it decided as the app did.
    package var sameDecisions = 0
    /// Checks where it asked and the app did not.
    package var askedInstead = 0
    /// Checks where the app asked and it did not.
    package var didNotAsk = 0
    /// Installs first asked at the same instant.
    package var sameFirstAsk = 0
    /// Installs first asked earlier than in the app.
    package var earlier = 0
    /// Installs first asked later than in the app.
    package var later = 0
    /// Installs asked only in the replay.
    package var onlyReplayed = 0
    /// Installs asked only in the app.
    package var onlyOriginal = 0
    /// Installs asked by neither.
    package var neither = 0
    /// The earliest checks decided differently (at most ``RecordReplay/examples``, by time, then
    /// install): the install, the instant, and whether the policy asked there.
    package var differences: [Difference] = []

    /// Keeps `difference` if it is among the earliest.
    mutating func note(_ difference: Difference) {
      if differences.count == RecordReplay.examples, let last = differences.last, !(difference < last) { return }
      differences.append(difference)
      differences.sort()
      if differences.count > RecordReplay.examples { differences.removeLast() }
    }

    /// Adds `other`'s counts (of other installs).
    package mutating func add(_ other: Comparison) {
      sameDecisions += other.sameDecisions
      askedInstead += other.askedInstead
      didNotAsk += other.didNotAsk
      sameFirstAsk += other.sameFirstAsk
      earlier += other.earlier
      later += other.later
      onlyReplayed += other.onlyReplayed
      onlyOriginal += other.onlyOriginal
      neither += other.neither
      for difference in other.differences { note(difference) }
    }
  }

  /// A check a replayed policy decided differently from the app.
  package struct Difference: Sendable, Hashable, Comparable {
    /// The install.
    package var install: String
    /// The check's instant.
    package var time: Timestamp
    /// Whether the replayed policy asked (the app did the opposite).
    package var asked: Bool

    /// Earlier first, then by install.
    package static func < (a: Difference, b: Difference) -> Bool {
      (a.time, a.install, a.asked ? 1 : 0) < (b.time, b.install, b.asked ? 1 : 0)
    }
  }

  /// The most differing checks kept per policy, as examples.
  package static let examples = 5

  /// The outcome of a replay.
  package struct Outcome: Sendable, Hashable {
    /// Installs replayed.
    package var installs = 0
    /// Records replayed.
    package var records = 0
    /// Prompt checks (records of deciding calls).
    package var checks = 0
    /// Records of events the replay does not know (a later format's), skipped.
    package var unknownEvents = 0
    /// What the app did.
    package var original = Side()
    /// What each replayed policy did, in order.
    package var replayed: [Side]
    /// How each replayed policy differs from the app.
    package var comparisons: [Comparison]

    /// Adds `other`'s counts (of other installs, the same policies).
    package mutating func add(_ other: Outcome) {
      installs += other.installs
      records += other.records
      checks += other.checks
      unknownEvents += other.unknownEvents
      original.add(other.original)
      for index in replayed.indices where other.replayed.indices.contains(index) {
        replayed[index].add(other.replayed[index])
        comparisons[index].add(other.comparisons[index])
      }
    }
  }

  /// A manager's default prompt timeout: 600 seconds.
  package static let defaultPromptTimeout: TimeSpan? = TimeSpan(milliseconds: 600_000)

  /// Days of the first-ask histogram: days 1 to 365, and later.
  package static let dayBuckets = 366

  /// One install's replay.
  private struct Install {
    /// The install's identifier.
    var id: String
    /// The install's first record's time (its day 1).
    var start: Timestamp
    /// One tracker per policy.
    var trackers: [ReviewTracker]
    /// The app's last prompt (the instant of the check that asked), while it has no answer.
    var openPrompt: Timestamp?
    /// The app's first ask.
    var firstAsk: Timestamp?
    /// Each policy's first ask.
    var firstAsks: [Timestamp?]
    /// Each policy's prompts made at the instant of the app's open prompt (the ones a real
    /// answer goes to).
    var matched: [Bool]
    /// Whether a record's seed has been given to the trackers.
    var seeded = false
  }

  /// The replayed policies.
  package let policies: [Policy]
  /// How long a replayed prompt waits for an answer before it counts as "outcome unknown"
  /// (``ReviewManager/Configuration/promptTimeout``, 600 seconds by default, as in the app); nil: until the next launch.
  package let promptTimeout: TimeSpan?
  /// The installs replayed so far, by identifier.
  private var installs: [String: Install] = [:]
  /// The counts so far (installs' first asks are added at ``finish()``).
  private var outcome: Outcome

  /// A replay of `policies` (one or two) whose prompts wait `promptTimeout` for an answer.
  package init(policies: [Policy], promptTimeout: TimeSpan? = RecordReplay.defaultPromptTimeout) {
    self.policies = policies
    self.promptTimeout = promptTimeout
    outcome = Outcome(
      replayed: Array(repeating: Side(), count: policies.count),
      comparisons: Array(repeating: Comparison(), count: policies.count))
  }

  /// A seed for an install whose records carry none: the FNV-1a hash of its identifier.
  package static func seed(forInstall install: String) -> Int64 {
    Int64(bitPattern: FNV1a.hash(install.utf8))
  }

  /// The part of the installs replayed (all when nil).
  package var shard: RecordShard?

  /// Replays `record` (unless its install is outside ``shard``).
  package mutating func add(_ record: ReviewRecord) {
    if let shard, !shard.contains(install: record.install) { return }
    outcome.records += 1
    let time = record.time
    var install =
      installs.removeValue(forKey: record.install)
      ?? Install(
        id: record.install, start: time,
        trackers: newTrackers(for: record),
        firstAsks: Array(repeating: nil, count: policies.count),
        matched: Array(repeating: false, count: policies.count))
    defer { installs[record.install] = install }
    if let seed = record.seed, !install.seeded {
      install.seeded = true
      for index in install.trackers.indices { install.trackers[index].installSeed = seed }
    }
    for index in install.trackers.indices where install.trackers[index].appVersion != record.appVersion {
      install.trackers[index].move(to: record.appVersion, build: record.build)
    }
    guard let event = ReviewLogEntry.Event(rawValue: record.event) else {
      outcome.unknownEvents += 1
      return
    }
    switch event {
    case .launch:
      for index in install.trackers.indices {
        install.trackers[index].launch(at: time, countingUse: record.counted ?? true)
      }
    case .foreground:
      for index in install.trackers.indices {
        install.trackers[index].appear(at: time, countingUse: record.counted ?? true)
      }
    case .sessionStart:
      for index in install.trackers.indices { install.trackers[index].startSession(at: time) }
    case .sessionEnd:
      for index in install.trackers.indices { install.trackers[index].endSession(at: time) }
    case .significantEvent:
      for index in install.trackers.indices { install.trackers[index].countEvent(named: record.name, at: time) }
    case .action:
      for index in install.trackers.indices {
        install.trackers[index].addAction(score: record.score ?? 0, isBad: record.bad ?? false, at: time)
      }
    case .response:
      guard let answer = record.answer.flatMap(ReviewResponse.init(rawValue:)) else { break }
      if record.outside == true {
        // Given outside any prompt (a prompt on screen takes it as its outcome, as in the app).
        for index in install.trackers.indices { install.trackers[index].recordWithoutPrompt(answer, at: time) }
      } else {
        respond(answer, at: time, &install)
      }
    case .reset:
      install.trackers = newTrackers(for: record)
      install.openPrompt = nil
    case .promptCheck, .promptShown, .promptNotPresented, .policyUpdated, .policyRejected, .policyReset,
      .policyStale, .factSet, .unsetFact, .problem:
      break
    }
    if let asked = record.asked { decide(originalAsked: asked, at: time, &install) }
  }

  /// A new install's trackers, one per policy, at `record`'s app version, with the app facts
  /// set and the seed drawn from the install's identifier (until a record gives its own).
  private func newTrackers(for record: ReviewRecord) -> [ReviewTracker] {
    policies.map { policy in
      var tracker = ReviewTracker(policy: policy.compiled, appVersion: record.appVersion)
      for fact in policy.appFacts { tracker.setFact(fact.name, fact.value) }
      tracker.installSeed = RecordReplay.seed(forInstall: record.install)
      tracker.promptTimeout = promptTimeout
      return tracker
    }
  }

  /// The app's check at `time` asked if `originalAsked`; every policy decides there too.
  private mutating func decide(originalAsked: Bool, at time: Timestamp, _ install: inout Install) {
    outcome.checks += 1
    if originalAsked {
      outcome.original.asks += 1
      install.openPrompt = time
      if install.firstAsk == nil { install.firstAsk = time }
    }
    for index in install.trackers.indices {
      let asks = install.trackers[index].promptIfAppropriate(at: time)
      if originalAsked { install.matched[index] = asks }
      if asks {
        outcome.replayed[index].asks += 1
        if install.firstAsks[index] == nil { install.firstAsks[index] = time }
      }
      switch (asks, originalAsked) {
      case (true, true), (false, false): outcome.comparisons[index].sameDecisions += 1
      case (true, false): outcome.comparisons[index].askedInstead += 1
      case (false, true): outcome.comparisons[index].didNotAsk += 1
      }
      if asks != originalAsked {
        outcome.comparisons[index].note(Difference(install: install.id, time: time, asked: asks))
      }
    }
  }

  /// The app recorded `answer` at `time`: to its open prompt, or outside any.
  ///
  /// "Outcome unknown" is the app closing a prompt (a launch, a return, a timeout), which each
  /// tracker does itself; "dismissed" closes it too, and a user's answer may still follow. A
  /// user's answer (rated, declined, remind later, feedback) ends the prompt.
  private mutating func respond(_ answer: ReviewResponse, at time: Timestamp, _ install: inout Install) {
    guard let shown = install.openPrompt else {
      if answer != .unknown && answer != .dismissed {
        for index in install.trackers.indices { install.trackers[index].recordWithoutPrompt(answer, at: time) }
      }
      return
    }
    if answer == .unknown {
      // The app closed its prompt; a replayed one made with it closes too (a tracker whose
      // timeout passed has closed it already).
      for index in install.trackers.indices where install.matched[index] {
        if install.trackers[index].isPromptShowing(at: time) {
          _ = install.trackers[index].answer(.unknown, toPromptShownAt: shown, at: time)
        }
      }
      return
    }
    outcome.original.answers[answer.rawValue, default: 0] += 1
    let final = answer != .dismissed
    if final { install.openPrompt = nil }
    for index in install.trackers.indices where install.matched[index] {
      if final { install.matched[index] = false }
      let recorded: Bool
      if install.trackers[index].isPromptShowing(at: time) {
        recorded = (try? install.trackers[index].record(answer, at: time).get()) != nil
      } else {
        recorded = (try? install.trackers[index].answer(answer, toPromptShownAt: shown, at: time).get()) != nil
      }
      if recorded { outcome.replayed[index].answers[answer.rawValue, default: 0] += 1 }
    }
  }

  /// The outcome, with every install's first asks counted.
  package func finish() -> Outcome {
    var result = outcome
    result.installs = installs.count
    func day(_ ask: Timestamp, from start: Timestamp) -> Int {
      let days = (ask.millisecondsSince1970 - start.millisecondsSince1970) / 86_400_000
      return Int(min(max(days, 0), Int64(RecordReplay.dayBuckets - 1)))
    }
    for install in installs.values {
      if let first = install.firstAsk {
        result.original.installsAsked += 1
        result.original.firstAskDays[day(first, from: install.start)] += 1
      }
      for index in install.firstAsks.indices {
        let replayed = install.firstAsks[index]
        if let replayed {
          result.replayed[index].installsAsked += 1
          result.replayed[index].firstAskDays[day(replayed, from: install.start)] += 1
        }
        switch (replayed, install.firstAsk) {
        case (nil, nil): result.comparisons[index].neither += 1
        case (nil, _?): result.comparisons[index].onlyOriginal += 1
        case (_?, nil): result.comparisons[index].onlyReplayed += 1
        case (let mine?, let theirs?):
          if mine == theirs {
            result.comparisons[index].sameFirstAsk += 1
          } else if mine < theirs {
            result.comparisons[index].earlier += 1
          } else {
            result.comparisons[index].later += 1
          }
        }
      }
    }
    return result
  }
}
