import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// docs/ios.md: its `swift checked` snippets are the ones IOSGuideSnippets.swift compiles, and they
/// work with the example policy the guide names.
@Suite("documentation: the iOS guide")
struct IOSGuideTests {
  static let guide = "docs/ios.md"
  static let snippetsFile = "Tests/ReviewPolicyTests/IOSGuideSnippets.swift"

  /// The blocks fenced as ```swift checked in the guide.
  static func guideBlocks() throws -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in try DocumentationTests.text(of: guide).split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift checked" {
        current = []
      } else if let block = current, line == "```" {
        blocks.append(block)
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  /// The snippets in IOSGuideSnippets.swift, between their `// docs/ios.md snippet N` markers.
  static func compiledBlocks() throws -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in try DocumentationTests.text(of: snippetsFile).split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "// docs/ios.md snippet \(blocks.count + 1)" {
        current = []
      } else if let block = current, line == "// end of snippet \(blocks.count + 1)" {
        blocks.append(block)
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  @Test("every ```swift checked block of docs/ios.md is, line for line, a snippet the test target compiles")
  func snippetsAreCompiled() throws {
    let guide = try Self.guideBlocks()
    let compiled = try Self.compiledBlocks()
    #expect(guide.count >= 5, "docs/ios.md has checked snippets")
    #expect(guide.count == compiled.count, "\(Self.snippetsFile) holds one snippet per checked block")
    for (index, (written, built)) in zip(guide, compiled).enumerated() {
      #expect(written == built, "snippet \(index + 1) of docs/ios.md differs from \(Self.snippetsFile)")
    }
  }

  @Test("the guide is linked from docs/README.md and README.md")
  func linked() throws {
    #expect(try DocumentationTests.text(of: "docs/README.md").contains("(ios.md)"))
    #expect(try DocumentationTests.text(of: "README.md").contains("(docs/ios.md)"))
  }

  @Test("the guide's facts and session snippets let Examples/review.policy decide")
  func examplePolicyDecides() throws {
    let policy = try DocumentationTests.text(of: "Examples/review.policy")
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "3.1", bundledPolicy: policy, store: InMemoryReviewStore(), clock: { RuntimeFixtures.start },
        texts: .english, presenter: SystemReviewPresenter(unavailable: "none") { true }))
    // What makeManager sets, then a session.
    manager.setFact("plan", .string("free"))
    manager.setFact("crashed_this_session", .bool(false))
    manager.appLaunched()
    DarkroomReviews.planChanged(to: "pro", in: manager)
    DarkroomReviews.editingSession(in: manager, editScores: [5, -1, 3], crashed: false)
    let decision = manager.currentDecision()
    #expect(decision.decision != nil, "\(manager.explainCurrentDecision().text)")
    #expect(manager.currentState.events == 1 && manager.currentState.sessions == 1)
  }

  @Test("the App Group snippet puts the state under ReviewPolicy/ in the container")
  func sharedStore() throws {
    let folder = try RuntimeTemporaryDirectory()
    let store = DarkroomReviews.sharedStore(inGroupContainer: folder.url)
    try store.save(ReviewState())
    #expect(
      FileManager.default.fileExists(
        atPath: folder.url.appendingPathComponent("ReviewPolicy/review-state.json").path))
  }
}
