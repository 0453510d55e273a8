import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import Testing

/// Notes (`first defined here`) in the machine-readable formats of `policyc check`: JSON's
/// `notes`, SARIF's `relatedLocations`, GitHub's `note:` lines.
@Suite("policyc check: notes in json, sarif and github")
struct DiagnosticNotesFormatTests {
  /// A `let` and a rule defined twice: PC208 and PC207, each with a note on the first definition.
  static let policy = """
    ask loyal when days >= 30
    let engaged = uses >= 3
    let engaged = uses >= 5
    ask loyal when engaged and not declined and not rated

    """

  @Test("json: each duplicate definition with its note located; exact output")
  func json() {
    let result = runPolicyc(["check", "--format", "json", "d.policy"], files: ["d.policy": Self.policy])
    let expected =
      #"{"files":[{"path":"d.policy","diagnostics":["#
      + #"{"severity":"error","code":"PC208","domain":"PolicyCore","message":"`engaged` is already defined","#
      + #""line":3,"column":5,"endLine":3,"endColumn":12,"startOffset":54,"endOffset":61,"help":["choose another name"],"#
      + #""notes":[{"message":"`engaged` is first defined here","line":2,"column":5,"endLine":2,"endColumn":12,"#
      + #""startOffset":30,"endOffset":37}],"fixIts":[],"witness":null,"testCase":null},"#
      + #"{"severity":"error","code":"PC207","domain":"PolicyCore","message":"rule `loyal` is already defined","#
      + #""line":4,"column":5,"endLine":4,"endColumn":10,"startOffset":78,"endOffset":83,"#
      + #""help":["give this rule another name"],"#
      + #""notes":[{"message":"`loyal` is first defined here","line":1,"column":5,"endLine":1,"endColumn":10,"#
      + #""startOffset":4,"endOffset":9}],"fixIts":[],"witness":null,"testCase":null}"#
      + #"],"silenced":[],"notes":[]}],"errorCount":2,"warningCount":0}"# + "\n"
    #expect(result == RunResult(status: 1, standardOutput: expected, standardError: ""))
  }

  @Test("sarif: each note a related location of its result; exact output")
  func sarif() throws {
    let result = runPolicyc(["check", "--format", "sarif", "d.policy"], files: ["d.policy": Self.policy])
    let expected =
      #"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"#
      + #""name":"policyc","rules":["#
      + #"{"id":"PC207","name":"DuplicateRuleName","shortDescription":{"text":"duplicate rule name"},"#
      + #""defaultConfiguration":{"level":"error"}},"#
      + #"{"id":"PC208","name":"DuplicateDefinition","shortDescription":{"text":"duplicate definition"},"#
      + #""defaultConfiguration":{"level":"error"}}]}},"#
      + #""results":["#
      + #"{"ruleId":"PC208","level":"error","message":{"text":"`engaged` is already defined\nhelp: choose another name"},"#
      + #""locations":[{"physicalLocation":{"artifactLocation":{"uri":"d.policy"},"#
      + #""region":{"startLine":3,"startColumn":5,"endLine":3,"endColumn":12}}}],"#
      + #""relatedLocations":[{"id":0,"message":{"text":"`engaged` is first defined here"},"#
      + #""physicalLocation":{"artifactLocation":{"uri":"d.policy"},"#
      + #""region":{"startLine":2,"startColumn":5,"endLine":2,"endColumn":12}}}]},"#
      + #"{"ruleId":"PC207","level":"error","message":{"text":"rule `loyal` is already defined\nhelp: give this rule another name"},"#
      + #""locations":[{"physicalLocation":{"artifactLocation":{"uri":"d.policy"},"#
      + #""region":{"startLine":4,"startColumn":5,"endLine":4,"endColumn":10}}}],"#
      + #""relatedLocations":[{"id":0,"message":{"text":"`loyal` is first defined here"},"#
      + #""physicalLocation":{"artifactLocation":{"uri":"d.policy"},"#
      + #""region":{"startLine":1,"startColumn":5,"endLine":1,"endColumn":10}}}]}"#
      + #"]}]}"# + "\n"
    #expect(result == RunResult(status: 1, standardOutput: expected, standardError: ""))
    #expect(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) is [String: Any])
  }

  @Test("github: each note after the help lines, with its line and column")
  func github() {
    let result = runPolicyc(["check", "--format", "github", "d.policy"], files: ["d.policy": Self.policy])
    let expected = """
      ::error file=d.policy,line=3,col=5,endLine=3,endColumn=12,title=PC208 duplicate definition::`engaged` is already defined%0Ahelp: choose another name%0Anote: `engaged` is first defined here (line 2, column 5)
      ::error file=d.policy,line=4,col=5,endLine=4,endColumn=10,title=PC207 duplicate rule name::rule `loyal` is already defined%0Ahelp: give this rule another name%0Anote: `loyal` is first defined here (line 1, column 5)

      """
    #expect(result == RunResult(status: 1, standardOutput: expected, standardError: ""))
  }

  @Test("analyze --format json: the same diagnostic members, then the witness")
  func analyzeJSON() throws {
    let result = runPolicyc(["analyze", "--format", "json", "d.policy"], files: ["d.policy": Self.policy])
    let root = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let diagnostics = try #require((root["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["code"] as? String } == ["PC208", "PC207"])
    #expect(diagnostics.map { $0["domain"] as? String } == ["PolicyCore", "PolicyCore"])
    let notes = try #require(diagnostics[1]["notes"] as? [[String: Any]])
    #expect(notes.map { $0["message"] as? String } == ["`loyal` is first defined here"])
    #expect(notes.map { $0["line"] as? Int } == [1])
    #expect((diagnostics[1]["fixIts"] as? [Any])?.isEmpty == true)
    #expect(diagnostics.allSatisfy { $0.keys.contains("witness") })
  }
}
