import PolicyCore
import PolicyTools
import ReviewPolicy
import Testing

/// A client driving a ``LanguageServer`` in memory.
struct TestClient {
  var server: LanguageServer
  var nextID = 1

  init(_ server: LanguageServer = LanguageServer(), initialize: Bool = true) {
    self.server = server
    if initialize {
      _ = request("initialize", #"{"capabilities":{}}"#)
      notify("initialized", "{}")
    }
  }

  /// Sends a request; returns the parsed response.
  mutating func request(_ method: String, _ params: String) -> JSONNode? {
    let id = nextID
    nextID += 1
    let replies = send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
    return replies.first { $0["id"]?.intValue == id }
  }

  /// Sends a notification; returns what came back (nothing, normally).
  @discardableResult
  mutating func notify(_ method: String, _ params: String) -> [JSONNode] {
    send(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#)
  }

  /// Sends one framed body; returns the parsed replies.
  mutating func send(_ body: String) -> [JSONNode] {
    parse(server.receive(MessageFramer.frame(body)))
  }

  /// The diagnostics published now, by URI.
  mutating func publish() -> [String: [JSONNode]] {
    var result: [String: [JSONNode]] = [:]
    for message in parse(server.publishPendingDiagnostics()) {
      guard let uri = message["params"]?["uri"]?.stringValue else { continue }
      result[uri] = message["params"]?["diagnostics"]?.arrayValue ?? []
    }
    return result
  }

  func parse(_ bodies: [String]) -> [JSONNode] {
    bodies.compactMap { try? JSONParser.parse(SourceFile(path: "reply", text: $0)).get() }
  }

  mutating func open(_ uri: String, _ text: String) {
    notify(
      "textDocument/didOpen",
      #"{"textDocument":{"uri":"\#(uri)","languageId":"policy","version":1,"text":\#(JSONWriter.quoted(text))}}"#)
  }

  /// `{"textDocument":{"uri":URI},"position":{"line":L,"character":C}}`.
  static func at(_ uri: String, _ line: Int, _ character: Int) -> String {
    #"{"textDocument":{"uri":"\#(uri)"},"position":{"line":\#(line),"character":\#(character)}}"#
  }
}

extension JSONNode {
  /// The `value` of a hover's contents.
  var hoverText: String { self["result"]?["contents"]?["value"]?.stringValue ?? "" }
  /// The labels of a completion result.
  var completionLabels: [String] {
    (self["result"]?["items"]?.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
  }
}

let uri = "file:///tmp/review.policy"

@Suite("language server")
struct LanguageServerTests {
  @Test("initialize announces the features; a request before it is refused")
  func initialize() {
    var client = TestClient(initialize: false)
    #expect(client.request("textDocument/hover", TestClient.at(uri, 0, 0))?["error"]?["code"]?.intValue == -32002)
    let reply = client.request("initialize", #"{"capabilities":{}}"#)
    let capabilities = reply?["result"]?["capabilities"]
    #expect(capabilities?["hoverProvider"]?.boolValue == true)
    #expect(capabilities?["textDocumentSync"]?["change"]?.intValue == 2)
    #expect(capabilities?["codeActionProvider"] != nil)
    #expect(client.request("shutdown", "null")?["result"] != nil)
    client.notify("exit", "null")
    #expect(client.server.exitStatus == 0)
  }

  @Test("diagnostics as you type: the codes and wording of check, once for two quick changes, cleared when fixed")
  func diagnostics() {
    var client = TestClient()
    client.open(uri, "ask when dayz >= 30\n")
    #expect(client.server.hasPendingDiagnostics)
    let published = client.publish()[uri] ?? []
    #expect(published.count == 1)
    let diagnostic = published.first
    #expect(diagnostic?["code"]?.stringValue == "PC201")
    #expect(diagnostic?["severity"]?.intValue == 1)
    #expect(diagnostic?["message"]?.stringValue?.hasPrefix("unknown name `dayz`") == true)
    #expect(diagnostic?["range"]?["start"]?["character"]?.intValue == 9)
    #expect(diagnostic?["range"]?["end"]?["character"]?.intValue == 13)
    #expect(!client.server.hasPendingDiagnostics)
    // Two quick changes publish once, for the last text.
    client.notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(uri)","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":12},"end":{"line":0,"character":13}},"text":""}]}"#
    )
    client.notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(uri)","version":3},"contentChanges":[{"range":{"start":{"line":0,"character":12},"end":{"line":0,"character":12}},"text":"s"}]}"#
    )
    #expect(
      client.server.documents[uri].map { String(decoding: $0.source.bytes, as: UTF8.self) } == "ask when days >= 30\n")
    // Only the etiquette warnings of a bare `ask` rule remain, as `check` reports them.
    #expect(client.publish()[uri]?.compactMap { $0["code"]?.stringValue } == ["PC320", "PC321", "PC322"])
    // Analyzer warnings are included, as in `check`.
    client.notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(uri)","version":4},"contentChanges":[{"text":"let unused = 3\nask when days >= 30  # policyc: allow PC320 PC321 PC322\n"}]}"#
    )
    #expect(client.publish()[uri]?.compactMap { $0["code"]?.stringValue } == ["PC302"])
    client.notify("textDocument/didClose", #"{"textDocument":{"uri":"\#(uri)"}}"#)
    #expect(client.publish()[uri]?.isEmpty == true)
  }

  @Test("hover: a fact, a let with its type, a built-in, a family, a diagnostic code")
  func hover() {
    var client = TestClient()
    client.open(
      uri, "let loyal = days >= 30  # PC302\nask when loyal and since(last_prompt) > 8w and events(\"purchase\") > 1\n")
    let fact = client.request("textDocument/hover", TestClient.at(uri, 0, 13))?.hoverText ?? ""
    #expect(fact.contains("fact days: int"))
    #expect(fact.contains("Standard review fact"))
    let optional = client.request("textDocument/hover", TestClient.at(uri, 1, 28))?.hoverText ?? ""
    #expect(optional.contains("last_prompt: instant?"))
    #expect(optional.contains("May be absent"))
    let binding = client.request("textDocument/hover", TestClient.at(uri, 1, 10))?.hoverText ?? ""
    #expect(binding.contains("let loyal = days >= 30"))
    #expect(binding.contains("Type: `bool`"))
    let builtin = client.request("textDocument/hover", TestClient.at(uri, 1, 20))?.hoverText ?? ""
    #expect(builtin.contains("since(instant) -> duration"))
    let family = client.request("textDocument/hover", TestClient.at(uri, 1, 50))?.hoverText ?? ""
    #expect(family.contains("events(event name: string): int"))
    let code = client.request("textDocument/hover", TestClient.at(uri, 0, 28))?.hoverText ?? ""
    #expect(code.contains("**PC302**"))
    let nothing = client.request("textDocument/hover", TestClient.at(uri, 0, 24))
    #expect(nothing?["result"].map { $0.value == .null } == true)
  }

  @Test("hover on a declared fact: its declaration, type, who sets it and its default (or what happens without one)")
  func hoverDeclaredFact() {
    var client = TestClient()
    client.open(
      uri,
      "fact plan: string = \"free\"\nfact beta: bool\nfact coupon: string?\n"
        + "ask when plan == \"pro\" and beta and has coupon\n")
    let plan = client.request("textDocument/hover", TestClient.at(uri, 3, 10))?.hoverText ?? ""
    #expect(plan.hasPrefix("```policy\nfact plan: string = \"free\"\n```\n\nType: `string`."), "\(plan)")
    #expect(plan.contains("Declared in this policy: the app sets it (`setFact(\"plan\", ...)`)."))
    #expect(plan.contains("Default: `\"free\"` until the app sets it."))
    #expect(!plan.contains("\n\n."))
    let beta = client.request("textDocument/hover", TestClient.at(uri, 3, 30))?.hoverText ?? ""
    #expect(beta.contains("No default: until the app sets it, the policy never asks"), "\(beta)")
    let coupon = client.request("textDocument/hover", TestClient.at(uri, 3, 42))?.hoverText ?? ""
    #expect(coupon.contains("Type: `string?`") && coupon.contains("Absent until the app sets it"), "\(coupon)")
  }

  @Test("completion: facts and keywords by prefix, units after a number, event names inside events(\"")
  func completion() {
    var client = TestClient()
    client.open(uri, "ask when events(\"purchase\") > 1 and us\nask when days > 30\nask when events(\"\n")
    let names = client.request("textDocument/completion", TestClient.at(uri, 0, 38))?.completionLabels ?? []
    #expect(names.contains("uses"))
    #expect(!names.contains("days"))
    let all = client.request("textDocument/completion", TestClient.at(uri, 1, 9))?.completionLabels ?? []
    #expect(
      all.contains("days") && all.contains("and") && all.contains("since") && all.contains("events(\"purchase\")"))
    let units = client.request("textDocument/completion", TestClient.at(uri, 1, 18))?.completionLabels ?? []
    #expect(units == ["30s", "30m", "30h", "30d", "30w"])
    let keys = client.request("textDocument/completion", TestClient.at(uri, 2, 17))?.completionLabels ?? []
    #expect(keys == ["purchase"])
  }

  @Test("event names: declared and the app's names are completed inside events(\"; an unknown one is PC217")
  func eventNames() {
    var client = TestClient(LanguageServer(environment: PolicyEnvironment(eventNames: ["purchase", "export"])))
    client.open(uri, "event purchase\nask when total_events(\"purchse\") >= 3\nask when events(\"\n")
    let published = client.publish()[uri] ?? []
    // PC217 on line 2; the unterminated string of line 3 (PC103) is the text still being typed.
    #expect(published.compactMap { $0["code"]?.stringValue } == ["PC217", "PC103"])
    #expect(published.first?["range"]?["start"]?["line"]?.intValue == 1)
    let keys = client.request("textDocument/completion", TestClient.at(uri, 2, 17))?.completionLabels ?? []
    #expect(keys == ["export", "purchase"])
  }

  @Test("definition and references of a let and a declared fact; document symbols")
  func navigation() {
    var client = TestClient()
    client.open(
      uri, "fact plan: string\nlet loyal = days >= 30\nask when loyal and plan == \"pro\"\nnever when not loyal\n")
    let definition = client.request("textDocument/definition", TestClient.at(uri, 2, 10))?["result"]
    #expect(definition?["range"]?["start"]?["line"]?.intValue == 1)
    #expect(definition?["range"]?["start"]?["character"]?.intValue == 4)
    let fact = client.request("textDocument/definition", TestClient.at(uri, 2, 20))?["result"]
    #expect(fact?["range"]?["start"]?["line"]?.intValue == 0)
    let references = client.request(
      "textDocument/references",
      #"{"textDocument":{"uri":"\#(uri)"},"position":{"line":1,"character":5},"context":{"includeDeclaration":true}}"#)
    #expect(references?["result"]?.arrayValue?.compactMap { $0["range"]?["start"]?["line"]?.intValue } == [1, 2, 3])
    let symbols = client.request("textDocument/documentSymbol", #"{"textDocument":{"uri":"\#(uri)"}}"#)
    #expect(
      symbols?["result"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == [
        "plan", "loyal", "ask when loyal and plan == \"pro\"", "never when not loyal",
      ])
  }

  @Test("formatting is the canonical formatter, as one edit")
  func formatting() {
    var client = TestClient()
    client.open(uri, "ask   when days>=30\n")
    let edits = client.request(
      "textDocument/formatting", #"{"textDocument":{"uri":"\#(uri)"},"options":{"tabSize":2,"insertSpaces":true}}"#)
    #expect(edits?["result"]?.arrayValue?.first?["newText"]?.stringValue == "ask when days >= 30\n")
    client.open(uri, "ask when days >= 30\n")
    #expect(
      client.request("textDocument/formatting", #"{"textDocument":{"uri":"\#(uri)"},"options":{}}"#)?["result"]?
        .arrayValue?.isEmpty == true)
  }

  @Test("code actions are the fix-its of the diagnostics in the range")
  func codeActions() {
    let check: PolicyFixer.Check = { source in
      PolicyFixer.standardCheck(source).map { diagnostic in
        var diagnostic = diagnostic
        if source.text(in: diagnostic.range) == "&&" {
          diagnostic.fixIts = [
            FixIt("replace `&&` with `and`", edits: [.init(replacing: diagnostic.range, with: "and")])
          ]
        }
        return diagnostic
      }
    }
    var client = TestClient(LanguageServer(check: check))
    client.open(uri, "ask when days >= 30 && uses >= 20\n")
    let actions =
      client.request(
        "textDocument/codeAction",
        #"{"textDocument":{"uri":"\#(uri)"},"range":{"start":{"line":0,"character":21},"end":{"line":0,"character":21}},"context":{"diagnostics":[]}}"#
      )?["result"]?.arrayValue ?? []
    #expect(actions.count == 1)
    #expect(actions.first?["title"]?.stringValue == "replace `&&` with `and`")
    #expect(actions.first?["kind"]?.stringValue == "quickfix")
    let edit = actions.first?["edit"]?["changes"]?[uri]?.arrayValue?.first
    #expect(edit?["newText"]?.stringValue == "and")
    #expect(edit?["range"]?["start"]?["character"]?.intValue == 20)
    #expect(edit?["range"]?["end"]?["character"]?.intValue == 22)
  }

  @Test("fix all: what check --fix does, as one edit, when asked for (source.fixAll) or beside several quick fixes")
  func fixAll() {
    var client = TestClient()
    let text = "never answered when declined or rated\nask when dayz >= 30 and uses = 20 and sinse(last_prompt) > 8w\n"
    client.open(uri, text)
    func actions(_ only: String?) -> [JSONNode] {
      let context = only.map { #"{"diagnostics":[],"only":[\#($0)]}"# } ?? #"{"diagnostics":[]}"#
      return client.request(
        "textDocument/codeAction",
        #"{"textDocument":{"uri":"\#(uri)"},"range":{"start":{"line":1,"character":29},"end":{"line":1,"character":29}},"context":\#(context)}"#
      )?["result"]?.arrayValue ?? []
    }
    // `=` is the only syntax error; fixing it lets the checker see `dayz` and `sinse`.
    let requested = actions(#""source.fixAll""#)
    #expect(requested.count == 1)
    #expect(requested.first?["kind"]?.stringValue == "source.fixAll.policyc")
    #expect(requested.first?["title"]?.stringValue == "Fix all: apply 3 fixes (policyc check --fix)")
    let edit = requested.first?["edit"]?["changes"]?[uri]?.arrayValue?.first
    #expect(
      edit?["newText"]?.stringValue
        == "never answered when declined or rated\nask when days >= 30 and uses == 20 and since(last_prompt) > 8w\n")
    #expect(edit?["range"]?["start"]?["line"]?.intValue == 0 && edit?["range"]?["end"]?["line"]?.intValue == 2)
    // Quick fixes only: no fix all; no filter: the quick fix at the cursor and, with only one
    // automatic fix in the document (`=`), no fix all either.
    #expect(actions(#""quickfix""#).map { $0["kind"]?.stringValue } == ["quickfix"])
    #expect(actions(nil).map { $0["kind"]?.stringValue } == ["quickfix"])
    // A clean document has nothing to fix.
    client.notify(
      "textDocument/didChange",
      #"{"textDocument":{"uri":"\#(uri)","version":9},"contentChanges":[{"text":"ask when days >= 30\n"}]}"#)
    #expect(actions(#""source""#).isEmpty)
  }

  @Test("positions count UTF-16 units, and invalid UTF-8 in a document is reported, not fatal")
  func positions() {
    var client = TestClient()
    client.open(uri, "# 🎉 party\nask when dayz > 1 # é\n")
    guard let document = client.server.documents[uri] else {
      Issue.record("not open")
      return
    }
    #expect(document.offset(of: .init(line: 0, character: 4)) == 6)
    #expect(document.position(of: 6) == .init(line: 0, character: 4))
    #expect(document.offset(of: .init(line: 9, character: 0)) == document.source.bytes.count)
    #expect(document.offset(of: .init(line: 0, character: 99)) == 12)
    #expect(client.publish()[uri]?.first?["range"]?["start"]?["line"]?.intValue == 1)
    // A string with a lone surrogate escape is invalid JSON text for a policy: refused cleanly.
    let replies = client.send(
      #"{"jsonrpc":"2.0","id":99,"method":"textDocument/hover","params":{"textDocument":{"uri":"\ud800"},"position":{"line":0,"character":0}}}"#
    )
    #expect(replies.count == 1)
  }

  @Test("survives any input: garbage, invalid UTF-8, broken framing, unknown methods, bad params")
  func robustness() {
    var client = TestClient()
    var server = client.server
    var replies = client.parse(server.receive(Array("Content-Length: 5\r\n\r\n{oops".utf8)))
    #expect(replies.first?["error"]?["code"]?.intValue == -32700)
    replies = client.parse(server.receive(Array("Content-Length: 3\r\n\r\n".utf8) + [0xFF, 0xFE, 0x80]))
    #expect(replies.first?["error"]?["code"]?.intValue == -32700)
    replies = client.parse(server.receive(Array("Content-Length: lots\r\n\r\n".utf8)))
    #expect(replies.first?["error"]?["message"]?.stringValue?.contains("Content-Length") == true)
    replies = client.parse(server.receive(Array("X-Nothing: 1\r\n\r\n".utf8)))
    #expect(replies.first?["error"]?["code"]?.intValue == -32700)
    replies = client.parse(server.receive(Array("Content-Length: 99999999999\r\n\r\n".utf8)))
    #expect(replies.first?["error"]?["code"]?.intValue == -32700)
    replies = client.parse(server.receive([UInt8](repeating: 0x41, count: 10_000)))
    #expect(replies.first?["error"] != nil)
    client.server = server
    #expect(client.request("workspace/frobnicate", "{}")?["error"]?["code"]?.intValue == -32601)
    #expect(client.request("textDocument/hover", "{}")?["error"]?["code"]?.intValue == -32602)
    #expect(client.send("[1,2]").first?["error"]?["code"]?.intValue == -32600)
    #expect(client.send(#"{"id":5}"#).first?["error"]?["code"]?.intValue == -32600)
    // An `id` of the wrong kind: an error with a null id, not silence.
    for id in ["true", "[1]", #"{"a":1}"#] {
      let answer = client.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"textDocument/hover","params":{}}"#).first
      #expect(answer?["error"]?["code"]?.intValue == -32600, "\(id)")
      #expect(answer?["error"]?["message"]?.stringValue?.contains("it must be a number or a string") == true)
      #expect(answer?["id"].map { $0.value == .null } == true)
    }
    #expect(client.notify("$/unknownNotification", "{}").isEmpty)
    // Still serving: a message split into single bytes.
    let body = #"{"jsonrpc":"2.0","id":"x","method":"shutdown"}"#
    var answers: [String] = []
    for byte in MessageFramer.frame(body) { answers += client.server.receive([byte]) }
    #expect(answers == [#"{"jsonrpc":"2.0","id":"x","result":null}"#])
    #expect(client.request("textDocument/hover", TestClient.at(uri, 0, 0))?["error"]?["code"]?.intValue == -32600)
  }

  @Test("documents, positions and features never crash on random edits")
  func randomEdits() {
    var client = TestClient()
    var generator = SeededGenerator(seed: 14)
    let pieces = [
      "ask", " when ", "days", " >= ", "30d", "\n", "(", ")", "\"", "events(\"a\")", "é", "🎉", "let x = ", "#", "&&",
    ]
    client.open(uri, "")
    for version in 2...300 {
      let line = Int.random(in: 0...3, using: &generator)
      let character = Int.random(in: 0...12, using: &generator)
      let text = pieces.randomElement(using: &generator) ?? ""
      client.notify(
        "textDocument/didChange",
        #"{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[{"range":{"start":{"line":\#(line),"character":\#(character)},"end":{"line":\#(line),"character":\#(character + Int.random(in: 0...2, using: &generator))}},"text":\#(JSONWriter.quoted(text))}]}"#
      )
      _ = client.request("textDocument/hover", TestClient.at(uri, line, character))
      _ = client.request("textDocument/completion", TestClient.at(uri, line, character))
      if version % 25 == 0 { _ = client.publish() }
    }
    _ = client.request("textDocument/documentSymbol", #"{"textDocument":{"uri":"\#(uri)"}}"#)
    #expect(client.server.documents[uri] != nil)
  }
}
