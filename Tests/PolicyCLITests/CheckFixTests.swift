// Golden tests for `policyc check --fix`.
//
// Each case is `Golden/fix/NAME.policy` and `Golden/fix/NAME.expected`: the standard output of
// `policyc check --fix NAME.policy` (in memory, no colour), `exit: N`, then `--- NAME.policy ---`
// and the file as it was left. The fix-its come from a test check (`&&` → `and`, and a fix for
// `||` that makes the file worse), so the cases do not change when the compiler's own fix-its do.
// Regenerate with `UPDATE_GOLDEN=1 swift test --filter PolicyCLITests.CheckFixTests`.

import Foundation
import PolicyCore
import PolicyTools
import Testing

@testable import PolicyCLI

/// The standard check with test fix-its: `&&` → `and`, and `||` → `|| ) ||` (worse).
let testFixIts: PolicyFixer.Check = { source in
  PolicyFixer.standardCheck(source).map { diagnostic in
    var diagnostic = diagnostic
    switch source.text(in: diagnostic.range) {
    case "&&":
      diagnostic.fixIts = [FixIt("replace `&&` with `and`", edits: [.init(replacing: diagnostic.range, with: "and")])]
    case "||":
      diagnostic.fixIts = [FixIt("make it worse", edits: [.init(replacing: diagnostic.range, with: "|| ) ||")])]
    default: break
    }
    return diagnostic
  }
}

@Suite("policyc check --fix")
struct CheckFixTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden").appendingPathComponent("fix")

  static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".policy") }.map { String($0.dropLast(".policy".count)) }.sorted()

  @Test("golden case", arguments: cases)
  func golden(_ name: String) throws {
    let input = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name + ".policy")))
    let io = MemoryIO()
    io.addFile(name + ".policy", bytes: input)
    let status = CheckCommand.run(["--fix", name + ".policy"], io: io, fixer: PolicyFixer(check: testFixIts))
    #expect(io.standardError == "")
    let fixed = io.files[name + ".policy"] ?? []
    let actual =
      io.standardOutput + "exit: \(status)\n--- \(name).policy ---\n" + String(decoding: fixed, as: UTF8.self)
    let expectedURL = Self.directory.appendingPathComponent(name + ".expected")
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
      try Data(actual.utf8).write(to: expectedURL)
      return
    }
    let expected = String(decoding: try Data(contentsOf: expectedURL), as: UTF8.self)
    #expect(actual == expected, "\(firstDifference(actual, expected))")
    #expect(io.writtenPaths == (fixed == input ? [] : [name + ".policy"]))
  }

  @Test("--fix with standard input, another format or no files is a usage error")
  func usageErrors() {
    for arguments in [["--fix", "-"], ["--fix", "--format", "json", "a.policy"], ["--fix"]] {
      let io = MemoryIO()
      io.addFile("a.policy", "ask when true\n")
      #expect(PolicyCLI.run(["check"] + arguments, io: io) == PolicyCLI.usageError)
      #expect(io.standardError.contains("policyc check: error:"))
      #expect(io.writtenPaths.isEmpty)
    }
  }

  @Test("a file that cannot be written is reported and left as it was")
  func writeError() {
    let io = MemoryIO()
    io.addFile("a.policy", "ask when days >= 30 && uses >= 20\n")
    io.writeErrors["a.policy"] = "Read-only file system"
    let status = CheckCommand.run(["--fix", "a.policy"], io: io, fixer: PolicyFixer(check: testFixIts))
    #expect(status == PolicyCLI.usageError)
    #expect(io.standardError == "policyc check: error: cannot write `a.policy`: Read-only file system\n")
    #expect(io.standardOutput.contains("[PC102]"))
    #expect(String(decoding: io.files["a.policy"] ?? [], as: UTF8.self) == "ask when days >= 30 && uses >= 20\n")
  }

  @Test("the real check --fix leaves a clean directory unchanged")
  func directory() {
    let io = MemoryIO()
    io.addFile("dir/a.policy", cleanPolicy)
    io.addFile("dir/b.policy", cleanPolicy)
    #expect(PolicyCLI.run(["check", "--fix", "dir"], io: io) == PolicyCLI.success)
    #expect(io.standardOutput == "no fixes applied\nchecked 2 files: no problems\n")
    #expect(io.writtenPaths.isEmpty)
  }
}
