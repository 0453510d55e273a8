import Testing

@testable import PolicyCore

/// Lexes `text` and returns the tokens (without the end-of-file token), comments and diagnostics.
private func lex(_ text: String) -> (
  tokens: [Token], comments: [PolicyCore.Comment], diagnostics: [Diagnostic], source: SourceFile
) {
  lex(bytes: Array(text.utf8))
}

private func lex(bytes: [UInt8]) -> (
  tokens: [Token], comments: [PolicyCore.Comment], diagnostics: [Diagnostic], source: SourceFile
) {
  let source = SourceFile(path: "test.policy", bytes: bytes)
  var lexer = Lexer(source: source)
  var bag = DiagnosticBag()
  lexer.lex(into: &bag)
  #expect(lexer.tokens.last?.kind == .endOfFile)
  #expect(lexer.tokens.last?.range == .empty(at: bytes.count))
  return (Array(lexer.tokens.dropLast()), lexer.comments, bag.diagnostics, source)
}

private func kinds(_ text: String) -> [TokenKind] {
  lex(text).tokens.map(\.kind)
}

@Suite("Lexer")
struct LexerTests {
  @Test("identifiers and every keyword")
  func identifiersAndKeywords() {
    let result = lex("days _x A9_b ask never when let fact and or not in has true false And")
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.tokens.map(\.kind) == [
        .identifier, .identifier, .identifier, .askKeyword, .neverKeyword, .whenKeyword, .letKeyword, .factKeyword,
        .andKeyword, .orKeyword, .notKeyword, .inKeyword, .hasKeyword, .trueKeyword, .falseKeyword, .identifier,
      ])
    #expect(result.tokens.map { result.source.text(in: $0.range) }.prefix(3) == ["days", "_x", "A9_b"])
    #expect(TokenKind.keywords.count == 12)
    #expect(TokenKind.keywords.allSatisfy { TokenKind.keyword(Substring($0).utf8)?.isKeyword == true })
    // Keywords are matched as packed bytes: near misses, prefixes, longer words and zero bytes are names.
    for word in ["as", "asks", "Ask", "neverx", "falsey", "nev", "o", "", "ask\0", "\0ask", "whenever", "i", "nota"] {
      #expect(TokenKind.keyword(Substring(word).utf8) == nil, "`\(word)` is not a keyword")
    }
    #expect(Set(TokenKind.keywords.compactMap { TokenKind.keyword(Substring($0).utf8) }).count == 12)
  }

  @Test("numeric literals: integer, number, duration, version")
  func numerics() {
    let result = lex("30 7.5 45s 90m 12h 30d 8w v2.1 2.1.3 v1.2.3.4 v2 0")
    #expect(result.diagnostics.isEmpty)
    #expect(
      result.tokens.map(\.kind) == [
        .integer, .number, .duration, .duration, .duration, .duration, .duration, .version, .version, .version,
        .identifier, .integer,
      ])
    #expect(result.source.text(in: result.tokens[7].range) == "v2.1")
  }

  @Test("`1.5h` is not a whole duration and the help names the smaller unit")
  func fractionalDuration() throws {
    let result = lex("1.5h")
    #expect(result.tokens.map(\.kind) == [.invalid])
    let diagnostic = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1)
    #expect(diagnostic.code == .invalidDuration)
    #expect(diagnostic.message == "duration `1.5h` is not a whole number")
    #expect(diagnostic.help == ["durations are whole numbers; write `90m`"])
    #expect(diagnostic.range == SourceRange(start: 0, end: 4))
  }

  @Test(
    "unknown units get advice",
    arguments: [
      ("30days", "write `30d` for 30 days"), ("2weeks", "write `2w` for 2 weeks"), ("5min", "write `5m` for 5 minutes"),
      ("30D", "units are lowercase; write `30d`"), ("30x", "the units are `s`, `m`, `h`, `d` and `w`, as in `30d`"),
    ])
  func unknownUnit(text: String, help: String) throws {
    let result = lex(text)
    #expect(result.tokens.map(\.kind) == [.invalid])
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == .invalidDuration)
    #expect(diagnostic.help == [help])
    // The range covers the unit only.
    let digits = text.prefix { $0.isNumber }.utf8.count
    #expect(diagnostic.range == SourceRange(start: digits, end: text.utf8.count))
  }

  @Test("a version with a suffix is one invalid token")
  func versionSuffix() throws {
    let result = lex("v1.2beta 1.2.3rc")
    #expect(result.tokens.map(\.kind) == [.invalid, .invalid])
    #expect(result.diagnostics.map(\.code) == [.invalidVersion, .invalidVersion])
    #expect(result.diagnostics[0].message == "version `v1.2beta` has a suffix")
  }

  @Test("strings, escapes and their errors")
  func strings() throws {
    let ok = lex(#""purchase" "a\"b\\c\nd\te" """#)
    #expect(ok.diagnostics.isEmpty)
    #expect(ok.tokens.map(\.kind) == [.string, .string, .string])

    let unterminated = lex("plan == \"pro\nx")
    #expect(unterminated.tokens.map(\.kind) == [.identifier, .equal, .invalid, .identifier])
    #expect(unterminated.diagnostics.map(\.code) == [.unterminatedString])
    #expect(unterminated.diagnostics[0].range == SourceRange(start: 8, end: 12))

    let escape = lex(#""a\qb""#)
    #expect(escape.tokens.map(\.kind) == [.invalid])
    #expect(escape.diagnostics.map(\.code) == [.invalidEscape])
    #expect(escape.diagnostics[0].message == #"unknown escape `\q` in string"#)
    #expect(escape.diagnostics[0].range == SourceRange(start: 2, end: 4))
  }

  @Test("a string of 4096 bytes is fine, 4097 is too long")
  func stringLimit() {
    let fits = lex("\"" + String(repeating: "a", count: Limits.maximumStringLength) + "\"")
    #expect(fits.diagnostics.isEmpty)
    #expect(fits.tokens.map(\.kind) == [.string])
    let long = lex("\"" + String(repeating: "a", count: Limits.maximumStringLength + 1) + "\"")
    #expect(long.diagnostics.map(\.code) == [.stringTooLong])
    #expect(long.tokens.map(\.kind) == [.invalid])
  }

  @Test("an identifier of 128 bytes is fine, 129 is too long")
  func identifierLimit() {
    #expect(lex(String(repeating: "a", count: 128)).diagnostics.isEmpty)
    let long = lex(String(repeating: "a", count: 129))
    #expect(long.diagnostics.map(\.code) == [.identifierTooLong])
    #expect(long.tokens.map(\.kind) == [.invalid])
  }

  @Test("punctuation and two-character operators")
  func punctuation() {
    #expect(
      kinds("( ) [ ] , : ? = == != < <= > >= + - * / % ??") == [
        .leftParen, .rightParen, .leftBracket, .rightBracket, .comma, .colon, .questionMark, .assign, .equal,
        .notEqual, .less, .lessEqual, .greater, .greaterEqual, .plus, .minus, .star, .slash, .percent, .coalesce,
      ])
    #expect(kinds("a>=b") == [.identifier, .greaterEqual, .identifier])
    #expect(kinds("x???y") == [.identifier, .coalesce, .questionMark, .identifier])
  }

  @Test(
    "operators from other languages get advice",
    arguments: [
      ("&&", "and"), ("&", "and"), ("||", "or"), ("|", "or"), ("!", "not"), ("=<", "<="), ("=>", ">="), ("<>", "!="),
    ])
  func foreignOperators(written: String, replacement: String) throws {
    let result = lex("a \(written) b")
    #expect(result.tokens.map(\.kind) == [.identifier, .invalid, .identifier])
    let diagnostic = try #require(result.diagnostics.first)
    #expect(diagnostic.code == .unexpectedCharacter)
    #expect(diagnostic.message == "unexpected `\(written)`")
    #expect(diagnostic.help == ["write `\(replacement)` instead of `\(written)`"])
    #expect(diagnostic.range == SourceRange(start: 2, end: 2 + written.utf8.count))
  }

  @Test("single quotes suggest double quotes")
  func singleQuote() {
    let quoted = lex("plan == 'pro'")
    #expect(quoted.diagnostics.count == 1)
    #expect(quoted.diagnostics.first?.message == "string `'pro'` uses single quotes")
    #expect(quoted.diagnostics.first?.help == ["strings use double quotes: `\"pro\"`"])
    #expect(quoted.tokens.map(\.kind) == [.identifier, .equal, .invalid])
    let lone = lex("a ' b")
    #expect(lone.diagnostics.first?.message == "unexpected character `'`")
    #expect(lone.diagnostics.first?.help == ["strings use double quotes: `\"purchase\"`"])
  }

  @Test("curly quotes suggest straight quotes, the quoted text is one mistake")
  func curlyQuotes() {
    let result = lex("plan == \u{201C}pro\u{201D} and x")
    #expect(result.diagnostics.count == 1)
    #expect(result.diagnostics.first?.code == .unexpectedCharacter)
    #expect(result.diagnostics.first?.message == "`\u{201C}pro\u{201D}` uses curly quotes")
    #expect(result.diagnostics.first?.help == ["use straight double quotes: `\"pro\"`"])
    #expect(result.tokens.map(\.kind) == [.identifier, .equal, .invalid, .andKeyword, .identifier])
  }

  @Test(
    "typographic characters get advice",
    arguments: [
      ("\u{2265}", "write `>=` instead"), ("\u{2264}", "write `<=` instead"), ("\u{2260}", "write `!=` instead"),
      ("\u{2212}", "write `-` instead"),
      ("\u{00A0}", "replace it with a plain space"),
    ])
  func typographic(character: String, help: String) throws {
    let result = lex("a \(character) b")
    let diagnostic = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1)
    #expect(diagnostic.code == .unexpectedCharacter)
    #expect(diagnostic.help == [help])
    #expect(result.tokens.map(\.kind) == [.identifier, .invalid, .identifier])
  }

  @Test("a name with non-ASCII letters is reported once, as a whole word")
  func foreignWord() throws {
    let result = lex("день >= 3")
    #expect(result.diagnostics.count == 1)
    #expect(result.diagnostics[0].message == "name `день` has characters other than ASCII letters, digits and `_`")
    #expect(result.tokens.map(\.kind) == [.invalid, .greaterEqual, .integer])
    let mixed = lex("déjà_vu > 3")
    #expect(
      mixed.diagnostics.map(\.message) == ["name `déjà_vu` has characters other than ASCII letters, digits and `_`"])
    #expect(mixed.diagnostics.first?.range == SourceRange(start: 0, end: "déjà_vu".utf8.count))
    #expect(mixed.tokens.map(\.kind) == [.invalid, .greater, .integer])
  }

  @Test("control characters and NUL are errors")
  func controlCharacters() {
    let nul = lex(bytes: [UInt8(ascii: "a"), 0, UInt8(ascii: "b")])
    #expect(nul.diagnostics.map(\.message) == ["unexpected control character U+0000"])
    #expect(nul.diagnostics.first?.help == ["the file contains a NUL byte; is it a text file?"])
    let bell = lex("a\u{7}b")
    #expect(bell.diagnostics.map(\.code) == [.unexpectedCharacter])
    #expect(bell.tokens.map(\.kind) == [.identifier, .invalid, .identifier])
  }

  @Test("invalid UTF-8 is reported wherever it appears")
  func invalidUTF8() {
    let code = lex(bytes: [UInt8(ascii: "a"), 0xFF, 0xFE, UInt8(ascii: " "), UInt8(ascii: "b")])
    #expect(code.diagnostics.map(\.code) == [.invalidUTF8])
    #expect(code.diagnostics.first?.message == "invalid UTF-8 bytes 0xFF 0xFE")
    #expect(code.diagnostics.first?.range == SourceRange(start: 1, end: 3))
    let inString = lex(bytes: Array("\"a".utf8) + [0xC3] + Array("\"".utf8))
    #expect(inString.diagnostics.map(\.code) == [.invalidUTF8])
    #expect(inString.tokens.map(\.kind) == [.invalid])
    let inComment = lex(bytes: Array("# a".utf8) + [0x80] + Array("\nx".utf8))
    #expect(inComment.diagnostics.map(\.code) == [.invalidUTF8])
    #expect(inComment.tokens.map(\.kind) == [.identifier])
  }

  @Test("comments run to the end of the line and know whether code precedes them")
  func comments() {
    let result = lex("# leading\ndays >= 3 # trailing\r\n  # alone")
    #expect(result.diagnostics.isEmpty)
    #expect(result.tokens.map(\.kind) == [.identifier, .greaterEqual, .integer])
    #expect(result.comments.map { result.source.text(in: $0.range) } == ["# leading", "# trailing", "# alone"])
    #expect(result.comments.map(\.isTrailing) == [false, true, false])
  }

  @Test("a byte-order mark at the start is skipped; elsewhere it is an error")
  func byteOrderMark() {
    let start = lex(bytes: [0xEF, 0xBB, 0xBF] + Array("days".utf8))
    #expect(start.diagnostics.isEmpty)
    #expect(start.tokens.map(\.kind) == [.identifier])
    #expect(start.tokens.first?.range == SourceRange(start: 3, end: 7))
    #expect(start.source.location(of: 3) == PolicyCore.SourceLocation(line: 1, column: 1))
    let middle = lex("a \u{FEFF}b")
    #expect(middle.diagnostics.map(\.code) == [.unexpectedCharacter])
  }

  @Test("token ranges are byte offsets")
  func ranges() {
    let result = lex("ask loyal when days >= 30")
    #expect(
      result.tokens.map(\.range) == [
        SourceRange(start: 0, end: 3), SourceRange(start: 4, end: 9), SourceRange(start: 10, end: 14),
        SourceRange(start: 15, end: 19), SourceRange(start: 20, end: 22), SourceRange(start: 23, end: 25),
      ])
  }

  @Test("columns count Unicode scalars, lines are 1-based")
  func locations() {
    let source = SourceFile(path: "x", text: "a\n\"é\" b\r\nc")
    #expect(source.lineCount == 3)
    #expect(source.location(of: 0) == PolicyCore.SourceLocation(line: 1, column: 1))
    #expect(source.location(of: 7) == PolicyCore.SourceLocation(line: 2, column: 5))  // `b` after `"é" `
    #expect(source.lineText(1) == "\"é\" b")
    #expect(source.location(of: 10) == PolicyCore.SourceLocation(line: 3, column: 1))
  }
}
