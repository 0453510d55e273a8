import Foundation
import PolicyCore
import ReviewPolicy
import Testing

/// The policy snippets in README.md, Grammar.md and docs/*.md (fenced as ```policy) must compile cleanly,
/// so the documentation cannot drift from the language; their links must lead somewhere (to a heading
/// that exists, for a link with a `#`), Grammar.md must leave the review vocabulary to docs/facts.md,
/// and the README must stay a front door.
@Suite("documentation snippets")
struct DocumentationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The README's size limit in bytes: the front door links to docs/ for everything else.
  static let readmeLimit = 10_500

  /// The Markdown pages at the repository's root whose links are checked.
  static let rootPages = ["README.md", "Grammar.md", "ARCHITECTURE.md"]

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

  @Test("every relative link in README.md, Grammar.md, ARCHITECTURE.md and docs/ leads to a file")
  func linksResolve() throws {
    for file in DocumentationTests.rootPages + (try DocumentationTests.guides()) {
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

  /// The relative links in `text` to a heading of a Markdown file: the target and the fragment.
  static func fragmentLinks(in text: String) -> [(target: String, fragment: String)] {
    var links: [(String, String)] = []
    var rest = Substring(text)
    while let start = rest.range(of: "](") {
      rest = rest[start.upperBound...]
      guard let end = rest.firstIndex(where: { $0 == ")" || $0 == " " || $0 == "\n" }) else { break }
      let parts = rest[..<end].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2, !parts[0].contains("://"), parts[0].isEmpty || parts[0].hasSuffix(".md") {
        links.append((String(parts[0]), String(parts[1])))
      }
      rest = rest[end...]
    }
    return links
  }

  /// The anchors GitHub gives the headings of a Markdown file: lower case, spaces as hyphens,
  /// punctuation other than `-` and `_` dropped (`## 5. Absent values` is `5-absent-values`).
  static func anchors(in text: String) -> Set<String> {
    var anchors = Set<String>()
    var inFence = false
    for line in text.split(separator: "\n") {
      if line.hasPrefix("```") { inFence.toggle() }
      guard !inFence, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
      let slug = title.lowercased().compactMap { character -> String? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-" || character == "_" { return String(character) }
        return nil
      }
      anchors.insert(slug.joined())
    }
    return anchors
  }

  @Test("every link to a heading of README.md, Grammar.md or docs/ (`facts.md#clocks`) leads to one")
  func fragmentsResolve() throws {
    #expect(
      DocumentationTests.anchors(in: "## 5. Absent values\n```\n# no\n```\n### `let`\n") == ["5-absent-values", "let"])
    var checked = 0
    for file in DocumentationTests.rootPages + (try DocumentationTests.guides()) {
      let folder = file.split(separator: "/").dropLast().joined(separator: "/")
      for link in DocumentationTests.fragmentLinks(in: try DocumentationTests.text(of: file)) {
        let target =
          link.target.isEmpty
          ? file
          : URL(fileURLWithPath: "/" + folder).appendingPathComponent(link.target).standardizedFileURL.path
            .dropFirst().description
        guard let text = try? DocumentationTests.text(of: target) else { continue }  // reported by linksResolve
        checked += 1
        #expect(
          DocumentationTests.anchors(in: text).contains(link.fragment),
          "\(file) links to \(link.target)#\(link.fragment), a heading \(target) does not have")
      }
    }
    #expect(checked >= 10, "links with a fragment found")
  }

  @Test("Grammar.md specifies the language only: the review facts and their clock rules are in docs/facts.md")
  func reviewVocabularyIsInFactsPage() throws {
    let grammar = try DocumentationTests.text(of: "Grammar.md")
    let facts = try DocumentationTests.text(of: "docs/facts.md")
    #expect(grammar.contains("](docs/facts.md)"), "Grammar.md links to the review vocabulary")
    #expect(!grammar.contains("### \(ReviewClockRules.title)\n"), "the clock rules are review runtime behaviour")
    for line in ReviewClockRules.markdown.split(separator: "\n") where line.count > 40 {
      #expect(!grammar.contains(line), "Grammar.md repeats the clock rules: \(line)")
    }
    #expect(facts.contains("## \(ReviewClockRules.title)\n\n\(ReviewClockRules.markdown)\n"))
    for fact in ReviewSchema.standard.facts {
      #expect(facts.contains("| `\(fact.name)` |"), "docs/facts.md lists \(fact.name)")
    }
    for family in ReviewSchema.standard.families {
      #expect(facts.contains("| `\(family.name)("), "docs/facts.md lists \(family.name)")
    }
  }

  /// The tests an ARCHITECTURE.md invariant names: `SuiteTests` or `SuiteTests.function`, in backticks.
  static func namedTests(in paragraph: String) -> [(suite: String, function: String?)] {
    paragraph.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { item in
      guard item.offset % 2 == 1 else { return nil }
      let parts = item.element.split(separator: ".", omittingEmptySubsequences: false)
      guard (1...2).contains(parts.count), let suite = parts.first, suite.hasSuffix("Tests"),
        suite.first?.isUppercase == true, parts.joined().allSatisfy({ $0.isLetter || $0.isNumber })
      else { return nil }
      return (String(suite), parts.count == 2 ? String(parts[1]) : nil)
    }
  }

  @Test("every invariant of ARCHITECTURE.md names a test, and every test it names exists")
  func architectureNamesRealTests() throws {
    let text = try DocumentationTests.text(of: "ARCHITECTURE.md")
    let invariants = text.components(separatedBy: "\n\n").compactMap { paragraph -> String? in
      guard let start = paragraph.range(of: "**Invariant:**") else { return nil }
      return String(paragraph[start.lowerBound...])
    }
    #expect(invariants.count >= 20, "ARCHITECTURE.md's invariants are found")
    let folder = DocumentationTests.root.appendingPathComponent("Tests")
    let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    var sources: [String] = []
    for case let url as URL in files where url.pathExtension == "swift" {
      sources.append(try String(contentsOf: url, encoding: .utf8))
    }
    for invariant in invariants {
      let named = DocumentationTests.namedTests(in: invariant)
      #expect(!named.isEmpty, "an invariant names no test: \(invariant.prefix(80))")
      for test in named {
        let found = sources.contains { source in
          source.contains("struct \(test.suite) ") && (test.function.map { source.contains("func \($0)(") } ?? true)
        }
        #expect(found, "ARCHITECTURE.md names \(test.suite)\(test.function.map { "." + $0 } ?? ""), which Tests/ lacks")
      }
    }
    #expect(DocumentationTests.namedTests(in: "`DecisionTests.ruleOrder`, `a.b`, `GoldenTests`, `Facts`").count == 2)
  }

  @Test("integration.md prints a warning's code as users see it (`PC320`), not the Swift case name")
  func integrationPrintsCodes() throws {
    let text = try DocumentationTests.text(of: "docs/integration.md")
    #expect(text.contains("print(\"\\(warning.code.rawValue): \\(warning.message)\")"))
    #expect(!text.contains("\\(warning.code)"))
    #expect(ReviewPolicyCode.asksAfterAnswer.code.rawValue == "PC320")
    #expect("\(ReviewPolicyCode.asksAfterAnswer.code)" == "asksAfterAnswer", "as integration.md says")
  }

  @Test("performance.md says a save appends a journal line, as JSONFileStore and app-state.md do")
  func performanceDescribesTheJournal() throws {
    let text = try DocumentationTests.text(of: "docs/performance.md")
    #expect(text.contains("appends one line to its"))
    #expect(!text.contains("writes a temporary file and renames it over the old"))
    #expect(JSONFileStore.journalLimit == 12 * 1024, "performance.md says 12 KiB")
  }

  @Test("the README stays a front door: at most 10,500 bytes")
  func readmeIsShort() throws {
    let size = try DocumentationTests.text(of: "README.md").utf8.count
    #expect(size <= DocumentationTests.readmeLimit, "README.md is \(size) bytes; move detail to docs/")
  }
}
