import PolicyCore

/// One policy file as `policyc analyze` saw it: its diagnostics (the compiler's and the
/// analyzer's, merged), and the analysis report when it compiled.
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

  /// The diagnostics as `policyc check --format json` writes them, each with `witness`: the
  /// example facts (a facts file's object) or null; and per file the silenced findings and notes.
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
