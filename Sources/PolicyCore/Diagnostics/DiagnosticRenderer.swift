/// Renders diagnostics the way compilers do.
///
/// ```
/// review.policy:1:1: error: unknown name `dayz` [PC201]
///  1 | dayz >= 30 and uses >= 20
///    | ^~~~
/// help: did you mean `days`?
/// ```
///
/// Rendering is a pure function of the source and the diagnostics; colour is
/// chosen by the caller.
public struct DiagnosticRenderer: Sendable {
  /// Whether to emit ANSI colour escapes.
  public var usesColor: Bool
  /// The widest source excerpt shown, in columns; longer lines are cut around the caret.
  public var maximumLineWidth: Int

  /// Creates a renderer.
  public init(usesColor: Bool = false, maximumLineWidth: Int = 120) {
    self.usesColor = usesColor
    self.maximumLineWidth = max(40, maximumLineWidth)
  }

  /// Renders every diagnostic in `diagnostics`, each followed by a newline.
  public func render(_ diagnostics: [Diagnostic], in source: SourceFile) -> String {
    var output = ""
    for diagnostic in diagnostics {
      output += render(diagnostic, in: source)
    }
    return output
  }

  /// Renders one diagnostic: header, source excerpt with a caret, help lines.
  public func render(_ diagnostic: Diagnostic, in source: SourceFile) -> String {
    let location = source.location(of: diagnostic.range.start)
    var output = ""
    let severityText: String
    switch diagnostic.severity {
    case .error: severityText = paint("error:", .red)
    case .warning: severityText = paint("warning:", .yellow)
    }
    output += paint("\(source.path):\(location.line):\(location.column):", .bold)
    output += " \(severityText) \(paint(diagnostic.message, .bold)) [\(diagnostic.code.rawValue)]\n"
    output += excerpt(for: diagnostic.range, in: source)
    for line in diagnostic.help {
      output += "\(paint("help:", .cyan)) \(line)\n"
    }
    return output
  }

  // MARK: - Excerpt

  private func excerpt(for range: SourceRange, in source: SourceFile) -> String {
    let lineIndex = source.lineIndex(of: min(range.start, source.bytes.count))
    let lineBytes = source.lineRange(lineIndex)
    var cells: [String] = []  // one entry per display column
    var offsets: [Int] = []  // byte offset where each cell starts
    var position = lineBytes.lowerBound
    while position < lineBytes.upperBound {
      offsets.append(position)
      if let (scalar, length) = UTF8Scanner.decode(source.bytes, at: position) {
        if scalar == "\t" {
          cells.append("\t")
        } else if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFEFF {
          cells.append("\u{FFFD}")
        } else {
          cells.append(String(Character(scalar)))
        }
        position += length
      } else {
        cells.append("\u{FFFD}")
        position += 1
      }
    }
    // Column span of the caret, clamped to this line (a multi-line range is shown on its first line).
    let startColumn = offsets.firstIndex { $0 >= range.start } ?? cells.count
    let endLimit = min(range.end, lineBytes.upperBound)
    var endColumn = offsets.firstIndex { $0 >= endLimit } ?? cells.count
    if endColumn <= startColumn { endColumn = startColumn + 1 }

    // Cut long lines to a window around the caret.
    var windowStart = 0
    var windowEnd = cells.count
    if cells.count > maximumLineWidth {
      windowStart = max(0, min(startColumn - maximumLineWidth / 3, cells.count - maximumLineWidth))
      windowEnd = min(cells.count, windowStart + maximumLineWidth)
    }
    let prefix = windowStart > 0 ? "..." : ""
    let suffix = windowEnd < cells.count ? "..." : ""
    let shown = cells[windowStart..<windowEnd].joined()

    let number = String(lineIndex + 1)
    let gutter = String(repeating: " ", count: number.count)
    var output = " \(paint(number, .blue)) \(paint("|", .blue)) \(prefix)\(shown)\(suffix)\n"
    var padding = String(repeating: " ", count: prefix.count)
    for column in windowStart..<min(startColumn, windowEnd) {
      padding += cells[column] == "\t" ? "\t" : " "
    }
    let caretStart = max(startColumn, windowStart)
    let caretEnd = max(min(endColumn, windowEnd), caretStart + 1)
    let marker = "^" + String(repeating: "~", count: caretEnd - caretStart - 1)
    output += " \(gutter) \(paint("|", .blue)) \(padding)\(paint(marker, .green))\n"
    return output
  }

  // MARK: - Colour

  private enum Style: String {
    case bold = "1"
    case red = "1;31"
    case yellow = "1;33"
    case cyan = "1;36"
    case green = "1;32"
    case blue = "1;34"
  }

  private func paint(_ text: String, _ style: Style) -> String {
    usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
  }
}
