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
  // @unchecked: the `var`s below are only touched while holding `lock`; the `let`s are immutable.
  let lock = NSLock()
  /// The pure core: state, running policy, guardrails and app facts.
  var tracker: ReviewTracker
  /// Each call's transaction on the store, and what reconciling remembers between calls.
  var transaction: StoreTransaction
  /// The prompt asked for last, until it is answered or reported not presented (see ``PromptTicket``).
  var ticket: PromptTicket?
  /// The reason of the last "not presented" logged: the same reason again is not logged again
  /// until a prompt is shown (one entry per episode).
  var notPresentedEpisode: String?
  /// ``Configuration/promptTimeout`` as a span.
  let promptTimeout: TimeSpan?
  /// The app facts reported as unset (each once per manager, at most ``reportedUnsetFactsLimit`` by name).
  private var reportedUnsetFacts: Set<String> = []
  /// The tracker's ``ReviewTracker/unsetFactsGeneration`` last reported: a call looks at the unset
  /// facts only when it changed (no scan per call).
  private var reportedUnsetGeneration: Int?
  /// How many unset app facts are reported by name; more are reported as a count.
  static let reportedUnsetFactsLimit = 64
  /// Event names already logged as undeclared, so each is logged once.
  private var loggedUndeclaredEvents = Set<String>()
  /// Everything the manager was configured with.
  let configuration: Configuration
  /// The bundled policy, the guardrails and how updates are compiled.
  let policies: PolicyLifecycle
  /// The app's phases as the lifecycle hookups report them (see ``ScenePhaseTracker``).
  let phases = LockedScenePhaseTracker()

  /// Creates a manager: loads the state, imports the legacy sources not imported yet (stored by the
  /// first call), compiles the guardrails, and compiles the last good policy update received under
  /// this bundled policy, or else the bundled policy.
  ///
  /// - Throws: ``ReviewManagerError/invalidBundledPolicy(_:)`` when the bundled policy does not
  ///   compile, ``ReviewManagerError/invalidGuardrails(_:)`` when the guardrails do not.
  public init(configuration: Configuration) throws(ReviewManagerError) {
    self.configuration = configuration
    let policies = try PolicyLifecycle(
      bundledPolicy: configuration.bundledPolicy, guardrails: configuration.guardrails,
      environment: configuration.environment, updateAnalysis: configuration.updateAnalysis)
    self.policies = policies
    let now = Timestamp(configuration.clock())
    var problems: [ReviewLogEntry] = []
    var transaction = StoreTransaction(
      store: configuration.store, policies: policies, legacySources: configuration.legacySources, adopted: nil)
    let state = transaction.initialState(
      at: now, appVersion: configuration.appVersion, build: configuration.build, notes: &problems)
    let policy = policies.policy(
      for: state, appVersion: configuration.appVersion, date: configuration.clock(), notes: &problems)
    transaction.adoptedUpdate = StoredUpdate(state)
    self.transaction = transaction
    tracker = ReviewTracker(
      active: policy, appVersion: configuration.appVersion, state: state,
      scoreBounds: ReviewTracker.numberBounds(configuration.scoreBounds))
    tracker.guardrails = policies.guardrailPolicy(appVersion: configuration.appVersion)
    tracker.move(to: configuration.appVersion, build: configuration.build)
    tracker.newVersionOnBuild = configuration.newVersionOn == .build
    promptTimeout = Configuration.timeSpan(configuration.promptTimeout)
    // A presenter's prompt waits for the presenter's answer; the timeout closes only a prompt
    // handed to the app without a presenter (its answer may never come). An extension shows
    // none, and leaves the app's prompt to the app.
    tracker.promptTimeout = configuration.presenter == nil && configuration.process == .app ? promptTimeout : nil
    for problem in problems { log(problem) }
  }

  // MARK: - Tracking

  /// Counts a launch (unless ``Configuration/shouldCountUse`` vetoes it). Never prompts. A prompt
  /// still waiting for its answer (the app was killed with it on screen) is recorded as "asked,
  /// outcome unknown", and nothing is on screen any more: call it once per process, at launch (a
  /// launch reported later, while the app's own alert is up, makes the manager take that alert as
  /// gone, so a later check may ask while it is still on screen). The session in progress ends: call ``sessionStarted()`` after this, and
  /// actions logged with no session started go into an uncounted default session, as in ReviewKit.
  public func appLaunched() {
    countUse(.launch)
  }

  /// Counts a return to the foreground (unless vetoed). Never prompts. A prompt still waiting for
  /// its answer is recorded as "asked, outcome unknown" (report a prompt left on screen first with
  /// ``appLeftForegroundWithPromptShowing()`` to record what the configuration says instead); the
  /// user's answer, if the prompt is still up and answered later, is still recorded.
  public func appEnteredForeground() {
    countUse(.foreground)
  }

  private func countUse(_ kind: UseKind) {
    let counts = configuration.shouldCountUse?(kind) ?? true
    var closed = false
    _ = perform(
      kind == .launch ? .launch : .foreground, prompting: false,
      note: "\(kind.rawValue)" + (counts ? " counted" : " not counted (vetoed)"), details: EntryDetails(counted: counts)
    ) { tracker, now in
      closed =
        kind == .launch
        ? tracker.launch(at: now, countingUse: counts) : tracker.appear(at: now, countingUse: counts)
      // A launch is a new process: nothing it did not show is on screen.
      if kind == .launch { ticket = nil }
    }
    if closed { answered(.unknown, note: "prompt left unanswered: outcome unknown (closed by the \(kind.rawValue))") }
  }

  /// Reports that the app left the foreground with the prompt still on screen: it is recorded as
  /// ``Configuration/promptLeftShowing`` says (dismissed by default, or declined as Armchair does
  /// on iOS), however long it has been showing. Call it from the app's "did enter background"
  /// handler when its own alert was up; it does nothing when no prompt is showing. After
  /// "dismissed", the user's answer, if the alert is still up and answered later, is recorded.
  ///
  /// - Returns: Whether a prompt was showing.
  @discardableResult
  public func appLeftForegroundWithPromptShowing() -> Bool {
    var closed = false
    let meaning = configuration.promptLeftShowing.response
    _ = perform(.response, prompting: false, note: nil) { tracker, now in
      if let ticket, !ticket.isForced, ticket.phase == .shown, let shownAt = ticket.shownAt {
        // The prompt this manager showed, however long ago: its own record, whatever closed it since.
        closed = (try? tracker.answer(meaning, toPromptShownAt: shownAt, at: now).get()) != nil
        if closed {
          // Dismissed: the user's answer may still come (and is recorded); declined is an answer.
          ticket.phase = meaning == .dismissed ? .closed : .answered
          if meaning != .dismissed { self.ticket = nil }
        }
      } else {
        closed = tracker.leaveForegroundWithPromptShowing(at: now, meaning: meaning)
      }
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
      .significantEvent, prompting: mayPrompt, note: "significant event" + (name.map { " `\($0)`" } ?? ""),
      details: EntryDetails(name: name)
    ) { tracker, now in
      tracker.countEvent(named: name, at: now)
      // Under the lock: the policy running now (its names as a set, built when it changed), and the
      // names logged so far.
      let declared = tracker.declaredEvents
      if let name, !(declared.isEmpty && configuration.eventNames.isEmpty), !declared.contains(name),
        !configuration.eventNames.contains(name)
      {
        undeclared = loggedUndeclaredEvents.insert(name).inserted
      }
    }
    if undeclared, let name { log(ManagerMessages.undeclaredEvent(name, date: configuration.clock())) }
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
    perform(
      .action, prompting: mayPrompt, note: "action scored \(score)" + (isBad ? ", bad" : ""),
      details: EntryDetails(score: score, isBad: isBad)
    ) { tracker, now in
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

  /// Records the user's answer to the prompt this manager asked for last (a presenter's reply
  /// records its answers itself), however late it comes: a prompt closed without an answer since
  /// (by its timeout, a return to the foreground, or the app leaving with it showing, recorded as
  /// dismissed) takes it as its outcome.
  ///
  /// An answer with no such prompt (none was shown since the launch, or it was answered already)
  /// is refused: nothing is recorded, the error is returned and logged as a problem. For an answer
  /// given outside a prompt (a "Rate this app" row in settings), use ``recordWithoutPrompt(_:)``.
  @discardableResult
  public func record(_ response: ReviewResponse) -> Result<Void, PromptAnswerError> {
    lock.lock()
    let open = ticket.flatMap { $0.isForced ? nil : $0 }
    lock.unlock()
    if let open {
      switch receive(.answered(response), for: open) {
      case .recorded(_, let result): return result
      case .ignored, .shown, .notPresented, .forced: break
      }
    }
    var result: Result<Void, PromptAnswerError> = .success(())
    _ = perform(.response, prompting: false, note: nil) { tracker, now in result = tracker.record(response, at: now) }
    switch result {
    case .success: answered(response, note: "answer: \(response.rawValue)")
    case .failure(let error): log(ManagerMessages.answerRefused(error, date: configuration.clock()))
    }
    return result
  }

  /// Records an answer the user gave outside any prompt, such as a "Rate this app" row in the
  /// app's settings: `rated`, `declined` and the other answer facts are set as for a prompt's answer.
  public func recordWithoutPrompt(_ response: ReviewResponse) {
    _ = perform(.response, prompting: false, note: nil) { tracker, now in tracker.recordWithoutPrompt(response, at: now)
    }
    answered(response, note: "answer outside a prompt: \(response.rawValue)", outsidePrompt: true)
  }

  // MARK: - App facts and policy updates

  /// Sets an app-specific fact that policies declare (`fact plan: string`); nil removes it.
  ///
  /// Names of standard facts are ignored: those come from the tracked state.
  public func setFact(_ name: String, _ value: Value?) {
    withTracker { $0.setFact(name, value) }
    guard configuration.wantsEntries else { return }
    log(ManagerMessages.factSet(name, value, date: configuration.clock()))
  }

  /// Replaces the running policy with `source` if it compiles against the review schema.
  ///
  /// On any error the running policy stays and the diagnostics are returned; on success the
  /// source is stored with the fingerprint of the bundled policy it was received under, and runs
  /// in later launches as long as the app ships that bundled policy. The result carries every
  /// warning (``PolicyUpdateResult/warnings``): the compiler's and, for an update that compiles,
  /// the analyzer's (rules that never hold, and the review etiquette of ``PolicyEnvironment/checks``, such
  /// as asking a user who declined); an accepted update is logged with them. The
  /// ``Configuration/guardrails`` hold whatever it says.
  @discardableResult
  public func updatePolicy(_ source: String) -> PolicyUpdateResult {
    switch policies.review(update: source, appVersion: configuration.appVersion) {
    case .rejected(let compilation):
      let rendered = DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source)
      log(ManagerMessages.updateRejected(compilation.diagnostics, rendered: rendered, date: configuration.clock()))
      return PolicyUpdateResult(
        isAccepted: false, diagnostics: compilation.diagnostics, renderedDiagnostics: rendered,
        warnings: compilation.diagnostics.filter { $0.severity == .warning })
    case .accepted(let active, let compilation, let all):
      let rendered = DiagnosticRenderer().render(all, in: compilation.source)
      let received = StoredUpdate(source: source, receivedUnder: policies.bundledIdentity.fingerprint)
      run(changingPolicy: true) { tracker in
        tracker.active = active.with(appVersion: tracker.appVersion)
        tracker.state.policySource = received.source
        tracker.state.policyReceivedUnder = received.receivedUnder
      }
      log(ManagerMessages.updateAccepted(active.identity, all, rendered: rendered, date: configuration.clock()))
      return PolicyUpdateResult(
        isAccepted: true, diagnostics: compilation.diagnostics, renderedDiagnostics: rendered,
        warnings: all.filter { $0.severity == .warning || $0.code == .neverAsks })
    }
  }

  /// Goes back to the bundled policy and forgets the stored update.
  public func resetPolicy() {
    run(changingPolicy: true) { tracker in
      tracker.active = self.policies.bundledPolicy(appVersion: tracker.appVersion)
      tracker.state.policySource = nil
      tracker.state.policyReceivedUnder = nil
    }
    log(ManagerMessages.policyReset(policies.bundledIdentity, date: configuration.clock()))
  }

  // MARK: - Versions and reset

  /// Moves the manager to another app version (and build) without making a new manager: for tests
  /// and for processes that outlive an update. The new version's counts start at the next call.
  public func setAppVersion(_ appVersion: String, build: String? = nil) {
    withTracker { $0.move(to: appVersion, build: build) }
  }

  /// The app version the manager records under (see ``setAppVersion(_:build:)``).
  public var appVersion: String { snapshot().appVersion }

  /// Forgets everything tracked about this install, in the store too, as a new install: for
  /// testing, and for a user's "forget me". When it returns, the store holds nothing recorded
  /// before (``ReviewStore/reset(_:)``: ``JSONFileStore`` rewrites its state file and removes its
  /// journal, the copies of unusable data it kept aside and the temporary files of killed saves).
  /// The stored policy update stays (it is the app's configuration, not the user's data), and
  /// legacy managers already imported are not imported again (their own keys are the app's to
  /// delete).
  public func reset() {
    let now = Timestamp(configuration.clock())
    lock.lock()
    let report = transaction.run(&tracker, at: now, entering: false, mustSave: true, erasing: true) {
      $0.state.reset()
    }
    lock.unlock()
    logProblems(report.problems)
    log(ManagerMessages.stateReset(date: Date(now)))
  }

  // MARK: - Core

  /// The tracker as it is now (a copy, taken under the lock): for reading without recording.
  func snapshot() -> ReviewTracker {
    lock.lock()
    defer { lock.unlock() }
    return tracker
  }

  /// Changes the tracker under the lock, without a store transaction.
  private func withTracker(_ change: (inout ReviewTracker) -> Void) {
    lock.lock()
    change(&tracker)
    lock.unlock()
  }

  /// A transaction that does not enter the app version (policy changes, reset), then its problems
  /// logged. With `changingPolicy`, the operation stored or removed the policy update the tracker
  /// now runs: the transaction takes it as adopted.
  private func run(
    at now: Timestamp? = nil, mustSave: Bool = false, changingPolicy: Bool = false,
    _ operation: (inout ReviewTracker) -> Void
  ) {
    lock.lock()
    let report = transaction.run(
      &tracker, at: now ?? Timestamp(configuration.clock()), entering: false, mustSave: mustSave, operation)
    if changingPolicy { transaction.adoptedUpdate = StoredUpdate(tracker.state) }
    lock.unlock()
    logProblems(report.problems)
  }

  /// Logs an answer recorded (a `.response` entry) and calls its callback.
  func answered(_ response: ReviewResponse, note: String, outsidePrompt: Bool = false) {
    if configuration.wantsEntries {
      var entry = ManagerMessages.answered(response, note: note, date: configuration.clock())
      entry.isOutsidePrompt = outsidePrompt
      log(entry)
    }
    configuration.events.answered(response)
  }

  /// Applies `change` under the lock, decides if `prompting`, saves, then logs and presents.
  ///
  /// Every call reaches the logger: a deciding call with its decision, any other with `note`
  /// (nil: the caller logs).
  /// `present`, if given, receives the request and its ticket instead of the presenter.
  func perform(
    _ trigger: ReviewLogEntry.Event, prompting: Bool, note: @autoclosure () -> String?,
    details: EntryDetails = EntryDetails(),
    presenting present: ((PromptRequest, PromptTicket) -> Void)? = nil,
    _ change: (inout ReviewTracker, Timestamp) -> Void
  ) -> Bool {
    let now = Timestamp(configuration.clock())
    var entry: ReviewLogEntry?
    var request: PromptRequest?
    var asked: PromptTicket?
    var extensionWouldAsk = false
    var notPresented: String?
    var unset: [(name: String, type: PolicyType)] = []
    var moreUnset = 0
    var policy = policies.bundledIdentity
    var deciding: (policy: CompiledPolicy, seed: Int64?)?
    lock.lock()
    // A presenter that reported nothing within the timeout: its prompt was not presented.
    if prompting, let ticket, ticket.isSilent(at: now, timeout: promptTimeout) {
      ticket.phase = .notPresented
      self.ticket = nil
      notPresented = notPresentedEpisode(ManagerMessages.presenterSilent)
    }
    let inFlight = ticket?.isShowing(at: now, timeout: promptTimeout) ?? false
    let report = transaction.run(&tracker, at: now, entering: true) { tracker in
      change(&tracker, now)
      if prompting {
        (request, entry, asked, extensionWouldAsk) = decide(trigger, now, &tracker, promptInFlight: inFlight)
      }
    }
    if let asked, !asked.isForced { ticket = asked }
    if extensionWouldAsk {
      notPresented = notPresentedEpisode(ManagerMessages.extensionNeverPrompts)
    }
    if prompting, configuration.wantsEntries {
      policy = tracker.active.identity
      if entry != nil { deciding = (tracker.active.compiled, tracker.installSeed) }
      // Reported once per fact, looked at only when the unset facts changed: a policy that reads an
      // app fact nobody sets never asks.
      if reportedUnsetGeneration != tracker.unsetFactsGeneration {
        reportedUnsetGeneration = tracker.unsetFactsGeneration
        for fact in tracker.unsetAppFacts where !reportedUnsetFacts.contains(fact.name) {
          if reportedUnsetFacts.count < Self.reportedUnsetFactsLimit {
            reportedUnsetFacts.insert(fact.name)
            unset.append(fact)
          } else {
            moreUnset += 1
          }
        }
      }
    }
    lock.unlock()
    logProblems(report.problems)
    for (name, type) in unset { log(ManagerMessages.unsetFact(name, type, policy: policy, date: Date(now))) }
    if moreUnset > 0 { log(ManagerMessages.moreUnsetFacts(moreUnset, policy: policy, date: Date(now))) }
    if report.closedTimedOutPrompt { answered(.unknown, note: "prompt left unanswered: outcome unknown (timed out)") }
    if var entry {
      entry.policy = policy
      details.apply(to: &entry)
      if let deciding, let decision = entry.decision {
        let rules = deciding.policy.rules
        entry.decidingRuleNames = decision.decidingRules.compactMap { index in
          rules.indices.contains(index) ? rules[index].name ?? rules[index].label : nil
        }
        for name in deciding.policy.bucketNames {
          entry.buckets[name] = Bucket.value(seed: UInt64(bitPattern: deciding.seed ?? 0), name: name)
        }
        if !deciding.policy.bucketNames.isEmpty { entry.bucketSeed = deciding.seed }
      }
      log(entry)
    } else if !prompting, configuration.wantsEntries, let note = note() {
      var entry = ReviewLogEntry(event: trigger, date: Date(now), summary: note)
      details.apply(to: &entry)
      log(entry)
    }
    if let notPresented { log(ManagerMessages.promptNotPresented(notPresented, date: Date(now))) }
    guard let request, let asked else { return false }
    if let present {
      if !asked.hasPresenter { announceShown(request, forced: asked.isForced) }
      present(request, asked)
    } else if let presenter = configuration.presenter {
      // Recorded when the presenter reports it shown or answered (an answer to a forced debug
      // prompt is never recorded: it would mark the user rated or declined).
      presenter.present(request, reply: PromptReply { [weak self] report in _ = self?.receive(report, for: asked) })
    } else {
      announceShown(request, forced: asked.isForced)
    }
    return true
  }

  /// Logs a prompt shown and calls the `shown` callback.
  func announceShown(_ request: PromptRequest, forced: Bool) {
    log(ManagerMessages.promptShown(forced: forced, date: configuration.clock()))
    configuration.events.shown?(request)
  }

  /// `reason`, if it starts a new episode of prompts not presented (it is then logged), else nil.
  /// Called under the lock.
  func notPresentedEpisode(_ reason: String) -> String? {
    guard notPresentedEpisode != reason else { return nil }
    notPresentedEpisode = reason
    return reason
  }

  /// Decides under the lock through the tracker's one decision path; returns the request to
  /// present, the log entry and the new prompt's ticket. A prompt handed to a presenter is recorded
  /// when the presenter reports it shown; one handed to the app without a presenter is recorded now;
  /// an app extension asks for nothing. The explanation (which allocates) is built only when a
  /// logger or a prompt will use it.
  private func decide(
    _ trigger: ReviewLogEntry.Event, _ now: Timestamp, _ tracker: inout ReviewTracker, promptInFlight: Bool
  ) -> (PromptRequest?, ReviewLogEntry?, PromptTicket?, extensionWouldAsk: Bool) {
    let forced = configuration.alwaysAsk
    let wantsLog = configuration.wantsEntries
    let isExtension = configuration.process == .appExtension
    let hasPresenter = configuration.presenter != nil
    let check = tracker.checkPrompt(
      at: now, forced: forced, explaining: wantsLog ? .always : .whenAsking,
      recordingPrompt: !hasPresenter && !isExtension, promptInFlight: promptInFlight)
    guard var explanation = check.explanation else { return (nil, nil, nil, false) }
    if isExtension {
      // Decides and logs, never asks: an extension has no window to show a prompt in.
      guard check.asks else {
        return (
          nil, wantsLog ? ManagerMessages.decision(trigger, explanation, forced: false, date: Date(now)) : nil, nil,
          false
        )
      }
      explanation.summary = ManagerMessages.extensionNeverPrompts + "; " + explanation.summary
      return (nil, ManagerMessages.decision(trigger, explanation, forced: false, date: Date(now)), nil, true)
    }
    let entry = ManagerMessages.decision(trigger, explanation, forced: forced && !check.asks, date: Date(now))
    guard check.asks || forced else { return (nil, wantsLog ? entry : nil, nil, false) }
    let request = PromptRequest(
      texts: configuration.texts.resolved(appName: configuration.appName), reviewURL: configuration.reviewURL,
      explanation: explanation, isForced: forced && !check.asks)
    let ticket = PromptTicket(
      requestedAt: now, hasPresenter: hasPresenter, isForced: forced, request: request,
      phase: hasPresenter ? .requested : .shown,
      shownAt: hasPresenter || forced ? nil : tracker.state.promptHistory.last?.date)
    return (request, wantsLog ? entry : nil, ticket, false)
  }

  func logProblems(_ problems: [ReviewLogEntry]) {
    for problem in problems { log(problem) }
  }

  /// Gives `entry` to the logger, bounded in size (``ReviewLogEntry/bounded()``), and its record
  /// to the recorder.
  func log(_ entry: ReviewLogEntry) {
    configuration.logger?(entry.bounded())
    if let recorder = configuration.recorder {
      let record = ReviewRecord(
        entry, install: recordInstall(), appVersion: configuration.appVersion, build: configuration.build)
      recorder(record.data)
    }
  }

  /// This install's record identifier (``ReviewState/recordInstall``), drawn and saved the first time.
  private func recordInstall() -> String {
    lock.lock()
    defer { lock.unlock() }
    if let install = tracker.state.recordInstall { return install }
    let drawn = ReviewRecord.newInstall()
    let now = Timestamp(configuration.clock())
    _ = transaction.run(&tracker, at: now, entering: false) { tracker in
      if tracker.state.recordInstall == nil { tracker.state.recordInstall = drawn }
    }
    return tracker.state.recordInstall ?? drawn
  }
}
