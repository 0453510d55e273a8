import Dispatch
import PolicyCore
import Testing

/// The cost of hostile policy text found by the reliability tests (`ReliabilityPolicyUpdateTests`,
/// `review-stress updates`): each once held the caller of `ReviewManager.updatePolicy(_:)` for
/// seconds. The bounds are loose (any build, a sanitizer, a loaded machine); the fixed cost is far below them.
@Suite("hostile input cost")
struct HostileInputCostTests {
  /// A 2 MB line of 290,001 unknown names: `ask when zz and zz and ... zz`.
  static let unknownNames = "ask when " + String(repeating: "zz and ", count: 290_000) + "zz"

  /// Seconds taken by `body`.
  static func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  @Test("a line of unknown names: the checker stops suggesting names once the report is full")
  func unknownNamesCompileFast() {
    // The checker computed a "did you mean" suggestion (an edit distance per known name) for
    // every unknown name, also after the 100-error report was full: a 2 MB line took 1.3 s in a
    // release build, about 9 times a clean line of the same length. Timed against that clean line
    // (so the bound holds in any build, under a sanitizer too); the best of three tries.
    let unknown = "ask when " + String(repeating: "zz and ", count: 60_000) + "zz"
    let clean = "ask when " + String(repeating: "rated and ", count: 42_000) + "rated"
    let schema = ToySchema.standard
    var compilation: Compilation?
    let baseline = Self.seconds { compilation = PolicyCompiler.compile(clean, schema: schema) }
    #expect(compilation?.hasErrors == false)
    var ratios: [Double] = []
    for _ in 0..<3 {
      let seconds = Self.seconds { compilation = PolicyCompiler.compile(unknown, schema: schema) }
      ratios.append(seconds / max(baseline, 1e-6))
      if ratios.last.map({ $0 < 3 }) == true { break }
    }
    #expect(ratios.contains { $0 < 3 }, "unknown names over a clean line: \(ratios)")
    #expect(compilation?.diagnostics.count == Limits.maximumErrors + 1)
    #expect(compilation?.diagnostics.last?.code == .tooManyErrors)
  }

  @Test("a 2 MB line of unknown names: its 101 diagnostics render without going through the whole line each")
  func unknownNamesRenderFast() {
    // The renderer built one string per column of the whole line for each diagnostic: 101 times
    // 2 million strings, 15 s in a release build (33 s in debug).
    let compilation = PolicyCompiler.compile(Self.unknownNames, path: "update.policy", schema: ToySchema.standard)
    var rendered = ""
    let seconds = Self.seconds {
      rendered = DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source)
    }
    #expect(seconds < 10, "\(seconds) s")
    #expect(rendered.hasPrefix("update.policy:1:10: error: unknown name `zz` [PC201]\n 1 | ask when zz and zz"))
  }

  @Test(
    "text over the size limit is rejected from its size alone, with the excerpt of the whole text",
    arguments: ["\n", "#", "\u{0}", "😀"])
  func oversizedTextRejectedFromItsSize(filler: String) {
    // Found by the hostile policy updates: a 10 MB update was turned into a source file (and a
    // line table of 10 million entries for newlines) before the parser rejected it for its size.
    let text =
      "ask when uses > 1 " + String(repeating: filler, count: (Limits.maximumFileSize + 1) / filler.utf8.count + 1)
    let compilation = PolicyCompiler.compile(text, path: "update.policy", schema: ToySchema.standard)
    #expect(compilation.source.bytes.count <= 4096)
    #expect(compilation.diagnostics.map(\.code) == [.fileTooLarge])
    #expect(compilation.diagnostics.first?.message.hasPrefix("file is \(text.utf8.count) bytes;") == true)
    let whole = SourceFile(path: "update.policy", text: text)
    let renderer = DiagnosticRenderer()
    #expect(
      renderer.render(compilation.diagnostics, in: compilation.source)
        == renderer.render(compilation.diagnostics, in: whole))
    #expect(Parser.parse(whole).diagnostics == compilation.diagnostics)
  }
}
