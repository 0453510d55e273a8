import PolicyCore

/// Combining two copies of one install's state, losing nothing either holds: how a manager
/// recovers when its state file was deleted, truncated or replaced by an older copy while it held
/// the state in memory.
extension ReviewState {
  /// This state combined with `other`, another copy of the same install's state.
  ///
  /// A reset wins: when the ``epoch``s differ, the state of the higher epoch is the result as it
  /// is (the other copy is from before the reset). Of equal epochs, nothing is lost: counts take
  /// the higher value (the per-version ones only when both track the same version; counts by name
  /// key by key), flags either side's, first instants the earlier, last instants the later,
  /// sessions, prompts and answers the union of both (a prompt answered on one side is answered),
  /// bounded as loading bounds them. The receiver is the newer side: its version, seed and policy
  /// update are kept (the other's fill in what it lacks). Pure; counts are commutative, and a
  /// state merged with itself is itself.
  public func merged(with other: ReviewState) -> ReviewState {
    guard epoch == other.epoch else { return epoch > other.epoch ? self : other }
    var state = self
    state.format = max(format, other.format)
    // The stored counts and flags, as declared (ReviewSchema.declarations): a count takes the
    // higher value, a flag either side's; per-version ones only when both track the same version.
    for count in StoredFacts.counts where count.scope != .version || version == other.version {
      state[keyPath: count.path] = max(self[keyPath: count.path], other[keyPath: count.path])
    }
    for flag in StoredFacts.flags where flag.scope != .version || version == other.version {
      state[keyPath: flag.path] = self[keyPath: flag.path] || other[keyPath: flag.path]
    }
    if version == other.version {
      state.build = build ?? other.build
      state.firstUse = ReviewState.earlier(firstUse, other.firstUse)
      state.eventsByName = ReviewState.maxima(eventsByName, other.eventsByName)
      state.lastReminder = ReviewState.later(lastReminder, other.lastReminder)
    }
    state.installDate = ReviewState.earlier(installDate, other.installDate)
    state.firstSession = ReviewState.earlier(firstSession, other.firstSession)
    // The latest clock either side saw: with the earlier start instants, day counts never decrease.
    state.clockHighWater = ReviewState.later(clockHighWater, other.clockHighWater)
    state.installSeed = installSeed ?? other.installSeed
    state.previousVersion = previousVersion ?? other.previousVersion
    state.recordInstall = recordInstall ?? other.recordInstall
    state.totalEventsByName = ReviewState.maxima(totalEventsByName, other.totalEventsByName)
    state.lastDecline = ReviewState.later(lastDecline, other.lastDecline)
    state.lastRating = ReviewState.later(lastRating, other.lastRating)
    if let theirs = other.currentSession, currentSession.map({ ReviewState.isLater(theirs, than: $0) }) ?? true {
      state.currentSession = theirs
    }
    state.recentSessions = ReviewState.union(recentSessions, other.recentSessions) {
      SessionKey(number: $0.number, start: $0.start)
    }
    if state.recentSessions.count > recentSessions.count {
      state.recentSessions = state.recentSessions.stablySorted { ReviewState.isLater($1, than: $0) }
    }
    if let theirs = other.lastBadSession, lastBadSession.map({ ReviewState.isLater(theirs, than: $0) }) ?? true {
      state.lastBadSession = theirs
    }
    state.promptHistory = ReviewState.prompts(promptHistory, other.promptHistory)
    state.responses = ReviewState.union(responses, other.responses) { $0 }
    if state.responses.count > responses.count {
      // Oldest first; answers of one instant in a fixed order, so the bound keeps the same ones either way.
      state.responses = state.responses.stablySorted {
        ($0.date, $0.response.rawValue, $0.version) < ($1.date, $1.response.rawValue, $1.version)
      }
    }
    if policySource == nil && policyReceivedUnder == nil {
      state.policySource = other.policySource
      state.policyReceivedUnder = other.policyReceivedUnder
    }
    state.importedLegacy = ReviewState.union(importedLegacy, other.importedLegacy) { $0 }
    return state.sanitized()
  }

  /// Whether this stored state is older than `memory`: of a lower ``epoch`` (from before a reset),
  /// or of the same epoch with something `memory` holds lost: a lifetime count (in all or by name)
  /// lower, fewer answers, or a "no thanks" or rating forgotten. Counts only grow between resets, so
  /// such a state is an older copy (a restored backup, a writer that ignored the lock), never a
  /// newer one. A state of a higher epoch is newer (a reset made elsewhere).
  func isBehind(_ memory: ReviewState) -> Bool {
    guard epoch == memory.epoch else { return epoch < memory.epoch }
    // The lifetime counts and flags, as declared (ReviewSchema.declarations).
    for count in StoredFacts.counts
    where count.scope == .install && self[keyPath: count.path] < memory[keyPath: count.path] {
      return true
    }
    for flag in StoredFacts.flags
    where flag.scope == .install && memory[keyPath: flag.path] && !self[keyPath: flag.path] {
      return true
    }
    if responses.count < memory.responses.count { return true }
    return memory.totalEventsByName.contains { name, count in (totalEventsByName[name] ?? 0) < count }
  }

  /// How many lifetime counts `merged` holds beyond this state (uses, events, sessions and
  /// prompts): what a merge restored, for the log.
  func restoredCount(in merged: ReviewState) -> Int {
    var restored = 0
    for count in StoredFacts.counts where count.scope == .install {
      let path = count.path
      let gained = max(merged[keyPath: path], 0) - max(self[keyPath: path], 0)
      let (sum, overflow) = restored.addingReportingOverflow(max(gained, 0))
      restored = overflow ? .max : sum
    }
    return restored
  }

  // MARK: - Helpers

  private static func earlier(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
    guard let a, let b else { return a ?? b }
    return min(a, b)
  }

  private static func later(_ a: Timestamp?, _ b: Timestamp?) -> Timestamp? {
    guard let a, let b else { return a ?? b }
    return max(a, b)
  }

  /// A session's identity: its number and when it started (a default session shares the number
  /// of the last session started).
  private struct SessionKey: Hashable {
    var number: Int
    var start: Timestamp
  }

  /// Whether `a` is a later session than `b`: a higher number, or the same number started later.
  private static func isLater(_ a: SessionRecord, than b: SessionRecord) -> Bool {
    (a.number, a.start.millisecondsSince1970) > (b.number, b.start.millisecondsSince1970)
  }

  /// Key-wise maxima of two counts by name.
  private static func maxima(_ a: [String: Int], _ b: [String: Int]) -> [String: Int] {
    a.merging(b) { max($0, $1) }
  }

  /// `a`, then the elements of `b` whose key is not in `a`, in their order.
  private static func union<T, Key: Hashable>(_ a: [T], _ b: [T], key: (T) -> Key) -> [T] {
    var seen = Set(a.map(key))
    var result = a
    for element in b where seen.insert(key(element)).inserted { result.append(element) }
    return result
  }

  /// The prompts of both, one per instant, version and session, oldest first: a prompt still
  /// pending on one side takes the outcome the other side recorded.
  /// How much an outcome says: pending, then closed without an answer, then the user's answer.
  private static func rank(_ outcome: PromptOutcome) -> Int {
    switch outcome {
    case .pending: 0
    case .unknown, .dismissed: 1
    case .rated, .declined, .remindLater, .feedback: 2
    }
  }

  private static func prompts(_ a: [PromptRecord], _ b: [PromptRecord]) -> [PromptRecord] {
    struct Key: Hashable {
      var date: Int64
      var version: String
      var session: Int
    }
    func key(_ record: PromptRecord) -> Key {
      Key(date: record.date.millisecondsSince1970, version: record.version, session: record.session)
    }
    var index: [Key: Int] = [:]
    for (position, record) in a.enumerated() where index[key(record)] == nil { index[key(record)] = position }
    var result = a
    var added = false
    for record in b {
      if let position = index[key(record)] {
        // The outcome that says most wins: an answer over a close without one over pending (a
        // late answer replaces "outcome unknown").
        if ReviewState.rank(record.outcome) > ReviewState.rank(result[position].outcome) {
          result[position].outcome = record.outcome
        }
      } else {
        index[key(record)] = result.count
        result.append(record)
        added = true
      }
    }
    if added { result = result.stablySorted { ($0.date, $0.version, $0.session) < ($1.date, $1.version, $1.session) } }
    return result
  }
}
