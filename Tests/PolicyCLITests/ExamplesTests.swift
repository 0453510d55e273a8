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

/// The README's first command, `policyc check Examples/*.policy`, prints what the README says it prints.
@Suite("README: the first command")
struct ReadmeFirstCommandTests {
  /// The paragraph after the README's first ```sh block.
  static func paragraphAfterFirstCommand() throws -> String {
    let url = Examples.directory.deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let afterBlock = try #require(
      text.range(of: "```sh\n").flatMap { text.range(of: "\n```\n", range: $0.upperBound..<text.endIndex) })
    let rest = text[afterBlock.upperBound...].drop { $0 == "\n" }
    return String(rest.prefix { $0 != "#" }).components(separatedBy: "\n\n").first ?? ""
  }

  @Test("the README names the warnings `policyc check Examples/*.policy` prints, their file and its summary line")
  func readmeSaysWhatTheFirstCommandPrints() throws {
    let paragraph = try ReadmeFirstCommandTests.paragraphAfterFirstCommand().replacingOccurrences(of: "\n", with: " ")
    let io = MemoryIO()
    for name in Examples.names { io.addFile("Examples/" + name, bytes: try Examples.bytes(name)) }
    let result = io.run(["check"] + Examples.names.map { "Examples/" + $0 })
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let summary = try #require(lines.last)
    #expect(paragraph.contains("`\(summary)`"), "the README does not quote `\(summary)`: \(paragraph)")
    let warnings = lines.filter { $0.contains(": warning: ") }
    let codes = warnings.compactMap { line in line.split(separator: "[").last.map { String($0.dropLast()) } }.sorted()
    let files = Set(warnings.compactMap { $0.split(separator: ":").first.map(String.init) })
    #expect(!codes.isEmpty, "the examples print warnings")
    let named = codes.count == 1 ? codes[0] : "\(codes[0])–\(codes[codes.count - 1])"
    #expect(paragraph.contains("\(codes.count) warnings (\(named))"), "\(paragraph)")
    for file in files { #expect(paragraph.contains("`\(file)`"), "the README does not say \(file) has warnings") }
    #expect(paragraph.contains("docs/walkthrough.md"), "the README says why the one-liner has warnings")
  }
}
