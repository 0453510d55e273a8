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
/// Everything that depends only on the policy is prepared once: the slot of each standard
/// fact, a snapshot holding every default (copying it is one reference count), and the
/// parsed app version. Filling a snapshot then computes each fact from the state and sets
/// its slot; for a decision, only the facts the policy reads are computed.
struct ReviewFactBinder: Sendable {
  /// A snapshot of the policy's defaults, the starting point of every fill.
  private let template: Facts
  /// Every standard fact with its slot.
  private let standard: [(fact: StandardFact, slot: Int)]
  /// The standard facts the policy's rules and `let`s read, with their slots.
  private let read: [(fact: StandardFact, slot: Int)]
  /// Every keyed fact the policy names, with its slot.
  private let families: [(slot: Int, family: String, key: Value, isOptional: Bool)]
  /// The keyed facts the policy reads.
  private let readFamilies: [(slot: Int, family: String, key: Value, isOptional: Bool)]
  /// The app version the binder was made for, parsed once.
  private let appVersion: (text: String, version: Version?)

  init(policy: CompiledPolicy, appVersion: String = "") {
    template = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
    let reads = Set(policy.readSlots)
    var standard: [(fact: StandardFact, slot: Int)] = []
    for fact in StandardFact.allCases {
      if let slot = policy.layout.slot(named: fact.rawValue) { standard.append((fact, slot)) }
    }
    var families: [(slot: Int, family: String, key: Value, isOptional: Bool)] = []
    for (index, slot) in policy.layout.slots.enumerated() {
      if case .family(let family, let key) = slot.origin { families.append((index, family, key, slot.isOptional)) }
    }
    self.standard = standard
    self.read = standard.filter { reads.contains($0.slot) }
    self.families = families
    self.readFamilies = families.filter { reads.contains($0.slot) }
    self.appVersion = (appVersion, AppVersion.parse(appVersion))
  }

  /// Why a snapshot could not be filled.
  enum Problem: Error, Sendable, Hashable {
    /// The app version does not start with a number.
    case unparsableVersion(String)
  }

  /// The snapshot for `state` at `now`.
  ///
  /// With `complete` false only the facts the policy reads are set (enough to decide); with
  /// `complete` true every standard fact is (for explanations and inspection).
  func facts(
    for policy: CompiledPolicy, state: ReviewState, now: Timestamp, appFacts: [String: Value], complete: Bool = true
  ) -> Result<Facts, Problem> {
    let versionText = state.version ?? ""
    guard let version = parse(versionText) else { return .failure(.unparsableVersion(versionText)) }
    var facts = template
    facts.now = now
    for (fact, slot) in complete ? standard : read {
      if let value = value(of: fact, state: state, now: now, version: version) {
        try? facts.set(slot: slot, to: value)
      } else {
        try? facts.setAbsent(slot: slot)
      }
    }
    for (slot, family, key, isOptional) in complete ? families : readFamilies {
      if let value = ReviewFactBinder.member(family, key: key, state: state, now: now) {
        try? facts.set(slot: slot, to: value)
      } else if isOptional {
        try? facts.setAbsent(slot: slot)
      }
    }
    for (name, value) in appFacts where StandardFact(rawValue: name) == nil {
      try? facts.set(name, to: value)
    }
    return .success(facts)
  }

  /// `text` as a version, from the binder's cache when it is the app version.
  private func parse(_ text: String) -> Version? {
    text == appVersion.text ? appVersion.version : AppVersion.parse(text)
  }

  /// The value of standard fact `fact`, or nil when it is absent.
  private func value(of fact: StandardFact, state: ReviewState, now: Timestamp, version: Version) -> Value? {
    switch fact {
    case .days: return .int(ReviewFactBinder.wholeDays(from: state.firstUse ?? now, to: now))
    case .uses: return .int(Int64(clamping: state.uses))
    case .events: return .int(Int64(clamping: state.events))
    case .sessions: return .int(Int64(clamping: state.sessions))
    case .declined: return .bool(state.declined)
    case .rated: return .bool(state.rated)
    case .feedback: return .bool(state.feedback)
    case .prompts: return .int(Int64(clamping: state.prompts))
    case .firstUse: return .instant(state.firstUse ?? now)
    case .version: return .version(version)
    case .lastReminder: return state.lastReminder.map(Value.instant)
    case .totalDays:
      return .int(ReviewFactBinder.wholeDays(from: state.installDate ?? state.firstUse ?? now, to: now))
    case .totalUses: return .int(Int64(clamping: state.totalUses))
    case .totalEvents: return .int(Int64(clamping: state.totalEvents))
    case .totalSessions: return .int(Int64(clamping: state.totalSessions))
    case .totalPrompts: return .int(Int64(clamping: state.totalPrompts))
    case .declinedAny: return .bool(state.declinedAny)
    case .ratedAny: return .bool(state.ratedAny)
    case .installDate: return .instant(state.installDate ?? state.firstUse ?? now)
    case .previousVersion: return state.previousVersion.flatMap(parse).map(Value.version)
    case .lastPrompt: return state.lastPrompt.map { .instant($0.date) }
    case .lastPromptVersion: return state.lastPrompt.flatMap { parse($0.version) }.map(Value.version)
    case .sessionsSincePrompt:
      return state.lastPrompt.map { .int(ReviewFactBinder.sessions(since: $0.session, total: state.totalSessions)) }
    case .lastDecline: return state.lastDecline.map(Value.instant)
    case .lastRating: return state.lastRating.map(Value.instant)
    case .sessionScore: return .number(state.currentSession?.score ?? Number(scaled: 0))
    case .sessionBad: return .bool(state.currentSession?.isBad ?? false)
    case .lastBadSession: return state.lastBadSession.map { .instant($0.start) }
    case .sessionsSinceBad:
      return state.lastBadSession.map { .int(ReviewFactBinder.sessions(since: $0.number, total: state.totalSessions)) }
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

/// The standard review facts that are not keyed, by their names in policies.
enum StandardFact: String, CaseIterable, Sendable {
  case days, uses, events, sessions, declined, rated, feedback, prompts
  case firstUse = "first_use"
  case version
  case lastReminder = "last_reminder"
  case totalDays = "total_days"
  case totalUses = "total_uses"
  case totalEvents = "total_events"
  case totalSessions = "total_sessions"
  case totalPrompts = "total_prompts"
  case declinedAny = "declined_any"
  case ratedAny = "rated_any"
  case installDate = "install_date"
  case previousVersion = "previous_version"
  case lastPrompt = "last_prompt"
  case lastPromptVersion = "last_prompt_version"
  case sessionsSincePrompt = "sessions_since_prompt"
  case lastDecline = "last_decline"
  case lastRating = "last_rating"
  case sessionScore = "session_score"
  case sessionBad = "session_bad"
  case lastBadSession = "last_bad_session"
  case sessionsSinceBad = "sessions_since_bad"
}
