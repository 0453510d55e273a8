import Foundation
import PolicyAnalysis
import PolicyCore
import PolicyTools
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

/// Files in memory for project-file discovery, which a test may change under a running server.
final class MemoryProjectFiles: PolicyProjectFileSystem, @unchecked Sendable {
  private let lock = NSLock()
  private var files: [String: String]
  private var readPaths: [String] = []
  let currentDirectory: String

  init(_ files: [String: String], currentDirectory: String = "/") {
    self.files = files
    self.currentDirectory = currentDirectory
  }

  /// Replaces (or with nil removes) the file at `path`.
  func set(_ path: String, _ text: String?) {
    lock.withLock { files[path] = text }
  }

  /// The paths read, in order.
  var reads: [String] { lock.withLock { readPaths } }

  func fileExists(atPath path: String) -> Bool {
    lock.withLock { files[path] != nil }
  }

  func contents(atPath path: String, limit: Int) throws(PolicyProjectReadError) -> (bytes: [UInt8], size: Int) {
    let text = lock.withLock {
      readPaths.append(path)
      return files[path]
    }
    guard let text else { throw PolicyProjectReadError(reason: "No such file or directory") }
    return (Array(text.utf8.prefix(limit)), text.utf8.count)
  }
}

@Suite("PolicyProject: the project file")
struct PolicyProjectTests {
  @Test("search paths: the policy's folder, then each one above, to the root")
  func searchPaths() {
    let name = PolicyProject.fileName
    #expect(name == "reviewpolicy.json")
    #expect(
      PolicyProject.searchPaths(forPolicyAt: "/repo/app/p.policy", currentDirectory: "/elsewhere")
        == ["/repo/app/\(name)", "/repo/\(name)", "/\(name)"])
    // Relative paths stay relative and go as far up as the current directory allows.
    #expect(
      PolicyProject.searchPaths(forPolicyAt: "app/sub/p.policy", currentDirectory: "/work/repo")
        == ["app/sub/\(name)", "app/\(name)", name, "../\(name)", "../../\(name)"])
    #expect(PolicyProject.searchPaths(forPolicyAt: "p.policy", currentDirectory: "/") == [name])
    #expect(PolicyProject.searchPaths(forPolicyAt: "p.policy", currentDirectory: "") == [name])
    // `.` and `..` by their names; standard input from the current directory.
    #expect(
      PolicyProject.searchPaths(forPolicyAt: "./a/../b/./p.policy", currentDirectory: "/w")
        == ["b/\(name)", name, "../\(name)"])
    #expect(
      PolicyProject.searchPaths(forPolicyAt: "../x/p.policy", currentDirectory: "/w/r")
        == ["../x/\(name)", "../\(name)", "../../\(name)"])
    #expect(PolicyProject.searchPaths(forPolicyAt: nil, currentDirectory: "/w") == [name, "../\(name)"])
    #expect(PolicyProject.searchPaths(forPolicyAt: "/../p.policy", currentDirectory: "/w") == ["/\(name)"])
  }

  @Test("reading: the event names in file order, the environment recording them")
  func read() throws {
    let project = try PolicyProject.read(
      SourceFile(path: "reviewpolicy.json", text: #"{"events": ["purchase", "export", "level up"]}"#)
    ).get()
    #expect(project == PolicyProject(path: "reviewpolicy.json", eventNames: ["purchase", "export", "level up"]))
    #expect(project.environment.eventNames == ["purchase", "export", "level up"])
    let empty = try PolicyProject.read(SourceFile(path: "p.json", text: "{}")).get()
    #expect(empty.eventNames.isEmpty)
    #expect(empty.environment.eventNames.isEmpty)
  }

  @Test("lookup: the nearest file wins; nothing found; a file with problems")
  func lookup() {
    let files = MemoryProjectFiles([
      "/r/reviewpolicy.json": #"{"events": ["a"]}"#,
      "/r/x/reviewpolicy.json": #"{"events": ["b"]}"#,
      "/s/reviewpolicy.json": #"{"evnts": ["b"]}"#,
    ])
    guard case .found(let nearest) = PolicyProject.lookup(forPolicyAt: "/r/x/y/p.policy", in: files) else {
      Issue.record("expected a project file")
      return
    }
    #expect(nearest == PolicyProject(path: "/r/x/reviewpolicy.json", eventNames: ["b"]))
    guard case .notFound = PolicyProject.lookup(forPolicyAt: "/t/p.policy", in: files) else {
      Issue.record("expected none")
      return
    }
    guard
      case .failed(.invalid(let source, let diagnostics)) = PolicyProject.lookup(forPolicyAt: "/s/p.policy", in: files)
    else {
      Issue.record("expected a failure")
      return
    }
    #expect(source.path == "/s/reviewpolicy.json")
    #expect(diagnostics.map(\.code.rawValue) == ["PC402"])
    #expect(diagnostics.first?.help == ["did you mean `events`?"])
  }

  @Test("a finder reads each folder's project file once, and `given` wins without reading any")
  func finder() throws {
    let files = MemoryProjectFiles(["/r/reviewpolicy.json": #"{"events": ["a"]}"#])
    var finder = PolicyProject.Finder()
    #expect(try finder.environment(forPolicyAt: "/r/p.policy", in: files).get().eventNames == ["a"])
    #expect(try finder.environment(forPolicyAt: "/r/q.policy", in: files).get().eventNames == ["a"])
    #expect(try finder.environment(forPolicyAt: "/elsewhere/q.policy", in: files).get().eventNames.isEmpty)
    #expect(files.reads == ["/r/reviewpolicy.json"])
    var given = PolicyProject.Finder(given: PolicyEnvironment(eventNames: ["z"]))
    #expect(try given.environment(forPolicyAt: "/r/p.policy", in: files).get().eventNames == ["z"])
    #expect(files.reads == ["/r/reviewpolicy.json"])
  }

  @Test("PolicyTestSuite.run(contentsOf:) finds the project file of the policy on disk")
  func testSuiteOnDisk() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("ask when events(\"share\") >= 1\n".utf8).write(to: folder.appendingPathComponent("p.policy"))
    try Data(#"{"events": ["export"]}"#.utf8).write(to: folder.appendingPathComponent("reviewpolicy.json"))
    let test = folder.appendingPathComponent("p.test.json")
    try Data(#"{"policy": "p.policy", "cases": [{"name": "a", "facts": {}, "expect": "dont_ask"}]}"#.utf8).write(
      to: test)
    guard case .failure(let failure) = PolicyTestSuite.run(contentsOf: test.path) else {
      Issue.record("the policy reads an event the app does not record")
      return
    }
    #expect(failure.problems.first?.diagnostics.map(\.code.rawValue) == ["PC217"])
    #expect(
      try PolicyTestSuite.run(contentsOf: test.path, environment: PolicyEnvironment(eventNames: ["share"])).get().passed
        == 1)
  }
}

@Suite("PolicyEnvironment")
struct PolicyEnvironmentTests {
  @Test("the standard environment knows no event names; one from names records them; both check as policyc does")
  func environments() {
    #expect(PolicyEnvironment.standard.eventNames.isEmpty)
    #expect(PolicyEnvironment.standard.schema == ReviewSchema.standard)
    let app = PolicyEnvironment(eventNames: ["export", "purchase", ""])
    #expect(app.eventNames == ["export", "purchase"])
    #expect(app.schema == ReviewSchema.standard.recordingEvents(["export", "purchase"]))
    #expect(app.checks.flatMap(\.codes) == ReviewEtiquette.checks.flatMap(\.codes))
    let text = "ask when events(\"exprt\") >= 3\n"
    #expect(PolicyEnvironment.standard.compile(text).policy != nil)
    #expect(app.compile(text).diagnostics.map(\.code.rawValue) == ["PC217"])
    // `check` adds the etiquette warnings to the compiler's diagnostics.
    let warnings = PolicyEnvironment.standard.check(SourceFile(path: "p.policy", text: text)).map(\.code.rawValue)
    #expect(warnings == ["PC320", "PC321", "PC322"])
    #expect(PolicyFixer.standardCheck(SourceFile(path: "p.policy", text: text)).map(\.code.rawValue) == warnings)
  }
}
