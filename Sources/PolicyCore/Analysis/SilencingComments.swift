/// The `# policyc: allow PCnnn` comments of a file, and what they silenced.
///
/// A comment silences the named warnings of the declaration that starts on its line, or on the
/// next line when the comment stands alone on its line. The comments are themselves checked, as
/// ESLint reports unused disable directives: an unknown directive (`PC315`), a code that no
/// comment can silence (`PC316`) and an `allow` that silenced nothing where it stands (`PC317`)
/// are warnings.
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

  let source: SourceFile
  private(set) var allows: [Allow] = []
  /// Unknown directives, found while reading the comments.
  private(set) var unknownDirectives: [Word] = []

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
        continue
      }
    }
  }

  /// Whether `source` may have a `policyc:` comment: a cheap test before parsing it again.
  static func mayHaveDirectives(_ source: SourceFile) -> Bool {
    let needle = Array("policyc:".utf8)
    let bytes = source.bytes
    guard bytes.count >= needle.count else { return false }
    var index = 0
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) { return true }
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
      let code = word { !blanks.contains($0) && $0 != UInt8(ascii: ",") }
      let written = code.text.utf8
      guard written.count > 2, written.prefix(2).map({ $0 | 0x20 }) == Array("pc".utf8),
        written.dropFirst(2).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
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
    let names = silenceable.map(\.rawValue)
    for allow in allows {
      for (position, entry) in allow.codes.enumerated() {
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
