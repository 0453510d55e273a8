import Foundation
import PolicyCore
import PolicyTools
import ReviewPolicy
import Testing

/// A hand-made diagnostic with a note and a fix-it, on a line whose `≥` is 3 bytes but 1 column:
/// offsets count bytes, columns characters.
private enum FixItSample {
  static let source = SourceFile(path: "f.policy", text: "let loyal = days >= 30\nask when days ≥ 30\n")
  /// `≥`: bytes 37..<40, line 2, columns 15..<16.
  static let symbol = SourceRange(start: 37, end: 40)
  static let diagnostic = Diagnostic(
    PolicyCoreCode.unexpectedCharacter, "unexpected character `≥`", at: symbol, help: ["write `>=`"],
    notes: [DiagnosticNote("`>=` is written like this here", at: SourceRange(start: 17, end: 19))],
    fixIts: [
      FixIt("replace `≥` with `>=`", edits: [SourceEdit(replacing: symbol, with: ">=")]),
      FixIt("use `loyal`", edits: [.delete(SourceRange(start: 32, end: 43)), .insert("loyal", at: 32)]),
    ])
}

@Suite("diagnostic formats: notes and fix-its")
struct DiagnosticFormatsTests {
  @Test("the sample's ranges are what the comments say")
  func sample() {
    let bytes = FixItSample.source.bytes
    #expect(String(decoding: bytes[37..<40], as: UTF8.self) == "≥")
    #expect(String(decoding: bytes[17..<19], as: UTF8.self) == ">=")
    #expect(String(decoding: bytes[32..<43], as: UTF8.self) == "days ≥ 30")
    let applied = FixItSample.diagnostic.fixIts.map { fixIt -> String? in
      guard case .success(let result) = fixIt.apply(to: bytes) else { return nil }
      return String(decoding: result, as: UTF8.self)
    }
    #expect(applied == ["let loyal = days >= 30\nask when days >= 30\n", "let loyal = days >= 30\nask when loyal\n"])
  }

  @Test("JSON: a fix-it's edits with byte offsets and line and column, notes located; exact output")
  func fixItJSON() {
    var writer = JSONWriter()
    DiagnosticFormats.write(FixItSample.diagnostic, in: FixItSample.source, to: &writer)
    #expect(
      writer.output
        == #"{"severity":"error","code":"PC102","domain":"PolicyCore","message":"unexpected character `≥`","#
        + #""line":2,"column":15,"endLine":2,"endColumn":16,"startOffset":37,"endOffset":40,"help":["write `>=`"],"#
        + #""notes":[{"message":"`>=` is written like this here","line":1,"column":18,"endLine":1,"endColumn":20,"#
        + #""startOffset":17,"endOffset":19}],"#
        + #""fixIts":[{"message":"replace `≥` with `>=`","automatic":true,"edits":[{"startOffset":37,"endOffset":40,"line":2,"column":15,"#
        + #""endLine":2,"endColumn":16,"replacement":">="}]},"#
        + #"{"message":"use `loyal`","automatic":true,"edits":[{"startOffset":32,"endOffset":43,"line":2,"column":10,"endLine":2,"#
        + #""endColumn":19,"replacement":""},{"startOffset":32,"endOffset":32,"line":2,"column":10,"endLine":2,"#
        + #""endColumn":10,"replacement":"loyal"}]}]}"#)
  }

  @Test("SARIF: notes as related locations, fix-its as fixes of byte regions; exact output")
  func fixItSARIF() throws {
    let output = DiagnosticFormats.sarif([("f.policy", FixItSample.source, [FixItSample.diagnostic])])
    let result =
      #"{"ruleId":"PC102","level":"error","message":{"text":"unexpected character `≥`\nhelp: write `>=`"},"#
      + #""locations":[{"physicalLocation":{"artifactLocation":{"uri":"f.policy"},"#
      + #""region":{"startLine":2,"startColumn":15,"endLine":2,"endColumn":16}}}],"#
      + #""relatedLocations":[{"id":0,"message":{"text":"`>=` is written like this here"},"#
      + #""physicalLocation":{"artifactLocation":{"uri":"f.policy"},"#
      + #""region":{"startLine":1,"startColumn":18,"endLine":1,"endColumn":20}}}],"#
      + #""fixes":[{"description":{"text":"replace `≥` with `>=`"},"artifactChanges":[{"artifactLocation":{"uri":"f.policy"},"#
      + #""replacements":[{"deletedRegion":{"byteOffset":37,"byteLength":3},"insertedContent":{"text":">="}}]}]},"#
      + #"{"description":{"text":"use `loyal`"},"artifactChanges":[{"artifactLocation":{"uri":"f.policy"},"#
      + #""replacements":[{"deletedRegion":{"byteOffset":32,"byteLength":11},"insertedContent":{"text":""}},"#
      + #"{"deletedRegion":{"byteOffset":32,"byteLength":0},"insertedContent":{"text":"loyal"}}]}]}]}"#
    let expected =
      #"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"#
      + #""name":"policyc","rules":[{"id":"PC102","name":"UnexpectedCharacter","#
      + #""shortDescription":{"text":"unexpected character"},"defaultConfiguration":{"level":"error"}}]}},"#
      + #""results":["# + result + "]}]}\n"
    #expect(output == expected)
    #expect(try JSONSerialization.jsonObject(with: Data(output.utf8)) is [String: Any])
  }

  @Test("GitHub: notes follow the help lines, each with its line and column")
  func githubNotes() {
    let output = DiagnosticFormats.github([("f.policy", FixItSample.source, [FixItSample.diagnostic])])
    #expect(
      output
        == "::error file=f.policy,line=2,col=15,endLine=2,endColumn=16,title=PC102 unexpected character::"
        + "unexpected character `≥`%0Ahelp: write `>=`%0Anote: `>=` is written like this here (line 1, column 18)\n")
  }

  @Test("a rule level is the code's severity, of any domain")
  func ruleLevels() throws {
    let source = SourceFile(path: "t.test.json", text: "{}\n")
    let files: [DiagnosticFormats.FileDiagnostics] = [
      (
        "t.test.json", source,
        [
          Diagnostic(PolicyToolsCode.unexpectedJSON, "a test file needs `\"cases\"`", at: .empty(at: 0)),
          Diagnostic(ReviewPolicyCode.asksTooSoon, "asks too soon", at: .empty(at: 0)),
        ]
      )
    ]
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(DiagnosticFormats.sarif(files).utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let rules = try #require(
      ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
    #expect(rules.map { $0["id"] as? String } == ["PC321", "PC402"])
    #expect(rules.map { $0["name"] as? String } == ["AsksTooSoon", "UnexpectedJSON"])
    #expect(rules.map { ($0["defaultConfiguration"] as? [String: Any])?["level"] as? String } == ["warning", "error"])
    var writer = JSONWriter()
    DiagnosticFormats.write(files[0].diagnostics[1], in: source, to: &writer)
    #expect(writer.output.hasPrefix(#"{"severity":"warning","code":"PC321","domain":"ReviewPolicy","#))
  }
}

@Suite("PolicyTools' diagnostic codes")
struct PolicyToolsCodeTests {
  @Test("PC401-PC412: the PolicyTools domain, errors but PC409, stable spellings")
  func codes() {
    #expect(PolicyToolsCode.allCases.map(\.rawValue) == (401...412).map { "PC\($0)" })
    #expect(PolicyToolsCode.allCases.allSatisfy { $0.code.domain == "PolicyTools" })
    #expect(PolicyToolsCode.allCases.filter { $0.severity == .warning } == [.unreadFact])
    #expect(PolicyToolsCode.allCases.allSatisfy { !$0.summary.isEmpty })
    #expect(PolicyToolsCode.invalidHistoryStep.code.name == "invalidHistoryStep")
  }

  @Test("the known codes: every domain's, sorted, each spelling once")
  func knownCodes() {
    let spellings = KnownDiagnosticCodes.all.map(\.rawValue)
    #expect(spellings == spellings.sorted())
    #expect(Set(spellings).count == spellings.count)
    #expect(Set(KnownDiagnosticCodes.all.map(\.domain)) == ["PolicyCore", "ReviewPolicy", "PolicyTools"])
    #expect(KnownDiagnosticCodes.code("PC321") == ReviewPolicyCode.asksTooSoon.code)
    #expect(KnownDiagnosticCodes.code("PC404") == PolicyToolsCode.invalidFactValue.code)
    #expect(KnownDiagnosticCodes.code("PC201") == PolicyCoreCode.unknownName.code)
    #expect(KnownDiagnosticCodes.code("PC999") == nil)
  }

  @Test("a facts file's and a test file's errors carry PolicyTools' codes")
  func producersUseTheDomain() throws {
    let policy = try #require(PolicyCompiler.compile("ask when days >= 3\n", schema: ReviewSchema.standard).policy)
    let file = SourceFile(path: "f.json", text: #"{"dayz": 3}"#)
    let facts = FactsFile.read(file, for: policy, now: nil) { Timestamp(millisecondsSince1970: 0) }
    guard case .failure(let problems) = facts else {
      Issue.record("expected a failure")
      return
    }
    #expect(problems.diagnostics.map(\.code) == [PolicyToolsCode.unknownFact.code])
    guard case .failure(let testProblems) = PolicyTestFile.parse(SourceFile(path: "t.test.json", text: "[1]")) else {
      Issue.record("expected a failure")
      return
    }
    #expect(testProblems.diagnostics.map(\.code) == [PolicyToolsCode.unexpectedJSON.code])
  }
}
