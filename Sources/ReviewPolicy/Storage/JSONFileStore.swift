import Foundation
import PolicyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The default store: one JSON file, shared safely by every process that opens it (an app and
/// its extensions in an App Group container), with a journal of small changes beside it.
///
/// Every ``update(_:)`` is a transaction: it takes an exclusive advisory lock (`flock`) on the
/// lock file `.<name>.lock` beside the state file, brings its copy of the state up to date if
/// another writer changed it since this store last saw it (a generation number in the lock file,
/// and the files' identities, tell), applies the change, saves, and unlocks. Two managers, or two
/// processes, recording at the same time therefore never lose a count.
///
/// A save appends one line to the journal `.<name>.journal` with `O_APPEND`: the members of the
/// state that changed (a few hundred bytes). When the journal passes 12 KiB (`journalLimit`), the
/// save writes the whole state instead: a temporary file beside the state file, renamed into
/// place, and the journal emptied. The state is the state file with the journal's lines
/// applied in order; each line sets members to values, so applying a line twice changes nothing,
/// and a kill at any instant leaves the old state or the new one, never a mix (a line cut short
/// is ignored). A file that cannot be used (truncated, random bytes, wrong types, a newer format)
/// is renamed aside to `<name>.corrupt-<milliseconds>` or `<name>.unsupported-<milliseconds>`
/// and reported; the manager starts from a fresh state. A save killed before its rename leaves
/// its temporary file behind; a later load removes those more than a minute old. A kill while
/// holding the lock releases it (the system drops a dead process's locks).
public struct JSONFileStore: ReviewStore {
  /// How old a temporary file of a save must be for a load to remove it as left by a killed save.
  package static let abandonedSaveAge: TimeInterval = 60
  /// The journal size, in bytes, past which a save writes the whole state file instead.
  package static let journalLimit = 12 * 1024
  /// A test hook, nil outside tests: called with the point's name at the instants a kill must be
  /// survived, so that `review-stress processes` can stop a writer there and kill it. The points:
  /// `locked` (an update holds the lock), `temporary-written` (a whole-file save's temporary file
  /// is written, before its rename), `moved-aside` (the old state file is renamed aside, the new
  /// one not yet in) and `journal-appended` (the journal line is written, before the unlock).
  /// Set it once, before any store is used.
  package nonisolated(unsafe) static var killPointHook: (@Sendable (String) -> Void)?

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
    var journal: String
    var previous: String
    var directory: String
    var temporaryPrefix: String
  }

  /// Creates a store for the file at `url`.
  public init(url: URL, flushesToDisk: Bool = false) {
    self.url = url
    self.flushesToDisk = flushesToDisk
    let directory = url.deletingLastPathComponent()
    let hidden = { (suffix: String) in directory.appendingPathComponent(".\(url.lastPathComponent)\(suffix)").path }
    paths = Paths(
      state: url.path, lock: hidden(".lock"), journal: hidden(".journal"), previous: hidden(".previous"),
      directory: directory.path, temporaryPrefix: hidden("."))
  }

  /// A store in the platform's application-support folder: `<support>/ReviewPolicy/review-state.json`.
  ///
  /// To share the state with extensions, use a store whose `url` is in the App Group container,
  /// `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)` (see docs/app-state.md).
  public static func standard() -> JSONFileStore {
    let base =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? URL(fileURLWithPath: NSTemporaryDirectory())
    return JSONFileStore(url: base.appendingPathComponent("ReviewPolicy").appendingPathComponent("review-state.json"))
  }

  /// The lock file beside the state file: `.<name>.lock`.
  package var lockURL: URL {
    URL(fileURLWithPath: paths.lock)
  }

  /// The journal beside the state file: `.<name>.journal`.
  package var journalURL: URL {
    URL(fileURLWithPath: paths.journal)
  }

  // MARK: - Transactions

  /// Runs `body` on the stored state under the exclusive lock and saves what it returns.
  public func update(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    let lock = try FileLock(path: paths.lock)
    defer { lock.unlock() }
    JSONFileStore.killPointHook?("locked")
    let (loaded, entry) = current(lock)
    guard let state = body(loaded) else { return }
    try write(state, over: entry, lock: lock)
  }

  /// Loads the state (and removes the temporary files of killed saves), always reading the files.
  public func load() -> StoreLoadResult {
    guard let lock = try? FileLock(path: paths.lock) else {
      // No lock file can be made (a read-only or missing folder): read without it.
      return readAll(generation: 0).result
    }
    defer { lock.unlock() }
    cache.entry = nil
    return current(lock).result
  }

  /// Replaces the stored state with `state`, under the lock: the whole state file, and an empty journal.
  public func save(_ state: ReviewState) throws(StoreSaveError) {
    let lock = try FileLock(path: paths.lock)
    defer { lock.unlock() }
    try write(state, over: nil, lock: lock)
  }

  /// Writes the whole state file and empties the journal, when the journal holds anything.
  public func compact() throws(StoreSaveError) {
    let lock = try FileLock(path: paths.lock)
    defer { lock.unlock() }
    guard case .loaded(let state) = current(lock).result, journalSize() > 0 else { return }
    try write(state, over: nil, lock: lock)
  }

  // MARK: - Reading

  /// The state now, from the cache when nobody wrote since, else from the journal lines appended
  /// since the cache was made, else from the files. Called under the lock.
  private func current(_ lock: FileLock) -> (result: StoreLoadResult, entry: Cache.Entry?) {
    let snapshot = FileIdentity(path: paths.state)
    if let entry = cache.entry, entry.snapshot == snapshot {
      if entry.generation == lock.generation { return (.loaded(entry.state), entry) }
      if let caughtUp = readJournal(from: entry, generation: lock.generation) {
        cache.entry = caughtUp
        return (.loaded(caughtUp.state), caughtUp)
      }
    }
    let read = readAll(generation: lock.generation)
    cache.entry = read.entry
    return read
  }

  /// Reads the state file and applies the whole journal.
  private func readAll(generation: UInt64) -> (result: StoreLoadResult, entry: Cache.Entry?) {
    let result = readFile()
    guard case .loaded(let base) = result else {
      // The journal belongs to a state file that is gone or unusable.
      unlink(paths.journal)
      return (result, nil)
    }
    let start = Cache.Entry(
      state: base, generation: generation, snapshot: FileIdentity(path: paths.state), journal: nil, journalLength: 0)
    guard let entry = readJournal(from: start, generation: generation) else { return (result, nil) }
    return (.loaded(entry.state), entry)
  }

  /// `entry` with the journal lines after `entry.journalLength` applied; nil when the journal is
  /// not the one `entry` read (it was emptied or replaced) or cannot be read.
  private func readJournal(from entry: Cache.Entry, generation: UInt64) -> Cache.Entry? {
    let descriptor = open(paths.journal, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      guard errno == ENOENT, entry.journal == nil || entry.journalLength == 0 else { return nil }
      var next = entry
      next.generation = generation
      next.journal = nil
      next.journalLength = 0
      return next
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    let identity = FileIdentity(info)
    let size = Int(info.st_size)
    if let known = entry.journal, known.device != identity.device || known.inode != identity.inode {
      guard entry.journalLength == 0 else { return nil }
    }
    guard size >= entry.journalLength, size - entry.journalLength <= ReviewStateCoding.maximumSize else { return nil }
    var next = entry
    next.generation = generation
    next.journal = identity
    guard size > entry.journalLength else { return next }
    var bytes = [UInt8](repeating: 0, count: size - entry.journalLength)
    var total = 0
    while total < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return pread(descriptor, base + total, buffer.count - total, off_t(entry.journalLength + total))
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      total += count
    }
    guard total == bytes.count else { return nil }
    // Apply each complete line; stop at a line cut short or not understood (the next save drops it).
    // The first line names the state file the journal extends; a journal of another state file
    // (one replaced by a writer that ignored the lock) is not applied, and the next save drops it.
    // Each line sets members to values, so the last value of each member is the result: members
    // are gathered from the last line back and decoded once.
    var state = entry.state
    var consumed = 0
    let header = entry.journalLength == 0 ? entry.snapshot.map { Array(JSONFileStore.header(for: $0).utf8) } : nil
    var patches: [[(key: String, value: ReviewStateJSON.Value)]] = []
    var ends: [Int] = []
    bytes.withUnsafeBufferPointer { buffer in
      var lineStart = 0
      for index in 0..<buffer.count where buffer[index] == 0x0A {
        let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<index])
        if lineStart == 0, let header {
          guard line.elementsEqual(header.dropLast()) else { return }
        } else {
          guard let members = ReviewStateJSON.object(line) else { return }
          patches.append(members)
          ends.append(index + 1)
        }
        lineStart = index + 1
        consumed = lineStart
      }
    }
    var merged: [String: ReviewStateJSON.Value] = [:]
    for patch in patches.reversed() {
      for (key, value) in patch where merged[key] == nil { merged[key] = value }
    }
    if let patched = ReviewStateJSON.applying(members: merged, to: state) {
      state = patched
    } else {
      // A member of the wrong type somewhere: apply line by line, up to the first bad line.
      for (index, patch) in patches.enumerated() {
        var members: [String: ReviewStateJSON.Value] = [:]
        for (key, value) in patch { members[key] = value }
        guard let patched = ReviewStateJSON.applying(members: members, to: state) else {
          consumed = index == 0 ? (header?.count ?? 0) : ends[index - 1]
          break
        }
        state = patched
      }
    }
    // Bounded once, after every line (as a whole state file is when loaded).
    next.state = consumed > 0 ? state.sanitized() : state
    next.journalLength = entry.journalLength + consumed
    return next
  }

  /// The journal's first line: which state file (device, inode, size, modification time) it extends.
  static func header(for snapshot: FileIdentity) -> String {
    "#\(snapshot.device):\(snapshot.inode):\(snapshot.size):\(snapshot.modified)\n"
  }

  /// The journal's size now (0 when there is none).
  private func journalSize() -> Int {
    var info = stat()
    return stat(paths.journal, &info) == 0 ? Int(info.st_size) : 0
  }

  /// Reads and decodes the state file; unusable data is moved aside. Called under the lock.
  private func readFile() -> StoreLoadResult {
    removeAbandonedSaves()
    var descriptor = open(paths.state, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 && errno == ENOENT && rename(paths.previous, paths.state) == 0 {
      // A save was killed between moving the old state file aside and renaming the new one in.
      descriptor = open(paths.state, O_RDONLY | O_CLOEXEC)
    }
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

  // MARK: - Writing

  /// Saves `state`: one journal line over `entry` (the state as stored now), or, without an entry
  /// or with a full journal, the whole state file. Called under the lock.
  private func write(_ state: ReviewState, over entry: Cache.Entry?, lock: FileLock) throws(StoreSaveError) {
    // A state file far larger than any bounded state (one loaded from elsewhere) is rewritten at once.
    if let entry, let snapshot = entry.snapshot, snapshot.size <= 128 * 1024,
      entry.journalLength < JSONFileStore.journalLimit
    {
      var line = ReviewStateJSON.patch(from: entry.state, to: state)
      if entry.journalLength == 0 { line = Array(JSONFileStore.header(for: snapshot).utf8) + line }
      // The generation moves first: a kill after it only makes other stores read again.
      if let generation = lock.advanceGeneration(), append(line, after: entry.journalLength) {
        var next = entry
        next.state = state
        next.generation = generation
        next.journalLength += line.count
        if next.journal == nil { next.journal = FileIdentity(path: paths.journal) }
        cache.entry = next.journal == nil ? nil : next
        JSONFileStore.killPointHook?("journal-appended")
        return
      }
      cache.entry = nil
    }
    try writeStateFile(state, lock: lock)
  }

  /// Appends `line` to the journal, first dropping anything after `length` (a line cut short).
  private func append(_ line: [UInt8], after length: Int) -> Bool {
    let descriptor = open(paths.journal, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return false }
    if Int(info.st_size) != length {
      guard Int(info.st_size) > length, ftruncate(descriptor, off_t(length)) == 0 else { return false }
    }
    let written = writeAll(descriptor, line)
    if written != line.count {
      // Never leave half a line: the next reader would stop there, but a later append would follow it.
      _ = ftruncate(descriptor, off_t(length))
      return false
    }
    return !flushesToDisk || fsync(descriptor) == 0
  }

  /// Writes the whole state to a temporary file and renames it into place, then empties the journal.
  ///
  /// The old state file is renamed aside first, so the new one is renamed to a free name: on
  /// ext4, renaming over an existing file forces the new file's data to disk (milliseconds).
  private func writeStateFile(_ state: ReviewState, lock: FileLock) throws(StoreSaveError) {
    let bytes = ReviewStateCoding.encodedBytes(state)
    let temporary = paths.temporaryPrefix + "\(UInt64.random(in: 0...UInt64.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      cache.entry = nil
      throw StoreSaveError(detail: "cannot write in `\(paths.directory)`")
    }
    let written = writeAll(descriptor, bytes)
    let flushed = !flushesToDisk || fsync(descriptor) == 0
    close(descriptor)
    guard written == bytes.count, flushed else {
      unlink(temporary)
      cache.entry = nil
      throw StoreSaveError(detail: "cannot write `\(temporary)`")
    }
    JSONFileStore.killPointHook?("temporary-written")
    let generation = lock.advanceGeneration()
    // Aside, in, then the journal emptied: a kill between any two leaves a state the next load
    // reads whole (the old file aside is renamed back; journal lines applied twice change nothing).
    let movedAside = rename(paths.state, paths.previous) == 0
    if movedAside { JSONFileStore.killPointHook?("moved-aside") }
    guard rename(temporary, paths.state) == 0 else {
      let reason = String(cString: strerror(errno))
      if movedAside { rename(paths.previous, paths.state) }
      unlink(temporary)
      cache.entry = nil
      throw StoreSaveError(detail: "cannot replace `\(paths.state)`: \(reason)")
    }
    unlink(paths.journal)
    if movedAside { unlink(paths.previous) }
    if let generation, let snapshot = FileIdentity(path: paths.state) {
      cache.entry = Cache.Entry(
        state: state, generation: generation, snapshot: snapshot, journal: nil, journalLength: 0)
    } else {
      cache.entry = nil
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
      aside = url.deletingLastPathComponent().appendingPathComponent(
        "\(url.lastPathComponent).\(suffix)-\(stamp)-\(attempt)")
    }
    var report = problem
    if rename(url.path, aside.path) == 0 { report.keptAt = aside.path }
    return .recovered(ReviewState(), report)
  }
}
