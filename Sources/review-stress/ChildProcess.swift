import Foundation
import ReviewPolicy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `review-stress child <state-file>`: the process that `kill-test` kills.
///
/// It opens a ``ReviewManager`` over a ``JSONFileStore`` at the path, prints
/// `ready <total events loaded>`, then loops: one significant event, and once the call has
/// returned (so the manager has saved it) the new total on a line of its own, written
/// unbuffered. A printed total is therefore durable: the parent may hold the store to it.
/// Any problem the manager logs (an unusable file, a failed save) is printed as
/// `problem: <summary>` before the total it concerns.
///
/// With `inPlace`, it saves through ``InPlaceFileStore`` instead: a deliberately unsafe store
/// that `kill-test --unsafe-in-place-store` uses to show that the kill test catches one.
enum ChildProcess {
  /// Runs until killed; returns 2 only when the manager cannot be created.
  static func run(statePath: String, inPlace: Bool = false) -> Int32 {
    let url = URL(fileURLWithPath: statePath)
    let store: any ReviewStore = inPlace ? InPlaceFileStore(url: url) : JSONFileStore(url: url)
    let manager: ReviewManager
    do {
      manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 1000000", appName: "Kill test", store: store,
          texts: .english,
          logger: { entry in
            guard entry.event == .problem else { return }
            writeUnbuffered("problem: \(entry.summary.replacingOccurrences(of: "\n", with: " "))\n")
          }))
    } catch {
      writeUnbuffered("problem: \(error)\n", to: 2)
      return 2
    }
    writeUnbuffered("ready \(manager.currentState.totalEvents)\n")
    while true {
      manager.significantEvent("e", mayPrompt: false)
      writeUnbuffered("\(manager.currentState.totalEvents)\n")
    }
  }
}

/// A deliberately unsafe store: it truncates the state file and rewrites it in place, in two
/// writes, so a kill in between leaves half a file. It exists only to show that `kill-test`
/// catches a store that is not atomic (`kill-test --unsafe-in-place-store` must fail).
struct InPlaceFileStore: ReviewStore {
  /// The state file.
  let url: URL

  /// Loads like ``JSONFileStore``.
  func load() -> StoreLoadResult {
    JSONFileStore(url: url).load()
  }

  /// Truncates the file, then writes the first half of the new state and then the rest.
  func save(_ state: ReviewState) throws(StoreSaveError) {
    let data = try ReviewStateCoding.encode(state)
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw StoreSaveError(detail: "cannot open `\(url.path)`") }
    defer { close(descriptor) }
    let half = data.count / 2
    let written = data.withUnsafeBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return 0 }
      return write(descriptor, base, half) + write(descriptor, base + half, data.count - half)
    }
    guard written == data.count else { throw StoreSaveError(detail: "cannot write `\(url.path)`") }
  }
}
