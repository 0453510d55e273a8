import Foundation
import PolicyCore
import PolicyTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `policyc lsp` process driven over pipes, as an editor drives it: framed JSON-RPC written to
/// its standard input, messages read back from its standard output as they arrive.
final class LSPClientProcess {
  private let process = Process()
  private let toServer = Pipe()
  private let fromServer = Pipe()
  private var framer = MessageFramer()
  private var chunk = [UInt8](repeating: 0, count: 65_536)

  /// Starts `policyc lsp` from `executable`.
  init(executable: URL) throws {
    signal(SIGPIPE, SIG_IGN)
    process.executableURL = executable
    process.arguments = ["lsp"]
    process.standardInput = toServer
    process.standardOutput = fromServer
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// The `policyc` beside the running benchmark (both are built into `.build/release`).
  static func policyc() throws -> URL {
    let benchmark =
      Bundle.main.executableURL
      ?? URL(
        fileURLWithPath: CommandLine.arguments[0],
        relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    let url = benchmark.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("policyc")
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw BenchError.missing(
        "W6 runs the real `policyc lsp`, and there is no policyc beside policy-bench (\(url.path)):"
          + " build it first, `swift build -c release --product policyc`")
    }
    return url
  }

  /// Writes one message (`body` framed).
  func send(_ body: String) throws {
    let bytes = MessageFramer.frame(body)
    let descriptor = toServer.fileHandleForWriting.fileDescriptor
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else { throw BenchError.disagreement("W6: cannot write to policyc lsp (errno \(errno))") }
      written += result
    }
  }

  /// The next message from the server, waiting at most `seconds`.
  func next(within seconds: Double = 30) throws -> JSONNode {
    let deadline = Measure.now() + UInt64(seconds * 1e9)
    let descriptor = fromServer.fileHandleForReading.fileDescriptor
    while true {
      switch framer.next() {
      case .success(let body)?:
        guard case .success(let node) = JSONParser.parse(SourceFile(path: "<message>", bytes: body)) else {
          throw BenchError.disagreement("W6: policyc lsp sent a body that is not JSON")
        }
        return node
      case .failure(let failure)?:
        throw BenchError.disagreement("W6: policyc lsp sent a broken message: \(failure.message)")
      case nil:
        let now = Measure.now()
        guard now < deadline else { throw BenchError.disagreement("W6: no answer from policyc lsp in \(seconds) s") }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32((deadline - now) / 1_000_000) + 1) > 0 else { continue }
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw BenchError.disagreement("W6: policyc lsp closed its output") }
        framer.append(chunk[0..<count])
      }
    }
  }

  /// Reads messages until the answer to request `id`.
  func response(to id: Int) throws -> JSONNode {
    while true {
      let message = try next()
      if message["id"]?.intValue == id { return message }
    }
  }

  /// Reads messages until a `publishDiagnostics` of `uri` at `version`; returns its diagnostics.
  func diagnostics(of uri: String, version: Int) throws -> [JSONNode] {
    while true {
      let message = try next()
      guard message["method"]?.stringValue == "textDocument/publishDiagnostics", let params = message["params"],
        params["uri"]?.stringValue == uri, params["version"]?.intValue == version
      else { continue }
      return params["diagnostics"]?.arrayValue ?? []
    }
  }

  /// Sends `shutdown` and `exit`, and waits for the process to end.
  func close() throws {
    try send(#"{"jsonrpc":"2.0","id":999999,"method":"shutdown"}"#)
    _ = try response(to: 999_999)
    try send(#"{"jsonrpc":"2.0","method":"exit"}"#)
    process.waitUntilExit()
  }
}
