import Foundation
import PolicyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state a store last read or wrote, valid while the generation and the files' identities hold.
final class Cache: @unchecked Sendable {
  // @unchecked: every access to the field holds `lock`.
  private let lock = NSLock()
  private var stored: Entry?

  /// One known state and what identified the files then.
  struct Entry {
    var state: ReviewState
    var generation: UInt64
    var snapshot: FileIdentity?
    var journal: FileIdentity?
    /// The journal bytes applied to `state` (complete lines only).
    var journalLength: Int
  }

  var entry: Entry? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      defer { lock.unlock() }
      stored = newValue
    }
  }
}
