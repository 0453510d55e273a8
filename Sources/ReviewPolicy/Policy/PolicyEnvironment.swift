import PolicyCore

/// What a review policy is compiled with: the app's side of the language.
///
/// An environment carries the fact schema (``ReviewSchema/standard`` with the event names the
/// app records, through `FactSchema.recordingEvents(_:)`), those event names, and the analysis
/// checks added to the compiler's diagnostics (the review etiquette: PC320-PC322). Every tool compiles
/// through one: `policyc` builds one per run (from `--events`, or from the project file beside
/// the policies), the language server one per document, and an app from
/// `ReviewManager.Configuration.eventNames`, so a policy meets the same schema wherever it is
/// checked.
///
/// ```swift
/// let environment = PolicyEnvironment(eventNames: ["export", "purchase"])
/// let compilation = environment.compile("ask when events(\"exprt\") >= 3\n")
/// // PC217: unknown event `exprt`; did you mean `export`?
/// ```
public struct PolicyEnvironment: Sendable {
  /// The environment of an app that does not name the events it records: the standard review
  /// schema, where a policy may read any event name it does not itself restrict with `event`.
  public static let standard = PolicyEnvironment(eventNames: [])

  /// The fact schema policies are checked against: the standard review schema, recording
  /// ``eventNames``.
  public let schema: FactSchema
  /// The analysis checks whose warnings join the compiler's diagnostics: the review etiquette
  /// (PC320–PC322).
  public let checks: [AnalysisCheck]

  /// The environment of an app that records the significant events `eventNames` (empty names
  /// are ignored; an empty set means the app does not say, as in ``standard``). Once names are
  /// known, an event name a policy reads or declares outside them is an error (`PC217`).
  public init(eventNames: Set<String>) {
    schema = ReviewSchema.standard.recordingEvents(eventNames)
    checks = ReviewEtiquette.checks
  }

  /// The event names the app records; empty when it does not say.
  public var eventNames: Set<String> { schema.eventNames }

  /// Compiles `source` against ``schema`` within `limits` (those of a policy file unless told,
  /// `PolicyLimits.remoteUpdate` for an update): the compiler's diagnostics, and the policy when
  /// there are no errors.
  public func compile(_ source: SourceFile, limits: PolicyLimits = .file) -> Compilation {
    PolicyCompiler.compile(source, schema: schema, limits: limits)
  }

  /// Compiles policy `text` against ``schema`` within `limits`; `path` is the name shown in
  /// diagnostics. Text over the limits' size (`Limits.maximumFileSize` for a file) is rejected
  /// from its size alone.
  public func compile(_ text: String, path: String = "<policy>", limits: PolicyLimits = .file) -> Compilation {
    PolicyCompiler.compile(text, path: path, schema: schema, limits: limits)
  }

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
