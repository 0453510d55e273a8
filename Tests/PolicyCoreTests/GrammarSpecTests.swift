import Foundation
import Testing

@testable import PolicyCore

/// Grammar.md against the lexer and the parser: the EBNF's right column names the functions that
/// parse each production, and the keywords and built-in names it lists are the language's. (The
/// diagnostic code tables are checked by `DiagnosticCodeTableTests`, the policy snippets by
/// `DocumentationTests`.)
@Suite("Grammar.md matches the lexer and the parser")
struct GrammarSpecTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Parser functions that parse no production of their own: the entry point and two helpers.
  static let helpers: Set<String> = ["parse", "parseName", "parseSequence"]

  static func grammar() throws -> String {
    try String(contentsOf: root.appendingPathComponent("Grammar.md"), encoding: .utf8)
  }

  /// The words in backticks on the line of Grammar.md that starts with `prefix`.
  static func quotedWords(onLineStartingWith prefix: String) throws -> [String] {
    let line = try #require(try grammar().split(separator: "\n").first { $0.hasPrefix(prefix) })
    return line.dropFirst(prefix.count).split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.flatMap { $0.element.split(separator: " ").map(String.init) }
  }

  /// The `parseX` names in the right column of the EBNF block (the first fenced block after "## 2. Syntax").
  static func productionFunctions() throws -> Set<String> {
    let text = try grammar()
    let syntax = try #require(text.range(of: "## 2. Syntax"))
    let rest = text[syntax.upperBound...]
    let open = try #require(rest.range(of: "```\n"))
    let close = try #require(rest[open.upperBound...].range(of: "```"))
    return Set(words(in: rest[open.upperBound..<close.lowerBound]).filter { $0.hasPrefix("parse") })
  }

  /// The `func parseX` names declared in Sources/PolicyCore/Syntax/Parser*.swift.
  static func parserFunctions() throws -> Set<String> {
    let folder = root.appendingPathComponent("Sources/PolicyCore/Syntax")
    var names = Set<String>()
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("Parser") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      let tokens = words(in: Substring(text))
      for (index, token) in tokens.enumerated() where token == "func" && index + 1 < tokens.count {
        if tokens[index + 1].hasPrefix("parse") { names.insert(tokens[index + 1]) }
      }
    }
    return names
  }

  /// The identifiers of `text`.
  static func words(in text: Substring) -> [String] {
    text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
  }

  @Test("every function the EBNF names parses in the parser, and every parsing function is named")
  func productionsNameParserFunctions() throws {
    let named = try Self.productionFunctions()
    let declared = try Self.parserFunctions()
    #expect(named.count >= 20, "the EBNF's right column is found")
    #expect(named.subtracting(declared).sorted() == [], "Grammar.md names functions the parser does not have")
    #expect(
      declared.subtracting(named).subtracting(Self.helpers).sorted() == [],
      "parser functions Grammar.md's EBNF does not name (add the production, or list a helper here)")
  }

  @Test("the keywords Grammar.md lists are the lexer's")
  func keywords() throws {
    let listed = try Self.quotedWords(onLineStartingWith: "- **Keywords**")
    #expect(listed == TokenKind.keywords)
  }

  @Test("the built-in names Grammar.md lists are the ones no policy may redefine")
  func builtinNames() throws {
    let listed = try Self.quotedWords(onLineStartingWith: "- **Built-in names**")
    #expect(Set(listed) == Builtin.reservedNames)
    #expect(listed.count == Builtin.reservedNames.count)
  }
}
