// Fuzz target `lsp`: the language server's message framing (MessageFramer in
// Sources/PolicyTools/LSP/MessageFramer.swift) and the server behind it (LanguageServer.receive,
// what LanguageServerLoop calls with each chunk read from standard input).
//
// The input is the raw byte stream a client sends: headers and bodies, possibly broken. A hash
// of it picks how the stream is cut into reads.
//
// Invariants (a violation calls `fuzzFail`):
// - the framer never crashes or loops: each message or failure it returns consumes input, and
//   the bytes it has not returned never grow except by what was appended;
// - every message it returns is the exact body after a header block (`\r\n\r\n`) in the input;
// - the messages do not depend on how the stream is cut: all at once, and in random reads, give
//   the same bodies in the same order;
// - a well-framed stream (the input cut into bodies, each framed with a correct Content-Length
//   and, picked by the hash, other headers, spacing and case) gives exactly its bodies, in order,
//   with no failure and nothing left over, however it is cut;
// - the server, fed the stream in reads until it exits, then asked for pending diagnostics,
//   ends and sends only JSON-RPC objects, each of which frames and reads back exactly.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore,
// ReviewPolicy and PolicyTools.
import Foundation

@testable import PolicyCore
@testable import PolicyTools
@testable import ReviewPolicy

/// A result of the framer with where its body lay: the offset just after it in the stream.
enum Framed: Equatable {
  case message([UInt8], end: Int)
  case failure(MessageFramer.Failure)
}

/// Feeds `stream` to a framer in pieces of the sizes `cuts` gives (all at once when nil) and reads
/// every result, checking that each consumes input.
func frame(_ stream: [UInt8], cuts: inout FuzzRandom?) -> (results: [Framed], pending: Int) {
  var framer = MessageFramer()
  var results: [Framed] = []
  var appended = 0
  while appended < stream.count || appended == 0 {
    var size = stream.count
    if var random = cuts {
      size = 1 + random.below(random.chance(20) ? 4096 : 48)
      cuts = random
    }
    let end = min(stream.count, appended + size)
    let before = framer.pendingByteCount
    framer.append(stream[appended..<end])
    if framer.pendingByteCount != before + (end - appended) { fuzzFail("appending bytes lost or added some") }
    appended = end
    var steps = 0
    while true {
      let pending = framer.pendingByteCount
      guard let next = framer.next() else {
        if framer.pendingByteCount > pending { fuzzFail("a framer that needs more bytes gained some") }
        break
      }
      steps += 1
      if framer.pendingByteCount >= pending {
        fuzzFail("a result consumed nothing (\(pending) bytes pending before, \(framer.pendingByteCount) after)")
      }
      if steps > stream.count + 1 { fuzzFail("the framer returns results without end") }
      switch next {
      case .success(let body): results.append(.message(body, end: appended - framer.pendingByteCount))
      case .failure(let failure):
        _ = failure.message
        results.append(.failure(failure))
      }
    }
    if stream.isEmpty { break }
  }
  if framer.pendingByteCount > stream.count { fuzzFail("more bytes pending than were appended") }
  return (results, framer.pendingByteCount)
}

func messages(_ results: [Framed]) -> [[UInt8]] {
  results.compactMap {
    if case .message(let body, _) = $0 { body } else { nil }
  }
}

let headerEnd: [UInt8] = [13, 10, 13, 10]

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let seed = fuzzSeed(bytes)

  // The stream as it is.
  var whole: FuzzRandom? = nil
  let (results, _) = frame(bytes, cuts: &whole)
  for result in results {
    guard case .message(let body, let end) = result else { continue }
    let start = end - body.count
    if start < 4 || end > bytes.count || Array(bytes[start..<end]) != body
      || Array(bytes[(start - 4)..<start]) != headerEnd
    {
      fuzzFail("a message of \(body.count) bytes ending at \(end) is not a body in the stream")
    }
  }
  var pieces: FuzzRandom? = FuzzRandom(state: seed)
  let (cut, _) = frame(bytes, cuts: &pieces)
  if messages(cut) != messages(results) {
    fuzzFail("the messages depend on how the stream is cut: \(messages(results).count) vs \(messages(cut).count)")
  }

  // A well-framed stream of bodies cut from the input.
  var random = FuzzRandom(state: seed ^ 0x9e37_79b9_7f4a_7c15)
  let bodies = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  var framed: [UInt8] = []
  for body in bodies {
    let length = String(body.count)
    let header: String
    switch random.below(6) {
    case 0: header = "Content-Length: \(length)\r\n\r\n"
    case 1: header = "content-length:\(length)\r\n\r\n"
    case 2: header = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: \(length)\r\n\r\n"
    case 3: header = "CONTENT-LENGTH:\t \(length) \t\r\nX-Other: 1\r\n\r\n"
    case 4: header = "Content-Length: 000\(length)\r\n\r\n"
    default: header = "Content-Length: \(length)\r\nContent-Type: a:b\r\n\r\n"
    }
    framed += Array(header.utf8) + body
  }
  for cutting in [false, true] {
    var cuts: FuzzRandom? = cutting ? FuzzRandom(state: seed &+ 1) : nil
    let (wellFramed, pending) = frame(framed, cuts: &cuts)
    if wellFramed.contains(where: { if case .failure = $0 { true } else { false } }) {
      fuzzFail(
        "a well-framed stream gave a failure: \(wellFramed.first { if case .failure = $0 { true } else { false } }!)")
    }
    if messages(wellFramed) != bodies || pending != 0 {
      fuzzFail(
        "a well-framed stream of \(bodies.count) bodies gave \(messages(wellFramed).count), \(pending) bytes left")
    }
  }

  // The server, fed the stream in reads as the loop feeds it, until it exits.
  var server = LanguageServer()
  var output: [String] = []
  var offset = 0
  var reads = FuzzRandom(state: seed &+ 2)
  while server.exitStatus == nil && offset < bytes.count {
    if server.hasPendingDiagnostics && reads.chance(30) { output += server.publishPendingDiagnostics() }
    let end = min(bytes.count, offset + 1 + reads.below(reads.chance(50) ? 64 : 4096))
    output += server.receive(bytes[offset..<end])
    offset = end
  }
  output += server.publishPendingDiagnostics()
  if server.hasPendingDiagnostics { fuzzFail("diagnostics pending after they were published") }
  for body in output {
    let source = SourceFile(path: "<output>", bytes: Array(body.utf8))
    guard case .success(let node) = JSONParser.parse(source), case .object = node.value else {
      fuzzFail("the server sent a body that is not a JSON object: \(body)")
    }
    if node["jsonrpc"]?.stringValue != "2.0" { fuzzFail("the server sent a body without jsonrpc 2.0: \(body)") }
    var reader = MessageFramer()
    reader.append(MessageFramer.frame(body))
    guard case .success(let read)? = reader.next(), read == Array(body.utf8), reader.pendingByteCount == 0 else {
      fuzzFail("a framed output message does not read back: \(body)")
    }
  }
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  let messages = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
    #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.policy","languageId":"policy","version":1,"text":"ask when dayz > 1\n"}}}"#,
    #"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///a.policy"},"position":{"line":0,"character":10}}}"#,
    #"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#,
    #"{"jsonrpc":"2.0","method":"exit"}"#,
  ]
  fuzzWarmUp(
    [String(decoding: messages.flatMap(MessageFramer.frame), as: UTF8.self), "Content-Length: x\r\n\r\ngarbage"], fuzz)
  return 0
}
