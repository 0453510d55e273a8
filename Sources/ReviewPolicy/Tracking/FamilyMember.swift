import PolicyCore

/// A keyed fact a policy names, with its key prepared once (event names are cut to their
/// stored length when the binder is made, not at every decision).
enum FamilyMember: Sendable {
  /// `events(name)`: the key as stored.
  case events(String)
  /// `total_events(name)`: the key as stored.
  case totalEvents(String)
  /// `average_score(count)`.
  case averageScore(Int64)
  /// `prompts_within(window)`.
  case promptsWithin(TimeSpan)
  /// A family or key type the binder does not know: always absent.
  case unknown

  /// The member of `family` at `key`.
  init(family: String, key: Value) {
    switch (StandardFamily(rawValue: family), key) {
    case (.events, .string(let name)): self = .events(ReviewState.eventKey(name))
    case (.totalEvents, .string(let name)): self = .totalEvents(ReviewState.eventKey(name))
    case (.averageScore, .int(let count)): self = .averageScore(count)
    case (.promptsWithin, .duration(let window)): self = .promptsWithin(window)
    default: self = .unknown
    }
  }

  /// The value in `state` at `now`, nil when absent.
  func value(state: ReviewState, now: Timestamp) -> Value? {
    switch self {
    case .events(let key):
      return .int(Int64(clamping: state.eventsByName[key] ?? 0))
    case .totalEvents(let key):
      return .int(Int64(clamping: state.totalEventsByName[key] ?? 0))
    case .averageScore(let count):
      let sessions = state.recentSessions.suffix(Int(clamping: max(count, 0)))
      guard !sessions.isEmpty else { return nil }
      var total = Number(scaled: 0)
      for session in sessions {
        guard let sum = total.adding(session.score) else { return nil }
        total = sum
      }
      return Number(exactly: Int64(sessions.count)).flatMap { total.divided(by: $0) }.map(Value.number)
    case .promptsWithin(let window):
      // Prompts at instants after `now - window` (prompts recorded in the future count too).
      guard let start = now.adding(TimeSpan(milliseconds: 0 - window.milliseconds)) else {
        return .int(Int64(state.promptHistory.count))
      }
      var count: Int64 = 0
      for prompt in state.promptHistory where prompt.date > start { count += 1 }
      return .int(count)
    case .unknown:
      return nil
    }
  }
}

/// The keyed review fact families, by their names in policies.
enum StandardFamily: String, CaseIterable, Sendable {
  case events
  case totalEvents = "total_events"
  case averageScore = "average_score"
  case promptsWithin = "prompts_within"
}
