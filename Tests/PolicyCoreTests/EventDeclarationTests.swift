import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// `event purchase, export`: declared event names, and the app's names in the schema.
@Suite("Event declarations")
struct EventDeclarationTests {
  @Test("`event` lists words and quoted names; the tree keeps them in order")
  func parses() throws {
    let compilation = compile("event purchase, \"level up\", export\nask when events(\"purchase\") >= 3\n")
    #expect(compilation.diagnostics.isEmpty)
    #expect(SyntaxDump.dump(compilation.syntax).hasPrefix("(event \"purchase\" \"level up\" \"export\")\n"))
    let policy = try #require(compilation.policy)
    #expect(policy.declaredEvents == ["export", "level up", "purchase"])
  }

  @Test("`event` is not reserved: a fact named `event` still compares")
  func notReserved() throws {
    let policy = try compiled("fact event: int\nask when event > 3\n")
    #expect(policy.declaredEvents.isEmpty)
  }

  @Test("an undeclared name is PC217 at the quoted name, with did-you-mean, a fix-it and a note")
  func undeclared() throws {
    let compilation = compile("event purchase, export\nask when total_events(\"Purchase \") >= 3\n")
    let found = try diagnostic(PolicyCoreCode.unknownEvent.code, in: compilation)
    #expect(found.message == "unknown event `Purchase `")
    #expect(text(found.range, in: compilation) == "\"Purchase \"")
    #expect(found.help.first == "did you mean `purchase`?")
    #expect(found.notes.map { text($0.range, in: compilation) } == ["event purchase, export"])
    let fixIt = try #require(found.fixIts.first)
    let fixed = try fixIt.apply(to: compilation.source.bytes).get()
    #expect(String(decoding: fixed, as: UTF8.self).contains("total_events(\"purchase\")"))
    #expect(compilation.policy == nil)
  }

  @Test("without declarations or app names, any name is accepted (as before)")
  func backCompatible() throws {
    _ = try compiled("ask when events(\"anything at all\") >= 1\n")
  }

  @Test("the app's names check calls when the policy declares none")
  func appNames() throws {
    let schema = ToySchema.standard.recordingEvents(["purchase", "export"])
    let compilation = compile("ask when events(\"purchse\") >= 1\n", schema: schema)
    let found = try diagnostic(PolicyCoreCode.unknownEvent.code, in: compilation)
    #expect(found.help.first == "did you mean `purchase`?")
    #expect(found.help.last == "the app records `export`, `purchase`")
    _ = try compiled("ask when events(\"export\") >= 1\n", schema: schema)
  }

  @Test("with the app's names, a declared name the app does not record is PC217 at the declaration")
  func declaredButNotRecorded() throws {
    let schema = ToySchema.standard.recordingEvents(["purchase", "export"])
    let compilation = compile("event purchase, exprt\nask when events(\"purchase\") >= 1\n", schema: schema)
    let found = try diagnostic(PolicyCoreCode.unknownEvent.code, in: compilation)
    #expect(text(found.range, in: compilation) == "exprt")
    // The fix-it keeps a word a word.
    let fixed = try #require(found.fixIts.first).apply(to: compilation.source.bytes).get()
    #expect(String(decoding: fixed, as: UTF8.self).hasPrefix("event purchase, export\n"))
  }

  @Test("a broken declaration is PC120 and turns the name checks off (no cascade)")
  func broken() {
    let compilation = compile("event purchase,\nask when events(\"export\") >= 1\n")
    #expect(codes(compilation) == [PolicyCoreCode.expectedName.code])
  }

  @Test("the formatter prints the declaration as written")
  func formats() throws {
    let source = "event   purchase ,\"level up\"\nask when events(\"purchase\") >= 3\n"
    let formatted = try PolicyFormatter().format(SourceFile(path: "f.policy", text: source)).get()
    #expect(formatted == "event purchase, \"level up\"\nask when events(\"purchase\") >= 3\n")
  }
}
