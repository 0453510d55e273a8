#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a ``LanguageServer`` over two file descriptors (standard input and output for
/// `policyc lsp`) until the client sends `exit` or closes its end.
///
/// One thread: `poll` waits for input, and when a document changed it waits at most
/// ``LanguageServer/debounceMilliseconds``; a pause that long publishes the diagnostics.
public struct LanguageServerLoop {
  /// The server.
  public var server: LanguageServer
  private let input: Int32
  private let output: Int32

  /// A loop reading `input` and writing `output`.
  public init(server: LanguageServer, input: Int32 = 0, output: Int32 = 1) {
    self.server = server
    self.input = input
    self.output = output
  }

  /// Serves until `exit` or end of input; returns the exit status (0 after `shutdown` then `exit`).
  public mutating func run() -> Int32 {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while server.exitStatus == nil {
      if server.hasPendingDiagnostics {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(LanguageServer.debounceMilliseconds))
        if ready == 0 {
          send(server.publishPendingDiagnostics())
          continue
        }
        if ready < 0 && errno != EINTR { break }
        if ready < 0 { continue }
      }
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      send(server.receive(chunk[0..<count]))
    }
    send(server.publishPendingDiagnostics())
    return server.exitStatus ?? 1
  }

  private func send(_ bodies: [String]) {
    for body in bodies {
      let bytes = MessageFramer.frame(body)
      var written = 0
      while written < bytes.count {
        let result = bytes[written...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { return }
        written += result
      }
    }
  }
}
