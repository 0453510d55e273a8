import PolicyCore
import Testing

/// Located notes: rendered after the diagnostic's excerpt and help, each with its own location and excerpt.
@Suite("diagnostic renderer: notes and fix-its")
struct DiagnosticNoteTests {
  static let source = SourceFile(
    path: "review.policy", text: "ask loyal when days >= 30\n# a comment\n\task loyal when uses >= 20\n")

  @Test("a note has its own PATH:LINE:COL and caret, after the help lines")
  func noteAfterHelp() {
    let diagnostic = Diagnostic(
      PolicyCoreCode.duplicateRuleName, "rule `loyal` is already defined", at: SourceRange(start: 43, end: 48),
      help: ["give this rule another name"],
      notes: [DiagnosticNote("`loyal` is first defined here", at: SourceRange(start: 4, end: 9))])
    #expect(
      DiagnosticRenderer().render(diagnostic, in: Self.source)
        == """
        review.policy:3:6: error: rule `loyal` is already defined [PC207]
         3 | \task loyal when uses >= 20
           | \t    ^~~~~
        help: give this rule another name
        review.policy:1:5: note: `loyal` is first defined here
         1 | ask loyal when days >= 30
           |     ^~~~~

        """)
  }

  @Test("several notes keep their order; an empty note range gets one caret")
  func severalNotes() {
    let diagnostic = Diagnostic(
      PolicyCoreCode.unknownName, "x", at: SourceRange(start: 0, end: 3),
      notes: [
        DiagnosticNote("second", at: SourceRange(start: 26, end: 37)),
        DiagnosticNote("first", at: .empty(at: 4)),
      ])
    #expect(
      DiagnosticRenderer().render(diagnostic, in: Self.source)
        == """
        review.policy:1:1: error: x [PC201]
         1 | ask loyal when days >= 30
           | ^~~
        review.policy:2:1: note: second
         2 | # a comment
           | ^~~~~~~~~~~
        review.policy:1:5: note: first
         1 | ask loyal when days >= 30
           |     ^

        """)
  }

  @Test("notes are painted like the rest when colour is on")
  func colouredNote() {
    let diagnostic = Diagnostic(
      PolicyCoreCode.unknownName, "x", at: .empty(at: 0), notes: [DiagnosticNote("here", at: .empty(at: 4))])
    let rendered = DiagnosticRenderer(usesColor: true).render(diagnostic, in: Self.source)
    #expect(rendered.contains("\u{1B}[1mreview.policy:1:5:\u{1B}[0m \u{1B}[1;32mnote:\u{1B}[0m here\n"))
  }

  @Test("fix-its are data: the renderer shows none of them")
  func fixItsNotRendered() {
    let plain = Diagnostic(PolicyCoreCode.unexpectedCharacter, "unexpected `&&`", at: SourceRange(start: 20, end: 22))
    var withFix = plain
    withFix.fixIts = [FixIt("replace `&&` with `and`", edits: [SourceEdit(replacing: withFix.range, with: "and")])]
    #expect(withFix != plain)
    #expect(
      DiagnosticRenderer().render(withFix, in: Self.source) == DiagnosticRenderer().render(plain, in: Self.source))
  }

  @Test("duplicate definitions point a note at the first definition (PC207, PC208)")
  func duplicateDefinitionNotes() throws {
    let schema = try FactSchema(facts: [
      FactDefinition("days", .int, meaning: "days"), FactDefinition("uses", .int, meaning: "uses"),
    ])
    let compilation = PolicyCompiler.compile(
      "fact plan: string\nfact plan: int\nlet loyal = days > 3\nlet loyal = uses > 3\nask loyal when loyal\n"
        + "ask loyal when plan == \"pro\"\n",
      path: "dup.policy", schema: schema)
    let rendered = DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source)
    #expect(
      rendered == """
        dup.policy:2:6: error: fact `plan` is already defined [PC208]
         2 | fact plan: int
           |      ^~~~
        help: remove this declaration
        dup.policy:1:6: note: `plan` is first declared here
         1 | fact plan: string
           |      ^~~~
        dup.policy:4:5: error: `loyal` is already defined [PC208]
         4 | let loyal = uses > 3
           |     ^~~~~
        help: choose another name
        dup.policy:3:5: note: `loyal` is first defined here
         3 | let loyal = days > 3
           |     ^~~~~
        dup.policy:6:5: error: rule `loyal` is already defined [PC207]
         6 | ask loyal when plan == "pro"
           |     ^~~~~
        help: give this rule another name
        dup.policy:5:5: note: `loyal` is first defined here
         5 | ask loyal when loyal
           |     ^~~~~

        """)
  }
}
