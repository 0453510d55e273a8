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
