import Foundation
import PolicyCore
import ReviewPolicy
import Testing

@testable import PolicyTools

/// The record format read back: every record the writer writes reads to itself, and every line
/// that is not a record gets a located PC411 error.
@Suite("records: reading")
struct RecordReaderTests {
  /// A random text with what JSON must escape: quotes, backslashes, control characters, and
  /// non-ASCII letters and emoji.
  static func text(_ random: inout SystemRandomNumberGenerator, _ generator: inout UInt64) -> String {
    let pieces = [
      "a", "Z", "9", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{01}", "\u{1F}", "é", "日本", "🙂", "\u{7F}", "-",
    ]
    generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let count = Int(generator >> 60)
    var result = ""
    for _ in 0..<count {
      generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      result += pieces[Int(generator >> 33) % pieces.count]
    }
    return result
  }

  @Test("a file read with its recent strings reused gives each line's record as read alone")
  func recentStrings() {
    let installs = ["a", "a", "b", #"a\u0062"#, "ab", "ab", "a", ""]
    var text = ""
    for (index, install) in installs.enumerated() {
      let policy = index % 3 == 0 ? "" : #","policy":"p\#(index % 2)","origin":"bundled""#
      text +=
        #"{"schema":1,"install":"\#(install)","time":"2026-01-01T00:00:0\#(index)Z","event":"e","app":"1"\#(policy)}"#
      text += "\n"
    }
    var reader = RecordFileReader(path: "r.jsonl")
    var read: [ReviewRecord] = []
    Array(text.utf8).withUnsafeBufferPointer { reader.feed($0) { read.append($0) } }
    reader.finish { read.append($0) }
    let alone = text.split(separator: "\n").compactMap { line -> ReviewRecord? in
      guard case .success(let record) = RecordReader.record(in: String(line)) else { return nil }
      return record
    }
    #expect(read == alone)
    #expect(read.map(\.install) == ["a", "a", "b", "ab", "ab", "ab", "a", ""])
  }

  @Test("every key of the format is recognised by its bytes, and nothing else is")
  func keys() {
    for key in RecordKey.allCases {
      var name = key.rawValue
      #expect(name.withUTF8 { RecordKey(bytes: $0) } == key)
      var longer = name + "s"
      #expect(longer.withUTF8 { RecordKey(bytes: $0) } == nil)
      var other = String(name.dropLast()) + "_"
      #expect(other.withUTF8 { RecordKey(bytes: $0) } == nil)
    }
    var empty = ""
    #expect(empty.withUTF8 { RecordKey(bytes: $0) } == nil)
  }

  @Test("the reader's in-place ISO 8601 parse agrees with Timestamp(iso8601:) on random instants and near misses")
  func instants() {
    var state: UInt64 = 0x7173
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    let span = UInt64(Timestamp.latest.millisecondsSince1970 - Timestamp.earliest.millisecondsSince1970)
    for _ in 0..<5_000 {
      let instant = Timestamp(
        millisecondsSince1970: Timestamp.earliest.millisecondsSince1970 + Int64(next() % span))
      var text = instant.description
      // A near miss now and then: a byte changed, dropped or added.
      switch next() % 4 {
      case 0:
        var bytes = Array(text.utf8)
        bytes[Int(next() % UInt64(bytes.count))] = Array("0123456789-:TZ.+ x".utf8)[Int(next() % 18)]
        text = String(decoding: bytes, as: UTF8.self)
      case 1: text.removeLast()
      default: break
      }
      let line = #"{"schema":1,"install":"a","time":"\#(text)","event":"launch","app":"1"}"#
      let read = RecordReader.record(in: line)
      switch (read, Timestamp(iso8601: text)) {
      case (.success(let record), let parsed?): #expect(record.time == parsed, "\(text)")
      case (.failure(let problem), nil): #expect(problem.message.hasPrefix("`time` must be"), "\(text)")
      default: Issue.record("the reader and Timestamp(iso8601:) disagree on \(text)")
      }
    }
  }

  @Test("2,000 random records, with every optional member and escaped text, read back to themselves")
  func roundTrip() throws {
    var system = SystemRandomNumberGenerator()
    var state: UInt64 = 0x5EED
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 11
    }
    for _ in 0..<2_000 {
      var record = ReviewRecord(
        install: Self.text(&system, &state),
        time: Timestamp(
          millisecondsSince1970: Timestamp.earliest.millisecondsSince1970
            + Int64(next() % UInt64(Timestamp.latest.millisecondsSince1970 - Timestamp.earliest.millisecondsSince1970))),
        event: Self.text(&system, &state), appVersion: Self.text(&system, &state))
      if next() % 2 == 0 { record.build = Self.text(&system, &state) }
      if next() % 2 == 0 {
        record.policy = PolicyIdentity(
          origin: next() % 2 == 0 ? .bundled : .update, fingerprint: Self.text(&system, &state))
      }
      if next() % 2 == 0 {
        record.asked = next() % 2 == 0
        record.reason = Self.text(&system, &state)
        record.rules = (0..<Int(next() % 3)).map { _ in Self.text(&system, &state) }
        for _ in 0..<Int(next() % 3) { record.buckets[Self.text(&system, &state)] = Int64(next() % 100) }
        if next() % 2 == 0 { record.seed = Int64(bitPattern: next() &* 2_654_435_761) }
      }
      if next() % 3 == 0 { record.answer = Self.text(&system, &state) }
      if next() % 4 == 0 { record.outside = next() % 2 == 0 }
      if next() % 3 == 0 { record.name = Self.text(&system, &state) }
      if next() % 3 == 0 { record.counted = next() % 2 == 0 }
      if next() % 3 == 0 {
        record.score = Double(Int64(next() % 2_000_001) - 1_000_000) / Double([1, 2, 8, 1000][Int(next() % 4)])
        record.bad = next() % 2 == 0
      }
      let line = record.line
      #expect(!line.utf8.contains(0x0A), "a record is one line")
      let read = RecordReader.record(in: line)
      #expect(read == .success(record), "\(line)")
      // Foundation reads the same line as JSON too.
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
    }
  }

  @Test("unknown keys of a later version are skipped; a larger schema is refused")
  func compatibility() throws {
    let base = #""schema":1,"install":"ab","time":"2026-01-01T00:00:00Z","event":"launch","app":"1.0""#
    let extended = "{" + base + #","future":{"a":[1,{"b":null}],"c":"x"},"more":-1.5e3}"#
    let read = try RecordReader.record(in: extended).get()
    #expect(read.event == "launch" && read.appVersion == "1.0" && read.install == "ab")
    let later = #"{"schema":2,"install":"ab","time":"2026-01-01T00:00:00Z","event":"launch","app":"1.0"}"#
    guard case .failure(let problem) = RecordReader.record(in: later) else {
      Issue.record("schema 2 was read")
      return
    }
    #expect(problem.message == "record schema 2 is newer than this policyc reads (1)")
    #expect(problem.start == 10 && problem.end == 11)
  }

  @Test(
    "each malformed line gets its own message at its byte",
    arguments: [
      (#"not json"#, 0, "expected `{` (a record is one JSON object), found `n`"),
      (
        #"{"schema":1,"install":"ab","time":"yesterday","event":"launch","app":"1"}"#, 34,
        "`time` must be an ISO 8601 instant such as `2026-11-29T04:20:00Z`"
      ),
      (#"{"schema":"1"}"#, 10, "`schema` must be a whole number, found `\"`"),
      (#"{"schema":1,"install":"ab","time":"2026-01-01T00:00:00Z","event":"launch"}"#, 73, "the record has no `app`"),
      (#"{"schema":1,"schema":1}"#, 12, "`schema` is given twice"),
      (#"{"schema":1,"install":"ab"#, 22, "a string with no closing quote"),
      (#"{"schema":1} {"#, 13, "unexpected `{` after the record"),
      (#"{"asked":"yes"}"#, 9, "`asked` must be `true` or `false`, found `\"`"),
      (#"{"buckets":{"a":100}}"#, 16, "`buckets` must be bucket values from 0 to 99"),
      (#"{"name":"a\qb"}"#, 10, "an invalid escape in a string"),
      (#"{"name":"\ud800"}"#, 9, "an invalid escape in a string"),
      (#"{"score":1e999}"#, 9, "`score` must be a finite number"),
      (#"{"seed":"12345"}"#, 8, "`seed` must be 16 hexadecimal digits"),
      (#"{"outside":1}"#, 11, "`outside` must be `true` or `false`, found `1`"),
      (
        #"{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#, 37,
        "values nested deeper than 32 levels"
      ),
      (
        #"{"schema":1,"install":"ab","time":"2026-01-01T00:00:00Z","event":"x","app":"1","policy":"f"}"#, 0,
        "the record has `policy` but no `origin`"
      ),
    ])
  func problems(line: String, offset: Int, message: String) {
    guard case .failure(let problem) = RecordReader.record(in: line) else {
      Issue.record("read: \(line)")
      return
    }
    #expect(problem.message == message)
    #expect(problem.start == offset)
  }

  @Test("a records file reads the same in any chunk size: CRLF, blank lines, no final newline, counted problems")
  func file() throws {
    let good = ReviewRecord(
      install: "0123456789abcdef0123456789abcdef", time: Timestamp(millisecondsSince1970: 1_767_225_600_000),
      event: "launch", appVersion: "1.0"
    ).line
    var text = ""
    for index in 0..<30 {
      text += index % 3 == 0 ? good + "\r\n" : good + "\n"
      if index % 5 == 0 { text += "   \n" }
      if index % 4 == 1 { text += #"{"schema":1}"# + "\n" }
    }
    text += String(repeating: "x", count: RecordFileReader.maximumLineBytes + 10) + "\n"
    text += good
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString).jsonl").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var summaries: [RecordFileReader.Summary] = []
    for chunk in [1, 7, 4096, 1 << 20] {
      var count = 0
      let summary = try RecordFileReader.read(path: path, chunkSize: chunk) { record in
        #expect(record.event == "launch")
        count += 1
      }
      #expect(count == 31 && summary.records == 31)
      summaries.append(summary)
    }
    #expect(
      Set(summaries).count == 1,
      "\(summaries.map { [$0.lines, $0.records, $0.problems] }) \(summaries.map { $0.reported.last?.prefix(300) ?? "" })"
    )
    let summary = try #require(summaries.first)
    // 30 + 6 blank + 8 incomplete + the long line + the last record.
    #expect(summary.lines == 46)
    #expect(summary.problems == 9)
    #expect(summary.reported.count == 9)
    #expect(summary.reported.first?.hasPrefix("\(path):4:12: error: the record has no `install` [PC411]\n") == true)
    #expect(summary.reported.last?.contains("error: a line of 65546 bytes, longer than 65536 [PC411]") == true)
  }

  @Test("a located problem renders as compilers print it")
  func rendered() {
    let line = Array(#"{"schema":1,"install":"ab","time":"yesterday","event":"launch","app":"1"}"#.utf8)
    guard case .failure(let problem) = line.withUnsafeBufferPointer({ RecordReader.record(in: $0) }) else {
      Issue.record("read")
      return
    }
    #expect(
      RecordFileReader.render(problem, line: line, number: 12, path: "records.jsonl") == """
        records.jsonl:12:35: error: `time` must be an ISO 8601 instant such as `2026-11-29T04:20:00Z` [PC411]
         12 | {"schema":1,"install":"ab","time":"yesterday","event":"launch","app":"1"}
            |                                   ^~~~~~~~~~~
        help: docs/records.md lists each key with what it holds

        """)
  }

  @Test("the lines a review manager writes read back, and write again byte for byte")
  func managerLines() throws {
    final class Lines: @unchecked Sendable {
      // @unchecked: `all` is only touched under `lock`.
      let lock = NSLock()
      var all: [Data] = []
    }
    let lines = Lines()
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "2.0", build: "b\"1", bundledPolicy: "ask happy when uses >= 2 and bucket(\"arm\") < 50",
        store: InMemoryReviewStore(), texts: .english,
        recorder: { data in
          lines.lock.lock()
          lines.all.append(data)
          lines.lock.unlock()
        }))
    manager.appLaunched()
    manager.appLaunched()
    manager.sessionStarted()
    _ = manager.action(score: -3.25, isBad: true, mayPrompt: false)
    _ = manager.significantEvent("share \"x\"")
    _ = manager.promptIfAppropriate()
    _ = manager.record(.declined)
    manager.reset()
    lines.lock.lock()
    let all = lines.all
    lines.lock.unlock()
    #expect(all.count >= 8)
    for data in all {
      let text = String(decoding: data.dropLast(), as: UTF8.self)
      let record = try RecordReader.record(in: text).get()
      #expect(record.line == text)
    }
  }
}
