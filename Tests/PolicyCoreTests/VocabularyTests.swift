import Foundation
import Testing

/// PolicyCore is the language only: it names no fact of any host's domain, and it imports no
/// module (no Foundation). The review domain (its facts and its etiquette checks) lives in the
/// ReviewPolicy module.
@Suite("core vocabulary")
struct VocabularyTests {
  /// Words of the review domain: its fact names, and words that only that domain needs.
  static let factNames: Set<String> = [
    "declined", "rated", "declined_any", "rated_any", "last_prompt", "last_prompt_version", "prompts_within",
    "total_prompts", "sessions_since_prompt", "install_date", "first_use", "last_rating", "last_decline",
    "last_reminder", "feedback",
  ]
  static let fragments = ["review", "prompt", "etiquette", "appstore", "storekit"]

  /// The review words on `line`, by identifier.
  static func reviewWords(in line: Substring) -> [String] {
    var words: [String] = []
    var current = ""
    for character in line + " " {
      if character.isLetter || character.isNumber || character == "_" {
        current.append(character)
        continue
      }
      let word = current.lowercased()
      if factNames.contains(word) || fragments.contains(where: { word.contains($0) }) { words.append(current) }
      current = ""
    }
    return words
  }

  @Test(
    "Sources/PolicyCore and Sources/PolicyAnalysis name no review fact, comments included",
    arguments: ["PolicyCore", "PolicyAnalysis"])
  func noReviewVocabulary(module: String) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/\(module)")
    let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
    var found: [String] = []
    var scanned = 0
    for case let url as URL in files where ["swift", "md"].contains(url.pathExtension) {
      scanned += 1
      let text = try String(contentsOf: url, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let words = Self.reviewWords(in: line)
        guard !words.isEmpty else { continue }
        found.append("\(url.lastPathComponent):\(number + 1): \(words.joined(separator: ", "))")
      }
    }
    #expect(scanned > 10)
    #expect(found == [])
  }

  @Test(
    "Sources/PolicyCore imports no module (no Foundation, only the standard library); PolicyAnalysis only PolicyCore",
    arguments: ["PolicyCore", "PolicyAnalysis"])
  func importsNothing(module: String) throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/\(module)")
    let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
    var imports: [String] = []
    var scanned = 0
    for case let url as URL in files where url.pathExtension == "swift" {
      scanned += 1
      let text = try String(contentsOf: url, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.drop { $0 == " " }
        let attributes =
          code.hasPrefix("@_exported ") || code.hasPrefix("@testable ") || code.hasPrefix("@preconcurrency ")
        if code == "import PolicyCore" && module == "PolicyAnalysis" { continue }
        if code.hasPrefix("import ") || (attributes && code.contains(" import ")) {
          imports.append("\(url.lastPathComponent):\(number + 1): \(code)")
        }
      }
    }
    #expect(scanned > 10)
    #expect(imports == [], "\(module) is pure Swift: the language needs no Foundation and does no I/O")
  }

  @Test("the scan finds the words it looks for")
  func scanWorks() {
    #expect(Self.reviewWords(in: "let x = since(last_prompt) // ReviewSchema") == ["last_prompt", "ReviewSchema"])
    #expect(Self.reviewWords(in: "separated, generated and rated") == ["rated"])
    #expect(Self.reviewWords(in: "let days = uses") == [])
  }
}
