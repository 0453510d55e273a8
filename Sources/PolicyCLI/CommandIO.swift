import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The two output streams of a command.
package enum OutputStream: Sendable {
  /// Results.
  case standardOutput
  /// Usage and I/O errors.
  case standardError
}

/// Why a file could not be read.
package struct FileReadError: Error, Sendable, CustomStringConvertible {
  /// The operating system's reason, such as "No such file or directory".
  package var reason: String

  /// Creates an error.
  package init(reason: String) {
    self.reason = reason
  }

  /// The reason.
  package var description: String { reason }
}

/// Everything a command touches outside itself, so tests can run commands in memory.
package protocol CommandIO: AnyObject {
  /// Writes `text` to `stream`.
  func write(_ text: String, to stream: OutputStream)
  /// The bytes of the file at `path`, or at most `limit` bytes plus the file's true size when larger.
  func readFile(_ path: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int)
  /// All of standard input, up to `limit` bytes, and the number of bytes available.
  func readStandardInput(limit: Int) -> (bytes: [UInt8], size: Int)
  /// Reads the file at `path` (`-`: standard input) in pieces of at most `chunkSize` bytes, each
  /// given to `body` in order, holding no more than one piece.
  func streamFile(_ path: String, chunkSize: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(FileReadError)
  /// Whether `path` is a directory.
  func isDirectory(_ path: String) -> Bool
  /// The names of the entries of directory `path`.
  func contentsOfDirectory(_ path: String) throws(FileReadError) -> [String]
  /// Replaces the file at `path` with `bytes` atomically (nothing partial is ever visible).
  func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileReadError)
  /// Replaces the file at `path` with what `produce` writes through the function it is given
  /// (which may be called from several threads, one piece at a time, each kept whole), holding
  /// no more than a piece: the file appears when `produce` returns, never partial.
  func streamToFile(_ path: String, _ produce: (_ write: @escaping @Sendable (Data) -> Void) -> Void)
    throws(FileReadError)
  /// The environment variables.
  var environment: [String: String] { get }
  /// Whether standard output is a terminal.
  var isStandardOutputTerminal: Bool { get }
  /// Whether standard error is a terminal (progress lines go there).
  var isStandardErrorTerminal: Bool { get }
  /// Whether something other than a directory is at `path` (project files are looked for with it).
  func fileExists(_ path: String) -> Bool
  /// The absolute path of the current directory, where relative paths start.
  var currentDirectory: String { get }
}

extension CommandIO {
  /// By default, the whole file (or standard input) read at once, then given in pieces: for
  /// in-memory I/O; the system's reads stream.
  package func streamFile(_ path: String, chunkSize: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    throws(FileReadError)
  {
    let bytes = path == "-" ? readStandardInput(limit: Int.max).bytes : try readFile(path, limit: Int.max).bytes
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + max(1, chunkSize))
      bytes[start..<end].withUnsafeBufferPointer { body($0) }
      start = end
    }
  }

  /// By default, the pieces gathered under a lock, then written with ``replaceFile(_:with:)``:
  /// for in-memory I/O; the system's writes stream.
  package func streamToFile(_ path: String, _ produce: (_ write: @escaping @Sendable (Data) -> Void) -> Void)
    throws(FileReadError)
  {
    let gathered = LockedBytes()
    produce { gathered.append($0) }
    try replaceFile(path, with: gathered.bytes)
  }

  /// By default, standard error is a terminal when standard output is (as in tests' in-memory I/O).
  package var isStandardErrorTerminal: Bool { isStandardOutputTerminal }

  /// By default, whether ``readFile(_:limit:)`` can read `path` (an unreadable file counts as absent).
  package func fileExists(_ path: String) -> Bool {
    !isDirectory(path) && (try? readFile(path, limit: 0)) != nil
  }

  /// By default the root: relative paths are never looked at above the directory they start from.
  package var currentDirectory: String { "/" }
}

/// The real process: files through POSIX calls, the real streams and environment.
package final class SystemIO: CommandIO {
  /// Creates the system I/O.
  package init() {}

  /// Writes to the process's stream.
  package func write(_ text: String, to stream: OutputStream) {
    let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
    handle.write(Data(text.utf8))
  }

  /// Reads a file with `open`/`read`, reporting `strerror` on failure.
  package func readFile(_ path: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int) {
    let descriptor = try SystemIO.openForReading(path)
    defer { close(descriptor) }
    return try SystemIO.readAll(descriptor, limit: limit)
  }

  /// Reads standard input.
  package func readStandardInput(limit: Int) -> (bytes: [UInt8], size: Int) {
    (try? SystemIO.readAll(0, limit: limit)) ?? ([], 0)
  }

  /// Reads the file (or standard input, `-`) a chunk at a time.
  package func streamFile(_ path: String, chunkSize: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    throws(FileReadError)
  {
    let descriptor = path == "-" ? 0 : try SystemIO.openForReading(path)
    defer { if descriptor != 0 { close(descriptor) } }
    try SystemIO.readChunks(descriptor, chunkSize: chunkSize, body)
  }

  /// Opens the file at `path` for reading, refusing a directory.
  private static func openForReading(_ path: String) throws(FileReadError) -> Int32 {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw FileReadError(reason: String(cString: strerror(errno))) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      close(descriptor)
      throw FileReadError(reason: String(cString: strerror(errno)))
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      close(descriptor)
      throw FileReadError(reason: "Is a directory")
    }
    return descriptor
  }

  /// Gives `body` each piece of at most `chunkSize` bytes read from `descriptor` until its end.
  private static func readChunks(
    _ descriptor: Int32, chunkSize: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) throws(FileReadError) {
    var chunk = [UInt8](repeating: 0, count: max(1, chunkSize))
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw FileReadError(reason: String(cString: strerror(errno)))
      }
      if count == 0 { return }
      chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }
  }

  private static func readAll(_ descriptor: Int32, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int) {
    var bytes: [UInt8] = []
    var total = 0
    try readChunks(descriptor, chunkSize: 65_536) { chunk in
      total += chunk.count
      if bytes.count < limit { bytes.append(contentsOf: chunk.prefix(limit - bytes.count)) }
    }
    return (bytes, total)
  }

  /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
  package func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileReadError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: Data(bytes)) else {
      throw FileReadError(reason: "cannot create a file in `\(url.deletingLastPathComponent().path)`")
    }
    if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let permissions = attributes[.posixPermissions]
    {
      try? FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
    }
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw FileReadError(reason: reason)
    }
  }

  /// Writes the pieces to a temporary file beside `path` as they come, then renames it over `path`.
  package func streamToFile(_ path: String, _ produce: (_ write: @escaping @Sendable (Data) -> Void) -> Void)
    throws(FileReadError)
  {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw FileReadError(reason: "cannot create a file in `\(url.deletingLastPathComponent().path)`")
    }
    let output = DescriptorOutput(descriptor)
    produce { output.write($0) }
    let failure = output.failure
    close(descriptor)
    if let failure {
      try? FileManager.default.removeItem(at: temporary)
      throw FileReadError(reason: failure)
    }
    guard rename(temporary.path, path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw FileReadError(reason: reason)
    }
  }

  /// Whether `path` names a directory.
  package func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
  }

  /// Lists a directory.
  package func contentsOfDirectory(_ path: String) throws(FileReadError) -> [String] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw FileReadError(reason: "cannot list the directory")
    }
  }

  /// The process environment.
  package var environment: [String: String] { ProcessInfo.processInfo.environment }

  /// Whether standard output is a terminal.
  package var isStandardOutputTerminal: Bool { isatty(1) == 1 }

  /// Whether standard error is a terminal.
  package var isStandardErrorTerminal: Bool { isatty(2) == 1 }

  /// Whether `path` exists and is not a directory (`stat`).
  package func fileExists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFDIR
  }

  /// The process's current directory.
  package var currentDirectory: String { FileManager.default.currentDirectoryPath }
}

/// Bytes appended from several threads under one lock.
final class LockedBytes: @unchecked Sendable {
  // @unchecked: `stored` is only touched while holding `lock`.
  private let lock = NSLock()
  private var stored: [UInt8] = []

  /// Appends `data` whole.
  func append(_ data: Data) {
    lock.lock()
    stored.append(contentsOf: data)
    lock.unlock()
  }

  /// Everything appended so far.
  var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}

/// Writes to an open file descriptor from several threads, one piece at a time, remembering the
/// first failure (later pieces are then dropped).
final class DescriptorOutput: @unchecked Sendable {
  // @unchecked: `failure` is only touched, and the descriptor only written, while holding `lock`.
  private let lock = NSLock()
  private let descriptor: Int32
  private var firstFailure: String?

  /// An output to `descriptor` (which the caller closes).
  init(_ descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Writes all of `data`, unless a write failed before.
  func write(_ data: Data) {
    lock.lock()
    defer { lock.unlock() }
    guard firstFailure == nil else { return }
    data.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let count = Foundation.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          firstFailure = String(cString: strerror(errno))
          return
        }
        offset += count
      }
    }
  }

  /// The first write's failure, if any.
  var failure: String? {
    lock.lock()
    defer { lock.unlock() }
    return firstFailure
  }
}
