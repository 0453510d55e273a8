import Foundation
import Testing

/// The decision is written once: facts → decide → guardrails → record lives in
/// `ReviewTracker.checkPrompt` (Tracking/ReviewTracker+Deciding.swift), which the manager, the
/// tracker's `promptIfAppropriate(at:)` and so `policyc simulate` call. An invariant as a test:
/// a second path (a policy decided, or a prompt recorded, anywhere else in the runtime or the
/// simulation) fails it.
@Suite("one decision path")
struct DecisionPathTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The Swift files under `folder`, relative to the package root, with their lines.
  private func sources(under folder: String) throws -> [(path: String, lines: [Substring])] {
    let base = Self.root.appendingPathComponent(folder)
    let paths = try #require(FileManager.default.subpathsOfDirectory(atPath: base.path) as [String]?)
    return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
      let text = try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
      return ("\(folder)/\(path)", text.split(separator: "\n", omittingEmptySubsequences: false))
    }
  }

  @Test("policies decide, and prompts are recorded, only in ReviewTracker+Deciding.swift")
  func oneDecisionPath() throws {
    let home = "Sources/ReviewPolicy/Tracking/ReviewTracker+Deciding.swift"
    var decides: [String] = []
    var records: [String] = []
    for folder in ["Sources/ReviewPolicy", "Sources/PolicyTools/Simulation"] {
      for (path, lines) in try sources(under: folder) {
        for (number, line) in lines.enumerated() {
          let code = line.trimmingCharacters(in: .whitespaces)
          if code.hasPrefix("//") { continue }
          if code.contains(".decide(") { decides.append("\(path):\(number + 1)") }
          if code.contains("recordPrompt(") && !code.contains("func recordPrompt(") {
            records.append("\(path):\(number + 1)")
          }
        }
      }
    }
    // The running policy and the guardrails each decide once; the prompt is recorded on two branches
    // of the same function (decide only, or decide and explain) and, next to it, when a presenter
    // reports shown the prompt a check asked for without recording it.
    #expect(!decides.isEmpty && decides.allSatisfy { $0.hasPrefix(home + ":") }, "\(decides)")
    #expect(decides.count == 2, "\(decides)")
    #expect(!records.isEmpty && records.allSatisfy { $0.hasPrefix(home + ":") }, "\(records)")
  }
}
