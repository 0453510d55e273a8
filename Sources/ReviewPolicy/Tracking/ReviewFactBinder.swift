import PolicyCore

/// Fills a policy's ``Facts`` from a ``ReviewState``: the standard review facts.
///
/// Everything that depends only on the policy is prepared once: the slot of each standard
/// fact, a snapshot holding every default (copying it is one reference count), and the
/// parsed app version. Filling a snapshot then computes each fact from the state and sets
/// its slot; for a decision, only the facts the policy reads are computed.
struct ReviewFactBinder: Sendable {
  /// A snapshot of the policy's defaults, the starting point of every fill.
  private let template: Facts
  /// Every standard fact the policy's layout has, with where its value comes from and its slot.
  private let standard: [(source: ReviewFactDeclaration.Source, slot: Int)]
  /// The standard facts the policy's rules and `let`s read, with their sources and slots.
  private let read: [(source: ReviewFactDeclaration.Source, slot: Int)]
  /// Every keyed fact the policy names, with its slot.
  private let families: [(slot: Int, member: FamilyMember, isOptional: Bool)]
  /// The keyed facts the policy reads.
  private let readFamilies: [(slot: Int, member: FamilyMember, isOptional: Bool)]
  /// The app version the binder was made for, parsed once.
  private var appVersion: (text: String, version: Version?)

  init(policy: CompiledPolicy, appVersion: String = "") {
    template = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
    let reads = Set(policy.readSlots)
    var standard: [(source: ReviewFactDeclaration.Source, slot: Int)] = []
    for declaration in ReviewSchema.declarations {
      if let slot = policy.layout.slot(named: declaration.definition.name) {
        standard.append((declaration.source, slot))
      }
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
  enum Problem: Error, Sendable, Equatable {
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
    for (source, slot) in complete ? standard : read {
      if let value = value(of: source, state: state, now: now, version: version, versions: versions) {
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
    for (name, value) in values where ReviewSchema.standard.fact(named: name) == nil {
      if let slot = template.layout.slot(named: name) { try? facts.set(slot: slot, to: value) }
    }
    return facts
  }

  /// `text` as a version, from the app version or `versions` when it is one of them.
  private func parse(_ text: String, _ versions: ParsedVersions) -> Version? {
    text == appVersion.text ? appVersion.version : (versions.version(of: text) ?? AppVersion.parse(text))
  }

  /// The value of the standard fact with `source`, or nil when it is absent.
  private func value(
    of source: ReviewFactDeclaration.Source, state: ReviewState, now: Timestamp, version: Version,
    versions: ParsedVersions
  ) -> Value? {
    switch source {
    case .count(let path, _, _): return .int(Int64(clamping: state[keyPath: path]))
    case .flag(let path, _, _): return .bool(state[keyPath: path])
    case .computed(let fact): return value(of: fact, state: state, now: now, version: version, versions: versions)
    }
  }

  /// The value of computed fact `fact`, or nil when it is absent.
  private func value(
    of fact: ComputedFact, state: ReviewState, now: Timestamp, version: Version, versions: ParsedVersions
  ) -> Value? {
    // A recorded instant later than `now` (the clock went back) counts as `now`, and the start
    // instants are moved earlier by a jump back not yet settled: see docs/facts.md, "Clocks".
    switch fact {
    case .days: return .int(ReviewFactBinder.wholeDays(from: start(state.firstUse, state, now) ?? now, to: now))
    case .firstUse: return .instant(min(start(state.firstUse, state, now) ?? now, now))
    case .version: return .version(version)
    case .lastReminder: return state.lastReminder.map { .instant(min($0, now)) }
    case .totalDays:
      let install = start(state.installDate ?? state.firstUse, state, now)
      return .int(ReviewFactBinder.wholeDays(from: install ?? now, to: now))
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
