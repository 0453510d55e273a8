import PolicyCore

extension ReviewTracker {
  /// Decides at `now` and, when the policy asks, records the prompt as pending.
  ///
  /// Fails closed: a fault in every asking rule, or an app version that does not parse, does not ask.
  /// - Returns: Whether to ask now.
  public mutating func promptIfAppropriate(at now: Timestamp) -> Bool {
    recording { $0.checkPrompt(at: now).asks }
  }

  /// The one decision path, for ``ReviewManager``, `policyc simulate` and every replay: brings the
  /// state to the app version, builds the facts the policy reads, decides, lets the guardrails
  /// forbid, and records the prompt as pending when it asks (unless `forced`, whose prompts are
  /// not recorded, or not `recordingPrompt`). While a prompt is showing (``isPromptShowing(at:)``,
  /// or `promptInFlight`) a decision to ask becomes "don't ask": no policy asks twice at once.
  ///
  /// - Parameters:
  ///   - forced: A debug ``ReviewManager/Configuration/alwaysAsk``: the check explains even a
  ///     "don't ask" (the caller shows a prompt anyway) and records no prompt.
  ///   - explaining: When to build the explanation (which allocates): never, only when asking
  ///     (the prompt carries it), or always (a logger receives every decision).
  ///   - recordingPrompt: Whether an "ask" records the prompt now; false when a presenter will
  ///     report whether it could show it (the prompt is then recorded by ``recordShownPrompt(at:)``),
  ///     or when nothing can be shown (an app extension).
  ///   - promptInFlight: Whether a prompt handed to a presenter has not yet been reported shown
  ///     or not presented (it counts as showing).
  mutating func checkPrompt(
    at now: Timestamp, forced: Bool = false, explaining: PromptCheck.Explaining = .never,
    recordingPrompt: Bool = true, promptInFlight: Bool = false
  ) -> PromptCheck {
    enter(at: now)
    refreshVersions()
    var explanation: ReviewExplanation
    var isBlocked = false
    // Entered above: the state is read in place (no copy), as `facts(at:)` would see it.
    switch active.binder.facts(from: prepared, state: state, now: now, complete: false, versions: versions) {
    case .failure(.unparsableVersion(let text)):
      guard forced || explaining == .always else { return PromptCheck(asks: false, explanation: nil) }
      explanation = ReviewTracker.unparsableVersion(text)
    case .success(let facts):
      var asks = guardedDecision(from: facts, at: now).decision.shouldAsk
      isBlocked = asks && (promptInFlight || isPromptShowing(at: now))
      if isBlocked { asks = false }
      if explaining == .never && !forced {
        if asks && recordingPrompt { state.recordPrompt(at: now, outcome: .pending) }
        return PromptCheck(asks: asks, explanation: nil, isBlockedByShowingPrompt: isBlocked)
      }
      guard asks || isBlocked || forced || explaining == .always else {
        return PromptCheck(asks: false, explanation: nil)
      }
      explanation = self.explanation(at: now, maximumRules: ReviewTracker.explainedRules)
      if isBlocked { explanation = ReviewTracker.blockedByShowingPrompt(explanation) }
    }
    let asks = explanation.decision?.shouldAsk ?? false
    if asks && !forced && recordingPrompt { state.recordPrompt(at: now, outcome: .pending) }
    return PromptCheck(asks: asks, explanation: explanation, isBlockedByShowingPrompt: isBlocked)
  }

  /// Records that a prompt the policy asked for (in a check that did not record it, see
  /// `checkPrompt(at:forced:explaining:recordingPrompt:promptInFlight:)`) was shown at `now`: it is
  /// pending until its answer. A presenter reports this; a prompt it could not present is never
  /// recorded.
  ///
  /// - Returns: The instant the prompt is recorded under (its identity for ``answer(_:toPromptShownAt:at:)``).
  @discardableResult
  public mutating func recordShownPrompt(at now: Timestamp) -> Timestamp {
    recording { tracker in
      tracker.enter(at: now)
      tracker.state.recordPrompt(at: now, outcome: .pending)
      return tracker.state.promptHistory.last?.date ?? now
    }
  }

  /// The summary of a decision to ask turned into "don't ask" because a prompt is showing.
  package static let promptShowingSummary = "don't ask: a review prompt is already showing (the policy would ask)"

  /// `explanation` of a decision to ask, turned into "don't ask" because a prompt is showing.
  private static func blockedByShowingPrompt(_ explanation: ReviewExplanation) -> ReviewExplanation {
    let decision = Decision(
      shouldAsk: false, reason: .neverRuleHeld, decidingRules: RuleIndices(), firstFault: nil, faultCount: 0)
    let text =
      "decision: \(promptShowingSummary)\n" + "running policy: \(explanation.summary)\n"
      + explanation.text.drop { $0 != "\n" }.dropFirst()
    return ReviewExplanation(decision: decision, summary: promptShowingSummary, text: text)
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
      return .failure(ReviewTracker.unparsableVersion(text))
    }
  }

  /// The explanation of a decision that could not be made: the app version `text` does not parse.
  private static func unparsableVersion(_ text: String) -> ReviewExplanation {
    let summary = "don't ask: the app version `\(text)` does not start with a number"
    return ReviewExplanation(decision: nil, summary: summary, text: "decision: \(summary)\n")
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
    let guarded = guardedDecision(from: facts, at: now)
    return (guarded.decision, guarded.guardrail)
  }

  /// The running policy's decision on `facts` (the state at `now`), then the guardrails': a
  /// guardrail that forbids an "ask" decides "don't ask" (fails closed).
  private func guardedDecision(from facts: Facts, at now: Timestamp) -> (decision: Decision, guardrail: GuardrailBlock?)
  {
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
  ///
  /// Found once per change of the policy, the guardrails or the app facts, not per call.
  public var unsetAppFacts: [(name: String, type: PolicyType)] { unsetFacts }

  /// The decision the policy makes on the current state at `now`, explained (nothing is recorded).
  ///
  /// - Parameter maximumRules: The most rules (and `let`s) the text shows, the first in source
  ///   order, the rest counted: a prompt check bounds its explanation with
  ///   ``explainedRules`` so that logging every decision costs the same whatever an update holds.
  public func explanation(at now: Timestamp, maximumRules: Int = .max) -> ReviewExplanation {
    switch facts(at: now) {
    case .failure(let unusable):
      return unusable
    case .success(let facts):
      let explanation = policy.explain(facts, maximumRules: maximumRules)
      let renderer = ExplanationRenderer()
      var text = renderer.render(explanation, of: policy)
      // Lists of names are bounded: an update may declare many facts, and the text goes to the log.
      let missing = facts.missingFacts
      if !missing.isEmpty {
        let listed = missing.prefix(ReviewTracker.listedNames).map { "`\($0)`" }.joined(separator: ", ")
        text +=
          "missing facts: " + listed + ReviewTracker.leftOut(missing.count - ReviewTracker.listedNames)
          + " (set them with `setFact`)\n"
      }
      for (name, type) in unsetAppFacts.prefix(ReviewTracker.listedNames) {
        text += ReviewTracker.unsetFactMessage(name, type) + "\n"
      }
      if unsetAppFacts.count > ReviewTracker.listedNames {
        text += ReviewTracker.moreUnsetFactsMessage(unsetAppFacts.count - ReviewTracker.listedNames) + "\n"
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

  /// How many names an explanation lists (missing facts, unset app facts); the rest are counted.
  static let listedNames = 16

  /// How many rules (and `let`s) the explanation of a prompt check shows; the rest are counted.
  /// `explainCurrentDecision()` shows every rule.
  static let explainedRules = 32

  /// `, and N more` when `count` names were left out of a list, else nothing.
  static func leftOut(_ count: Int) -> String {
    count > 0 ? ", and \(count) more" : ""
  }

  /// The report of `count` more unset app facts, left out of a list by name.
  static func moreUnsetFactsMessage(_ count: Int) -> String {
    "\(count) more app facts declared without a default are not set (names left out)"
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

/// What one prompt check decided (see ``ReviewTracker/checkPrompt(at:forced:explaining:)``).
struct PromptCheck: Sendable {
  /// When a check builds its explanation.
  enum Explaining: Sendable, Hashable {
    /// Never: deciding only (simulations, replays).
    case never
    /// Only when it asks: the prompt carries the explanation.
    case whenAsking
    /// Always: a logger receives every decision explained.
    case always
  }

  /// Whether the policy asks (and no guardrail forbids, and no prompt is showing): the prompt was
  /// recorded as pending, unless the check was forced or not recording.
  var asks: Bool
  /// The decision explained, when the check built it.
  var explanation: ReviewExplanation?
  /// Whether the policy asked but a prompt was already showing (so the check does not ask).
  var isBlockedByShowingPrompt = false
}
