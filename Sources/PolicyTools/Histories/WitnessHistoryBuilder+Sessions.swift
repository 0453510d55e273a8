import PolicyCore

extension WitnessHistoryBuilder {
  /// The most a session's score reaches: the review manager's default score bounds, in scaled units.
  static let scoreBound = Int64(200) * Number.scale

  /// Places the counted sessions so that as many start after each instant as the facts say
  /// (this version's first use, the first session, the last prompt, the last bad session), then
  /// the finished sessions that `average_score` averages and the session in progress.
  mutating func placeSessions(
    start: Int64, floor: Int64, hasPrevious: Bool, lastPrompt: (time: Int64, phase: Double)?
  ) throws(Refusal) {
    let firstSession = try instant("first_session")
    let sinceBad = try optionalCount("sessions_since_bad")
    let lastBad = try instant("last_bad_session")
    let sincePrompt = try optionalCount("sessions_since_prompt") ?? nil
    let firstKnown = firstSession.flatMap { $0 }
    let totalGiven = try count("total_sessions")
    let sessionsGiven = try count("sessions")
    var total =
      totalGiven
      ?? max(sessionsGiven ?? 0, sincePrompt ?? 0, sinceBad.flatMap { $0 } ?? 0, firstKnown != nil ? 1 : 0)
    if case .some(nil) = firstSession, totalGiven == nil { total = 0 }
    // Not given: the first session starts before the instants it precedes.
    if totalGiven == nil, let firstKnown {
      var afters: [(Int64, Int64)] = []
      if let sessionsGiven, hasPrevious { afters.append((start, sessionsGiven)) }
      if let lastPrompt, let sincePrompt { afters.append((lastPrompt.time, sincePrompt)) }
      if case .some(let bad?) = lastBad, case .some(let since?) = sinceBad { afters.append((bad, since)) }
      for (time, after) in afters where firstKnown < time { total = max(total, after + 1) }
    }
    switch firstSession {
    case .some(nil) where total > 0:
      throw Messages.presence("first_session", "total_sessions", "is absent, but `total_sessions` = \(total)")
    case .some(_?) where total == 0:
      throw Messages.presence("first_session", "total_sessions", "is present, but `total_sessions` = 0")
    default: break
    }
    switch (lastBad, sinceBad) {
    case (.some(nil), .some(_?)):
      throw Messages.presence("sessions_since_bad", "last_bad_session", "is present, but `last_bad_session` is absent")
    case (.some(_?), .some(nil)):
      throw Messages.presence("sessions_since_bad", "last_bad_session", "is absent, but `last_bad_session` is present")
    default: break
    }
    // This version's sessions: free when not given (its first use is then no marker).
    let current = sessionsGiven ?? total
    guard current <= total else { throw Messages.partAboveWhole("sessions", current, "total_sessions", total) }
    if !hasPrevious && current != total {
      throw Messages.needsEarlierVersion(["sessions", "total_sessions"], "part of `total_sessions`")
    }
    for (name, value) in [("sessions_since_prompt", sincePrompt), ("sessions_since_bad", sinceBad.flatMap { $0 })] {
      if let value, value > total { throw Messages.partAboveWhole(name, value, "total_sessions", total) }
    }

    // The markers, each with the sessions that start after it.
    var markers: [Marker] = []
    if hasPrevious && sessionsGiven != nil {
      markers.append(Marker(time: start, phase: WitnessPhase.currentVersion, after: current, facts: ["sessions"]))
    }
    // Whether a session started in an earlier version (the version change then ended it).
    let earlier = firstKnown.map { sessionsGiven == nil ? $0 < start : total > current } ?? (total > current)
    if let firstKnown {
      if earlier && firstKnown > start {
        throw Messages.timing(["first_session", "sessions"], "the first session was in an earlier version")
      }
      if !earlier && firstKnown < start {
        throw Messages.timing(["first_session", "sessions"], "every session was in this version")
      }
      // Before the last prompt of its version at that instant (no step stands for it).
      let phase = earlier ? WitnessPhase.earlierTimed - 0.5 : WitnessPhase.currentTimed - 0.5
      markers.append(Marker(time: firstKnown, phase: phase, after: total, facts: ["first_session"]))
    }
    if let lastPrompt, let sincePrompt {
      markers.append(
        Marker(time: lastPrompt.time, phase: lastPrompt.phase, after: sincePrompt, facts: ["sessions_since_prompt"]))
    }
    var badPlaced = false
    if case .some(let badTime?) = lastBad {
      if case .some(let since?) = sinceBad {
        var phase = WitnessPhase.badSession
        for marker in markers where marker.time == badTime && marker.after < since {
          phase = min(phase, marker.phase - 0.05)
        }
        markers.append(Marker(time: badTime, phase: phase, after: since, facts: ["sessions_since_bad"]))
        add(badTime, phase, ["end session", "action 0 bad", "end session"], facts: ["last_bad_session"])
      } else {
        add(
          badTime, WitnessPhase.badSession, ["end session", "action 0 bad", "end session"], facts: ["last_bad_session"])
      }
      badPlaced = true
    }
    markers.sort { ($0.time, $0.phase, -$0.after) < ($1.time, $1.phase, -$1.after) }
    var previousMarker: Marker?
    for marker in markers {
      if let previousMarker, previousMarker.after < marker.after {
        // More sessions after a later bad session than after an earlier instant: the clock went
        // back (random tracker histories give it only with one).
        let facts = previousMarker.facts + marker.facts
        if previousMarker.time < marker.time && facts.contains("sessions_since_bad") {
          throw Messages.sessionsAgainstTime(facts)
        }
        throw Messages.sessions(facts)
      }
      previousMarker = marker
    }
    if let first = markers.first {
      add(
        first.time, first.phase - 0.001, [try repeated("session", total - first.after, "total_sessions")],
        sessions: total - first.after)
    } else {
      add(start, WitnessPhase.currentBulk + 0.1, [try repeated("session", total, "total_sessions")], sessions: total)
    }
    for (index, marker) in markers.enumerated() {
      let next = index + 1 < markers.count ? markers[index + 1].after : 0
      add(
        marker.time, marker.phase + 0.001, [try repeated("session", marker.after - next, "total_sessions")],
        sessions: marker.after - next)
    }
    if let firstKnown {
      let firstGroup = items.filter { $0.sessions > 0 }.min { ($0.time, $0.phase) < ($1.time, $1.phase) }
      if firstGroup?.time != firstKnown {
        // Every session starts after a prompt or bad session later than the first session: the
        // clock went back. A jump back moves the first session earlier by the jump but a recorded
        // prompt or bad session only to the jump's instant, so a prompt shown before any session,
        // or a bad first session, can end up after it.
        let crossing = markers.filter { $0.after == total && $0.time > firstKnown }.flatMap(\.facts)
        if crossing.contains("sessions_since_bad") || crossing.contains("sessions_since_prompt") {
          throw Messages.sessionsAgainstTime(["first_session"] + crossing)
        }
        throw Messages.sessions(["first_session"] + markers.flatMap(\.facts))
      }
    }
    if !badPlaced, case .some(let since?) = sinceBad { try placeBadSession(since: since, total: total) }
    try placeFinishedSessions(hasBadSession: badPlaced || sinceBad.flatMap { $0 } != nil, hasEarlierSession: earlier)
    try placeCurrentSession()
  }

  /// Places a bad session with `since` counted sessions after it (its instant is free).
  private mutating func placeBadSession(since: Int64, total: Int64) throws(Refusal) {
    let steps = ["end session", "action 0 bad", "end session"]
    let before = total - since
    let order = items.indices.filter { items[$0].sessions > 0 }.sorted {
      (items[$0].time, items[$0].phase, items[$0].sequence) < (items[$1].time, items[$1].phase, items[$1].sequence)
    }
    var counted: Int64 = 0
    for index in order {
      let group = items[index]
      if counted == before {
        add(group.time, group.phase - 0.0005, steps, facts: ["sessions_since_bad"])
        return
      }
      if counted + group.sessions > before {
        let first = before - counted
        let rest = group.sessions - first
        items[index].sessions = first
        items[index].steps = [try repeated("session", first, "total_sessions")].compactMap { $0 }
        repetitions -= rest
        add(group.time, group.phase + 0.0001, steps, facts: ["sessions_since_bad"])
        add(group.time, group.phase + 0.0002, [try repeated("session", rest, "total_sessions")], sessions: rest)
        return
      }
      counted += group.sessions
    }
    add(now, WitnessPhase.badSession, steps, facts: ["sessions_since_bad"])
  }

  /// The finished sessions `average_score(n)` averages: the last ones, made up of uncounted
  /// sessions (an action with no session started) at `now`, with scores that give each average.
  private mutating func placeFinishedSessions(hasBadSession: Bool, hasEarlierSession: Bool) throws(Refusal) {
    var present: [(key: Int64, average: Number, name: String)] = []
    var absent: [String] = []
    for (key, value) in averages.sorted(by: { $0.key < $1.key }) {
      let name = "average_score(\(key))"
      guard let value else {
        absent.append(name)
        continue
      }
      guard case .number(let average) = value else { throw Messages.wrongType(name, value, expected: "a number") }
      guard key >= 1 else { throw Messages.scores([name], "it averages no session, so it is always absent") }
      present.append((min(key, Int64(ReviewLimitsView.sessionHistory)), average, name))
    }
    let meaningfulAbsent = absent.filter { name in
      !averages.contains { "average_score(\($0.key))" == name && $0.key < 1 }
    }
    if !present.isEmpty && !meaningfulAbsent.isEmpty {
      throw Messages.scores(
        [present[0].name, meaningfulAbsent[0]], "an average is absent only when no session has finished")
    }
    if present.isEmpty {
      if !meaningfulAbsent.isEmpty && hasBadSession {
        throw Messages.scores(
          [meaningfulAbsent[0], "last_bad_session"], "a bad session that finished is a finished session to average")
      }
      if !meaningfulAbsent.isEmpty && hasEarlierSession {
        throw Messages.scores(
          [meaningfulAbsent[0], "first_session", "sessions"],
          "a session of an earlier version finished when the version changed, so it is a session to average")
      }
      return
    }
    // The sum of the last `key` sessions, for each key.
    var sums: [(key: Int64, sum: Int64, name: String)] = []
    for entry in present {
      let (sum, overflow) = entry.average.scaled.multipliedReportingOverflow(by: entry.key)
      guard !overflow else { throw Messages.beyondScoreBounds([entry.name], "the average is beyond -200 to 200") }
      if let last = sums.last, last.key == entry.key {
        guard last.sum == sum else {
          throw Messages.scores([last.name, entry.name], "both average the same \(entry.key) kept sessions")
        }
        continue
      }
      sums.append((entry.key, sum, entry.name))
    }
    // Newest first: each block of sessions gets the difference of two sums.
    var scores: [Int64] = []
    var previous: (key: Int64, sum: Int64) = (0, 0)
    for entry in sums {
      var (remaining, overflow) = entry.sum.subtractingReportingOverflow(previous.sum)
      if overflow { throw Messages.beyondScoreBounds([entry.name], "the average is beyond -200 to 200") }
      for _ in 0..<(entry.key - previous.key) {
        let score = min(max(remaining, -Self.scoreBound), Self.scoreBound)
        scores.append(score)
        remaining -= score
      }
      guard remaining == 0 else {
        throw Messages.beyondScoreBounds([entry.name], "the sessions it averages would need scores beyond -200 to 200")
      }
      previous = (entry.key, entry.sum)
    }
    var steps = ["end session"]
    for score in scores.reversed() { steps += ["action \(Number(scaled: score))", "end session"] }
    add(now, WitnessPhase.tail, steps, facts: sums.map(\.name))
  }

  /// The session in progress: its score and whether it went badly.
  private mutating func placeCurrentSession() throws(Refusal) {
    let isBad = try flag("session_bad") ?? false
    var score = Number(scaled: 0)
    switch given("session_score") {
    case .unknown: break
    case .absent: throw Messages.absent("session_score")
    case .value(.number(let value)): score = value
    case .value(let value): throw Messages.wrongType("session_score", value, expected: "a number")
    }
    guard score.scaled.magnitude <= UInt64(Self.scoreBound) else {
      throw Messages.beyondScoreBounds(["session_score"], "a session's score stays within -200 to 200")
    }
    guard score.scaled != 0 || isBad else { return }
    add(
      now, WitnessPhase.current, ["action \(score)" + (isBad ? " bad" : "")], facts: ["session_score", "session_bad"])
  }
}
