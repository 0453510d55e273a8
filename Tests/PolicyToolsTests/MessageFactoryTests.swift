import Foundation
import PolicyAnalysis
import PolicyCore
import PolicyTools
import ReviewAnalysis
import ReviewPolicy
import Testing

/// PolicyTools and the review-etiquette checks write every diagnostic through a factory of a
/// `*Messages.swift` file next to the code that reports (as PolicyCore's phases do through
/// `LexerMessages`, `ParserMessages`, `CheckerMessages` and `AnalyzerMessages`): the wording,
/// help, notes and fix-its of a message live in one place, and each factory says which code it
/// reports.
///
/// The scan reads the source text, so it also covers code no test reaches. It looks at
/// Sources/PolicyTools and at ReviewEtiquette.swift wherever it is in Sources/ReviewAnalysis.
@Suite("message factories: diagnostics are written only in *Messages.swift files")
struct MessageFactoryTests {
  /// The package's root.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// What builds a diagnostic or a part of one that carries wording, or a JSON-RPC error.
  static let constructors = ["Diagnostic(", "Diagnostic.init(", "DiagnosticNote(", "FixIt(", "RequestError("]

  /// Constructions allowed outside a `*Messages.swift` file, by file name, each with its reason.
  /// None is needed today: a JSON parse failure wraps the diagnostic `JSONMessages` wrote
  /// (`JSONParser.Failure(_:)`, not a constructor above) and the readers report that diagnostic
  /// as it is; a checker that re-wraps an existing diagnostic (to move it, or add a note) would
  /// be listed here.
  static let exceptions: [String: Set<String>] = [:]

  /// The Swift files under `folder` (relative to the package root), with their text.
  static func files(under folder: String) throws -> [(url: URL, text: String)] {
    let url = root.appendingPathComponent(folder)
    let enumerator = try #require(FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil))
    var files: [(URL, String)] = []
    for case let file as URL in enumerator where file.pathExtension == "swift" {
      files.append((file, try String(contentsOf: file, encoding: .utf8)))
    }
    return files.sorted { $0.0.path < $1.0.path }
  }

  /// The files the invariant covers: PolicyTools, and ReviewEtiquette.swift (found by name,
  /// so it may move within Sources/ReviewAnalysis).
  static func scannedFiles() throws -> [(url: URL, text: String)] {
    let etiquette = try files(under: "Sources/ReviewAnalysis").filter {
      $0.url.lastPathComponent == "ReviewEtiquette.swift"
    }
    #expect(etiquette.count == 1, "ReviewEtiquette.swift is not in Sources/ReviewAnalysis")
    return try files(under: "Sources/PolicyTools") + etiquette
  }

  /// Whether `character` can be part of a Swift identifier.
  static func isIdentifier(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }

  /// The constructions in `text` that write a message: each of ``constructors`` where it starts
  /// a name (`lspDiagnostic(` is not one), and a `message:` label followed by a string literal;
  /// as `line: what`. Comment lines are skipped.
  static func inlineMessages(in text: String) -> [String] {
    var found: [String] = []
    var previous = ""
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      defer { previous = line.trimmingCharacters(in: .whitespaces) }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard !trimmed.hasPrefix("//") else { continue }
      for constructor in constructors {
        var searchStart = line.startIndex
        while let range = line.range(of: constructor, range: searchStart..<line.endIndex) {
          searchStart = range.upperBound
          if range.lowerBound > line.startIndex, isIdentifier(line[line.index(before: range.lowerBound)]) { continue }
          found.append("\(number + 1): \(constructor)")
        }
      }
      if line.contains("message: \"") || (previous.hasSuffix("message:") && trimmed.hasPrefix("\"")) {
        found.append("\(number + 1): message: \"...\"")
      }
    }
    return found
  }

  @Test("no diagnostic, note, fix-it or JSON-RPC error is built outside a *Messages.swift file")
  func noInlineMessages() throws {
    var found: [String] = []
    var scanned = 0
    for (url, text) in try Self.scannedFiles() where !url.lastPathComponent.hasSuffix("Messages.swift") {
      scanned += 1
      let allowed = Self.exceptions[url.lastPathComponent] ?? []
      for site in Self.inlineMessages(in: text) where !allowed.contains(String(site.drop { $0 != " " }.dropFirst())) {
        found.append("\(url.lastPathComponent):\(site)")
      }
    }
    #expect(scanned >= 30)
    #expect(found == [], "write these through a factory of the area's *Messages.swift")
  }

  @Test("the scan finds constructions, not names that end like them or comments")
  func scanWorks() {
    let text = """
      problems.append(Diagnostic(PolicyToolsCode.unknownFact, "unknown fact", at: range))
      let diagnostic = Diagnostic.init(code, "x", at: range)
      // Diagnostic(PolicyToolsCode.unknownFact, ...) in a comment
      members.append(Self.lspDiagnostic(diagnostic, in: document))
      notes: [DiagnosticNote("given here", at: range)], fixIts: [FixIt("add", edits: [])]
      return .failure(RequestError(code: -32601, message: "Method not found"))
      .init(
        message:
          "`--fact x`: unknown")
      """
    #expect(
      Self.inlineMessages(in: text) == [
        "1: Diagnostic(", "2: Diagnostic.init(", "5: DiagnosticNote(", "5: FixIt(", "6: RequestError(",
        "6: message: \"...\"", "9: message: \"...\"",
      ])
  }

  /// The code of each case of the modules' code enums, by the name a factory uses (`PolicyToolsCode.invalidJSON`).
  static let codes: [String: String] = {
    var codes: [String: String] = [:]
    for code in PolicyToolsCode.allCases { codes["PolicyToolsCode.\(code.code.name)"] = code.rawValue }
    for code in ReviewPolicyCode.allCases { codes["ReviewPolicyCode.\(code.code.name)"] = code.rawValue }
    // One mistake, one code: an event no user can have is PC217 in a facts file as in a policy.
    codes["PolicyCoreCode.unknownEvent"] = PolicyCoreCode.unknownEvent.rawValue
    return codes
  }()

  /// The factories returning a `Diagnostic` in `text`: each one's name, the code its
  /// documentation starts with (`/// `PC401`: ...`), and the codes its body names.
  static func factories(in text: String) -> [(name: String, documented: String?, used: Set<String>)] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var factories: [(String, String?, Set<String>)] = []
    var index = 0
    while index < lines.count {
      let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("static func ") else {
        index += 1
        continue
      }
      let name = String(trimmed.dropFirst("static func ".count).prefix { isIdentifier($0) })
      // The signature runs to the line that opens the body.
      var end = index
      while end < lines.count && !lines[end].contains("{") { end += 1 }
      let signature = lines[index...min(end, lines.count - 1)].joined(separator: " ")
      // The documentation is the comment right above.
      var first = index
      while first > 0 && lines[first - 1].trimmingCharacters(in: .whitespaces).hasPrefix("///") { first -= 1 }
      let summary = first < index ? lines[first].trimmingCharacters(in: .whitespaces) : ""
      let documented = summary.hasPrefix("/// `PC") ? String(summary.dropFirst(5).prefix(5)) : nil
      // The body runs to the next declaration or comment at the same depth.
      var bodyEnd = end + 1
      while bodyEnd < lines.count {
        let next = lines[bodyEnd].trimmingCharacters(in: .whitespaces)
        if next.hasPrefix("///") || next.hasPrefix("// MARK") || next.hasPrefix("static ")
          || next.hasPrefix("private static ") || next.hasPrefix("enum ")
        {
          break
        }
        bodyEnd += 1
      }
      let body = lines[end..<min(bodyEnd, lines.count)].joined(separator: "\n")
      let used = Set(codes.keys.filter { body.contains($0 + ",") || body.contains($0 + ")") }.compactMap { codes[$0] })
      if signature.contains("-> Diagnostic") && !signature.contains("-> [Diagnostic]") {
        factories.append((name, documented, used))
      }
      index = max(end, index + 1)
    }
    return factories
  }

  @Test("every factory that returns a diagnostic is documented with its code, the code it reports")
  func factoriesDocumentTheirCodes() throws {
    var count = 0
    var messageFiles: [String] = []
    let all =
      try Self.files(under: "Sources/PolicyTools") + Self.files(under: "Sources/ReviewPolicy")
      + Self.files(under: "Sources/ReviewAnalysis")
    for (url, text) in all where url.lastPathComponent.hasSuffix("Messages.swift") {
      messageFiles.append(url.lastPathComponent)
      for factory in Self.factories(in: text) {
        count += 1
        let label = "\(url.lastPathComponent): \(factory.name)"
        guard let documented = factory.documented else {
          Issue.record("\(label) is not documented with its code (`/// `PCnnn`: what it reports`)")
          continue
        }
        #expect(Set(Self.codes.values).contains(documented), "\(label) documents \(documented), no code of its module")
        #expect(factory.used.isSubset(of: [documented]), "\(label) documents \(documented) but reports \(factory.used)")
      }
    }
    #expect(Set(messageFiles).isSuperset(of: ["JSONMessages.swift", "EtiquetteMessages.swift"]))
    #expect(count >= 80, "\(count) factories")
  }
}
