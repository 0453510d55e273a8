import PolicyCore
import Testing

/// Source excerpts of long lines: the window around the caret.
@Suite("diagnostic renderer: long lines")
struct DiagnosticRendererTests {
  /// A line of 300 two-byte scalars (`é`).
  static let line = SourceFile(path: "long.policy", bytes: Array(String(repeating: "é", count: 300).utf8))

  /// The rendering of one error at `start..<end` of ``line``.
  static func render(_ start: Int, _ end: Int) -> String {
    DiagnosticRenderer().render(
      Diagnostic(.unexpectedCharacter, "x", at: SourceRange(start: start, end: end)), in: line)
  }

  @Test("a caret at the start shows the first 120 columns, cut on the right")
  func caretAtStart() {
    #expect(
      Self.render(0, 2)
        == "long.policy:1:1: error: x [PC102]\n 1 | \(String(repeating: "é", count: 120))...\n   | ^\n")
  }

  @Test("a caret in the middle shows 40 columns before it and 80 from it, cut on both sides")
  func caretInTheMiddle() {
    #expect(
      Self.render(300, 306)
        == "long.policy:1:151: error: x [PC102]\n 1 | ...\(String(repeating: "é", count: 120))...\n"
        + "   | \(String(repeating: " ", count: 43))^~~\n")
  }

  @Test("a caret at the end of the line shows its last 120 columns, cut on the left")
  func caretAtTheEnd() {
    #expect(
      Self.render(600, 600)
        == "long.policy:1:301: error: x [PC102]\n 1 | ...\(String(repeating: "é", count: 120))\n"
        + "   | \(String(repeating: " ", count: 123))^\n")
    #expect(
      Self.render(598, 600)
        == "long.policy:1:300: error: x [PC102]\n 1 | ...\(String(repeating: "é", count: 120))\n"
        + "   | \(String(repeating: " ", count: 122))^\n")
  }

  @Test("a range running past the window is marked to the window's edge")
  func rangePastTheWindow() {
    #expect(
      Self.render(0, 600)
        == "long.policy:1:1: error: x [PC102]\n 1 | \(String(repeating: "é", count: 120))...\n"
        + "   | ^\(String(repeating: "~", count: 119))\n")
  }
}
