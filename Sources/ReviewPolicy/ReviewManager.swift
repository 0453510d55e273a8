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

  /// Everything a manager is configured with. Only `appVersion` and `bundledPolicy` are required.
  public struct Configuration: Sendable {
    /// The running app version, as the app reports it (for example `CFBundleShortVersionString`).
    public var appVersion: String
    /// The running build number (`CFBundleVersion`), if known. Legacy imports need it: Appirater,
    /// Armchair and UAAppReviewManager stored the build as their version.
    public var build: String?
    /// What starts a "new version" (per-version counts start again): a new ``appVersion``
    /// (the default) or also a new ``build``.
    public var newVersionOn: NewVersionTrigger
    /// The policy the app ships with: the floor when no update has been received or the update no longer compiles.
    public var bundledPolicy: String
    /// The app's name, put into the prompt texts.
    public var appName: String
    /// Where the state lives. Defaults to ``JSONFileStore/standard()``.
    public var store: any ReviewStore
    /// The clock. Tests inject a fake one.
    public var clock: @Sendable () -> Date
    /// The prompt texts before the app name is put in; defaults to the user's preferred language.
    public var texts: PromptTexts
    /// Where "rate" should take the user (see ``ReviewURL``), if anywhere.
    public var reviewURL: URL?
    /// Shows the prompt. Without one, ``promptIfAppropriate()`` still decides and records,
    /// and the app shows its own UI and calls ``record(_:)``.
    public var presenter: (any ReviewPresenter)?
    /// Receives every decision with its explanation, and every problem (store, policy updates).
    public var logger: (@Sendable (ReviewLogEntry) -> Void)?
    /// Called before counting a launch or a return to the foreground; returning false skips that use.
    public var shouldCountUse: (@Sendable (UseKind) -> Bool)?
    /// The lowest and highest a session's score can reach; nil for no bounds.
    public var scoreBounds: ClosedRange<Double>?
    /// Debug switch: ask every time a prompt is considered, whatever the policy says. Forced
    /// prompts and their answers are not recorded.
    public var alwaysAsk: Bool
    /// Keys of other review managers to import, each once: on the first launch with this library,
    /// or the first launch after a source is added (see ``LegacyImport``; give ``build`` too).
    public var legacySources: [LegacyImport.Source]
    /// How long, in seconds, a prompt may wait for its answer: after that, the next call records it
    /// as "asked, outcome unknown" and a late answer is refused. Nil: no limit (the next launch or
    /// foreground still closes it). Defaults to 10 minutes.
    public var promptTimeout: TimeInterval?
    /// What a prompt still on screen when the app left the foreground means, when the app reports
    /// it with ``ReviewManager/appLeftForegroundWithPromptShowing()``.
    public var promptLeftShowing: PromptLeftShowing
    /// Delegate-style callbacks for analytics: a prompt shown, and each kind of answer.
    public var events: ReviewEvents
    /// Guardrails: policy source text with `never` rules only (for example
    /// `never answered when declined_any or rated_any` and `never yearly_cap when prompts_within(365d) >= 3`),
    /// checked after the running policy, whatever a policy update says: when one holds, nothing
    /// asks. Fails closed: a guardrail that faults, or that cannot be evaluated, forbids asking.
    /// Nil (the default): no guardrails. Compiled at init; an error throws
    /// ``ReviewManagerError/invalidGuardrails(_:)``.
    public var guardrails: String?
    /// The event names the app records with ``ReviewManager/significantEvent(_:mayPrompt:)``, if it
    /// says (`policyc check --events` checks a policy against the same list). An event recorded under a
    /// name that neither this set nor the policy's `event` declarations name is logged once.
    public var eventNames: Set<String> = []

    /// The review schema with ``eventNames``: the bundled policy and updates are compiled against it,
    /// so once names are known an event name a policy reads outside them is an error (`PC217`).
    var schema: FactSchema { ReviewSchema.standard.recordingEvents(eventNames) }

    /// Creates a configuration.
    public init(
      appVersion: String, build: String? = nil, bundledPolicy: String, appName: String = "this app",
      store: any ReviewStore = JSONFileStore.standard(), clock: @escaping @Sendable () -> Date = { Date() },
      texts: PromptTexts = .defaults(forPreferredLanguages: Locale.preferredLanguages), reviewURL: URL? = nil,
      presenter: (any ReviewPresenter)? = nil, logger: (@Sendable (ReviewLogEntry) -> Void)? = nil,
      shouldCountUse: (@Sendable (UseKind) -> Bool)? = nil, scoreBounds: ClosedRange<Double>? = -200...200,
      alwaysAsk: Bool = false, legacySources: [LegacyImport.Source] = [],
      newVersionOn: NewVersionTrigger = .appVersion, promptTimeout: TimeInterval? = 600,
      promptLeftShowing: PromptLeftShowing = .dismissed, events: ReviewEvents = ReviewEvents(),
      guardrails: String? = nil
    ) {
      self.appVersion = appVersion
      self.build = build
      self.newVersionOn = newVersionOn
      self.bundledPolicy = bundledPolicy
      self.appName = appName
      self.store = store
      self.clock = clock
      self.texts = texts
      self.reviewURL = reviewURL
      self.presenter = presenter
      self.logger = logger
      self.shouldCountUse = shouldCountUse
      self.scoreBounds = scoreBounds
      self.alwaysAsk = alwaysAsk
      self.legacySources = legacySources
      self.promptTimeout = promptTimeout
      self.promptLeftShowing = promptLeftShowing
      self.events = events
      self.guardrails = guardrails
    }
  }

  /// What a prompt still on screen when the app left the foreground means.
  public enum PromptLeftShowing: String, Sendable, Hashable {
    /// Dismissed without an answer: asked, outcome unknown (``ReviewResponse/dismissed``).
    case dismissed
    /// Declined (``ReviewResponse/declined``), as Armchair records it on iOS.
    case declined

    /// The answer it records.
    public var response: ReviewResponse {
      switch self {
      case .dismissed: .dismissed
      case .declined: .declined
      }
    }
  }

  /// What starts a new version.
  public enum NewVersionTrigger: String, Sendable, Hashable {
    /// A new marketing version (`CFBundleShortVersionString`); new builds of it continue its counts.
    case appVersion
    /// A new marketing version or a new build (`CFBundleVersion`).
    case build
  }

  /// Which kind of use is about to be counted (for ``Configuration/shouldCountUse``).
  public enum UseKind: String, Sendable, Hashable {
    /// The app launched.
    case launch
    /// The app returned to the foreground.
    case foreground
  }

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

/// The policy a manager runs, with its fact binder.
struct ActivePolicy: Sendable {
  let compiled: CompiledPolicy
  let binder: ReviewFactBinder
  /// Where it came from and the fingerprint of its source, for the log.
  let identity: PolicyIdentity

  /// Where the policy came from.
  var origin: PolicyOrigin { identity.origin }

  init(_ compiled: CompiledPolicy, origin: PolicyOrigin, appVersion: String) {
    self.init(
      compiled, binder: ReviewFactBinder(policy: compiled, appVersion: appVersion),
      identity: PolicyIdentity(origin: origin, fingerprint: PolicyIdentity.fingerprint(of: compiled.source.bytes)))
  }

  private init(_ compiled: CompiledPolicy, binder: ReviewFactBinder, identity: PolicyIdentity) {
    self.compiled = compiled
    self.binder = binder
    self.identity = identity
  }

  /// The same policy bound for another app version.
  func with(appVersion: String) -> ActivePolicy {
    ActivePolicy(compiled, binder: binder.with(appVersion: appVersion), identity: identity)
  }
}

/// A stored policy update: its source and the fingerprint of the bundled policy it was received under.
struct StoredUpdate: Sendable, Hashable {
  var source: String
  var receivedUnder: String?

  init(source: String, receivedUnder: String?) {
    self.source = source
    self.receivedUnder = receivedUnder
  }

  /// The update stored in `state`; nil when there is none.
  init?(_ state: ReviewState) {
    guard let source = state.policySource else { return nil }
    self.init(source: source, receivedUnder: state.policyReceivedUnder)
  }
}

/// A stored policy update that stopped applying because the app ships another bundled policy
/// (see ``ReviewLogEntry/Event/policyStale``): the fingerprints involved.
public struct StalePolicyUpdate: Sendable, Hashable {
  /// The fingerprint of the stored update's source.
  public var update: String
  /// The fingerprint of the bundled policy the update was received under.
  public var receivedUnder: String
  /// The fingerprint of the bundled policy the app ships now, which runs instead.
  public var bundled: String
}

/// Where the running policy came from.
public enum PolicyOrigin: String, Sendable, Hashable {
  /// The policy bundled with the app.
  case bundled
  /// An update received with ``ReviewManager/updatePolicy(_:)`` (possibly in an earlier launch).
  case update
  /// The app's guardrails (``ReviewManager/Configuration/guardrails``), never the running policy.
  case guardrails
}

/// Why a manager could not be created.
public enum ReviewManagerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The bundled policy has errors (the rendered diagnostics). This is a bug in the app.
  case invalidBundledPolicy(String)
  /// The guardrails have errors or an `ask` rule (the rendered diagnostics). This is a bug in the app.
  case invalidGuardrails(String)

  /// A description with the diagnostics.
  public var description: String {
    switch self {
    case .invalidBundledPolicy(let diagnostics): "the bundled policy does not compile:\n\(diagnostics)"
    case .invalidGuardrails(let diagnostics): "the guardrails do not compile:\n\(diagnostics)"
    }
  }
}

/// The result of ``ReviewManager/updatePolicy(_:)``.
public struct PolicyUpdateResult: Sendable {
  /// Whether the update replaced the running policy.
  public var isAccepted: Bool
  /// The compiler's errors (when rejected) and warnings; the analyzer's are in ``warnings``.
  public var diagnostics: [Diagnostic]
  /// The diagnostics and the analyzer's warnings rendered as text, ready to log or show.
  public var renderedDiagnostics: String
  /// Every warning, ordered by position: the compiler's, then (for an update that compiles) the
  /// analyzer's, including the review etiquette (PC320 asks a user who declined or rated, PC321
  /// asks again within 7 days, PC322 asks after 3 prompts in 365 days). Warnings never reject.
  public var warnings: [Diagnostic]

  /// The errors that rejected the update (empty when accepted).
  public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}

/// A decision with its explanation.
public struct ReviewExplanation: Error, Sendable {
  /// The decision; nil when the facts could not be built (an app version that does not parse).
  public var decision: Decision?
  /// One line: ask or not, and why.
  public var summary: String
  /// Every rule and condition with the values seen (see ``ExplanationRenderer``).
  public var text: String
}

/// A decision without its explanation: what ``ReviewManager/currentDecision()`` returns.
public struct CurrentDecision: Sendable, Hashable {
  /// The decision; nil when the facts could not be built (an app version that does not parse).
  public var decision: Decision?
  /// The rules that decided, named as in explanations: `ask loyal` for a named rule, otherwise
  /// its label (for example `rule 2`); empty when no rule decided. When a guardrail forbade
  /// asking, the guardrail (`guardrail never answered`).
  public var decidingRules: [String]
  /// The guardrail that forbade a prompt the running policy asks for (`never answered`, or
  /// `guardrails` when they could not be evaluated); nil when none did.
  public var guardrail: String?

  /// Whether the policy asks.
  public var shouldAsk: Bool { decision?.shouldAsk ?? false }

  /// The decision of `policy`, with its deciding rules named, or the guardrail that decided.
  init(_ decision: Decision?, of policy: CompiledPolicy, guardrail: GuardrailBlock? = nil) {
    self.decision = decision
    if let guardrail {
      self.guardrail = guardrail.name
      decidingRules = ["guardrail \(guardrail.name)"]
      return
    }
    decidingRules =
      (decision?.decidingRules).map { rules in
        rules.map { index in
          let rule = policy.rules[index]
          return rule.name.map { "\(rule.kind.rawValue) \($0)" } ?? rule.label
        }
      } ?? []
  }
}

/// What a presenter is asked to show.
public struct PromptRequest: Sendable {
  /// The texts, with the app name filled in.
  public var texts: PromptTexts
  /// Where "rate" should take the user, if configured.
  public var reviewURL: URL?
  /// Why the policy asked.
  public var explanation: ReviewExplanation
  /// Whether ``ReviewManager/Configuration/alwaysAsk`` forced a prompt the policy did not ask for.
  public var isForced: Bool
}

/// Shows review prompts: a custom alert, or a system prompt such as StoreKit's.
///
/// Call `respond` once with the user's answer, while the prompt is on screen (see
/// ``ReviewManager/record(_:)``: a late answer is refused). A system prompt that never
/// reports back responds ``ReviewResponse/unknown``: asked, outcome unknown.
public protocol ReviewPresenter: Sendable {
  /// Shows the prompt described by `request`; called on the thread that triggered it.
  func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void)
}

/// A presenter built from a closure.
public struct ClosurePresenter: ReviewPresenter {
  private let body: @Sendable (PromptRequest, @escaping @Sendable (ReviewResponse) -> Void) -> Void

  /// Creates a presenter that calls `body`.
  public init(_ body: @escaping @Sendable (PromptRequest, @escaping @Sendable (ReviewResponse) -> Void) -> Void) {
    self.body = body
  }

  /// Calls the closure.
  public func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
    body(request, respond)
  }
}

/// One entry for the logger: a decision with its explanation, or a problem.
public struct ReviewLogEntry: Sendable {
  /// What happened.
  public enum Event: String, Sendable, Hashable {
    /// A launch was counted (or vetoed).
    case launch
    /// A return to the foreground was counted (or vetoed).
    case foreground
    /// A session started.
    case sessionStart
    /// A session ended.
    case sessionEnd
    /// A significant event, with a prompt check.
    case significantEvent
    /// An action, with a prompt check.
    case action
    /// An explicit prompt check.
    case promptCheck
    /// A response was recorded (an answer, or a prompt closed as outcome unknown).
    case response
    /// A prompt was shown (after the decision entry that asked).
    case promptShown
    /// A policy update was accepted.
    case policyUpdated
    /// A policy update was rejected.
    case policyRejected
    /// ``ReviewManager/resetPolicy()`` went back to the bundled policy.
    case policyReset
    /// The stored policy update stopped applying: it was received under another bundled policy
    /// (the fingerprints are in ``ReviewLogEntry/staleUpdate``).
    case policyStale
    /// ``ReviewManager/reset()`` forgot everything tracked.
    case reset
    /// ``ReviewManager/setFact(_:_:)`` set or removed an app fact (named in ``ReviewLogEntry/name``).
    case factSet
    /// An app fact the policy declares without a default has not been set (named in
    /// ``ReviewLogEntry/name``): a policy that reads it never asks. Reported once per fact.
    case unsetFact
    /// A problem: unusable stored state, a failed save, a stored policy that no longer compiles.
    case problem
  }

  /// What happened.
  public var event: Event
  /// When.
  public var date: Date
  /// One line.
  public var summary: String
  /// The full explanation or diagnostics, if any.
  public var details: String = ""
  /// The decision, for decision entries.
  public var decision: Decision?
  /// Whether this entry is a prompt check's decision (its ``decision`` is nil when the facts could
  /// not be built); other entries record a call, an answer, a prompt shown or a problem.
  public var isDecision = false
  /// The policy that decided (decision entries), was accepted (``Event/policyUpdated``), runs after a
  /// reset or a stale update (``Event/policyReset``, ``Event/policyStale``), or reads an unset fact.
  public var policy: PolicyIdentity?
  /// What the entry is about, by name: the app fact of ``Event/factSet`` and ``Event/unsetFact``.
  public var name: String?
  /// The answer recorded, for ``Event/response`` entries.
  public var response: ReviewResponse?
  /// The diagnostics of a policy update (``Event/policyUpdated``, ``Event/policyRejected``):
  /// errors, warnings and the analyzer's warnings.
  public var diagnostics: [Diagnostic] = []
  /// The fingerprints of a stale update, for ``Event/policyStale`` entries.
  public var staleUpdate: StalePolicyUpdate?

  /// An entry for an event.
  public init(
    event: Event, date: Date, summary: String, details: String = "", decision: Decision? = nil,
    isDecision: Bool = false
  ) {
    self.event = event
    self.date = date
    self.summary = summary
    self.details = details
    self.decision = decision
    self.isDecision = isDecision
  }

  /// A ``Event/problem`` entry.
  init(problem: String, date: Date) {
    self.init(event: .problem, date: date, summary: problem)
  }
}

/// Delegate-style callbacks for analytics, called after the locks are released on the calling
/// thread: a prompt shown, then its answer (a prompt closed unanswered calls ``unknown``).
public struct ReviewEvents: Sendable {
  /// A prompt is about to be presented.
  public var shown: (@Sendable (PromptRequest) -> Void)?
  /// The user chose to rate.
  public var rated: (@Sendable () -> Void)?
  /// The user chose "no thanks" (or the prompt was left showing, configured as declined).
  public var declined: (@Sendable () -> Void)?
  /// The user chose "remind me later".
  public var remindLater: (@Sendable () -> Void)?
  /// The user chose to give feedback.
  public var feedback: (@Sendable () -> Void)?
  /// Asked, outcome unknown: a system prompt's `.unknown`, a dismissal, or a prompt closed
  /// unanswered by a launch or a return to the foreground.
  public var unknown: (@Sendable () -> Void)?

  /// Creates callbacks; each is optional.
  public init(
    shown: (@Sendable (PromptRequest) -> Void)? = nil, rated: (@Sendable () -> Void)? = nil,
    declined: (@Sendable () -> Void)? = nil, remindLater: (@Sendable () -> Void)? = nil,
    feedback: (@Sendable () -> Void)? = nil, unknown: (@Sendable () -> Void)? = nil
  ) {
    self.shown = shown
    self.rated = rated
    self.declined = declined
    self.remindLater = remindLater
    self.feedback = feedback
    self.unknown = unknown
  }

  /// Calls the callback of `response`.
  func answered(_ response: ReviewResponse) {
    switch response {
    case .rated: rated?()
    case .declined: declined?()
    case .remindLater: remindLater?()
    case .feedback: feedback?()
    case .dismissed, .unknown: unknown?()
    }
  }
}

extension Timestamp {
  /// The instant of `date`, to the millisecond (clamped to the representable range).
  public init(_ date: Date) {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    if milliseconds.isNaN {
      self.init(millisecondsSince1970: 0)
    } else if milliseconds >= 9.2e18 {
      self.init(millisecondsSince1970: .max)
    } else if milliseconds <= -9.2e18 {
      self.init(millisecondsSince1970: .min)
    } else {
      self.init(millisecondsSince1970: Int64(milliseconds))
    }
  }
}

extension Date {
  /// The date of an instant.
  public init(_ timestamp: Timestamp) {
    self.init(timeIntervalSince1970: Double(timestamp.millisecondsSince1970) / 1000)
  }
}

/// Notification observers registered by ``ReviewManager/observeLifecycle(of:launch:foreground:)``.
public final class LifecycleObservation: @unchecked Sendable {
  // @unchecked: `tokens` is only changed under `lock`.
  private let lock = NSLock()
  private let center: NotificationCenter
  private var tokens: [any NSObjectProtocol]

  init(center: NotificationCenter, tokens: [any NSObjectProtocol]) {
    self.center = center
    self.tokens = tokens
  }

  /// Stops observing.
  public func cancel() {
    lock.lock()
    let removed = tokens
    tokens = []
    lock.unlock()
    for token in removed { center.removeObserver(token) }
  }

  deinit {
    for token in tokens { center.removeObserver(token) }
  }
}
