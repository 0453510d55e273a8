import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// One policy file as `policyc check` and `policyc analyze` see it: its diagnostics (the
/// compiler's and the analyzer's, merged), the analysis report when it compiled, and the
/// `policyc test` case behind each example the warnings give.
package struct AnalyzedFile: Sendable {
  /// The path as given.
  package var path: String
  /// The file.
  package var source: SourceFile
  /// Every diagnostic, in order.
  package var diagnostics: [Diagnostic]
  /// The analysis, when the policy compiled.
  package var report: AnalysisReport?
  /// The compiled policy, when it compiled.
  package var policy: CompiledPolicy?
  /// For each diagnostic with an example (a witness), the `policyc test` case that reaches it, or
  /// why there is none.
  package var testCases: [Diagnostic: Result<WitnessTestCase, WitnessHistoryRefusal>] = [:]

  /// A file and what was found in it.
  package init(
    path: String, source: SourceFile, diagnostics: [Diagnostic], report: AnalysisReport? = nil,
    policy: CompiledPolicy? = nil
  ) {
    self.path = path
    self.source = source
    self.diagnostics = diagnostics
    self.report = report
    self.policy = policy
  }

  /// `source` compiled in `environment` within `limits` and, when it compiles, analysed with the
  /// environment's checks; with `testCases`, each warning's example gets its test case
  /// (``WitnessTestCase``), which the text and JSON outputs show.
  package static func analyze(
    _ source: SourceFile, environment: PolicyEnvironment, limits: PolicyLimits = .file, testCases: Bool = true
  ) -> AnalyzedFile {
    let compilation = environment.compile(source, limits: limits)
    guard let policy = compilation.policy else {
      return AnalyzedFile(path: source.path, source: source, diagnostics: compilation.diagnostics)
    }
    let report = environment.analyze(policy)
    var file = AnalyzedFile(
      path: source.path, source: source, diagnostics: PolicyAnalyzer.merge(compilation.diagnostics, report.warnings),
      report: report, policy: policy)
    guard testCases else { return file }
    let shown = Set(file.diagnostics)
    for finding in report.findings where shown.contains(finding.diagnostic) {
      guard let witness = finding.witness else { continue }
      let name = "\(finding.diagnostic.code.rawValue): \(finding.diagnostic.message)"
      file.testCases[finding.diagnostic] = WitnessTestCase.make(
        for: witness, named: name, policy: policy, environment: environment)
    }
    return file
  }

  /// The diagnostics as text output shows them: an example's test case (or why there is none)
  /// as a last help line.
  package var diagnosticsWithTestCases: [Diagnostic] {
    diagnostics.map { diagnostic in
      guard let testCase = testCases[diagnostic] else { return diagnostic }
      var shown = diagnostic
      switch testCase {
      case .success(let testCase):
        shown.help.append("a user's history that gets here, as a `policyc test` case: \(testCase.text)")
      case .failure(let refusal): shown.help.append("no `policyc test` case for this example: \(refusal.reason)")
      }
      return shown
    }
  }

  /// The diagnostics as `policyc check --format json` writes them, each with `witness`: the
  /// example facts (a facts file's object) or null, and `testCase`: the example's `policyc test`
  /// case or null (with `testCaseRefusal`, the reason, when it has none); and per file the
  /// silenced findings and notes.
  package static func json(_ results: [AnalyzedFile], errors: Int, warnings: Int) -> String {
    let output = DiagnosticFormats.json(
      results.map { ($0.path, $0.source, $0.diagnostics) }, errors: errors, warnings: warnings,
      diagnosticMembers: { index, diagnostic, writer in
        let result = results[index]
        writer.key("witness")
        if let witness = result.report?.findings.first(where: { $0.diagnostic == diagnostic })?.witness,
          let policy = result.policy
        {
          writer.raw(WitnessFacts.object(witness, names: WitnessFacts.names(witness, reading: [policy])))
        } else {
          writer.null()
        }
        writer.key("testCase")
        switch result.testCases[diagnostic] {
        case .success(let testCase)?: writer.raw(testCase.text)
        case .failure(let refusal)?:
          writer.null()
          writer.key("testCaseRefusal")
          writer.string(refusal.reason)
        case nil: writer.null()
        }
      },
      fileMembers: { index, writer in
        let result = results[index]
        writer.key("silenced")
        writer.array {
          for finding in result.report?.silenced ?? [] {
            $0.object {
              $0.key("code"); $0.string(finding.diagnostic.code.rawValue)
              $0.key("message"); $0.string(finding.diagnostic.message)
              $0.key("line"); $0.number(result.source.location(of: finding.diagnostic.range.start).line)
            }
          }
        }
        writer.key("notes")
        writer.array { for note in result.report?.notes ?? [] { $0.string(note) } }
      })
    return output + "\n"
  }
}
