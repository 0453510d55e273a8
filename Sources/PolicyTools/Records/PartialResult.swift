import PolicyAnalysis
import PolicyCore
import ReviewAnalysis

/// What `policyc report --shard i/n` and `policyc replay --shard i/n` write: one part of a
/// read-out's counts, which `policyc report --merge` adds up with the other parts into exactly
/// the read-out of the whole (counts are sums over installs, and each install is in one part).
///
/// One JSON object: `partial` (`report` or `replay`), `version` (1), `shard` (`i/n`), `lines`,
/// `records` and `problems` (of the files, as every shard reads them all), `files`, then the
/// counts: a report's `policies` (fingerprint and file) and `arms`; a replay's `names` and
/// `outcome`.
package enum PartialResult: Sendable {
  /// A rollout read-out's part.
  case report(Report)
  /// A replay's part.
  case replay(Replay)

  /// The format's version.
  package static let version = 1

  /// What every part says of the files it read.
  package struct Header: Sendable, Hashable {
    /// The shard.
    package var shard: RecordShard
    /// Lines, records and problems of the files (the same for every shard of one read).
    package var summary: RecordFileReader.Summary
    /// The number of files read.
    package var files: Int

    /// The header of a part `shard` of a read of `files` files with `summary`.
    package init(shard: RecordShard, summary: RecordFileReader.Summary, files: Int) {
      self.shard = shard
      self.summary = summary
      self.files = files
    }
  }

  /// A rollout read-out's part.
  package struct Report: Sendable {
    /// The files and the shard.
    package var header: Header
    /// The given policies' files, by fingerprint.
    package var files: [String: String]
    /// The arms' counts over the part's installs.
    package var arms: [(arm: RolloutTally.Arm, counts: RolloutTally.Counts)]

    /// A part with `header`, the policies' `files` and the `arms`.
    package init(
      header: Header, files: [String: String], arms: [(arm: RolloutTally.Arm, counts: RolloutTally.Counts)]
    ) {
      self.header = header
      self.files = files
      self.arms = arms
    }
  }

  /// A replay's part.
  package struct Replay: Sendable {
    /// The files and the shard.
    package var header: Header
    /// The replayed policies' names.
    package var names: [String]
    /// The outcome over the part's installs.
    package var outcome: RecordReplay.Outcome

    /// A part with `header`, the policies' `names` and the `outcome`.
    package init(header: Header, names: [String], outcome: RecordReplay.Outcome) {
      self.header = header
      self.names = names
      self.outcome = outcome
    }
  }

  /// The header of either kind.
  package var header: Header {
    switch self {
    case .report(let report): report.header
    case .replay(let replay): replay.header
    }
  }

  // MARK: - Writing

  /// The part as JSON (one line and a newline).
  package var json: String {
    var writer = JSONWriter()
    writer.object { w in
      let header = self.header
      w.key("partial")
      switch self {
      case .report: w.string("report")
      case .replay: w.string("replay")
      }
      w.key("version")
      w.number(PartialResult.version)
      w.key("shard")
      w.string(header.shard.description)
      for (key, value) in [
        ("lines", header.summary.lines), ("records", header.summary.records), ("problems", header.summary.problems),
        ("files", header.files),
      ] {
        w.key(key)
        w.number(value)
      }
      switch self {
      case .report(let report):
        w.key("policies")
        w.object { w in
          for fingerprint in report.files.keys.sorted() {
            w.key(fingerprint)
            w.string(report.files[fingerprint] ?? "")
          }
        }
        w.key("arms")
        w.array { w in
          for (arm, counts) in report.arms {
            w.object { w in
              w.key("policy")
              w.string(arm.policy)
              w.key("arm")
              w.string(arm.name)
              for (key, value) in PartialResult.fields(of: counts) {
                w.key(key)
                w.number(value)
              }
              w.key("answers")
              PartialResult.write(counts.answers, to: &w)
            }
          }
        }
      case .replay(let replay):
        w.key("names")
        w.array { w in for name in replay.names { w.string(name) } }
        let outcome = replay.outcome
        w.key("outcome")
        w.object { w in
          for (key, value) in [
            ("installs", outcome.installs), ("records", outcome.records), ("checks", outcome.checks),
            ("unknownEvents", outcome.unknownEvents),
          ] {
            w.key(key)
            w.number(value)
          }
          w.key("original")
          ReplayReport.write(outcome.original, to: &w, histogram: true)
          w.key("replayed")
          w.array { w in for side in outcome.replayed { ReplayReport.write(side, to: &w, histogram: true) } }
          w.key("comparisons")
          w.array { w in for comparison in outcome.comparisons { PartialResult.write(comparison, to: &w) } }
        }
      }
    }
    return writer.output + "\n"
  }

  /// An arm's counts by key.
  static func fields(of counts: RolloutTally.Counts) -> [(String, Int)] {
    [
      ("installs", counts.installs), ("checks", counts.checks), ("asks", counts.asks), ("shown", counts.shown),
      ("promptedInstalls", counts.promptedInstalls), ("ratedInstalls", counts.ratedInstalls),
      ("declinedInstalls", counts.declinedInstalls),
    ]
  }

  /// A comparison's counts by key.
  static func fields(of comparison: RecordReplay.Comparison) -> [(String, Int)] {
    [
      ("sameDecisions", comparison.sameDecisions), ("askedInstead", comparison.askedInstead),
      ("didNotAsk", comparison.didNotAsk), ("sameFirstAsk", comparison.sameFirstAsk),
      ("earlier", comparison.earlier), ("later", comparison.later), ("onlyReplayed", comparison.onlyReplayed),
      ("onlyOriginal", comparison.onlyOriginal), ("neither", comparison.neither),
    ]
  }

  /// Counts by name as an object, keys sorted.
  static func write(_ counts: [String: Int], to writer: inout JSONWriter) {
    writer.object { w in
      for key in counts.keys.sorted() {
        w.key(key)
        w.number(counts[key] ?? 0)
      }
    }
  }

  /// A comparison: its counts and its differences (as `policyc replay --format json` writes it).
  static func write(_ comparison: RecordReplay.Comparison, to writer: inout JSONWriter) {
    writer.object { w in
      for (key, value) in fields(of: comparison) {
        w.key(key)
        w.number(value)
      }
      w.key("differences")
      w.array { w in
        for difference in comparison.differences {
          w.object { w in
            w.key("install")
            w.string(difference.install)
            w.key("time")
            w.string(difference.time.description)
            w.key("asked")
            w.bool(difference.asked)
          }
        }
      }
    }
  }

  // MARK: - Merging

  /// The parts `parts` (each with the file it was read from) added up into the whole, or why
  /// they do not make one: parts of both kinds, of different splits or files, a part given
  /// twice or one missing (PC412, at the part's file).
  package static func merged(_ parts: [(part: PartialResult, file: SourceFile)]) -> Result<
    PartialResult, MergeProblem
  > {
    guard let (first, firstFile) = parts.first else { return .failure(MergeProblem(diagnostic: nil, file: nil)) }
    let whole = SourceRange(start: 0, end: 0)
    let count = first.header.shard.count
    var seen = Set<Int>()
    for (part, file) in parts {
      func fail(_ message: String, _ help: String) -> Result<PartialResult, MergeProblem> {
        .failure(
          MergeProblem(diagnostic: PartialMessages.mismatch(message, help: help, at: whole).diagnostic, file: file))
      }
      switch (first, part) {
      case (.report, .report), (.replay, .replay): break
      case (.report, .replay), (.replay, .report):
        return fail(
          "a part of `policyc \(part.kind)` among parts of `policyc \(first.kind)`", "merge the parts of one run")
      }
      guard part.header.shard.count == count else {
        return fail(
          "shard \(part.header.shard.description) among shards of \(count)", "merge the parts of one split")
      }
      guard seen.insert(part.header.shard.index).inserted else {
        return fail("shard \(part.header.shard.description) is given twice", "give each part once")
      }
      guard part.header.summary == first.header.summary, part.header.files == first.header.files else {
        return fail(
          "shard \(part.header.shard.description) read other records than `\(firstFile.path)`",
          "every shard reads all the files of the run")
      }
      if case .replay(let replay) = part, case .replay(let base) = first, replay.names != base.names {
        return fail("shard \(part.header.shard.description) replayed other policies", "merge the parts of one run")
      }
    }
    guard seen.count == count else {
      let missing = (0..<count).filter { !seen.contains($0) }.map { "\($0 + 1)/\(count)" }
      let diagnostic = PartialMessages.mismatch(
        "missing shard\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))",
        help: "give every part of the split", at: whole
      ).diagnostic
      return .failure(MergeProblem(diagnostic: diagnostic, file: firstFile))
    }
    var header = first.header
    header.shard = RecordShard(index: 0, count: 1)
    switch first {
    case .report(let base):
      var files = base.files
      var arms: [[(arm: RolloutTally.Arm, counts: RolloutTally.Counts)]] = []
      for (part, _) in parts {
        guard case .report(let report) = part else { continue }
        files.merge(report.files) { current, _ in current }
        arms.append(report.arms)
      }
      return .success(.report(Report(header: header, files: files, arms: RolloutTally.merged(arms))))
    case .replay(let base):
      var outcome = RecordReplay.Outcome(
        replayed: Array(repeating: RecordReplay.Side(), count: base.names.count),
        comparisons: Array(repeating: RecordReplay.Comparison(), count: base.names.count))
      for (part, _) in parts {
        guard case .replay(let replay) = part else { continue }
        outcome.add(replay.outcome)
      }
      return .success(.replay(Replay(header: header, names: base.names, outcome: outcome)))
    }
  }

  /// Why a part cannot be read or parts do not merge: the diagnostic and the file it is about
  /// (both nil with no parts).
  package struct MergeProblem: Error {
    /// The PC412 diagnostic.
    package var diagnostic: Diagnostic?
    /// The part's file.
    package var file: SourceFile?
  }

  /// `report` or `replay`.
  package var kind: String {
    switch self {
    case .report: "report"
    case .replay: "replay"
    }
  }

  // MARK: - Reading

  /// The part in `file`, or the diagnostic (PC401 for JSON that does not parse, PC412 for JSON
  /// that is not a part `--shard` wrote).
  package static func read(_ file: SourceFile) -> Result<PartialResult, MergeProblem> {
    let root: JSONNode
    switch JSONParser.parse(file) {
    case .success(let node): root = node
    case .failure(let failure): return .failure(MergeProblem(diagnostic: failure.diagnostic, file: file))
    }
    do throws(PartialMessages.PartialFailure) {
      return .success(try PartialReader(root: root).result())
    } catch {
      return .failure(MergeProblem(diagnostic: error.diagnostic, file: file))
    }
  }
}

/// Reads a part's JSON, every problem at its node.
private struct PartialReader {
  let root: JSONNode

  typealias Messages = PartialMessages

  func member(_ key: String, of node: JSONNode) throws(PartialMessages.PartialFailure) -> JSONNode {
    guard let member = node.member(key) else { throw Messages.missing(key, in: node.range) }
    return member.value
  }

  func int(_ node: JSONNode, _ what: String) throws(PartialMessages.PartialFailure) -> Int {
    guard case .number(let text) = node.value, let value = Int(text), value >= 0 else {
      throw Messages.wrong(what, expected: "a whole number from 0", at: node.range)
    }
    return value
  }

  func int(_ key: String, of node: JSONNode) throws(PartialMessages.PartialFailure) -> Int {
    try int(try member(key, of: node), "`\(key)`")
  }

  func string(_ node: JSONNode, _ what: String) throws(PartialMessages.PartialFailure) -> String {
    guard case .string(let text) = node.value else { throw Messages.wrong(what, expected: "a string", at: node.range) }
    return text
  }

  func string(_ key: String, of node: JSONNode) throws(PartialMessages.PartialFailure) -> String {
    try string(try member(key, of: node), "`\(key)`")
  }

  func array(_ key: String, of node: JSONNode) throws(PartialMessages.PartialFailure) -> [JSONNode] {
    let value = try member(key, of: node)
    guard case .array(let items) = value.value else {
      throw Messages.wrong("`\(key)`", expected: "an array", at: value.range)
    }
    return items
  }

  func object(_ key: String, of node: JSONNode) throws(PartialMessages.PartialFailure) -> [JSONMember] {
    let value = try member(key, of: node)
    guard case .object(let members) = value.value else {
      throw Messages.wrong("`\(key)`", expected: "an object", at: value.range)
    }
    return members
  }

  func counts(_ key: String, of node: JSONNode) throws(PartialMessages.PartialFailure) -> [String: Int] {
    var counts: [String: Int] = [:]
    for member in try object(key, of: node) { counts[member.key] = try int(member.value, "`\(member.key)`") }
    return counts
  }

  func result() throws(PartialMessages.PartialFailure) -> PartialResult {
    guard case .object = root.value else { throw Messages.notPartial(at: root.range) }
    guard let kindNode = root.member("partial")?.value else { throw Messages.notPartial(at: root.range) }
    let kind = try string(kindNode, "`partial`")
    let versionNode = try member("version", of: root)
    guard try int(versionNode, "`version`") == PartialResult.version else {
      throw Messages.wrong("`version`", expected: "\(PartialResult.version)", at: versionNode.range)
    }
    let shardNode = try member("shard", of: root)
    guard let shard = RecordShard(try string(shardNode, "`shard`")) else {
      throw Messages.wrong("`shard`", expected: "`i/n`, such as `1/4`", at: shardNode.range)
    }
    var summary = RecordFileReader.Summary()
    summary.lines = try int("lines", of: root)
    summary.records = try int("records", of: root)
    summary.problems = try int("problems", of: root)
    let header = PartialResult.Header(shard: shard, summary: summary, files: try int("files", of: root))
    switch kind {
    case "report":
      var files: [String: String] = [:]
      for member in try object("policies", of: root) { files[member.key] = try string(member.value, "a policy file") }
      var arms: [(arm: RolloutTally.Arm, counts: RolloutTally.Counts)] = []
      for node in try array("arms", of: root) {
        var counts = RolloutTally.Counts()
        counts.installs = try int("installs", of: node)
        counts.checks = try int("checks", of: node)
        counts.asks = try int("asks", of: node)
        counts.shown = try int("shown", of: node)
        counts.promptedInstalls = try int("promptedInstalls", of: node)
        counts.ratedInstalls = try int("ratedInstalls", of: node)
        counts.declinedInstalls = try int("declinedInstalls", of: node)
        counts.answers = try self.counts("answers", of: node)
        let arm = RolloutTally.Arm(policy: try string("policy", of: node), name: try string("arm", of: node))
        arms.append((arm, counts))
      }
      return .report(PartialResult.Report(header: header, files: files, arms: arms))
    case "replay":
      let names = try array("names", of: root).map { (node) throws(PartialMessages.PartialFailure) in
        try string(node, "a name")
      }
      let node = try member("outcome", of: root)
      let replayed = try array("replayed", of: node)
      let comparisons = try array("comparisons", of: node)
      guard replayed.count == names.count, comparisons.count == names.count else {
        throw Messages.wrong("`outcome`", expected: "one side and one comparison per name", at: node.range)
      }
      var outcome = RecordReplay.Outcome(
        replayed: try replayed.map { (side) throws(PartialMessages.PartialFailure) in try self.side(side) },
        comparisons: try comparisons.map { (comparison) throws(PartialMessages.PartialFailure) in
          try self.comparison(comparison)
        })
      outcome.installs = try int("installs", of: node)
      outcome.records = try int("records", of: node)
      outcome.checks = try int("checks", of: node)
      outcome.unknownEvents = try int("unknownEvents", of: node)
      outcome.original = try side(try member("original", of: node))
      return .replay(PartialResult.Replay(header: header, names: names, outcome: outcome))
    default:
      throw Messages.wrong("`partial`", expected: "`report` or `replay`", at: kindNode.range)
    }
  }

  func side(_ node: JSONNode) throws(PartialMessages.PartialFailure) -> RecordReplay.Side {
    var side = RecordReplay.Side()
    side.asks = try int("asks", of: node)
    side.installsAsked = try int("installsAsked", of: node)
    side.answers = try counts("answers", of: node)
    for pair in try array("firstAskDays", of: node) {
      guard case .array(let items) = pair.value, items.count == 2 else {
        throw Messages.wrong("a first-ask day", expected: "`[day, installs]`", at: pair.range)
      }
      let day = try int(items[0], "a day")
      guard side.firstAskDays.indices.contains(day) else {
        throw Messages.wrong("a day", expected: "a day index below \(RecordReplay.dayBuckets)", at: items[0].range)
      }
      side.firstAskDays[day] += try int(items[1], "a count of installs")
    }
    return side
  }

  func comparison(_ node: JSONNode) throws(PartialMessages.PartialFailure) -> RecordReplay.Comparison {
    var comparison = RecordReplay.Comparison()
    comparison.sameDecisions = try int("sameDecisions", of: node)
    comparison.askedInstead = try int("askedInstead", of: node)
    comparison.didNotAsk = try int("didNotAsk", of: node)
    comparison.sameFirstAsk = try int("sameFirstAsk", of: node)
    comparison.earlier = try int("earlier", of: node)
    comparison.later = try int("later", of: node)
    comparison.onlyReplayed = try int("onlyReplayed", of: node)
    comparison.onlyOriginal = try int("onlyOriginal", of: node)
    comparison.neither = try int("neither", of: node)
    for item in try array("differences", of: node) {
      let askedNode = try member("asked", of: item)
      guard case .bool(let asked) = askedNode.value else {
        throw Messages.wrong("`asked`", expected: "`true` or `false`", at: askedNode.range)
      }
      let timeNode = try member("time", of: item)
      guard let time = Timestamp(iso8601: try string(timeNode, "`time`")) else {
        throw Messages.wrong("`time`", expected: "an ISO 8601 instant", at: timeNode.range)
      }
      comparison.note(RecordReplay.Difference(install: try string("install", of: item), time: time, asked: asked))
    }
    return comparison
  }
}
