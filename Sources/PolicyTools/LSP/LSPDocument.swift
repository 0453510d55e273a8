import PolicyCore

/// An open document of the language server: its text and version, edited in place.
///
/// Positions are LSP positions: a 0-based line and a character offset in UTF-16 code units
/// (the protocol's default encoding); a byte that is not valid UTF-8 counts as one unit.
public struct LSPDocument: Sendable {
  /// The document's URI, as the client sent it.
  public let uri: String
  /// The client's version number of the text.
  public var version: Int
  /// The text, as a source file (its path is the URI's file name, for diagnostics).
  public private(set) var source: SourceFile

  /// A 0-based line and UTF-16 character.
  public struct Position: Sendable, Hashable {
    /// The 0-based line.
    public var line: Int
    /// The 0-based UTF-16 offset in the line.
    public var character: Int

    /// Creates a position.
    public init(line: Int, character: Int) {
      self.line = line
      self.character = character
    }
  }

  /// Creates a document.
  public init(uri: String, version: Int, bytes: [UInt8]) {
    self.uri = uri
    self.version = version
    self.source = SourceFile(path: LSPDocument.displayPath(uri), bytes: bytes)
  }

  /// Whether the document is a policy test file (`*.test.json`) rather than a policy.
  public var isTestFile: Bool { uri.hasSuffix(".json") }

  /// The path shown in diagnostics: the URI without its `file://` scheme, percent escapes decoded.
  static func displayPath(_ uri: String) -> String {
    let path = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri
    var bytes: [UInt8] = []
    var utf8 = Array(path.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Replaces the whole text; returns the offset of the first byte changed (the length of the
  /// part the old and new texts start with; the old length when nothing changed).
  @discardableResult
  public mutating func replaceAll(with bytes: [UInt8]) -> Int {
    let old = source.bytes
    let common = min(old.count, bytes.count)
    let first = old.withUnsafeBufferPointer { old in
      bytes.withUnsafeBufferPointer { new in
        var index = 0
        while index < common && old[index] == new[index] { index += 1 }
        return index
      }
    }
    source = SourceFile(path: source.path, bytes: bytes)
    return first
  }

  /// Replaces the text between two positions (an incremental change); returns the offset of the
  /// first byte changed. The text is edited in place when nothing else holds it, else copied once.
  @discardableResult
  public mutating func replace(from start: Position, to end: Position, with text: String) -> Int {
    let lower = offset(of: start)
    let upper = max(lower, offset(of: end))
    let path = source.path
    var bytes = source.bytes
    source = SourceFile(path: path, bytes: [])
    bytes.replaceSubrange(lower..<upper, with: text.utf8)
    source = SourceFile(path: path, bytes: bytes)
    return lower
  }

  /// The byte offset of `position`, clamped to the document (a character past the end of its
  /// line is the end of the line; a line past the end is the end of the file).
  public func offset(of position: Position) -> Int {
    guard position.line >= 0 else { return 0 }
    guard position.line < source.lineCount else { return source.bytes.count }
    let lineStart = source.lineStarts[position.line]
    let lineEnd = position.line + 1 < source.lineCount ? source.lineStarts[position.line + 1] - 1 : source.bytes.count
    var offset = lineStart
    var units = 0
    while offset < lineEnd && units < position.character {
      let decoded = UTF8Scanner.decode(source.bytes, at: offset)
      units += decoded.map { $0.scalar.utf16.count } ?? 1
      offset += decoded?.length ?? 1
    }
    return min(offset, lineEnd)
  }

  /// The position of the byte `offset`.
  public func position(of offset: Int) -> Position {
    let clamped = min(max(offset, 0), source.bytes.count)
    let line = source.lineIndex(of: clamped)
    var position = source.lineStarts[line]
    var units = 0
    while position < clamped {
      let decoded = UTF8Scanner.decode(source.bytes, at: position)
      units += decoded.map { $0.scalar.utf16.count } ?? 1
      position += decoded?.length ?? 1
    }
    return Position(line: line, character: units)
  }

  /// An LSP range object for `range`.
  func lspRange(_ range: SourceRange) -> LSPValue {
    .object([("start", lspPosition(range.start)), ("end", lspPosition(range.end))])
  }

  /// An LSP position object for `offset`.
  func lspPosition(_ offset: Int) -> LSPValue {
    let position = position(of: offset)
    return .object([("line", .int(position.line)), ("character", .int(position.character))])
  }
}
