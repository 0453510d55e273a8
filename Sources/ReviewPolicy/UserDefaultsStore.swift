import Foundation
import PolicyCore

/// A store in `UserDefaults`: the state as one JSON value under `<prefix>state`.
///
/// One key, written in one call, keeps every save atomic. Unusable data is
/// moved to `<prefix>state.corrupt-<milliseconds>` (or `.unsupported-`) and reported.
/// A shared store such as iCloud's key-value store plugs in the same way through
/// its own ``ReviewStore`` conformance.
public final class UserDefaultsStore: ReviewStore, @unchecked Sendable {
  // @unchecked: `UserDefaults` is thread-safe; this class holds no other mutable state.
  private let defaults: UserDefaults
  /// The prefix of every key this store writes.
  public let keyPrefix: String

  /// Creates a store in `defaults` whose keys start with `keyPrefix`.
  public init(defaults: UserDefaults = .standard, keyPrefix: String = "ReviewPolicy.") {
    self.defaults = defaults
    self.keyPrefix = keyPrefix
  }

  /// The key holding the state.
  public var stateKey: String { keyPrefix + "state" }

  /// Loads the state.
  public func load() -> StoreLoadResult {
    guard let object = defaults.object(forKey: stateKey) else { return .empty }
    guard let data = object as? Data else {
      return recover(object, StoreProblem(kind: .corrupt, detail: "the stored value is not data", keptAt: nil))
    }
    switch ReviewStateCoding.decode(data) {
    case .success(let state): return .loaded(state)
    case .failure(let problem): return recover(data, problem)
    }
  }

  /// Stores `state`.
  public func save(_ state: ReviewState) throws(StoreSaveError) {
    defaults.set(try ReviewStateCoding.encode(state), forKey: stateKey)
  }

  private func recover(_ object: Any, _ problem: StoreProblem) -> StoreLoadResult {
    let suffix = problem.kind == .futureFormat ? "unsupported" : "corrupt"
    let stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    var aside = "\(stateKey).\(suffix)-\(stamp)"
    var attempt = 0
    while defaults.object(forKey: aside) != nil {
      attempt += 1
      aside = "\(stateKey).\(suffix)-\(stamp)-\(attempt)"
    }
    defaults.set(object, forKey: aside)
    defaults.removeObject(forKey: stateKey)
    var report = problem
    report.keptAt = aside
    return .recovered(ReviewState(), report)
  }
}
