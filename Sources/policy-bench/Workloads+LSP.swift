import PolicyCore
import PolicyTools

extension Workloads {
  // MARK: - W6: the language server, one keystroke on a 1 MiB policy

  /// One keystroke in an open 1 MiB policy: an incremental `didChange` (a character typed in the
  /// middle), then the debounced diagnostics pass (compile, analyzer, publish) and a hover.
  func w6() throws -> BenchResult {
    var server = LanguageServer()
    let uri = "file:///bench/large.policy"
    let text = Workloads.largePolicy()
    let middle = text.utf8.count / 2
    let line = text.utf8.prefix(middle).filter { $0 == UInt8(ascii: "\n") }.count
    func send(_ body: String) -> [String] { server.receive(MessageFramer.frame(body)) }
    _ = send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
    _ = send(
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"policy","version":1,"text":\#(JSONWriter.quoted(text))}}}"#
    )
    let opened = server.publishPendingDiagnostics()
    guard opened.count == 1, !opened[0].contains(#""severity":1"#) else {
      throw BenchError.disagreement("the large policy has errors in the language server")
    }
    var version = 1
    let nanoseconds = Measure.nanosecondsPerCall(samples: max(3, samples / 3), batch: 1) { index in
      version += 1
      // Type a space at the start of a line in the middle, then (next keystroke) delete it.
      let change =
        index % 2 == 0
        ? #"{"range":{"start":{"line":\#(line),"character":0},"end":{"line":\#(line),"character":0}},"text":" "}"#
        : #"{"range":{"start":{"line":\#(line),"character":0},"end":{"line":\#(line),"character":1}},"text":""}"#
      _ = send(
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[\#(change)]}}"#
      )
      sink.consume(server.publishPendingDiagnostics().count == 1)
      sink.consume(
        !send(
          #"{"jsonrpc":"2.0","id":\#(version),"method":"textDocument/hover","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":\#(line),"character":20}}}"#
        ).isEmpty)
    }
    let milliseconds = nanoseconds / 1e6
    return BenchResult(
      name: "W6 LSP keystroke, 1 MiB policy", value: milliseconds, unit: "ms/keystroke",
      baseline: nil, target: "<= 1000 ms", met: milliseconds <= 1000, allocations: nil)
  }
}
