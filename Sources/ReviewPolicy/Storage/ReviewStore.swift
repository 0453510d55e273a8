import Foundation
import PolicyCore

/// What a store found when loading.
public enum StoreLoadResult: Sendable {
  /// Nothing is stored yet (a new install).
  case empty
  /// The stored state.
  indirect case loaded(ReviewState)
  /// The stored data could not be used; the store kept it aside and starts from `state`.
  indirect case recovered(ReviewState, StoreProblem)
}

/// Why stored data could not be used. The bad data is never deleted: ``keptAt`` says where it went.
public struct StoreProblem: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kinds of problem.
  public enum Kind: String, Sendable, Hashable {
    /// The data is not a valid state (truncated, random bytes, wrong types).
    case corrupt
    /// The data was written by a newer version of the library (a higher ``ReviewState/format``).
    case futureFormat
    /// The data could not be read at all.
    case unreadable
  }

  /// What went wrong.
  public var kind: Kind
  /// A lowercase explanation.
  public var detail: String
  /// Where the bad data was kept (a file path or a defaults key), if it could be kept.
  public var keptAt: String?

  /// Creates a problem report.
  public init(kind: Kind, detail: String, keptAt: String?) {
    self.kind = kind
    self.detail = detail
    self.keptAt = keptAt
  }

  /// The report as one line.
  public var description: String {
    let what: String
    switch kind {
    case .corrupt: what = "corrupt review state"
    case .futureFormat: what = "review state written by a newer version of the library"
    case .unreadable: what = "unreadable review state"
    }
    return "\(what): \(detail)" + (keptAt.map { "; kept at `\($0)`" } ?? "")
  }
}

/// Why a save failed. The manager keeps the state in memory and saves again on the next change.
public struct StoreSaveError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A lowercase explanation.
  public var detail: String

  /// Creates a save error.
  public init(detail: String) {
    self.detail = detail
  }

  /// The explanation.
  public var description: String { detail }
}

/// Where a ``ReviewManager`` keeps its ``ReviewState``. Every write goes through the store.
///
/// Every change a manager makes is a transaction, ``update(_:)``: the store gives the state it
/// holds now, the manager applies its operation to that state, and the store saves the result
/// before anyone else may read or write. A store that makes ``update(_:)`` exclusive across
/// every writer (``JSONFileStore`` does, across processes) never loses a count, however many
/// managers, extensions or processes share it.
///
/// Implementations must be safe to call from any thread.
public protocol ReviewStore: Sendable {
  /// Loads the stored state. Never throws: unusable data is kept aside and reported.
  func load() -> StoreLoadResult
  /// Replaces the stored state with `state`.
  func save(_ state: ReviewState) throws(StoreSaveError)
  /// Runs `body` with the state stored now and saves the state it returns (nil: nothing to save),
  /// with no other writer in between.
  ///
  /// `body` runs at most once; when the store cannot even begin (no lock, no folder) it throws
  /// without running `body`. The default implementation is ``load()`` then ``save(_:)``, exclusive
  /// only if the store's own calls are: implement it to make the two one transaction.
  func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError)
  /// Runs `body` like ``update(_:)``, and leaves no earlier data in the store: only the state
  /// `body` returns remains (``ReviewManager/reset()``, a user's "forget me"). A store that keeps
  /// copies of earlier data (a journal, copies of unusable data kept aside) removes them.
  ///
  /// The default implementation is ``update(_:)``: right for a store that keeps only the state.
  func reset(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError)
}

extension ReviewStore {
  /// ``load()``, `body`, then ``save(_:)`` when `body` returns a state.
  public func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    guard let state = body(load()) else { return }
    try save(state)
  }

  /// ``update(_:)``: the store keeps nothing but the state.
  public func reset(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    try update(body)
  }
}

/// Encoding and decoding shared by the stores.
package enum ReviewStateCoding {
  /// The largest stored state accepted, in bytes (a bounded state is far smaller).
  static let maximumSize = 4 * 1024 * 1024

  /// The JSON for `state`: sorted keys, so equal states give equal bytes.
  ///
  /// Written by a hand-made encoder in the format `JSONEncoder` gives with `.sortedKeys`
  /// (a few microseconds instead of a millisecond for a two-year state).
  package static func encode(_ state: ReviewState) throws(StoreSaveError) -> Data {
    Data(ReviewStateJSON.encode(state))
  }

  /// The JSON for `state` as bytes.
  static func encodedBytes(_ state: ReviewState) -> [UInt8] {
    ReviewStateJSON.encode(state)
  }

  /// Decodes stored bytes: the state, or the kind of problem and a lowercase explanation.
  static func decode(_ data: Data) -> Result<ReviewState, StoreProblem> {
    decodeReporting(data).map(\.state)
  }

  /// A decoded state, and what sanitizing dropped from it that a store must report.
  struct Decoded: Sendable {
    /// The state, sanitized.
    var state: ReviewState
    /// What was dropped, as a lowercase explanation (a policy update over
    /// ``ReviewLimits/updateSize``); nil when nothing worth a report was.
    var dropped: String?
  }

  /// Decodes stored bytes like ``decode(_:)``, also saying what sanitizing dropped that must be reported.
  static func decodeReporting(_ data: Data) -> Result<Decoded, StoreProblem> {
    guard data.count <= maximumSize else {
      return .failure(
        StoreProblem(kind: .corrupt, detail: "\(data.count) bytes is larger than any valid state", keptAt: nil))
    }
    // The fast decoder takes every state this library writes; anything else goes to Foundation.
    if let state = data.withUnsafeBytes({ ReviewStateJSON.decode($0.bindMemory(to: UInt8.self)) }) {
      return .success(Decoded(state: state.sanitized(), dropped: droppedUpdate(state)))
    }
    return foundationDecode(data)
  }

  /// The report for a policy update over ``ReviewLimits/updateSize`` in `state` (which sanitizing
  /// drops); nil when there is none.
  static func droppedUpdate(_ state: ReviewState) -> String? {
    state.oversizedUpdateSize.map {
      "the stored policy update of \($0) bytes is over the \(ReviewLimits.updateSize)-byte limit; "
        + "it was dropped and the bundled policy applies"
    }
  }

  /// Decodes with Foundation's `JSONDecoder`: the reference, which explains every problem.
  static func foundationDecode(_ data: Data) -> Result<Decoded, StoreProblem> {
    struct FormatProbe: Decodable { var format: Int? }
    if let probe = try? JSONDecoder().decode(FormatProbe.self, from: data), let format = probe.format,
      format > ReviewState.currentFormat
    {
      return .failure(
        StoreProblem(
          kind: .futureFormat,
          detail: "format \(format) is newer than the supported format \(ReviewState.currentFormat)", keptAt: nil))
    }
    do {
      let state = try JSONDecoder().decode(ReviewState.self, from: data)
      return .success(Decoded(state: state.sanitized(), dropped: droppedUpdate(state)))
    } catch let error as DecodingError {
      return .failure(StoreProblem(kind: .corrupt, detail: describe(error), keptAt: nil))
    } catch {
      return .failure(StoreProblem(kind: .corrupt, detail: "not valid JSON", keptAt: nil))
    }
  }

  private static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let components = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return components.isEmpty ? "the top level" : "`\(components.dropFirst(components.hasPrefix(".") ? 1 : 0))`"
    }
    switch error {
    case .dataCorrupted(let context): return "not valid JSON at \(path(context))"
    case .keyNotFound(let key, let context): return "missing `\(key.stringValue)` in \(path(context))"
    case .typeMismatch(_, let context): return "wrong type at \(path(context))"
    case .valueNotFound(_, let context): return "missing value at \(path(context))"
    @unknown default: return "not a valid review state"
    }
  }
}

/// A store in memory: for tests and for apps that persist state themselves.
public final class InMemoryReviewStore: ReviewStore, @unchecked Sendable {
  // @unchecked: every access to the mutable fields holds `lock`.
  private let lock = NSLock()
  private var state: ReviewState?
  private var saves = 0

  /// Creates a store holding `state` (nil: nothing stored yet).
  public init(_ state: ReviewState? = nil) {
    self.state = state
  }

  /// The stored state.
  public func load() -> StoreLoadResult {
    lock.lock()
    defer { lock.unlock() }
    return state.map { .loaded($0) } ?? .empty
  }

  /// Stores `state`.
  public func save(_ state: ReviewState) throws(StoreSaveError) {
    lock.lock()
    defer { lock.unlock() }
    self.state = state
    saves += 1
  }

  /// The state last saved.
  public var storedState: ReviewState? {
    lock.lock()
    defer { lock.unlock() }
    return state
  }

  /// Runs `body` on the stored state and stores what it returns, under the store's lock.
  public func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    lock.lock()
    defer { lock.unlock() }
    guard let next = body(state.map { .loaded($0) } ?? .empty) else { return }
    state = next
    saves += 1
  }

  /// Forgets the stored state, as a new install.
  public func clear() {
    lock.lock()
    defer { lock.unlock() }
    state = nil
  }

  /// How many times ``save(_:)`` was called.
  public var saveCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return saves
  }
}
