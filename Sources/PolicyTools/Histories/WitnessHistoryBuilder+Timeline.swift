import Foundation
import PolicyCore
import ReviewPolicy

/// An answer's flags and the instant of the last one.
struct WitnessAnswer {
  var inCurrent: Bool?
  var any: Bool
  var last: Int64?
}

/// The phases of the steps at one instant, in order.
enum WitnessPhase {
  /// The install's first call.
  static let install = 0.0
  /// Counts and answers of earlier versions with no instant of their own.
  static let earlierBulk = 1.0
  /// Prompts and answers of earlier versions at their instants.
  static let earlierTimed = 2.0
  /// The change from the first of three versions to the previous one.
  static let secondVersion = 2.5
  /// The change to this version.
  static let currentVersion = 4.0
  /// Counts and answers of this version with no instant of their own.
  static let currentBulk = 5.0
  /// Late answers to an earlier version's prompts, before this version's prompts at their instant.
  static let lateAnswer = 5.5
  /// Prompts and answers of this version at their instants.
  static let currentTimed = 6.0
  /// The last bad session.
  static let badSession = 7.0
  /// The finished sessions `average_score` averages.
  static let tail = 8.0
  /// The session in progress.
  static let current = 9.0
}

extension WitnessHistoryBuilder {
  /// The history, or why there is none.
  mutating func build() throws(Refusal) -> WitnessHistory {
    // Versions: the current one, the previous one (made up when not given, so that earlier
    // counts have a version), and a first one when the last prompt's version is neither.
    guard let one = Version(parsing: "1.0") else { throw Messages.unknownFact("version") }
    let givenPrevious = try version("previous_version")
    let promptVersion = try version("last_prompt_version")
    let current: Version
    switch try version("version") {
    case .none:
      // Not given: the last prompt's version when it can be this one, else one the previous is not.
      let previousValue = givenPrevious.flatMap { $0 }
      let promptBeforeUse: Bool
      if case .some(let prompt?) = try instant("last_prompt"), case .some(let use?) = try instant("first_use") {
        promptBeforeUse = prompt < use
      } else {
        promptBeforeUse = false
      }
      if case .some(let value?) = promptVersion, value != previousValue, !promptBeforeUse {
        current = value
      } else {
        let avoided = promptBeforeUse ? promptVersion.flatMap { $0 } : nil
        current =
          [one, Version(parsing: "2.0"), Version(parsing: "3.0")].compactMap { $0 }.first {
            $0 != previousValue && $0 != avoided
          } ?? one
      }
    case .some(nil): throw Messages.absent("version")
    case .some(let value?): current = value
    }
    let hasPrevious = givenPrevious != .some(nil)
    var previous: Version?
    if case .some(let value?) = givenPrevious {
      previous = value
    } else if hasPrevious {
      if case .some(let value?) = promptVersion, value != current {
        previous = value
      } else {
        previous = [Version(parsing: "0.9"), Version(parsing: "0.8")].compactMap { $0 }.first { $0 != current }
      }
    }
    if let previous, previous == current { throw Messages.sameVersion(["version", "previous_version"]) }
    // The last prompt is this version's when this version showed prompts; its version names it
    // otherwise (a prompt of an earlier version with this version's number: the app went back and forth).
    let promptsGiven = try count("prompts")
    var promptInCurrent: Bool?
    if let promptsGiven, promptsGiven > 0 {
      promptInCurrent = true
    } else if promptsGiven == 0 {
      promptInCurrent = false
    } else if case .some(let value?) = promptVersion {
      promptInCurrent = value == current
    }
    if promptInCurrent == nil, let sessions = try count("sessions"),
      let since = try optionalCount("sessions_since_prompt") ?? nil,
      since > sessions
    {
      promptInCurrent = false
    }
    if promptInCurrent == true, case .some(let value?) = promptVersion, value != current {
      throw Messages.presence("last_prompt_version", "prompts", "is not this version, but this version showed prompts")
    }
    var first: Version?
    if promptInCurrent == false, case .some(let value?) = promptVersion, value != previous {
      guard hasPrevious else {
        throw Messages.needsEarlierVersion(["last_prompt_version"], "the last prompt (`last_prompt_version` \(value))")
      }
      first = value
    }

    // When this version and the install started.
    var currentRange = Int64.min...now
    var installRange = Int64.min...now
    if case .some(let value) = try instant("first_use") {
      guard let value else { throw Messages.absent("first_use") }
      currentRange = value...value
    }
    if let days = try count("days") {
      currentRange = try clamp(currentRange, dayRange(days, "days"), ["days", "first_use"])
    }
    if case .some(let value) = try instant("install_date") {
      guard let value else { throw Messages.absent("install_date") }
      installRange = value...value
    }
    if let days = try count("total_days") {
      installRange = try clamp(installRange, dayRange(days, "total_days"), ["total_days", "install_date"])
    }

    if currentRange.upperBound < installRange.lowerBound {
      let names = ["first_use", "days", "install_date", "total_days"].filter { plain[$0] != nil }
      throw Messages.timing(names, "this version would start before the install (its days are part of all days)")
    }

    // Answers: each flag of this version and of all versions, with the instant of the last one.
    func answer(_ part: String, _ whole: String, last: String?) throws(Refusal) -> WitnessAnswer {
      let partFlag = try flag(part)
      var anyFlag = try flag(whole)
      var lastInstant: Int64?
      if let last {
        switch try instant(last) {
        case .none: break
        case .some(nil):
          if anyFlag == true { throw Messages.presence(last, whole, "is absent, but `\(whole)` is true") }
          anyFlag = anyFlag ?? false
        case .some(let value?):
          if anyFlag == false { throw Messages.presence(last, whole, "is present, but `\(whole)` is false") }
          anyFlag = true
          lastInstant = value
        }
      }
      if partFlag == true && anyFlag == false { throw Messages.flagWithoutAny(part, whole) }
      let any = anyFlag ?? (partFlag ?? false)
      return WitnessAnswer(inCurrent: any ? partFlag : false, any: any, last: lastInstant)
    }
    let rating = try answer("rated", "rated_any", last: "last_rating")
    let decline = try answer("declined", "declined_any", last: "last_decline")
    let feedback = try answer("feedback", "feedback_any", last: nil)
    let reminder = try instant("last_reminder") ?? nil

    // Prompts.
    let totalGiven = try count("total_prompts")
    let lastPromptGiven = try instant("last_prompt")
    var windowCounts: [(window: Int64, count: Int64, name: String)] = []
    for (window, value) in windows {
      let name = "prompts_within(\(window))"
      guard let value else { throw Messages.absent(name) }
      let count = try Self.count(name, value)
      if window.milliseconds <= 0 || window.isInfinite {
        // An empty window counts nothing; an infinite one counts every prompt kept.
        if window.milliseconds <= 0 && count != 0 {
          throw Messages.prompts([name], "an empty time window holds no prompt")
        }
        if window.isInfinite { windowCounts.append((.max, count, name)) }
        continue
      }
      windowCounts.append((window.milliseconds, count, name))
    }
    windowCounts.sort { $0.window < $1.window }
    let widest = windowCounts.last?.count ?? 0
    let sincePrompt = try optionalCount("sessions_since_prompt")
    let anyPrompt =
      lastPromptGiven.flatMap { $0 } != nil || promptVersion.flatMap { $0 } != nil || sincePrompt.flatMap { $0 } != nil
    var total = totalGiven ?? max(promptsGiven ?? 0, widest, anyPrompt ? 1 : 0)
    if case .some(nil) = lastPromptGiven, totalGiven == nil { total = 0 }
    if let promptsGiven, promptsGiven > total {
      throw Messages.partAboveWhole("prompts", promptsGiven, "total_prompts", total)
    }
    switch lastPromptGiven {
    case .some(nil) where total > 0:
      throw Messages.presence("last_prompt", "total_prompts", "is absent, but `total_prompts` = \(total)")
    case .some(_?) where total == 0:
      throw Messages.presence("last_prompt", "total_prompts", "is present, but `total_prompts` = 0")
    default: break
    }
    for name in ["last_prompt_version", "sessions_since_prompt"] {
      let present: Bool? =
        switch given(name) {
        case .unknown: nil
        case .absent: false
        case .value: true
        }
      if let present, present != (total > 0) {
        throw Messages.presence(
          name, "total_prompts", present ? "is present, but no prompt was shown" : "is absent, but a prompt was shown")
      }
    }
    var previousWindow: (window: Int64, count: Int64, name: String)?
    for window in windowCounts {
      if window.count > total {
        throw Messages.partAboveWhole(window.name, window.count, "total_prompts", total)
      }
      if window.count > Int64(ReviewLimitsView.promptHistory) {
        throw Messages.prompts(
          [window.name],
          "the tracker keeps the last \(ReviewLimitsView.promptHistory) prompts, so no window counts more")
      }
      if let previousWindow, previousWindow.count > window.count {
        throw Messages.prompts(
          [previousWindow.name, window.name], "a longer window holds at least the prompts of a shorter one")
      }
      previousWindow = window
    }

    // Choose the start of this version: as late as the facts of this version allow.
    var currentTimes: [(Int64, String)] = []
    var earlierTimes: [(Int64, String)] = []
    if let reminder { currentTimes.append((reminder, "last_reminder")) }
    for (answer, name, flag) in [(rating, "last_rating", "rated"), (decline, "last_decline", "declined")] {
      guard let last = answer.last else { continue }
      if answer.inCurrent == true { currentTimes.append((last, name)) }
      // An answer of an earlier version may come after this version's first use: a late answer
      // to a prompt shown in an earlier version (placed in `place`).
      if answer.inCurrent == false && answer.any && !hasPrevious {
        throw Messages.needsEarlierVersion([name, flag], "`\(name)` without `\(flag)`")
      }
    }
    let lastPromptKnown = lastPromptGiven.flatMap { $0 }
    if total == 0 { promptInCurrent = nil }
    if let lastPromptKnown, let promptInCurrent {
      if promptInCurrent {
        currentTimes.append((lastPromptKnown, "last_prompt"))
      } else {
        earlierTimes.append((lastPromptKnown, "last_prompt"))
      }
    }
    // Sessions after an instant, against this version's sessions, tell on which side of its first use the instant is.
    if let sessions = try count("sessions") {
      if case .some(let first?) = try instant("first_session"), let total = try count("total_sessions") {
        if total > sessions { earlierTimes.append((first, "first_session")) }
        if total == sessions && sessions > 0 { currentTimes.append((first, "first_session")) }
      }
      let sinceBad = try optionalCount("sessions_since_bad") ?? nil
      if case .some(let bad?) = try instant("last_bad_session"), let sinceBad {
        if sinceBad > sessions { earlierTimes.append((bad, "last_bad_session")) }
        if sinceBad < sessions { currentTimes.append((bad, "last_bad_session")) }
      }
      if let lastPrompt = lastPromptGiven.flatMap({ $0 }), let since = sincePrompt.flatMap({ $0 }) {
        if since > sessions { earlierTimes.append((lastPrompt, "last_prompt")) }
        if since < sessions { currentTimes.append((lastPrompt, "last_prompt")) }
      }
    }
    let latestEarlier = earlierTimes.max { $0.0 < $1.0 }
    if let latestEarlier, !hasPrevious { throw Messages.needsEarlierVersion([latestEarlier.1], "`\(latestEarlier.1)`") }
    var high = currentRange.upperBound
    var low = max(currentRange.lowerBound, latestEarlier?.0 ?? Int64.min)
    if let earliest = currentTimes.min(by: { $0.0 < $1.0 }), earliest.0 < high {
      guard earliest.0 >= currentRange.lowerBound else {
        throw Messages.timing([earliest.1, "first_use", "days"], "it is before this version's first use")
      }
      high = earliest.0
    }
    if !hasPrevious {
      // One version: this version started at the install.
      let both = try clamp(currentRange, installRange, ["first_use", "days", "install_date", "total_days"])
      high = min(high, both.upperBound)
      low = max(low, both.lowerBound)
    }
    if let latestEarlier, latestEarlier.0 > high {
      // An earlier version's last prompt after this version's first use: a device clock set back
      // (random tracker histories give it only with one). Anything else: no history known.
      guard latestEarlier.1 == "last_prompt" else {
        throw Messages.timing(
          [latestEarlier.1, "first_use"], "it happened in an earlier version but after this version's first use")
      }
      throw Messages.clockSetBack([latestEarlier.1], "`\(latestEarlier.1)`")
    }
    guard low <= high else {
      throw Messages.timing(["first_use", "install_date"], "with one version, the install is this version's first use")
    }
    // Candidates for this version's first use, tried in order: the latest, the earliest, the
    // earliest instant given, and the edges of the prompt windows.
    var given: [Int64] = []
    for (name, value) in plain {
      if case .instant(let instant)? = value, name != "first_use" { given.append(instant.millisecondsSince1970) }
    }
    var candidates = [high]
    if low > Int64.min { candidates.append(low) }
    if let earliest = given.min() { candidates.append(earliest) }
    for window in windowCounts { candidates += [now &- window.window, now &- window.window &+ 1] }
    var seen = Set<Int64>()
    candidates = candidates.filter { $0 >= low && $0 <= high && seen.insert($0).inserted }
    var firstRefusal: Refusal?
    let saved = self
    for candidate in candidates {
      self = saved
      do throws(Refusal) {
        return try place(
          start: candidate, hasPrevious: hasPrevious, installRange: installRange, given: given, rating: rating,
          decline: decline, feedback: feedback, reminder: reminder, total: total, promptsGiven: promptsGiven,
          lastPromptKnown: lastPromptGiven.flatMap { $0 }, promptInCurrent: promptInCurrent, windowCounts: windowCounts,
          current: current, previous: previous, first: first)
      } catch {
        firstRefusal = firstRefusal ?? error
      }
    }
    throw firstRefusal ?? Messages.timing(["first_use"], "no instant fits")
  }

  /// The rest of ``build()`` for this version's first use at `start`.
  private mutating func place(
    start: Int64, hasPrevious: Bool, installRange: ClosedRange<Int64>, given: [Int64], rating: WitnessAnswer,
    decline: WitnessAnswer, feedback: WitnessAnswer, reminder: Int64?, total: Int64, promptsGiven: Int64?,
    lastPromptKnown: Int64?,
    promptInCurrent: Bool?, windowCounts: [(window: Int64, count: Int64, name: String)], current: Version,
    previous: Version?, first: Version?
  ) throws(Refusal) -> WitnessHistory {
    // The floor of every instant: the install's earliest.
    let floor =
      hasPrevious ? max(installRange.lowerBound, min(installRange.upperBound, start, given.min() ?? start)) : start

    // Answers on the timeline. One of an earlier version after this version's first use is a
    // late answer to an earlier version's prompt (`late -> rate`), before this version's prompts.
    var late: [Int64] = []
    for (index, name) in [(0, "rated"), (1, "declined"), (2, "feedback")] {
      let answer = [rating, decline, feedback][index]
      guard answer.any else { continue }
      let word = ["rate", "decline", "feedback"][index]
      let inCurrent = answer.inCurrent ?? (!hasPrevious || (answer.last.map { $0 >= start } ?? true))
      let step = "unprompted -> \(word)"
      let facts = [name, name + "_any"]
      if !inCurrent, hasPrevious, let last = answer.last, last > start {
        add(
          last, WitnessPhase.lateAnswer, ["late -> \(word)"], .current,
          facts: facts + [["last_rating", "last_decline"][index]])
        late.append(last)
      } else if inCurrent {
        add(
          answer.last ?? start, answer.last == nil ? WitnessPhase.currentBulk : WitnessPhase.currentTimed, [step],
          .current,
          facts: facts)
      } else {
        guard hasPrevious else { throw Messages.needsEarlierVersion(facts, "`\(name + "_any")`") }
        add(
          answer.last ?? floor, answer.last == nil ? WitnessPhase.earlierBulk : WitnessPhase.earlierTimed, [step],
          .earlier,
          facts: facts)
      }
    }
    if let reminder {
      add(reminder, WitnessPhase.currentTimed, ["unprompted -> remind"], .current, facts: ["last_reminder"])
    }

    // Uses and events.
    let uses = try pair("uses", "total_uses", hasPrevious: hasPrevious)
    add(
      floor, WitnessPhase.earlierBulk, [try repeated("foreground", uses.earlier, "total_uses")], .earlier,
      facts: ["total_uses"])
    add(start, WitnessPhase.currentBulk, [try repeated("foreground", uses.part, "uses")], .current, facts: ["uses"])
    // Named events: a member of this version not given takes what `events` leaves, or all of its total.
    let eventsGiven = try count("events")
    var namedCurrent: Int64 = 0
    var namedEarlier: Int64 = 0
    var named: [(name: String, part: Int64?, whole: Int64?)] = []
    for name in Set(events.keys).union(totalEvents.keys).sorted() {
      let partName = "events(\"\(name)\")"
      let wholeName = "total_events(\"\(name)\")"
      let part = try events[name].map { value throws(Refusal) in
        guard let value else { throw Messages.absent(partName) }
        return try Self.count(partName, value)
      }
      let whole = try totalEvents[name].map { value throws(Refusal) in
        guard let value else { throw Messages.absent(wholeName) }
        return try Self.count(wholeName, value)
      }
      named.append((name, part, whole))
    }
    var room = (eventsGiven ?? Int64.max) - named.reduce(0) { $0 + ($1.part ?? 0) }
    for (name, part, whole) in named.sorted(by: {
      ($0.part == nil ? 1 : 0, $0.name) < ($1.part == nil ? 1 : 0, $1.name)
    }) {
      let partName = "events(\"\(name)\")"
      let wholeName = "total_events(\"\(name)\")"
      var resolvedPart = part ?? whole ?? 0
      if part == nil, hasPrevious {
        resolvedPart = min(resolvedPart, max(room, 0))
        room -= resolvedPart
      }
      let resolvedWhole = whole ?? resolvedPart
      guard resolvedPart <= resolvedWhole else {
        throw Messages.partAboveWhole(partName, resolvedPart, wholeName, resolvedWhole)
      }
      if !hasPrevious && resolvedPart != resolvedWhole {
        throw Messages.needsEarlierVersion([partName, wholeName], "part of `\(wholeName)`")
      }
      guard resolvedWhole > 0 else { continue }
      let step = try Self.eventStep(name)
      add(start, WitnessPhase.currentBulk, [try repeated(step, resolvedPart, partName)], .current, facts: [partName])
      add(
        floor, WitnessPhase.earlierBulk, [try repeated(step, resolvedWhole - resolvedPart, wholeName)], .earlier,
        facts: [wholeName])
      namedCurrent = namedCurrent.addingReportingOverflow(resolvedPart).partialValue
      namedEarlier = namedEarlier.addingReportingOverflow(resolvedWhole - resolvedPart).partialValue
    }
    let totalEventsGiven = try count("total_events")
    let eventsPart =
      eventsGiven ?? (totalEventsGiven.map { hasPrevious ? max(namedCurrent, $0 - namedEarlier) : $0 } ?? namedCurrent)
    let eventsWhole = totalEventsGiven ?? (eventsPart + namedEarlier)
    guard eventsPart >= namedCurrent else {
      throw Messages.partAboveWhole("events(…)", namedCurrent, "events", eventsPart)
    }
    guard eventsPart <= eventsWhole else {
      throw Messages.partAboveWhole("events", eventsPart, "total_events", eventsWhole)
    }
    let earlierEvents = eventsWhole - eventsPart
    guard earlierEvents >= namedEarlier else {
      throw Messages.partAboveWhole("total_events(…)", namedEarlier + eventsPart, "total_events", eventsWhole)
    }
    if !hasPrevious && earlierEvents != 0 {
      throw Messages.needsEarlierVersion(["events", "total_events"], "part of `total_events`")
    }
    add(
      start, WitnessPhase.currentBulk, [try repeated("silent event", eventsPart - namedCurrent, "events")], .current,
      facts: ["events"])
    add(
      floor, WitnessPhase.earlierBulk, [try repeated("silent event", earlierEvents - namedEarlier, "total_events")],
      .earlier,
      facts: ["total_events"])

    // Prompts: groups at instants inside their windows, the last one at `last_prompt`.
    var total = total
    if !late.isEmpty, try count("total_prompts") == nil {
      // Room for a prompt of an earlier version per late answer.
      total = max(total, (promptsGiven ?? 0) + Int64(late.count))
    }
    let lastPrompt = try placePrompts(
      total: total, inCurrentGiven: promptsGiven, lastGiven: lastPromptKnown, inCurrent: promptInCurrent,
      windows: windowCounts, start: start, floor: floor, first: first != nil,
      sessionsSince: (try optionalCount("sessions_since_prompt") ?? nil) ?? 0, lateAnswers: late)

    // Sessions.
    try placeSessions(start: start, floor: floor, hasPrevious: hasPrevious, lastPrompt: lastPrompt)

    // The install, the version changes and the steps in order.
    return try assemble(
      start: start, installRange: installRange, current: current, previous: hasPrevious ? previous : nil, first: first)
  }

  /// A count of this version and of all versions: a missing one equals the other.
  func pair(_ part: String, _ whole: String, hasPrevious: Bool) throws(Refusal) -> (part: Int64, earlier: Int64) {
    let partValue = try count(part)
    let wholeValue = try count(whole)
    let resolvedPart = partValue ?? wholeValue ?? 0
    let resolvedWhole = wholeValue ?? resolvedPart
    guard resolvedPart <= resolvedWhole else {
      throw Messages.partAboveWhole(part, resolvedPart, whole, resolvedWhole)
    }
    if !hasPrevious && resolvedPart != resolvedWhole {
      throw Messages.needsEarlierVersion([part, whole], "part of `\(whole)`")
    }
    return (resolvedPart, resolvedWhole - resolvedPart)
  }

  /// The instants in both ranges; refused when there are none.
  func clamp(_ range: ClosedRange<Int64>, _ other: ClosedRange<Int64>, _ facts: [String]) throws(Refusal)
    -> ClosedRange<Int64>
  {
    let low = max(range.lowerBound, other.lowerBound)
    let high = min(range.upperBound, other.upperBound)
    guard low <= high else { throw Messages.timing(facts, "the day count and the instant disagree") }
    return low...high
  }
}

/// The tracker's limits that a history must respect, as PolicyTools sees them.
enum ReviewLimitsView {
  /// The most prompts the tracker keeps.
  static let promptHistory = ReviewLimits.promptHistory
  /// How long the tracker keeps prompts before the last one, in milliseconds.
  static let promptRetention: Int64 = 730 * 86_400_000
  /// The most finished sessions the tracker keeps.
  static let sessionHistory = ReviewLimits.sessionHistory
}
