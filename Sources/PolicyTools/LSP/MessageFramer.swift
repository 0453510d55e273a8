/// The base protocol of the Language Server Protocol: messages framed by a `Content-Length`
/// header, read from a byte stream that may arrive in any pieces and may be broken.
///
/// Feed bytes with ``append(_:)``, then call ``next()`` until it returns nil. A broken header
/// (no `Content-Length`, a length that is not a number or is over ``maximumBodySize``, a header
/// over ``maximumHeaderSize``) is reported once as a ``Failure`` and skipped: reading resumes
/// after its header block (a line before a `Content-Length:` in a block without one is garbage
/// before a header: reading resumes at that `Content-Length:`), or, after a block too long to
/// end, at the next `Content-Length:` in the stream. What is read never depends on how the
/// stream is cut into pieces, and neither does the work: bytes are searched once and a header is
/// read once, however many reads its body takes.
package struct MessageFramer: Sendable {
  /// The largest message body accepted: a policy at the file size limit, escaped, with room to spare.
  package static let maximumBodySize = 16 << 20
  /// The longest header block accepted.
  package static let maximumHeaderSize = 4096

  /// Why bytes could not be read as a message.
  package enum Failure: Error, Sendable, Hashable {
    /// The header block has no `Content-Length`.
    case missingContentLength
    /// The `Content-Length` is not a decimal number.
    case invalidContentLength(String)
    /// The body is larger than ``MessageFramer/maximumBodySize``.
    case bodyTooLarge(Int)
    /// The header block is longer than ``MessageFramer/maximumHeaderSize`` without ending.
    case headerTooLong

    /// The explanation, for a JSON-RPC error or a log line (written by `LanguageServerMessages`).
    package var message: String {
      switch self {
      case .missingContentLength: LanguageServerMessages.missingContentLength
      case .invalidContentLength(let text): LanguageServerMessages.invalidContentLength(text)
      case .bodyTooLarge(let size): LanguageServerMessages.bodyTooLarge(size: size)
      case .headerTooLong: LanguageServerMessages.headerTooLong
      }
    }
  }

  private var buffer: [UInt8] = []
  private var start = 0
  /// Whether a broken header is being skipped and the next `Content-Length:` has not arrived yet.
  private var isSkipping = false
  /// Where the search for the end of a header block goes on: no `\r\n\r\n` starts before it, so
  /// bytes arriving in many pieces are searched once, not again with each piece.
  private var headerSearchStart = 0
  /// The body whose header has been read, while its bytes are still arriving.
  private var awaitedBody: (start: Int, length: Int)?

  /// Creates an empty framer.
  package init() {}

  /// Adds bytes read from the stream.
  package mutating func append(_ bytes: some Sequence<UInt8>) {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(0..<start)
      headerSearchStart = max(0, headerSearchStart - start)
      if let body = awaitedBody { awaitedBody = (body.start - start, body.length) }
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The number of bytes received and not yet returned as a message.
  package var pendingByteCount: Int { buffer.count - start }

  /// The next complete message body, a failure for a broken header, or nil when more bytes are needed.
  package mutating func next() -> Result<[UInt8], Failure>? {
    if let body = awaitedBody { return awaited(body) }
    // After a header block too long to end, reading resumes exactly at the next `Content-Length:`,
    // however the stream is cut: bytes before it never join the next header.
    if isSkipping {
      guard let marker = find(MessageFramer.marker, from: start) else {
        start = max(start, buffer.count - MessageFramer.marker.count + 1)
        return nil
      }
      start = marker
      isSkipping = false
    }
    // The limit holds however the stream is cut: a block whose end has not arrived is too long
    // once even an end starting in its last 3 bytes would leave it over the limit.
    guard let headerEnd = find(MessageFramer.headerEnd, from: max(start, headerSearchStart)) else {
      headerSearchStart = max(start, buffer.count - MessageFramer.headerEnd.count + 1)
      if buffer.count - 3 - start > MessageFramer.maximumHeaderSize {
        resynchronize(from: start + 1)
        return .failure(.headerTooLong)
      }
      return nil
    }
    guard headerEnd - start <= MessageFramer.maximumHeaderSize else {
      resynchronize(from: start + 1)
      return .failure(.headerTooLong)
    }
    let length: Int
    switch contentLength(in: start..<headerEnd) {
    case .success(let number): length = number
    case .failure(let failure):
      start = headerEnd + 4
      return .failure(failure)
    case nil:
      // Garbage before a header: start again at the `Content-Length` inside the block, if any.
      if let marker = find(MessageFramer.marker, from: start + 1), marker < headerEnd {
        start = marker
      } else {
        start = headerEnd + 4
      }
      return .failure(.missingContentLength)
    }
    guard length <= MessageFramer.maximumBodySize else {
      start = headerEnd + 4
      return .failure(.bodyTooLarge(length))
    }
    return awaited((start: headerEnd + 4, length: length))
  }

  /// The body of `length` bytes at `start` once all of it has arrived; until then nil, and the
  /// body is awaited without reading its header again.
  private mutating func awaited(_ body: (start: Int, length: Int)) -> Result<[UInt8], Failure>? {
    guard buffer.count - body.start >= body.length else {
      awaitedBody = body
      return nil
    }
    awaitedBody = nil
    start = body.start + body.length
    return .success(Array(buffer[body.start..<start]))
  }

  /// The `Content-Length` of the header block at `range`: the last one given, a failure for the
  /// first that is not a decimal number, or nil when the block has none. Lines end at CR LF;
  /// a line's name is before its first colon, compared without case, and name and value are
  /// trimmed of spaces and tabs. Headers are ASCII, so the bytes are read as they are.
  private func contentLength(in range: Range<Int>) -> Result<Int, Failure>? {
    var length: Int?
    var lineStart = range.lowerBound
    while lineStart < range.upperBound {
      var lineEnd = lineStart
      while lineEnd < range.upperBound
        && !(buffer[lineEnd] == 13 && lineEnd + 1 < range.upperBound && buffer[lineEnd + 1] == 10)
      {
        lineEnd += 1
      }
      defer { lineStart = lineEnd + 2 }
      guard let colon = buffer[lineStart..<lineEnd].firstIndex(of: 58) else { continue }
      guard isContentLength(trimmingSpaces(lineStart..<colon)) else { continue }
      let value = trimmingSpaces((colon + 1)..<lineEnd)
      guard !value.isEmpty, value.count <= 12, buffer[value].allSatisfy({ $0 >= 48 && $0 <= 57 }),
        let number = Int(String(decoding: buffer[value], as: UTF8.self))
      else {
        return .failure(.invalidContentLength(String(decoding: buffer[value], as: UTF8.self)))
      }
      length = number
    }
    return length.map { .success($0) }
  }

  /// `range` without the spaces and tabs at its ends.
  private func trimmingSpaces(_ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper && (buffer[lower] == 32 || buffer[lower] == 9) { lower += 1 }
    while upper > lower && (buffer[upper - 1] == 32 || buffer[upper - 1] == 9) { upper -= 1 }
    return lower..<upper
  }

  /// Whether `name` in the buffer is `Content-Length`, in any case.
  private func isContentLength(_ name: Range<Int>) -> Bool {
    guard name.count == MessageFramer.contentLengthName.count else { return false }
    return zip(buffer[name], MessageFramer.contentLengthName).allSatisfy { byte, expected in
      (byte >= 65 && byte <= 90 ? byte + 32 : byte) == expected
    }
  }

  /// `body` with its header, ready to write.
  package static func frame(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
  }

  /// The start of the header that reading resumes at after one too long.
  private static let marker = Array("Content-Length:".utf8)
  /// The header that gives a body's length, in lower case.
  private static let contentLengthName = Array("content-length".utf8)
  /// The blank line that ends a header block.
  private static let headerEnd: [UInt8] = [13, 10, 13, 10]

  /// Skips to the next `Content-Length` header at or after `offset` (or to the end, keeping a
  /// tail that may be the start of one, and skipping on as bytes arrive until one does).
  private mutating func resynchronize(from offset: Int) {
    if let next = find(MessageFramer.marker, from: min(offset, buffer.count)) {
      start = next
    } else {
      start = max(min(offset, buffer.count), buffer.count - MessageFramer.marker.count + 1)
      isSkipping = true
    }
  }

  /// The offset of the first occurrence of `pattern` at or after `offset`.
  private func find(_ pattern: [UInt8], from offset: Int) -> Int? {
    guard !pattern.isEmpty, buffer.count >= pattern.count else { return nil }
    var index = offset
    while index + pattern.count <= buffer.count {
      if buffer[index] == pattern[0] && buffer[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
      index += 1
    }
    return nil
  }
}
