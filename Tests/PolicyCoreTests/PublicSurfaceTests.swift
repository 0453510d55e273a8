import Foundation
import Testing

/// The public API of the libraries apps link is what their DocC catalogs list: every public
/// top-level declaration of PolicyCore and ReviewPolicy is listed under `## Topics` in
/// `Sources/<module>/<module>.docc/<module>.md`, and every name listed there is one. What only the
/// package's own modules use is `package`, and what only its module uses is internal.
@Suite("public surface")
struct PublicSurfaceTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias", "func"]
  static let modifiers: Set<Substring> = ["final", "indirect", "nonisolated"]

  /// The names of the public top-level declarations in `text` (a function by its base name).
  ///
  /// A declaration is top-level when it is indented only by the `#if` blocks around it (the
  /// formatter indents conditional compilation blocks); members of a type are indented further.
  static func publicTopLevelNames(in text: String) -> [String] {
    var names: [String] = []
    var level = 0
    var conditions: [Int] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let code = line.drop { $0 == " " }
      let indentation = line.count - code.count
      if code.hasPrefix("#if ") && indentation == level {
        conditions.append(level)
        level += 2
        continue
      }
      if code.hasPrefix("#endif"), let outer = conditions.last, indentation == outer {
        conditions.removeLast()
        level = outer
        continue
      }
      guard indentation == level else { continue }
      var words = code.split(separator: " ")[...]
      while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
      guard words.first == "public" else { continue }
      words = words.dropFirst()
      while let first = words.first, modifiers.contains(first) { words = words.dropFirst() }
      guard let kind = words.first, kinds.contains(kind), let name = words.dropFirst().first else { continue }
      names.append(String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
    }
    return names
  }

  /// The top-level names the catalog lists under `## Topics` (`- ``Name`` `; a function by its
  /// base name, a member path by its type).
  static func listedNames(in catalog: String) -> Set<String> {
    var names: Set<String> = []
    var inTopics = false
    for line in catalog.split(separator: "\n") {
      if line.hasPrefix("## ") { inTopics = line == "## Topics" }
      guard inTopics, line.hasPrefix("- ``") else { continue }
      let symbol = line.dropFirst(4).prefix { $0 != "`" }
      names.insert(String(symbol.prefix { $0 != "/" && $0 != "(" }))
    }
    return names
  }

  @Test(
    "every public top-level type of the module is listed in its catalog's topics, and every listed name is one",
    arguments: ["PolicyCore", "PolicyAnalysis", "ReviewPolicy", "ReviewMigration", "PolicyTools"])
  func everyPublicTypeIsListed(module: String) throws {
    let sources = Self.root.appendingPathComponent("Sources/\(module)")
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    var declared: [String: String] = [:]
    var scanned = 0
    for case let url as URL in files where url.pathExtension == "swift" {
      scanned += 1
      for name in Self.publicTopLevelNames(in: try String(contentsOf: url, encoding: .utf8)) {
        declared[name] = url.lastPathComponent
      }
    }
    let catalog = try String(
      contentsOf: sources.appendingPathComponent("\(module).docc/\(module).md"), encoding: .utf8)
    let listed = Self.listedNames(in: catalog)
    // A scan that found nothing would pass vacuously: each module declares at least this many.
    #expect(scanned > 0)
    #expect(declared.count >= (module == "ReviewMigration" ? 4 : 11))
    let unlisted = declared.keys.filter { !listed.contains($0) }.sorted().map { "\($0) (\(declared[$0]!))" }
    #expect(
      unlisted == [],
      "public, so listed under a topic of \(module).docc/\(module).md; or package (used only by the package's modules) or internal"
    )
    #expect(listed.subtracting(declared.keys).sorted() == [], "listed in \(module).md but not public in \(module)")
  }

  @Test("the scan finds public top-level declarations, also in #if blocks, and only them")
  func scanWorks() {
    let source = """
      /// A type.
      @frozen
      public struct Listed: Sendable {
        public var member: Int
        public struct Nested {}
      }
      @MainActor public final class Actor {}
      package enum Shared {}
      struct Internal {}
      public extension Internal {}
      public func helper(_ x: Int) -> Int { x }
      #if canImport(Darwin)
        public protocol OnApple {}
        struct Hidden {
          public func member() {}
        }
      #endif
      public typealias Alias = Int
      """
    #expect(Self.publicTopLevelNames(in: source) == ["Listed", "Actor", "helper", "OnApple", "Alias"])
    let catalog = """
      # ``Module``

      - ``NotATopic``

      ## Topics

      ### A group

      - ``Listed``
      - ``helper(_:)``
      - ``Listed/member``
      """
    #expect(Self.listedNames(in: catalog) == ["Listed", "helper"])
  }
}
