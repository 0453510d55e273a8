/// Every diagnostic the lexer reports, one factory per message, so the wording lives here.
///
/// Arguments are what the message names (the text as written, a length); ranges are where
/// the caret goes. Long literal text is shortened with ``LiteralText/abbreviated(_:limit:)``.
enum LexerMessages {
  /// `PC114`: an identifier longer than `limit` (``PolicyLimits/maximumIdentifierLength``).
  static func identifierTooLong(_ written: String, length: Int, limit: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.identifierTooLong,
      "identifier `\(LiteralText.abbreviated(written))` is \(length) bytes long; the limit is \(limit)",
      at: range, help: ["use a shorter name"])
  }

  /// `PC108`: a version literal followed by letters (`v2.1beta`, `1.2.3x`).
  static func versionWithSuffix(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidVersion, "version `\(LiteralText.abbreviated(written))` has a suffix", at: range,
      help: [versionAdvice])
  }

  /// `PC107`: a number with a fraction and a unit (`1.5h`); `number` is its digits, `unit` the letters.
  static func fractionalDuration(_ written: String, number: String, unit: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidDuration, "duration `\(LiteralText.abbreviated(written))` is not a whole number",
      at: range, help: [DurationUnit.wholeNumberAdvice(for: number, unit: unit)])
  }

  /// `PC107`: an integer followed by letters that are not a unit (`30days`); the range is the letters.
  static func unknownDurationUnit(_ suffix: String, number: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidDuration, "unknown duration unit `\(LiteralText.abbreviated(suffix))`", at: range,
      help: [DurationUnit.unitAdvice(for: number, suffix: suffix)],
      // `M` may mean months: it gets the advice but no fix.
      fixIts: (suffix == "M" ? nil : DurationUnit.meant(by: suffix)).map { unit in
        [FixIt("replace `\(suffix)` with `\(unit.symbol)`", edits: [SourceEdit(replacing: range, with: unit.symbol)])]
      } ?? [])
  }

  /// `PC103`: a string without its closing quote on its line.
  static func unterminatedString(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unterminatedString, "string is missing its closing `\"`", at: range,
      help: ["strings end on the line where they start; add `\"` at the end"])
  }

  /// `PC104`: a backslash escape other than `\"`, `\\`, `\n`, `\t`; `escape` is the backslash and the character after it.
  static func invalidEscape(_ escape: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidEscape, "unknown escape `\(escape)` in string", at: range,
      help: ["the escapes are `\\\"`, `\\\\`, `\\n` and `\\t`"])
  }

  /// `PC115`: a string literal whose contents are longer than `limit` (``PolicyLimits/maximumStringLength``).
  static func stringTooLong(_ written: String, length: Int, limit: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.stringTooLong,
      "string `\(LiteralText.abbreviated(written))` is \(length) bytes long; the limit is \(limit)",
      at: range, help: ["use a shorter string"])
  }

  /// `PC102`: a single quote, or text in single quotes (`'pro'`), which the range covers.
  static func singleQuotes(_ written: String, at range: SourceRange) -> Diagnostic {
    let inner = range.length > 2 ? String(written.dropFirst().dropLast()) : "purchase"
    let closed = range.length >= 2 && written.hasSuffix("'")
    return Diagnostic(
      PolicyCoreCode.unexpectedCharacter,
      range.length > 1 ? "string `\(LiteralText.abbreviated(written))` uses single quotes" : "unexpected character `'`",
      at: range, help: ["strings use double quotes: `\"\(LiteralText.abbreviated(inner))\"`"],
      fixIts: closed ? requoted(String(written.dropFirst().dropLast()), at: range) : [])
  }

  /// `PC102`: an operator of another language (`&&`, `!`, `=>`) where the policy language has
  /// `replacement`; the fix-it writes `spelled`, the replacement with the spaces it needs there.
  static func foreignOperator(_ written: String, replacement: String, spelled: String, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyCoreCode.unexpectedCharacter, "unexpected `\(written)`", at: range,
      help: ["write `\(replacement)` instead of `\(written)`"],
      fixIts: [
        FixIt("replace `\(written)` with `\(replacement)`", edits: [SourceEdit(replacing: range, with: spelled)])
      ])
  }

  /// `PC102`: a control character, such as a NUL byte.
  static func controlCharacter(_ scalar: Unicode.Scalar, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unexpectedCharacter, "unexpected control character \(codePoint(scalar))", at: range,
      help: [help(for: scalar)])
  }

  /// `PC102`: a byte-order mark after the start of the file.
  static func misplacedByteOrderMark(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unexpectedCharacter, "unexpected byte-order mark (U+FEFF)", at: range,
      help: [help(for: "\u{FEFF}")])
  }

  /// `PC102`: a word with letters other than ASCII (`déjà_vu`), reported once for the whole word.
  static func nonASCIIName(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unexpectedCharacter,
      "name `\(LiteralText.abbreviated(written))` has characters other than ASCII letters, digits and `_`",
      at: range, help: [nonASCIIAdvice])
  }

  /// `PC102`: a character that cannot start a token, with advice for look-alikes (`≥`, `–`).
  static func unexpectedCharacter(_ scalar: Unicode.Scalar, at range: SourceRange) -> Diagnostic {
    let replacement = LexerAdvice.replacement(for: scalar).flatMap { $0 == "\"" ? nil : $0 }
    return Diagnostic(
      PolicyCoreCode.unexpectedCharacter, "unexpected character `\(Character(scalar))` (\(codePoint(scalar)))",
      at: range, help: [help(for: scalar)],
      fixIts: replacement.map {
        [FixIt("replace it with `\($0)`", edits: [SourceEdit(replacing: range, with: $0)])]
      } ?? [])
  }

  /// `PC102`: text in curly quotes (`“pro”`); `inner` is the text between them.
  static func curlyQuotes(_ written: String, inner: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unexpectedCharacter, "`\(LiteralText.abbreviated(written))` uses curly quotes", at: range,
      help: ["use straight double quotes: `\"\(LiteralText.abbreviated(inner))\"`"],
      fixIts: written.unicodeScalars.count >= 2 && written.unicodeScalars.last.map(LexerAdvice.isClosingQuote) == true
        ? requoted(inner, at: range) : [])
  }

  /// A fix-it that writes `inner` in straight double quotes over `range`, when it needs no escape.
  static func requoted(_ inner: String, at range: SourceRange) -> [FixIt] {
    guard !inner.contains("\""), !inner.contains("\\") else { return [] }
    return [FixIt("use straight double quotes", edits: [SourceEdit(replacing: range, with: "\"\(inner)\"")])]
  }

  /// `PC101`: a run of bytes that are not UTF-8; the message shows the first 4.
  static func invalidUTF8(_ bytes: ArraySlice<UInt8>, at range: SourceRange) -> Diagnostic {
    let shown = bytes.prefix(4).map(hex).joined(separator: " ")
    return Diagnostic(
      PolicyCoreCode.invalidUTF8,
      "invalid UTF-8 byte\(bytes.count > 1 ? "s" : "") \(shown)\(bytes.count > 4 ? " ..." : "")", at: range,
      help: ["save the file as UTF-8"])
  }

  // MARK: - Shared wording

  /// The help of every `PC108`.
  static let versionAdvice = "versions are 1 to 4 numbers separated by dots, such as `v2.1` or `2.1.3`"

  static let nonASCIIAdvice =
    "names and keywords use ASCII letters, digits and `_`; other characters belong in strings and comments"

  /// Advice for a character that cannot start a token.
  static func help(for scalar: Unicode.Scalar) -> String {
    if scalar.value == 0 { return "the file contains a NUL byte; is it a text file?" }
    if scalar.value < 0x20 || scalar.value == 0x7F { return "remove the control character" }
    if scalar.value == 0xFEFF { return "remove the byte-order mark; it is only allowed at the start of the file" }
    if let replacement = LexerAdvice.replacement(for: scalar) {
      if replacement == " " { return "replace it with a plain space" }
      if replacement == "\"" { return "use straight double quotes `\"` around strings" }
      return "write `\(replacement)` instead"
    }
    return nonASCIIAdvice
  }

  /// `U+00E9`.
  static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let digits = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// `0xFF`.
  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
  }
}
