/// The text of one policy, with a display path and a table of line starts.
///
/// The bytes are kept as given, so a file that is not valid UTF-8 can still be
/// lexed and reported on precisely.
public struct SourceFile: Sendable {
  /// The path shown in diagnostics, for example `Examples/armchair.policy`.
  public let path: String
  /// The raw bytes of the file.
  public let bytes: [UInt8]
  /// The offset at which each line starts; `lineStarts[0] == 0`.
  package let lineStarts: [Int]
  /// Whether the file starts with a UTF-8 byte-order mark (skipped by the lexer).
  package let hasByteOrderMark: Bool

  /// Creates a source file from raw bytes.
  public init(path: String, bytes: [UInt8]) {
    self.path = path
    self.bytes = bytes
    var starts = [0]
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(index + 1)
    }
    self.lineStarts = starts
    self.hasByteOrderMark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
  }

  /// Creates a source file from text.
  public init(path: String, text: String) {
    self.init(path: path, bytes: Array(text.utf8))
  }

  /// The number of lines in the file (an empty file has one empty line).
  package var lineCount: Int { lineStarts.count }

  /// The 0-based index of the line that contains `offset`.
  package func lineIndex(of offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The 1-based line and column of `offset`.
  ///
  /// Columns count Unicode scalars; a byte that does not start a valid scalar
  /// counts as one column. A byte-order mark at the start of the file is not counted.
  public func location(of offset: Int) -> SourceLocation {
    let clamped = min(max(offset, 0), bytes.count)
    let index = lineIndex(of: clamped)
    var start = lineStarts[index]
    if index == 0 && hasByteOrderMark { start = min(3, clamped) }
    var column = 1
    var position = start
    while position < clamped {
      position += UTF8Scanner.scalarLength(in: bytes, at: position)
      column += 1
    }
    return SourceLocation(line: index + 1, column: column)
  }

  /// The byte range of the 0-based line `index`, without its line terminator.
  func lineRange(_ index: Int) -> Range<Int> {
    let start = lineStarts[index]
    var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
    if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    if index == 0 && hasByteOrderMark { return min(3, end)..<end }
    return start..<end
  }

  /// The text of the 0-based line `index`, with invalid bytes replaced by U+FFFD.
  func lineText(_ index: Int) -> String {
    String(decoding: bytes[lineRange(index)], as: UTF8.self)
  }

  /// The source text covered by `range`, with invalid bytes replaced by U+FFFD.
  public func text(in range: SourceRange) -> String {
    let start = min(max(range.start, 0), bytes.count)
    let end = min(max(range.end, start), bytes.count)
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// Small helpers to step over UTF-8 without Foundation.
package enum UTF8Scanner {
  /// The length of the valid UTF-8 scalar at `offset`, or 1 for an invalid byte.
  static func scalarLength(in bytes: [UInt8], at offset: Int) -> Int {
    decode(bytes, at: offset)?.length ?? 1
  }

  /// Decodes the scalar at `offset`, or returns nil when the bytes there are not valid UTF-8.
  package static func decode(_ bytes: [UInt8], at offset: Int) -> (scalar: Unicode.Scalar, length: Int)? {
    guard offset < bytes.count else { return nil }
    let first = bytes[offset]
    if first < 0x80 { return (Unicode.Scalar(first), 1) }
    let length: Int
    let initial: UInt32
    switch first {
    case 0xC2...0xDF: length = 2; initial = UInt32(first & 0x1F)
    case 0xE0...0xEF: length = 3; initial = UInt32(first & 0x0F)
    case 0xF0...0xF4: length = 4; initial = UInt32(first & 0x07)
    default: return nil
    }
    guard offset + length <= bytes.count else { return nil }
    var value = initial
    for index in 1..<length {
      let byte = bytes[offset + index]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = (value << 6) | UInt32(byte & 0x3F)
    }
    // Reject overlong forms and surrogates; Unicode.Scalar rejects surrogates and out-of-range values.
    let minimum: UInt32 = length == 2 ? 0x80 : (length == 3 ? 0x800 : 0x10000)
    guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }
}
