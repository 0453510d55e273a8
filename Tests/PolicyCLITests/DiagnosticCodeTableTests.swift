import Foundation
import PolicyCore
import PolicyTools
import ReviewPolicy
import Testing

/// Grammar.md's tables of diagnostic codes (`| PCnnn | severity | summary | example |`) against
/// the code enums: the documentation cannot drift from the codes.
///
/// It lives here because this target sees every module that defines codes; when a module gets
/// codes of its own, add its enum to ``domains``.
@Suite("Grammar.md's diagnostic code tables")
struct DiagnosticCodeTableTests {
  /// Every module's codes: PolicyCore's, ReviewPolicy's and PolicyTools'.
  static let domains: [[DiagnosticCode]] = [
    PolicyCoreCode.allCases.map(\.code), ReviewPolicyCode.allCases.map(\.code), PolicyToolsCode.allCases.map(\.code),
  ]

  /// One row of a code table.
  struct Row: Equatable, CustomStringConvertible {
    var code: String
    var severity: String
    var summary: String
    var description: String { "| \(code) | \(severity) | \(summary) |" }
  }

  /// The rows of every table in Grammar.md whose first cell is a code.
  static func rows() throws -> [Row] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Grammar.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line -> Row? in
      guard line.hasPrefix("| PC") else { return nil }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 3 else { return nil }
      return Row(code: cells[0], severity: cells[1], summary: cells[2])
    }
  }

  @Test("every code is in a table once, with its severity and its summary")
  func everyCodeDocumented() throws {
    let rows = try Self.rows()
    #expect(rows.count >= 60)
    for code in Self.domains.joined() {
      let matching = rows.filter { $0.code == code.rawValue }
      #expect(matching.count == 1, "\(code.rawValue) is in \(matching.count) rows of Grammar.md")
      guard let row = matching.first else { continue }
      #expect(row == Row(code: code.rawValue, severity: code.severity.rawValue, summary: code.summary))
    }
  }

  @Test("every code in the tables exists")
  func everyRowIsACode() throws {
    let known = Set(Self.domains.joined().map(\.rawValue))
    for row in try Self.rows() {
      #expect(known.contains(row.code), "Grammar.md documents \(row.code), which no module defines")
    }
  }

  @Test("the text before each table names the enum of each of its codes' modules, such as `ReviewPolicyCode`")
  func tablesNameTheirModules() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Grammar.md")
    let codes = Dictionary(Self.domains.joined().map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
    var before = ""
    var inTable = false
    for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        if inTable { before = "" }
        inTable = false
        before += line + "\n"
        continue
      }
      inTable = true
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let first = cells.first, let code = codes[first] else { continue }
      #expect(
        before.contains("`\(code.domain)Code`"), "the text above \(first)'s table does not name `\(code.domain)Code`")
    }
  }

  @Test("no two modules define the same code")
  func codesAreUnique() {
    let all = Self.domains.joined().map(\.rawValue)
    #expect(Set(all).count == all.count)
  }
}
