import PolicyCore

/// The operations a review manager applies to its state, each at an instant `now`.
///
/// Counters saturate instead of overflowing and histories stay within
/// ``ReviewLimits``, so no stored or hostile value can trap.
extension ReviewState {
  /// Starts tracking `version` if it is not the tracked one; returns whether the version changed.
  ///
  /// A new version never freezes tracking: per-version facts start again at
  /// zero, lifetime facts go on, and the previous version is remembered.
  @discardableResult
  package mutating func enter(version appVersion: String, at now: Timestamp) -> Bool {
    enter(version: appVersion, build: nil, newVersionOnBuild: false, at: now)
  }

  /// Starts tracking `version` (and `build`, when given) at `now`; returns whether a new version started.
  ///
  /// A different `version` always starts a new version. A different `build` starts one only when
  /// `newVersionOnBuild`; otherwise the build is just recorded. A nil `build` leaves the recorded one.
  @discardableResult
  package mutating func enter(version appVersion: String, build: String?, newVersionOnBuild: Bool, at now: Timestamp)
    -> Bool
  {
    settleClock(at: now)
    // Stored as loading would bound it, so a relaunch sees the same version.
    let newVersion = ReviewState.prefix(appVersion, bytes: ReviewLimits.versionLength)
    let newBuild = build.map { ReviewState.prefix($0, bytes: ReviewLimits.versionLength) }
    if installDate == nil { installDate = firstUse ?? now }
    guard let tracked = version else {
      version = newVersion
      if let newBuild { self.build = newBuild }
      if firstUse == nil { firstUse = now }
      return false
    }
    if firstUse == nil { firstUse = now }
    let buildChanged = newBuild != nil && self.build != nil && newBuild != self.build
    guard tracked != newVersion || (newVersionOnBuild && buildChanged) else {
      if let newBuild, self.build != newBuild { self.build = newBuild }
      return false
    }
    endSession()
    previousVersion = tracked
    version = newVersion
    if let newBuild { self.build = newBuild }
    firstUse = now
    // The per-version stored counts and flags, as declared (ReviewSchema.declarations).
    for count in StoredFacts.counts where count.scope == .version { self[keyPath: count.path] = 0 }
    for flag in StoredFacts.flags where flag.scope == .version { self[keyPath: flag.path] = false }
    eventsByName = [:]
    lastReminder = nil
    return true
  }

  /// A new random install seed (never 0, so a drawn seed is told from a missing one in logs).
  static func newInstallSeed() -> Int64 {
    Int64.random(in: 1...Int64.max)
  }

  /// Brings the state to the device clock at `now` (docs/facts.md, "Clocks"); every tracked call does this first.
  ///
  /// - A jump back (``now`` before ``clockHighWater``) moves the start instants ``firstUse``,
  ///   ``installDate`` and ``firstSession`` earlier by the jump, so `days`, `total_days` and
  ///   `since(first_use)`, `since(install_date)`, `since(first_session)` keep the value they had
  ///   and then grow with real time: a day count never decreases. These are the instants that
  ///   count time *up* to a threshold (`days >= 30`); moving them earlier can only bring a prompt
  ///   forward to where it stood before the jump, never past it.
  /// - Every recorded instant still later than `now` (a prompt, reminder, decline, rating or bad
  ///   session stamped in the future) moves back to `now`: these count a wait *down* (`since(x) >=
  ///   8w`), so their waits run again from the moment the jump was seen; none is moved earlier,
  ///   which would shorten a wait and let prompts come in a burst.
  /// - The high-water mark becomes `now`: the later of itself and `now` while the clock moves
  ///   forward, `now` after a jump back (whose lag the start instants have absorbed).
  mutating func settleClock(at now: Timestamp) {
    if let highWater = clockHighWater, now < highWater {
      let (lag, overflow) = highWater.millisecondsSince1970.subtractingReportingOverflow(now.millisecondsSince1970)
      if !overflow {
        if firstSession == nil, let start = firstSessionStart { firstSession = start }
        firstUse = firstUse.map { ReviewState.moved($0, earlierBy: lag) }
        installDate = installDate.map { ReviewState.moved($0, earlierBy: lag) }
        firstSession = firstSession.map { ReviewState.moved($0, earlierBy: lag) }
      }
    }
    clockHighWater = now
    if let instant = lastReminder, instant > now { lastReminder = now }
    if let instant = lastDecline, instant > now { lastDecline = now }
    if let instant = lastRating, instant > now { lastRating = now }
    if let record = lastBadSession, record.start > now { lastBadSession?.start = now }
    if let last = promptHistory.last, last.date > now {
      for index in promptHistory.indices where promptHistory[index].date > now { promptHistory[index].date = now }
    }
  }

  /// `instant` moved `lag` milliseconds earlier (kept at the earliest instant rather than trapping).
  static func moved(_ instant: Timestamp, earlierBy lag: Int64) -> Timestamp {
    let (moved, overflow) = instant.millisecondsSince1970.subtractingReportingOverflow(lag)
    return Timestamp(millisecondsSince1970: overflow ? .min : moved)
  }

  /// How far the device clock at `now` is behind ``clockHighWater``, in milliseconds (0 when it is
  /// not): the shift ``settleClock(at:)`` would apply to the start instants. The facts apply it too,
  /// so a state read without being settled (``ReviewFactBinder``) gives the same day counts.
  func clockLag(at now: Timestamp) -> Int64 {
    guard let highWater = clockHighWater, now < highWater else { return 0 }
    let (lag, overflow) = highWater.millisecondsSince1970.subtractingReportingOverflow(now.millisecondsSince1970)
    return overflow ? 0 : lag
  }

  /// Forgets everything tracked, as a new install, keeping only what is not about the user:
  /// the stored policy update and which legacy managers were already imported.
  mutating func reset() {
    var fresh = ReviewState()
    fresh.policySource = policySource
    fresh.policyReceivedUnder = policyReceivedUnder
    fresh.importedLegacy = importedLegacy
    fresh.epoch = ReviewState.incremented(epoch)
    self = fresh
  }

  /// Counts one use (a launch or a return to the foreground).
  package mutating func countUse() {
    uses = ReviewState.incremented(uses)
    totalUses = ReviewState.incremented(totalUses)
  }

  /// Counts one significant event, by name when it has one.
  package mutating func countEvent(named name: String?) {
    events = ReviewState.incremented(events)
    totalEvents = ReviewState.incremented(totalEvents)
    guard let name, !name.isEmpty else { return }
    let key = ReviewState.eventKey(name)
    ReviewState.count(key, in: &eventsByName)
    ReviewState.count(key, in: &totalEventsByName)
  }

  /// Adds one to `key`'s count in `counts` (one hash when the name is known); a new name
  /// is counted only while there are fewer than ``ReviewLimits/eventNames``.
  private static func count(_ key: String, in counts: inout [String: Int]) {
    if let index = counts.index(forKey: key) {
      counts.values[index] = incremented(counts.values[index])
    } else if counts.count < ReviewLimits.eventNames {
      counts[key] = 1
    }
  }

  /// Starts a new session at `now`, ending the one in progress; the first one sets ``firstSession``.
  package mutating func startSession(at now: Timestamp) {
    endSession()
    totalSessions = ReviewState.incremented(totalSessions)
    sessions = ReviewState.incremented(sessions)
    if firstSession == nil { firstSession = now }
    currentSession = SessionRecord(number: totalSessions, start: now, version: version ?? "")
  }

  /// Starts the default session at `now`: what actions logged with no session in progress go
  /// into, as ReviewKit logs them into its default session. It is not counted (`sessions`,
  /// `total_sessions` and ``firstSession`` stay), starts with score 0, carries the number of the
  /// last session started and, once ended, joins the history like any session.
  mutating func startDefaultSession(at now: Timestamp) {
    endSession()
    currentSession = SessionRecord(number: max(totalSessions, 0), start: now, version: version ?? "")
  }

  /// Ends the session in progress, if any: it joins the history.
  package mutating func endSession() {
    guard let session = currentSession else { return }
    currentSession = nil
    recentSessions.append(session)
    if recentSessions.count > ReviewLimits.sessionHistory {
      recentSessions.removeFirst(recentSessions.count - ReviewLimits.sessionHistory)
    }
    if session.isBad { lastBadSession = session }
  }

  /// Adds an action's score to the current session (starting the uncounted default session if
  /// none is in progress, see ``startDefaultSession(at:)``), keeping the total within `bounds`;
  /// `isBad` marks the session bad for good.
  package mutating func addAction(score: Number, isBad: Bool, bounds: ClosedRange<Number>?, at now: Timestamp) {
    if currentSession == nil { startDefaultSession(at: now) }
    guard var session = currentSession else { return }
    var total = session.score.adding(score) ?? (score.scaled < 0 ? Number(scaled: .min) : Number(scaled: .max))
    if let bounds { total = min(max(total, bounds.lowerBound), bounds.upperBound) }
    session.score = total
    session.isBad = session.isBad || isBad
    currentSession = session
  }

  /// Records that a prompt was shown at `now`.
  package mutating func recordPrompt(at now: Timestamp, outcome: PromptOutcome) {
    promptHistory.append(PromptRecord(date: now, version: version ?? "", session: totalSessions, outcome: outcome))
    prompts = ReviewState.incremented(prompts)
    totalPrompts = ReviewState.incremented(totalPrompts)
    prunePrompts(at: now)
  }

  /// Records the user's answer: it updates the latest unanswered prompt and the answer's facts.
  ///
  /// An answer to a pending prompt belongs to the version the prompt was shown under: when a
  /// newer version has started since (an answer recorded right after an app update), only the
  /// facts about the whole install change (`rated_any`, `declined_any`, `last_rating`,
  /// `last_decline`) and the answer is recorded with the prompt's version; the new version's
  /// `rated`, `declined`, `feedback` and `last_reminder` stay as they are.
  ///
  /// With `outsidePrompt`, the answer was given in the app's own UI now (a "Rate this app" row):
  /// it counts for the version being tracked whatever prompt is pending, and still closes that
  /// prompt with its outcome.
  ///
  /// With `prompt`, the answer is to that prompt of ``promptHistory`` (a late answer to a prompt
  /// already closed without one), whatever its outcome so far.
  package mutating func record(
    _ response: ReviewResponse, at now: Timestamp, outsidePrompt: Bool = false, prompt: Int? = nil
  ) {
    var answerVersion = version ?? ""
    var isThisVersion = true
    let answered =
      prompt.flatMap { promptHistory.indices.contains($0) ? $0 : nil }
      ?? promptHistory.indices.last.flatMap { promptHistory[$0].outcome == .pending ? $0 : nil }
    if let answered {
      promptHistory[answered].outcome = ReviewState.outcome(for: response)
      isThisVersion = outsidePrompt || isShownInThisVersion(promptHistory[answered], answeredAt: now)
      if !isThisVersion { answerVersion = promptHistory[answered].version }
    }
    switch response {
    case .rated:
      if isThisVersion { rated = true }
      ratedAny = true
      lastRating = now
    case .declined:
      if isThisVersion { declined = true }
      declinedAny = true
      lastDecline = now
    case .remindLater:
      if isThisVersion { lastReminder = now }
    case .feedback:
      if isThisVersion { feedback = true }
      feedbackAny = true
    case .dismissed, .unknown:
      break
    }
    responses.append(ResponseRecord(response: response, date: now, version: answerVersion))
    if responses.count > ReviewLimits.responseHistory {
      responses.removeFirst(responses.count - ReviewLimits.responseHistory)
    }
  }

  /// When the first session started: ``firstSession`` or, for a state stored before it was (sessions
  /// but no first session), the start of session 1 if the state still holds it, else the install
  /// date (the earliest it can have been). Nil before the first session. Allocates nothing.
  var firstSessionStart: Timestamp? {
    if let firstSession { return firstSession }
    guard totalSessions > 0 else { return nil }
    // Session 1, or a default session after it (which carries its number): the earliest is session 1.
    var first = ReviewState.earlierStart(of: currentSession, than: nil)
    first = ReviewState.earlierStart(of: lastBadSession, than: first)
    for session in recentSessions { first = ReviewState.earlierStart(of: session, than: first) }
    return first ?? installDate ?? firstUse
  }

  /// The start of `session` if it is session 1 and starts before `start` (or `start` is nil), else `start`.
  private static func earlierStart(of session: SessionRecord?, than start: Timestamp?) -> Timestamp? {
    guard let session, session.number == 1 else { return start }
    guard let start else { return session.start }
    return min(start, session.start)
  }

  /// Whether `prompt` was shown under the version being tracked: with its version, and not before
  /// that version's first use (a new build that started a new version keeps the version string).
  func isShownInThisVersion(_ prompt: PromptRecord, answeredAt now: Timestamp) -> Bool {
    guard prompt.version == (version ?? "") else { return false }
    // A new build under the same version string: the prompt's date against the version's first
    // use decides, unless the clock is behind that first use (a clock set back), where dates
    // cannot tell and the answer counts for this version (the side that asks less).
    guard let firstUse, now >= firstUse else { return true }
    return prompt.date >= firstUse
  }

  /// Drops prompts older than the retention window, keeping the last one and at most the limit.
  mutating func prunePrompts(at now: Timestamp) {
    guard let last = promptHistory.last else { return }
    let cutoff = now.adding(TimeSpan(milliseconds: 0 - ReviewLimits.promptRetention.milliseconds))
    if let cutoff {
      promptHistory.removeAll { $0.date < cutoff && $0 != last }
    }
    if promptHistory.count > ReviewLimits.promptHistory {
      promptHistory.removeFirst(promptHistory.count - ReviewLimits.promptHistory)
    }
  }

  // MARK: - Helpers

  static func incremented(_ value: Int) -> Int {
    value == .max ? .max : max(value, 0) + 1
  }

  /// The name an event is counted under: `name` cut to ``ReviewLimits/eventNameLength`` bytes, as
  /// the tracker records it and as `events("name")` and `total_events("name")` read it.
  package static func eventKey(_ name: String) -> String {
    prefix(name, bytes: ReviewLimits.eventNameLength)
  }

  /// The longest prefix of `text`, in whole characters, of at most `bytes` UTF-8 bytes: the cut
  /// the schema's event families declare (``FactFamilyDefinition/keyLength``), so a policy's
  /// `events("name")` names the member the tracker counts.
  static func prefix(_ text: String, bytes: Int) -> String {
    FactFamilyDefinition.prefix(text, utf8Bytes: bytes)
  }

  static func outcome(for response: ReviewResponse) -> PromptOutcome {
    switch response {
    case .rated: .rated
    case .declined: .declined
    case .remindLater: .remindLater
    case .feedback: .feedback
    case .dismissed: .dismissed
    case .unknown: .unknown
    }
  }

  /// The state with every value brought within its bounds: negative counts become 0,
  /// histories are trimmed, version strings cut and oversized text dropped, so a stored state
  /// stays small whatever it held. Applied to everything loaded from a store.
  ///
  /// A state the manager wrote comes back unchanged: histories keep their stored order (the
  /// order they were recorded in, which their dates need not follow once the device clock
  /// went back), so a relaunch sees the same last prompt, last answer and sessions as the
  /// running manager, and its policy decides the same.
  package func sanitized() -> ReviewState {
    var state = self
    for count in StoredFacts.counts { state[keyPath: count.path] = max(state[keyPath: count.path], 0) }
    // Stored before `feedbackAny` existed: the feedback of this version or of an answer kept.
    if !state.feedbackAny {
      state.feedbackAny = state.feedback || state.responses.contains { $0.response == .feedback }
    }
    state.eventsByName = ReviewState.sanitized(state.eventsByName)
    state.totalEventsByName = ReviewState.sanitized(state.totalEventsByName)
    state.recentSessions = Array(state.recentSessions.suffix(ReviewLimits.sessionHistory))
    state.promptHistory = Array(state.promptHistory.suffix(ReviewLimits.promptHistory))
    state.responses = Array(state.responses.suffix(ReviewLimits.responseHistory))
    state.boundTexts()
    if let current = state.currentSession, current.number > state.totalSessions {
      state.totalSessions = current.number
    }
    // Session numbers recorded in prompts and sessions lie between 0 and the total.
    let total = state.totalSessions
    for index in state.promptHistory.indices {
      state.promptHistory[index].session = min(max(state.promptHistory[index].session, 0), total)
    }
    if var bad = state.lastBadSession {
      bad.number = min(max(bad.number, 0), total)
      state.lastBadSession = bad
    }
    // A missing install date is the first use. One after the first use stays: the manager records
    // that when a new version starts after the clock went back, and the facts allow for it.
    if state.installDate == nil, let firstUse = state.firstUse {
      state.installDate = firstUse
    }
    return state
  }

  /// Cuts every version string to ``ReviewLimits/versionLength``, drops a policy update over
  /// ``ReviewLimits/updateSize`` (the stores report it: ``oversizedUpdateSize``), and keeps at most ``ReviewLimits/legacyImports`` distinct, short legacy names.
  private mutating func boundTexts() {
    func cut(_ text: String) -> String { ReviewState.prefix(text, bytes: ReviewLimits.versionLength) }
    version = version.map(cut)
    build = build.map(cut)
    previousVersion = previousVersion.map(cut)
    if let session = currentSession { currentSession?.version = cut(session.version) }
    if let session = lastBadSession { lastBadSession?.version = cut(session.version) }
    for index in recentSessions.indices { recentSessions[index].version = cut(recentSessions[index].version) }
    for index in promptHistory.indices { promptHistory[index].version = cut(promptHistory[index].version) }
    for index in responses.indices { responses[index].version = cut(responses[index].version) }
    if oversizedUpdateSize != nil {
      policySource = nil
      policyReceivedUnder = nil
    }
    if let base = policyReceivedUnder, base.utf8.count > ReviewLimits.versionLength { policyReceivedUnder = nil }
    var legacy: [String] = []
    for name in importedLegacy where legacy.count < ReviewLimits.legacyImports {
      if name.utf8.count <= ReviewLimits.legacyNameLength && !legacy.contains(name) { legacy.append(name) }
    }
    importedLegacy = legacy
  }

  /// The size in bytes of the stored policy update when it is over ``ReviewLimits/updateSize``
  /// (sanitizing drops it, and a store that finds one reports it); nil when it is within the limit
  /// or there is none.
  var oversizedUpdateSize: Int? {
    guard let size = policySource?.utf8.count, size > ReviewLimits.updateSize else { return nil }
    return size
  }

  private static func sanitized(_ counts: [String: Int]) -> [String: Int] {
    var result: [String: Int] = [:]
    for (name, count) in counts.stablySorted(by: { $0.key < $1.key }) where result.count < ReviewLimits.eventNames {
      result[eventKey(name)] = max(count, 0)
    }
    return result
  }
}
