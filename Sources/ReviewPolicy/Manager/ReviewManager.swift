import Foundation
import PolicyCore

/// Tracks how a user uses the app, decides with the policy when to ask for a
/// review, and keeps every answer.
///
/// Safe to call from any thread, and from several managers or processes over one store: every
/// call that records is a transaction on the store (``ReviewStore/update(_:)``) that applies the
/// call to the state stored now and saves it before the call returns (a call that changes nothing
/// writes nothing). With ``JSONFileStore`` (in an App Group container for an app and its
/// extensions), concurrent calls from anywhere never lose an increment. The presenter and the
/// logger are called after the locks are released, on the calling thread.
///
/// ```swift
/// let manager = try ReviewManager(configuration: .init(
///   appVersion: "3.1", bundledPolicy: "days >= 30 and uses >= 20 and not declined", appName: "Darkroom"))
/// manager.appLaunched()
/// manager.significantEvent("export")          // may ask, if the policy says so
/// manager.record(.rated)                      // the user's answer to that prompt, if one is showing
/// ```
public final class ReviewManager: @unchecked Sendable {
  // @unchecked: `tracker` is only touched while holding `lock`;
  // `configuration` is immutable.
  private let lock = NSLock()
  private var tracker: ReviewTracker
  /// Whether the last save failed: `tracker.state` is then ahead of the store, and the next call
  /// saves it (even one that changes nothing) instead of reading the store.
  private var isUnsaved = false
  /// Whether a transaction has read or saved the store: `tracker.state` is then what the store
  /// held, and a store that answers with less lost it (deleted, corrupted or replaced since).
  private var knowsStoredState = false
  /// Whether the stored state was found lost and restored from memory, with no clean load since
  /// (one report per episode, however many calls find it lost again).
  private var isRestoringStore = false
  /// Whether the last transaction closed a prompt whose ``Configuration/promptTimeout`` passed
  /// (read and cleared under `lock` by the call that ran it, to log it and call back).
  private var closedTimedOutPrompt = false
  let configuration: Configuration
  /// The app's phases as the lifecycle hookups report them (see ``ScenePhaseTracker``).
  let phases = LockedScenePhaseTracker()
  /// The stored update (its source and the fingerprint of the bundled policy it was received
  /// under) last looked at: a change in the store makes the manager look again.
  private var compiledUpdate: StoredUpdate?
  /// The bundled policy's identity: updates received under another bundled policy are stale.
  private let bundledIdentity: PolicyIdentity
  /// The app facts reported as unset (each once per manager).
  private var reportedUnsetFacts: Set<String> = []
  /// Event names already logged as undeclared (under `lock`), so each is logged once.
  private var loggedUndeclaredEvents = Set<String>()

  /// Creates a manager: loads the state, imports the legacy sources not imported yet (stored by the
  /// first call), compiles the guardrails, and compiles the last good policy update received under
  /// this bundled policy, or else the bundled policy.
  ///
  /// - Throws: ``ReviewManagerError/invalidBundledPolicy(_:)`` when the bundled policy does not
  ///   compile, ``ReviewManagerError/invalidGuardrails(_:)`` when the guardrails do not.
  public init(configuration: Configuration) throws(ReviewManagerError) {
    self.configuration = configuration
    let bundled = PolicyCompiler.compile(
      configuration.bundledPolicy, path: "bundled.policy", schema: configuration.schema)
    guard let bundledPolicy = bundled.policy else {
      throw .invalidBundledPolicy(DiagnosticRenderer().render(bundled.diagnostics, in: bundled.source))
    }
    let guardrails = try ReviewManager.compileGuardrails(configuration.guardrails)
    bundledIdentity = PolicyIdentity(origin: .bundled, source: configuration.bundledPolicy)
    var problems: [ReviewLogEntry] = []
    var state: ReviewState
    switch configuration.store.load() {
    case .empty:
      state = ReviewState()
    case .loaded(let loaded):
      state = loaded
    case .recovered(let fresh, let problem):
      state = fresh
      problems.append(ReviewLogEntry(problem: problem.description, date: configuration.clock()))
    }
    // Shown at once; stored by the first call, which imports again into the state stored then.
    _ = ReviewManager.importLegacy(
      configuration.legacySources, into: &state, at: Timestamp(configuration.clock()),
      appVersion: configuration.appVersion, build: configuration.build)
    let update = ReviewManager.storedUpdate(
      of: state, bundled: bundledIdentity, schema: configuration.schema, appVersion: configuration.appVersion,
      date: configuration.clock(),
      notes: &problems)
    let policy = update ?? ActivePolicy(bundledPolicy, origin: .bundled, appVersion: configuration.appVersion)
    compiledUpdate = StoredUpdate(state)
    tracker = ReviewTracker(
      active: policy, appVersion: configuration.appVersion, state: state,
      scoreBounds: ReviewTracker.numberBounds(configuration.scoreBounds))
    tracker.guardrails = guardrails.map {
      ActivePolicy($0, origin: .guardrails, appVersion: configuration.appVersion)
    }
    tracker.move(to: configuration.appVersion, build: configuration.build)
    tracker.newVersionOnBuild = configuration.newVersionOn == .build
    tracker.promptTimeout = ReviewManager.timeSpan(configuration.promptTimeout)
    for problem in problems { log(problem) }
  }

  /// The guardrails compiled; nil for none.
  private static func compileGuardrails(_ source: String?) throws(ReviewManagerError) -> CompiledPolicy? {
    guard let source else { return nil }
    let compilation = PolicyCompiler.compile(source, path: "guardrails.policy", schema: ReviewSchema.standard)
    guard let compiled = compilation.policy else {
      throw .invalidGuardrails(DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source))
    }
    var askRules: [String] = []
    for rule in compiled.rules {
      switch rule.kind {
      case .ask: askRules.append(rule.name.map { "`ask \($0)`" } ?? rule.label)
      case .never: continue
      }
    }
    guard askRules.isEmpty else {
      throw .invalidGuardrails(
        "guardrails.policy: guardrails take only `never` rules; remove "
          + askRules.joined(separator: ", "))
    }
    return compiled
  }

  /// The stored update of `state` compiled, if there is one, it compiles and it was received under
  /// the `bundled` policy; otherwise nil, with a note in `notes` saying why (nothing for no update).
  private static func storedUpdate(
    of state: ReviewState, bundled: PolicyIdentity, schema: FactSchema, appVersion: String, date: Date,
    notes: inout [ReviewLogEntry]
  ) -> ActivePolicy? {
    guard let source = state.policySource else { return nil }
    // An update stored before fingerprints were kept (nil) keeps applying.
    if let receivedUnder = state.policyReceivedUnder, receivedUnder != bundled.fingerprint {
      let update = PolicyIdentity(origin: .update, source: source)
      var entry = ReviewLogEntry(
        event: .policyStale, date: date,
        summary: "the stored policy update \(update.fingerprint) was received under bundled policy "
          + "\(receivedUnder); this app ships bundled policy \(bundled.fingerprint): using the bundled policy "
          + "until a new update arrives")
      entry.policy = bundled
      entry.staleUpdate = StalePolicyUpdate(
        update: update.fingerprint, receivedUnder: receivedUnder, bundled: bundled.fingerprint)
      notes.append(entry)
      return nil
    }
    let update = PolicyCompiler.compile(source, path: "update.policy", schema: schema)
    guard let compiled = update.policy else {
      notes.append(
        ReviewLogEntry(
          problem: "the stored policy update no longer compiles; using the bundled policy", date: date))
      return nil
    }
    return ActivePolicy(compiled, origin: .update, appVersion: appVersion)
  }

  /// `seconds` as a span of whole milliseconds; nil for nil, NaN or a negative span, and the
  /// longest span for one too long to represent.
  static func timeSpan(_ seconds: TimeInterval?) -> TimeSpan? {
    guard let seconds, !seconds.isNaN, seconds >= 0 else { return nil }
    let milliseconds = (seconds * 1000).rounded(.down)
    return TimeSpan(milliseconds: milliseconds >= 9.2e18 ? .max : Int64(milliseconds))
  }

  /// Imports the configured legacy sources not yet imported into `state`; returns whether any was.
  private static func importLegacy(
    _ sources: [LegacyImport.Source], into state: inout ReviewState, at now: Timestamp, appVersion: String,
    build: String?
  ) -> Bool {
    var imported = false
    for source in sources where !state.importedLegacy.contains(source.name) {
      state = LegacyImport.importing(source, into: state, at: now, appVersion: appVersion, build: build)
      imported = true
    }
    return imported
  }

  // MARK: - Tracking

  /// Counts a launch (unless ``Configuration/shouldCountUse`` vetoes it). Never prompts. A prompt
  /// still waiting for its answer (the app was killed with it on screen) is recorded as "asked,
  /// outcome unknown". The session in progress ends: call ``sessionStarted()`` after this, and
  /// actions logged with no session started go into an uncounted default session, as in ReviewKit.
  public func appLaunched() {
    countUse(.launch)
  }

  /// Counts a return to the foreground (unless vetoed). Never prompts. A prompt still waiting for
  /// its answer is recorded as "asked, outcome unknown" (report a prompt left on screen first with
  /// ``appLeftForegroundWithPromptShowing()`` to record what the configuration says instead).
  public func appEnteredForeground() {
    countUse(.foreground)
  }

  private func countUse(_ kind: UseKind) {
    let counts = configuration.shouldCountUse?(kind) ?? true
    var closed = false
    _ = perform(
      kind == .launch ? .launch : .foreground, prompting: false,
      note: "\(kind.rawValue)" + (counts ? " counted" : " not counted (vetoed)")
    ) { tracker, now in
      closed =
        kind == .launch
        ? tracker.launch(at: now, countingUse: counts) : tracker.appear(at: now, countingUse: counts)
    }
    if closed { answered(.unknown, note: "prompt left unanswered: outcome unknown (closed by the \(kind.rawValue))") }
  }

  /// Reports that the app left the foreground with the prompt still on screen: it is recorded as
  /// ``Configuration/promptLeftShowing`` says (dismissed by default, or declined as Armchair does
  /// on iOS). Call it from the app's "did enter background" handler when its own alert was up; it
  /// does nothing when no prompt is waiting for an answer.
  ///
  /// - Returns: Whether a prompt was showing.
  @discardableResult
  public func appLeftForegroundWithPromptShowing() -> Bool {
    var closed = false
    let meaning = configuration.promptLeftShowing.response
    _ = perform(.response, prompting: false, note: nil) { tracker, now in
      closed = tracker.leaveForegroundWithPromptShowing(at: now, meaning: meaning)
    }
    if closed { answered(meaning, note: "prompt left showing when the app left the foreground: \(meaning.rawValue)") }
    return closed
  }

  /// Starts a session (ending the one in progress).
  public func sessionStarted() {
    _ = perform(.sessionStart, prompting: false, note: "session started") { tracker, now in
      tracker.startSession(at: now)
    }
  }

  /// Ends the session in progress.
  public func sessionEnded() {
    _ = perform(.sessionEnd, prompting: false, note: "session ended") { tracker, now in tracker.endSession(at: now) }
  }

  /// Counts a significant event, by name if given, then prompts if the policy says so
  /// (pass `mayPrompt: false` to count it without prompting now).
  ///
  /// `mayPrompt` defaults to true here and in ``action(score:isBad:mayPrompt:)`` alike: a call
  /// that records what the policy reacts to checks it, as the integration snippets show; pass
  /// false in the middle of a task, where a prompt would interrupt.
  ///
  /// - Returns: Whether a prompt was requested.
  @discardableResult
  public func significantEvent(_ name: String? = nil, mayPrompt: Bool = true) -> Bool {
    var undeclared = false
    let asked = perform(
      .significantEvent, prompting: mayPrompt, note: "significant event" + (name.map { " `\($0)`" } ?? "")
    ) { tracker, now in
      tracker.countEvent(named: name, at: now)
      // Under the lock: the policy running now, and the names logged so far (no set is built per call).
      let declared = tracker.active.compiled.declaredEvents
      if let name, !(declared.isEmpty && configuration.eventNames.isEmpty), !declared.contains(name),
        !configuration.eventNames.contains(name)
      {
        undeclared = loggedUndeclaredEvents.insert(name).inserted
      }
    }
    if undeclared, let name {
      log(
        ReviewLogEntry(
          event: .problem, date: configuration.clock(),
          summary: "event `\(name)` is not declared: neither the policy's `event` declarations nor "
            + "Configuration.eventNames name it"))
    }
    return asked
  }

  /// Adds an action's score to the current session (with no session started since the launch, an
  /// uncounted default session, as in ReviewKit); `isBad` marks the session bad. Prompts if
  /// `mayPrompt` and the policy says so.
  ///
  /// `mayPrompt` defaults to true, as in ``significantEvent(_:mayPrompt:)``: one rule for every
  /// tracking call that can prompt (ReviewKit's score-driven policies ask right after the action
  /// that crosses the threshold). Pass false where a prompt would interrupt a task.
  ///
  /// - Returns: Whether a prompt was requested.
  @discardableResult
  public func action(score: Double, isBad: Bool = false, mayPrompt: Bool = true) -> Bool {
    perform(.action, prompting: mayPrompt, note: "action scored \(score)" + (isBad ? ", bad" : "")) { tracker, now in
      tracker.addAction(score: score, isBad: isBad, at: now)
    }
  }

  /// Asks for a review if the policy says so now.
  ///
  /// - Returns: Whether a prompt was requested.
  @discardableResult
  public func promptIfAppropriate() -> Bool {
    perform(.promptCheck, prompting: true, note: "prompt check") { _, _ in }
  }

  /// Records the user's answer to the prompt on screen (the presenter's `respond` calls this).
  ///
  /// A prompt is on screen from the call that asked until it is answered, its
  /// ``Configuration/promptTimeout`` passes, or the app launches or comes back to the foreground.
  /// An answer with no prompt on screen is refused: nothing is recorded, the error is returned
  /// and logged as a problem. For an answer given outside a prompt (a "Rate this app" row in
  /// settings), use ``recordWithoutPrompt(_:)``.
  @discardableResult
  public func record(_ response: ReviewResponse) -> Result<Void, PromptAnswerError> {
    var result: Result<Void, PromptAnswerError> = .success(())
    _ = perform(.response, prompting: false, note: nil) { tracker, now in result = tracker.record(response, at: now) }
    switch result {
    case .success: answered(response, note: "answer: \(response.rawValue)")
    case .failure(let error):
      log(ReviewLogEntry(event: .problem, date: configuration.clock(), summary: error.description))
    }
    return result
  }

  /// Records an answer the user gave outside any prompt, such as a "Rate this app" row in the
  /// app's settings: `rated`, `declined` and the other answer facts are set as for a prompt's answer.
  public func recordWithoutPrompt(_ response: ReviewResponse) {
    _ = perform(.response, prompting: false, note: nil) { tracker, now in tracker.recordWithoutPrompt(response, at: now)
    }
    answered(response, note: "answer outside a prompt: \(response.rawValue)")
  }

  // MARK: - App facts and policy updates

  /// Sets an app-specific fact that policies declare (`fact plan: string`); nil removes it.
  ///
  /// Names of standard facts are ignored: those come from the tracked state.
  public func setFact(_ name: String, _ value: Value?) {
    lock.lock()
    tracker.setFact(name, value)
    lock.unlock()
    guard configuration.logger != nil else { return }
    var entry = ReviewLogEntry(
      event: .factSet, date: configuration.clock(),
      summary: value.map { "app fact `\(name)` set to \($0)" } ?? "app fact `\(name)` removed")
    entry.name = name
    log(entry)
  }

  /// Replaces the running policy with `source` if it compiles against the review schema.
  ///
  /// On any error the running policy stays and the diagnostics are returned; on success the
  /// source is stored with the fingerprint of the bundled policy it was received under, and runs
  /// in later launches as long as the app ships that bundled policy. The result carries every
  /// warning (``PolicyUpdateResult/warnings``): the compiler's and, for an update that compiles,
  /// the analyzer's (rules that never hold, and the review etiquette of ``ReviewEtiquette``, such
  /// as asking a user who declined); an accepted update is logged with them. The
  /// ``Configuration/guardrails`` hold whatever it says.
  @discardableResult
  public func updatePolicy(_ source: String) -> PolicyUpdateResult {
    let compilation = PolicyCompiler.compile(source, path: "update.policy", schema: configuration.schema)
    guard let compiled = compilation.policy else {
      let rendered = DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source)
      var entry = ReviewLogEntry(
        event: .policyRejected, date: configuration.clock(), summary: "policy update rejected", details: rendered)
      entry.diagnostics = compilation.diagnostics
      log(entry)
      return PolicyUpdateResult(
        isAccepted: false, diagnostics: compilation.diagnostics, renderedDiagnostics: rendered,
        warnings: compilation.diagnostics.filter { $0.severity == .warning })
    }
    let analysis = PolicyAnalyzer.warnings(for: compiled, checks: ReviewEtiquette.checks)
    let all = PolicyAnalyzer.merge(compilation.diagnostics, analysis)
    let rendered = DiagnosticRenderer().render(all, in: compilation.source)
    let received = StoredUpdate(source: source, receivedUnder: bundledIdentity.fingerprint)
    let active = ActivePolicy(compiled, origin: .update, appVersion: configuration.appVersion)
    lock.lock()
    let problems = transaction(at: Timestamp(configuration.clock()), entering: false) { tracker in
      tracker.active = active.with(appVersion: tracker.appVersion)
      tracker.state.policySource = received.source
      tracker.state.policyReceivedUnder = received.receivedUnder
    }
    compiledUpdate = received
    lock.unlock()
    logProblems(problems)
    let warnings = all.filter { $0.severity == .warning }
    var entry = ReviewLogEntry(
      event: .policyUpdated, date: configuration.clock(),
      summary: "policy updated", details: rendered)
    entry.policy = active.identity
    entry.diagnostics = all
    log(entry)
    return PolicyUpdateResult(
      isAccepted: true, diagnostics: compilation.diagnostics, renderedDiagnostics: rendered, warnings: warnings)
  }

  /// Goes back to the bundled policy and forgets the stored update.
  public func resetPolicy() {
    let bundled = PolicyCompiler.compile(
      configuration.bundledPolicy, path: "bundled.policy", schema: configuration.schema)
    guard let compiled = bundled.policy else { return }
    lock.lock()
    let problems = transaction(at: Timestamp(configuration.clock()), entering: false) { tracker in
      tracker.active = ActivePolicy(compiled, origin: .bundled, appVersion: tracker.appVersion)
      tracker.state.policySource = nil
      tracker.state.policyReceivedUnder = nil
    }
    compiledUpdate = nil
    lock.unlock()
    logProblems(problems)
    var entry = ReviewLogEntry(
      event: .policyReset, date: configuration.clock(), summary: "policy reset to the bundled policy")
    entry.policy = bundledIdentity
    log(entry)
  }

  // MARK: - Versions and reset

  /// Moves the manager to another app version (and build) without making a new manager: for tests
  /// and for processes that outlive an update. The new version's counts start at the next call.
  public func setAppVersion(_ appVersion: String, build: String? = nil) {
    lock.lock()
    tracker.move(to: appVersion, build: build)
    lock.unlock()
  }

  /// The app version the manager records under (see ``setAppVersion(_:build:)``).
  public var appVersion: String {
    lock.lock()
    defer { lock.unlock() }
    return tracker.appVersion
  }

  /// Forgets everything tracked about this install, in the store too, as a new install: for
  /// testing, and for a user's "forget me". The stored policy update stays, and legacy managers
  /// already imported are not imported again (their own keys are the app's to delete).
  public func reset() {
    let now = Timestamp(configuration.clock())
    lock.lock()
    let problems = transaction(at: now, entering: false, mustSave: true) { tracker in
      tracker.state.reset()
    }
    lock.unlock()
    logProblems(problems)
    log(ReviewLogEntry(event: .reset, date: Date(now), summary: "state reset: everything tracked was forgotten"))
  }

  // MARK: - Lifecycle

  /// Counts a launch or a foreground whenever `center` posts one of the given names.
  ///
  /// The names are the app's to choose, for example `UIApplication.didFinishLaunchingNotification`
  /// and `UIApplication.willEnterForegroundNotification` on iOS, or
  /// `NSApplication.didFinishLaunchingNotification` and `NSApplication.willBecomeActiveNotification`
  /// on macOS. Keep the returned observation: observing stops when it is cancelled or released.
  public func observeLifecycle(
    of center: NotificationCenter = .default, launch: [Notification.Name], foreground: [Notification.Name]
  ) -> LifecycleObservation {
    var tokens: [any NSObjectProtocol] = []
    for name in launch {
      tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.appLaunched() })
    }
    for name in foreground {
      tokens.append(
        center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.appEnteredForeground() })
    }
    return LifecycleObservation(center: center, tokens: tokens)
  }

  // MARK: - Inspection

  /// A copy of the tracked state.
  public var currentState: ReviewState {
    lock.lock()
    defer { lock.unlock() }
    return tracker.state
  }

  /// The running policy.
  public var currentPolicy: CompiledPolicy {
    lock.lock()
    defer { lock.unlock() }
    return tracker.policy
  }

  /// Whether the running policy is the bundled one or a stored update.
  public var policyOrigin: PolicyOrigin {
    lock.lock()
    defer { lock.unlock() }
    return tracker.active.origin
  }

  /// The running policy and its snapshot of facts now (nil when the app version does not
  /// parse), without recording anything: for tools that explain or test decisions.
  public func currentFacts() -> (policy: CompiledPolicy, facts: Facts)? {
    let now = Timestamp(configuration.clock())
    lock.lock()
    let snapshot = tracker
    lock.unlock()
    // `facts(at:)` sees the state as of the app version without recording anything.
    guard case .success(let built) = snapshot.facts(at: now) else { return nil }
    return (snapshot.policy, built)
  }

  /// Whether the policy would ask now: a cheap, read-only check that records nothing, writes
  /// nothing to the store and builds no explanation (for example, to show a "Rate us" hint only
  /// when a prompt would be welcome). A debug ``Configuration/alwaysAsk`` is not applied here.
  public func wouldAsk() -> Bool {
    let now = Timestamp(configuration.clock())
    lock.lock()
    let snapshot = tracker
    lock.unlock()
    return snapshot.decision(at: now)?.shouldAsk ?? false
  }

  /// The decision the policy would make now and the names of the rules that decided it, without
  /// recording anything or building an explanation (see ``explainCurrentDecision()`` for that).
  public func currentDecision() -> CurrentDecision {
    let now = Timestamp(configuration.clock())
    lock.lock()
    let snapshot = tracker
    lock.unlock()
    let (decision, guardrail) = snapshot.guardedDecision(at: now)
    return CurrentDecision(decision, of: snapshot.policy, guardrail: guardrail)
  }

  /// The decision the policy would make now, explained, without recording anything.
  public func explainCurrentDecision() -> ReviewExplanation {
    let now = Timestamp(configuration.clock())
    lock.lock()
    let snapshot = tracker
    lock.unlock()
    return snapshot.explanation(at: now)
  }

  // MARK: - Core

  /// Logs an answer recorded (a `.response` entry) and calls its callback.
  private func answered(_ response: ReviewResponse, note: String) {
    if configuration.logger != nil {
      var entry = ReviewLogEntry(event: .response, date: configuration.clock(), summary: note)
      entry.response = response
      log(entry)
    }
    configuration.events.answered(response)
  }

  /// Applies `change` under the lock, decides if `prompting`, saves, then logs and presents.
  ///
  /// Every call reaches the logger: a deciding call with its decision, any other with `note`
  /// (nil: the caller logs).
  /// `present`, if given, receives the request (and whether its answer is recorded) instead of the presenter.
  func perform(
    _ trigger: ReviewLogEntry.Event, prompting: Bool, note: @autoclosure () -> String?,
    presenting present: ((PromptRequest, Bool) -> Void)? = nil, _ change: (inout ReviewTracker, Timestamp) -> Void
  ) -> Bool {
    let now = Timestamp(configuration.clock())
    var entry: ReviewLogEntry?
    var request: PromptRequest?
    var unset: [(name: String, type: PolicyType)] = []
    var policy = bundledIdentity
    lock.lock()
    let problems = transaction(at: now, entering: true) { tracker in
      change(&tracker, now)
      if prompting {
        (request, entry) = decide(trigger, now, &tracker)
      }
    }
    let timedOut = closedTimedOutPrompt
    closedTimedOutPrompt = false
    if prompting, configuration.logger != nil {
      policy = tracker.active.identity
      // Reported once per fact: a policy that reads an app fact nobody sets never asks.
      unset = tracker.unsetAppFacts.filter { reportedUnsetFacts.insert($0.name).inserted }
    }
    lock.unlock()
    logProblems(problems)
    for (name, type) in unset {
      var report = ReviewLogEntry(
        event: .unsetFact, date: Date(now), summary: ReviewTracker.unsetFactMessage(name, type))
      report.name = name
      report.policy = policy
      log(report)
    }
    if timedOut { answered(.unknown, note: "prompt left unanswered: outcome unknown (timed out)") }
    if var entry {
      entry.policy = policy
      log(entry)
    } else if !prompting, configuration.logger != nil, let note = note() {
      log(ReviewLogEntry(event: trigger, date: Date(now), summary: note))
    }
    if let request {
      log(
        ReviewLogEntry(
          event: .promptShown, date: Date(now),
          summary: request.isForced ? "prompt shown (forced by alwaysAsk)" : "prompt shown"))
      configuration.events.shown?(request)
    }
    // An answer to a forced (debug) prompt is not recorded: it would mark the user rated or declined.
    if let request, let present {
      present(request, !(request.isForced || configuration.alwaysAsk))
    } else if let request, let presenter = configuration.presenter {
      let isForced = request.isForced || configuration.alwaysAsk
      presenter.present(request) { [weak self] response in
        if !isForced { _ = self?.record(response) }
      }
    }
    return request != nil
  }

  /// Decides under the lock; records the prompt when asking. Returns the request and the log entry.
  ///
  /// The explanation (which allocates) is built only when a logger or a prompt will use it.
  private func decide(_ trigger: ReviewLogEntry.Event, _ now: Timestamp, _ tracker: inout ReviewTracker)
    -> (PromptRequest?, ReviewLogEntry?)
  {
    let forced = configuration.alwaysAsk
    let wantsLog = configuration.logger != nil
    let explanation: ReviewExplanation
    // Deciding needs only the facts the policy reads; an explanation shows them all.
    tracker.refreshVersions()
    switch tracker.facts(at: now, complete: false) {
    case .failure(let unusable):
      explanation = unusable
    case .success(let facts):
      let decision = tracker.active.compiled.decide(facts)
      let asks = decision.shouldAsk && tracker.guardrailBlock(at: now) == nil
      guard asks || forced || wantsLog else { return (nil, nil) }
      explanation = tracker.explanation(at: now)
    }
    let asks = explanation.decision?.shouldAsk ?? false
    let entry = ReviewLogEntry(
      event: trigger, date: Date(now), summary: explanation.summary + (forced && !asks ? " (forced by alwaysAsk)" : ""),
      details: explanation.text, decision: explanation.decision, isDecision: true)
    guard asks || forced else { return (nil, wantsLog ? entry : nil) }
    if !forced { tracker.state.recordPrompt(at: now, outcome: .pending) }
    let request = PromptRequest(
      texts: configuration.texts.resolved(appName: configuration.appName), reviewURL: configuration.reviewURL,
      explanation: explanation, isForced: forced && !asks)
    return (request, wantsLog ? entry : nil)
  }

  /// One transaction on the store, under the manager's lock: takes the state stored now (or, after
  /// a failed save, the state in memory, which is ahead of the store), imports legacy sources not
  /// yet imported, brings it to the app version if `entering`, applies `operation`, and saves when
  /// anything changed. Returns the problems to log after unlocking.
  private func transaction(
    at now: Timestamp, entering: Bool, mustSave: Bool = false, _ operation: (inout ReviewTracker) -> Void
  ) -> [ReviewLogEntry] {
    var problems: [ReviewLogEntry] = []
    var ran = false
    let sources = configuration.legacySources
    func apply(_ loaded: StoreLoadResult?) -> ReviewState? {
      var needsSave = isUnsaved || mustSave
      // A stored state lost since the last call is merged with the one in memory, and reported once.
      func restore(from stored: ReviewState, _ what: String, always: Bool = false) {
        let merged = tracker.state.merged(with: stored)
        if !isRestoringStore && (always || merged != stored) {
          let restored = "restored from memory (\(stored.restoredCount(in: merged)) lifetime counts)"
          problems.append(ReviewLogEntry(problem: "\(what); \(restored)", date: Date(now)))
        }
        isRestoringStore = true
        tracker.state = merged
        needsSave = true
      }
      if !isUnsaved, let loaded {
        switch loaded {
        case .loaded(let state) where knowsStoredState && state.isBehind(tracker.state):
          restore(from: state, "the stored review state was replaced by an older copy since the last call")
        case .loaded(let state):
          tracker.state = state
          isRestoringStore = false
        case .empty where knowsStoredState:
          restore(from: ReviewState(), "the stored review state was deleted since the last call")
        case .empty:
          tracker.state = ReviewState()
          needsSave = true
        case .recovered(let fresh, let problem) where knowsStoredState:
          restore(from: fresh, problem.description, always: true)
        case .recovered(let fresh, let problem):
          tracker.state = fresh
          needsSave = true
          problems.append(ReviewLogEntry(problem: problem.description, date: Date(now)))
        }
        if StoredUpdate(tracker.state) != compiledUpdate { adoptStoredPolicy(at: now, &problems) }
      }
      if !sources.isEmpty
        && ReviewManager.importLegacy(
          sources, into: &tracker.state, at: now, appVersion: tracker.appVersion, build: tracker.build)
      {
        needsSave = true
      }
      let before = tracker.state
      if entering {
        let wasPending = tracker.state.promptHistory.last?.outcome == .pending
        tracker.enter(at: now)
        closedTimedOutPrompt = wasPending && tracker.state.promptHistory.last?.outcome == .unknown
      }
      operation(&tracker)
      // A prompt check that asks nothing changes nothing: no write (the store already holds it).
      // A clock high-water mark that only moved forward is not a change worth a write: the mark
      // stored is then the clock at the last call that recorded something (Grammar.md, "Clocks").
      var compared = tracker.state
      compared.clockHighWater = before.clockHighWater
      guard needsSave || compared != before else {
        tracker.state = compared  // as stored
        return nil
      }
      return tracker.state
    }
    // One report per fault episode: when saving starts failing and when it works again, not per call.
    let wasUnsaved = isUnsaved
    do {
      try configuration.store.update { loaded in
        ran = true
        return apply(loaded)
      }
      isUnsaved = false
      knowsStoredState = true
      if wasUnsaved {
        problems.append(ReviewLogEntry(problem: "the review state is saved again", date: Date(now)))
      }
    } catch {
      if !ran { _ = apply(nil) }
      isUnsaved = true
      if !wasUnsaved {
        problems.append(ReviewLogEntry(problem: "cannot save the review state: \(error.detail)", date: Date(now)))
      }
    }
    return problems
  }

  /// Runs the policy update another manager stored (or the bundled policy when it removed it, or
  /// stored one received under another bundled policy).
  private func adoptStoredPolicy(at now: Timestamp, _ problems: inout [ReviewLogEntry]) {
    compiledUpdate = StoredUpdate(tracker.state)
    if let update = ReviewManager.storedUpdate(
      of: tracker.state, bundled: bundledIdentity, schema: configuration.schema, appVersion: tracker.appVersion,
      date: Date(now), notes: &problems)
    {
      tracker.active = update
      return
    }
    let bundled = PolicyCompiler.compile(
      configuration.bundledPolicy, path: "bundled.policy", schema: configuration.schema)
    if let compiled = bundled.policy {
      tracker.active = ActivePolicy(compiled, origin: .bundled, appVersion: tracker.appVersion)
    }
  }

  private func logProblems(_ problems: [ReviewLogEntry]) {
    for problem in problems { log(problem) }
  }

  private func log(_ entry: ReviewLogEntry) {
    configuration.logger?(entry)
  }
}
