import Foundation
import PolicyCore
import ReviewPolicy

/// Reads a records file (JSON Lines, docs/records.md) as a stream: each record goes to a
/// closure as its line is read, so memory holds one chunk and one line, never the file.
///
/// A line that is not a record is counted and reported as a located `PC411` error, never
/// dropped in silence; the first ``maximumReportedProblems`` are kept rendered. Blank lines are
/// skipped; a line ending in `\r\n` reads like one ending in `\n`; the last line may lack its
/// newline. A line longer than ``maximumLineBytes`` is a problem, skipped without being held.
package struct RecordFileReader {
  /// The longest line read (a record is far shorter).
  package static let maximumLineBytes = 64 * 1024
  /// The problems kept rendered; later ones are only counted.
  package static let maximumReportedProblems = 20

  /// What a read found.
  package struct Summary: Sendable, Hashable {
    /// Nothing read yet.
    package init() {}
    /// Lines read, blank ones included.
    package var lines = 0
    /// Records read.
    package var records = 0
    /// Lines that are not records.
    package var problems = 0
    /// The first problems, rendered as compilers print them (`PATH:LINE:COL: error: ...`).
    package var reported: [String] = []
  }

  /// The path shown in messages.
  let path: String
  /// The bytes read at a time.
  let chunkSize: Int
  /// The summary so far.
  package private(set) var summary = Summary()
  /// The line being assembled across chunks.
  private var pending: [UInt8] = []
  /// The last install and policy strings read, reused while they recur.
  private var recent = RecordReader.RecentStrings()
  /// Whether the current line passed ``maximumLineBytes`` (the rest of it is skipped).
  private var overlong = false
  /// The length of an overlong line so far.
  private var overlongBytes = 0
  /// The first bytes of an overlong line, for its message.
  private var overlongHead: [UInt8] = []
  /// How many bytes of an overlong line its message shows.
  static let shownBytes = 256

  /// A reader of the file shown as `path` that reads `chunkSize` bytes at a time.
  package init(path: String, chunkSize: Int = 1 << 20) {
    self.path = path
    self.chunkSize = max(1, chunkSize)
  }

  /// Reads the file at `path`, giving each record to `body`.
  /// - Throws: When the file cannot be opened or read.
  package static func read(path: String, chunkSize: Int = 1 << 20, _ body: (ReviewRecord) -> Void) throws
    -> Summary
  {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    var reader = RecordFileReader(path: path, chunkSize: chunkSize)
    while true {
      guard let data = try handle.read(upToCount: reader.chunkSize), !data.isEmpty else { break }
      data.withUnsafeBytes { raw in reader.feed(raw.bindMemory(to: UInt8.self), body) }
    }
    reader.finish(body)
    return reader.summary
  }

  /// Reads `bytes`, the next part of the file.
  package mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (ReviewRecord) -> Void) {
    guard let base = bytes.baseAddress else { return }
    var start = 0
    while start < bytes.count {
      // The next newline, found by the C library's scan.
      guard let found = memchr(base + start, 0x0A, bytes.count - start) else { break }
      let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      if pending.isEmpty && !overlong {
        line(UnsafeBufferPointer(rebasing: bytes[start..<end]), body)
      } else {
        append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        let whole = pending
        pending.removeAll(keepingCapacity: true)
        whole.withUnsafeBufferPointer { line($0, body) }
      }
      start = end + 1
    }
    if start < bytes.count { append(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
  }

  /// Reads the last line, if it has no newline.
  package mutating func finish(_ body: (ReviewRecord) -> Void) {
    guard !pending.isEmpty || overlong else { return }
    let whole = pending
    pending.removeAll()
    whole.withUnsafeBufferPointer { line($0, body) }
  }

  /// Adds part of a line, or only counts it once the line is too long.
  private mutating func append(_ part: UnsafeBufferPointer<UInt8>) {
    if overlong {
      overlongBytes += part.count
      return
    }
    if pending.count + part.count > Self.maximumLineBytes {
      overlong = true
      overlongBytes = pending.count + part.count
      overlongHead = Array((pending + Array(part.prefix(Self.shownBytes))).prefix(Self.shownBytes))
      pending.removeAll()
      return
    }
    pending.append(contentsOf: part)
  }

  /// One whole line (without its newline).
  private mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (ReviewRecord) -> Void) {
    summary.lines += 1
    if overlong || bytes.count > Self.maximumLineBytes {
      let length = overlong ? overlongBytes : bytes.count
      let head = overlong ? overlongHead : Array(bytes.prefix(Self.shownBytes))
      overlong = false
      overlongBytes = 0
      overlongHead = []
      head.withUnsafeBufferPointer { head in
        report(RecordMessages.overlong(length, limit: Self.maximumLineBytes), in: head)
      }
      return
    }
    var content = bytes
    if let last = content.last, last == 0x0D { content = UnsafeBufferPointer(rebasing: content.dropLast()) }
    if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    switch RecordReader.record(in: content, recent: &recent) {
    case .success(let record):
      summary.records += 1
      body(record)
    case .failure(let problem):
      report(problem, in: content)
    }
  }

  /// Counts `problem` on the current line, and renders it while fewer than the most kept.
  private mutating func report(_ problem: RecordReader.Problem, in line: UnsafeBufferPointer<UInt8>) {
    summary.problems += 1
    guard summary.reported.count < Self.maximumReportedProblems else { return }
    summary.reported.append(Self.render(problem, line: Array(line), number: summary.lines, path: path))
  }

  /// `problem` on `line`, the `number`th of the file, as compilers print it.
  static func render(_ problem: RecordReader.Problem, line: [UInt8], number: Int, path: String) -> String {
    // The line alone, placed at its number: the renderer counts lines and columns itself.
    let offset = number - 1
    let source = SourceFile(path: path, bytes: Array(repeating: 0x0A, count: offset) + line)
    let start = offset + min(problem.start, line.count)
    let end = offset + min(max(problem.end, problem.start + 1), line.count + 1)
    let diagnostic = RecordMessages.diagnostic(problem, at: SourceRange(start: start, end: end))
    return DiagnosticRenderer().render(diagnostic, in: source)
  }
}
