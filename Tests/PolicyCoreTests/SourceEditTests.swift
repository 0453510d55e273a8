import PolicyCore
import Testing

/// Fix-its as data: edits applied to a UTF-8 buffer, as `policyc check --fix` will apply them.
@Suite("fix-its: applying source edits")
struct SourceEditTests {
  static func applied(_ edits: [SourceEdit], to text: String) -> Result<String, SourceEditError> {
    SourceEdit.apply(edits, to: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test("a fix-it's edits turn the source into the fixed text")
  func fixItApplies() throws {
    let text = "ask when days >= 30 && uses > 2\n"
    let fix = FixIt(
      "replace `&&` with `and`",
      edits: [SourceEdit(replacing: SourceRange(start: 20, end: 22), with: "and")])
    let diagnostic = Diagnostic(
      PolicyCoreCode.unexpectedCharacter, "unexpected `&&`", at: SourceRange(start: 20, end: 22), fixIts: [fix])
    let fixed = try diagnostic.fixIts[0].apply(to: Array(text.utf8)).get()
    #expect(String(decoding: fixed, as: UTF8.self) == "ask when days >= 30 and uses > 2\n")
  }

  @Test("edits apply in source order whatever order they are given in; inserts, deletes and replacements mix")
  func unsortedEdits() {
    let edits = [
      SourceEdit.insert(")", at: 13),
      SourceEdit(replacing: SourceRange(start: 0, end: 3), with: "never"),
      SourceEdit.delete(SourceRange(start: 3, end: 4)),
      SourceEdit.insert("(", at: 9),
      SourceEdit.insert(" and rated", at: 13),
    ]
    // "ask when uses\n": replace "ask", delete the space, wrap `uses` and extend it.
    #expect(Self.applied(edits, to: "ask when uses\n") == .success("neverwhen (uses) and rated\n"))
  }

  @Test("insertions at one offset keep their given order; an insertion comes before a replacement starting there")
  func insertionOrder() {
    let edits = [
      SourceEdit(replacing: SourceRange(start: 2, end: 3), with: "X"),
      SourceEdit.insert("1", at: 2),
      SourceEdit.insert("2", at: 2),
    ]
    #expect(Self.applied(edits, to: "abcd") == .success("ab12Xd"))
  }

  @Test("edits that touch are fine; edits that overlap are rejected, and nothing is applied")
  func overlapping() {
    let touching = [
      SourceEdit(replacing: SourceRange(start: 0, end: 2), with: "x"),
      SourceEdit(replacing: SourceRange(start: 2, end: 4), with: "y"),
    ]
    #expect(Self.applied(touching, to: "abcd") == .success("xy"))
    let first = SourceEdit(replacing: SourceRange(start: 0, end: 3), with: "x")
    let second = SourceEdit(replacing: SourceRange(start: 2, end: 4), with: "y")
    #expect(Self.applied([second, first], to: "abcd") == .failure(.overlapping(first, second)))
    let same = SourceEdit(replacing: SourceRange(start: 1, end: 2), with: "z")
    #expect(Self.applied([same, same], to: "abcd") == .failure(.overlapping(same, same)))
    let inside = SourceEdit.insert("!", at: 1)
    #expect(Self.applied([inside, first], to: "abcd") == .failure(.overlapping(first, inside)))
  }

  @Test("an edit past the end of the buffer, or before its start, is rejected")
  func outOfBounds() {
    let past = SourceEdit(replacing: SourceRange(start: 3, end: 5), with: "x")
    #expect(Self.applied([past], to: "abcd") == .failure(.outOfBounds(past)))
    let before = SourceEdit(replacing: SourceRange(start: -1, end: 1), with: "x")
    #expect(Self.applied([before], to: "abcd") == .failure(.outOfBounds(before)))
    #expect(Self.applied([.insert("e", at: 4)], to: "abcd") == .success("abcde"))
    #expect(Self.applied([], to: "abcd") == .success("abcd"))
  }

  @Test("offsets are UTF-8 bytes: an edit replaces a multi-byte scalar whole")
  func utf8Offsets() {
    // `≥` is 3 bytes (offsets 5..<8).
    let text = "days ≥ 30"
    #expect(
      Self.applied([SourceEdit(replacing: SourceRange(start: 5, end: 8), with: ">=")], to: text)
        == .success("days >= 30"))
  }
}
