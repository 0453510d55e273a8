// Fix-its applied one at a time to every golden input that has them: each must apply cleanly
// and leave a file with fewer errors (for an error's fix-it) or fewer of its warnings and no
// more errors (for a warning's fix-it).

import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import PolicyCLI
@testable import ReviewAnalysis
@testable import ReviewPolicy

/// The diagnostics `policyc check` reports for `bytes`.
func checkDiagnostics(_ bytes: [UInt8], path: String) -> [Diagnostic] {
  let source = SourceFile(path: path, bytes: bytes)
  return PolicyAnalyzer.diagnostics(
    for: PolicyCompiler.compile(source, schema: ReviewSchema.standard), checks: ReviewEtiquette.checks)
}

@Suite("fix-its make policies better")
struct FixItTests {
  /// The committed golden inputs (generated inputs are limits, with no fix-its).
  static let cases = GoldenCase.all.filter { GoldenInputs.generated[$0.name] == nil }

  /// Cases where an exact fix uncovers another mistake that the first one hid, so the count of
  /// errors stays the same: the fix is right, the file has a second error.
  static let revealsHiddenError: [String: String] = [
    "mixed-crlf-line-endings": "`uses >= 2 ≥ 3`: once `≥` is `>=`, the comparison chains (PC118)",
    "mixed-crlf-line-endings-lf-twin": "`uses >= 2 ≥ 3`: once `≥` is `>=`, the comparison chains (PC118)",
  ]

  @Test("every fix-it of a golden case applies and leaves fewer errors, or fewer of its warnings")
  func fixItsImprove() throws {
    var applied: [String: Int] = [:]
    for golden in FixItTests.cases {
      let bytes = try golden.input()
      let before = checkDiagnostics(bytes, path: golden.fileName)
      let errorsBefore = before.filter { $0.severity == .error }.count
      // Past the cap (PC199) the count of errors says nothing; those files are limits, not mistakes.
      if before.contains(where: { $0.code == PolicyCoreCode.tooManyErrors.code }) { continue }
      for diagnostic in before {
        for fixIt in diagnostic.fixIts {
          guard case .success(let fixed) = fixIt.apply(to: bytes) else {
            Issue.record("\(golden.name): \(diagnostic.code.rawValue) fix-it `\(fixIt.message)` does not apply")
            continue
          }
          let after = checkDiagnostics(fixed, path: golden.fileName)
          let errorsAfter = after.filter { $0.severity == .error }.count
          let text = String(decoding: fixed, as: UTF8.self)
          if diagnostic.severity == .error, FixItTests.revealsHiddenError[golden.name] != nil {
            #expect(errorsAfter <= errorsBefore, "\(golden.name): `\(fixIt.message)` adds errors:\n\(text)")
            #expect(!after.contains { $0.code == diagnostic.code && $0.range == diagnostic.range })
          } else if diagnostic.severity == .error {
            #expect(
              errorsAfter < errorsBefore,
              "\(golden.name): \(diagnostic.code.rawValue) `\(fixIt.message)` leaves \(errorsAfter) errors:\n\(text)")
          } else {
            let code = diagnostic.code
            #expect(errorsAfter <= errorsBefore, "\(golden.name): `\(fixIt.message)` adds errors:\n\(text)")
            #expect(
              after.filter { $0.code == code }.count < before.filter { $0.code == code }.count,
              "\(golden.name): \(code.rawValue) `\(fixIt.message)` leaves its warnings:\n\(text)")
          }
          applied[diagnostic.code.rawValue, default: 0] += 1
        }
      }
    }
    // The diagnostics whose fix is exact carry fix-its in the golden corpus.
    for code in ["PC102", "PC112", "PC111", "PC121", "PC201", "PC202", "PC203", "PC315", "PC317", "PC320", "PC321"] {
      #expect(applied[code, default: 0] > 0, "no golden case exercises a fix-it of \(code); applied: \(applied)")
    }
  }

  @Test(
    "each kind of fix-it, applied, gives the expected policy",
    arguments: [
      ("ask when days > 3 && uses > 2\n", "ask when days > 3 and uses > 2\n"),
      ("ask when days > 3&&uses > 2\n", "ask when days > 3 and uses > 2\n"),
      ("ask when days > 3 || uses > 2\n", "ask when days > 3 or uses > 2\n"),
      ("ask when !rated\n", "ask when not rated\n"),
      ("ask when uses = 20\n", "ask when uses == 20\n"),
      ("let x == 3\nask when days > x\n", "let x = 3\nask when days > x\n"),
      ("ask when days > 3 AND uses > 2\n", "ask when days > 3 and uses > 2\n"),
      ("ask when NOT declined\n", "ask when not declined\n"),
      ("ask when days \u{2265} 30\n", "ask when days >= 30\n"),
      (
        "ask when total_events(\"export\") > 3 or exports > 2\n",
        "ask when total_events(\"export\") > 3 or total_events(\"export\") > 2\n"
      ),
      ("ask when dayz > 3\n", "ask when days > 3\n"),
      ("ask when days > \"30\"\n", "ask when days > 30\n"),
      ("ask when days >= 14d\n", "ask when days >= 14\n"),
      ("ask when since(last_prompt ?? now) >= 30\n", "ask when since(last_prompt ?? now) >= 30d\n"),
      ("ask when (days >= 30 and uses >= 20\n", "ask when (days >= 30 and uses >= 20)\n"),
      ("fact plan: string\nask when plan == 'pro'\n", "fact plan: string\nask when plan == \"pro\"\n"),
      ("ask when version >= \"2.1\"\n", "ask when version >= v2.1\n"),
      ("fact plan: strng\nask when plan == \"pro\"\n", "fact plan: string\nask when plan == \"pro\"\n"),
    ])
  func fixItResult(_ input: String, _ expected: String) throws {
    let diagnostics = checkDiagnostics(Array(input.utf8), path: "fix.policy")
    let fix = try #require(diagnostics.first { !$0.fixIts.isEmpty }?.fixIts.first, "a fix-it for \(input)")
    let fixed = try fix.apply(to: Array(input.utf8)).get()
    #expect(String(decoding: fixed, as: UTF8.self) == expected)
    #expect(!checkDiagnostics(fixed, path: "fix.policy").hasErrors)
  }

  @Test("an unused allow's fix-it removes the comment line; an unknown directive's fixes the word")
  func silencingFixIts() throws {
    let rules =
      "never answered when declined or rated\nnever too_soon when since(last_prompt) < 8w\n"
      + "never yearly_cap when prompts_within(365d) >= 3\n"
    let unused = "# policyc: allow PC310\nask when days > 30\n" + rules
    let diagnostic = try #require(checkDiagnostics(Array(unused.utf8), path: "a.policy").first)
    #expect(diagnostic.code == PolicyCoreCode.unusedAllow.code)
    let fixed = try #require(diagnostic.fixIts.first).apply(to: Array(unused.utf8)).get()
    #expect(String(decoding: fixed, as: UTF8.self) == "ask when days > 30\n" + rules)

    let misspelled = "ask when days > 30 and days > 10 # policyc: alow PC314\n" + rules
    let warnings = checkDiagnostics(Array(misspelled.utf8), path: "b.policy")
    let directive = try #require(warnings.first { $0.code == PolicyCoreCode.unknownDirective.code })
    let corrected = try #require(directive.fixIts.first).apply(to: Array(misspelled.utf8)).get()
    #expect(checkDiagnostics(corrected, path: "b.policy").isEmpty)
  }
}
