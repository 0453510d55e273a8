import Foundation
import PolicyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// Writes all of `bytes` with `write(2)`; returns how many were written.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int {
  var written = 0
  while written < bytes.count {
    let count = bytes.withUnsafeBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return 0 }
      return write(descriptor, base + written, buffer.count - written)
    }
    if count < 0 && errno == EINTR { continue }
    guard count > 0 else { break }
    written += count
  }
  return written
}
