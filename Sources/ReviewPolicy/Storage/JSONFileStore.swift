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
/// and a kill at any instant leaves the old state or the new one, never a mix (a last line cut
/// short, the change a kill interrupted, is ignored).
///
/// Nothing that can be read is lost without a report. A state file or journal line that cannot
/// be used whole (truncated, damaged, members of the wrong type, a file over the 4 MiB read
/// limit, of which only the first and last bytes are read) gives back the members that are
/// whole and of the right type; the file is renamed aside to `<name>.corrupt-<milliseconds>`
/// (the journal to `<name>.corrupt-<milliseconds>-journal`), the recovered state is written in
/// its place and the load reports both (``StoreLoadResult/recovered(_:_:)``). Data of which
/// nothing can be recovered (random bytes, a newer format) is renamed aside (`.corrupt-` or
/// `.unsupported-`) and reported, and the manager starts from a fresh state. Copies kept aside
/// are cut to the read limit and only the newest ``keptAsideCopies`` of each kind are kept. A
/// save killed before its rename leaves its temporary file behind; a later load removes those
/// more than a minute old. A kill while holding the lock releases it (the system drops a dead
/// process's locks).
public struct JSONFileStore: ReviewStore {
  /// How old a temporary file of a save must be for a load to remove it as left by a killed save.
  package static let abandonedSaveAge: TimeInterval = 60
  /// The journal size, in bytes, past which a save writes the whole state file instead.
  package static let journalLimit = 12 * 1024
  /// The largest state file a save appends a journal line over; a larger one (far larger than
  /// any state the manager writes, which sanitizing bounds well below it) is rewritten whole.
  package static let journalledFileSize = ReviewStateCoding.maximumSize / 2
  /// How many copies of unusable data are kept aside, of each kind (`corrupt`, `unsupported`):
  /// keeping one aside removes the older ones beyond this.
  package static let keptAsideCopies = 2
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

  /// Runs `body` like ``update(_:)``, then leaves on disk only the state it returns: the state
  /// file written whole, and the journal, the copies of unusable data kept aside, the temporary
  /// files of killed saves and the file a killed save moved aside all removed, so that nothing
  /// recorded before remains in the store's files (``ReviewManager/reset()``). Whatever `body`
  /// keeps (the stored policy update: not the user's data) stays.
  public func reset(_ body: (StoreLoadResult) -> ReviewState?) throws(StoreSaveError) {
    let lock = try FileLock(path: paths.lock)
    defer { lock.unlock() }
    let (loaded, _) = current(lock)
    let kept: ReviewState
    if let state = body(loaded) {
      kept = state
    } else if case .loaded(let state) = loaded {
      kept = state
    } else {
      kept = ReviewState()
    }
    try writeStateFile(kept, lock: lock)
    unlink(paths.journal)
    unlink(paths.previous)
    removeAsideCopies(keeping: 0)
    removeAbandonedSaves(olderThan: 0)
  }

  /// Loads the state (and removes the temporary files of killed saves), always reading the files.
  public func load() -> StoreLoadResult {
    guard let lock = try? FileLock(path: paths.lock) else {
      // No lock file can be made (a read-only or missing folder): read without it, and without
      // moving or writing anything.
      return settle(readAll(generation: 0, movingAside: false), lock: nil).result
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
        guard caughtUp.problems.isEmpty else {
          return settle(
            Reading(result: .loaded(caughtUp.entry.state), entry: caughtUp.entry, journalProblems: caughtUp.problems),
            lock: lock)
        }
        cache.entry = caughtUp.entry
        return (.loaded(caughtUp.entry.state), caughtUp.entry)
      }
    }
    let read = readAll(generation: lock.generation, movingAside: true)
    cache.entry = read.entry
    return settle(read, lock: lock)
  }

  /// What reading the files found: the state, and what in them could be used only in part.
  private struct Reading {
    /// The state read (``StoreLoadResult/recovered(_:_:)`` when nothing could be recovered: the
    /// file is then already aside).
    var result: StoreLoadResult
    /// The cache entry for the state read.
    var entry: Cache.Entry?
    /// Why the state file could be used only in part (what was recovered from it is in `result`).
    var fileProblem: String?
    /// The journal lines that could be used only in part, or not at all.
    var journalProblems: [String] = []
  }

  /// The result of `reading`. When the state file or journal lines could be used only in part,
  /// keeps them aside (under the lock), writes the state recovered from them whole in their place
  /// (so the next load reads it, with nothing to report) and reports it all as one problem.
  private func settle(_ reading: Reading, lock: FileLock?) -> (result: StoreLoadResult, entry: Cache.Entry?) {
    guard reading.fileProblem != nil || !reading.journalProblems.isEmpty, case .loaded(let state) = reading.result
    else { return (reading.result, reading.entry) }
    var details: [String] = []
    var kept: [String] = []
    if let problem = reading.fileProblem {
      details.append(problem)
      if lock != nil, let path = keepAside(paths.state, kind: "corrupt", suffix: "") { kept.append(path) }
    }
    if !reading.journalProblems.isEmpty {
      details.append(contentsOf: reading.journalProblems)
      if lock != nil, let path = keepAside(paths.journal, kind: "corrupt", suffix: "-journal") { kept.append(path) }
    }
    var entry: Cache.Entry?
    if let lock {
      do {
        try writeStateFile(state, lock: lock)
        entry = cache.entry
      } catch {
        // Kept aside; the manager holds the recovered state and saves it at its next change.
        cache.entry = nil
      }
    }
    let problem = StoreProblem(
      kind: .corrupt, detail: details.joined(separator: "; "),
      keptAt: kept.isEmpty ? nil : kept.joined(separator: "`, `"))
    return (.recovered(state, problem), entry)
  }

  /// Reads the state file and applies the whole journal. Without `movingAside`, nothing is moved
  /// or removed (a read without the lock).
  private func readAll(generation: UInt64, movingAside: Bool) -> Reading {
    let base: ReviewState
    var fileProblem: String?
    switch readFile(movingAside: movingAside) {
    case .done(let result):
      // The journal belongs to a state file that is gone or unusable.
      if movingAside { unlink(paths.journal) }
      return Reading(result: result, entry: nil)
    case .loaded(let state):
      base = state
    case .recovered(let state, let problem):
      base = state
      fileProblem = problem
    }
    let start = Cache.Entry(
      state: base, generation: generation, snapshot: FileIdentity(path: paths.state), journal: nil, journalLength: 0)
    guard let read = readJournal(from: start, generation: generation) else {
      return Reading(result: .loaded(base), entry: nil, fileProblem: fileProblem)
    }
    return Reading(
      result: .loaded(read.entry.state), entry: read.entry, fileProblem: fileProblem, journalProblems: read.problems)
  }

  /// `entry` with the journal lines after `entry.journalLength` applied, and the lines that could
  /// be used only in part; nil when the journal is not the one `entry` read (it was emptied or
  /// replaced) or cannot be read.
  ///
  /// A line that is not valid JSON gives the members before its damage, a member of the wrong type
  /// is left out, and each is reported; the lines after it are applied (each sets members to the
  /// values they then had, so a later line is right whatever an earlier one held). A journal over
  /// the read limit is read up to it, and reported. Only a last line cut short, without its
  /// newline (the change a kill interrupted, never confirmed to its caller), is left unread
  /// without a report: the next append replaces it.
  private func readJournal(from entry: Cache.Entry, generation: UInt64) -> (entry: Cache.Entry, problems: [String])? {
    let descriptor = open(paths.journal, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      guard errno == ENOENT, entry.journal == nil || entry.journalLength == 0 else { return nil }
      var next = entry
      next.generation = generation
      next.journal = nil
      next.journalLength = 0
      return (next, [])
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    let identity = FileIdentity(info)
    let size = Int(info.st_size)
    if let known = entry.journal, known.device != identity.device || known.inode != identity.inode {
      guard entry.journalLength == 0 else { return nil }
    }
    guard size >= entry.journalLength else { return nil }
    var problems: [String] = []
    let unread = size - entry.journalLength
    if unread > ReviewStateCoding.maximumSize {
      problems.append(
        "the journal's \(unread) new bytes are over the \(ReviewStateCoding.maximumSize)-byte read limit; "
          + "the bytes past it were not read")
    }
    var next = entry
    next.generation = generation
    next.journal = identity
    guard size > entry.journalLength else { return (next, []) }
    var bytes = [UInt8](repeating: 0, count: min(unread, ReviewStateCoding.maximumSize))
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
    // The first line names the state file the journal extends; a journal of another state file
    // (one replaced by a writer that ignored the lock) is not applied, and the next save drops it.
    // Each line sets members to values, so the last value of each member is the result: members
    // are gathered from the last line back and decoded once.
    var state = entry.state
    var consumed = 0
    let header = entry.journalLength == 0 ? entry.snapshot.map { Array(JSONFileStore.header(for: $0).utf8) } : nil
    var patches: [[(key: String, value: ReviewStateJSON.Value)]] = []
    let lineOffset = entry.journalLength
    bytes.withUnsafeBufferPointer { buffer in
      var lineStart = 0
      func salvage(_ line: UnsafeBufferPointer<UInt8>, _ why: String) {
        let members = ReviewStateSalvage.lineMembers(line)
        patches.append(members)
        problems.append(
          "the journal line at byte \(lineOffset + lineStart) (\(line.count) bytes) \(why); "
            + "recovered \(members.count) of its members")
      }
      for index in 0..<buffer.count where buffer[index] == 0x0A {
        let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<index])
        if lineStart == 0, let header {
          guard line.elementsEqual(header.dropLast()) else { return }
        } else if let members = ReviewStateJSON.object(line) {
          patches.append(members)
        } else {
          salvage(line, "is not valid JSON")
        }
        lineStart = index + 1
        consumed = lineStart
      }
      // Cut by the read limit, not by a kill: what it holds is recovered too.
      if unread > buffer.count && lineStart < buffer.count && (lineStart > 0 || header == nil) {
        salvage(UnsafeBufferPointer(rebasing: buffer[lineStart...]), "is cut by the read limit")
        consumed = buffer.count
      }
    }
    var merged: [String: ReviewStateJSON.Value] = [:]
    for patch in patches.reversed() {
      for (key, value) in patch where merged[key] == nil { merged[key] = value }
    }
    if let patched = ReviewStateJSON.applying(members: merged, to: state) {
      state = patched
    } else {
      // A member of the wrong type somewhere: apply line by line and member by member, leaving out
      // only the members of the wrong type.
      for patch in patches {
        let outcome = ReviewStateSalvage.apply(patch, to: state)
        state = outcome.state
        if !outcome.rejected.isEmpty {
          problems.append(
            "a journal line sets \(outcome.rejected.joined(separator: ", ")) to a value of the wrong type; left out")
        }
      }
    }
    // Bounded once, after every line (as a whole state file is when loaded).
    if consumed > 0, let dropped = ReviewStateCoding.droppedUpdate(state) { problems.append(dropped) }
    next.state = consumed > 0 ? state.sanitized() : state
    next.journalLength = entry.journalLength + consumed
    return (next, problems)
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

  /// What reading the state file gave.
  private enum FileRead {
    /// The state.
    case loaded(ReviewState)
    /// The state recovered from a file that could be used only in part, and why (the file is
    /// still in place: ``settle(_:lock:)`` keeps it aside once the journal is read).
    case recovered(ReviewState, String)
    /// No file, or one of which nothing could be recovered (already moved aside and reported).
    case done(StoreLoadResult)
  }

  /// Reads and decodes the state file, reading at most the read limit. Unusable data of which
  /// nothing can be recovered is moved aside (with `movingAside`). Called under the lock.
  private func readFile(movingAside: Bool) -> FileRead {
    if movingAside { removeAbandonedSaves(olderThan: JSONFileStore.abandonedSaveAge) }
    var descriptor = open(paths.state, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 && errno == ENOENT && movingAside && rename(paths.previous, paths.state) == 0 {
      // A save was killed between moving the old state file aside and renaming the new one in.
      descriptor = open(paths.state, O_RDONLY | O_CLOEXEC)
    }
    guard descriptor >= 0 else {
      if errno == ENOENT || errno == ENOTDIR { return .done(.empty) }
      return .done(recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil), movingAside))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      return .done(recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil), movingAside))
    }
    let size = Int(info.st_size)
    if size > ReviewStateCoding.maximumSize {
      // Too large for any state this library writes: read its first and last bytes, up to the
      // read limit in all, and recover what they hold.
      let tailSize = ReviewStateSalvage.tailSize
      let problem = "\(size) bytes is larger than any valid state"
      guard let head = read(descriptor, at: 0, count: ReviewStateCoding.maximumSize - tailSize),
        let tail = read(descriptor, at: size - tailSize, count: tailSize),
        let outcome = head.withUnsafeBufferPointer({ head in
          tail.withUnsafeBufferPointer { ReviewStateSalvage.state(head: head, tail: $0) }
        })
      else { return .done(recover(StoreProblem(kind: .corrupt, detail: problem, keptAt: nil), movingAside)) }
      return .recovered(outcome.state, problem + "; " + outcome.summary)
    }
    guard let bytes = read(descriptor, at: 0, count: size) else {
      return .done(recover(StoreProblem(kind: .unreadable, detail: "cannot read the file", keptAt: nil), movingAside))
    }
    switch ReviewStateCoding.decodeReporting(Data(bytes)) {
    case .success(let decoded):
      if let dropped = decoded.dropped { return .recovered(decoded.state, dropped) }
      return .loaded(decoded.state)
    case .failure(let problem) where problem.kind == .corrupt:
      let outcome = bytes.withUnsafeBufferPointer { ReviewStateSalvage.state(of: $0) }
      guard let outcome else { return .done(recover(problem, movingAside)) }
      return .recovered(outcome.state, problem.detail + "; " + outcome.summary)
    case .failure(let problem):
      return .done(recover(problem, movingAside))
    }
  }

  /// `count` bytes of the file open as `descriptor` from `offset`; nil when they cannot all be read.
  private func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var total = 0
    while total < count {
      let read = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return pread(descriptor, base + total, count - total, off_t(offset + total))
      }
      if read < 0 && errno == EINTR { continue }
      guard read > 0 else { break }
      total += read
    }
    return total == count ? bytes : nil
  }

  // MARK: - Writing

  /// Saves `state`: one journal line over `entry` (the state as stored now), or, without an entry
  /// or with a full journal, the whole state file. Called under the lock.
  private func write(_ state: ReviewState, over entry: Cache.Entry?, lock: FileLock) throws(StoreSaveError) {
    // A state file far larger than any bounded state (one loaded from elsewhere) is rewritten at once.
    if let entry, let snapshot = entry.snapshot, snapshot.size <= JSONFileStore.journalledFileSize,
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
  /// left beside the state file, once they are `age` seconds old (``abandonedSaveAge`` when
  /// loading: a younger one may belong to a save in progress in a process that ignored the lock).
  private func removeAbandonedSaves(olderThan age: TimeInterval) {
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: paths.directory) else { return }
    let cutoff = Date().addingTimeInterval(-age)
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let path = paths.directory + "/" + name
      let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
      if age <= 0 || (modified.map { $0 < cutoff } ?? false) { try? FileManager.default.removeItem(atPath: path) }
    }
  }

  /// Moves the unusable file aside and reports it; the manager starts fresh. Without
  /// `movingAside` (a read without the lock), only reports it.
  private func recover(_ problem: StoreProblem, _ movingAside: Bool) -> StoreLoadResult {
    var report = problem
    if movingAside {
      report.keptAt = keepAside(
        paths.state, kind: problem.kind == .futureFormat ? "unsupported" : "corrupt", suffix: "")
    }
    return .recovered(ReviewState(), report)
  }

  /// Renames the file at `path` aside to `<name>.<kind>-<milliseconds><suffix>`, cuts the copy to
  /// the read limit (nothing past it can be read back) and removes the copies of its kind beyond
  /// the newest ``keptAsideCopies``. Returns where it went; nil when it could not be moved.
  private func keepAside(_ path: String, kind: String, suffix: String) -> String? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: paths.directory)) ?? []
    let stamp = AsideCopies.nextStamp(after: names, prefix: "\(url.lastPathComponent).\(kind)-")
    let base = "\(paths.directory)/\(url.lastPathComponent).\(kind)-\(stamp)"
    var aside = base + suffix
    var attempt = 0
    while FileManager.default.fileExists(atPath: aside) && attempt < 100 {
      attempt += 1
      aside = "\(base)-\(attempt)\(suffix)"
    }
    guard rename(path, aside) == 0 else { return nil }
    var info = stat()
    if stat(aside, &info) == 0, Int(info.st_size) > ReviewStateCoding.maximumSize {
      _ = truncate(aside, off_t(ReviewStateCoding.maximumSize))
    }
    removeAsideCopies(keeping: JSONFileStore.keptAsideCopies, kinds: [kind])
    return aside
  }

  /// Removes the copies of unusable data kept aside (`<name>.corrupt-...`, `<name>.unsupported-...`)
  /// but the newest `keeping` of each kind.
  private func removeAsideCopies(keeping: Int, kinds: [String] = ["corrupt", "unsupported"]) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: paths.directory) else { return }
    for kind in kinds {
      let prefix = "\(url.lastPathComponent).\(kind)-"
      for name in AsideCopies.newestFirst(names, prefix: prefix).dropFirst(keeping) {
        try? FileManager.default.removeItem(atPath: paths.directory + "/" + name)
      }
    }
  }
}
