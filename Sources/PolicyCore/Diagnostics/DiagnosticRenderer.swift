/// Renders diagnostics the way compilers do.
///
/// ```
/// app.policy:1:1: error: unknown name `dayz` [PC201]
///  1 | dayz >= 30 and uses >= 20
///    | ^~~~
/// help: did you mean `days`?
/// ```
///
/// Each note follows with its own location and excerpt, as compilers print them:
///
/// ```
/// app.policy:2:5: error: rule `loyal` is already defined [PC207]
///  2 | ask loyal when uses >= 20
///    |     ^~~~~
/// help: give this rule another name
/// app.policy:1:5: note: `loyal` is first defined here
///  1 | ask loyal when days >= 30
///    |     ^~~~~
/// ```
///
/// Fix-its are not shown (an editor or `--fix` applies them). Rendering is a pure function of
/// the source and the diagnostics; colour is chosen by the caller.
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

  /// Renders one diagnostic: header, source excerpt with a caret, help lines, then each note with
  /// its location and excerpt.
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
    for note in diagnostic.notes {
      let noteLocation = source.location(of: note.range.start)
      output += paint("\(source.path):\(noteLocation.line):\(noteLocation.column):", .bold)
      output += " \(paint("note:", .green)) \(note.message)\n"
      output += excerpt(for: note.range, in: source)
    }
    return output
  }

  // MARK: - Excerpt

  private func excerpt(for range: SourceRange, in source: SourceFile) -> String {
    let lineIndex = source.lineIndex(of: min(range.start, source.bytes.count))
    let lineBytes = source.lineRange(lineIndex)
    // First pass, building no text: the caret's columns (one column per scalar, or per byte
    // that starts none) and the line's width in columns. The scan stops one window past the
    // caret, so a line of megabytes costs no more than its part up to the caret; the window
    // below comes out the same as with the full width.
    let endLimit = min(range.end, lineBytes.upperBound)
    var count = 0
    var caretStart: Int?
    var caretEnd: Int?
    var position = lineBytes.lowerBound
    while position < lineBytes.upperBound {
      if caretStart == nil && position >= range.start { caretStart = count }
      if caretEnd == nil && position >= endLimit { caretEnd = count }
      if let caretStart, count > caretStart + maximumLineWidth { break }
      position += UTF8Scanner.scalarLength(in: source.bytes, at: position)
      count += 1
    }
    // Column span of the caret, clamped to this line (a multi-line range is shown on its first line).
    let startColumn = caretStart ?? count
    var endColumn = caretEnd ?? count
    if endColumn <= startColumn { endColumn = startColumn + 1 }

    // Cut long lines to a window around the caret.
    var windowStart = 0
    var windowEnd = count
    if count > maximumLineWidth {
      windowStart = max(0, min(startColumn - maximumLineWidth / 3, count - maximumLineWidth))
      windowEnd = min(count, windowStart + maximumLineWidth)
    }
    let prefix = windowStart > 0 ? "..." : ""
    let suffix = windowEnd < count ? "..." : ""

    // Second pass: the text of the window's columns, and the padding up to the caret.
    var shown = ""
    var padding = String(repeating: " ", count: prefix.count)
    var column = 0
    position = lineBytes.lowerBound
    while position < lineBytes.upperBound && column < windowEnd {
      if column < windowStart {
        position += UTF8Scanner.scalarLength(in: source.bytes, at: position)
      } else {
        let (text, length) = Self.cell(in: source.bytes, at: position)
        shown += text
        if column < startColumn { padding += text == "\t" ? "\t" : " " }
        position += length
      }
      column += 1
    }

    let number = String(lineIndex + 1)
    let gutter = String(repeating: " ", count: number.count)
    var output = " \(paint(number, .blue)) \(paint("|", .blue)) \(prefix)\(shown)\(suffix)\n"
    let markerStart = max(startColumn, windowStart)
    let markerEnd = max(min(endColumn, windowEnd), markerStart + 1)
    let marker = "^" + String(repeating: "~", count: markerEnd - markerStart - 1)
    output += " \(gutter) \(paint("|", .blue)) \(padding)\(paint(marker, .green))\n"
    return output
  }

  /// The text shown for the column at `position`: its scalar (U+FFFD for a control character, a
  /// byte-order mark or a byte that starts no scalar; tabs are kept) and its length in bytes.
  private static func cell(in bytes: [UInt8], at position: Int) -> (text: String, length: Int) {
    guard let (scalar, length) = UTF8Scanner.decode(bytes, at: position) else { return ("\u{FFFD}", 1) }
    if scalar == "\t" { return ("\t", length) }
    if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFEFF { return ("\u{FFFD}", length) }
    return (String(Character(scalar)), length)
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
