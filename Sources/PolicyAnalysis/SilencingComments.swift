import PolicyCore

/// The `# policyc: allow PCnnn` comments of a file, and what they silenced.
///
/// A comment silences the named warnings of the declaration that starts on its line, or on the
/// next line when the comment stands alone on its line. The comments are themselves checked, as
/// ESLint reports unused disable directives: an unknown directive (`PC315`), a code that no
/// comment can silence (`PC316`) and an `allow` that silenced nothing where it stands (`PC317`)
/// are warnings, and so is a comment meant to silence that is spelt otherwise (`PC309`:
/// `# policy: allow PC321`, `# policyc allow PC321`, `allow PC 321`, `allow pc321`), which
/// silences nothing.
struct SilencingComments {
  /// One `allow` comment.
  struct Allow {
    /// The comment's line (0-based).
    var line: Int
    /// Whether the comment is alone on its line (so it applies to the next line too).
    var isAlone: Bool
    /// The whole comment.
    var range: SourceRange
    /// The codes it names, as written, with their places.
    var codes: [(code: String, range: SourceRange)]
    /// Which of ``codes`` silenced a warning.
    var used: [Bool]
  }

  /// What a comment says after `policyc:`.
  enum Directive: Equatable {
    /// `allow` and the code-like words after it (`PC320`, `pc320`, `PC3200`), with their ranges.
    case allow([Word])
    /// A word other than `allow`.
    case unknown(Word)
  }

  /// A word of a comment and where it is.
  struct Word: Equatable {
    var text: String
    var range: SourceRange
  }

  /// A comment meant to silence warnings whose `policyc:` prefix is misspelt
  /// (`# policy: allow PC321`), with the comment spelt right.
  struct Misspelling {
    /// The whole comment.
    var range: SourceRange
    /// The comment as it should be written.
    var corrected: String
  }

  let source: SourceFile
  private(set) var allows: [Allow] = []
  /// Unknown directives, found while reading the comments.
  private(set) var unknownDirectives: [Word] = []
  /// Comments whose prefix is misspelt, found while reading the comments.
  private(set) var misspellings: [Misspelling] = []

  init(source: SourceFile) {
    self.source = source
    let parsed = Parser.parse(source)
    for comment in parsed.file.comments {
      switch SilencingComments.directive(in: source.text(in: comment.range), at: comment.range.start) {
      case .allow(let words)?:
        let line = source.lineIndex(of: comment.range.start)
        allows.append(
          Allow(
            line: line, isAlone: !comment.isTrailing, range: comment.range,
            codes: words.map { ($0.text, $0.range) }, used: Array(repeating: false, count: words.count)))
      case .unknown(let word)?:
        unknownDirectives.append(word)
      case nil:
        let text = source.text(in: comment.range)
        if let corrected = SilencingComments.correctedPrefix(of: text) {
          misspellings.append(Misspelling(range: comment.range, corrected: corrected))
        }
      }
    }
  }

  /// The comment `text` spelt right when it is a near miss of `# policyc: allow PCnnn`: a word
  /// within two edits of `policyc` (in any case), with or without the colon, then `allow` (in
  /// any case) and at least one code. Nil for anything else: prose that says "policy: allow
  /// users..." names no code.
  static func correctedPrefix(of text: String) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.first == UInt8(ascii: "#") else { return nil }
    let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t")]
    func isLetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
    var index = 1
    while index < bytes.count && blanks.contains(bytes[index]) { index += 1 }
    let prefixStart = index
    while index < bytes.count && (isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "-")) { index += 1 }
    let prefix = String(decoding: bytes[prefixStart..<index], as: UTF8.self)
    guard !prefix.isEmpty, EditDistance.distance(prefix, "policyc", limit: 2) != nil else { return nil }
    while index < bytes.count && blanks.contains(bytes[index]) { index += 1 }
    if index < bytes.count && bytes[index] == UInt8(ascii: ":") { index += 1 }
    while index < bytes.count && blanks.contains(bytes[index]) { index += 1 }
    let directiveStart = index
    while index < bytes.count && isLetter(bytes[index]) { index += 1 }
    guard String(decoding: bytes[directiveStart..<index], as: UTF8.self).lowercased() == "allow" else { return nil }
    let canonical = "# policyc: allow" + String(decoding: bytes[index...], as: UTF8.self)
    guard case .allow(let codes)? = directive(in: canonical, at: 0), !codes.isEmpty else { return nil }
    return respelt(canonical, codes: codes, offset: 0)
  }

  /// The code `written` stands for when it is written like one but not exactly (`pc321`,
  /// `PC 321`): `PC` and 3 digits once blanks are removed and letters uppercased.
  static func respeltCode(_ written: String) -> String? {
    let code = String(written.uppercased().filter { $0 != " " && $0 != "\t" })
    return code != written && isCode(code) ? code : nil
  }

  /// `text`, a comment starting at byte `offset`, with each of `codes` written as a code.
  static func respelt(_ text: String, codes: [Word], offset: Int) -> String {
    var bytes = Array(text.utf8)
    for code in codes.reversed() {
      guard let right = respeltCode(code.text) else { continue }
      bytes.replaceSubrange((code.range.start - offset)..<(code.range.end - offset), with: Array(right.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `source` may have a `policyc:` comment: a cheap test before parsing it again.
  /// (or `allow`, in any case, for the comments that misspell `policyc:`).
  static func mayHaveDirectives(_ source: SourceFile) -> Bool {
    let bytes = source.bytes
    let exact = Array("policyc:".utf8)
    let folded = Array("allow".utf8)
    var index = 0
    while index < bytes.count {
      if bytes[index] == exact[0], index + exact.count <= bytes.count,
        bytes[index..<index + exact.count].elementsEqual(exact)
      {
        return true
      }
      if bytes[index] | 0x20 == folded[0], index + folded.count <= bytes.count,
        bytes[index..<index + folded.count].elementsEqual(folded, by: { $0 | 0x20 == $1 })
      {
        return true
      }
      index += 1
    }
    return false
  }

  /// The codes a comment's text allows: `# policyc: allow PC310, PC311`.
  static func codes(in text: String) -> Set<String> {
    guard case .allow(let words)? = directive(in: text, at: 0) else { return [] }
    return Set(words.map(\.text).filter(isCode))
  }

  /// Whether `text` is spelled like a code: `PC` and 3 digits.
  static func isCode(_ text: String) -> Bool {
    text.utf8.count == 5 && text.hasPrefix("PC") && text.utf8.dropFirst(2).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }

  /// The directive of a comment whose text `text` starts at byte `offset`, or nil when the
  /// comment is not a `policyc:` comment. After `allow` come codes, separated by spaces or
  /// commas; the first word that does not look like a code (`PC`, in any case, and digits)
  /// ends them, so a reason may follow.
  static func directive(in text: String, at offset: Int) -> Directive? {
    let bytes = Array(text.utf8)
    var index = 0
    func skip(_ separators: [UInt8]) { while index < bytes.count && separators.contains(bytes[index]) { index += 1 } }
    func word(while accepts: (UInt8) -> Bool) -> Word {
      let start = index
      while index < bytes.count && accepts(bytes[index]) { index += 1 }
      return Word(
        text: String(decoding: bytes[start..<index], as: UTF8.self),
        range: SourceRange(start: offset + start, end: offset + index))
    }
    let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t")]
    guard bytes.first == UInt8(ascii: "#") else { return nil }
    index = 1
    skip(blanks)
    let prefix = Array("policyc:".utf8)
    guard bytes.count - index >= prefix.count, bytes[index..<index + prefix.count].elementsEqual(prefix) else {
      return nil
    }
    index += prefix.count
    skip(blanks)
    let name = word { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    guard !name.text.isEmpty else { return nil }
    guard name.text == "allow" else { return .unknown(name) }
    var codes: [Word] = []
    while true {
      skip(blanks + [UInt8(ascii: ",")])
      var code = word { !blanks.contains($0) && $0 != UInt8(ascii: ",") }
      if code.text.utf8.map({ $0 | 0x20 }) == Array("pc".utf8) {
        // `PC 321`: one code written in two words.
        let end = index
        skip(blanks)
        let digits = word { $0 >= 0x30 && $0 <= 0x39 }
        if digits.text.isEmpty || (index < bytes.count && !blanks.contains(bytes[index]) && bytes[index] != 0x2C) {
          index = end
        } else {
          let start = code.range.start - offset
          code = Word(
            text: String(decoding: bytes[start..<index], as: UTF8.self),
            range: SourceRange(start: code.range.start, end: digits.range.end))
        }
      }
      let written = code.text.utf8
      guard written.count > 2, written.prefix(2).map({ $0 | 0x20 }) == Array("pc".utf8),
        written.dropFirst(2).allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || blanks.contains($0) })
      else { break }
      codes.append(code)
    }
    return .allow(codes)
  }

  /// Whether a comment allows `code` for the declaration at `owner`; the comment that does is
  /// marked as used.
  mutating func silence(_ code: DiagnosticCode, owner: SourceRange) -> Bool {
    let line = source.lineIndex(of: owner.start)
    for pass in 0..<2 {
      for index in allows.indices {
        let allow = allows[index]
        guard pass == 0 ? allow.line == line : (allow.line == line - 1 && allow.isAlone) else { continue }
        if let position = allow.codes.firstIndex(where: { $0.code == code.rawValue }) {
          allows[index].used[position] = true
          return true
        }
      }
    }
    return false
  }

  /// The warnings about the comments themselves: unknown directives; codes outside `known`
  /// (codes of PolicyCore that are not in `silenceable` get their own wording; other unknown
  /// codes are reported only when `reportsUnknown`); and codes of `judged` that silenced nothing.
  func warnings(silenceable: [DiagnosticCode], judged: Set<String>, reportsUnknown: Bool) -> [Diagnostic] {
    var warnings: [Diagnostic] = []
    for word in unknownDirectives {
      warnings.append(AnalyzerMessages.unknownDirective(word.text, at: word.range))
    }
    for misspelling in misspellings {
      warnings.append(
        AnalyzerMessages.misspeltSilencingComment(
          source.text(in: misspelling.range), misspelt: [], corrected: misspelling.corrected, at: misspelling.range))
    }
    let names = silenceable.map(\.rawValue)
    for allow in allows {
      let codes = allow.codes.map { Word(text: $0.code, range: $0.range) }
      let misspelt = codes.compactMap { code in SilencingComments.respeltCode(code.text).map { (code.text, $0) } }
      if !misspelt.isEmpty {
        // `pc321`, `PC 321`: the comment spelt right, once; those codes silence nothing.
        let written = source.text(in: allow.range)
        warnings.append(
          AnalyzerMessages.misspeltSilencingComment(
            written, misspelt: misspelt,
            corrected: SilencingComments.respelt(written, codes: codes, offset: allow.range.start), at: allow.range))
      }
      for (position, entry) in allow.codes.enumerated() {
        if SilencingComments.respeltCode(entry.code) != nil { continue }
        if !names.contains(entry.code) {
          if let core = PolicyCoreCode(rawValue: entry.code) {
            warnings.append(AnalyzerMessages.unsilenceableCode(core.code, silenceable: names, at: entry.range))
          } else if reportsUnknown {
            warnings.append(AnalyzerMessages.unknownAllowedCode(entry.code, silenceable: names, at: entry.range))
          }
        } else if judged.contains(entry.code) && !allow.used[position] {
          warnings.append(
            AnalyzerMessages.unusedAllow(entry.code, fix: removal(of: position, in: allow), at: entry.range))
        }
      }
    }
    return warnings
  }

  /// The edit that removes code `position` of `allow`: the whole comment when nothing else in
  /// it silenced anything, else the code and the separator before (or after) it.
  func removal(of position: Int, in allow: Allow) -> SourceEdit {
    let othersUsed = allow.used.enumerated().contains { $0.offset != position && $0.element }
    if !othersUsed && allow.codes.count == 1 {
      let bytes = source.bytes
      var start = allow.range.start
      while start > 0 && (bytes[start - 1] == UInt8(ascii: " ") || bytes[start - 1] == UInt8(ascii: "\t")) {
        start -= 1
      }
      var end = allow.range.end
      if allow.isAlone, start == 0 || bytes[start - 1] == UInt8(ascii: "\n") {
        // The comment is its line: remove the line with its newline.
        if end < bytes.count && bytes[end] == UInt8(ascii: "\r") { end += 1 }
        if end < bytes.count && bytes[end] == UInt8(ascii: "\n") { end += 1 }
      }
      return .delete(SourceRange(start: start, end: end))
    }
    let codes = allow.codes
    if position > 0 {
      return .delete(SourceRange(start: codes[position - 1].range.end, end: codes[position].range.end))
    }
    if codes.count > 1 {
      return .delete(SourceRange(start: codes[0].range.start, end: codes[1].range.start))
    }
    return .delete(codes[0].range)
  }
}
