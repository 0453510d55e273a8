import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// The policy language server: JSON-RPC messages in, JSON-RPC messages out, no I/O of its own.
///
/// ``receive(_:)`` takes bytes as they come from the client (any pieces, any garbage) and
/// returns the message bodies to send back; ``LanguageServerLoop`` connects it to standard
/// input and output. A changed document is queued, and its diagnostics are published in two
/// stages (see `LanguageServer+Diagnostics.swift`):
///
/// 1. ``publishFastDiagnostics()``, as soon as no more input is waiting: the full diagnostics
///    (compiler and analyzer, as `policyc check`) of a policy whose last check took at most
///    ``fullDiagnosticsAtOnceBudget`` (every typical policy: nothing flickers). A slower one gets
///    the compiler's diagnostics (syntax and type errors, compiler warnings) and the analyzer
///    warnings last published that end before the first byte changed since.
/// 2. ``publishFullDiagnostics()``, once the client has paused for
///    ``fullDiagnosticsPauseMilliseconds`` (``hasPendingFullDiagnostics``): the full diagnostics
///    of those slower policies, published when they differ from stage 1's. A change in between
///    cancels it: stage 2 runs for the version stage 1 published last, never for a stale one.
///
/// The loop drives both; tests call them directly, or ``publishPendingDiagnostics()`` for both.
///
/// Every input gets an answer or is ignored as the protocol says: a body that is not JSON is a
/// parse error (-32700), a message that is not a request an invalid request (-32600), an
/// unknown method -32601, missing parameters -32602, a request before `initialize` -32002.
public struct LanguageServer: Sendable {
  /// The default of ``fullDiagnosticsAtOnceBudget``: 25 ms, so that with the rest of a
  /// keystroke's work (applying the change, writing the notification: under 1 ms for a typical
  /// policy) the diagnostics arrive within 30 ms.
  public static let defaultFullDiagnosticsAtOnceBudget = Duration.milliseconds(25)

  /// How long the client must pause, counted from its last message, before stage 2 publishes the
  /// full diagnostics of a policy whose check is over ``fullDiagnosticsAtOnceBudget``: longer
  /// than the gap between two keystrokes of a typist at 80 words a minute, so the analyzer
  /// (which blocks the loop while it runs, up to about 100 ms) seldom delays a keystroke's stage 1.
  public static let fullDiagnosticsPauseMilliseconds = 150

  /// The environment policies are compiled in, as for `policyc check`: the one `--events`
  /// gives, or the one of a document without a project file (see ``projectFiles``).
  public let environment: PolicyEnvironment
  /// Where each document's project file (`reviewpolicy.json`, see ``PolicyProject``) is looked
  /// for, walking up from the document's folder; nil when every document is compiled in
  /// ``environment`` (`policyc lsp --events`). Only `file://` documents have one.
  public let projectFiles: (any PolicyProjectFileSystem & Sendable)?
  /// Replaces the compiler and analyzer for diagnostics when set (tests inject fix-its with it).
  public let check: PolicyFixer.Check?
  /// The version in `serverInfo` (`policyc`'s).
  public let version: String
  /// How long a policy's check (compile and analyzer, as last timed) may take for stage 1 to
  /// publish its full diagnostics at once; a slower one gets the compiler's diagnostics first
  /// and the analyzer's after a pause (stage 2). The analyzer's time depends on what a policy
  /// says more than on its size: in a release build it takes 13 ms for a typical 200-line policy,
  /// 66 ms for 8 KiB of `ask` rules that each break the review etiquette, and 1 ms for an 80 KiB
  /// policy it declines as too large (over 10,000 conditions), while compiling 1 MiB takes 60 ms.
  public let fullDiagnosticsAtOnceBudget: Duration

  /// The open documents by URI.
  public private(set) var documents: [String: LSPDocument] = [:]
  /// Whether `initialize` was answered.
  public private(set) var isInitialized = false
  /// Whether `shutdown` was answered.
  public private(set) var isShutDown = false
  /// The status to exit with, once the client sent `exit` (0 after `shutdown`, else 1).
  public private(set) var exitStatus: Int32?
  /// Whether completions may be snippets (the client said so in `initialize`).
  private(set) var snippetSupport = false

  private var framer = MessageFramer()
  /// The documents changed since their diagnostics were last published (stage 1 to do), in order.
  var pending: [String] = []
  /// The documents whose last publication left the analyzer out (stage 2 to do), in order.
  var pendingFull: [String] = []
  /// What was last published for each open document (see ``PublishedDiagnostics``).
  var published: [String: PublishedDiagnostics] = [:]
  /// The documents closed since the last publication, whose diagnostics are to be cleared.
  var closed: [String] = []
  private var analyses: [String: (version: Int, analysis: DocumentAnalysis)] = [:]
  /// Analyses of versions no longer current, not freed yet (see ``freeDiscardedAnalyses()``).
  private var discardedAnalyses: [DocumentAnalysis] = []
  /// How long each document's latest compile and analyzer run took.
  var checkDurations: [String: CheckDurations] = [:]
  /// The full diagnostics of each document's latest version checked, and the analyzer's among them.
  var diagnosticsCache: [String: (version: Int, diagnostics: DocumentDiagnostics)] = [:]
  /// The problems last published for each project file, by path (none: not published, or cleared).
  private var projectProblems: [String: [Diagnostic]] = [:]
  /// `publishDiagnostics` notifications of project files, to send with the next diagnostics.
  var projectNotifications: [String] = []

  /// Creates a server that compiles in `environment` the documents without a project file in
  /// `projectFiles` (every document, when `projectFiles` is nil), with the checks of `policyc check`.
  public init(
    environment: PolicyEnvironment = .standard, projectFiles: (any PolicyProjectFileSystem & Sendable)? = nil,
    check: PolicyFixer.Check? = nil, version: String = "",
    fullDiagnosticsAtOnceBudget: Duration = LanguageServer.defaultFullDiagnosticsAtOnceBudget
  ) {
    self.version = version
    self.fullDiagnosticsAtOnceBudget = fullDiagnosticsAtOnceBudget
    self.environment = environment
    self.projectFiles = projectFiles
    self.check = check
  }

  /// The fact schema of ``environment`` (its facts and families are those of every environment).
  var schema: FactSchema { environment.schema }

  // MARK: - Messages

  /// Takes bytes from the client; returns the bodies of the messages to send (responses,
  /// errors; diagnostics only from ``publishFastDiagnostics()`` and ``publishFullDiagnostics()``).
  public mutating func receive(_ bytes: some Sequence<UInt8>) -> [String] {
    framer.append(bytes)
    var output: [String] = []
    while let next = framer.next() {
      switch next {
      case .success(let body): output += handle(body)
      case .failure(let failure):
        output.append(Self.error(id: nil, LanguageServerMessages.parseError(failure.message)))
      }
    }
    return output
  }

  /// Handles one message body; returns the bodies to send.
  public mutating func handle(_ body: [UInt8]) -> [String] {
    let message: JSONNode
    switch JSONParser.parse(SourceFile(path: "<message>", bytes: body)) {
    case .success(let node): message = node
    case .failure(let failure): return [Self.error(id: nil, LanguageServerMessages.parseError(failure.message))]
    }
    guard case .object = message.value else { return [Self.error(id: nil, LanguageServerMessages.messageNotAnObject)] }
    let id = message["id"]?.idText
    // An `id` that is a Boolean, an array or an object makes neither a request nor a notification.
    if let given = message["id"], id == nil, given.value != .null {
      return [Self.error(id: nil, LanguageServerMessages.invalidIdentifier(kind: given.value.kindName))]
    }
    guard let method = message["method"]?.stringValue else {
      // A response to a request of ours (we send none that need answers): nothing to do.
      if message["result"] != nil || message["error"] != nil { return [] }
      return [Self.error(id: id, LanguageServerMessages.missingMethod)]
    }
    let params = message["params"]
    guard let id else {
      notify(method, params)
      return []
    }
    guard isInitialized || method == "initialize" else {
      return [Self.error(id: id, LanguageServerMessages.notInitialized)]
    }
    guard !isShutDown else { return [Self.error(id: id, LanguageServerMessages.shutDown)] }
    switch request(method, params) {
    case .success(let result): return [Self.response(id: id, result)]
    case .failure(let failure): return [Self.error(id: id, failure)]
    }
  }

  /// A JSON-RPC error to send back, written by ``LanguageServerMessages``.
  struct RequestError: Error {
    var code: Int
    var message: String
  }

  private mutating func request(_ method: String, _ params: JSONNode?) -> Result<LSPValue, RequestError> {
    switch method {
    case "initialize":
      isInitialized = true
      let completion = params?["capabilities"]?["textDocument"]?["completion"]?["completionItem"]
      snippetSupport = completion?["snippetSupport"]?.boolValue ?? false
      return .success(Self.initializeResult(version: version))
    case "shutdown":
      isShutDown = true
      return .success(.null)
    case "textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/references",
      "textDocument/documentSymbol", "textDocument/formatting", "textDocument/codeAction":
      guard let uri = params?["textDocument"]?["uri"]?.stringValue else {
        return .failure(LanguageServerMessages.missingParameter("textDocument.uri"))
      }
      guard let document = documents[uri] else { return .success(.null) }
      return feature(method, document, params)
    default:
      return .failure(LanguageServerMessages.methodNotFound(method))
    }
  }

  private mutating func notify(_ method: String, _ params: JSONNode?) {
    switch method {
    case "exit":
      exitStatus = isShutDown ? 0 : 1
    case "textDocument/didOpen":
      guard let item = params?["textDocument"], let uri = item["uri"]?.stringValue,
        let text = item["text"]?.stringValue
      else { return }
      discardAnalysis(of: uri)
      documents[uri] = LSPDocument(uri: uri, version: item["version"]?.intValue ?? 0, bytes: Array(text.utf8))
      published[uri] = nil
      checkDurations[uri] = nil
      queue(uri)
    case "textDocument/didChange":
      guard let uri = params?["textDocument"]?["uri"]?.stringValue, let version = documents[uri]?.version,
        let changes = params?["contentChanges"]?.arrayValue
      else { return }
      // The old version's analysis is stale: set aside, to be freed once the diagnostics are out.
      discardAnalysis(of: uri)
      diagnosticsCache[uri] = nil
      var firstChange = Int.max
      for change in changes {
        guard let text = change["text"]?.stringValue else { continue }
        let changed: Int?
        if let range = change["range"], let start = Self.position(range["start"]), let end = Self.position(range["end"])
        {
          changed = documents[uri]?.replace(from: start, to: end, with: text)
        } else {
          changed = documents[uri]?.replaceAll(with: Array(text.utf8))
        }
        firstChange = min(firstChange, changed ?? 0)
      }
      // Without a version the change counts one up, and stays at the largest version a client can send.
      documents[uri]?.version = params?["textDocument"]?["version"]?.intValue ?? (version == .max ? .max : version + 1)
      published[uri]?.noteChange(at: firstChange)
      queue(uri)
    case "textDocument/didClose":
      guard let uri = params?["textDocument"]?["uri"]?.stringValue else { return }
      documents[uri] = nil
      discardAnalysis(of: uri)
      diagnosticsCache[uri] = nil
      published[uri] = nil
      checkDurations[uri] = nil
      pending.removeAll { $0 == uri }
      pendingFull.removeAll { $0 == uri }
      closed.append(uri)
    case "textDocument/didSave":
      // A saved project file changes the environment of the policies below it.
      guard let uri = params?["textDocument"]?["uri"]?.stringValue, Self.isProjectFile(uri) else { return }
      recheckPolicies()
    case "workspace/didChangeWatchedFiles":
      let uris = params?["changes"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
      if uris.contains(where: Self.isProjectFile) { recheckPolicies() }
    default:
      // `initialized`, `$/cancelRequest`, `$/setTrace`, configuration changes and unknown
      // notifications need nothing (the protocol says to ignore unknown notifications).
      break
    }
  }

  /// Forgets the analyses of the open policies and queues them, to be checked again.
  private mutating func recheckPolicies() {
    for (uri, document) in documents where !document.isTestFile {
      discardAnalysis(of: uri)
      diagnosticsCache[uri] = nil
      queue(uri)
    }
  }

  /// Whether `uri` names a project file (`reviewpolicy.json`).
  static func isProjectFile(_ uri: String) -> Bool {
    uri == PolicyProject.fileName || uri.hasSuffix("/" + PolicyProject.fileName)
  }

  /// Queues `uri` for stage 1; a stage 2 it was waiting for is cancelled (stage 1 queues it again).
  private mutating func queue(_ uri: String) {
    if !pending.contains(uri) { pending.append(uri) }
    pendingFull.removeAll { $0 == uri }
  }

  // MARK: - Analysis

  /// The analysis of `document`'s current version (cached), in its environment, its names
  /// indexed: what hover, completion and navigation read.
  mutating func analysis(of document: LSPDocument) -> DocumentAnalysis {
    var analysis = compiledAnalysis(of: document)
    if !analysis.isIndexed {
      analysis.indexNames()
      analyses[document.uri] = (document.version, analysis)
    }
    return analysis
  }

  /// The analysis of `document`'s current version (cached), in its environment, its names not
  /// necessarily indexed: what diagnostics read. The compile is timed (see ``CheckDurations``).
  mutating func compiledAnalysis(of document: LSPDocument) -> DocumentAnalysis {
    if let cached = analyses[document.uri], cached.version == document.version { return cached.analysis }
    discardAnalysis(of: document.uri)
    let start = ContinuousClock.now
    let analysis = DocumentAnalysis(document.source, environment: environment(of: document))
    checkDurations[document.uri, default: CheckDurations()].compile = .now - start
    analyses[document.uri] = (document.version, analysis)
    return analysis
  }

  /// Forgets the analysis of `uri`, keeping it in ``discardedAnalyses`` for the loop to free.
  private mutating func discardAnalysis(of uri: String) {
    guard let old = analyses.removeValue(forKey: uri) else { return }
    // Unless the loop takes them, only the newest are kept (the rest are freed here).
    if discardedAnalyses.count >= 2 { discardedAnalyses.removeFirst() }
    discardedAnalyses.append(old.analysis)
  }

  /// Frees the analyses of versions no longer current. Freeing a 1 MiB policy's takes about
  /// half as long as compiling it: the loop calls this once the diagnostics are written, so
  /// that a keystroke's diagnostics do not wait for the previous version to be freed. (Freeing
  /// them on another thread was measured slower on 2 busy cores: both threads then contend for
  /// the allocator.)
  package mutating func freeDiscardedAnalyses() {
    discardedAnalyses = []
  }

  /// The environment of `document`: its project file's (read now, from ``projectFiles``), else
  /// ``environment``. A project file with problems is compiled around: the document gets
  /// ``environment``, and the project file's problems are published under its own URI (and
  /// cleared once it is fixed), unless the client has it open.
  mutating func environment(of document: LSPDocument) -> PolicyEnvironment {
    guard let projectFiles, document.uri.hasPrefix("file://") else { return environment }
    switch PolicyProject.lookup(forPolicyAt: document.source.path, in: projectFiles) {
    case .notFound:
      return environment
    case .found(let project):
      noteProjectProblems(in: SourceFile(path: project.path, bytes: []), [])
      return project.environment
    case .failed(.invalid(let source, let diagnostics)):
      noteProjectProblems(in: source, diagnostics)
      return environment
    case .failed(.unreadable):
      return environment
    }
  }

  /// Queues the publication of a project file's problems when they differ from those last published.
  private mutating func noteProjectProblems(in source: SourceFile, _ diagnostics: [Diagnostic]) {
    let uri = Self.fileURI(source.path)
    guard (projectProblems[source.path] ?? []) != diagnostics, documents[uri] == nil else { return }
    projectProblems[source.path] = diagnostics.isEmpty ? nil : diagnostics
    let document = LSPDocument(uri: uri, version: 0, bytes: source.bytes)
    projectNotifications.append(
      Self.notification(
        "textDocument/publishDiagnostics",
        .object([
          ("uri", .string(uri)), ("diagnostics", .array(diagnostics.map { Self.lspDiagnostic($0, in: document) })),
        ])))
  }

  /// The `file://` URI of an absolute `path`, with every byte but letters, digits, `-._~/` escaped.
  static func fileURI(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF")
    var uri = "file://"
    for byte in path.utf8 {
      let scalar = Unicode.Scalar(byte)
      if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || "-._~/".unicodeScalars.contains(scalar)
      {
        uri.unicodeScalars.append(scalar)
      } else {
        uri += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
      }
    }
    return uri
  }

  // MARK: - JSON-RPC

  static func position(_ node: JSONNode?) -> LSPDocument.Position? {
    guard let line = node?["line"]?.intValue, let character = node?["character"]?.intValue else { return nil }
    return LSPDocument.Position(line: line, character: character)
  }

  static func response(id: String, _ result: LSPValue) -> String {
    LSPValue.object([("jsonrpc", .string("2.0")), ("id", .raw(id)), ("result", result)]).json
  }

  static func error(id: String?, _ error: RequestError) -> String {
    LSPValue.object([
      ("jsonrpc", .string("2.0")), ("id", id.map(LSPValue.raw) ?? .null),
      ("error", .object([("code", .int(error.code)), ("message", .string(error.message))])),
    ]).json
  }

  static func notification(_ method: String, _ params: LSPValue) -> String {
    LSPValue.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]).json
  }

  /// A diagnostic as LSP sends it: the message of `check`, its help lines after it, notes as related information.
  static func lspDiagnostic(_ diagnostic: Diagnostic, in document: LSPDocument) -> LSPValue {
    let message = ([diagnostic.message] + diagnostic.help.map { "help: " + $0 }).joined(separator: "\n")
    var members: [(String, LSPValue)] = [
      ("range", document.lspRange(diagnostic.range)),
      ("severity", .int(diagnostic.severity == .error ? 1 : 2)),
      ("code", .string(diagnostic.code.rawValue)),
      ("source", .string("policyc")),
      ("message", .string(message)),
    ]
    if !diagnostic.notes.isEmpty {
      let related = diagnostic.notes.map { note in
        LSPValue.object([
          ("location", .object([("uri", .string(document.uri)), ("range", document.lspRange(note.range))])),
          ("message", .string(note.message)),
        ])
      }
      members.append(("relatedInformation", .array(related)))
    }
    return .object(members)
  }

  static func initializeResult(version: String) -> LSPValue {
    LSPValue.object([
      (
        "capabilities",
        .object([
          ("positionEncoding", .string("utf-16")),
          ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(2))])),
          ("hoverProvider", .bool(true)),
          (
            "completionProvider",
            .object([
              (
                "triggerCharacters",
                .array(["(", "\"", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"].map(LSPValue.string))
              )
            ])
          ),
          ("definitionProvider", .bool(true)),
          ("referencesProvider", .bool(true)),
          ("documentSymbolProvider", .bool(true)),
          ("documentFormattingProvider", .bool(true)),
          (
            "codeActionProvider",
            .object([("codeActionKinds", .array([.string("quickfix"), .string(LanguageServer.fixAllKind)]))])
          ),
        ])
      ),
      ("serverInfo", .object([("name", .string("policyc lsp")), ("version", .string(version))])),
    ])
  }
}
