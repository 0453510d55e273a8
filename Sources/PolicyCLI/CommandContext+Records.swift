import PolicyTools
import ReviewPolicy

extension CommandContext {
  /// The arguments from `index` up to the next option (`-`, standard input, is not one), for an
  /// option that takes a list (`--records a.jsonl b.jsonl`); `index` moves past them.
  static func operands(of arguments: [String], from index: inout Int) -> [String] {
    var operands: [String] = []
    while index < arguments.count, arguments[index] == "-" || !arguments[index].hasPrefix("-") {
      operands.append(arguments[index])
      index += 1
    }
    return operands
  }

  /// Streams the records of `files` (`-`: standard input) into `body`, in order, reporting each
  /// line that is not a record (PC411, at most ``RecordFileReader``'s limit per file, then a
  /// count) and each file that cannot be read on standard error.
  ///
  /// - Returns: The lines and records read, and whether a file could not be read.
  func readRecords(_ files: [String], _ body: (ReviewRecord) -> Void) -> (
    summary: RecordFileReader.Summary, failed: Bool
  ) {
    var summary = RecordFileReader.Summary()
    var failed = false
    for path in files {
      var reader = RecordFileReader(path: path == "-" ? "<stdin>" : path)
      do {
        try io.streamFile(path, chunkSize: 1 << 20) { chunk in reader.feed(chunk, body) }
      } catch {
        self.error("cannot read `\(path)`: \(error.reason)")
        failed = true
        continue
      }
      reader.finish(body)
      let part = reader.summary
      summary.lines += part.lines
      summary.records += part.records
      summary.problems += part.problems
      for problem in part.reported { io.write(problem, to: .standardError) }
      if part.problems > part.reported.count {
        self.error("\(part.problems - part.reported.count) more lines of `\(path)` are not records")
      }
    }
    return (summary, failed)
  }
}
