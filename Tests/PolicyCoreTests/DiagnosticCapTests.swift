import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// One cap on a file's diagnostics (``DiagnosticCap``): the bag and the analyzer's merge count
/// against the same ``Limits/maximumErrors`` and end with the same markers.
@Suite("the cap on a file's diagnostics")
struct DiagnosticCapTests {
  static func warning(at offset: Int) -> Diagnostic {
    Diagnostic(PolicyCoreCode.unusedLet, "unused", at: .empty(at: offset))
  }

  @Test("a cap admits Limits.maximumErrors diagnostics, gives one marker at the next, then drops the rest")
  func admits() {
    var cap = DiagnosticCap(.warning, count: Limits.maximumErrors - 1)
    #expect(cap.admit(Self.warning(at: 1)) == .admitted)
    #expect(cap.admit(Self.warning(at: 2)) == .overflowed(marker: DiagnosticBag.tooManyWarnings(at: .empty(at: 2))))
    #expect(cap.admit(Self.warning(at: 3)) == .dropped)
    var errors = DiagnosticCap(.error, count: Limits.maximumErrors)
    #expect(errors.admit(Self.warning(at: 4)) == .overflowed(marker: DiagnosticBag.tooManyErrors(at: .empty(at: 4))))
  }

  @Test("merged warnings count with the compilation's: the 100th is the last, PC399 at the first left out")
  func mergeSharesTheCap() {
    let compiled = (0..<(Limits.maximumErrors - 1)).map { Self.warning(at: $0 * 10) }
    let extra = [Self.warning(at: 5), Self.warning(at: 15), Self.warning(at: 25)]
    let merged = PolicyAnalyzer.merge(compiled, extra)
    #expect(merged.filter { !$0.isCapMarker }.count == Limits.maximumErrors)
    #expect(merged.last == DiagnosticBag.tooManyWarnings(at: .empty(at: 15)))
    #expect(merged.filter(\.isCapMarker).count == 1)
  }

  @Test("a compilation already past the cap keeps its own PC399, before its PC199")
  func mergeKeepsTheCompilationsMarker() {
    let markers = [DiagnosticBag.tooManyWarnings(at: .empty(at: 7)), DiagnosticBag.tooManyErrors(at: .empty(at: 9))]
    let compiled = (0..<Limits.maximumErrors).map { Self.warning(at: $0) } + markers
    let merged = PolicyAnalyzer.merge(compiled, [Self.warning(at: 3)])
    #expect(Array(merged.suffix(2)) == markers)
    #expect(merged.count == compiled.count)
  }

  @Test("the markers are PC199 and PC399, and only they")
  func markers() {
    #expect(DiagnosticBag.tooManyErrors(at: .empty(at: 0)).isCapMarker)
    #expect(DiagnosticBag.tooManyWarnings(at: .empty(at: 0)).isCapMarker)
    #expect(
      PolicyCoreCode.allCases.filter { Diagnostic($0, "x", at: .empty(at: 0)).isCapMarker } == [
        .tooManyErrors, .tooManyWarnings,
      ])
  }
}
