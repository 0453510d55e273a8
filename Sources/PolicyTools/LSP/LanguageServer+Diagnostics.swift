import PolicyAnalysis
import PolicyCore
import ReviewPolicy

/// The diagnostics of one version of a document, with the analyzer's warnings among them kept
/// apart (stage 1 reuses those that are still placed right): the full ones, as `policyc check`
/// reports them, or stage 1's of a slow policy.
struct DocumentDiagnostics: Sendable, Hashable {
  /// Every diagnostic, ordered as `check` orders them.
  var all: [Diagnostic]
  /// The analyzer's warnings among ``all`` (PC310 and up: logic, review etiquette, silencing
  /// comments), before the warning cap; empty when the analyzer did not run.
  var analysisWarnings: [Diagnostic]
}

/// What the server last published for one open document.
struct PublishedDiagnostics: Sendable {
  /// The document version they were published for.
  var version: Int
  /// The diagnostics published.
  var diagnostics: [Diagnostic]
  /// The analyzer's warnings among them, placed in the text of ``version``.
  var analysisWarnings: [Diagnostic]
  /// The offset of the first byte changed since (`Int.max`: none).
  var firstChange = Int.max

  /// Notes a change of the text from byte `offset` on.
  mutating func noteChange(at offset: Int) {
    firstChange = min(firstChange, offset)
  }

  /// The analyzer's warnings still placed right in the current text: those whose ranges (notes
  /// and fix-its included) end before the first byte changed.
  var placedAnalysisWarnings: [Diagnostic] {
    analysisWarnings.filter { $0.ends(before: firstChange) }
  }
}

/// How long the latest check of a document took, in its two parts.
struct CheckDurations: Sendable {
  /// The compile (``DocumentAnalysis``'s init).
  var compile = Duration.zero
  /// The analyzer's latest run (kept while errors keep it from running).
  var analyzer = Duration.zero

  /// The whole check.
  var total: Duration { compile + analyzer }
}

extension Diagnostic {
  /// Whether every range of the diagnostic (its own, its notes', its fix-its' edits) ends
  /// before byte `offset`, so that the text from `offset` on can change without moving it.
  func ends(before offset: Int) -> Bool {
    range.end < offset && notes.allSatisfy { $0.range.end < offset }
      && fixIts.allSatisfy { $0.edits.allSatisfy { $0.range.end < offset } }
  }
}

extension LanguageServer {
  /// Whether some document changed since its diagnostics were last published, or was closed and
  /// its diagnostics are to be cleared: stage 1 (``publishFastDiagnostics()``) has work.
  public var hasPendingDiagnostics: Bool { !pending.isEmpty || !closed.isEmpty || !projectNotifications.isEmpty }

  /// Whether some large policy got only its fast diagnostics and waits for its full ones: stage 2
  /// (``publishFullDiagnostics()``) has work, to do once the client pauses.
  public var hasPendingFullDiagnostics: Bool { !pendingFull.isEmpty }

  /// Stage 1: publishes a first set of diagnostics for every document changed since the last
  /// call (and clears those of closed documents); returns the notification bodies.
  ///
  /// A policy whose last check took at most ``fullDiagnosticsAtOnceBudget`` (or was never
  /// checked), a policy with errors (the analyzer has nothing to add) and every other kind of
  /// document get their full diagnostics. A slower policy gets the compiler's diagnostics and the
  /// analyzer warnings last published that end before the first byte changed since, and waits
  /// for stage 2.
  public mutating func publishFastDiagnostics() -> [String] {
    var output = closed.map { Self.publication([], uri: $0, version: nil, in: nil) }
    closed = []
    let uris = pending
    pending = []
    for uri in uris {
      guard let document = documents[uri] else { continue }
      let first: DocumentDiagnostics
      if let fast = fastDiagnostics(for: document) {
        first = fast
        if !pendingFull.contains(uri) { pendingFull.append(uri) }
      } else {
        first = diagnostics(for: document)
      }
      output.append(Self.publication(first.all, uri: uri, version: document.version, in: document))
      remember(first, of: document)
    }
    return output + takeProjectNotifications()
  }

  /// Stage 2: publishes the full diagnostics (analyzer included) of every policy stage 1 left
  /// them out of, where they differ from what stage 1 published; returns the notification
  /// bodies. A document changed since its stage 1 is skipped: its next stage 1 queues it again.
  public mutating func publishFullDiagnostics() -> [String] {
    var output: [String] = []
    let uris = pendingFull
    pendingFull = []
    for uri in uris {
      guard let document = documents[uri], let last = published[uri], last.version == document.version,
        last.firstChange == .max
      else { continue }
      let full = diagnostics(for: document)
      if full.all != last.diagnostics {
        output.append(Self.publication(full.all, uri: uri, version: document.version, in: document))
      }
      remember(full, of: document)
    }
    return output + takeProjectNotifications()
  }

  /// Records `diagnostics` as what was last published for `document`'s current version.
  private mutating func remember(_ diagnostics: DocumentDiagnostics, of document: LSPDocument) {
    published[document.uri] = PublishedDiagnostics(
      version: document.version, diagnostics: diagnostics.all, analysisWarnings: diagnostics.analysisWarnings)
  }

  /// The project files' notifications waiting to go out with the next diagnostics, taken.
  private mutating func takeProjectNotifications() -> [String] {
    defer { projectNotifications = [] }
    return projectNotifications
  }

  /// Both stages at once: the full diagnostics of every document changed since the last call
  /// (stage 1, then stage 2 where it differs); returns the notification bodies. For the end of
  /// the input, and for tests that do not look at the stages.
  public mutating func publishPendingDiagnostics() -> [String] {
    publishFastDiagnostics() + publishFullDiagnostics()
  }

  /// Stage 1's diagnostics of a policy whose last check took longer than
  /// ``fullDiagnosticsAtOnceBudget``, without errors: the compiler's, and the analyzer warnings
  /// last published that are still placed right. Nil when the document gets its full diagnostics at once.
  mutating func fastDiagnostics(for document: LSPDocument) -> DocumentDiagnostics? {
    guard check == nil, !document.isTestFile, !Self.isProjectFile(document.uri),
      document.source.bytes.count <= Limits.maximumFileSize,
      let last = checkDurations[document.uri], last.total > fullDiagnosticsAtOnceBudget
    else { return nil }
    if let cached = diagnosticsCache[document.uri], cached.version == document.version { return nil }
    let compilation = compiledAnalysis(of: document).compilation
    // With errors the analyzer does not run: the compiler's diagnostics are the full ones.
    guard compilation.policy != nil else { return nil }
    let placed = published[document.uri]?.placedAnalysisWarnings ?? []
    return DocumentDiagnostics(all: PolicyAnalyzer.merge(compilation.diagnostics, placed), analysisWarnings: placed)
  }

  /// The full diagnostics of `document`'s current version, as `policyc check` reports them (cached).
  mutating func diagnostics(for document: LSPDocument) -> DocumentDiagnostics {
    if let cached = diagnosticsCache[document.uri], cached.version == document.version { return cached.diagnostics }
    var full = DocumentDiagnostics(all: [], analysisWarnings: [])
    if Self.isProjectFile(document.uri) {
      if case .failure(let problems) = PolicyProject.read(document.source) { full.all = problems.diagnostics }
    } else if document.isTestFile {
      if case .failure(let problems) = PolicyTestFile.parse(document.source) { full.all = problems.diagnostics }
    } else if let check {
      full.all = check(document.source)
    } else if document.source.bytes.count > Limits.maximumFileSize {
      full.all = [.fileTooLarge(size: document.source.bytes.count)]
    } else {
      let analysis = compiledAnalysis(of: document)
      let compilation = analysis.compilation
      if let policy = compilation.policy {
        let start = ContinuousClock.now
        full.analysisWarnings = analysis.environment.warnings(for: policy)
        checkDurations[document.uri, default: CheckDurations()].analyzer = .now - start
      }
      full.all = PolicyAnalyzer.merge(compilation.diagnostics, full.analysisWarnings)
    }
    diagnosticsCache[document.uri] = (document.version, full)
    return full
  }

  /// A `textDocument/publishDiagnostics` notification of `diagnostics` for `uri` (positions in
  /// `document`; none is needed when there are no diagnostics).
  static func publication(_ diagnostics: [Diagnostic], uri: String, version: Int?, in document: LSPDocument?)
    -> String
  {
    var members: [(String, LSPValue)] = [("uri", .string(uri))]
    if let version { members.append(("version", .int(version))) }
    let lspDiagnostics = document.map { document in diagnostics.map { Self.lspDiagnostic($0, in: document) } } ?? []
    members.append(("diagnostics", .array(lspDiagnostics)))
    return notification("textDocument/publishDiagnostics", .object(members))
  }
}
