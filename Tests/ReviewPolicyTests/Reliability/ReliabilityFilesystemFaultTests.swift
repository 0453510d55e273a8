#if os(Linux)
  import Foundation
  import Glibc
  import Testing

  @testable import ReviewPolicy

  /// A small tmpfs mounted for one test: a real filesystem that fills up, or turns read-only.
  struct SmallFilesystem {
    /// The mount point (a new folder under the temporary directory).
    let url: URL

    /// Mounts a tmpfs of `kilobytes` at a new folder; nil when the folder cannot be made or the
    /// mount fails.
    init?(kilobytes: Int) {
      url = URL(fileURLWithPath: NSTemporaryDirectory())
        .appendingPathComponent("ReviewPolicyFilesystemTests-\(UUID().uuidString)", isDirectory: true)
      guard (try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)) != nil else {
        return nil
      }
      guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", url.path]) else {
        try? FileManager.default.removeItem(at: url)
        return nil
      }
    }

    /// Remounts read-only (`true`) or read-write; whether it worked.
    @discardableResult
    func remount(readOnly: Bool) -> Bool {
      Self.run("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", url.path])
    }

    /// Unmounts and removes the folder.
    func unmount() {
      _ = Self.run("/bin/umount", [url.path])
      try? FileManager.default.removeItem(at: url)
    }

    /// Fills the filesystem with 1-byte files (each takes a page) until a write fails; returns them.
    func fill() -> [URL] {
      var files: [URL] = []
      for index in 0..<4_096 {
        let file = url.appendingPathComponent("filler-\(index)")
        files.append(file)
        if !FileManager.default.createFile(atPath: file.path, contents: Data([0x2A])) { break }
      }
      return files
    }

    /// Whether this test run may mount: running as root, and a trial tmpfs mounts. Tests that need
    /// it are skipped otherwise (as an unprivileged user, or in a container without `CAP_SYS_ADMIN`).
    static let isAvailable: Bool = {
      guard getuid() == 0, let probe = SmallFilesystem(kilobytes: 64) else { return false }
      probe.unmount()
      return true
    }()

    /// Runs `tool` with `arguments`, its output discarded; whether it exited 0.
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: tool)
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch { return false }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
  }

  /// Real filesystem faults under a `JSONFileStore`, on Linux as root: a full filesystem and a
  /// read-only folder (a tmpfs of 64 KiB mounted by the test). Saves fail, the manager goes on
  /// counting in memory and reports once; when the filesystem works again the next change saves
  /// everything and reports it once.
  @Suite(
    "Reliability: full and read-only filesystems (Linux, root: mounts a tmpfs)", .serialized,
    .enabled(if: SmallFilesystem.isAvailable, "needs root and a tmpfs mount (mount -t tmpfs)"))
  struct ReliabilityFilesystemFaultTests {
    typealias F = RuntimeFixtures

    /// Calls made while the filesystem fails.
    static let faultyCalls = 40

    /// Runs a manager on a fresh tmpfs: some calls, `fault` (which returns its undo), calls that
    /// cannot save, the undo, one more call; checks counts and the reports.
    static func check(
      _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation,
      fault: (SmallFilesystem) -> (() -> Void)?
    ) throws {
      let filesystem = try #require(SmallFilesystem(kilobytes: 64), sourceLocation: sourceLocation)
      defer { filesystem.unmount() }
      let url = filesystem.url.appendingPathComponent("review-state.json")
      let log = RuntimeLogCollector()
      let clock = RuntimeTestClock()
      let manager = try F.manager(store: JSONFileStore(url: url), clock: clock, logger: log.logger)
      for _ in 0..<5 {
        clock.advance(seconds: 60)
        manager.appLaunched()
        _ = manager.significantEvent("export", mayPrompt: false)
      }
      _ = manager.promptIfAppropriate()
      _ = manager.record(.declined)
      let before = manager.currentState
      #expect(log.entries(.problem).isEmpty, "\(what): \(log.entries(.problem).map(\.summary))")

      let undo = try #require(fault(filesystem), "\(what): the fault could not be made", sourceLocation: sourceLocation)
      for _ in 0..<faultyCalls {
        clock.advance(seconds: 60)
        manager.appEnteredForeground()
        _ = manager.significantEvent("export", mayPrompt: false)
      }
      let during = log.entries(.problem).map(\.summary)
      #expect(
        manager.currentState.totalUses == before.totalUses + faultyCalls, "\(what)", sourceLocation: sourceLocation)
      #expect(
        manager.currentState.totalEvents == before.totalEvents + faultyCalls, "\(what)", sourceLocation: sourceLocation)
      #expect(during.count == 1, "\(what): \(during)", sourceLocation: sourceLocation)
      #expect(during.first?.hasPrefix("cannot save the review state: ") == true, "\(what): \(during)")

      undo()
      manager.appEnteredForeground()
      let after = log.entries(.problem).map(\.summary)
      #expect(after.count == 2 && after.last == "the review state is saved again", "\(what): \(after)")
      guard case .loaded(let stored) = JSONFileStore(url: url).load() else {
        Issue.record("\(what): nothing stored once the filesystem works again", sourceLocation: sourceLocation)
        return
      }
      #expect(stored == manager.currentState, "\(what)", sourceLocation: sourceLocation)
      #expect(stored.totalUses == before.totalUses + faultyCalls + 1 && stored.declinedAny, "\(what)")
    }

    @Test("a full filesystem: saves fail, counts go on in memory, one report; freed, the next change saves all")
    func fullFilesystem() throws {
      try Self.check("full") { filesystem in
        let fillers = filesystem.fill()
        return {
          for file in fillers { try? FileManager.default.removeItem(at: file) }
        }
      }
    }

    @Test(
      "a read-only folder: saves fail, counts go on in memory, one report; writable again, the next change saves all")
    func readOnlyFolder() throws {
      try Self.check("read-only") { filesystem in
        guard filesystem.remount(readOnly: true) else { return nil }
        return { filesystem.remount(readOnly: false) }
      }
    }
  }
#endif
