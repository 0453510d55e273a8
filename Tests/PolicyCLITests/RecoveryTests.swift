import Testing

@testable import PolicyCLI

/// One mistake in an otherwise correct policy, and the code(s) it may be reported as.
struct SingleMistake: Sendable, CustomTestStringConvertible {
  var name: String
  var source: String
  /// The acceptable codes for the one diagnostic.
  var codes: Set<String>
  /// Set when the sources currently report more than one diagnostic.
  var bug: String?

  init(_ name: String, _ source: String, _ codes: Set<String>, bug: String? = nil) {
    self.name = name
    self.source = source
    self.codes = codes
    self.bug = bug
  }

  var testDescription: String { name }
}

/// Headers of the diagnostics in `output`: `line:column code`.
func diagnosticPositions(in output: String, path: String) -> [String] {
  // Notes (`PATH:LINE:COL: note: ...`) locate their diagnostic; they are not diagnostics.
  output.split(separator: "\n").filter { $0.hasPrefix(path + ":") && !$0.contains(": note: ") }.compactMap { line in
    let rest = line.dropFirst(path.count + 1)
    guard let space = rest.firstIndex(of: " ") else { return nil }
    let position = rest[..<space].dropLast()  // "1:10"
    let code = diagnosticCodes(in: String(line)).first ?? "?"
    return "\(position) \(code)"
  }
}

@Suite("error recovery: no cascades")
struct RecoveryTests {
  static let singleMistakes: [SingleMistake] = [
    SingleMistake("misspelled fact", "ask when dayz >= 30 and uses >= 20\n", ["PC201"]),
    SingleMistake(
      "misspelled fact in a let used twice", "let x = dayz >= 3\nask when x and uses > 3\nnever when x\n", ["PC201"]),
    SingleMistake(
      "broken let used through another let", "let x = dayz\nlet y = x + 1\nask when y > 3 and x > 2\n", ["PC201"]),
    SingleMistake("`&&`", "ask when days >= 30 && uses >= 20\n", ["PC102"]),
    SingleMistake("uppercase `AND`", "ask when days >= 30 AND uses >= 20\n", ["PC111"]),
    SingleMistake("missing unit", "ask when since(last_prompt) >= 30\n", ["PC203"]),
    SingleMistake("unknown escape", "fact plan: string\nask when plan == \"a\\qb\"\n", ["PC104"]),
    SingleMistake("unterminated string", "fact plan: string\nask when plan == \"pro\nask when days > 3\n", ["PC103"]),
    SingleMistake("integer too large", "ask when days >= 99999999999999999999 and uses > 1\n", ["PC105"]),
    SingleMistake("`ask if`", "ask if days > 3\n", ["PC110"]),
    SingleMistake("chained comparison", "ask when 1 < days < 5\n", ["PC118"]),
    SingleMistake("unguarded absent fact", "ask when last_prompt_version < version\n", ["PC206"]),
    SingleMistake("call of an unknown function", "ask when dayz(3) > 1\n", ["PC202"]),
    SingleMistake("non-literal list element", "ask when days in [1, uses]\n", ["PC211"]),
    SingleMistake("dangling `and` before the next rule", "ask when days >= 30 and\nnever when declined\n", ["PC109"]),
    SingleMistake("unclosed parenthesis before the next rule", "ask when (days >= 30\nask when uses >= 2\n", ["PC112"]),
    SingleMistake("extra closing parenthesis", "ask when days >= 30)\nnever when declined\n", ["PC111"]),
    SingleMistake("family without key", "ask when average_score >= 1.0\n", ["PC216"]),
    SingleMistake("fractional duration", "ask when since(first_use) >= 1.5h\n", ["PC107"]),
    SingleMistake("keyword as let name", "let and = 3\nask when days >= 30\n", ["PC120"]),
    SingleMistake("duplicate rule name", "ask loyal when days >= 30\nask loyal when uses >= 20\n", ["PC207"]),
    SingleMistake(
      "use before definition, used again later", "ask when loyal\nlet loyal = days >= 30\nnever when not loyal\n",
      ["PC215"]),
    SingleMistake(
      "mistake deep inside parentheses", "ask when ((((dayz >= 1) and uses > 2) or declined) and rated)\n", ["PC201"]),
    SingleMistake("wrong type inside since", "ask when since(days) >= 30d and since(first_use) < 1w\n", ["PC210"]),
    SingleMistake(
      "`≥` instead of `>=`", "ask when days \u{2265} 30\n", ["PC102"]),
    SingleMistake(
      "`=<` instead of `<=`", "ask when days =< 30\n", ["PC102"]),
    SingleMistake(
      "`<>` instead of `!=`", "ask when days <> 30\n", ["PC102"]),
    SingleMistake(
      "`=` instead of `==`", "ask when days = 30\n", ["PC111"]),
    SingleMistake(
      "uppercase `NOT`", "ask when NOT declined\n", ["PC201", "PC111"]),
    SingleMistake(
      "non-ASCII letters inside a name", "ask when days >= 3 and d\u{E9}j\u{E0}_vu\n", ["PC102"]),
    SingleMistake(
      "curly quotes around a string", "fact plan: string\nask when plan == \u{201C}pro\u{201D}\n", ["PC102"]),
    SingleMistake(
      "single quotes around a string", "fact plan: string\nask when plan == 'pro'\n", ["PC102"]),
    SingleMistake(
      "string ending in a backslash", "fact plan: string\nask when plan == \"pro\\\n", ["PC103"]),
    SingleMistake(
      "fact without colon, then used", "fact plan string\nask when plan == \"pro\"\nnever when plan == \"free\"\n",
      ["PC110"]),
    SingleMistake(
      "fact without type, then used", "fact plan:\nask when plan == \"pro\"\n", ["PC110"]),
    SingleMistake(
      "misspelled type, then used", "fact plan: strng\nask when plan == \"pro\"\n", ["PC121"]),
    SingleMistake(
      "keyword after `has`", "ask when has and days > 3\n", ["PC120"]),
    SingleMistake(
      "use before definition, only use", "ask when loyal\nlet loyal = days >= 30\n", ["PC215"]),
  ]

  @Test("one mistake gives exactly one diagnostic", arguments: singleMistakes)
  func oneMistakeOneDiagnostic(_ mistake: SingleMistake) {
    let result = runPolicyc(["check", "m.policy"], files: ["m.policy": mistake.source])
    let codes = diagnosticCodes(in: result.standardOutput)
    #expect(result.status == 1)
    #expect(result.standardError == "")
    let check = {
      #expect(codes.count == 1, "\(result.standardOutput)")
      #expect(codes.allSatisfy { mistake.codes.contains($0) }, "\(codes)")
      #expect(result.standardOutput.hasSuffix("checked 1 file: 1 error\n"))
    }
    if let bug = mistake.bug {
      withKnownIssue(Testing.Comment(rawValue: bug)) { check() }
    } else {
      check()
    }
  }

  @Test("independent errors in different rules are each reported exactly once")
  func independentErrors() {
    let source = """
      fact plan: string
      ask a when dayz >= 30
      ask b when days >= 30d and plan == "pro"
      never c when sinse(last_prompt) < 8w
      ask d when uses / 0 > 1
      never e when last_prompt_version < version
      let f = declined + 1
      ask g when f > 1 and days in [1, uses]
      ask a when rated
      ask h when since(first_use) >= 1w
      """
    let result = runPolicyc(["check", "m.policy"], files: ["m.policy": source])
    #expect(result.status == 1)
    #expect(
      diagnosticPositions(in: result.standardOutput, path: "m.policy") == [
        "2:12 PC201", "3:12 PC203", "4:14 PC202", "5:19 PC214", "6:14 PC206", "7:9 PC204", "8:34 PC211", "9:5 PC207",
      ])
    #expect(result.standardOutput.hasSuffix("checked 1 file: 8 errors\n"))
  }

  @Test("a syntax error in one rule does not hide errors in the next rules")
  func syntaxErrorThenCheckerErrors() {
    let source = """
      ask when days >= 30 uses >= 20
      ask when dayz > 1
      never when (declined
      ask when since(days) > 1d
      never when declined and and rated
      ask when uses / 0 > 1
      """
    let result = runPolicyc(["check", "m.policy"], files: ["m.policy": source])
    #expect(
      diagnosticPositions(in: result.standardOutput, path: "m.policy") == [
        "1:21 PC111", "2:10 PC201", "3:12 PC112", "4:16 PC210", "5:25 PC109", "6:17 PC214",
      ])
    #expect(result.standardOutput.hasSuffix("checked 1 file: 6 errors\n"))
  }

  @Test("the same mistake in many rules: one diagnostic per rule")
  func sameMistakeInManyRules() {
    let source = (1...20).map { "ask r\($0) when dayz >= \($0)\n" }.joined()
    let result = runPolicyc(["check", "m.policy"], files: ["m.policy": source])
    #expect(
      diagnosticPositions(in: result.standardOutput, path: "m.policy")
        == (1...20).map { "\($0):\($0 < 10 ? 13 : 14) PC201" })
    #expect(result.standardOutput.hasSuffix("checked 1 file: 20 errors\n"))
  }

  @Test("exactly 100 errors: no PC199; 101: PC199 last, pointing at the 101st")
  func errorCap() {
    let hundred = (1...100).map { "ask when dayz >= \($0)\n" }.joined()
    let atLimit = runPolicyc(["check", "m.policy"], files: ["m.policy": hundred])
    #expect(diagnosticCodes(in: atLimit.standardOutput) == Array(repeating: "PC201", count: 100))
    #expect(atLimit.standardOutput.hasSuffix("checked 1 file: 100 errors\n"))

    let overLimit = runPolicyc(["check", "m.policy"], files: ["m.policy": hundred + "ask when foo\nask when bar\n"])
    let positions = diagnosticPositions(in: overLimit.standardOutput, path: "m.policy")
    #expect(positions.count == 101)
    #expect(positions.last == "101:10 PC199")
    #expect(overLimit.standardOutput.contains("m.policy:101:10: error: too many errors; stopped after 100 [PC199]\n"))
    #expect(!overLimit.standardOutput.contains("`bar`"))
  }
}
