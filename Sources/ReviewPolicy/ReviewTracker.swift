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
  /// The state's versions, parsed when they change.
  private var versions = ParsedVersions()
  /// Action scores are clamped to these bounds per session; nil for no bounds.
  let scoreBounds: ClosedRange<Number>?

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

  /// This tracker after the app updated to `appVersion`: the same state, policy and app facts.
  ///
  /// The new version's counts start at the next tracking call, as in a manager created with
  /// the new version over the same store.
  public func moving(to appVersion: String) -> ReviewTracker {
    var moved = ReviewTracker(
      active: active.with(appVersion: appVersion), appVersion: appVersion, state: state, scoreBounds: scoreBounds)
    moved.appFacts = appFacts
    moved.prepared = prepared
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
    }
    self.build = build
  }

  // MARK: - Tracking

  /// Sets an app-specific fact that the policy declares; nil removes it. Standard names are ignored.
  public mutating func setFact(_ name: String, _ value: Value?) {
    appFacts[name] = value
    prepared = active.binder.prepared(appFacts: appFacts)
  }

  /// Brings the state to ``appVersion`` at `now` (every call below does this first).
  public mutating func enter(at now: Timestamp) {
    state.enter(version: appVersion, build: build, newVersionOnBuild: newVersionOnBuild, at: now)
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
    enter(at: now)
    state.endSession()
  }

  /// Counts a significant event, by name if given.
  public mutating func countEvent(named name: String?, at now: Timestamp) {
    enter(at: now)
    state.countEvent(named: name)
  }

  /// Adds an action's score to the current session (starting one if needed); `isBad` marks it bad.
  ///
  /// A NaN score adds nothing; an infinite one saturates.
  public mutating func addAction(score: Double, isBad: Bool, at now: Timestamp) {
    enter(at: now)
    let points = score.isNaN ? Number(scaled: 0) : (Number(score) ?? Number(scaled: score < 0 ? .min : .max))
    state.addAction(score: points, isBad: isBad, bounds: scoreBounds, at: now)
  }

  /// Records the user's answer to the latest prompt.
  public mutating func record(_ response: ReviewResponse, at now: Timestamp) {
    enter(at: now)
    state.record(response, at: now)
  }

  // MARK: - Deciding

  /// Decides at `now` and, when the policy asks, records the prompt as pending.
  ///
  /// Fails closed: a fault in every asking rule, or an app version that does not parse, does not ask.
  /// - Returns: Whether to ask now.
  public mutating func promptIfAppropriate(at now: Timestamp) -> Bool {
    enter(at: now)
    refreshVersions()
    let snapshot = active.binder.facts(from: prepared, state: state, now: now, complete: false, versions: versions)
    guard case .success(let facts) = snapshot, active.compiled.decide(facts).shouldAsk else {
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
    current.enter(version: appVersion, build: build, newVersionOnBuild: newVersionOnBuild, at: now)  // writes nothing (and copies nothing) once entered
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
    guard case .success(let facts) = facts(at: now, complete: false) else { return nil }
    return active.compiled.decide(facts)
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
      return ReviewExplanation(
        decision: explanation.decision, summary: renderer.summary(explanation.decision, policy), text: text)
    }
  }
}
