import Foundation
import PolicyCore

/// A store in `UserDefaults`: the state as one JSON value under `<prefix>state`.
///
/// One key, written in one call, keeps every save atomic. Unusable data is
/// moved to `<prefix>state.corrupt-<milliseconds>` (or `.unsupported-`) and reported; what can be
/// recovered from it (the members that are whole and of the right type) is stored in its place,
/// and only the newest ``JSONFileStore/keptAsideCopies`` copies of each kind are kept.
/// A shared store such as iCloud's key-value store plugs in the same way through
/// its own ``ReviewStore`` conformance.
///
/// Transactions (``update(_:)``) are exclusive within the process, so managers in one process
/// never lose a count. Across processes (an app and its extension sharing a suite of an App Group)
/// `UserDefaults` promises no read-modify-write: give `lockURL` (a file in the App Group
/// container) to make writers take turns, but a process may still read a value another process
/// wrote a moment before without seeing it yet, because the system caches each process's view of
/// the suite. Use ``JSONFileStore`` in the App Group container for exact counts across processes.
public final class UserDefaultsStore: ReviewStore, @unchecked Sendable {
  // @unchecked: `UserDefaults` is thread-safe; this class holds no other mutable state.
  private let defaults: UserDefaults
  /// The prefix of every key this store writes.
  public let keyPrefix: String
  /// A lock file that transactions also lock (`flock`), for writers in several processes; nil for none.
  public let lockURL: URL?
  /// Makes transactions of every `UserDefaultsStore` in the process take turns.
  private static let processLock = NSLock()

  /// Creates a store in `defaults` whose keys start with `keyPrefix`; transactions also lock
  /// `lockURL` when given (see the type's discussion).
  public init(defaults: UserDefaults = .standard, keyPrefix: String = "ReviewPolicy.", lockURL: URL? = nil) {
    self.defaults = defaults
    self.keyPrefix = keyPrefix
    self.lockURL = lockURL
  }

  /// Runs `body` on the stored state and stores what it returns, one transaction at a time in
  /// this process (and across processes that lock the same ``lockURL``).
  public func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    UserDefaultsStore.processLock.lock()
    defer { UserDefaultsStore.processLock.unlock() }
    var fileLock: FileLock?
    if let lockURL { fileLock = try FileLock(url: lockURL) }
    defer { fileLock?.unlock() }
    guard let state = body(load()) else { return }
    try save(state)
  }

  /// The key holding the state.
  public var stateKey: String { keyPrefix + "state" }

  /// Loads the state.
  public func load() -> StoreLoadResult {
    guard let object = defaults.object(forKey: stateKey) else { return .empty }
    guard let data = object as? Data else {
      return recover(object, StoreProblem(kind: .corrupt, detail: "the stored value is not data", keptAt: nil))
    }
    switch ReviewStateCoding.decodeReporting(data) {
    case .success(let decoded):
      guard let dropped = decoded.dropped else { return .loaded(decoded.state) }
      return recover(data, StoreProblem(kind: .corrupt, detail: dropped, keptAt: nil), keeping: decoded.state)
    case .failure(let problem) where problem.kind == .corrupt:
      let outcome = data.withUnsafeBytes { ReviewStateSalvage.state(of: $0.bindMemory(to: UInt8.self)) }
      guard let outcome else { return recover(data, problem) }
      var report = problem
      report.detail += "; " + outcome.summary
      return recover(data, report, keeping: outcome.state)
    case .failure(let problem):
      return recover(data, problem)
    }
  }

  /// Runs `body` like ``update(_:)``, then removes the copies of unusable data kept aside: only
  /// the state `body` returns remains.
  public func reset(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    try update(body)
    UserDefaultsStore.processLock.lock()
    defer { UserDefaultsStore.processLock.unlock() }
    removeAsideCopies(keeping: 0)
  }

  /// Stores `state`.
  public func save(_ state: ReviewState) throws(StoreSaveError) {
    defaults.set(try ReviewStateCoding.encode(state), forKey: stateKey)
  }

  /// Keeps `object` aside under another key and reports it; stores `recovered` (what could be
  /// recovered from it) in its place, or removes it when nothing could be.
  private func recover(_ object: Any, _ problem: StoreProblem, keeping recovered: ReviewState? = nil)
    -> StoreLoadResult
  {
    let suffix = problem.kind == .futureFormat ? "unsupported" : "corrupt"
    let stamp = AsideCopies.nextStamp(
      after: Array(defaults.dictionaryRepresentation().keys), prefix: "\(stateKey).\(suffix)-")
    var aside = "\(stateKey).\(suffix)-\(stamp)"
    var attempt = 0
    while defaults.object(forKey: aside) != nil {
      attempt += 1
      aside = "\(stateKey).\(suffix)-\(stamp)-\(attempt)"
    }
    if let data = object as? Data, data.count > ReviewStateCoding.maximumSize {
      defaults.set(data.prefix(ReviewStateCoding.maximumSize), forKey: aside)
    } else {
      defaults.set(object, forKey: aside)
    }
    if let recovered, let data = try? ReviewStateCoding.encode(recovered) {
      defaults.set(data, forKey: stateKey)
    } else {
      defaults.removeObject(forKey: stateKey)
    }
    removeAsideCopies(keeping: JSONFileStore.keptAsideCopies, kinds: [suffix])
    var report = problem
    report.keptAt = aside
    return .recovered(recovered ?? ReviewState(), report)
  }

  /// Removes the copies kept aside (`<prefix>state.corrupt-...`, `.unsupported-...`) but the
  /// newest `keeping` of each kind.
  private func removeAsideCopies(keeping: Int, kinds: [String] = ["corrupt", "unsupported"]) {
    let keys = Array(defaults.dictionaryRepresentation().keys)
    for kind in kinds {
      let prefix = "\(stateKey).\(kind)-"
      for key in AsideCopies.newestFirst(keys, prefix: prefix).dropFirst(keeping) { defaults.removeObject(forKey: key) }
    }
  }
}
