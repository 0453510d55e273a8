import PolicyAnalysis
import PolicyCore
import ReviewPolicy

extension PolicyEnvironment {
  /// The analysis checks whose warnings join the compiler's diagnostics: the review etiquette
  /// (PC320–PC322).
  public var checks: [AnalysisCheck] { ReviewEtiquette.checks }

  /// The analysis of a compiled policy with ``checks``: the logic checks of `options`
  /// (PC310–PC314), then the review etiquette, with example facts and notes.
  public func analyze(_ policy: CompiledPolicy, options: AnalysisOptions = .all) -> AnalysisReport {
    PolicyAnalyzer.analyze(policy, options: options, checks: checks)
  }

  /// The analyzer's warnings for a compiled policy with ``checks``, silenced ones left out.
  public func warnings(for policy: CompiledPolicy) -> [Diagnostic] {
    PolicyAnalyzer.warnings(for: policy, checks: checks)
  }

  /// A compilation's diagnostics with the analyzer's warnings (``checks``) merged in, as
  /// `policyc check` reports them; a compilation with errors gets no warnings.
  public func diagnostics(for compilation: Compilation) -> [Diagnostic] {
    PolicyAnalyzer.diagnostics(for: compilation, checks: checks)
  }

  /// What `policyc check` reports for `source` compiled within `limits`: its compilation's
  /// diagnostics with the analyzer's warnings (``diagnostics(for:)``).
  public func check(_ source: SourceFile, limits: PolicyLimits = .file) -> [Diagnostic] {
    diagnostics(for: compile(source, limits: limits))
  }
}

extension ReviewManager.Configuration {
  /// Makes ``ReviewManager/updatePolicy(_:)`` report the analyzer's warnings and the review
  /// etiquette (PC310–PC322) with an update's compiler diagnostics, as `policyc check` reports
  /// them (rules that never hold, asking a user who declined); the update is accepted or
  /// rejected as before: warnings never reject one. Costs the analyzer's code in the app.
  public mutating func analyzeUpdates() {
    updateAnalysis = { environment, compilation in environment.diagnostics(for: compilation) }
  }
}
