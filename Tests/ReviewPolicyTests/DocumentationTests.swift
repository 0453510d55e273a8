import Foundation
import PolicyCore
import ReviewPolicy
import Testing

/// The policy snippets in README.md, Grammar.md and docs/*.md (fenced as ```policy) must compile cleanly,
/// so the documentation cannot drift from the language; their links must lead somewhere, and the README
/// must stay a front door.
@Suite("documentation snippets")
struct DocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The README's size limit in bytes: the front door links to docs/ for everything else.
  static let readmeLimit = 10_500

  /// Link targets another branch adds; remove each once it has landed.
  static let pendingTargets: Set<String> = []

  /// The Markdown files under docs/, as paths from the repository root.
  static func guides() throws -> [String] {
    let folder = root.appendingPathComponent("docs")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
      .map { "docs/" + $0 }
  }

  static func text(of file: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
  }

  static func policyBlocks(in file: String) throws -> [String] {
    let text = try text(of: file)
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

  /// The relative link targets in `text` (`[text](target)`), without any `#fragment`; web links are left out.
  static func relativeLinks(in text: String) -> [String] {
    var links: [String] = []
    var rest = Substring(text)
    while let start = rest.range(of: "](") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(where: { $0 == ")" || $0 == " " || $0 == "\n" }) else { break }
      let target = rest[..<end].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      if !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") { links.append(String(target)) }
      rest = rest[end...]
    }
    return links
  }

  static func compileCleanly(_ blocks: [String], in file: String) {
    for block in blocks {
      let compilation = PolicyCompiler.compile(block, path: file, schema: ReviewSchema.standard)
      let rendered = DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source)
      #expect(!compilation.hasErrors, "\(file):\n\(block)\n\(rendered)")
    }
  }

  @Test(
    "every ```policy block compiles without errors against the review schema", arguments: ["README.md", "Grammar.md"])
  func snippetsCompile(file: String) throws {
    let blocks = try DocumentationTests.policyBlocks(in: file)
    #expect(blocks.count >= 2, "\(file) has policy snippets")
    DocumentationTests.compileCleanly(blocks, in: file)
  }

  @Test("every ```policy block in docs/ compiles without errors against the review schema")
  func guideSnippetsCompile() throws {
    let guides = try DocumentationTests.guides()
    #expect(guides.contains("docs/walkthrough.md"), "docs/ holds the guides")
    var count = 0
    for file in guides {
      let blocks = try DocumentationTests.policyBlocks(in: file)
      count += blocks.count
      DocumentationTests.compileCleanly(blocks, in: file)
    }
    #expect(count >= 2, "docs/ has policy snippets")
  }

  @Test("every relative link in README.md, Grammar.md and docs/ leads to a file")
  func linksResolve() throws {
    for file in ["README.md", "Grammar.md"] + (try DocumentationTests.guides()) {
      let folder = file.split(separator: "/").dropLast().reduce(DocumentationTests.root) {
        $0.appendingPathComponent(String($1))
      }
      for link in DocumentationTests.relativeLinks(in: try DocumentationTests.text(of: file)) {
        let resolved = folder.appendingPathComponent(link).standardizedFileURL
        let fromRoot = String(resolved.path.dropFirst(DocumentationTests.root.standardizedFileURL.path.count + 1))
        let exists = FileManager.default.fileExists(atPath: resolved.path)
        #expect(
          exists || DocumentationTests.pendingTargets.contains(fromRoot),
          "\(file) links to \(link), which does not exist")
      }
    }
  }

  @Test("the README stays a front door: at most 10,500 bytes")
  func readmeIsShort() throws {
    let size = try DocumentationTests.text(of: "README.md").utf8.count
    #expect(size <= DocumentationTests.readmeLimit, "README.md is \(size) bytes; move detail to docs/")
  }
}
