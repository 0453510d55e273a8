// Golden tests for the diagnostics of `policyc check`.
//
// Each case is a file `Golden/check/NAME.policy` (raw bytes; it may be binary), or, for an
// input too large to commit, an entry `NAME` in `GoldenInputs.generated` below, plus the file
// `Golden/check/NAME.expected`: the exact standard output of `policyc check NAME.policy`
// (run in process, the virtual file named exactly `NAME.policy`, no colour; with
// `--update-limits` for the cases in `GoldenInputs.updateLimitCases`), followed by a
// final line `exit: N`. Standard error must be empty.
//
// REGENERATING: run
//
//     UPDATE_GOLDEN=1 swift test --filter PolicyCLITests.GoldenTests
//
// to rewrite every `.expected` file from the current output instead of comparing (new cases
// get their file created), then review the diff before committing. Cases listed in
// `GoldenInputs.knownBugs` are never rewritten: their `.expected` files hold the *correct*
// output, written by hand, and they are compared inside `withKnownIssue` until the bug is
// fixed (then `withKnownIssue` fails, and the entry must be removed).
//
// Naming: `PCnnn-situation` for a case about one code, `clean-...` for inputs that check
// cleanly, `mixed-...` for several codes, `no-cascade-...` for recovery cases.

import Foundation
import PolicyCore
import PolicyTools
import Testing

@testable import PolicyCLI

/// Inputs that are generated rather than committed, and the cases with known bugs.
enum GoldenInputs {
  /// Generated inputs by case name.
  static let generated: [String: @Sendable () -> [UInt8]] = [
    // 2 MiB + 1 byte of spaces: one byte over the limit.
    "PC100-file-too-large": { [UInt8](repeating: UInt8(ascii: " "), count: Limits.maximumFileSize + 1) },
    // A megabyte of `(`: one PC113, no deep recursion.
    "PC113-megabyte-of-open-parens": { [UInt8](repeating: UInt8(ascii: "("), count: 1 << 20) },
    // A 4,097-byte string literal.
    "PC115-string-too-long": {
      Array("fact plan: string\nask when plan == \"\(String(repeating: "a", count: 4097))\"\n".utf8)
    },
    // 65,537 rules.
    "PC116-too-many-declarations": {
      Array(String(repeating: "ask when true\n", count: Limits.maximumDeclarations + 1).utf8)
    },
    // A list of 4,097 elements.
    "PC117-list-too-long": {
      Array("ask when days in [\((1...4097).map(String.init).joined(separator: ", "))]\n".utf8)
    },
    // 101 unused `let`s: 100 PC302 warnings, then one PC399.
    "PC399-too-many-warnings": {
      Array(("ask when true\n" + (1...101).map { "let unused_\($0) = \($0)\n" }.joined()).utf8)
    },
    // Past each count of the limits of a remote update (`--update-limits`).
    "PC122-update-too-many-rules": { Array(String(repeating: "ask when rated\n", count: 257).utf8) },
    "PC123-update-too-many-lets": {
      Array(((0...256).map { "let l\($0) = \($0)\n" }.joined() + "ask when days > l0\n").utf8)
    },
    "PC124-update-too-many-facts": {
      Array(((0...64).map { "fact f\($0): int\n" }.joined() + "ask when f0 > 1\n").utf8)
    },
    "PC125-update-too-many-events": {
      Array(("event " + (0...64).map { "e\($0)" }.joined(separator: ", ") + "\nask when events(\"e0\") > 1\n").utf8)
    },
    "PC126-update-too-many-nodes": {
      Array(("ask when " + (0..<2731).map { "days > \($0)" }.joined(separator: " and ") + "\n").utf8)
    },
    // 1,000 `never` rules beside 1,000 `ask` rules: checking each ask rule against every never
    // rule needs more than the analysis's budget, so it stops with PC318.
    "PC318-analysis-budget": {
      let guards = "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\n"
      let nevers = (1...1000).map { "never when days == \($0)\n" }.joined()
      return Array((guards + nevers + (1...1000).map { "ask when uses > \($0)\n" }.joined()).utf8)
    },
    // A 200,000-term `and` chain (under 2 MiB), which must check cleanly.
    "clean-200000-term-and-chain": {
      Array((Array(repeating: "rated", count: 200_000).joined(separator: " and ") + "\n").utf8)
    },
  ]

  /// Cases whose current output is wrong, by name, with the bug. Their `.expected` files
  /// hold the correct output and are not rewritten by `UPDATE_GOLDEN=1`.
  static let knownBugs: [String: String] = [:]

  /// Cases checked with `--update-limits`: against the limits of a remote update.
  static let updateLimitCases: Set<String> = [
    "PC122-update-too-many-rules", "PC123-update-too-many-lets", "PC124-update-too-many-facts",
    "PC125-update-too-many-events", "PC126-update-too-many-nodes",
  ]
}

/// One golden case.
struct GoldenCase: Sendable, CustomTestStringConvertible, Comparable {
  let name: String

  var testDescription: String { name }
  var fileName: String { name + ".policy" }
  var inputURL: URL { GoldenCase.directory.appendingPathComponent(fileName) }
  var expectedURL: URL { GoldenCase.directory.appendingPathComponent(name + ".expected") }
  var knownBug: String? { GoldenInputs.knownBugs[name] }

  static func < (lhs: GoldenCase, rhs: GoldenCase) -> Bool { lhs.name < rhs.name }

  /// `Tests/PolicyCLITests/Golden/check`.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden").appendingPathComponent("check")

  /// Names of the files in the golden directory with `suffix`, without it.
  static func names(withSuffix suffix: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return entries.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
  }

  /// Every case: committed inputs and generated ones.
  static let all: [GoldenCase] = Set(names(withSuffix: ".policy") + GoldenInputs.generated.keys)
    .map(GoldenCase.init).sorted()

  /// The input bytes.
  func input() throws -> [UInt8] {
    if let generator = GoldenInputs.generated[name] { return generator() }
    return [UInt8](try Data(contentsOf: inputURL))
  }

  /// The expected file's text, or nil when it does not exist.
  func expected() -> String? {
    (try? Data(contentsOf: expectedURL)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Runs `policyc check NAME.policy` in memory: the golden text and standard error.
  func run() throws -> (output: String, standardError: String) {
    let io = MemoryIO()
    io.addFile(fileName, bytes: try input())
    let flags = GoldenInputs.updateLimitCases.contains(name) ? ["--update-limits"] : []
    let status = PolicyCLI.run(["check"] + flags + [fileName], io: io)
    return (io.standardOutput + "exit: \(status)\n", io.standardError)
  }
}

/// Whether `UPDATE_GOLDEN=1` asks to rewrite the expected files.
let isUpdatingGolden = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"

/// The first line where two texts differ, for readable failures.
func firstDifference(_ actual: String, _ expected: String) -> String {
  let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
  for index in 0..<max(a.count, e.count) {
    let lhs = index < a.count ? String(a[index]) : "<none>"
    let rhs = index < e.count ? String(e[index]) : "<none>"
    if lhs != rhs { return "line \(index + 1):\n  actual:   \(lhs)\n  expected: \(rhs)" }
  }
  return "no difference"
}

/// The diagnostic codes named in header lines (`path:L:C: error: ... [PCnnn]`) of `output`.
func diagnosticCodes(in output: String) -> [String] {
  output.split(separator: "\n").compactMap { line -> String? in
    guard line.contains(": error: ") || line.contains(": warning: "), line.hasSuffix("]"),
      let open = line.lastIndex(of: "[")
    else { return nil }
    let code = line[line.index(after: open)..<line.index(before: line.endIndex)]
    guard code.count == 5, code.hasPrefix("PC"), code.dropFirst(2).allSatisfy(\.isNumber) else { return nil }
    return String(code)
  }
}

@Suite("golden diagnostics of policyc check", .serialized)
struct GoldenTests {
  @Test("golden case", .timeLimit(.minutes(3)), arguments: GoldenCase.all)
  func goldenCase(_ golden: GoldenCase) throws {
    let (output, standardError) = try golden.run()
    #expect(standardError == "", "\(golden.name): nothing is written to standard error")

    if isUpdatingGolden && golden.knownBug == nil {
      try Data(output.utf8).write(to: golden.expectedURL)
      return
    }
    guard let expected = golden.expected() else {
      Issue.record("\(golden.name).expected is missing; run with UPDATE_GOLDEN=1 to create it")
      return
    }
    if let bug = golden.knownBug {
      withKnownIssue(Testing.Comment(rawValue: bug)) {
        #expect(output == expected, "\(firstDifference(output, expected))")
      }
    } else {
      #expect(output == expected, "\(firstDifference(output, expected))")
    }
  }

  @Test("the golden directory has cases and every .expected file has an input")
  func everyExpectedFileHasAnInput() {
    let inputs = Set(GoldenCase.all.map(\.name))
    #expect(inputs.count >= 100, "golden cases found in \(GoldenCase.directory.path)")
    for name in GoldenCase.names(withSuffix: ".expected") where !inputs.contains(name) {
      Issue.record("\(name).expected has no \(name).policy and no generated input")
    }
    for name in GoldenInputs.knownBugs.keys where !inputs.contains(name) {
      Issue.record("known bug listed for \(name), which is not a golden case")
    }
  }

  @Test("every golden .expected file ends with its exit status and has the case's path")
  func expectedFilesAreWellFormed() {
    for golden in GoldenCase.all {
      guard let expected = golden.expected() else { continue }  // reported by goldenCase
      let lines = expected.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.last == "", "\(golden.name).expected ends with a newline")
      let status = lines.count >= 2 ? lines[lines.count - 2] : ""
      #expect(["exit: 0", "exit: 1"].contains(status), "\(golden.name).expected ends with `exit: 0` or `exit: 1`")
      for line in lines where line.contains(": error: ") || line.contains(": warning: ") {
        #expect(line.hasPrefix(golden.fileName + ":"), "\(golden.name): header names the file: \(line)")
      }
    }
  }

  /// Codes that no input can produce today; each one is a bug in the sources.
  static let knownUncoveredCodes: [DiagnosticCode: String] = [:]

  @Test("every diagnostic code is produced by at least one golden case")
  func everyCodeIsCovered() {
    var covered = Set<String>()
    for golden in GoldenCase.all {
      covered.formUnion(diagnosticCodes(in: golden.expected() ?? ""))
    }
    // `policyc check` reports the policy codes (PC1xx-PC3xx); facts and test files (PC4xx)
    // have their own golden cases with `eval`, `explain` and `test`.
    for code in KnownDiagnosticCodes.all where !covered.contains(code.rawValue) && !code.rawValue.hasPrefix("PC4") {
      if let bug = GoldenTests.knownUncoveredCodes[code] {
        withKnownIssue(Testing.Comment(rawValue: bug)) {
          Issue.record("no golden case produces \(code.rawValue) (\(code))")
        }
      } else {
        Issue.record(
          "no golden case produces \(code.rawValue) (\(code)); add Golden/check/\(code.rawValue)-<situation>.policy")
      }
    }
    for code in GoldenTests.knownUncoveredCodes.keys where covered.contains(code.rawValue) {
      Issue.record("\(code.rawValue) is now covered; remove it from knownUncoveredCodes")
    }
    // No golden file names a code that does not exist.
    let known = Set(KnownDiagnosticCodes.all.map(\.rawValue))
    #expect(covered.subtracting(known).isEmpty, "unknown codes in golden files: \(covered.subtracting(known).sorted())")
  }

  @Test(
    "twin cases give the same output but for the file name",
    arguments: [
      ("mixed-crlf-line-endings", "mixed-crlf-line-endings-lf-twin"),
      ("mixed-byte-order-mark", "mixed-byte-order-mark-no-bom-twin"),
    ])
  func twins(name: String, twinName: String) throws {
    let golden = GoldenCase(name: name)
    let twin = GoldenCase(name: twinName)
    let input = try golden.input()
    let twinInput = try twin.input()
    // The committed inputs really differ as intended (no line-ending conversion by git).
    if name.contains("crlf") {
      #expect(input.contains(UInt8(ascii: "\r")))
      #expect(!twinInput.contains(UInt8(ascii: "\r")))
      #expect(input.filter { $0 != UInt8(ascii: "\r") } == twinInput)
    } else {
      #expect(input.starts(with: [0xEF, 0xBB, 0xBF]))
      #expect(Array(input.dropFirst(3)) == twinInput)
    }
    let output = try golden.run().output
    let twinOutput = try twin.run().output.replacingOccurrences(of: twin.fileName, with: golden.fileName)
    #expect(output == twinOutput, "\(firstDifference(output, twinOutput))")
  }

  @Test("case names start with the code they are about")
  func caseNamesMatchTheirCodes() {
    for golden in GoldenCase.all where golden.name.hasPrefix("PC") {
      let code = String(golden.name.prefix(5))
      guard let expected = golden.expected() else { continue }
      #expect(
        diagnosticCodes(in: expected).contains(code),
        "\(golden.name).expected should contain a \(code) diagnostic")
    }
    for golden in GoldenCase.all where golden.name.hasPrefix("clean-") {
      #expect(golden.expected()?.hasSuffix("exit: 0\n") == true, "\(golden.name) checks cleanly")
    }
  }
}
