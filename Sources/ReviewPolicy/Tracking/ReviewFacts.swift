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
  private let families: [(slot: Int, member: FamilyMember, isOptional: Bool)]
  /// The keyed facts the policy reads.
  private let readFamilies: [(slot: Int, member: FamilyMember, isOptional: Bool)]
  /// The app version the binder was made for, parsed once.
  private var appVersion: (text: String, version: Version?)

  init(policy: CompiledPolicy, appVersion: String = "") {
    template = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
    let reads = Set(policy.readSlots)
    var standard: [(fact: StandardFact, slot: Int)] = []
    for fact in StandardFact.allCases {
      if let slot = policy.layout.slot(named: fact.rawValue) { standard.append((fact, slot)) }
    }
    var families: [(slot: Int, member: FamilyMember, isOptional: Bool)] = []
    for (index, slot) in policy.layout.slots.enumerated() {
      if case .family(let family, let key) = slot.origin {
        families.append((index, FamilyMember(family: family, key: key), slot.isOptional))
      }
    }
    self.standard = standard
    self.read = standard.filter { reads.contains($0.slot) }
    self.families = families
    self.readFamilies = families.filter { reads.contains($0.slot) }
    self.appVersion = (appVersion, AppVersion.parse(appVersion))
  }

  /// This binder for another app version (everything else is shared, not recomputed).
  func with(appVersion text: String) -> ReviewFactBinder {
    var binder = self
    binder.appVersion = (text, AppVersion.parse(text))
    return binder
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
  ///
  /// - Parameters:
  ///   - prepared: The starting snapshot: ``prepared(appFacts:)`` of the app facts.
  ///   - versions: Versions of the state already parsed (a stale entry is only a cache miss).
  func facts(
    from prepared: Facts, state: ReviewState, now: Timestamp, complete: Bool = true,
    versions: ParsedVersions = ParsedVersions()
  ) -> Result<Facts, Problem> {
    let versionText = state.version ?? ""
    guard let version = parse(versionText, versions) else { return .failure(.unparsableVersion(versionText)) }
    var facts = prepared
    facts.now = now
    facts.seed = UInt64(bitPattern: state.installSeed ?? 0)
    for (fact, slot) in complete ? standard : read {
      if let value = value(of: fact, state: state, now: now, version: version, versions: versions) {
        try? facts.set(slot: slot, to: value)
      } else {
        try? facts.setAbsent(slot: slot)
      }
    }
    for (slot, member, isOptional) in complete ? families : readFamilies {
      if let value = member.value(state: state, now: now) {
        try? facts.set(slot: slot, to: value)
      } else if isOptional {
        try? facts.setAbsent(slot: slot)
      }
    }
    return .success(facts)
  }

  /// The defaults with the app facts in `values` set: the starting point of ``facts(from:state:now:complete:)``,
  /// made once per change of app facts so that a decision hashes no names.
  ///
  /// Standard names, names the policy does not declare and values of the wrong type are skipped.
  func prepared(appFacts values: [String: Value]) -> Facts {
    var facts = template
    for (name, value) in values where StandardFact(rawValue: name) == nil {
      if let slot = template.layout.slot(named: name) { try? facts.set(slot: slot, to: value) }
    }
    return facts
  }

  /// `text` as a version, from the app version or `versions` when it is one of them.
  private func parse(_ text: String, _ versions: ParsedVersions) -> Version? {
    text == appVersion.text ? appVersion.version : (versions.version(of: text) ?? AppVersion.parse(text))
  }

  /// The value of standard fact `fact`, or nil when it is absent.
  private func value(
    of fact: StandardFact, state: ReviewState, now: Timestamp, version: Version, versions: ParsedVersions
  ) -> Value? {
    // A recorded instant later than `now` (the clock went back) counts as `now`, and the start
    // instants are moved earlier by a jump back not yet settled: see Grammar.md, "Clocks".
    switch fact {
    case .days: return .int(ReviewFactBinder.wholeDays(from: start(state.firstUse, state, now) ?? now, to: now))
    case .uses: return .int(Int64(clamping: state.uses))
    case .events: return .int(Int64(clamping: state.events))
    case .sessions: return .int(Int64(clamping: state.sessions))
    case .declined: return .bool(state.declined)
    case .rated: return .bool(state.rated)
    case .feedback: return .bool(state.feedback)
    case .prompts: return .int(Int64(clamping: state.prompts))
    case .firstUse: return .instant(min(start(state.firstUse, state, now) ?? now, now))
    case .version: return .version(version)
    case .lastReminder: return state.lastReminder.map { .instant(min($0, now)) }
    case .totalDays:
      let install = start(state.installDate ?? state.firstUse, state, now)
      return .int(ReviewFactBinder.wholeDays(from: install ?? now, to: now))
    case .totalUses: return .int(Int64(clamping: state.totalUses))
    case .totalEvents: return .int(Int64(clamping: state.totalEvents))
    case .totalSessions: return .int(Int64(clamping: state.totalSessions))
    case .totalPrompts: return .int(Int64(clamping: state.totalPrompts))
    case .declinedAny: return .bool(state.declinedAny)
    case .ratedAny: return .bool(state.ratedAny)
    case .installDate: return .instant(min(start(state.installDate ?? state.firstUse, state, now) ?? now, now))
    case .firstSession: return start(state.firstSessionStart, state, now).map { .instant(min($0, now)) }
    case .previousVersion: return state.previousVersion.flatMap { parse($0, versions) }.map(Value.version)
    case .lastPrompt: return state.lastPrompt.map { .instant(min($0.date, now)) }
    case .lastPromptVersion: return state.lastPrompt.flatMap { parse($0.version, versions) }.map(Value.version)
    case .sessionsSincePrompt:
      return state.lastPrompt.map { .int(ReviewFactBinder.sessions(since: $0.session, total: state.totalSessions)) }
    case .lastDecline: return state.lastDecline.map { .instant(min($0, now)) }
    case .lastRating: return state.lastRating.map { .instant(min($0, now)) }
    case .sessionScore: return .number(state.currentSession?.score ?? Number(scaled: 0))
    case .sessionBad: return .bool(state.currentSession?.isBad ?? false)
    case .lastBadSession: return state.lastBadSession.map { .instant(min($0.start, now)) }
    case .sessionsSinceBad:
      return state.lastBadSession.map { .int(ReviewFactBinder.sessions(since: $0.number, total: state.totalSessions)) }
    }
  }

  /// The start instant `instant` of `state` as settled at `now`: moved earlier by the clock's lag
  /// behind the state's high-water mark (``ReviewState/settleClock(at:)`` stores the same move).
  private func start(_ instant: Timestamp?, _ state: ReviewState, _ now: Timestamp) -> Timestamp? {
    guard let instant else { return nil }
    let lag = state.clockLag(at: now)
    return lag == 0 ? instant : ReviewState.moved(instant, earlierBy: lag)
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
}

/// The previous version and the last prompt's version of a state, parsed (an app version
/// string takes a thousand instructions to parse; these change a few times a year).
struct ParsedVersions: Sendable {
  /// The state's previous version and its parse.
  private var previous: (text: String, version: Version?)?
  /// The version of the state's last prompt and its parse.
  private var lastPrompt: (text: String, version: Version?)?

  /// No versions parsed.
  init() {}

  /// Parses the versions of `state` that differ from the ones held.
  mutating func update(for state: ReviewState) {
    if let text = state.previousVersion, previous?.text != text { previous = (text, AppVersion.parse(text)) }
    if let text = state.lastPrompt?.version, lastPrompt?.text != text { lastPrompt = (text, AppVersion.parse(text)) }
  }

  /// The parse of `text` if it is held: `.some(nil)` for a held text that does not parse, nil if not held.
  func version(of text: String) -> Version?? {
    if let previous, previous.text == text { return .some(previous.version) }
    if let lastPrompt, lastPrompt.text == text { return .some(lastPrompt.version) }
    return nil
  }
}

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
  case firstSession = "first_session"
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
