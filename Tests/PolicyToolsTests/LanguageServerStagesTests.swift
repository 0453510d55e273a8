import PolicyCore
import PolicyTools
import Testing

/// One `publishDiagnostics` notification: its URI, version and the codes it carries.
struct Publication: Equatable {
  var uri: String
  var version: Int?
  var codes: [String]
}

extension TestClient {
  /// Stage 1 (``LanguageServer/publishFastDiagnostics()``), parsed.
  mutating func fast() -> [Publication] { publications(server.publishFastDiagnostics()) }

  /// Stage 2 (``LanguageServer/publishFullDiagnostics()``), parsed.
  mutating func full() -> [Publication] { publications(server.publishFullDiagnostics()) }

  func publications(_ bodies: [String]) -> [Publication] {
    parse(bodies).compactMap { message in
      guard message["method"]?.stringValue == "textDocument/publishDiagnostics", let params = message["params"],
        let uri = params["uri"]?.stringValue
      else { return nil }
      let codes = (params["diagnostics"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
      return Publication(uri: uri, version: params["version"]?.intValue, codes: codes)
    }
  }

  /// Sends an incremental change of `uri` to `version`: `text` replaces line `line` from
  /// `start` to `end` (characters).
  mutating func change(_ uri: String, version: Int, line: Int, _ start: Int, _ end: Int, to text: String) {
    notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"range":{"start":{"line":\#(line),"character":\#(start)},"end":{"line":\#(line),"character":\#(end)}},"text":\#(JSONWriter.quoted(text))}]}"#
    )
  }
}

@Suite("language server: diagnostics in two stages")
struct LanguageServerStagesTests {
  /// A policy with one analyzer warning on its first line (PC313) and one on its last (PC314),
  /// and nothing else to say (it respects the review etiquette).
  static let policy = """
    never contradiction when days > 5 and days < 3
    never answered when declined or rated
    never too_soon when since(last_prompt) < 8w
    never yearly_cap when prompts_within(365d) >= 3
    ask when uses >= 20
    never redundant when days > 500 and days > 300

    """
  static let uri = "file:///tmp/stages.policy"
  static let quickURI = "file:///tmp/quick.policy"

  /// A client whose server splits every check after the first (as for a slow or large policy),
  /// with ``policy`` open and its first (full) diagnostics published.
  static func slowClient() -> TestClient {
    var client = TestClient(LanguageServer(fullDiagnosticsAtOnceBudget: .zero))
    client.open(uri, policy)
    #expect(
      client.fast() == [Publication(uri: uri, version: 1, codes: ["PC313", "PC314"])], "the first check is whole")
    #expect(!client.server.hasPendingFullDiagnostics)
    return client
  }

  @Test("stage 1 publishes syntax and type errors at once, without stage 2")
  func errorsAtOnce() {
    var client = Self.slowClient()
    // `uses` misspelt on line 5: a type error, published by stage 1 alone.
    client.change(Self.uri, version: 2, line: 4, 9, 13, to: "usse")
    #expect(client.server.hasPendingDiagnostics)
    let first = client.fast()
    #expect(first.count == 1 && first.first?.version == 2)
    #expect(first.first?.codes.contains("PC201") == true, "\(first)")
    // With errors the analyzer does not run: stage 1 was already the whole story.
    #expect(!client.server.hasPendingFullDiagnostics)
    #expect(client.full().isEmpty)
    // A syntax error, likewise.
    client.change(Self.uri, version: 3, line: 4, 9, 13, to: "uses >=")
    let syntax = client.fast()
    #expect(syntax.first?.codes.contains { $0.hasPrefix("PC1") } == true, "\(syntax)")
    #expect(!client.server.hasPendingFullDiagnostics)
  }

  @Test("a slow policy: stage 1 keeps the analyzer warning before the edit and drops the one after; stage 2 adds it")
  func slowPolicy() {
    var client = Self.slowClient()
    // `20` becomes `21` on line 5: PC313 (line 1) ends before the change, PC314 (line 6) after it.
    client.change(Self.uri, version: 2, line: 4, 17, 19, to: "21")
    #expect(client.fast() == [Publication(uri: Self.uri, version: 2, codes: ["PC313"])])
    #expect(client.server.hasPendingFullDiagnostics)
    #expect(client.full() == [Publication(uri: Self.uri, version: 2, codes: ["PC313", "PC314"])])
    #expect(!client.server.hasPendingFullDiagnostics)
    // An edit on the first line drops both until stage 2.
    client.change(Self.uri, version: 3, line: 0, 0, 5, to: "never")
    #expect(client.fast() == [Publication(uri: Self.uri, version: 3, codes: [])])
    #expect(client.full() == [Publication(uri: Self.uri, version: 3, codes: ["PC313", "PC314"])])
    // Stage 2 publishes nothing when it has nothing to add: a change (the whole text sent) after both warnings.
    let text = client.server.documents[Self.uri].map { String(decoding: $0.source.bytes, as: UTF8.self) } ?? ""
    client.notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(Self.uri)","version":4},"contentChanges":[{"text":\#(JSONWriter.quoted(text + "# the end\n"))}]}"#
    )
    #expect(client.fast() == [Publication(uri: Self.uri, version: 4, codes: ["PC313", "PC314"])])
    #expect(client.full().isEmpty)
  }

  @Test("a quick policy gets the analyzer's warnings (review etiquette) in stage 1, and no stage 2")
  func quickPolicy() {
    var client = TestClient(LanguageServer(fullDiagnosticsAtOnceBudget: .seconds(3600)))
    client.open(Self.quickURI, "ask when days >= 30\n")
    #expect(client.fast() == [Publication(uri: Self.quickURI, version: 1, codes: ["PC320", "PC321", "PC322"])])
    client.change(Self.quickURI, version: 2, line: 0, 17, 19, to: "31")
    #expect(client.fast() == [Publication(uri: Self.quickURI, version: 2, codes: ["PC320", "PC321", "PC322"])])
    #expect(!client.server.hasPendingFullDiagnostics)
    #expect(client.full().isEmpty)
  }

  @Test("a keystroke between the stages cancels the stale stage 2: it runs for the newest version only")
  func cancelledStage2() {
    var client = Self.slowClient()
    client.change(Self.uri, version: 2, line: 4, 17, 19, to: "21")
    #expect(client.fast().map(\.version) == [2])
    #expect(client.server.hasPendingFullDiagnostics)
    client.change(Self.uri, version: 3, line: 4, 17, 19, to: "22")
    #expect(!client.server.hasPendingFullDiagnostics, "the change cancels stage 2 of version 2")
    #expect(client.full().isEmpty)
    #expect(client.fast() == [Publication(uri: Self.uri, version: 3, codes: ["PC313"])])
    #expect(client.full() == [Publication(uri: Self.uri, version: 3, codes: ["PC313", "PC314"])])
  }

  @Test("hover after stage 1 reads the newest text, and closing clears the diagnostics at once")
  func latestVersion() {
    var client = Self.slowClient()
    client.change(Self.uri, version: 2, line: 4, 9, 13, to: "days")
    _ = client.fast()
    let hover = client.request("textDocument/hover", TestClient.at(Self.uri, 4, 10))?.hoverText ?? ""
    #expect(hover.contains("fact days: int"), "\(hover)")
    client.notify("textDocument/didClose", #"{"textDocument":{"uri":"\#(Self.uri)"}}"#)
    #expect(client.server.hasPendingDiagnostics && !client.server.hasPendingFullDiagnostics)
    #expect(client.fast() == [Publication(uri: Self.uri, version: nil, codes: [])])
  }

  @Test("a whole-document change keeps the warnings before the first byte that differs")
  func wholeDocumentChange() {
    var document = LSPDocument(uri: Self.uri, version: 1, bytes: Array("abcdef".utf8))
    #expect(document.replaceAll(with: Array("abcXef".utf8)) == 3)
    #expect(document.replaceAll(with: Array("abcXef".utf8)) == 6)
    #expect(document.replaceAll(with: Array("ab".utf8)) == 2)
    #expect(document.replace(from: .init(line: 0, character: 1), to: .init(line: 0, character: 2), with: "Z") == 1)
    #expect(String(decoding: document.source.bytes, as: UTF8.self) == "aZ")
  }
}
