import PolicyCore
import PolicyTools
import ReviewPolicy
import Testing

@Suite("language server: project files and --events")
struct LanguageServerProjectTests {
  /// A policy that respects review etiquette and reads `events("share")` on line 4 (index 3).
  static let policy = """
    never answered when declined or rated
    never too_soon when since(last_prompt) < 8w
    never yearly_cap when prompts_within(365d) >= 3
    ask when events("share") >= 3

    """
  static let documentURI = "file:///app/policies/review.policy"
  static let projectURI = "file:///app/reviewpolicy.json"

  @Test("a document's project file gives its event names: an event name outside them is PC217, and completed")
  func projectFile() {
    let files = MemoryProjectFiles(["/app/reviewpolicy.json": #"{"events": ["export", "purchase"]}"#])
    var client = TestClient(LanguageServer(projectFiles: files))
    client.open(Self.documentURI, Self.policy + "ask when events(\"\n")
    let published = client.publish()
    #expect(published[Self.documentURI]?.compactMap { $0["code"]?.stringValue }.first == "PC217")
    #expect(published[Self.documentURI]?.first?["range"]?["start"]?["line"]?.intValue == 3)
    #expect(published.count == 1, "nothing is published for a valid project file")
    let keys = client.request("textDocument/completion", TestClient.at(Self.documentURI, 4, 17))?.completionLabels
    #expect(keys == ["export", "purchase", "share"])
    // A document that is not a file, or without a project file, accepts any name.
    client.open("untitled:one", Self.policy)
    client.open("file:///elsewhere/p.policy", Self.policy)
    let others = client.publish()
    #expect(others["untitled:one"]?.isEmpty == true)
    #expect(others["file:///elsewhere/p.policy"]?.isEmpty == true)
  }

  @Test("--events: every document's names, project files not read")
  func eventsOption() {
    var client = TestClient(LanguageServer(environment: PolicyEnvironment(eventNames: ["export"])))
    client.open(Self.documentURI, Self.policy)
    #expect(client.publish()[Self.documentURI]?.compactMap { $0["code"]?.stringValue } == ["PC217"])
  }

  @Test("a malformed project file: its diagnostics under its own URI, cleared once fixed and saved")
  func malformedProjectFile() {
    let files = MemoryProjectFiles(["/app/reviewpolicy.json": #"{"evnts": ["export"]}"#])
    var client = TestClient(LanguageServer(projectFiles: files))
    client.open(Self.documentURI, Self.policy)
    let first = client.publish()
    #expect(first[Self.documentURI]?.isEmpty == true, "the policy is checked without the app's names")
    let project = first[Self.projectURI] ?? []
    #expect(project.compactMap { $0["code"]?.stringValue } == ["PC402"])
    #expect(
      project.first?["message"]?.stringValue == "unknown key `evnts` in a project file\nhelp: did you mean `events`?")
    #expect(project.first?["range"]?["start"]?["character"]?.intValue == 1)
    // Fixed on disk and saved: the policy is checked again with the names, and the problems cleared.
    files.set("/app/reviewpolicy.json", #"{"events": ["export"]}"#)
    client.notify("textDocument/didSave", #"{"textDocument":{"uri":"\#(Self.projectURI)"}}"#)
    let second = client.publish()
    #expect(second[Self.documentURI]?.compactMap { $0["code"]?.stringValue } == ["PC217"])
    #expect(second[Self.projectURI]?.isEmpty == true)
  }

  @Test("an open project file is checked as one")
  func openProjectFile() {
    var client = TestClient(LanguageServer(projectFiles: MemoryProjectFiles([:])))
    client.open(Self.projectURI, #"{"events": "export"}"#)
    #expect(client.publish()[Self.projectURI]?.compactMap { $0["code"]?.stringValue } == ["PC402"])
  }
}
