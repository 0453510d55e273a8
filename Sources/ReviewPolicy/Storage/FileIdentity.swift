import Foundation
import PolicyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
