import Foundation
import PolicyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The default store: one JSON file, replaced atomically on every save, shared safely by every
/// process that opens it (an app and its extensions in an App Group container).
///
/// Every ``update(_:)`` is a transaction: it takes an exclusive advisory lock (`flock`) on the
/// lock file `.<name>.lock` beside the state file, reads the state if another writer changed
/// it since this store last saw it (a generation number in the lock file, and the file's identity,
/// size and times, tell), applies the change, saves, and unlocks. Two managers, or two processes,
/// recording at the same time therefore never lose a count.
///
/// A save writes a temporary file beside the state file and renames it over the
/// old one, so after a crash or a kill at any instant the file holds either the
/// old state or the new one, never a mix. A file that cannot be used (truncated,
/// random bytes, wrong types, a newer format) is renamed aside to
/// `<name>.corrupt-<milliseconds>` or `<name>.unsupported-<milliseconds>` and
/// reported; the manager starts from a fresh state. A save killed before its rename leaves its
/// temporary file behind; a later load removes those more than a minute old. A kill while
/// holding the lock releases it (the system drops a dead process's locks).
public struct JSONFileStore: ReviewStore {
  /// How old a temporary file of a save must be for a load to remove it as left by a killed save.
  public static let abandonedSaveAge: TimeInterval = 60

  /// The state file.
  public let url: URL
  /// Whether each save also flushes the file to the disk (`fsync`) before renaming it.
  /// A process kill never loses a completed save either way; flushing also survives power loss, at a cost.
  public let flushesToDisk: Bool
  /// The last state this store read or wrote, with what identified it then.
  private let cache = Cache()
  /// The paths, worked out once (URL operations cost microseconds on every call otherwise).
  private let paths: Paths

  private struct Paths: Sendable {
    var state: String
    var lock: String
    var directory: String
    var temporaryPrefix: String
  }

  /// Creates a store for the file at `url`.
  public init(url: URL, flushesToDisk: Bool = false) {
    self.url = url
    self.flushesToDisk = flushesToDisk
    let directory = url.deletingLastPathComponent()
    paths = Paths(
      state: url.path, lock: directory.appendingPathComponent(".\(url.lastPathComponent).lock").path,
      directory: directory.path, temporaryPrefix: directory.appendingPathComponent(".\(url.lastPathComponent).").path)
  }

  /// A store in the platform's application-support folder: `<support>/ReviewPolicy/review-state.json`.
  ///
  /// To share the state with extensions, put the file in the App Group container instead:
  /// a `JSONFileStore` whose `url` is in `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`
  /// (see docs/app-state.md).
  public static func standard() -> JSONFileStore {
    let base =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? URL(fileURLWithPath: NSTemporaryDirectory())
    return JSONFileStore(url: base.appendingPathComponent("ReviewPolicy").appendingPathComponent("review-state.json"))
  }

  /// The lock file beside the state file: `.<name>.lock`.
  public var lockURL: URL {
    URL(fileURLWithPath: paths.lock)
  }

  // MARK: - Transactions

  /// Runs `body` on the stored state under the exclusive lock and saves what it returns.
  public func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    let lock = try FileLock(path: paths.lock)
    defer { lock.unlock() }
    let generation = lock.generation
    let loaded: StoreLoadResult
    if let cached = cache.state(generation: generation, identity: FileIdentity(path: paths.state)) {
      loaded = .loaded(cached)
    } else {
      loaded = readFile()
      if case .loaded(let state) = loaded {
        cache.set(state, generation: generation, identity: FileIdentity(path: paths.state))
      } else {
        cache.clear()
      }
    }
    guard let state = body(loaded) else { return }
    try write(state, lock: lock)
  }

  /// Loads the state file (and removes the temporary files of killed saves), always reading it.
  public func load() -> StoreLoadResult {
    guard let lock = try? FileLock(path: paths.lock) else {
      // No lock file can be made (a read-only or missing folder): read without it.
      return readFile()
    }
    defer { lock.unlock() }
    let result = readFile()
    if case .loaded(let state) = result {
      cache.set(state, generation: lock.generation, identity: FileIdentity(path: paths.state))
    } else {
      cache.clear()
    }
    return result
  }

  /// Replaces the stored state with `state`, under the lock.
  public func save(_ state: ReviewState) throws(StoreSaveError) {
    let lock = try FileLock(path: paths.lock)
    defer { lock.unlock() }
    try write(state, lock: lock)
  }

  // MARK: - Reading and writing

  /// Reads and decodes the file; unusable data is moved aside. Called under the lock.
  private func readFile() -> StoreLoadResult {
    removeAbandonedSaves()
    let descriptor = open(paths.state, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ENOTDIR { return .empty }
      return recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil))
    }
    let size = Int(info.st_size)
    if size > ReviewStateCoding.maximumSize {
      return recover(StoreProblem(kind: .corrupt, detail: "\(size) bytes is larger than any valid state", keptAt: nil))
    }
    var bytes = [UInt8](repeating: 0, count: size)
    var total = 0
    while total < size {
      let count = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return read(descriptor, base + total, size - total)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      total += count
    }
    guard total == size else {
      return recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil))
    }
    switch ReviewStateCoding.decode(Data(bytes)) {
    case .success(let state): return .loaded(state)
    case .failure(let problem): return recover(problem)
    }
  }

  /// Writes `state` to a temporary file, bumps the generation, and renames the file over the state file.
  private func write(_ state: ReviewState, lock: FileLock) throws(StoreSaveError) {
    let bytes = ReviewStateCoding.encodedBytes(state)
    let temporary = paths.temporaryPrefix + "\(UInt64.random(in: 0...UInt64.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      cache.clear()
      throw StoreSaveError(detail: "cannot write in `\(paths.directory)`")
    }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return writeBytes(descriptor, base + written, bytes.count - written)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      written += count
    }
    let flushed = !flushesToDisk || fsync(descriptor) == 0
    var info = stat()
    let identity = fstat(descriptor, &info) == 0 ? FileIdentity(info) : nil
    close(descriptor)
    guard written == bytes.count, flushed else {
      unlink(temporary)
      cache.clear()
      throw StoreSaveError(detail: "cannot write `\(temporary)`")
    }
    // The generation moves first: a kill between the two leaves a new generation over the old
    // file, which other stores merely read again.
    let generation = lock.advanceGeneration()
    guard rename(temporary, paths.state) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      cache.clear()
      throw StoreSaveError(detail: "cannot replace `\(paths.state)`: \(reason)")
    }
    // The rename changed the file's status time: identify it as it is now (the lock is still held).
    if identity != nil, let generation, let renamed = FileIdentity(path: paths.state) {
      cache.set(state, generation: generation, identity: renamed)
    } else {
      cache.clear()
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

/// `write(2)`, under a name that no method shadows.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// What identifies one version of the state file: a rename or any write changes one of these.
struct FileIdentity: Hashable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: Int64
  var changed: Int64

  init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modified = Int64(info.st_mtimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtimespec.tv_nsec)
      changed = Int64(info.st_ctimespec.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctimespec.tv_nsec)
    #else
      modified = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
      changed = Int64(info.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_ctim.tv_nsec)
    #endif
  }

  /// The identity of the file at `path`, or nil when there is none.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }
}

/// An exclusive `flock` on a lock file, which also holds the state's generation number (8 bytes).
///
/// `flock` locks belong to the open file, so two stores in one process exclude each other as two
/// processes do; the system releases the lock when its holder dies.
struct FileLock {
  private let descriptor: Int32
  /// The generation read when the lock was taken (0 for a new lock file).
  let generation: UInt64

  init(url: URL) throws(StoreSaveError) {
    try self.init(path: url.path)
  }

  init(path: String) throws(StoreSaveError) {
    let url = URL(fileURLWithPath: path)
    var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    if descriptor < 0 && (errno == ENOENT || errno == ENOTDIR) {
      let directory = url.deletingLastPathComponent()
      do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      } catch {
        throw StoreSaveError(detail: "cannot create `\(directory.path)`")
      }
      descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    }
    guard descriptor >= 0 else {
      throw StoreSaveError(detail: "cannot open the lock file `\(path)`: \(String(cString: strerror(errno)))")
    }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw StoreSaveError(detail: "cannot lock `\(path)`: \(reason)")
      }
    }
    self.descriptor = descriptor
    var value: UInt64 = 0
    let count = withUnsafeMutableBytes(of: &value) { pread(descriptor, $0.baseAddress, 8, 0) }
    generation = count == 8 ? UInt64(littleEndian: value) : 0
  }

  /// Writes the next generation number; nil when it cannot be written (the cache is then not trusted).
  func advanceGeneration() -> UInt64? {
    var next = generation &+ 1
    if next == 0 { next = 1 }
    var value = next.littleEndian
    let count = withUnsafeBytes(of: &value) { pwrite(descriptor, $0.baseAddress, 8, 0) }
    return count == 8 ? next : nil
  }

  /// Releases the lock.
  func unlock() {
    close(descriptor)
  }
}

/// The state a store last read or wrote, valid while the generation and the file's identity hold.
final class Cache: @unchecked Sendable {
  // @unchecked: every access to the fields holds `lock`.
  private let lock = NSLock()
  private var entry: (state: ReviewState, generation: UInt64, identity: FileIdentity)?

  func state(generation: UInt64, identity: FileIdentity?) -> ReviewState? {
    lock.lock()
    defer { lock.unlock() }
    guard let entry, let identity, entry.generation == generation, entry.identity == identity else { return nil }
    return entry.state
  }

  func set(_ state: ReviewState, generation: UInt64, identity: FileIdentity?) {
    lock.lock()
    defer { lock.unlock() }
    entry = identity.map { (state, generation, $0) }
  }

  func clear() {
    lock.lock()
    defer { lock.unlock() }
    entry = nil
  }
}
