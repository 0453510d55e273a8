import PolicyCore
import Testing

@testable import PolicyTools

/// Inputs found while fuzzing the framing and the server (Fuzz/lsp.swift); each also lies in
/// Fuzz/regressions/lsp, which Fuzz/ci.sh replays.
@Suite("language server: fuzz regressions")
struct LanguageServerFuzzRegressionTests {
  /// Reads `stream` fed in pieces of `size` bytes; returns the messages and failures in order.
  func read(_ stream: [UInt8], in size: Int) -> [Result<[UInt8], MessageFramer.Failure>] {
    var framer = MessageFramer()
    var results: [Result<[UInt8], MessageFramer.Failure>] = []
    var offset = 0
    while offset < stream.count {
      framer.append(stream[offset..<min(stream.count, offset + size)])
      offset += size
      while let next = framer.next() { results.append(next) }
    }
    return results
  }

  @Test("a header block over the limit is refused whether it arrives at once or in pieces")
  func longHeaderBlock() {
    let long = Array(("Content-Length: 2\r\nX-Padding: " + String(repeating: "x", count: 4100) + "\r\n\r\n{}").utf8)
    for size in [long.count, 4096, 1000, 7] {
      let results = read(long, in: size)
      #expect(results.first == .failure(.headerTooLong), "read in pieces of \(size)")
      #expect(!results.contains { if case .success = $0 { true } else { false } }, "read in pieces of \(size)")
    }
    // A header block at the limit is read, at once or in pieces.
    let padding = MessageFramer.maximumHeaderSize - "Content-Length: 2\r\nX-Padding: ".utf8.count
    let atLimit = Array(
      ("Content-Length: 2\r\nX-Padding: " + String(repeating: "x", count: padding) + "\r\n\r\n{}").utf8)
    for size in [atLimit.count, 4096, 1000, 7, 1] {
      #expect(read(atLimit, in: size) == [.success(Array("{}".utf8))], "read in pieces of \(size)")
    }
  }

  @Test("after a broken header, reading resumes after its block however the stream is cut")
  func resynchronizeInPieces() {
    // A block without Content-Length, then one whose first line is garbage ending in a broken
    // `Content-Length: x` (a line like any unknown header): its `Content-Length: 2` frames `{}`.
    // Read at once, the reader used to skip to that `Content-Length: x`, refuse the block and lose
    // `{}`; in pieces it read `{}`.
    let stream = Array(
      ("X: 1\r\n\r\n" + String(repeating: "y", count: 60) + "}Content-Length: x\r\nContent-Length: 2\r\n\r\n{}").utf8)
    let expected: [Result<[UInt8], MessageFramer.Failure>] = [
      .failure(.missingContentLength), .success(Array("{}".utf8)),
    ]
    for size in [stream.count, 48, 20, 7, 1] {
      #expect(read(stream, in: size) == expected, "read in pieces of \(size)")
    }
    // A message after the skipped block is read, in any pieces.
    let next = stream + MessageFramer.frame("{}")
    for size in [next.count, 48, 7, 1] {
      #expect(read(next, in: size) == expected + [.success(Array("{}".utf8))], "read in pieces of \(size)")
    }
  }

  @Test("a change without a version to a document at the largest version keeps that version, no overflow")
  func changeAtLargestVersion() {
    var server = LanguageServer()
    let messages = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.policy","#
        + #""languageId":"policy","version":9223372036854775807,"text":"ask when days > 1\n"}}}"#,
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.policy"},"#
        + #""contentChanges":[{"text":"never x when rated\n"}]}}"#,
    ]
    let replies = server.receive(messages.flatMap(MessageFramer.frame))
    #expect(replies.count == 1)
    #expect(server.documents["file:///a.policy"]?.version == Int.max)
    #expect(server.documents["file:///a.policy"]?.source.bytes == Array("never x when rated\n".utf8))
  }
}
