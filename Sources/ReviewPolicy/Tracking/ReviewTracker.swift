import PolicyCore

/// The pure core of a ``ReviewManager``: the tracked state, the running policy and the app
/// facts, with the tracking and the decision and nothing else (no lock, store, clock,
/// presenter or log).
///
/// A manager is a tracker behind a lock whose state is saved after every call. Simulations
/// and tests drive a tracker directly, at instants of their choosing: the same calls in the
/// same order leave a tracker and a manager in the same state with the same prompts.
///
/// Every tracking call first brings the state to ``appVersion`` (a new version starts its
/// per-version counts afresh), as the manager does.
public struct ReviewTracker: Sendable {
  /// The tracked usage.
  public internal(set) var state: ReviewState
  /// The app version the usage is recorded under.
  public private(set) var appVersion: String
  /// The build number recorded with the app version, if the app gives one.
  public private(set) var build: String?
  /// Whether a new build starts a new version (otherwise only a new app version does).
  public var newVersionOnBuild = false
  /// The values of the app-specific facts the app has set, by name.
  public private(set) var appFacts: [String: Value] = [:]
  /// The running policy with its binder; changing it prepares the app facts again.
  var active: ActivePolicy {
    didSet {
      declaredEvents = Set(active.compiled.declaredEvents)
      prepared = active.binder.prepared(appFacts: appFacts)
    }
  }
  /// The running policy's defaults with ``appFacts`` set: where every snapshot starts. Setting it
  /// finds the unset app facts again (once per change, not per call).
  private(set) var prepared: Facts {
    didSet { findUnsetAppFacts() }
  }
  /// The app's guardrails (``ReviewManager/Configuration/guardrails``): `never` rules checked after
  /// the running policy, whatever it is; nil for none. Changing them prepares the app facts again.
  var guardrails: ActivePolicy? {
    didSet { guardrailsPrepared = guardrails?.binder.prepared(appFacts: appFacts) }
  }
  /// The guardrails' defaults with ``appFacts`` set.
  private(set) var guardrailsPrepared: Facts? {
    didSet { findUnsetAppFacts() }
  }
  /// The event names the running policy declares, as a set: a call asks whether a name is declared
  /// in constant time, however many the policy declares.
  private(set) var declaredEvents: Set<String>
  /// ``unsetAppFacts``, found when the prepared snapshots change (see ``findUnsetAppFacts()``).
  private(set) var unsetFacts: [(name: String, type: PolicyType)] = []
  /// Counts the changes of ``unsetAppFacts``: a caller that reported them at one generation has
  /// nothing new to report until it changes (so a call costs no scan of the declared facts).
  private(set) var unsetFactsGeneration = 0
  /// The state's versions, parsed when they change.
  private(set) var versions = ParsedVersions()
  /// Action scores are clamped to these bounds per session; nil for no bounds.
  let scoreBounds: ClosedRange<Number>?
  /// How long a prompt may stay unanswered: a prompt still pending after this span is recorded
  /// as "asked, outcome unknown" (``ReviewResponse/unknown``) by the next call, as of its
  /// deadline. Nil (the default for a tracker; a manager sets its
  /// ``ReviewManager/Configuration/promptTimeout``) leaves it pending until the next launch or
  /// foreground (``appear(at:countingUse:)``) or until it is answered.
  public var promptTimeout: TimeSpan?

  /// A tracker running `policy` for `appVersion`, starting from `state`.
  ///
  /// - Parameters:
  ///   - policy: The running policy, compiled against ``ReviewSchema/standard``.
  ///   - appVersion: The app version the usage is recorded under (``appVersion``).
  ///   - state: The tracked usage to start from: a fresh install by default.
  ///   - scoreBounds: A session's total score stays within these bounds (nil: no bounds),
  ///     as ``ReviewManager/Configuration/scoreBounds``.
  public init(
    policy: CompiledPolicy, appVersion: String, state: ReviewState = ReviewState(),
    scoreBounds: ClosedRange<Double>? = -200...200
  ) {
    self.init(
      active: ActivePolicy(policy, origin: .bundled, appVersion: appVersion), appVersion: appVersion, state: state,
      scoreBounds: ReviewTracker.numberBounds(scoreBounds))
  }

  /// A tracker running `active`, with bounds already converted.
  init(active: ActivePolicy, appVersion: String, state: ReviewState, scoreBounds: ClosedRange<Number>?) {
    self.active = active
    self.prepared = active.binder.prepared(appFacts: [:])
    self.declaredEvents = Set(active.compiled.declaredEvents)
    self.appVersion = appVersion
    self.state = state
    self.scoreBounds = scoreBounds
    findUnsetAppFacts()
  }

  /// `bounds` as numbers; nil when either end is not a finite number in range.
  static func numberBounds(_ bounds: ClosedRange<Double>?) -> ClosedRange<Number>? {
    bounds.flatMap { bounds in
      guard let lower = Number(bounds.lowerBound), let upper = Number(bounds.upperBound) else { return nil }
      return lower...upper
    }
  }

  /// The running policy.
  public var policy: CompiledPolicy { active.compiled }

  /// The guardrails: a policy of `never` rules only, evaluated after the running policy; when one
  /// holds (or faults, or the guardrails cannot be evaluated) nothing asks. Nil for none.
  public var guardrailPolicy: CompiledPolicy? {
    get { guardrails?.compiled }
    set { guardrails = newValue.map { ActivePolicy($0, origin: .guardrails, appVersion: appVersion) } }
  }

  /// This tracker after the app updated to `appVersion`: the same state, policy and app facts.
  ///
  /// The new version's counts start at the next tracking call, as in a manager created with
  /// the new version over the same store.
  public func moving(to appVersion: String) -> ReviewTracker {
    var moved = ReviewTracker(
      active: active.with(appVersion: appVersion), appVersion: appVersion, state: state, scoreBounds: scoreBounds)
    moved.appFacts = appFacts
    moved.prepared = prepared
    moved.guardrails = guardrails?.with(appVersion: appVersion)
    moved.versions = versions
    moved.build = build
    moved.newVersionOnBuild = newVersionOnBuild
    return moved
  }

  /// Moves this tracker to `appVersion` and `build` (nil keeps no build): the new version's
  /// counts start at the next tracking call. The policy, state and app facts stay.
  public mutating func move(to appVersion: String, build: String?) {
    if appVersion != self.appVersion {
      self.appVersion = appVersion
      active = active.with(appVersion: appVersion)
      if let guardrails { self.guardrails = guardrails.with(appVersion: appVersion) }
    }
    self.build = build
  }

  // MARK: - Tracking

  /// Sets an app-specific fact that the policy declares; nil removes it. Standard names are ignored.
  public mutating func setFact(_ name: String, _ value: Value?) {
    appFacts[name] = value
    prepared = active.binder.prepared(appFacts: appFacts)
    guardrailsPrepared = guardrails?.binder.prepared(appFacts: appFacts)
  }

  /// Brings the state to ``appVersion`` at `now` (every call below does this first), and records
  /// a prompt left pending past ``promptTimeout`` as "asked, outcome unknown".
  public mutating func enter(at now: Timestamp) {
    expireUnansweredPrompt(at: now)
    state.enter(version: appVersion, build: build, newVersionOnBuild: newVersionOnBuild, at: now)
    // The install's seed is drawn once, when a running policy first reads a bucket.
    if state.installSeed == nil && !policy.bucketNames.isEmpty { state.installSeed = ReviewState.newInstallSeed() }
  }

  // MARK: - The prompt contract

  /// Whether a prompt is on screen at `now`: the last prompt is pending and its
  /// ``promptTimeout`` (if any) has not passed. Only then is an answer accepted.
  public func isPromptShowing(at now: Timestamp) -> Bool {
    guard let last = state.promptHistory.last, last.outcome == .pending else { return false }
    guard let deadline = promptDeadline(of: last) else { return true }
    return now < deadline
  }

  /// When `prompt` stops waiting for an answer; nil when it never does (no timeout, or out of range).
  private func promptDeadline(of prompt: PromptRecord) -> Timestamp? {
    promptTimeout.flatMap { prompt.date.adding($0) }
  }

  /// Records a pending prompt whose ``promptTimeout`` passed as outcome unknown, as of its deadline.
  private mutating func expireUnansweredPrompt(at now: Timestamp) {
    guard let last = state.promptHistory.last, last.outcome == .pending, let deadline = promptDeadline(of: last),
      now >= deadline
    else { return }
    state.record(.unknown, at: deadline)
  }

  /// A return to the foreground at `now` (a launch is ``launch(at:countingUse:)``): a prompt still
  /// pending (the app was killed or left with it on screen, or its presenter never answered) is
  /// recorded as "asked, outcome unknown"; then the use is counted when `countingUse` (see
  /// ``countUse(at:)``). The session in progress goes on.
  ///
  /// - Returns: Whether a pending prompt was closed as outcome unknown.
  @discardableResult
  public mutating func appear(at now: Timestamp, countingUse: Bool) -> Bool {
    recording { $0.appearing(at: now, countingUse: countingUse) }
  }

  /// ``appear(at:countingUse:)`` without keeping the clock mark (see ``recording(_:)``).
  private mutating func appearing(at now: Timestamp, countingUse: Bool) -> Bool {
    enter(at: now)
    let closed = isPromptShowing(at: now)
    if closed { state.record(.unknown, at: now) }
    if countingUse { state.countUse() }
    return closed
  }

  /// Runs `operation`, which calls ``enter(at:)``: when it changed nothing but the state's clock
  /// high-water mark, the mark is kept as it was, as ``ReviewManager`` writes nothing for such a call
  /// (a prompt check that asks nothing), so a tracker and a manager hold the same state. The mark
  /// is then the clock at the last call that recorded something (docs/facts.md, "Clocks").
  mutating func recording<Result>(_ operation: (inout ReviewTracker) -> Result) -> Result {
    let before = state
    let result = operation(&self)
    if state.clockHighWater != before.clockHighWater {
      var compared = state
      compared.clockHighWater = before.clockHighWater
      if compared == before { state = compared }
    }
    return result
  }

  /// A launch at `now`: as ``appear(at:countingUse:)``, and the session in progress ends (it
  /// belonged to the previous process). Actions logged before the next ``startSession(at:)`` go
  /// into a fresh, uncounted default session, as ReviewKit logs them after a relaunch with no
  /// session started (see `ReviewState.startDefaultSession(at:)`).
  ///
  /// - Returns: Whether a pending prompt was closed as outcome unknown.
  @discardableResult
  public mutating func launch(at now: Timestamp, countingUse: Bool) -> Bool {
    recording { tracker in
      let closed = tracker.appearing(at: now, countingUse: countingUse)
      tracker.state.endSession()
      return closed
    }
  }

  /// The app left the foreground at `now` with the prompt still on screen: records it as
  /// `meaning`. ``ReviewResponse/dismissed`` (outcome unknown, the default of a manager) or
  /// ``ReviewResponse/declined``, as Armchair does on iOS.
  ///
  /// - Returns: Whether a prompt was showing (nothing is recorded otherwise).
  @discardableResult
  public mutating func leaveForegroundWithPromptShowing(at now: Timestamp, meaning: ReviewResponse) -> Bool {
    recording { tracker in
      tracker.enter(at: now)
      guard tracker.isPromptShowing(at: now) else { return false }
      tracker.state.record(meaning, at: now)
      return true
    }
  }

  /// Counts a use: a launch or a return to the foreground.
  public mutating func countUse(at now: Timestamp) {
    enter(at: now)
    state.countUse()
  }

  /// Starts a session, ending the one in progress.
  public mutating func startSession(at now: Timestamp) {
    enter(at: now)
    state.startSession(at: now)
  }

  /// Ends the session in progress.
  public mutating func endSession(at now: Timestamp) {
    recording { tracker in
      tracker.enter(at: now)
      tracker.state.endSession()
    }
  }

  /// Counts a significant event, by name if given.
  public mutating func countEvent(named name: String?, at now: Timestamp) {
    enter(at: now)
    state.countEvent(named: name)
  }

  /// Adds an action's score to the current session (starting the uncounted default session if
  /// none is in progress); `isBad` marks it bad.
  ///
  /// A NaN score adds nothing; an infinite one saturates.
  public mutating func addAction(score: Double, isBad: Bool, at now: Timestamp) {
    let points = score.isNaN ? Number(scaled: 0) : (Number(score) ?? Number(scaled: score < 0 ? .min : .max))
    recording { tracker in
      tracker.enter(at: now)
      tracker.state.addAction(score: points, isBad: isBad, bounds: tracker.scoreBounds, at: now)
    }
  }

  /// Records the user's answer to the prompt on screen (see ``isPromptShowing(at:)``).
  ///
  /// The answer belongs to the version the prompt was shown under: recorded right after an app
  /// update, it leaves the new version's per-version facts as they are (see
  /// `ReviewState.record(_:at:outsidePrompt:)`).
  ///
  /// - Returns: ``PromptAnswerError/noPromptShowing(_:)`` when no prompt is on screen (none was
  ///   shown, it was answered already, or it was closed by a timeout, a launch or a foreground):
  ///   the answer is then refused and nothing is recorded.
  @discardableResult
  public mutating func record(_ response: ReviewResponse, at now: Timestamp) -> Result<Void, PromptAnswerError> {
    recording { tracker in
      tracker.enter(at: now)
      guard tracker.isPromptShowing(at: now) else { return .failure(.noPromptShowing(response)) }
      tracker.state.record(response, at: now)
      return .success(())
    }
  }

  /// Records `response`, the user's answer to the prompt shown at `shown`, however late it comes:
  /// a prompt closed without an answer (by its timeout, a launch, a return to the foreground or
  /// the app leaving with it showing, recorded as dismissed) takes it as its outcome, as the
  /// replaced libraries record a late tap. A prompt older than the history keeps has its answer
  /// recorded as an answer without a prompt.
  ///
  /// - Returns: ``PromptAnswerError/alreadyAnswered(_:)`` when the prompt already has a user's
  ///   answer (rated, declined, remind later or feedback): nothing is recorded.
  @discardableResult
  public mutating func answer(_ response: ReviewResponse, toPromptShownAt shown: Timestamp, at now: Timestamp)
    -> Result<Void, PromptAnswerError>
  {
    recording { tracker in
      tracker.enter(at: now)
      guard let index = tracker.state.promptHistory.lastIndex(where: { $0.date == shown }) else {
        tracker.state.record(response, at: now, outsidePrompt: true)
        return .success(())
      }
      switch tracker.state.promptHistory[index].outcome {
      case .pending, .unknown, .dismissed:
        tracker.state.record(response, at: now, prompt: index)
        return .success(())
      case .rated, .declined, .remindLater, .feedback:
        return .failure(.alreadyAnswered(response))
      }
    }
  }

  /// Records an answer given outside any prompt (for example a "Rate this app" row in the app's
  /// settings): its facts are set (`rated`, `declined`, ...) and it joins the answers; a prompt
  /// on screen, if any, takes it as its outcome.
  public mutating func recordWithoutPrompt(_ response: ReviewResponse, at now: Timestamp) {
    enter(at: now)
    // Given now, in this version's UI: it counts for this version even when a prompt of an
    // earlier version is still pending (found by the fuzzing campaign: a "no thanks" was lost).
    state.record(response, at: now, outsidePrompt: true)
  }

  /// Finds ``unsetAppFacts`` in the prepared snapshots, in time linear in their layouts, and
  /// counts a new generation when they changed.
  private mutating func findUnsetAppFacts() {
    // The prepared snapshots hold the defaults and the app facts set: a declared fact missing from
    // them has neither. (A default declared as `fact plan: string = "free"` is in the template.)
    var unset: [(name: String, type: PolicyType)] = []
    var seen = Set<String>()
    func collect(_ snapshot: Facts) {
      let layout = snapshot.layout
      for (index, slot) in layout.slots.enumerated() where !slot.isOptional && !snapshot.isPresent(slot: index) {
        guard case .declaration = slot.origin, seen.insert(slot.name).inserted else { continue }
        unset.append((slot.name, slot.type))
      }
    }
    collect(prepared)
    if let guardrailsPrepared { collect(guardrailsPrepared) }
    let changed =
      unset.count != unsetFacts.count
      || zip(unset, unsetFacts).contains { $0.name != $1.name || $0.type != $1.type }
    if changed {
      unsetFacts = unset
      unsetFactsGeneration &+= 1
    }
  }

  /// Parses the state's previous and last prompt versions if they changed (decisions then reuse them).
  mutating func refreshVersions() {
    versions.update(for: state)
  }
}
