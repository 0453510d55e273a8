import PolicyCore

/// The count summary of `check` and `analyze`.
enum DiagnosticSummary {
  /// Errors and warnings, without the markers of the cap (they are not problems of their own).
  static func counts(_ diagnostics: [Diagnostic]) -> (errors: Int, warnings: Int) {
    let counted = diagnostics.filter { !$0.isCapMarker }
    return (counted.filter { $0.severity == .error }.count, counted.filter { $0.severity == .warning }.count)
  }

  /// `VERB 2 files: 1 error, 3 warnings` (or `no problems`), with its newline.
  static func line(_ verb: String, files: Int, errors: Int, warnings: Int) -> String {
    let fileCount = files == 1 ? "1 file" : "\(files) files"
    let summary =
      errors + warnings == 0
      ? "no problems"
      : [count(errors, "error"), count(warnings, "warning")].filter { !$0.isEmpty }.joined(separator: ", ")
    return "\(verb) \(fileCount): \(summary)\n"
  }

  /// `1 error`, `2 warnings`; empty for 0.
  static func count(_ number: Int, _ noun: String) -> String {
    number == 0 ? "" : "\(number) \(noun)\(number == 1 ? "" : "s")"
  }
}
