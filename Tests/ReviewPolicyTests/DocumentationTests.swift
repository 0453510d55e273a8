import Foundation
import PolicyCore
import ReviewPolicy
import Testing

/// The policy snippets in README.md and Grammar.md (fenced as ```policy) must compile cleanly,
/// so the documentation cannot drift from the language.
@Suite("documentation snippets")
struct DocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func policyBlocks(in file: String) throws -> [String] {
    let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    var blocks: [String] = []
    var current: [String]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```policy" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current?.joined(separator: "\n") ?? "")
        current = nil
      } else {
        current?.append(String(line))
      }
    }
    return blocks
  }

  @Test("every ```policy block compiles without errors against the review schema", arguments: ["README.md", "Grammar.md"])
  func snippetsCompile(file: String) throws {
    let blocks = try DocumentationTests.policyBlocks(in: file)
    #expect(blocks.count >= 2, "\(file) has policy snippets")
    for block in blocks {
      let compilation = PolicyCompiler.compile(block, path: file, schema: ReviewSchema.standard)
      let rendered = DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source)
      #expect(!compilation.hasErrors, "\(file):\n\(block)\n\(rendered)")
    }
  }
}
