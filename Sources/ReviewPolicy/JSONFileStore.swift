import Foundation
import PolicyCore

/// The default store: one JSON file, replaced atomically on every save.
///
/// A save writes a temporary file beside the state file and renames it over the
/// old one, so after a crash or a kill at any instant the file holds either the
/// old state or the new one, never a mix. A file that cannot be used (truncated,
/// random bytes, wrong types, a newer format) is renamed aside to
/// `<name>.corrupt-<milliseconds>` or `<name>.unsupported-<milliseconds>` and
/// reported; the manager starts from a fresh state. A save killed before its rename leaves its
/// temporary file behind; a later load removes those more than a minute old.
public struct JSONFileStore: ReviewStore {
  /// How old a temporary file of a save must be for a load to remove it as left by a killed save.
  public static let abandonedSaveAge: TimeInterval = 60

  /// The state file.
  public let url: URL
  /// Whether each save also flushes the file to the disk (`fsync`) before renaming it.
  /// A process kill never loses a completed save either way; flushing also survives power loss, at a cost.
  public let flushesToDisk: Bool

  /// Creates a store for the file at `url`.
  public init(url: URL, flushesToDisk: Bool = false) {
    self.url = url
    self.flushesToDisk = flushesToDisk
  }

  /// A store in the platform's application-support folder: `<support>/ReviewPolicy/review-state.json`.
  public static func standard() -> JSONFileStore {
    let base =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? URL(fileURLWithPath: NSTemporaryDirectory())
    return JSONFileStore(url: base.appendingPathComponent("ReviewPolicy").appendingPathComponent("review-state.json"))
  }

  /// Loads the state file (and removes the temporary files of killed saves).
  public func load() -> StoreLoadResult {
    removeAbandonedSaves()
    let data: Data
    do {
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
      if let size = (attributes?[.size] as? NSNumber)?.intValue, size > ReviewStateCoding.maximumSize {
        return recover(StoreProblem(kind: .corrupt, detail: "\(size) bytes is larger than any valid state", keptAt: nil))
      }
      data = try Data(contentsOf: url)
    } catch {
      if !FileManager.default.fileExists(atPath: url.path) { return .empty }
      return recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil))
    }
    switch ReviewStateCoding.decode(data) {
    case .success(let state): return .loaded(state)
    case .failure(let problem): return recover(problem)
    }
  }

  /// Writes `state` to a temporary file and renames it over the state file.
  public func save(_ state: ReviewState) throws(StoreSaveError) {
    let data = try ReviewStateCoding.encode(state)
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw StoreSaveError(detail: "cannot create `\(directory.path)`")
    }
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw StoreSaveError(detail: "cannot write in `\(directory.path)`")
    }
    do {
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      try handle.write(contentsOf: data)
      if flushesToDisk { try handle.synchronize() }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw StoreSaveError(detail: "cannot write `\(temporary.path)`")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw StoreSaveError(detail: "cannot replace `\(url.path)`: \(reason)")
    }
  }

  /// Removes the temporary files (`.<name>.<random>.tmp`) that saves killed before their rename
  /// left beside the state file, once they are ``abandonedSaveAge`` old: a younger one may belong
  /// to a save in progress in another process.
  private func removeAbandonedSaves() {
    let directory = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    let cutoff = Date().addingTimeInterval(-JSONFileStore.abandonedSaveAge)
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let path = directory.appendingPathComponent(name).path
      let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
      if let modified, modified < cutoff { try? FileManager.default.removeItem(atPath: path) }
    }
  }

  /// Moves the unusable file aside and reports it; the manager starts fresh.
  private func recover(_ problem: StoreProblem) -> StoreLoadResult {
    let suffix = problem.kind == .futureFormat ? "unsupported" : "corrupt"
    let stamp = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    var aside = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).\(suffix)-\(stamp)")
    var attempt = 0
    while FileManager.default.fileExists(atPath: aside.path) && attempt < 100 {
      attempt += 1
      aside = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent).\(suffix)-\(stamp)-\(attempt)")
    }
    var report = problem
    if rename(url.path, aside.path) == 0 { report.keptAt = aside.path }
    return .recovered(ReviewState(), report)
  }
}
