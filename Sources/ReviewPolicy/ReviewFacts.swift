import PolicyCore

/// Parses app version strings as apps report them.
public enum AppVersion {
  /// The version in `text`: a strict parse first (`2.1`, `v1.2.3`), then the leading
  /// numeric part of strings such as `1.2.3-beta` or `2.0 (45)`. Nil when there is no number at the start.
  public static func parse(_ text: String) -> Version? {
    if let version = Version(parsing: text) { return version }
    var prefix = Substring(text.drop { $0 == " " || $0 == "v" || $0 == "V" })
    prefix = prefix.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    while prefix.hasSuffix(".") { prefix = prefix.dropLast() }
    let parts = prefix.split(separator: ".", omittingEmptySubsequences: false)
    guard !prefix.isEmpty else { return nil }
    return Version(parsing: parts.prefix(Version.maximumParts).joined(separator: "."))
  }
}

/// Fills a policy's ``Facts`` from a ``ReviewState``: the standard review facts.
///
/// The slot of each standard fact is looked up once per compiled policy; filling a
/// snapshot then sets slots directly.
struct ReviewFactBinder: Sendable {
  private var slots: [String: Int] = [:]
  private var families: [(slot: Int, family: String, key: Value)] = []

  init(policy: CompiledPolicy) {
    for fact in ReviewSchema.facts {
      if let slot = policy.layout.slot(named: fact.name) { slots[fact.name] = slot }
    }
    for (index, slot) in policy.layout.slots.enumerated() {
      if case .family(let family, let key) = slot.origin { families.append((index, family, key)) }
    }
  }

  /// Why a snapshot could not be filled.
  enum Problem: Error, Sendable, Hashable {
    /// The app version does not start with a number.
    case unparsableVersion(String)
  }

  /// The snapshot for `state` at `now` for the app running `version`.
  func facts(
    for policy: CompiledPolicy, state: ReviewState, now: Timestamp, appFacts: [String: Value]
  ) -> Result<Facts, Problem> {
    var facts = policy.makeFacts(now: now)
    let versionText = state.version ?? ""
    guard let version = AppVersion.parse(versionText) else { return .failure(.unparsableVersion(versionText)) }
    let firstUse = state.firstUse ?? now
    let installDate = state.installDate ?? firstUse
    set(&facts, "days", .int(ReviewFactBinder.wholeDays(from: firstUse, to: now)))
    set(&facts, "uses", .int(Int64(clamping: state.uses)))
    set(&facts, "events", .int(Int64(clamping: state.events)))
    set(&facts, "sessions", .int(Int64(clamping: state.sessions)))
    set(&facts, "declined", .bool(state.declined))
    set(&facts, "rated", .bool(state.rated))
    set(&facts, "feedback", .bool(state.feedback))
    set(&facts, "prompts", .int(Int64(clamping: state.prompts)))
    set(&facts, "first_use", .instant(firstUse))
    set(&facts, "version", .version(version))
    set(&facts, "last_reminder", state.lastReminder.map(Value.instant))
    set(&facts, "total_days", .int(ReviewFactBinder.wholeDays(from: installDate, to: now)))
    set(&facts, "total_uses", .int(Int64(clamping: state.totalUses)))
    set(&facts, "total_events", .int(Int64(clamping: state.totalEvents)))
    set(&facts, "total_sessions", .int(Int64(clamping: state.totalSessions)))
    set(&facts, "total_prompts", .int(Int64(clamping: state.totalPrompts)))
    set(&facts, "declined_any", .bool(state.declinedAny))
    set(&facts, "rated_any", .bool(state.ratedAny))
    set(&facts, "install_date", .instant(installDate))
    set(&facts, "previous_version", state.previousVersion.flatMap(AppVersion.parse).map(Value.version))
    let lastPrompt = state.lastPrompt
    set(&facts, "last_prompt", lastPrompt.map { .instant($0.date) })
    set(&facts, "last_prompt_version", lastPrompt.flatMap { AppVersion.parse($0.version) }.map(Value.version))
    set(
      &facts, "sessions_since_prompt",
      lastPrompt.map { .int(ReviewFactBinder.sessions(since: $0.session, total: state.totalSessions)) })
    set(&facts, "last_decline", state.lastDecline.map(Value.instant))
    set(&facts, "last_rating", state.lastRating.map(Value.instant))
    set(&facts, "session_score", .number(state.currentSession?.score ?? Number(scaled: 0)))
    set(&facts, "session_bad", .bool(state.currentSession?.isBad ?? false))
    set(&facts, "last_bad_session", state.lastBadSession.map { .instant($0.start) })
    set(
      &facts, "sessions_since_bad",
      state.lastBadSession.map { .int(ReviewFactBinder.sessions(since: $0.number, total: state.totalSessions)) })
    for (slot, family, key) in families {
      let value = ReviewFactBinder.member(family, key: key, state: state, now: now)
      if let value {
        try? facts.set(slot: slot, to: value)
      } else if policy.layout.slots[slot].isOptional {
        try? facts.setAbsent(policy.layout.slots[slot].name)
      }
    }
    for (name, value) in appFacts where slots[name] == nil {
      try? facts.set(name, to: value)
    }
    return .success(facts)
  }

  private func set(_ facts: inout Facts, _ name: String, _ value: Value?) {
    guard let slot = slots[name] else { return }
    if let value {
      try? facts.set(slot: slot, to: value)
    } else {
      try? facts.setAbsent(name)
    }
  }

  /// Sessions started after session `number`, when `total` have started: never negative, never trapping.
  static func sessions(since number: Int, total: Int) -> Int64 {
    let (difference, overflow) = total.subtractingReportingOverflow(number)
    if overflow { return number < 0 ? .max : 0 }
    return Int64(clamping: max(0, difference))
  }

  /// Whole days from `start` to `end`, rounded down; 0 when the clock went backwards.
  static func wholeDays(from start: Timestamp, to end: Timestamp) -> Int64 {
    let (elapsed, overflow) = end.millisecondsSince1970.subtractingReportingOverflow(start.millisecondsSince1970)
    guard !overflow, elapsed > 0 else { return overflow && end > start ? .max / 86_400_000 : 0 }
    return elapsed / 86_400_000
  }

  /// The value of a keyed fact, nil when absent.
  static func member(_ family: String, key: Value, state: ReviewState, now: Timestamp) -> Value? {
    switch (family, key) {
    case ("events", .string(let name)):
      return .int(Int64(clamping: state.eventsByName[ReviewState.eventKey(name)] ?? 0))
    case ("total_events", .string(let name)):
      return .int(Int64(clamping: state.totalEventsByName[ReviewState.eventKey(name)] ?? 0))
    case ("average_score", .int(let count)):
      let sessions = state.recentSessions.suffix(Int(clamping: max(count, 0)))
      guard !sessions.isEmpty else { return nil }
      var total = Number(scaled: 0)
      for session in sessions {
        guard let sum = total.adding(session.score) else { return nil }
        total = sum
      }
      return Number(exactly: Int64(sessions.count)).flatMap { total.divided(by: $0) }.map(Value.number)
    case ("prompts_within", .duration(let window)):
      // Prompts at instants after `now - window` (prompts recorded in the future count too).
      guard let start = now.adding(TimeSpan(milliseconds: 0 - window.milliseconds)) else {
        return .int(Int64(state.promptHistory.count))
      }
      return .int(Int64(state.promptHistory.filter { $0.date > start }.count))
    default:
      return nil
    }
  }
}
