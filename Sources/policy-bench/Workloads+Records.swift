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
