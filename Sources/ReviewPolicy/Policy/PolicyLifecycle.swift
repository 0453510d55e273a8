import Foundation
import PolicyCore

/// Which policy a manager runs: the bundled policy (the floor), the last good update received
/// under it, and the guardrails checked after either.
///
/// Every policy a manager meets is compiled here, in one ``PolicyEnvironment`` (the review schema
/// with the app's event names), the one every `policyc` verb and the
/// language server use; each source is compiled
/// once (the bundled policy and the guardrails at init, an update when it arrives or when the
/// store holds a new one). A value: it holds nothing that changes.
struct PolicyLifecycle: Sendable {
  /// What every policy is compiled in.
  let environment: PolicyEnvironment
  /// An update's diagnostics beyond the compiler's (``ReviewManager/Configuration/updateAnalysis``).
  let updateAnalysis: (@Sendable (PolicyEnvironment, Compilation) -> [Diagnostic])?
  /// The bundled policy, compiled.
  let bundled: CompiledPolicy
  /// The bundled policy's identity: updates received under another bundled policy are stale.
  let bundledIdentity: PolicyIdentity
  /// The guardrails, compiled (`never` rules only); nil for none.
  let guardrails: CompiledPolicy?

  /// Compiles the bundled policy and the guardrails.
  ///
  /// - Throws: ``ReviewManagerError/invalidBundledPolicy(_:)`` when the bundled policy does not
  ///   compile, ``ReviewManagerError/invalidGuardrails(_:)`` when the guardrails do not or have an `ask` rule.
  init(
    bundledPolicy: String, guardrails: String?, environment: PolicyEnvironment,
    updateAnalysis: (@Sendable (PolicyEnvironment, Compilation) -> [Diagnostic])? = nil
  ) throws(ReviewManagerError) {
    let compilation = environment.compile(bundledPolicy, path: "bundled.policy")
    guard let bundled = compilation.policy else {
      throw .invalidBundledPolicy(DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source))
    }
    self.environment = environment
    self.updateAnalysis = updateAnalysis
    self.bundled = bundled
    self.bundledIdentity = PolicyIdentity(origin: .bundled, source: bundledPolicy)
    self.guardrails = try PolicyLifecycle.compileGuardrails(guardrails, in: environment)
  }

  /// The guardrails compiled; nil for none.
  private static func compileGuardrails(_ source: String?, in environment: PolicyEnvironment)
    throws(ReviewManagerError) -> CompiledPolicy?
  {
    guard let source else { return nil }
    let compilation = environment.compile(source, path: "guardrails.policy")
    guard let compiled = compilation.policy else {
      throw .invalidGuardrails(DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source))
    }
    var askRules: [String] = []
    for rule in compiled.rules {
      switch rule.kind {
      case .ask: askRules.append(rule.name.map { "`ask \($0)`" } ?? rule.label)
      case .never: continue
      }
    }
    guard askRules.isEmpty else {
      throw .invalidGuardrails(
        "guardrails.policy: guardrails take only `never` rules; remove " + askRules.joined(separator: ", "))
    }
    return compiled
  }

  /// The bundled policy, bound to `appVersion`.
  func bundledPolicy(appVersion: String) -> ActivePolicy {
    ActivePolicy(bundled, origin: .bundled, appVersion: appVersion)
  }

  /// The guardrails, bound to `appVersion`; nil for none.
  func guardrailPolicy(appVersion: String) -> ActivePolicy? {
    guardrails.map { ActivePolicy($0, origin: .guardrails, appVersion: appVersion) }
  }

  /// The policy to run over `state`: its stored update when there is one that compiles and was
  /// received under this bundled policy, otherwise the bundled policy (with a note in `notes`
  /// saying why the update does not apply).
  func policy(for state: ReviewState, appVersion: String, date: Date, notes: inout [ReviewLogEntry]) -> ActivePolicy {
    storedUpdate(of: state, appVersion: appVersion, date: date, notes: &notes) ?? bundledPolicy(appVersion: appVersion)
  }

  /// The stored update of `state` compiled, if there is one, it compiles and it was received under
  /// the bundled policy; otherwise nil, with a note in `notes` saying why (nothing for no update).
  private func storedUpdate(of state: ReviewState, appVersion: String, date: Date, notes: inout [ReviewLogEntry])
    -> ActivePolicy?
  {
    guard let source = state.policySource else { return nil }
    // An update stored before fingerprints were kept (nil) keeps applying.
    if let receivedUnder = state.policyReceivedUnder, receivedUnder != bundledIdentity.fingerprint {
      notes.append(
        ManagerMessages.staleUpdate(source: source, receivedUnder: receivedUnder, bundled: bundledIdentity, date: date))
      return nil
    }
    guard let compiled = environment.compile(source, path: "update.policy", limits: .remoteUpdate).policy else {
      notes.append(ManagerMessages.storedUpdateNoLongerCompiles(date: date))
      return nil
    }
    return ActivePolicy(compiled, origin: .update, appVersion: appVersion)
  }

  /// What became of an update: rejected with its diagnostics, or accepted with the policy to run.
  enum UpdateReview: Sendable {
    /// The update does not compile: the running policy stays.
    case rejected(Compilation)
    /// The update compiles: `policy` runs from now on; `diagnostics` are the compiler's and those
    /// of ``updateAnalysis`` (when set), ordered by position.
    case accepted(ActivePolicy, compilation: Compilation, diagnostics: [Diagnostic])
  }

  /// Compiles an update received now, for `appVersion`, within `PolicyLimits.remoteUpdate` (an
  /// update over a limit is rejected with that limit's error before the work it guards), and runs
  /// ``updateAnalysis`` on it when set (the analyzer, linear in the update, ends with a warning,
  /// `PC318`, rather than run long).
  func review(update source: String, appVersion: String) -> UpdateReview {
    let compilation = environment.compile(source, path: "update.policy", limits: .remoteUpdate)
    guard let compiled = compilation.policy else { return .rejected(compilation) }
    return .accepted(
      ActivePolicy(compiled, origin: .update, appVersion: appVersion), compilation: compilation,
      diagnostics: updateAnalysis?(environment, compilation) ?? compilation.diagnostics)
  }
}
