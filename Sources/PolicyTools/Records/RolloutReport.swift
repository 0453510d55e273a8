import Foundation
import PolicyAnalysis
import ReviewAnalysis

/// The rollout read-out as text and JSON: per policy and arm, the installs, checks, asks, prompts
/// shown and answers, the shares of installs prompted and of prompted installs that rated or
/// declined with 95% Wilson intervals, and between arms the differences with Newcombe's
/// intervals and a verdict in words.
package enum RolloutReport {
  /// One policy's arms.
  package struct Policy: Sendable {
    /// The fingerprint.
    package var fingerprint: String
    /// The file it was read from, when given with `--policy`.
    package var file: String?
    /// Its arms, sorted by name.
    package var arms: [(name: String, counts: RolloutTally.Counts)]
  }

  /// The tally's arms grouped by policy; `files` names the given policies by fingerprint.
  package static func policies(_ tally: RolloutTally, files: [String: String]) -> [Policy] {
    policies(tally.arms, files: files)
  }

  /// `arms` grouped by policy; `files` names the given policies by fingerprint.
  package static func policies(_ arms: [(arm: RolloutTally.Arm, counts: RolloutTally.Counts)], files: [String: String])
    -> [Policy]
  {
    var result: [Policy] = []
    for (arm, counts) in arms {
      if result.last?.fingerprint != arm.policy {
        result.append(Policy(fingerprint: arm.policy, file: files[arm.policy], arms: []))
      }
      result[result.count - 1].arms.append((arm.name, counts))
    }
    return result
  }

  /// A share as `31.0% (26.1-36.4)`, or `-` with no trials.
  static func share(_ proportion: Proportion) -> String {
    guard let rate = proportion.rate, let interval = proportion.interval else { return "-" }
    return "\(percent(rate))% (\(percent(interval.lowerBound))-\(percent(interval.upperBound)))"
  }

  /// `value` (a share) in percent with one decimal.
  static func percent(_ value: Double) -> String {
    String(format: "%.1f", value * 100)
  }

  /// The arms compared: each with the arm that has the most installs (the first of two).
  static func pairs(_ arms: [(name: String, counts: RolloutTally.Counts)]) -> [(Int, Int)] {
    guard arms.count >= 2 else { return [] }
    if arms.count == 2 { return [(0, 1)] }
    let largest = arms.indices.max { arms[$0].counts.installs < arms[$1].counts.installs } ?? 0
    return arms.indices.filter { $0 != largest }.map { ($0, largest) }
  }

  /// One comparison in words: how much more often one arm was prompted, and the rated share
  /// per prompted install with the difference's interval and whether it excludes no difference.
  static func verdict(
    _ a: (name: String, counts: RolloutTally.Counts), _ b: (name: String, counts: RolloutTally.Counts)
  )
    -> String
  {
    var text = "\(a.name) vs \(b.name):"
    if let pa = a.counts.prompted.rate, let pb = b.counts.prompted.rate, pb > 0 {
      text += " the \(a.name) arm was prompted \(String(format: "%.2f", pa / pb))x as often"
    } else {
      text += " prompts cannot be compared (an arm prompted no one)"
    }
    let ra = a.counts.ratedPerPrompted
    let rb = b.counts.ratedPerPrompted
    if let x = ra.rate, let y = rb.rate, let difference = ra.difference(from: rb) {
      let lower = String(format: "%.1f", difference.interval.lowerBound * 100)
      let upper = String(format: "%.1f", difference.interval.upperBound * 100)
      let real =
        difference.interval.lowerBound > 0 || difference.interval.upperBound < 0
        ? "a real difference at 95%" : "not distinguishable from no difference at 95%"
      text +=
        "; rated per prompted install \(percent(x))% vs \(percent(y))%, difference"
        + " \(String(format: "%.1f", difference.estimate * 100)) points, 95% CI \(lower) to \(upper): \(real)"
    }
    return text
  }

  /// The read-out as text.
  package static func text(_ policies: [Policy], summary: RecordFileReader.Summary, files: Int) -> String {
    var out =
      "read \(summary.records) records from \(summary.lines) lines of \(files) file\(files == 1 ? "" : "s")"
      + (summary.problems > 0 ? "; \(summary.problems) lines are not records (PC411 above)" : "") + "\n"
    if policies.isEmpty { out += "no prompt checks in the records: nothing to read out\n" }
    for policy in policies {
      out += "\npolicy \(policy.fingerprint)" + (policy.file.map { " (\($0))" } ?? "") + "\n"
      let header = [
        "arm", "installs", "checks", "asks", "shown", "prompted", "rated per prompted", "declined per prompted",
      ]
      var rows = [header]
      for (name, counts) in policy.arms {
        rows.append([
          name, "\(counts.installs)", "\(counts.checks)", "\(counts.asks)", "\(counts.shown)", share(counts.prompted),
          share(counts.ratedPerPrompted), share(counts.declinedPerPrompted),
        ])
      }
      let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
      for row in rows {
        let cells = row.enumerated().map { column, cell in
          let pad = String(repeating: " ", count: widths[column] - cell.count)
          return column == 0 ? cell + pad : pad + cell
        }
        out += "  " + cells.joined(separator: "  ") + "\n"
      }
      for (first, second) in pairs(policy.arms) {
        out += "  " + verdict(policy.arms[first], policy.arms[second]) + "\n"
      }
    }
    out += "\nshares with 95% Wilson score intervals; differences with Newcombe's hybrid score intervals\n"
    return out
  }

  /// The read-out as JSON.
  package static func json(_ policies: [Policy], summary: RecordFileReader.Summary) -> String {
    var writer = JSONWriter()
    writer.object { w in
      w.key("lines")
      w.number(summary.lines)
      w.key("records")
      w.number(summary.records)
      w.key("problems")
      w.number(summary.problems)
      w.key("policies")
      w.array { w in
        for policy in policies {
          w.object { w in
            w.key("fingerprint")
            w.string(policy.fingerprint)
            w.key("file")
            if let file = policy.file { w.string(file) } else { w.null() }
            w.key("arms")
            w.array { w in
              for (name, counts) in policy.arms { write(name, counts, to: &w) }
            }
            w.key("comparisons")
            w.array { w in
              for (first, second) in pairs(policy.arms) {
                write(comparing: policy.arms[first], with: policy.arms[second], to: &w)
              }
            }
          }
        }
      }
    }
    return writer.output + "\n"
  }

  /// One arm as a JSON object.
  static func write(_ name: String, _ counts: RolloutTally.Counts, to writer: inout JSONWriter) {
    writer.object { w in
      w.key("arm")
      w.string(name)
      for (key, value) in [
        ("installs", counts.installs), ("checks", counts.checks), ("asks", counts.asks), ("shown", counts.shown),
      ] {
        w.key(key)
        w.number(value)
      }
      w.key("answers")
      w.object { w in
        for key in counts.answers.keys.sorted() {
          w.key(key)
          w.number(counts.answers[key] ?? 0)
        }
      }
      for (key, proportion) in [
        ("prompted", counts.prompted), ("ratedPerPrompted", counts.ratedPerPrompted),
        ("declinedPerPrompted", counts.declinedPerPrompted),
      ] {
        w.key(key)
        write(proportion, to: &w)
      }
    }
  }

  /// One comparison of two arms as a JSON object: the ratio of their prompted shares and the
  /// difference of their rated-per-prompted shares with its interval (null where undefined).
  static func write(
    comparing a: (name: String, counts: RolloutTally.Counts), with b: (name: String, counts: RolloutTally.Counts),
    to writer: inout JSONWriter
  ) {
    writer.object { w in
      w.key("arm")
      w.string(a.name)
      w.key("other")
      w.string(b.name)
      w.key("promptedRatio")
      if let pa = a.counts.prompted.rate, let pb = b.counts.prompted.rate, pb > 0 {
        decimal(pa / pb, &w)
      } else {
        w.null()
      }
      let difference = a.counts.ratedPerPrompted.difference(from: b.counts.ratedPerPrompted)
      w.key("ratedDifference")
      decimal(difference?.estimate, &w)
      w.key("ratedDifferenceLow")
      decimal(difference?.interval.lowerBound, &w)
      w.key("ratedDifferenceHigh")
      decimal(difference?.interval.upperBound, &w)
    }
  }

  /// `value` rounded to 6 decimals, or null.
  static func decimal(_ value: Double?, _ writer: inout JSONWriter) {
    if let value { writer.raw(String(format: "%.6f", value)) } else { writer.null() }
  }

  /// A share as `{"successes":…,"trials":…,"rate":…,"low":…,"high":…}` (rounded to 6 decimals).
  static func write(_ proportion: Proportion, to writer: inout JSONWriter) {
    writer.object { w in
      w.key("successes")
      w.number(proportion.successes)
      w.key("trials")
      w.number(proportion.trials)
      for (key, value) in [
        ("rate", proportion.rate), ("low", proportion.interval?.lowerBound), ("high", proportion.interval?.upperBound),
      ] {
        w.key(key)
        decimal(value, &w)
      }
    }
  }
}
