import Foundation
import Testing

@testable import ReviewPolicy

/// The kill test, run through the `review-stress` executable built beside the tests: children
/// recording events are killed with SIGKILL at random instants; the state file must always load,
/// no total may go backwards, and at most the event in flight may be missing. The full run is
/// `swift run -c release review-stress kill-test` (200 kills); this is a short one per test run.
@Suite("reliability: kill test", .serialized)
struct ReliabilityKillTests {
  /// The `review-stress` executable in the build's products folder, if it was built.
  static let executable: URL? = {
    var folders: [URL] = []
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        folders.append(bundle.bundleURL.deletingLastPathComponent())
      }
    #endif
    if let main = Bundle.main.executableURL { folders.append(main.deletingLastPathComponent()) }
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    return folders.map { $0.appendingPathComponent("review-stress") }.first {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }
  }()

  /// Runs `review-stress` with `arguments`; returns its exit status and its standard output and
  /// error, in one text.
  static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let url = try #require(executable, "needs the review-stress executable")
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output  // a violation is printed there: the expectation shows it
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test(
    "kill-test: 25 children killed with SIGKILL while recording; the file always loads and no event is lost",
    .enabled(if: executable != nil, "needs the review-stress executable"))
  func killTest() throws {
    let (status, output) = try Self.run(["kill-test", "--kills", "25"])
    print(output, terminator: "")
    #expect(status == 0, "\(output)")
    #expect(output.contains("kill test passed"))
    #expect(output.contains("kills: 25,"))
    #expect(output.contains("kills after the child had recorded at least one event: "))
    #expect(
      output.contains("max in-flight difference (file total - last printed total): 0")
        || output.contains("max in-flight difference (file total - last printed total): 1"))
  }

  @Test("a load removes the temporary files that killed saves left, once they are a minute old")
  func abandonedSavesRemoved() throws {
    // Found by the kill test: each kill between a save's write and its rename left a
    // `.review-state.json.<random>.tmp` file, and nothing ever removed them.
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let store = JSONFileStore(url: directory.file("review-state.json"))
    var state = ReviewState()
    state.uses = 3
    try store.save(state)
    let old = ".review-state.json.123.tmp"
    let young = ".review-state.json.456.tmp"
    let other = ".other.json.789.tmp"
    for name in [old, young, other] { try Data("{\"uses\":1}".utf8).write(to: directory.file(name)) }
    for name in [old, other] {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-JSONFileStore.abandonedSaveAge - 5)],
        ofItemAtPath: directory.file(name).path)
    }
    guard case .loaded(let loaded) = store.load() else {
      Issue.record("expected the saved state")
      return
    }
    #expect(loaded.uses == 3)
    #expect(try Set(directory.contents()) == ["review-state.json", young, other])
  }

  @Test(
    "kill-test catches a store that is not atomic (children rewriting the file in place)",
    .enabled(if: executable != nil, "needs the review-stress executable"))
  func killTestCatchesAnUnsafeStore() throws {
    let (status, output) = try Self.run(["kill-test", "--kills", "40", "--unsafe-in-place-store"])
    #expect(status == 1, "\(output)")
    #expect(output.contains("kill test FAILED"))
    #expect(output.contains("the state file did not load: corrupt review state"))
  }
}
