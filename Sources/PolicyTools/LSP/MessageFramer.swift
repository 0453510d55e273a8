/// The base protocol of the Language Server Protocol: messages framed by a `Content-Length`
/// header, read from a byte stream that may arrive in any pieces and may be broken.
///
/// Feed bytes with ``append(_:)``, then call ``next()`` until it returns nil. A broken header
/// (no `Content-Length`, a length that is not a number or is over ``maximumBodySize``, a header
/// over ``maximumHeaderSize``) is reported once as a ``Failure`` and skipped: reading resumes
/// after its header block (a line before a `Content-Length:` in a block without one is garbage
/// before a header: reading resumes at that `Content-Length:`), or, after a block too long to
/// end, at the next `Content-Length:` in the stream. What is read never depends on how the
/// stream is cut into pieces.
public struct MessageFramer: Sendable {
  /// The largest message body accepted: a policy at the file size limit, escaped, with room to spare.
  public static let maximumBodySize = 16 << 20
  /// The longest header block accepted.
  public static let maximumHeaderSize = 4096

  /// Why bytes could not be read as a message.
  public enum Failure: Error, Sendable, Hashable {
    /// The header block has no `Content-Length`.
    case missingContentLength
    /// The `Content-Length` is not a decimal number.
    case invalidContentLength(String)
    /// The body is larger than ``MessageFramer/maximumBodySize``.
    case bodyTooLarge(Int)
    /// The header block is longer than ``MessageFramer/maximumHeaderSize`` without ending.
    case headerTooLong

    /// The explanation, for a JSON-RPC error or a log line.
    public var message: String {
      switch self {
      case .missingContentLength: "message header has no Content-Length"
      case .invalidContentLength(let text): "Content-Length `\(text)` is not a number"
      case .bodyTooLarge(let size):
        "message body of \(size) bytes is over the limit of \(MessageFramer.maximumBodySize)"
      case .headerTooLong: "message header is longer than \(MessageFramer.maximumHeaderSize) bytes"
      }
    }
  }

  private var buffer: [UInt8] = []
  private var start = 0
  /// Whether a broken header is being skipped and the next `Content-Length:` has not arrived yet.
  private var isSkipping = false

  /// Creates an empty framer.
  public init() {}

  /// Adds bytes read from the stream.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The number of bytes received and not yet returned as a message.
  public var pendingByteCount: Int { buffer.count - start }

  /// The next complete message body, a failure for a broken header, or nil when more bytes are needed.
  public mutating func next() -> Result<[UInt8], Failure>? {
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
    guard let headerEnd = find([13, 10, 13, 10], from: start) else {
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
    let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
    var length: Int?
    for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingSpaces().lowercased()
      guard name == "content-length" else { continue }
      let value = String(line[line.index(after: colon)...].trimmingSpaces())
      guard !value.isEmpty, value.count <= 12, value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(value)
      else {
        start = headerEnd + 4
        return .failure(.invalidContentLength(value))
      }
      length = number
    }
    guard let length else {
      // Garbage before a header: start again at the `Content-Length` inside the block, if any.
      if let marker = find(MessageFramer.marker, from: start + 1), marker < headerEnd {
        start = marker
        return .failure(.missingContentLength)
      }
      start = headerEnd + 4
      return .failure(.missingContentLength)
    }
    guard length <= MessageFramer.maximumBodySize else {
      start = headerEnd + 4
      return .failure(.bodyTooLarge(length))
    }
    let bodyStart = headerEnd + 4
    guard buffer.count - bodyStart >= length else { return nil }
    let body = Array(buffer[bodyStart..<(bodyStart + length)])
    start = bodyStart + length
    return .success(body)
  }

  /// `body` with its header, ready to write.
  public static func frame(_ body: String) -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
  }

  /// The start of the header that reading resumes at after one too long.
  private static let marker = Array("Content-Length:".utf8)

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

extension Substring {
  /// The text without leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> Substring {
    var text = self
    while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
    while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
    return text
  }
}
