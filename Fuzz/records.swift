// Fuzz target `records`: the records reader (Sources/PolicyTools/Records/RecordReader.swift and
// RecordFileReader.swift) and what reads its records, bytes in: `policyc report`'s tally,
// `policyc replay` through the real tracker, and partial results (`--shard`, `--merge`).
//
// Invariants (a violation calls `fuzzFail`):
// - the file reads the same whole and in pieces of any size (records and counts); every line is
//   counted, and each is a record or a located problem;
// - a record read back from the line it writes is the same record;
// - a tally and a replay split into shards and merged equal the whole; a partial result read
//   back from its JSON writes the same JSON; any input read as a partial result is refused or
//   read, never a crash;
// - replaying records under any policy never traps, and every check is counted once.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore,
// ReviewPolicy and PolicyTools.
@testable import PolicyCore
@testable import PolicyTools
@testable import ReviewPolicy

/// A two-arm rollout with limits: its rules name the arms, its decisions read the tracker.
let rolloutPolicyText = """
  never answered when declined or rated
  never soon when since(last_prompt) < 3d
  ask new when bucket("new") < 30 and uses >= 2
  ask old when bucket("new") >= 30 and days >= 1 and events("export") >= 1
  """

let rolloutPolicy: CompiledPolicy = {
  guard let policy = PolicyEnvironment.standard.compile(rolloutPolicyText, path: "rollout.policy").policy else {
    fuzzFail("the rollout policy does not compile")
  }
  return policy
}()

let otherPolicy: CompiledPolicy = {
  guard let policy = PolicyEnvironment.standard.compile("ask when uses >= 3\n", path: "other.policy").policy else {
    fuzzFail("the other policy does not compile")
  }
  return policy
}()

/// The records of `bytes` read in pieces of `chunk` bytes, with the reader's counts.
func readRecords(_ bytes: [UInt8], chunk: Int) -> ([ReviewRecord], RecordFileReader.Summary) {
  var reader = RecordFileReader(path: "records.jsonl", chunkSize: max(1, chunk))
  var records: [ReviewRecord] = []
  var start = 0
  while start < bytes.count {
    let end = min(bytes.count, start + max(1, chunk))
    bytes[start..<end].withUnsafeBufferPointer { reader.feed($0) { records.append($0) } }
    start = end
  }
  reader.finish { records.append($0) }
  return (records, reader.summary)
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var random = FuzzRandom(state: fuzzSeed(bytes))

  // Whole and in pieces.
  let (records, summary) = readRecords(bytes, chunk: bytes.count + 1)
  let (pieces, pieceSummary) = readRecords(bytes, chunk: 1 + random.below(64))
  if pieces != records || pieceSummary.lines != summary.lines || pieceSummary.records != summary.records
    || pieceSummary.problems != summary.problems
  {
    fuzzFail("the file reads differently in pieces: \(summary.records)/\(pieceSummary.records) records")
  }
  if summary.records != records.count || summary.records + summary.problems > summary.lines {
    fuzzFail("counts: \(summary.lines) lines, \(summary.records) records, \(summary.problems) problems")
  }
  if summary.reported.count > min(summary.problems, RecordFileReader.maximumReportedProblems) {
    fuzzFail("more problems rendered than counted")
  }

  // Each record writes a line that reads back to it.
  for record in records {
    switch RecordReader.record(in: record.line) {
    case .success(let again):
      if again != record { fuzzFail("a record reads back differently: \(record.line)") }
    case .failure(let problem):
      fuzzFail("a record's own line is refused (\(problem.message)): \(record.line)")
    }
  }

  // The tally and the replay, whole and in shards merged.
  let count = 1 + random.below(4)
  var tally = RolloutTally(policies: [rolloutPolicy])
  var replay = RecordReplay(policies: [
    RecordReplay.Policy(name: "rollout", compiled: rolloutPolicy),
    RecordReplay.Policy(name: "other", compiled: otherPolicy),
  ])
  for record in records {
    tally.add(record)
    replay.add(record)
  }
  let whole = replay.finish()
  // The behaviour fit of the same records: a file the behaviour reader takes.
  var fit = BehaviourFit()
  for record in records { fit.add(record) }
  let fitted = fit.finish()
  if fitted.installs > 0 {
    let file = SourceFile(path: "fitted.json", text: fitted.behaviourFile)
    if case .failure(let problems) = SimulationBehaviour.read(file, into: SimulationModel()) {
      fuzzFail("a fitted behaviour file is refused (\(problems.diagnostics.map(\.message))):\n\(fitted.behaviourFile)")
    }
  }
  let checks = whole.comparisons.map { $0.sameDecisions + $0.askedInstead + $0.didNotAsk }
  if checks.contains(where: { $0 != whole.checks }) { fuzzFail("checks counted \(checks), not \(whole.checks)") }
  let header = PartialResult.Header(shard: RecordShard(index: 0, count: 1), summary: summary, files: 1)
  var reportParts: [(part: PartialResult, file: SourceFile)] = []
  var replayParts: [(part: PartialResult, file: SourceFile)] = []
  for index in 0..<count {
    let shard = RecordShard(index: index, count: count)
    var partTally = RolloutTally(policies: [rolloutPolicy], shard: shard)
    var partReplay = RecordReplay(policies: replay.policies)
    partReplay.shard = shard
    for record in records {
      partTally.add(record)
      partReplay.add(record)
    }
    var partHeader = header
    partHeader.shard = shard
    let parts = [
      PartialResult.report(PartialResult.Report(header: partHeader, files: [:], arms: partTally.arms)),
      PartialResult.replay(
        PartialResult.Replay(header: partHeader, names: ["rollout", "other"], outcome: partReplay.finish())),
    ]
    for part in parts {
      // Written and read back, a part writes the same JSON.
      let file = SourceFile(path: "part-\(index).json", text: part.json)
      guard case .success(let read) = PartialResult.read(file) else {
        fuzzFail("a part does not read back: \(part.json)")
      }
      if read.json != part.json { fuzzFail("a part reads back differently:\n\(part.json)\n\(read.json)") }
      if case .report = read { reportParts.append((read, file)) } else { replayParts.append((read, file)) }
    }
  }
  let wholeReport = PartialResult.report(PartialResult.Report(header: header, files: [:], arms: tally.arms))
  let wholeReplay = PartialResult.replay(
    PartialResult.Replay(header: header, names: ["rollout", "other"], outcome: whole))
  for (parts, expected) in [(reportParts, wholeReport), (replayParts, wholeReplay)] {
    switch PartialResult.merged(parts.shuffledDeterministically(&random)) {
    case .success(let merged):
      if merged.json != expected.json {
        fuzzFail("\(count) shards merge differently:\n\(merged.json)\n\(expected.json)")
      }
    case .failure(let problem):
      fuzzFail("\(count) shards do not merge: \(problem.diagnostic?.message ?? "no parts")")
    }
  }

  // Any input read as a partial result: refused with a located problem, or read.
  let source = SourceFile(path: "input.json", bytes: bytes)
  if case .failure(let problem) = PartialResult.read(source), let diagnostic = problem.diagnostic {
    checkRange(diagnostic.range, in: bytes.count, "a partial result's problem")
  }
  return 0
}

extension Array {
  /// The elements in an order drawn from `random`.
  func shuffledDeterministically(_ random: inout FuzzRandom) -> [Element] {
    var result = self
    var index = result.count - 1
    while index > 0 {
      result.swapAt(index, random.below(index + 1))
      index -= 1
    }
    return result
  }
}

/// Builds the globals (the policies, the library's lazy tables) before fuzzing, out of the leak
/// checker's sight (see `fuzzWarmUp`).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(
    [
      #"{"schema":1,"install":"a","time":"2026-01-01T10:00:00Z","event":"launch","app":"1.0","counted":true}"#
        + "\n"
        + #"{"schema":1,"install":"a","time":"2026-01-01T10:00:01.5Z","event":"promptCheck","app":"1.0","policy":"0000000000000001","origin":"bundled","asked":true,"reason":"askRuleHeld","rules":["new"],"buckets":{"new":7},"seed":"00000000000000ff"}"#
        + "\n"
        + #"{"schema":1,"install":"a","time":"2026-01-01T10:00:02Z","event":"response","app":"1.0","answer":"rated"}"#,
      "not a record\n{\"partial\":\"report\"}",
    ], fuzz)
  return 0
}
