/// `policyc replay`'s report as text and JSON: what the app did and what each replayed policy
/// would have done on the same installs (asks, installs asked, the day of the first ask, the
/// answers), then how each differs from what happened, check by check and install by install.
package enum ReplayReport {
  /// The percentiles of the first-ask day shown.
  static let percentiles = [10, 50, 90]

  /// The report as text; `names` names the replayed policies, `summary` the records read.
  package static func text(
    _ outcome: RecordReplay.Outcome, names: [String], summary: RecordFileReader.Summary, files: Int
  ) -> String {
    let grouped = SimulationFormat.grouped
    var out =
      "replayed \(grouped(summary.records)) records of \(grouped(outcome.installs)) installs"
      + " (\(grouped(outcome.checks)) prompt checks) from \(files) file\(files == 1 ? "" : "s")"
      + (summary.problems > 0 ? "; \(grouped(summary.problems)) lines are not records (PC411 above)" : "") + "\n"
    if outcome.unknownEvents > 0 {
      out += "skipped \(grouped(outcome.unknownEvents)) records of events this version does not know\n"
    }
    let sides = [outcome.original] + outcome.replayed
    var rows: [[String]] = [["", "what happened"] + names]
    func row(_ label: String, _ cell: (RecordReplay.Side) -> String) { rows.append([label] + sides.map(cell)) }
    row("installs asked") { side in
      "\(grouped(side.installsAsked)) (\(SimulationFormat.percent(side.installsAsked, of: outcome.installs)))"
    }
    row("asks") { grouped($0.asks) }
    for percent in percentiles {
      row(percent == 50 ? "first ask, median day" : "first ask, p\(percent) day") { side in
        side.firstAskDay(percentile: percent).map { "\($0)" } ?? "-"
      }
    }
    for answer in ["rated", "declined", "remindLater", "dismissed", "unknown"] {
      row("answers: \(answer)") { grouped($0.answers[answer] ?? 0) }
    }
    out += "\n" + table(rows)
    for (index, comparison) in outcome.comparisons.enumerated() {
      out += "\n\(names[index]) against what happened:\n"
      let checks = outcome.checks
      out +=
        "  prompt checks decided the same: \(grouped(comparison.sameDecisions)) of \(grouped(checks))"
        + " (\(SimulationFormat.percent(comparison.sameDecisions, of: checks)))\n"
      out += "  asked where the app did not: \(grouped(comparison.askedInstead))\n"
      out += "  did not ask where the app did: \(grouped(comparison.didNotAsk))\n"
      out +=
        "  installs first asked at the same moment \(grouped(comparison.sameFirstAsk)), earlier"
        + " \(grouped(comparison.earlier)), later \(grouped(comparison.later)), only in the replay"
        + " \(grouped(comparison.onlyReplayed)), only in the app \(grouped(comparison.onlyOriginal)),"
        + " by neither \(grouped(comparison.neither))\n"
      for difference in comparison.differences {
        out +=
          "  differs at install \(difference.install), \(difference.time): "
          + (difference.asked ? "asked, the app did not\n" : "did not ask, the app did\n")
      }
    }
    out +=
      "\na replayed prompt the app showed takes the user's real answer; one it did not show has none"
      + " (outcome unknown)\n"
    return out
  }

  /// `rows` as columns: the first left-aligned, the others right-aligned.
  static func table(_ rows: [[String]]) -> String {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
    var out = ""
    for row in rows {
      let cells = row.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        return column == 0 ? cell + pad : pad + cell
      }
      out += "  " + cells.joined(separator: "  ") + "\n"
    }
    return out
  }

  /// The report as JSON.
  package static func json(_ outcome: RecordReplay.Outcome, names: [String], summary: RecordFileReader.Summary)
    -> String
  {
    var writer = JSONWriter()
    writer.object { w in
      for (key, value) in [
        ("lines", summary.lines), ("records", summary.records), ("problems", summary.problems),
        ("installs", outcome.installs), ("checks", outcome.checks), ("unknownEvents", outcome.unknownEvents),
      ] {
        w.key(key)
        w.number(value)
      }
      w.key("original")
      write(outcome.original, to: &w)
      w.key("policies")
      w.array { w in
        for (index, name) in names.enumerated() {
          w.object { w in
            w.key("name")
            w.string(name)
            w.key("replayed")
            write(outcome.replayed[index], to: &w)
            w.key("comparison")
            PartialResult.write(outcome.comparisons[index], to: &w)
          }
        }
      }
    }
    return writer.output + "\n"
  }

  /// One side as a JSON object: its first asks as percentiles (`firstAskDay`), or with
  /// `histogram` (for partial results) every day's installs as `[day index, installs]` pairs
  /// (`firstAskDays`).
  static func write(_ side: RecordReplay.Side, to writer: inout JSONWriter, histogram: Bool = false) {
    writer.object { w in
      w.key("asks")
      w.number(side.asks)
      w.key("installsAsked")
      w.number(side.installsAsked)
      if histogram {
        w.key("firstAskDays")
        w.array { w in
          for (day, count) in side.firstAskDays.enumerated() where count > 0 {
            w.array { w in
              w.number(day)
              w.number(count)
            }
          }
        }
      } else {
        w.key("firstAskDay")
        w.object { w in
          for percent in percentiles {
            w.key(percent == 50 ? "median" : "p\(percent)")
            if let day = side.firstAskDay(percentile: percent) { w.number(day) } else { w.null() }
          }
        }
      }
      w.key("answers")
      PartialResult.write(side.answers, to: &w)
    }
  }
}
