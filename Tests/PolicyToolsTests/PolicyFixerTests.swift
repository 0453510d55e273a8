import Foundation
import PolicyCore
import PolicyTools
import Testing

/// Fix-its for tests, whatever the compiler offers: `&&` → `and` (good), and for `||` a fix that
/// makes the file worse (`|| ) ||`), so the fixer's refusal can be seen.
let syntheticFixIts: PolicyFixer.Check = { source in
  helpfulFixIts(source).map { diagnostic in
    var diagnostic = diagnostic
    if source.text(in: diagnostic.range) == "||" {
      // Only the fix that makes it worse (the compiler's own `or` fix-it is dropped).
      diagnostic.fixIts = [FixIt("make it worse", edits: [SourceEdit(replacing: diagnostic.range, with: "|| ) ||")])]
    }
    return diagnostic
  }
}

/// The check with one helpful synthetic fix-it: `&&` → `and`.
let helpfulFixIts: PolicyFixer.Check = { source in
  PolicyFixer.standardCheck(source).map { diagnostic in
    var diagnostic = diagnostic
    if source.text(in: diagnostic.range) == "&&" {
      diagnostic.fixIts.append(
        FixIt("replace `&&` with `and`", edits: [SourceEdit(replacing: diagnostic.range, with: "and")]))
    }
    return diagnostic
  }
}

/// The golden inputs of `policyc check`.
enum GoldenCorpus {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("PolicyCLITests/Golden/check")

  /// Every committed `.policy` case: name and bytes.
  static func cases() -> [(name: String, bytes: [UInt8])] {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasSuffix(".policy") }.sorted()
    return names.compactMap { name in
      (try? Data(contentsOf: directory.appendingPathComponent(name))).map { (name, [UInt8]($0)) }
    }
  }
}

@Suite("policy fixer")
struct PolicyFixerTests {
  @Test("a fix-it that helps is applied, and the file checks clean")
  func appliesHelpfulFix() {
    let fixer = PolicyFixer(check: syntheticFixIts)
    let outcome = fixer.fix(SourceFile(path: "a.policy", text: "ask when days >= 30 && uses >= 20\n"))
    #expect(outcome.changed)
    #expect(
      outcome.fixed.text(in: SourceRange(start: 0, end: outcome.fixed.bytes.count))
        == "ask when days >= 30 and uses >= 20\n")
    #expect(outcome.applied.map(\.code.rawValue) == ["PC102"])
    #expect(outcome.applied.first?.location == SourceLocation(line: 1, column: 21))
    #expect(!outcome.diagnosticsAfter.hasErrors)
    #expect(outcome.diagnosticsBefore.hasErrors)
  }

  @Test("several fixes reach a fixed point, each checked against the file as the previous fix left it")
  func iteratesToFixedPoint() {
    let fixer = PolicyFixer(check: syntheticFixIts)
    let text = "ask when days >= 30 && uses >= 20 && rated\nask when days > 3 && uses > 2\n"
    let outcome = fixer.fix(SourceFile(path: "a.policy", text: text))
    #expect(String(decoding: outcome.fixed.bytes, as: UTF8.self) == text.replacingOccurrences(of: "&&", with: "and"))
    #expect(outcome.applied.count == 3)
    #expect(!outcome.diagnosticsAfter.hasErrors)
    #expect(!outcome.reachedBound)
  }

  @Test("a fix-it that makes the file worse is never applied")
  func refusesWorseFix() {
    let fixer = PolicyFixer(check: syntheticFixIts)
    let source = SourceFile(path: "a.policy", text: "ask when days >= 30 || uses >= 20\n")
    let outcome = fixer.fix(source)
    #expect(!outcome.changed)
    #expect(outcome.fixed.bytes == source.bytes)
    #expect(outcome.diagnosticsAfter == outcome.diagnosticsBefore)
  }

  @Test("the bound stops the iteration")
  func boundStops() {
    let fixer = PolicyFixer(maximumChecks: 2, check: syntheticFixIts)
    let text = (1...5).map { "ask when days > \($0) && uses > 2\n" }.joined()
    let outcome = fixer.fix(SourceFile(path: "a.policy", text: text))
    #expect(outcome.applied.count == 1)
    #expect(outcome.reachedBound)
  }

  @Test("fix-its that overlap or reach outside the file are refused")
  func refusesBadEdits() {
    let fixer = PolicyFixer { source in
      PolicyFixer.standardCheck(source).map {
        var diagnostic = $0
        diagnostic.fixIts = [
          FixIt("outside", edits: [.insert("x", at: source.bytes.count + 5)]),
          FixIt(
            "overlapping",
            edits: [.delete(SourceRange(start: 0, end: 4)), .delete(SourceRange(start: 2, end: 6))]),
        ]
        return diagnostic
      }
    }
    let outcome = fixer.fix(SourceFile(path: "a.policy", text: "ask when days >= 30 && uses >= 20\n"))
    #expect(!outcome.changed)
  }

  @Test("every golden case with a fix-it checks clean or with fewer problems after --fix, never worse")
  func goldenCorpus() {
    let cases = GoldenCorpus.cases()
    #expect(cases.count > 100)
    var fixable = 0
    for (name, bytes) in cases {
      for check in [PolicyFixer.standardCheck, helpfulFixIts] {
        let outcome = PolicyFixer(check: check).fix(SourceFile(path: name, bytes: bytes))
        let before = outcome.diagnosticsBefore
        let after = outcome.diagnosticsAfter
        let errors = (before.filter { $0.severity == .error }.count, after.filter { $0.severity == .error }.count)
        #expect(errors.1 <= errors.0, "\(name): more errors after fixing")
        guard before.contains(where: { $0.fixIts.contains(where: \.isAutomatic) }) else {
          #expect(!outcome.changed, "\(name): changed without a fix-it")
          continue
        }
        fixable += 1
        #expect(outcome.changed, "\(name): has a fix-it but nothing was applied")
        let syntaxErrors = { (file: SourceFile) in Parser.parse(file).diagnostics.filter { $0.severity == .error }.count
        }
        let syntax = (syntaxErrors(outcome.original), syntaxErrors(outcome.fixed))
        #expect(syntax.1 <= syntax.0, "\(name): worse syntax")
        // At the cap on errors (PC199) the count stays; progress shows as checking stopping later.
        let stop = { (diagnostics: [Diagnostic]) in
          diagnostics.first { $0.code == PolicyCoreCode.tooManyErrors.code }?.range.start ?? Int.max
        }
        let checkedFurther = stop(after) > stop(before)
        #expect(
          syntax.1 < syntax.0 || errors.1 < errors.0 || after.count < before.count || checkedFurther,
          "\(name): not better after fixing")
      }
    }
    #expect(fixable > 0)
  }
}
