import ReviewPolicy

/// Estimates the behaviour model of an app from its records (`policyc simulate --fit`): daily
/// open rates (a mixture of heavy and light users), sessions per day, each event's rate per
/// session with the share of installs that never produce it (which becomes segments), the
/// answer mix, bad sessions and the release cadence. See ``BehaviourEstimate``.
///
/// Records are added one at a time; each install's records in the order they happened (as the
/// app wrote them). Memory grows with the installs and the events of each name they produced,
/// not with the records. Event names beyond ``maximumEventNames`` and app versions beyond
/// ``maximumVersions`` are counted but not estimated.
package struct BehaviourFit: Sendable {
  /// The most event names estimated (the first seen).
  package static let maximumEventNames = 64
  /// The most app versions whose first appearance is kept.
  package static let maximumVersions = 4096
  /// Milliseconds in a day.
  static let day: Int64 = 86_400_000

  /// What is kept of one install.
  struct Install: Sendable {
    /// The day (since 1970, UTC) of its first record.
    var firstDay: Int64
    /// The last day with a session.
    var lastOpenDay: Int64 = .min
    /// Days with a session after the first day.
    var openedAfterFirst: Int32 = 0
    /// Days with a session.
    var openDays: Int32 = 0
    /// Sessions started.
    var sessions: Int32 = 0
    /// Sessions in which an action went badly.
    var badSessions: Int32 = 0
    /// Whether an action now cannot mark a session bad: outside a session, or in one marked already.
    var isBadSession = true
  }

  /// The installs, by identifier.
  private var index: [String: Int] = [:]
  /// The installs, in the order first seen.
  private var installs: [Install] = []
  /// The event names estimated, in the order first seen.
  private(set) var eventNames: [String] = []
  /// Each event's count per install that produced it: `install * maximumEventNames + name`.
  private var eventCounts: [Int: Int32] = [:]
  /// Significant events whose name is beyond the estimated ones.
  private(set) var otherEvents = 0
  /// Each app version's first record, in milliseconds.
  private var versions: [String: Int64] = [:]
  /// The last record's day.
  private var lastDay: Int64 = .min
  /// The answers to prompts, by answer.
  private var answers: [String: Int] = [:]
  /// Answers given outside a prompt.
  private var outsideAnswers = 0
  /// Prompts shown.
  private var promptsShown = 0
  /// Records read.
  private var records = 0

  /// An empty fit.
  package init() {}

  /// Adds one record.
  package mutating func add(_ record: ReviewRecord) {
    records += 1
    let time = record.time.millisecondsSince1970
    let day = Self.dayNumber(time)
    lastDay = max(lastDay, day)
    if versions.count < Self.maximumVersions || versions[record.appVersion] != nil {
      versions[record.appVersion] = min(versions[record.appVersion] ?? .max, time)
    }
    let position: Int
    if let known = index[record.install] {
      position = known
    } else {
      position = installs.count
      index[record.install] = position
      installs.append(Install(firstDay: day))
    }
    switch record.event {
    case "sessionStart":
      installs[position].sessions &+= 1
      installs[position].isBadSession = false
      if installs[position].lastOpenDay != day {
        installs[position].lastOpenDay = day
        installs[position].openDays &+= 1
        if day > installs[position].firstDay { installs[position].openedAfterFirst &+= 1 }
      }
    case "action":
      if record.bad == true, !installs[position].isBadSession {
        installs[position].isBadSession = true
        installs[position].badSessions &+= 1
      }
    case "sessionEnd":
      installs[position].isBadSession = true
    case "significantEvent":
      guard let name = record.name, !name.isEmpty else { break }
      guard let nameIndex = eventNames.firstIndex(of: name) ?? newEventName(name) else {
        otherEvents += 1
        break
      }
      eventCounts[position &* Self.maximumEventNames &+ nameIndex, default: 0] &+= 1
    case "promptShown":
      promptsShown += 1
    case "response":
      if record.outside == true {
        outsideAnswers += 1
      } else if let answer = record.answer {
        answers[answer, default: 0] += 1
      }
    default:
      break
    }
  }

  /// Adds `name` to the estimated event names: its index, nil when there are enough.
  private mutating func newEventName(_ name: String) -> Int? {
    guard eventNames.count < Self.maximumEventNames else { return nil }
    eventNames.append(name)
    return eventNames.count - 1
  }

  /// The day number of `milliseconds` since 1970 (rounded down, also before 1970).
  static func dayNumber(_ milliseconds: Int64) -> Int64 {
    let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: day)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// The estimate from the records added.
  package func finish() -> BehaviourEstimate {
    var estimate = BehaviourEstimate()
    estimate.records = records
    estimate.installs = installs.count
    let firstDay = installs.map(\.firstDay).min() ?? 0
    estimate.days = installs.isEmpty ? 0 : Int(clamping: lastDay - firstDay + 1)
    // Open days: each install from its first day to the last day of the records.
    var dayCounts: [Int64: Int] = [:]
    var sessions = 0
    var openDays = 0
    var badSessions = 0
    for install in installs {
      let days = lastDay - install.firstDay
      if days > 0, days <= Int64(Int32.max) {
        dayCounts[days << 32 | Int64(install.openedAfterFirst), default: 0] += 1
      }
      sessions += Int(install.sessions)
      openDays += Int(install.openDays)
      badSessions += Int(install.badSessions)
    }
    estimate.sessions = sessions
    estimate.openRates = MixtureFit.openRates(
      dayCounts.map {
        MixtureFit.DayCount(days: Int($0.key >> 32), opened: Int($0.key & 0xFFFF_FFFF), installs: $0.value)
      }
      .sorted { ($0.days, $0.opened) < ($1.days, $1.opened) })
    if openDays > 0 { estimate.sessionsPerDay = Double(sessions) / Double(openDays) }
    if sessions > 0 { estimate.badSessions = Double(badSessions) / Double(sessions) }
    estimate.events = eventRates()
    estimate.otherEvents = otherEvents
    estimate.promptsShown = promptsShown
    estimate.answers = answers
    estimate.outsideAnswers = outsideAnswers
    estimate.releaseEvery = releaseEvery(lastDay: lastDay)
    estimate.versions = versions.count
    return estimate
  }

  /// The fitted rate of every event name, by name (so the same records in another order give
  /// the same file): one pass over the installs and one over the counts, whatever the number of
  /// names.
  private func eventRates() -> [BehaviourEstimate.Event] {
    // Installs with sessions, by their sessions; then, per name, those that produced it.
    var everyone: [Int: Int] = [:]
    for install in installs where install.sessions > 0 { everyone[Int(install.sessions), default: 0] += 1 }
    var producers = Array(
      repeating: MixtureFit.Producers(installs: 0, events: 0, sessions: 0), count: eventNames.count)
    var producing = Array(repeating: [Int: Int](), count: eventNames.count)
    for (key, count) in eventCounts where count > 0 {
      let (position, name) = key.quotientAndRemainder(dividingBy: Self.maximumEventNames)
      let sessions = Int(installs[position].sessions)
      guard sessions > 0 else { continue }
      producers[name].installs += 1
      producers[name].events += Int(count)
      producers[name].sessions += sessions
      producing[name][sessions, default: 0] += 1
    }
    return eventNames.indices.compactMap { name in
      let zeros = everyone.compactMap { sessions, installs -> MixtureFit.SessionCount? in
        let none = installs - producing[name][sessions, default: 0]
        return none > 0 ? MixtureFit.SessionCount(sessions: sessions, installs: none) : nil
      }
      .sorted { $0.sessions < $1.sessions }
      return MixtureFit.zeroInflated(zeroSessions: zeros, withEvents: producers[name]).map {
        BehaviourEstimate.Event(name: eventNames[name], fit: $0)
      }
    }
    .sorted { $0.name < $1.name }
  }

  /// Days between releases: the median gap between the first records of consecutive app
  /// versions, leaving out the first version's (everyone's install); 0 for one version. With
  /// two versions, one release was seen: at least the days from it to the last record.
  private func releaseEvery(lastDay: Int64) -> Int {
    let firsts = versions.values.sorted()
    guard firsts.count >= 2 else { return 0 }
    let gaps = zip(firsts.dropFirst(), firsts.dropFirst(2)).map { Double($1 - $0) / Double(Self.day) }.sorted()
    let days: Double
    if gaps.isEmpty {
      days = Double(lastDay - Self.dayNumber(firsts[1]) + 1)
    } else {
      let middle = gaps.count / 2
      days = gaps.count % 2 == 1 ? gaps[middle] : (gaps[middle - 1] + gaps[middle]) / 2
    }
    return max(1, min(3650, Int(days.rounded())))
  }
}
