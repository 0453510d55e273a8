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
/// One thread. After each read, `poll` with no timeout asks whether more input is waiting: while
/// it is, it is read first (a burst of changes is checked once); once none is, stage 1
/// (``LanguageServer/publishFastDiagnostics()``) publishes at once. Stage 2
/// (``LanguageServer/publishFullDiagnostics()``) waits until no input came for
/// ``LanguageServer/fullDiagnosticsPauseMilliseconds``, counted from the last read.
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
    var lastRead = Self.milliseconds()
    while server.exitStatus == nil {
      // How long to wait for input before publishing; nil: no diagnostics to publish, wait for input.
      var timeout: Int?
      if server.hasPendingDiagnostics {
        timeout = 0
      } else if server.hasPendingFullDiagnostics {
        timeout = max(0, LanguageServer.fullDiagnosticsPauseMilliseconds - (Self.milliseconds() - lastRead))
      }
      if let timeout {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout))
        if ready == 0 {
          send(server.hasPendingDiagnostics ? server.publishFastDiagnostics() : server.publishFullDiagnostics())
          // Freed once the diagnostics are out, not before (a 1 MiB policy's takes tens of ms).
          server.freeDiscardedAnalyses()
          continue
        }
        if ready < 0 && errno != EINTR { break }
        if ready < 0 { continue }
      }
      let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      lastRead = Self.milliseconds()
      send(server.receive(chunk[0..<count]))
    }
    send(server.publishPendingDiagnostics())
    return server.exitStatus ?? 1
  }

  /// Milliseconds on a monotonic clock.
  private static func milliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
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
