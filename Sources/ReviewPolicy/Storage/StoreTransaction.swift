import Foundation
import PolicyCore

/// A manager's calls as transactions on its store: each call loads the state stored now,
/// reconciles it with the state in memory, adopts the policy update it holds, imports legacy
/// sources not imported yet, applies the call and saves, all inside one ``ReviewStore/update(_:)``.
///
/// Remembers across calls only what reconciling needs: whether the last save failed (the state in
/// memory is then ahead of the store), whether the store was ever read or written (a store that
/// then answers with less lost it), whether a loss is being reported (one report per episode),
/// and which stored update runs. A value, kept under the manager's lock.
struct StoreTransaction: Sendable {
  /// Where the state lives.
  let store: any ReviewStore
  /// The policies: a stored update another manager wrote is adopted through them.
  let policies: PolicyLifecycle
  /// The legacy managers to import, each once.
  let legacySources: [any LegacyStateImporter]
  /// Whether the last save failed: the tracker's state is then ahead of the store, and the next
  /// call saves it (even one that changes nothing) instead of reading the store.
  private var isUnsaved = false
  /// Whether a transaction has read or saved the store: the tracker's state is then what the store
  /// held, and a store that answers with less lost it (deleted, corrupted or replaced since).
  private var knowsStoredState = false
  /// Whether the stored state was found lost and restored from memory, with no clean load since
  /// (one report per episode, however many calls find it lost again).
  private var isRestoringStore = false
  /// The stored update (its source and the fingerprint of the bundled policy it was received
  /// under) last looked at: a change in the store makes the transaction look again.
  var adoptedUpdate: StoredUpdate?

  /// What one transaction reports, for the manager to log after unlocking.
  struct Report {
    /// Problems: a lost or unusable stored state, a failed save, a stored update that does not apply.
    var problems: [ReviewLogEntry] = []
    /// Whether entering closed a prompt whose timeout passed (logged and called back as an answer).
    var closedTimedOutPrompt = false
  }

  /// Transactions on `store`, adopting updates through `policies`; `adopted` is the stored update
  /// the tracker already runs (read at init).
  init(
    store: any ReviewStore, policies: PolicyLifecycle, legacySources: [any LegacyStateImporter], adopted: StoredUpdate?
  ) {
    self.store = store
    self.policies = policies
    self.legacySources = legacySources
    self.adoptedUpdate = adopted
  }

  /// The state a new manager starts from: the stored state (or a fresh one, with the problem noted),
  /// with the legacy sources imported (stored by the first transaction, which imports again into
  /// the state stored then).
  func initialState(at now: Timestamp, appVersion: String, build: String?, notes: inout [ReviewLogEntry])
    -> ReviewState
  {
    var state: ReviewState
    switch store.load() {
    case .empty:
      state = ReviewState()
    case .loaded(let loaded):
      state = loaded
    case .recovered(let fresh, let problem):
      state = fresh
      notes.append(ManagerMessages.problem(problem.description, date: Date(now)))
    }
    _ = StoreTransaction.importLegacy(legacySources, into: &state, at: now, appVersion: appVersion, build: build)
    return state
  }

  /// Runs one transaction at `now`: takes the state stored now (or, after a failed save, the state
  /// in memory, which is ahead of the store), imports legacy sources not yet imported, brings it to
  /// the app version if `entering`, applies `operation`, and saves when anything changed (always
  /// with `mustSave`). With `erasing`, the store then keeps nothing earlier than the state saved
  /// (``ReviewStore/reset(_:)``: a reset).
  mutating func run(
    _ tracker: inout ReviewTracker, at now: Timestamp, entering: Bool, mustSave: Bool = false, erasing: Bool = false,
    _ operation: (inout ReviewTracker) -> Void
  ) -> Report {
    withoutActuallyEscaping(operation) { operation in
      run(
        &tracker, at: now, entering: entering, mustSave: mustSave, erasing: erasing, Operation(apply: operation))
    }
  }

  /// A transaction's operation, wrapped: the optimizer copies a function for each closure passed
  /// to it directly, and the seven manager calls that run transactions each had their own 5 KB
  /// copy of the transaction in every app; through this wrapper they share one.
  struct Operation {
    /// Applies the operation to the tracker.
    let apply: (inout ReviewTracker) -> Void
  }

  /// ``run(_:at:entering:mustSave:erasing:_:)`` with its operation wrapped.
  @inline(never)
  private mutating func run(
    _ tracker: inout ReviewTracker, at now: Timestamp, entering: Bool, mustSave: Bool, erasing: Bool,
    _ operation: Operation
  ) -> Report {
    var report = Report()
    var ran = false
    // One report per fault episode: when saving starts failing and when it works again, not per call.
    let wasUnsaved = isUnsaved
    do {
      let body = { (loaded: StoreLoadResult) -> ReviewState? in
        ran = true
        return apply(loaded, to: &tracker, at: now, entering: entering, mustSave: mustSave, &report, operation.apply)
      }
      if erasing { try store.reset(body) } else { try store.update(body) }
      isUnsaved = false
      knowsStoredState = true
      if wasUnsaved { report.problems.append(ManagerMessages.savedAgain(date: Date(now))) }
    } catch {
      if !ran {
        _ = apply(nil, to: &tracker, at: now, entering: entering, mustSave: mustSave, &report, operation.apply)
      }
      isUnsaved = true
      if !wasUnsaved { report.problems.append(ManagerMessages.cannotSave(error.detail, date: Date(now))) }
    }
    return report
  }

  /// The body of a transaction: `loaded` is what the store holds (nil when the store could not be
  /// read); returns the state to save, or nil when nothing changed.
  private mutating func apply(
    _ loaded: StoreLoadResult?, to tracker: inout ReviewTracker, at now: Timestamp, entering: Bool, mustSave: Bool,
    _ report: inout Report, _ operation: (inout ReviewTracker) -> Void
  ) -> ReviewState? {
    var needsSave = isUnsaved || mustSave
    if !isUnsaved, let loaded {
      needsSave = reconcile(loaded, into: &tracker, at: now, &report.problems) || needsSave
      if StoredUpdate(tracker.state) != adoptedUpdate { adoptStoredPolicy(&tracker, at: now, &report.problems) }
    }
    if !legacySources.isEmpty
      && StoreTransaction.importLegacy(
        legacySources, into: &tracker.state, at: now, appVersion: tracker.appVersion, build: tracker.build)
    {
      needsSave = true
    }
    let before = tracker.state
    if entering {
      let wasPending = tracker.state.promptHistory.last?.outcome == .pending
      tracker.enter(at: now)
      report.closedTimedOutPrompt = wasPending && tracker.state.promptHistory.last?.outcome == .unknown
    }
    operation(&tracker)
    // A prompt check that asks nothing changes nothing: no write (the store already holds it).
    // A clock high-water mark that only moved forward is not a change worth a write: the mark
    // stored is then the clock at the last call that recorded something (docs/facts.md, "Clocks").
    var compared = tracker.state
    compared.clockHighWater = before.clockHighWater
    guard needsSave || compared != before else {
      tracker.state = compared  // as stored
      return nil
    }
    return tracker.state
  }

  /// Takes the stored state into the tracker; returns whether it must be saved. A stored state lost
  /// since the last call (deleted, replaced by an older copy, unusable) is merged with the one in
  /// memory, and reported once per episode.
  private mutating func reconcile(
    _ loaded: StoreLoadResult, into tracker: inout ReviewTracker, at now: Timestamp, _ problems: inout [ReviewLogEntry]
  ) -> Bool {
    func restore(from stored: ReviewState, _ what: String, always: Bool = false) -> Bool {
      let merged = tracker.state.merged(with: stored)
      if !isRestoringStore && (always || merged != stored) {
        problems.append(ManagerMessages.restored(what, counts: stored.restoredCount(in: merged), date: Date(now)))
      }
      isRestoringStore = true
      tracker.state = merged
      return true
    }
    switch loaded {
    case .loaded(let state) where knowsStoredState && state.isBehind(tracker.state):
      return restore(from: state, "the stored review state was replaced by an older copy since the last call")
    case .loaded(let state):
      tracker.state = state
      isRestoringStore = false
      return false
    case .empty where knowsStoredState:
      return restore(from: ReviewState(), "the stored review state was deleted since the last call")
    case .empty:
      tracker.state = ReviewState()
      return true
    case .recovered(let fresh, let problem) where knowsStoredState:
      return restore(from: fresh, problem.description, always: true)
    case .recovered(let fresh, let problem):
      tracker.state = fresh
      problems.append(ManagerMessages.problem(problem.description, date: Date(now)))
      return true
    }
  }

  /// Runs the policy update another manager stored (or the bundled policy when it removed it, or
  /// stored one received under another bundled policy).
  private mutating func adoptStoredPolicy(
    _ tracker: inout ReviewTracker, at now: Timestamp, _ problems: inout [ReviewLogEntry]
  ) {
    adoptedUpdate = StoredUpdate(tracker.state)
    tracker.active = policies.policy(
      for: tracker.state, appVersion: tracker.appVersion, date: Date(now), notes: &problems)
  }

  /// Imports the configured legacy sources not yet imported into `state`; returns whether any was.
  static func importLegacy(
    _ sources: [any LegacyStateImporter], into state: inout ReviewState, at now: Timestamp, appVersion: String,
    build: String?
  ) -> Bool {
    var imported = false
    for source in sources where !state.importedLegacy.contains(source.name) {
      state = source.importing(into: state, at: now, appVersion: appVersion, build: build)
      imported = true
    }
    return imported
  }
}
