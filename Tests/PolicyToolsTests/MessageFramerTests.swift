import PolicyCore
import Testing

@testable import PolicyTools

/// The LSP base protocol's framing: headers read from bytes, bodies awaited across reads, and
/// the same messages however the stream is cut.
@Suite("language server: message framing")
struct MessageFramerTests {
  typealias Read = Result<[UInt8], MessageFramer.Failure>

  /// Reads `stream` fed in pieces of the sizes `sizes` gives in turn; the results in order and the
  /// bytes left pending.
  func read(_ stream: [UInt8], sizes: [Int]) -> (results: [Read], pending: Int) {
    var framer = MessageFramer()
    var results: [Read] = []
    var offset = 0
    var turn = 0
    repeat {
      let end = min(stream.count, offset + sizes[turn % sizes.count])
      framer.append(stream[offset..<end])
      offset = end
      turn += 1
      while let next = framer.next() { results.append(next) }
    } while offset < stream.count
    return (results, framer.pendingByteCount)
  }

  func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// Checks that `stream`, read in pieces of each of `pieceSizes`, gives `expected` and leaves no
  /// bytes pending.
  func expectReads(
    _ stream: [UInt8], _ expected: [Read], pieceSizes: [Int], sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    for size in pieceSizes {
      let (results, pending) = read(stream, sizes: [size])
      #expect(results == expected, "read in pieces of \(size)", sourceLocation: sourceLocation)
      #expect(pending == 0, sourceLocation: sourceLocation)
    }
  }

  @Test("Content-Length in any case, with spaces and tabs, among other headers; the last one counts")
  func headerSpellings() {
    let stream = bytes(
      "content-LENGTH:\t 2 \t\r\n\r\n{}" + "Content-Type: a:b\r\nContent-Length:3\r\n\r\nabc"
        + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nxy" + "Content-Length: 0002\r\n\r\nzz"
        + "Content-Length :1\r\n\r\n!")
    let expected: [Read] = [
      .success(bytes("{}")), .success(bytes("abc")), .success(bytes("xy")), .success(bytes("zz")), .success(bytes("!")),
    ]
    expectReads(stream, expected, pieceSizes: [stream.count, 5, 1])
  }

  @Test("a broken header is one failure and reading goes on after its block")
  func brokenHeaders() {
    let stream = bytes(
      "Content-Length: x1\r\n\r\n" + "Content-Length: 1\r\nContent-Length: -3\r\n\r\n" + "X-Only: 1\r\n\r\n"
        + "Content-Length: 1234567890123\r\n\r\n" + "Content-Length: 99999999\r\n\r\n" + "Content-Length: 2\r\n\r\nok")
    let expected: [Read] = [
      .failure(.invalidContentLength("x1")), .failure(.invalidContentLength("-3")), .failure(.missingContentLength),
      .failure(.invalidContentLength("1234567890123")), .failure(.bodyTooLarge(99_999_999)),
      .success(bytes("ok")),
    ]
    expectReads(stream, expected, pieceSizes: [stream.count, 9, 1])
  }

  @Test("a body arriving in many reads is returned once, whole, and the next message follows")
  func bodyInPieces() {
    let body = bytes(String(repeating: "0123456789", count: 5_000))
    let stream = MessageFramer.frame(String(decoding: body, as: UTF8.self)) + MessageFramer.frame("{}")
    for sizes in [[1], [3, 4_096, 17], [stream.count]] {
      let (results, pending) = read(stream, sizes: sizes)
      #expect(results == [.success(body), .success(bytes("{}"))], "read in pieces of \(sizes)")
      #expect(pending == 0)
    }
  }

  @Test("random streams give the same messages and failures read at once and in random pieces")
  func cutIndependence() {
    var random = SeededGenerator(seed: 0x5eed_f4a3)
    let pieces = [
      "Content-Length: 2\r\n\r\n{}", "content-length:\t3 \r\n\r\nabc", "Content-Length: x\r\n\r\n", "garbage\r\n",
      "\r\n\r\n", "Content-Type: a\r\nContent-Length: 1\r\n\r\nz", "Content-Length: 99999999999999\r\n\r\n", "\r",
      "\n", ":", " ", "Content-Length:", "5", "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      String(repeating: "h", count: 1_000),
    ].map(bytes)
    var streams = 0
    for _ in 0..<2_000 {
      var stream: [UInt8] = []
      for _ in 0..<(1 + random.below(12)) {
        stream += pieces[random.below(pieces.count)]
        if random.below(2) == 0 { stream.append(UInt8(truncatingIfNeeded: random.next())) }
      }
      let whole = read(stream, sizes: [stream.count])
      let sizes = (0..<5).map { _ in 1 + random.below(random.below(4) == 0 ? 4_096 : 48) }
      let cut = read(stream, sizes: sizes)
      #expect(cut.results == whole.results, "\(String(decoding: stream, as: UTF8.self).debugDescription) in \(sizes)")
      #expect(cut.pending == whole.pending)
      streams += 1
    }
    #expect(streams == 2_000)
  }
}

extension SeededGenerator {
  /// A number in `0..<bound` for the property test (the remainder of the next draw).
  fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
