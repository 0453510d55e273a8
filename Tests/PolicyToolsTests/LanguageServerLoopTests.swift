import Foundation
import PolicyCore
import PolicyTools
import Testing

@testable import PolicyCLI

@Suite("language server loop and policyc lsp")
struct LanguageServerLoopTests {
  /// Runs the loop over pipes holding `input`; returns the exit status and everything written.
  func serve(_ input: [UInt8]) -> (status: Int32, output: String) {
    let inbound = Pipe()
    let outbound = Pipe()
    inbound.fileHandleForWriting.write(Data(input))
    try? inbound.fileHandleForWriting.close()
    var loop = LanguageServerLoop(
      server: LanguageServer(), input: inbound.fileHandleForReading.fileDescriptor,
      output: outbound.fileHandleForWriting.fileDescriptor)
    let status = loop.run()
    try? outbound.fileHandleForWriting.close()
    let output = outbound.fileHandleForReading.readDataToEndOfFile()
    return (status, String(decoding: output, as: UTF8.self))
  }

  @Test("a session over real file descriptors: diagnostics are published, shutdown then exit is status 0")
  func session() {
    let messages = [
      #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.policy","languageId":"policy","version":1,"text":"ask when dayz > 1\n"}}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
      #"{"jsonrpc":"2.0","method":"exit"}"#,
    ]
    let (status, output) = serve(messages.flatMap(MessageFramer.frame))
    #expect(status == 0)
    #expect(output.contains(#""id":1,"result":{"capabilities""#))
    #expect(output.contains(#""method":"textDocument/publishDiagnostics""#))
    #expect(output.contains(#""code":"PC201""#))
    #expect(output.hasPrefix("Content-Length: "))
  }

  @Test("with the input still open: stage 1 as soon as no input waits, stage 2 after the pause")
  func stages() throws {
    let inbound = Pipe()
    let outbound = Pipe()
    let input = inbound.fileHandleForReading.fileDescriptor
    let output = outbound.fileHandleForWriting.fileDescriptor
    let done = DispatchSemaphore(value: 0)
    // Every check after the first is split, as for a slow policy.
    let server = LanguageServer(fullDiagnosticsAtOnceBudget: .zero)
    Thread {
      var loop = LanguageServerLoop(server: server, input: input, output: output)
      _ = loop.run()
      done.signal()
    }.start()
    var reader = MessageReader(descriptor: outbound.fileHandleForReading.fileDescriptor)
    func send(_ body: String) { inbound.fileHandleForWriting.write(Data(MessageFramer.frame(body))) }
    let uri = LanguageServerStagesTests.uri
    send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
    send(
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"policy","version":1,"text":\#(JSONWriter.quoted(LanguageServerStagesTests.policy))}}}"#
    )
    #expect(try reader.publication(version: 1)?.codes == ["PC313", "PC314"])
    let sent = ContinuousClock.now
    send(
      #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":2},"contentChanges":[{"range":{"start":{"line":4,"character":17},"end":{"line":4,"character":19}},"text":"21"}]}}"#
    )
    #expect(try reader.publication(version: 2)?.codes == ["PC313"])
    #expect(try reader.publication(version: 2)?.codes == ["PC313", "PC314"])
    let pause = ContinuousClock.now - sent
    #expect(pause >= .milliseconds(LanguageServer.fullDiagnosticsPauseMilliseconds), "stage 2 after \(pause)")
    send(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
    send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    #expect(done.wait(timeout: .now() + 30) == .success)
  }

  @Test("input that ends without exit, or garbage, is status 1 and no crash")
  func endOfInput() {
    #expect(serve(Array("garbage\r\n\r\n".utf8) + [0xFF, 0x00]).status == 1)
    let exitOnly = serve(MessageFramer.frame(#"{"jsonrpc":"2.0","method":"exit"}"#))
    #expect(exitOnly.status == 1)
  }

  @Test("policyc lsp: help, and operands are a usage error")
  func command() {
    let io = CapturingIO()
    #expect(PolicyCLI.run(["lsp", "--help"], io: io) == PolicyCLI.success)
    #expect(io.output.contains("Language Server Protocol"))
    let usage = CapturingIO()
    #expect(PolicyCLI.run(["lsp", "file.policy"], io: usage) == PolicyCLI.usageError)
    #expect(usage.errors.hasPrefix("policyc lsp: error: `lsp` takes no files"))
  }
}

/// Reads framed messages from a file descriptor, each within 30 seconds.
struct MessageReader {
  let descriptor: Int32
  var framer = MessageFramer()

  /// A message that did not arrive.
  struct Timeout: Error {}

  /// The next `publishDiagnostics` (of any URI), skipping other messages; nil at the end of the output.
  mutating func publication(version: Int) throws -> Publication? {
    while let body = try next() {
      guard let message = try? JSONParser.parse(SourceFile(path: "reply", bytes: body)).get(),
        message["method"]?.stringValue == "textDocument/publishDiagnostics", let params = message["params"]
      else { continue }
      let codes = (params["diagnostics"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
      #expect(params["version"]?.intValue == version)
      return Publication(uri: params["uri"]?.stringValue ?? "", version: params["version"]?.intValue, codes: codes)
    }
    return nil
  }

  /// The next message body; nil at the end of the output.
  mutating func next() throws -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if case .success(let body)? = framer.next() { return body }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 30_000) > 0 else { throw Timeout() }
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return nil }
      framer.append(chunk[0..<count])
    }
  }
}
