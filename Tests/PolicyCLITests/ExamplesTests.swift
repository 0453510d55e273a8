import Foundation
import Testing

@testable import PolicyCLI

/// The policies in `Examples/` at the package root, found from this file's path.
enum Examples {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // PolicyCLITests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // package root
    .appendingPathComponent("Examples")

  /// The names of the `*.policy` files, sorted; empty when there are none yet.
  static let names: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".policy") }.sorted()

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
  }
}

@Suite("the examples check cleanly", .enabled(if: !Examples.names.isEmpty, "Examples/ has no .policy files yet"))
struct ExamplesTests {
  @Test("policyc check Examples/NAME.policy exits 0", arguments: Examples.names)
  func example(_ name: String) throws {
    let path = "Examples/" + name
    let io = MemoryIO()
    io.addFile(path, bytes: try Examples.bytes(name))
    let result = io.run(["check", path])
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(result.standardError == "")
    let summary = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    #expect(
      summary == "checked 1 file: no problems"
        || (summary.hasPrefix("checked 1 file: ") && summary.hasSuffix(" warnings"))
        || summary == "checked 1 file: 1 warning",
      "\(result.standardOutput)")
    #expect(!result.standardOutput.contains(": error: "))
  }

  @Test("policyc check Examples (the directory) checks every example and exits 0")
  func wholeDirectory() throws {
    let io = MemoryIO()
    for name in Examples.names { io.addFile("Examples/" + name, bytes: try Examples.bytes(name)) }
    let result = io.run(["check", "Examples"])
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(io.readPaths == Examples.names.map { "Examples/" + $0 })
    let files = Examples.names.count == 1 ? "1 file" : "\(Examples.names.count) files"
    #expect(result.standardOutput.contains("checked \(files): "), "\(result.standardOutput)")
  }
}
