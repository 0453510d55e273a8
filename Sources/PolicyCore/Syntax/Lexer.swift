/// Turns the bytes of a ``SourceFile`` into tokens and comments.
///
/// The lexer never fails: text it cannot use becomes an ``TokenKind/invalid``
/// token and a located diagnostic, and lexing goes on. See "Lexical grammar"
/// in Grammar.md.
struct Lexer {
  private let bytes: [UInt8]
  private var position: Int
  private(set) var tokens: [Token] = []
  private(set) var comments: [Comment] = []
  /// Whether a token has been produced on the current line (to tell trailing comments).
  private var lineHasCode = false
  /// The limits on identifiers and strings.
  private let limits: PolicyLimits

  init(source: SourceFile, limits: PolicyLimits = .file) {
    self.bytes = source.bytes
    self.limits = limits
    self.position = source.hasByteOrderMark ? 3 : 0
  }

  /// Lexes the whole file, reporting problems into `diagnostics`.
  mutating func lex(into diagnostics: inout DiagnosticBag) {
    tokens.reserveCapacity(bytes.count / 4)
    while position < bytes.count {
      let start = position
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        position += 1
      case UInt8(ascii: "\n"):
        position += 1
        lineHasCode = false
      case UInt8(ascii: "#"):
        lexComment(into: &diagnostics)
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "_"):
        lexWord(into: &diagnostics)
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        lexNumeric(into: &diagnostics)
      case UInt8(ascii: "\""):
        lexString(into: &diagnostics)
      default:
        if !lexPunctuation(byte, into: &diagnostics) {
          lexUnexpected(into: &diagnostics)
        }
      }
      if position <= start {
        // Every branch consumes input; this keeps the loop finite even if one did not.
        assertionFailure("lexer made no progress at offset \(start)")
        position = start + 1
      }
    }
    tokens.append(Token(kind: .endOfFile, range: .empty(at: bytes.count)))
  }

  // MARK: - Helpers

  private func peek(_ offset: Int = 0) -> UInt8? {
    let index = position + offset
    return index < bytes.count ? bytes[index] : nil
  }

  private static func isDigit(_ byte: UInt8?) -> Bool {
    guard let byte else { return false }
    return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func isIdentifierByte(_ byte: UInt8?) -> Bool {
    guard let byte else { return false }
    return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
  }

  private mutating func append(_ kind: TokenKind, from start: Int) {
    tokens.append(Token(kind: kind, range: SourceRange(start: start, end: position)))
    lineHasCode = true
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  // MARK: - Comments

  /// `comment = "#" { any character except line break } ;`
  private mutating func lexComment(into diagnostics: inout DiagnosticBag) {
    let start = position
    while position < bytes.count && bytes[position] != UInt8(ascii: "\n") {
      if bytes[position] < 0x80 {
        position += 1
      } else if let (_, length) = UTF8Scanner.decode(bytes, at: position) {
        position += length
      } else {
        reportInvalidUTF8(into: &diagnostics)
      }
    }
    var end = position
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    comments.append(Comment(range: SourceRange(start: start, end: end), isTrailing: lineHasCode))
  }

  // MARK: - Words

  /// `identifier = letter { letter | digit | "_" } ;` where letter is ASCII or `_`;
  /// keywords are identifiers spelled as in the keyword table; `v` followed by a
  /// dotted number is a version literal.
  private mutating func lexWord(into diagnostics: inout DiagnosticBag) {
    let start = position
    if bytes[position] == UInt8(ascii: "v") && Lexer.isDigit(peek(1)) && looksLikeVersion(at: position + 1) {
      position += 1
      lexNumeric(into: &diagnostics, start: start)
      return
    }
    while Lexer.isIdentifierByte(peek()) { position += 1 }
    if let next = peek(), next >= 0x80, let (scalar, _) = UTF8Scanner.decode(bytes, at: position),
      LexerAdvice.isWordCharacter(scalar)
    {
      // `déjà_vu`: one name with non-ASCII letters is one error, not one per letter.
      lexUnexpected(into: &diagnostics, from: start)
      return
    }
    let length = position - start
    if length > limits.maximumIdentifierLength {
      diagnostics.report(
        LexerMessages.identifierTooLong(
          text(start, position), length: length, limit: limits.maximumIdentifierLength,
          at: SourceRange(start: start, end: position)))
      append(.invalid, from: start)
      return
    }
    let kind = TokenKind.keyword(bytes: bytes[start..<position]) ?? .identifier
    append(kind, from: start)
  }

  /// Whether the digits at `offset` continue with `.digit`, as in `v2.1`.
  private func looksLikeVersion(at offset: Int) -> Bool {
    var index = offset
    while index < bytes.count && Lexer.isDigit(bytes[index]) { index += 1 }
    return index + 1 < bytes.count && bytes[index] == UInt8(ascii: ".")
      && Lexer.isDigit(bytes[index + 1])
  }

  // MARK: - Numbers, durations and versions

  /// `integer = digit { digit } ;`
  /// `number = digit { digit } "." digit { digit } ;`
  /// `duration = digit { digit } unit ;` with `unit = "s" | "m" | "h" | "d" | "w"`
  /// `version = [ "v" ] digit { digit } ( "." digit { digit } ){1,3} ;` (3 or 4 parts without `v`)
  private mutating func lexNumeric(into diagnostics: inout DiagnosticBag, start explicitStart: Int? = nil) {
    let start = explicitStart ?? position
    let hasPrefix = explicitStart != nil
    var parts = 1
    while Lexer.isDigit(peek()) { position += 1 }
    while peek() == UInt8(ascii: ".") && Lexer.isDigit(peek(1)) {
      position += 1
      parts += 1
      while Lexer.isDigit(peek()) { position += 1 }
    }
    let numericEnd = position
    // A trailing run of letters is a unit (duration) or a mistake.
    let suffixStart = position
    while Lexer.isIdentifierByte(peek()) { position += 1 }
    let range = SourceRange(start: start, end: position)

    if position > suffixStart {
      if !hasPrefix && parts == 1 && position - suffixStart == 1 && DurationUnit(byte: bytes[suffixStart]) != nil {
        append(.duration, from: start)
        return
      }
      let suffix = text(suffixStart, position)
      let whole = text(start, position)
      if hasPrefix || parts > 2 {
        diagnostics.report(LexerMessages.versionWithSuffix(whole, at: range))
      } else if parts == 2 {
        diagnostics.report(
          LexerMessages.fractionalDuration(whole, number: text(start, numericEnd), unit: suffix, at: range))
      } else {
        diagnostics.report(
          LexerMessages.unknownDurationUnit(
            suffix, number: text(start, numericEnd), at: SourceRange(start: suffixStart, end: position)))
      }
      append(.invalid, from: start)
      return
    }
    if hasPrefix {
      append(.version, from: start)
    } else if parts == 1 {
      append(.integer, from: start)
    } else if parts == 2 {
      append(.number, from: start)
    } else {
      append(.version, from: start)
    }
  }

  // MARK: - Strings

  /// `string = '"' { character | escape } '"' ;` on one line;
  /// `escape = "\" ( '"' | "\" | "n" | "t" ) ;`
  private mutating func lexString(into diagnostics: inout DiagnosticBag) {
    let start = position
    position += 1
    var valid = true
    while true {
      guard let byte = peek(), byte != UInt8(ascii: "\n") else {
        var end = position
        if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        diagnostics.report(LexerMessages.unterminatedString(at: SourceRange(start: start, end: end)))
        append(.invalid, from: start)
        return
      }
      if byte == UInt8(ascii: "\"") {
        position += 1
        break
      }
      if byte == UInt8(ascii: "\\") {
        let next = peek(1)
        switch next {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "t"):
          position += 2
        case nil, UInt8(ascii: "\n"), UInt8(ascii: "\r"):
          // A backslash at the end of the line: the string is unterminated, reported below.
          position += 1
        default:
          let escapeEnd = position + 1 + UTF8Scanner.scalarLength(in: bytes, at: position + 1)
          diagnostics.report(
            LexerMessages.invalidEscape(text(position, escapeEnd), at: SourceRange(start: position, end: escapeEnd)))
          valid = false
          position = escapeEnd
        }
        continue
      }
      if byte < 0x80 {
        position += 1
      } else if let (_, length) = UTF8Scanner.decode(bytes, at: position) {
        position += length
      } else {
        reportInvalidUTF8(into: &diagnostics)
        valid = false
      }
    }
    let range = SourceRange(start: start, end: position)
    if valid && range.length - 2 > limits.maximumStringLength {
      diagnostics.report(
        LexerMessages.stringTooLong(
          text(start, position), length: range.length - 2, limit: limits.maximumStringLength, at: range))
      valid = false
    }
    append(valid ? .string : .invalid, from: start)
  }

  // MARK: - Punctuation

  private mutating func lexPunctuation(_ byte: UInt8, into diagnostics: inout DiagnosticBag) -> Bool {
    let start = position
    let next = peek(1)
    func two(_ kind: TokenKind) { position += 2; append(kind, from: start) }
    func one(_ kind: TokenKind) { position += 1; append(kind, from: start) }
    switch byte {
    case UInt8(ascii: "("): one(.leftParen)
    case UInt8(ascii: ")"): one(.rightParen)
    case UInt8(ascii: "["): one(.leftBracket)
    case UInt8(ascii: "]"): one(.rightBracket)
    case UInt8(ascii: ","): one(.comma)
    case UInt8(ascii: ":"): one(.colon)
    case UInt8(ascii: "+"): one(.plus)
    case UInt8(ascii: "-"): one(.minus)
    case UInt8(ascii: "*"): one(.star)
    case UInt8(ascii: "/"): one(.slash)
    case UInt8(ascii: "%"): one(.percent)
    case UInt8(ascii: "?"): next == UInt8(ascii: "?") ? two(.coalesce) : one(.questionMark)
    case UInt8(ascii: "="):
      switch next {
      case UInt8(ascii: "="): two(.equal)
      case UInt8(ascii: "<"): misspelled(length: 2, "<=", into: &diagnostics)
      case UInt8(ascii: ">"): misspelled(length: 2, ">=", into: &diagnostics)
      default: one(.assign)
      }
    case UInt8(ascii: "!"):
      if next == UInt8(ascii: "=") { two(.notEqual) } else { misspelled(length: 1, "not", into: &diagnostics) }
    case UInt8(ascii: "<"):
      if next == UInt8(ascii: "=") {
        two(.lessEqual)
      } else if next == UInt8(ascii: ">") {
        misspelled(length: 2, "!=", into: &diagnostics)
      } else {
        one(.less)
      }
    case UInt8(ascii: ">"): next == UInt8(ascii: "=") ? two(.greaterEqual) : one(.greater)
    case UInt8(ascii: "&"):
      misspelled(length: next == UInt8(ascii: "&") ? 2 : 1, "and", into: &diagnostics)
    case UInt8(ascii: "|"):
      misspelled(length: next == UInt8(ascii: "|") ? 2 : 1, "or", into: &diagnostics)
    case UInt8(ascii: "'"):
      position += 1
      // Take the whole single-quoted text, if it closes on this line, as one mistake.
      var end = position
      while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "'") { end += 1 }
      if end < bytes.count && bytes[end] == UInt8(ascii: "'") { position = end + 1 }
      diagnostics.report(
        LexerMessages.singleQuotes(text(start, position), at: SourceRange(start: start, end: position)))
      append(.invalid, from: start)
    default:
      return false
    }
    return true
  }

  /// Reports an operator from another language and produces an invalid token.
  private mutating func misspelled(length: Int, _ replacement: String, into diagnostics: inout DiagnosticBag) {
    let start = position
    position += length
    let written = text(start, position)
    // A word replacing a symbol needs spaces where the symbol touched a name: `a&&b` -> `a and b`.
    let isWord = Lexer.isIdentifierByte(replacement.utf8.first)
    let touchesBefore = start > 0 && Lexer.isIdentifierByte(bytes[start - 1])
    let touchesAfter = Lexer.isIdentifierByte(peek())
    let spelled = (isWord && touchesBefore ? " " : "") + replacement + (isWord && touchesAfter ? " " : "")
    diagnostics.report(
      LexerMessages.foreignOperator(
        written, replacement: replacement, spelled: spelled, at: SourceRange(start: start, end: position)))
    append(.invalid, from: start)
  }

  // MARK: - Everything else

  /// Reports a run of characters that cannot start a token as one error.
  ///
  /// `wordStart` is set when ASCII letters of the same word come first (`déjà_vu`).
  private mutating func lexUnexpected(into diagnostics: inout DiagnosticBag, from wordStart: Int? = nil) {
    let start = wordStart ?? position
    guard let (first, firstLength) = UTF8Scanner.decode(bytes, at: position) else {
      reportInvalidUTF8(into: &diagnostics)
      append(.invalid, from: start)
      return
    }
    let firstPosition = position
    position += firstLength
    let firstIsControl = first.value < 0x20 || first.value == 0x7F
    if LexerAdvice.isOpeningQuote(first) {
      lexCurlyQuoted(from: start, into: &diagnostics)
      return
    }
    // Group a word (letters of any script, digits, `_`) into one report.
    let isWord = wordStart != nil || LexerAdvice.isWordCharacter(first)
    if isWord {
      while true {
        if Lexer.isIdentifierByte(peek()) {
          position += 1
        } else if let (scalar, length) = UTF8Scanner.decode(bytes, at: position), scalar.value >= 0x80,
          LexerAdvice.isWordCharacter(scalar)
        {
          position += length
        } else {
          break
        }
      }
    }
    let range = SourceRange(start: start, end: position)
    if firstIsControl {
      diagnostics.report(LexerMessages.controlCharacter(first, at: range))
    } else if first.value == 0xFEFF {
      diagnostics.report(LexerMessages.misplacedByteOrderMark(at: range))
    } else if isWord && (position - start > firstLength || firstPosition != start) {
      diagnostics.report(LexerMessages.nonASCIIName(text(start, position), at: range))
    } else {
      diagnostics.report(LexerMessages.unexpectedCharacter(first, at: range))
    }
    append(.invalid, from: start)
  }

  /// Reports text in curly quotes (`“pro”`) as one mistake, up to the closing quote on the line.
  private mutating func lexCurlyQuoted(from start: Int, into diagnostics: inout DiagnosticBag) {
    var end = position
    while end < bytes.count && bytes[end] != UInt8(ascii: "\n") {
      guard let (scalar, length) = UTF8Scanner.decode(bytes, at: end) else { break }
      end += length
      if LexerAdvice.isClosingQuote(scalar) {
        position = end
        break
      }
    }
    let written = text(start, position)
    let inner = String(written.unicodeScalars.dropFirst().prefix(while: { !LexerAdvice.isClosingQuote($0) }))
    diagnostics.report(LexerMessages.curlyQuotes(written, inner: inner, at: SourceRange(start: start, end: position)))
    append(.invalid, from: start)
  }

  /// Reports one run of bytes that are not valid UTF-8 and steps over it.
  private mutating func reportInvalidUTF8(into diagnostics: inout DiagnosticBag) {
    let start = position
    position += 1
    while position < bytes.count && bytes[position] >= 0x80 && UTF8Scanner.decode(bytes, at: position) == nil {
      position += 1
    }
    diagnostics.report(LexerMessages.invalidUTF8(bytes[start..<position], at: SourceRange(start: start, end: position)))
  }
}

/// Advice for characters that often slip into policies from word processors or other languages.
enum LexerAdvice {
  /// Whether `scalar` is a letter or digit of some script (so it belongs to a word), not punctuation.
  static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.value < 0x80 {
      return (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
        || (scalar.value >= 0x61 && scalar.value <= 0x7A) || scalar == "_"
    }
    return replacement(for: scalar) == nil && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
  }

  static func isOpeningQuote(_ scalar: Unicode.Scalar) -> Bool {
    [0x201C, 0x201E, 0x201D, 0x2018, 0x2019, 0x00AB].contains(scalar.value)
  }

  static func isClosingQuote(_ scalar: Unicode.Scalar) -> Bool {
    [0x201D, 0x201C, 0x2019, 0x00BB].contains(scalar.value)
  }

  static func replacement(for scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x2265: ">="
    case 0x2264: "<="
    case 0x2260: "!="
    case 0x201C, 0x201D, 0x201E, 0x2018, 0x2019: "\""
    case 0x2013, 0x2014, 0x2212: "-"
    case 0x00D7: "*"
    case 0x00F7: "/"
    case 0x00A0, 0x2009, 0x202F, 0x3000: " "
    default: nil
    }
  }
}

/// Shortens long literal text for messages.
package enum LiteralText {
  @inline(never)
  package static func abbreviated(_ text: String, limit: Int = 24) -> String {
    guard text.unicodeScalars.count > limit else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "..."
  }
}
