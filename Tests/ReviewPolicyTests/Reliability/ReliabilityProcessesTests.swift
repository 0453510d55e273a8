import Foundation
import Testing

@testable import ReviewPolicy

/// The multi-process kill test (issue 15, part 3), run through the `review-stress` executable
/// built beside the tests: three writers record into one state file while one at a time is killed
/// with SIGKILL, at random instants and at each kill point of a save (holding the lock, before the
/// rename, moved aside, after the journal append), and garbage is left in the lock file. The full
/// run is `swift run -c release review-stress processes --kills 250` (`.ci/reliability`); this is
/// a short one, a few kills per point, per test run.
@Suite("reliability: processes killed one at a time", .serialized)
struct ReliabilityProcessesTests {
  @Test(
    "3 writers, 15 kills (3 at each point): the file always loads, no count goes back, every count exact",
    .enabled(if: ReliabilityKillTests.executable != nil, "needs the review-stress executable"))
  func processesKillTest() throws {
    let (status, output) = try ReliabilityKillTests.run(["processes", "--processes", "3", "--kills", "15"])
    print(output, terminator: "")
    #expect(status == 0, "\(output)")
    #expect(output.contains("processes: every count exact"))
    #expect(
      output.contains(
        "kills by point: random 3, locked 3, temporary-written 3, moved-aside 3, journal-appended 3"))
    #expect(output.contains("garbage or short values left in the lock file: 2; the other writers kept recording"))
  }

  @Test("a lock file with garbage, a short value or nothing in it neither blocks nor breaks a store")
  func garbageLockFile() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let store = JSONFileStore(url: url)
    var state = ReviewState()
    state.totalEvents = 5
    try store.save(state)
    for contents in [Data((0..<24).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }), Data("abc".utf8), Data()] {
      try contents.write(to: store.lockURL)
      // A store that saw the file before, and one that never did: both read it whole and go on.
      try store.update { loaded in
        guard case .loaded(var current) = loaded else { return nil }
        current.totalEvents += 1
        return current
      }
      guard case .loaded(let loaded) = JSONFileStore(url: url).load() else {
        Issue.record("the state does not load with `\(contents.count)` bytes in the lock file")
        return
      }
      state.totalEvents += 1
      #expect(loaded.totalEvents == state.totalEvents)
    }
  }
}
