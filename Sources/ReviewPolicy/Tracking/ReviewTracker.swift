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
    didSet { prepared = active.binder.prepared(appFacts: appFacts) }
  }
  /// The running policy's defaults with ``appFacts`` set: where every snapshot starts.
  private var prepared: Facts
  /// The app's guardrails (``ReviewManager/Configuration/guardrails``): `never` rules checked after
  /// the running policy, whatever it is; nil for none. Changing them prepares the app facts again.
  var guardrails: ActivePolicy? {
    didSet { guardrailsPrepared = guardrails?.binder.prepared(appFacts: appFacts) }
  }
  /// The guardrails' defaults with ``appFacts`` set.
  private var guardrailsPrepared: Facts?
  /// The state's versions, parsed when they change.
  private var versions = ParsedVersions()
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
  /// - Parameter scoreBounds: A session's total score stays within these bounds (nil: no bounds),
  ///   as ``ReviewManager/Configuration/scoreBounds``.
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
    self.appVersion = appVersion
    self.state = state
    self.scoreBounds = scoreBounds
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
  /// is then the clock at the last call that recorded something (Grammar.md, "Clocks").
  private mutating func recording<Result>(_ operation: (inout ReviewTracker) -> Result) -> Result {
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
  /// session started (see ``ReviewState/startDefaultSession(at:)``).
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
  /// update, it leaves the new version's per-version facts as they are (see ``ReviewState/record(_:at:)``).
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

  /// Records an answer given outside any prompt (for example a "Rate this app" row in the app's
  /// settings): its facts are set (`rated`, `declined`, ...) and it joins the answers; a prompt
  /// on screen, if any, takes it as its outcome.
  public mutating func recordWithoutPrompt(_ response: ReviewResponse, at now: Timestamp) {
    enter(at: now)
    // Given now, in this version's UI: it counts for this version even when a prompt of an
    // earlier version is still pending (found by the fuzzing campaign: a "no thanks" was lost).
    state.record(response, at: now, outsidePrompt: true)
  }

  // MARK: - Deciding

  /// Decides at `now` and, when the policy asks, records the prompt as pending.
  ///
  /// Fails closed: a fault in every asking rule, or an app version that does not parse, does not ask.
  /// - Returns: Whether to ask now.
  public mutating func promptIfAppropriate(at now: Timestamp) -> Bool {
    recording { $0.deciding(at: now) }
  }

  /// ``promptIfAppropriate(at:)`` without keeping the clock mark (see ``recording(_:)``).
  private mutating func deciding(at now: Timestamp) -> Bool {
    enter(at: now)
    refreshVersions()
    let snapshot = active.binder.facts(from: prepared, state: state, now: now, complete: false, versions: versions)
    guard case .success(let facts) = snapshot, active.compiled.decide(facts).shouldAsk, guardrailBlock(at: now) == nil
    else {
      return false
    }
    state.recordPrompt(at: now, outcome: .pending)
    return true
  }

  /// Parses the state's previous and last prompt versions if they changed (decisions then reuse them).
  mutating func refreshVersions() {
    versions.update(for: state)
  }

  /// The policy's snapshot of the current state at `now`, or why there is none.
  ///
  /// With `complete` false only the facts the policy reads are set (enough to decide);
  /// otherwise every standard fact is (for explanations and inspection). The state is seen as
  /// of ``appVersion`` (as after ``enter(at:)``), without recording anything.
  public func facts(at now: Timestamp, complete: Bool = true) -> Result<Facts, ReviewExplanation> {
    var current = state
    // Writes nothing (and copies nothing) once entered.
    current.enter(version: appVersion, build: build, newVersionOnBuild: newVersionOnBuild, at: now)
    switch active.binder.facts(from: prepared, state: current, now: now, complete: complete, versions: versions) {
    case .success(let facts):
      return .success(facts)
    case .failure(.unparsableVersion(let text)):
      let summary = "don't ask: the app version `\(text)` does not start with a number"
      return .failure(ReviewExplanation(decision: nil, summary: summary, text: "decision: \(summary)\n"))
    }
  }

  /// The decision the policy makes on the current state at `now`, without building an explanation or
  /// recording anything; nil when the app version does not parse (then nothing asks).
  ///
  /// Agrees with ``explanation(at:)``: the same decision, from the same facts.
  public func decision(at now: Timestamp) -> Decision? {
    guardedDecision(at: now).decision
  }

  /// The decision at `now` (as ``decision(at:)``) and the guardrail that turned an "ask" into
  /// "don't ask", if one did.
  func guardedDecision(at now: Timestamp) -> (decision: Decision?, guardrail: GuardrailBlock?) {
    guard case .success(let facts) = facts(at: now, complete: false) else { return (nil, nil) }
    let decision = active.compiled.decide(facts)
    guard decision.shouldAsk, let block = guardrailBlock(at: now) else { return (decision, nil) }
    return (block.decision, block)
  }

  /// The guardrail that forbids a prompt at `now`, or nil when every guardrail lets it through (or
  /// there are none). Fails closed: a guardrail that faults, or guardrails whose facts cannot be
  /// built (an app version that does not parse, an app fact they declare that is not set), forbid it.
  func guardrailBlock(at now: Timestamp) -> GuardrailBlock? {
    guard let guardrails, let guardrailsPrepared else { return nil }
    var current = state
    current.enter(version: appVersion, build: build, newVersionOnBuild: newVersionOnBuild, at: now)
    let snapshot = guardrails.binder.facts(
      from: guardrailsPrepared, state: current, now: now, complete: false, versions: versions)
    guard case .success(let facts) = snapshot else { return GuardrailBlock(rule: nil, faulted: true) }
    let decision = guardrails.compiled.decide(facts)
    switch decision.reason {
    case .noAskRuleHeld, .askRuleHeld:
      // Guardrails have no `ask` rule (checked when they are compiled): nothing held.
      return nil
    case .neverRuleHeld:
      guard let index = decision.decidingRules.first(where: { _ in true }) else {
        return GuardrailBlock(rule: nil, faulted: true)
      }
      let rule = guardrails.compiled.rules[index]
      let name = rule.name.map { "\(rule.kind.rawValue) \($0)" } ?? rule.label
      return GuardrailBlock(rule: name, faulted: decision.firstFault?.rule == index)
    case .invalidFacts:
      return GuardrailBlock(rule: nil, faulted: true)
    }
  }

  /// The app facts that the running policy or the guardrails declare (`fact plan: string`), that
  /// cannot be absent and have no default, and that the app has not set with a value of their type
  /// (``setFact(_:_:)``): a policy that reads one never asks. Names with their types, in layout order.
  public var unsetAppFacts: [(name: String, type: PolicyType)] {
    // The prepared snapshots hold the defaults and the app facts set: a declared fact missing from
    // them has neither. (A default declared as `fact plan: string = "free"` is in the template.)
    var unset: [(name: String, type: PolicyType)] = []
    func collect(_ snapshot: Facts) {
      let layout = snapshot.layout
      for (index, slot) in layout.slots.enumerated() where !slot.isOptional && !snapshot.isPresent(slot: index) {
        guard case .declaration = slot.origin, !unset.contains(where: { $0.name == slot.name }) else { continue }
        unset.append((slot.name, slot.type))
      }
    }
    collect(prepared)
    if let guardrailsPrepared { collect(guardrailsPrepared) }
    return unset
  }

  /// The decision the policy makes on the current state at `now`, explained (nothing is recorded).
  public func explanation(at now: Timestamp) -> ReviewExplanation {
    switch facts(at: now) {
    case .failure(let unusable):
      return unusable
    case .success(let facts):
      let explanation = policy.explain(facts)
      let renderer = ExplanationRenderer()
      var text = renderer.render(explanation, of: policy)
      let missing = facts.missingFacts
      if !missing.isEmpty {
        text += "missing facts: " + missing.map { "`\($0)`" }.joined(separator: ", ") + " (set them with `setFact`)\n"
      }
      for (name, type) in unsetAppFacts {
        text += ReviewTracker.unsetFactMessage(name, type) + "\n"
      }
      let summary = renderer.summary(explanation.decision, policy)
      guard explanation.decision.shouldAsk, let block = guardrailBlock(at: now) else {
        return ReviewExplanation(decision: explanation.decision, summary: summary, text: text)
      }
      // The policy asks, a guardrail forbids it: the guardrail decides, and the text shows both.
      var guarded = "decision: \(block.summary)\n" + "running policy: \(summary)\n"
      guarded += text.drop { $0 != "\n" }.dropFirst()
      if let guardrails, case .success(let facts) = guardrailFacts(at: now) {
        let rendered = renderer.render(guardrails.compiled.explain(facts), of: guardrails.compiled)
        guarded += "guardrails:\n" + rendered.drop { $0 != "\n" }.dropFirst()
      }
      return ReviewExplanation(decision: block.decision, summary: block.summary, text: guarded)
    }
  }

  /// Every fact of the guardrails at `now` (for explanations).
  private func guardrailFacts(at now: Timestamp) -> Result<Facts, ReviewFactBinder.Problem> {
    guard let guardrails, let guardrailsPrepared else { return .failure(.unparsableVersion(appVersion)) }
    var current = state
    current.enter(version: appVersion, build: build, newVersionOnBuild: newVersionOnBuild, at: now)
    return guardrails.binder.facts(from: guardrailsPrepared, state: current, now: now, versions: versions)
  }

  /// The report of an app fact the app has not set: its name and the call that sets it.
  static func unsetFactMessage(_ name: String, _ type: PolicyType) -> String {
    let example: String
    switch type {
    case .bool: example = ".bool(true)"
    case .int: example = ".int(1)"
    case .string: example = ".string(\"…\")"
    case .number, .duration, .instant, .version: example = ".\(type)(…)"
    }
    let call = "manager.setFact(\"\(name)\", \(example))"
    return "app fact `\(name)` (\(type)) is not set: a policy that reads it never asks; set it with `\(call)`"
  }
}

/// A guardrail that forbids a prompt the running policy asks for.
struct GuardrailBlock: Sendable, Hashable {
  /// The rule that held, named as in explanations (`never answered`, or `rule 2`); nil when the
  /// guardrails could not be evaluated at all.
  var rule: String?
  /// Whether the rule faulted (a fault fails closed: it forbids).
  var faulted: Bool

  /// The name for logs and ``CurrentDecision/guardrail``: `never answered`, or `guardrails`.
  var name: String { rule ?? "guardrails" }

  /// One line, as a decision summary.
  var summary: String {
    guard let rule else { return "don't ask: the guardrails could not be evaluated (fails closed)" }
    return faulted ? "don't ask: guardrail `\(rule)` faulted (fails closed)" : "don't ask: guardrail `\(rule)` held"
  }

  /// The decision it makes: don't ask, because a `never` rule held.
  var decision: Decision {
    Decision(shouldAsk: false, reason: .neverRuleHeld, decidingRules: RuleIndices(), firstFault: nil, faultCount: 0)
  }
}

/// Why an answer was refused.
public enum PromptAnswerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No prompt is on screen: none was shown, the prompt on screen was answered already, or it
  /// was closed (its timeout passed, or the app launched or came back to the foreground since).
  /// Use ``ReviewManager/recordWithoutPrompt(_:)`` for an answer given outside a prompt.
  case noPromptShowing(ReviewResponse)

  /// What was refused, and why.
  public var description: String {
    switch self {
    case .noPromptShowing(let response):
      "the answer `\(response.rawValue)` was refused: no review prompt is showing (none was shown, or it was "
        + "answered, timed out or closed by a launch or a return to the foreground); use recordWithoutPrompt "
        + "for an answer given outside a prompt"
    }
  }
}
