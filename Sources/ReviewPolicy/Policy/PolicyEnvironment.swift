import PolicyCore

/// What a review policy is compiled with: the app's side of the language.
///
/// An environment carries the fact schema (``ReviewSchema/standard`` with the event names the
/// app records, through `FactSchema.recordingEvents(_:)`) and those event names; the ReviewAnalysis
/// module adds its analysis (the analyzer and the review etiquette, PC310-PC322). Every tool compiles
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

  /// The environment of an app that records the significant events `eventNames` (empty names
  /// are ignored; an empty set means the app does not say, as in ``standard``). Once names are
  /// known, an event name a policy reads or declares outside them is an error (`PC217`).
  public init(eventNames: Set<String>) {
    schema = ReviewSchema.standard.recordingEvents(eventNames)
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
}
