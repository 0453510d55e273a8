import Foundation
import PolicyCore
import PolicyTools

extension Workloads {
  // MARK: - W6: the language server, from a keystroke to the diagnostics, as a client sees it

  /// One keystroke at a time in an open policy, in the real `policyc lsp` (the one beside the
  /// benchmark) over pipes: an incremental `didChange` (a space typed at the start of a line in
  /// the middle, deleted by the next keystroke), timed until the `publishDiagnostics` of that
  /// version arrives. For a typical policy (about 200 lines) and a 1 MiB one, where the first
  /// publication has the compiler's diagnostics, and, for the 1 MiB one, until the full
  /// diagnostics (analyzer included) that follow once the client pauses.
  func w6() throws -> [BenchResult] {
    let policyc = try LSPClientProcess.policyc()
    let typical = try Workloads.typicalPolicy(examples: examples)
    let small = try keystrokes(policyc, text: typical, waitForFull: false)
    let large = try keystrokes(policyc, text: Workloads.largePolicy() + Workloads.largePolicyTail, waitForFull: false)
    let full = try keystrokes(policyc, text: Workloads.largePolicy() + Workloads.largePolicyTail, waitForFull: true)
    return [
      BenchResult(
        name: "W6 LSP keystroke → diagnostics, 200-line policy", value: small, unit: "ms", baseline: nil,
        target: "<= 30 ms", met: small <= 30, allocations: nil),
      BenchResult(
        name: "W6 LSP keystroke → diagnostics, 1 MiB policy", value: large, unit: "ms", baseline: nil,
        target: "<= 60 ms", met: large <= 60, allocations: nil),
      BenchResult(
        name: "W6 LSP keystroke → full analysis, 1 MiB policy", value: full, unit: "ms", baseline: nil,
        target: "<= 1000 ms", met: full <= 1000, allocations: nil),
    ]
  }

  /// How often the benchmark types: a keystroke every 200 ms (60 words a minute), or as soon
  /// as the previous one's diagnostics arrive when they take longer.
  static let typingIntervalNanoseconds: UInt64 = 200_000_000

  /// A warning only the analyzer finds (PC313), after the middle of the 1 MiB policy: a keystroke
  /// in the middle leaves it out of the first publication, and the full one brings it back.
  static let largePolicyTail = "ask late when days > 5  # policyc: allow PC999\n"

  /// A typical policy of about 200 lines (195): `Examples/review.policy` six times, its `let`s
  /// and rules renamed in each copy (`engaged_2`), its `fact` and `event` declarations once.
  static func typicalPolicy(examples: URL) throws -> String {
    let review = try String(contentsOf: examples.appendingPathComponent("review.policy"), encoding: .utf8)
    let lines = review.split(separator: "\n", omittingEmptySubsequences: false)
    // The names the copies declare: the word after `let`, `never` and `ask` when a name follows.
    var names: Set<Substring> = []
    for line in lines {
      let words = line.split(separator: " ")
      if words.count > 2, ["let", "never", "ask"].contains(words[0]), words[1] != "when" { names.insert(words[1]) }
    }
    var text = ""
    for copy in 0..<6 {
      for line in lines where copy == 0 || !(line.hasPrefix("fact ") || line.hasPrefix("event ")) {
        text += Workloads.renaming(line, names, suffix: "_\(copy)") + "\n"
      }
    }
    return text
  }

  /// `line` with every word in `names` followed by `suffix`.
  static func renaming(_ line: Substring, _ names: Set<Substring>, suffix: String) -> String {
    var result = ""
    var word = ""
    for character in line {
      if character.isLetter || character.isNumber || character == "_" {
        word.append(character)
        continue
      }
      result += names.contains(Substring(word)) ? word + suffix : word
      word = ""
      result.append(character)
    }
    return result + (names.contains(Substring(word)) ? word + suffix : word)
  }

  /// The median milliseconds from sending a keystroke in `text`, open in a new `policyc lsp`, to
  /// the first `publishDiagnostics` of its version, or with `waitForFull` to the second (the full
  /// diagnostics, after the pause the server waits for).
  func keystrokes(_ policyc: URL, text: String, waitForFull: Bool) throws -> Double {
    let client = try LSPClientProcess(executable: policyc)
    let uri = "file:///bench/w6.policy"
    try client.send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
    _ = try client.response(to: 1)
    try client.send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    try client.send(
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"policy","version":1,"text":\#(JSONWriter.quoted(text))}}}"#
    )
    // The first check of a document publishes everything at once.
    let published = try client.diagnostics(of: uri, version: 1)
    guard !published.contains(where: { $0["severity"]?.intValue == 1 }) else {
      throw BenchError.disagreement("W6: the policy has errors in the language server")
    }
    let middle = text.utf8.prefix(text.utf8.count / 2).filter { $0 == UInt8(ascii: "\n") }.count
    var version = 1
    var milliseconds: [Double] = []
    var last: UInt64 = 0
    let warmUp = 2
    let count = waitForFull ? max(3, samples / 3) : max(5, samples)
    for index in 0..<(warmUp + count) {
      version += 1
      let change =
        index % 2 == 0
        ? #"{"range":{"start":{"line":\#(middle),"character":0},"end":{"line":\#(middle),"character":0}},"text":" "}"#
        : #"{"range":{"start":{"line":\#(middle),"character":0},"end":{"line":\#(middle),"character":1}},"text":""}"#
      // A steady typist: the next keystroke once the interval has passed since the last one.
      while Measure.now() < last + Workloads.typingIntervalNanoseconds { usleep(500) }
      let start = Measure.now()
      last = start
      try client.send(
        #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"\#(uri)","version":\#(version)},"contentChanges":[\#(change)]}}"#
      )
      var diagnostics = try client.diagnostics(of: uri, version: version)
      if waitForFull {
        diagnostics = try client.diagnostics(of: uri, version: version)
        guard diagnostics.contains(where: { $0["code"]?.stringValue == "PC316" }) else {
          throw BenchError.disagreement("W6: the full diagnostics lack the analyzer's PC313")
        }
      }
      if index >= warmUp { milliseconds.append(Double(Measure.now() - start) / 1e6) }
    }
    try client.close()
    return Measure.median(milliseconds)
  }
}
