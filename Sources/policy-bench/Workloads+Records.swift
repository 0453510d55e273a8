import Foundation
import PolicyCore
import PolicyTools
import ReviewPolicy

extension Workloads {
  // MARK: - W7: reading records (policyc report)

  /// `policyc report`'s reading: 200,000 record lines (20,000 installs, a two-arm policy) read
  /// and tallied per arm, in lines per second on one core; the hand-written baseline reads the
  /// same lines with Foundation's `JSONSerialization` and counts installs and asks per arm.
  func w7() throws -> BenchResult {
    let policyText =
      "ask new when bucket(\"arm\") < 10 and uses >= 2\nask old when bucket(\"arm\") >= 10 and uses >= 4\n"
    guard let policy = PolicyEnvironment.standard.compile(policyText).policy else {
      throw BenchError.disagreement("W7 policy")
    }
    let fingerprint = PolicyIdentity.fingerprint(of: policyText)
    var text = ""
    var state: UInt64 = 7
    for install in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let id = String(state, radix: 16)
      let bucket = Int64(state >> 33) % 100
      for step in 0..<10 {
        let time = Timestamp(millisecondsSince1970: 1_767_225_600_000 + Int64(install) * 1000 + Int64(step))
        var record = ReviewRecord(install: id, time: time, event: "launch", appVersion: "2.1", build: "210")
        if step % 3 == 0 {
          record.event = "promptCheck"
          record.policy = PolicyIdentity(origin: .bundled, fingerprint: fingerprint)
          record.asked = step == 9
          record.reason = step == 9 ? "askRuleHeld" : "noAskRuleHeld"
          record.rules = step == 9 ? [bucket < 10 ? "new" : "old"] : []
          record.buckets = ["arm": bucket]
        } else {
          record.counted = true
        }
        text += record.line + "\n"
      }
    }
    let bytes = Array(text.utf8)
    let lines = 200_000
    var ours: [Double] = []
    var theirs: [Double] = []
    var checks = (0, 0)
    for _ in 0..<max(1, min(samples, 3)) {
      var start = Measure.now()
      var tally = RolloutTally(policies: [policy])
      var reader = RecordFileReader(path: "bench.jsonl")
      bytes.withUnsafeBufferPointer { reader.feed($0) { tally.add($0) } }
      reader.finish { tally.add($0) }
      ours.append(Double(lines) / (Double(Measure.now() - start) / 1e9))
      checks.0 = tally.arms.map(\.counts.asks).reduce(0, +)
      start = Measure.now()
      var installs: [String: (arm: Bool, asks: Int)] = [:]
      for line in text.split(separator: "\n") {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let id = object["install"] as? String
        else { continue }
        var entry = installs[id] ?? (false, 0)
        if let buckets = object["buckets"] as? [String: Int], let arm = buckets["arm"] { entry.arm = arm < 10 }
        if object["asked"] as? Bool == true { entry.asks += 1 }
        installs[id] = entry
      }
      theirs.append(Double(lines) / (Double(Measure.now() - start) / 1e9))
      checks.1 = installs.values.map(\.asks).reduce(0, +)
    }
    guard checks.0 == checks.1, checks.0 == 20_000 else { throw BenchError.disagreement("W7 asks \(checks)") }
    let rate = Measure.median(ours)
    return BenchResult(
      name: "W7 report: read and tally records", value: rate / 1e6, unit: "M lines/s",
      baseline: Measure.median(theirs) / 1e6,
      target: ">= 1 M lines/s", met: rate >= 1e6, allocations: nil)
  }
}

extension Workloads {
  // MARK: - W8: replaying records (policyc replay)

  /// `policyc replay`'s whole pipeline: the records of 2,000 simulated users over 60 days (as
  /// `policyc simulate --records` writes them) read and replayed through the real tracker under
  /// the policy that wrote them, in lines per second on one core. The hand-written baseline is the
  /// tracker work alone: the same records, parsed beforehand, fed to one `ReviewTracker` per
  /// install with no reading, no grouping and no comparison; the ratio is what reading and
  /// comparing cost on top. Every decision must be reproduced.
  func w8() throws -> BenchResult {
    let policyText = """
      ask new when bucket("new") < 10 and uses >= 2
      ask old when bucket("new") >= 10 and days >= 3 and uses >= 4
      never capped when total_prompts >= 2
      never soon when since(last_prompt) < 7d

      """
    guard let policy = PolicyEnvironment.standard.compile(policyText).policy else {
      throw BenchError.disagreement("W8 policy")
    }
    let lines = RecordSink()
    var setup = SimulationSetup(
      users: 2_000, days: 60, seed: 8, policies: [SimulationPolicy(name: "w8", text: policyText)])
    setup.recordSink = lines.write
    _ = SimulationEngine.run(setup)
    let bytes = lines.bytes
    var parsed: [ReviewRecord] = []
    var reader = RecordFileReader(path: "bench.jsonl")
    bytes.withUnsafeBufferPointer { reader.feed($0) { parsed.append($0) } }
    reader.finish { parsed.append($0) }
    let count = Double(parsed.count)
    var ours: [Double] = []
    var theirs: [Double] = []
    var same = (0, 0)
    for _ in 0..<max(1, min(samples, 3)) {
      var start = Measure.now()
      var replay = RecordReplay(policies: [RecordReplay.Policy(name: "w8", compiled: policy)])
      var reader = RecordFileReader(path: "bench.jsonl")
      bytes.withUnsafeBufferPointer { reader.feed($0) { replay.add($0) } }
      reader.finish { replay.add($0) }
      let outcome = replay.finish()
      ours.append(count / (Double(Measure.now() - start) / 1e9))
      same = (outcome.comparisons[0].sameDecisions, outcome.checks)
      // The baseline: the tracker calls alone, records already parsed and grouped in order.
      start = Measure.now()
      var trackers: [String: ReviewTracker] = [:]
      var asks = 0
      for record in parsed {
        var tracker =
          trackers.removeValue(forKey: record.install) ?? ReviewTracker(policy: policy, appVersion: record.appVersion)
        if let seed = record.seed { tracker.installSeed = seed }
        if tracker.appVersion != record.appVersion { tracker.move(to: record.appVersion, build: nil) }
        switch record.event {
        case "launch": tracker.launch(at: record.time, countingUse: true)
        case "foreground": tracker.appear(at: record.time, countingUse: true)
        case "sessionStart": tracker.startSession(at: record.time)
        case "sessionEnd": tracker.endSession(at: record.time)
        case "action": tracker.addAction(score: record.score ?? 0, isBad: record.bad ?? false, at: record.time)
        case "significantEvent": tracker.countEvent(named: record.name, at: record.time)
        case "response":
          if let answer = record.answer.flatMap(ReviewResponse.init(rawValue:)) {
            _ = tracker.record(answer, at: record.time)
          }
        default: break
        }
        if record.asked != nil, tracker.promptIfAppropriate(at: record.time) { asks += 1 }
        trackers[record.install] = tracker
      }
      theirs.append(count / (Double(Measure.now() - start) / 1e9))
      guard asks == outcome.original.asks else {
        throw BenchError.disagreement("W8 asks \(asks) \(outcome.original.asks)")
      }
    }
    guard same.0 == same.1, same.1 > 0 else { throw BenchError.disagreement("W8 decisions \(same)") }
    let rate = Measure.median(ours)
    return BenchResult(
      name: "W8 replay: read and replay records", value: rate / 1e6, unit: "M lines/s",
      baseline: Measure.median(theirs) / 1e6,
      target: ">= 0.2 M lines/s, every decision", met: rate >= 0.2e6 && same.0 == same.1, allocations: nil)
  }
}

/// Record lines handed over by a simulation's workers.
private final class RecordSink: @unchecked Sendable {
  // @unchecked: `stored` is only touched under `lock`.
  private let lock = NSLock()
  private var stored: [UInt8] = []

  var write: @Sendable (Data) -> Void {
    { [self] data in
      self.lock.lock()
      self.stored.append(contentsOf: data)
      self.lock.unlock()
    }
  }

  var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
