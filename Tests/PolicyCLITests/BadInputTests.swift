import Foundation
import PolicyCore
import Testing

@testable import PolicyCLI

/// Runs `policyc check NAME` on raw bytes, no colour.
func checkBytes(_ bytes: [UInt8], named name: String = "bad.policy") -> RunResult {
  let io = MemoryIO()
  io.addFile(name, bytes: bytes)
  return io.run(["check", name])
}

/// Hostile inputs: each must finish quickly with its exact diagnostic, never crash or hang.
@Suite("policyc check on bad input", .timeLimit(.minutes(2)))
struct BadInputTests {
  @Test("invalid UTF-8 bytes: one PC101 naming the bytes")
  func invalidUTF8() {
    let result = checkBytes(
      Array("ask when days >= 30 and ".utf8) + [0xC3, 0x28, 0xFF, 0xFE] + Array(" uses >= 20\n".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:1:25: error: invalid UTF-8 byte 0xC3 [PC101]
             1 | ask when days >= 30 and \u{FFFD}(\u{FFFD}\u{FFFD} uses >= 20
               |                         ^
            help: save the file as UTF-8
            bad.policy:1:27: error: invalid UTF-8 bytes 0xFF 0xFE [PC101]
             1 | ask when days >= 30 and \u{FFFD}(\u{FFFD}\u{FFFD} uses >= 20
               |                           ^~
            help: save the file as UTF-8
            checked 1 file: 2 errors

            """,
          standardError: ""))
  }

  @Test("a file of random-looking binary bytes gives a bounded report")
  func binaryGarbage() {
    // A deterministic pseudo-random byte soup (a linear congruential generator).
    var state: UInt32 = 12345
    var bytes: [UInt8] = []
    for _ in 0..<200_000 {
      state = state &* 1_103_515_245 &+ 12345
      bytes.append(UInt8(truncatingIfNeeded: state >> 16))
    }
    let result = checkBytes(bytes)
    #expect(result.status == 1)
    #expect(result.standardError == "")
    let codes = diagnosticCodes(in: result.standardOutput)
    #expect(codes.count == 101, "100 errors and PC199")
    #expect(codes.last == "PC199")
    #expect(result.standardOutput.hasSuffix("help: fix the errors above and check again\nchecked 1 file: 100 errors\n"))
  }

  @Test("NUL bytes: PC102 for each, with advice about binary files")
  func nulBytes() {
    let result = checkBytes(Array("ask when days >= 30".utf8) + [0, 0] + Array("\nnever when\0declined\n".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:1:20: error: unexpected control character U+0000 [PC102]
             1 | ask when days >= 30\u{FFFD}\u{FFFD}
               |                    ^
            help: the file contains a NUL byte; is it a text file?
            bad.policy:1:21: error: unexpected control character U+0000 [PC102]
             1 | ask when days >= 30\u{FFFD}\u{FFFD}
               |                     ^
            help: the file contains a NUL byte; is it a text file?
            bad.policy:2:11: error: unexpected control character U+0000 [PC102]
             2 | never when\u{FFFD}declined
               |           ^
            help: the file contains a NUL byte; is it a text file?
            checked 1 file: 3 errors

            """,
          standardError: ""))
  }

  @Test("a megabyte of `(`: one PC113 at the 65th parenthesis")
  func megabyteOfParentheses() {
    let result = checkBytes([UInt8](repeating: UInt8(ascii: "("), count: 1 << 20))
    let excerpt = "..." + String(repeating: "(", count: 120) + "..."
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: "bad.policy:1:65: error: expression nests more than 64 levels deep [PC113]\n"
            + " 1 | \(excerpt)\n"
            + "   | \(String(repeating: " ", count: 43))^\n"
            + "help: split it into `let` definitions\n"
            + "checked 1 file: 1 error\n",
          standardError: ""))
  }

  @Test("a megabyte of `[` and of `-` and of `not `: one PC113 each")
  func otherDeepNesting() {
    for (text, column) in [("[", 65), ("-", 65)] {
      let result = checkBytes(Array("ask when ".utf8) + Array(String(repeating: text, count: 1 << 20).utf8))
      #expect(result.status == 1)
      #expect(diagnosticCodes(in: result.standardOutput) == ["PC113"], "\(text)")
      #expect(
        result.standardOutput.hasPrefix(
          "bad.policy:1:\(column + 9): error: expression nests more than 64 levels deep [PC113]\n"))
    }
    let nots = checkBytes(Array(("ask when " + String(repeating: "not ", count: 250_000) + "declined\n").utf8))
    #expect(diagnosticCodes(in: nots.standardOutput) == ["PC113"])
    #expect(
      nots.standardOutput.hasPrefix("bad.policy:1:266: error: expression nests more than 64 levels deep [PC113]\n"))
  }

  @Test("a 200,000-term `and` chain checks cleanly")
  func longAndChain() {
    let text = Array(repeating: "rated", count: 200_000).joined(separator: " and ") + "\n"
    #expect(text.utf8.count < Limits.maximumFileSize)
    let result = checkBytes(Array(text.utf8))
    #expect(result == RunResult(status: 0, standardOutput: "checked 1 file: no problems\n", standardError: ""))
  }

  @Test("a 100,000-term `or` chain of comparisons inside a rule checks cleanly")
  func longOrChain() {
    let text = "ask when " + (1...100_000).map { "uses == \($0 % 10)" }.joined(separator: " or ") + "\n"
    #expect(text.utf8.count < Limits.maximumFileSize)
    let result = checkBytes(Array(text.utf8))
    #expect(result == RunResult(status: 0, standardOutput: "checked 1 file: no problems\n", standardError: ""))
  }

  @Test("a 400-digit integer: one PC105 with the digit count")
  func fourHundredDigits() {
    let digits = String(repeating: "9876543210", count: 40)
    let result = checkBytes(Array("ask when days >= \(digits)\n".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput:
            "bad.policy:1:18: error: integer `987654321098765432109876...` does not fit in 64 bits [PC105]\n"
            + " 1 | ask when days >= \(digits.prefix(103))...\n"
            + "   |                  ^\(String(repeating: "~", count: 102))\n"
            + "help: ints range from -9223372036854775808 to 9223372036854775807; this one has 400 digits\n"
            + "checked 1 file: 1 error\n",
          standardError: ""))
  }

  @Test("an unterminated string: one PC103 up to the end of the line, and the next rule is checked")
  func unterminatedString() {
    let result = checkBytes(Array("fact plan: string\nask when plan == \"pro and days > 3\nask when dayz > 1\n".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:2:18: error: string is missing its closing `"` [PC103]
             2 | ask when plan == "pro and days > 3
               |                  ^~~~~~~~~~~~~~~~~
            help: strings end on the line where they start; add `"` at the end
            bad.policy:3:10: error: unknown name `dayz` [PC201]
             3 | ask when dayz > 1
               |          ^~~~
            help: did you mean `days`?
            checked 1 file: 2 errors

            """,
          standardError: ""))
  }

  @Test("an unterminated string at the end of a file without a final newline")
  func unterminatedStringAtEndOfFile() {
    let result = checkBytes(Array("fact plan: string\nask when plan == \"pro".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:2:18: error: string is missing its closing `"` [PC103]
             2 | ask when plan == "pro
               |                  ^~~~
            help: strings end on the line where they start; add `"` at the end
            checked 1 file: 1 error

            """,
          standardError: ""))
  }

  /// A policy with errors on several lines, written with LF line endings.
  static let lineEndingPolicy = """
    # comment\u{2265}
    let x = dayz >= 3
    fact plan: string
    ask when plan == "ab
    ask when days >= 3 and uses >= 2 \u{2265} 3 and (declined
    ask when since(first_use) >= 30
    ask when days >=
    """

  @Test("CRLF line endings give exactly the diagnostics and columns of the LF twin")
  func crlfLineEndings() {
    let lf = BadInputTests.lineEndingPolicy
    let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
    #expect(crlf.utf8.count == lf.utf8.count + 6)
    let lfResult = checkBytes(Array(lf.utf8), named: "twin.policy")
    let crlfResult = checkBytes(Array(crlf.utf8), named: "twin.policy")
    #expect(crlfResult == lfResult)
    #expect(!crlfResult.standardOutput.contains("\r"))
    #expect(lfResult.status == 1)
    #expect(
      lfResult.standardOutput.split(separator: "\n").filter { $0.hasPrefix("twin.policy:") }.map {
        String($0.prefix { $0 != " " })
      } == ["twin.policy:2:9:", "twin.policy:4:18:", "twin.policy:5:34:", "twin.policy:6:10:", "twin.policy:7:15:"])
    #expect(
      diagnosticCodes(in: lfResult.standardOutput) == ["PC201", "PC103", "PC102", "PC203", "PC109"])
  }

  @Test("CRLF: a caret at the end of a line stops before the CR")
  func crlfCaretAtEndOfLine() {
    let result = checkBytes(Array("ask when (days >= 30\r\n".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:1:10: error: `(` is never closed [PC112]
             1 | ask when (days >= 30
               |          ^
            help: add `)` where the parenthesized expression ends
            checked 1 file: 1 error

            """,
          standardError: ""))
    #expect(
      checkBytes(Array("ask when\r\n".utf8))
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:1:9: error: expected an expression, found the end of the file [PC109]
             1 | ask when
               |         ^
            help: finish the condition, for example `days >= 30`
            checked 1 file: 1 error

            """,
          standardError: ""))
  }

  @Test("a UTF-8 byte-order mark is accepted and does not shift columns")
  func byteOrderMark() {
    let text = "ask when dayz >= 3 and \"\u{E9}\" == 1\nask when sinse(first_use) > 1d\n"
    let plain = checkBytes(Array(text.utf8))
    let withMark = checkBytes([0xEF, 0xBB, 0xBF] + Array(text.utf8))
    #expect(withMark == plain)
    #expect(
      withMark.standardOutput.split(separator: "\n").filter { $0.hasPrefix("bad.policy:") }.map {
        String($0.prefix { $0 != " " })
      } == ["bad.policy:1:10:", "bad.policy:1:24:", "bad.policy:2:10:"])
    #expect(!withMark.standardOutput.contains("\u{FEFF}"))
  }

  @Test("a byte-order mark before a clean policy: no problems")
  func byteOrderMarkClean() {
    let result = checkBytes(
      [0xEF, 0xBB, 0xBF]
        + Array(
          "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\nnever yearly_cap when prompts_within(365d) >= 3\nask when days >= 30 and uses >= 20\n"
            .utf8))
    #expect(result == RunResult(status: 0, standardOutput: "checked 1 file: no problems\n", standardError: ""))
  }

  @Test("a byte-order mark and an error at the first character: column 1")
  func byteOrderMarkColumnOne() {
    let result = checkBytes([0xEF, 0xBB, 0xBF] + Array("dayz >= 30\n".utf8))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            bad.policy:1:1: error: unknown name `dayz` [PC201]
             1 | dayz >= 30
               | ^~~~
            help: did you mean `days`?
            checked 1 file: 1 error

            """,
          standardError: ""))
  }

  @Test("2 MiB + 1 byte: PC100 with the exact size, located at the start")
  func fileTooLarge() {
    let result = checkBytes([UInt8](repeating: UInt8(ascii: " "), count: 2 * 1024 * 1024 + 1))
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: "bad.policy:1:1: error: file is 2097153 bytes; the limit is 2097152 bytes (2 MiB) [PC100]\n"
            + " 1 | \(String(repeating: " ", count: 120))...\n"
            + "   | ^\n"
            + "help: split the policy or remove unused parts\n"
            + "checked 1 file: 1 error\n",
          standardError: ""))
  }

  @Test("exactly 2 MiB is allowed")
  func fileAtTheLimit() {
    var bytes = Array("days >= 30 and uses >= 20 and not declined  # policyc: allow PC320 PC321 PC322\n".utf8)
    bytes += [UInt8](repeating: UInt8(ascii: " "), count: Limits.maximumFileSize - bytes.count)
    #expect(bytes.count == 2 * 1024 * 1024)
    let result = checkBytes(bytes)
    #expect(result == RunResult(status: 0, standardOutput: "checked 1 file: no problems\n", standardError: ""))
  }

  @Test("a huge file is never read whole: at most the limit plus one byte is asked for")
  func hugeFileIsNotReadWhole() {
    final class CountingIO: CommandIO {
      var output = ""
      var limits: [Int] = []
      func write(_ text: String, to stream: CLIOutputStream) { output += text }
      func readFile(_ path: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int) {
        limits.append(limit)
        return ([UInt8](repeating: UInt8(ascii: "a"), count: min(limit, 3_000_000_000)), 3_000_000_000)
      }
      func readStandardInput(limit: Int) -> (bytes: [UInt8], size: Int) { ([], 0) }
      func isDirectory(_ path: String) -> Bool { false }
      func contentsOfDirectory(_ path: String) throws(FileReadError) -> [String] { [] }
      func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileReadError) {
        throw FileReadError(reason: "read-only")
      }
      var environment: [String: String] { [:] }
      var isStandardOutputTerminal: Bool { false }
    }
    let io = CountingIO()
    let status = PolicyCLI.run(["check", "huge.policy"], io: io)
    #expect(status == 1)
    #expect(io.limits == [Limits.maximumFileSize + 1])
    #expect(
      io.output.hasPrefix(
        "huge.policy:1:1: error: file is 3000000000 bytes; the limit is 2097152 bytes (2 MiB) [PC100]\n"))
  }
}
