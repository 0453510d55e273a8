/// The numbers a product manager reads from a simulation, derived from the counts.
public struct SimulationReport: Sendable {
  /// The run.
  public let setup: SimulationSetup
  /// The counts.
  public let outcome: SimulationOutcome
  /// One summary per policy, in order.
  public let policies: [SimulationPolicySummary]
  /// The buckets of the first-ask-day histogram (1-based days, inclusive).
  public let bins: [ClosedRange<Int>]
  /// The events the model produces and the events and app facts the policies read, with what the model gives them.
  public let inputs: [SimulationInput]
  /// Why each policy asked as often as it did, in the order of ``policies``.
  public let explanations: [SimulationExplanation]

  /// The percentiles of the first-ask day that reports show.
  public static let percentiles = [10, 25, 50, 75, 90]

  /// Derives the summaries of `outcome`.
  public init(setup: SimulationSetup, outcome: SimulationOutcome) {
    self.setup = setup
    self.outcome = outcome
    let bins = SimulationReport.bins(days: setup.days)
    self.bins = bins
    policies = zip(setup.policies, outcome.tallies).map { policy, tally in
      SimulationPolicySummary(
        name: policy.name, tally: tally, setup: setup, heavyUsers: outcome.activity.heavyUsers, bins: bins)
    }
    let inputs = SimulationInputs.inputs(of: setup)
    self.inputs = inputs
    explanations = zip(setup.policies, outcome.tallies).map { policy, tally in
      SimulationExplanation(tally: tally.checks, policy: policy, model: setup.model, inputs: inputs)
    }
  }

  /// Histogram buckets for `days` days: the smallest of 1, 2, 7, 14, 30, 60, 90, 180 or 365 days giving at most 20 buckets.
  public static func bins(days: Int) -> [ClosedRange<Int>] {
    let width = [1, 2, 7, 14, 30, 60, 90, 180, 365].first { (days + $0 - 1) / $0 <= 20 } ?? (days + 19) / 20
    return stride(from: 1, through: days, by: width).map { $0...min($0 + width - 1, days) }
  }
}

/// One policy's results, ready to print.
public struct SimulationPolicySummary: Sendable {
  /// The policy's name (its path as given).
  public let name: String
  /// The counts.
  public let tally: SimulationPolicyTally
  /// Users in the run.
  public let users: Int
  /// Heavy users in the run.
  public let heavyUsers: Int
  /// The first-ask day at each of ``SimulationReport/percentiles`` (1-based), nil when nobody was asked.
  public let percentiles: [Int?]
  /// Users first asked in each bucket of ``SimulationReport/bins``.
  public let histogram: [Int]
  /// The share of users asked by the end of each day (cumulative), one per day.
  public let cumulativeAsked: [Int]
  /// Asks per user per 365 days.
  public let asksPerUserPerYear: Double

  /// Derives the summary of `tally`.
  public init(
    name: String, tally: SimulationPolicyTally, setup: SimulationSetup, heavyUsers: Int, bins: [ClosedRange<Int>]
  ) {
    self.name = name
    self.tally = tally
    self.users = setup.users
    self.heavyUsers = heavyUsers
    var cumulative: [Int] = []
    cumulative.reserveCapacity(tally.firstAskDays.count)
    var running = 0
    for count in tally.firstAskDays {
      running += count
      cumulative.append(running)
    }
    cumulativeAsked = cumulative
    percentiles = SimulationReport.percentiles.map { percent in
      guard running > 0 else { return nil }
      let rank = max(1, (running * percent + 99) / 100)
      return (cumulative.firstIndex { $0 >= rank } ?? cumulative.count - 1) + 1
    }
    histogram = bins.map { bin in tally.firstAskDays[(bin.lowerBound - 1)...(bin.upperBound - 1)].reduce(0, +) }
    asksPerUserPerYear = Double(tally.asks) * 365 / (Double(setup.users) * Double(setup.days))
  }

  /// Users asked more than once.
  public var usersAskedMoreThanOnce: Int { tally.usersAsked - tally.asksPerUser[1] }
  /// Light users asked.
  public var lightUsersAsked: Int { tally.usersAsked - tally.heavyUsersAsked }
  /// Users of the model's segment `index` asked (0 for a segment the run does not have).
  public func segmentUsersAsked(_ index: Int) -> Int {
    tally.segmentUsersAsked.indices.contains(index) ? tally.segmentUsersAsked[index] : 0
  }
  /// Asks per user who was asked; nil when nobody was.
  public var asksPerAskedUser: Double? { tally.usersAsked == 0 ? nil : Double(tally.asks) / Double(tally.usersAsked) }
  /// The shortest time between two asks to one user, in days.
  public var shortestGapDays: Double? { tally.shortestGap.map { Double($0) / 86_400 } }
}

// MARK: - Text

/// The text report.
extension SimulationReport {
  /// The plain-text report: the run and model, a table with one column per policy, and both distributions.
  public func text() -> String {
    let f = SimulationFormat.self
    let users = setup.users
    let activity = outcome.activity
    var output =
      "simulated \(f.grouped(users)) user\(users == 1 ? "" : "s") for \(f.grouped(setup.days)) day\(setup.days == 1 ? "" : "s") (seed \(setup.seed))\n"
    for (index, line) in setup.model.summaryLines.enumerated() {
      output += (index == 0 ? "model:    " : "          ") + line + "\n"
    }
    let perUser = { (count: Int) in f.decimal(Double(count) / Double(users), places: 1) }
    output +=
      "activity: per user, \(perUser(activity.activeDays)) days with the app open, \(perUser(activity.sessions)) sessions, "
      + "\(perUser(activity.events)) significant events,\n"
      + "          \(perUser(activity.checks)) prompt checks (policy decisions) and \(perUser(activity.updates)) app updates\n"
    output += "\n"

    var table = SimulationTable(columns: policies.map(\.name))
    table.row("users asked", policies.map { share($0.tally.usersAsked, of: users) })
    table.row("  heavy users", policies.map { share($0.tally.heavyUsersAsked, of: $0.heavyUsers) })
    table.row("  light users", policies.map { share($0.lightUsersAsked, of: users - $0.heavyUsers) })
    for (index, segment) in setup.model.segments.enumerated() {
      table.row(
        "  segment `\(segment.name)`",
        policies.map { share($0.segmentUsersAsked(index), of: outcome.activity.segmentUsers(index)) })
    }
    table.section("first ask (day since install)")
    for (index, percent) in SimulationReport.percentiles.enumerated() {
      let label = percent == 50 ? "median" : "\(percent)th percentile"
      table.row("  " + label, policies.map { $0.percentiles[index].map { "day \($0)" } ?? "-" })
    }
    table.row("asks", policies.map { f.grouped($0.tally.asks) })
    table.row("asks per user per year", policies.map { f.decimal($0.asksPerUserPerYear, places: 2) })
    table.row("asks per asked user", policies.map { $0.asksPerAskedUser.map { f.decimal($0, places: 2) } ?? "-" })
    table.row("users asked more than once", policies.map { share($0.usersAskedMoreThanOnce, of: users) })
    table.row("most asks to one user", policies.map { f.grouped($0.tally.maximumAsks) })
    table.row(
      "shortest time between asks",
      policies.map { $0.shortestGapDays.map { f.decimal($0, places: 1) + " days" } ?? "-" })
    table.row(
      "asks after a \"no thanks\"",
      policies.map { asksToUsers($0.tally.asksAfterDecline, $0.tally.usersAskedAfterDecline) })
    table.row(
      "asks beyond 3 in 365 days",
      policies.map { asksToUsers($0.tally.asksBeyondYearlyLimit, $0.tally.usersBeyondYearlyLimit) })
    table.section("answers")
    table.row("  rate", policies.map { share($0.tally.rated, of: $0.tally.asks) })
    table.row("  remind me later", policies.map { share($0.tally.remindLater, of: $0.tally.asks) })
    table.row("  no thanks", policies.map { share($0.tally.declined, of: $0.tally.asks) })
    table.row("  dismissed", policies.map { share($0.tally.dismissed, of: $0.tally.asks) })
    table.row("users who rated", policies.map { share($0.tally.usersRated, of: users) })
    output += table.render()

    output += "\n"
    var histogram = SimulationTable(columns: policies.map(\.name))
    histogram.section("first asked on day (users)")
    let last = String(setup.days).count
    for (index, bin) in bins.enumerated() {
      let label =
        bin.count == 1
        ? "  day \(pad(bin.lowerBound, last))" : "  days \(pad(bin.lowerBound, last))-\(bin.upperBound)"
      histogram.row(label, policies.map { share($0.histogram[index], of: users) })
    }
    histogram.row("  never asked", policies.map { share(users - $0.tally.usersAsked, of: users) })
    output += histogram.render()

    output += "\n"
    var distribution = SimulationTable(columns: policies.map(\.name))
    distribution.section("asks per user (users)")
    for count in 0..<SimulationSetup.askBuckets {
      let label = count == SimulationSetup.askBuckets - 1 ? "\(count) or more" : String(count)
      distribution.row("  " + label, policies.map { share($0.tally.asksPerUser[count], of: users) })
    }
    output += distribution.render()
    output += explanationText()

    let failures = policies.map(\.tally.managerFailures).reduce(0, +)
    if failures > 0 {
      output += "\nwarning: \(failures) review managers could not be created; their users were never asked\n"
    }
    return output
  }

  /// The sections that explain the outcome: what the policies read from the behaviour model,
  /// each rule and condition at the prompt checks, and what blocked the asks.
  private func explanationText() -> String {
    let f = SimulationFormat.self
    var output = "\n"
    var behaviour = SimulationTable(columns: ["in the model"])
    behaviour.section("behaviour the policies read")
    for input in inputs {
      let label: String
      switch input.kind {
      case .event:
        label =
          "  event `\(input.name)`" + (input.readAs.isEmpty ? "" : " (" + input.readAs.joined(separator: ", ") + ")")
      case .fact: label = "  fact `\(input.name)`"
      }
      behaviour.row(label, [input.stated])
    }
    output += behaviour.render()
    for (summary, explanation) in zip(policies, explanations) where !explanation.rules.isEmpty {
      output += "\n"
      var rules = SimulationTable(columns: ["held", "evaluated"])
      let stride = setup.explainStride
      let sample = stride == 1 ? "" : " of \(f.grouped(explanation.users)) users (1 in \(stride))"
      rules.section("rules at \(f.grouped(explanation.checks)) prompt checks\(sample): \(summary.name)")
      for rule in explanation.rules {
        rules.row("  " + rule.label, [share(rule.held, of: explanation.checks)])
        for condition in rule.conditions {
          rules.row(
            "    " + condition.text,
            [
              condition.evaluated == 0 ? "-" : share(condition.held, of: explanation.checks),
              share(condition.evaluated, of: explanation.checks),
            ])
        }
      }
      output += rules.render()
      output += "\n"
      var blocked = SimulationTable(columns: ["checks"])
      blocked.section("what blocked the asks: \(summary.name)")
      blocked.row("  asked", [share(explanation.asked, of: explanation.checks)])
      blocked.row("  a `never` rule held", [share(explanation.blockedByNever, of: explanation.checks)])
      for rule in explanation.rules where rule.kind == .never {
        blocked.row("    " + rule.label, [share(rule.held, of: explanation.checks)])
      }
      blocked.row("  no `ask` rule held", [share(explanation.noAskRuleHeld, of: explanation.checks)])
      for rule in explanation.rules where rule.kind == .ask {
        for condition in rule.conditions where condition.blocked > 0 {
          blocked.row("    `\(condition.text)` failed", [share(condition.blocked, of: explanation.checks)])
        }
      }
      output += blocked.render()
      for line in explanation.zeroLines { output += "  " + line + "\n" }
    }
    return output
  }

  /// `61.2% (612)`: a count with its share of `whole`; `-` when `whole` is 0.
  private func share(_ count: Int, of whole: Int) -> String {
    whole == 0 ? "-" : "\(SimulationFormat.percent(count, of: whole)) (\(SimulationFormat.grouped(count)))"
  }

  /// `12 (to 10 users)`.
  private func asksToUsers(_ asks: Int, _ users: Int) -> String {
    "\(SimulationFormat.grouped(asks)) (to \(SimulationFormat.grouped(users)) user\(users == 1 ? "" : "s"))"
  }

  /// `number` right-aligned to `width` digits.
  private func pad(_ number: Int, _ width: Int) -> String {
    let text = String(number)
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }
}

/// A text table: a label column, then one right-aligned column per policy, headed by its name.
struct SimulationTable {
  /// The column headings.
  let columns: [String]
  /// The rows: a label and its values (none for a section heading).
  private(set) var rows: [(label: String, values: [String])] = []

  /// Creates a table with the given column headings.
  init(columns: [String]) {
    self.columns = columns
  }

  /// Adds a row.
  mutating func row(_ label: String, _ values: [String]) {
    rows.append((label, values))
  }

  /// Adds a heading row without values.
  mutating func section(_ label: String) {
    rows.append((label, []))
  }

  /// The table as lines of text; the first line holds the headings; no trailing spaces.
  func render() -> String {
    let labelWidth = max(34, (rows.map(\.label.count).max() ?? 0) + 2)
    let widths = columns.indices.map { column in
      max(
        columns[column].count, rows.map { $0.values.indices.contains(column) ? $0.values[column].count : 0 }.max() ?? 0)
    }
    func line(_ label: String, _ values: [String]) -> String {
      var text = label
      guard !values.isEmpty else { return text + "\n" }
      text += String(repeating: " ", count: labelWidth - label.count)
      for (column, value) in values.enumerated() {
        text += (column == 0 ? "" : "   ") + String(repeating: " ", count: widths[column] - value.count) + value
      }
      return text + "\n"
    }
    var output = ""
    if let first = rows.first, first.values.isEmpty {
      output += line(first.label, columns)
      for row in rows.dropFirst() { output += line(row.label, row.values) }
    } else {
      output += line("", columns)
      for row in rows { output += line(row.label, row.values) }
    }
    return output
  }
}

// MARK: - JSON

/// The JSON report.
extension SimulationReport {
  /// The JSON report (one line). Keys, in order: `users`, `days`, `seed`, `model`, `activity`, `behaviour`, `policies`;
  /// see `policyc help simulate` for each policy's keys.
  public func json() -> String {
    var writer = JSONWriter()
    let model = setup.model
    let activity = outcome.activity
    writer.object {
      $0.key("users"); $0.number(setup.users)
      $0.key("days"); $0.number(setup.days)
      $0.key("seed"); $0.raw(String(setup.seed))
      $0.key("model")
      $0.object {
        $0.key("heavyShare"); $0.decimal(model.heavyShare)
        $0.key("heavyOpenRate"); $0.decimal(model.heavyOpenRate)
        $0.key("lightOpenRate"); $0.decimal(model.lightOpenRate)
        $0.key("sessionsPerDay"); $0.decimal(model.sessionsPerDay)
        $0.key("eventsPerSession"); $0.decimal(model.eventsPerSession)
        $0.key("badSessionRate"); $0.decimal(model.badSessionRate)
        $0.key("rate"); $0.decimal(model.rateShare)
        $0.key("remind"); $0.decimal(model.remindShare)
        $0.key("decline"); $0.decimal(model.declineShare)
        $0.key("dismiss"); $0.decimal(model.dismissShare)
        $0.key("releaseEvery"); $0.number(model.releaseEvery)
      }
      $0.key("activity")
      $0.object {
        $0.key("heavyUsers"); $0.number(activity.heavyUsers)
        $0.key("activeDays"); $0.number(activity.activeDays)
        $0.key("sessions"); $0.number(activity.sessions)
        $0.key("significantEvents"); $0.number(activity.events)
        $0.key("badSessions"); $0.number(activity.badSessions)
        $0.key("promptChecks"); $0.number(activity.checks)
        $0.key("updates"); $0.number(activity.updates)
      }
      $0.key("behaviour")
      $0.array {
        for input in inputs {
          $0.object {
            $0.key("kind"); $0.string(input.kind.rawValue)
            $0.key("name"); $0.string(input.name)
            $0.key("readAs"); $0.array { for name in input.readAs { $0.string(name) } }
            $0.key("readBy"); $0.array { for name in input.readBy { $0.string(name) } }
            $0.key("stated"); $0.string(input.stated)
            $0.key("produced"); $0.bool(input.isProduced)
          }
        }
      }
      $0.key("policies")
      $0.array {
        for (index, summary) in policies.enumerated() { writePolicy(summary, explanations[index], &$0) }
      }
    }
    return writer.output + "\n"
  }

  /// Writes one policy's object.
  private func writePolicy(
    _ summary: SimulationPolicySummary, _ explanation: SimulationExplanation, _ writer: inout JSONWriter
  ) {
    let tally = summary.tally
    writer.object {
      $0.key("name"); $0.string(summary.name)
      $0.key("usersAsked"); $0.number(tally.usersAsked)
      $0.key("askedShare"); $0.decimal(Double(tally.usersAsked) / Double(setup.users))
      $0.key("heavyUsersAsked"); $0.number(tally.heavyUsersAsked)
      $0.key("lightUsersAsked"); $0.number(summary.lightUsersAsked)
      if !setup.model.segments.isEmpty {
        $0.key("segments")
        $0.array {
          for (index, segment) in setup.model.segments.enumerated() {
            $0.object {
              $0.key("name"); $0.string(segment.name)
              $0.key("users"); $0.number(outcome.activity.segmentUsers(index))
              $0.key("asked"); $0.number(summary.segmentUsersAsked(index))
            }
          }
        }
      }
      $0.key("firstAskDay")
      $0.object {
        for (index, percent) in SimulationReport.percentiles.enumerated() {
          $0.key(percent == 50 ? "median" : "p\(percent)")
          if let day = summary.percentiles[index] { $0.number(day) } else { $0.null() }
        }
        $0.key("histogram")
        $0.array {
          for (index, bin) in bins.enumerated() {
            $0.object {
              $0.key("from"); $0.number(bin.lowerBound)
              $0.key("to"); $0.number(bin.upperBound)
              $0.key("users"); $0.number(summary.histogram[index])
            }
          }
        }
        $0.key("byDay")
        $0.array { for count in tally.firstAskDays { $0.number(count) } }
      }
      $0.key("asks"); $0.number(tally.asks)
      $0.key("asksPerUserPerYear"); $0.decimal(summary.asksPerUserPerYear)
      $0.key("asksPerUser")
      $0.array {
        for (count, users) in tally.asksPerUser.enumerated() {
          $0.object {
            $0.key("asks"); $0.number(count)
            $0.key("orMore"); $0.bool(count == SimulationSetup.askBuckets - 1)
            $0.key("users"); $0.number(users)
          }
        }
      }
      $0.key("usersAskedMoreThanOnce"); $0.number(summary.usersAskedMoreThanOnce)
      $0.key("maximumAsks"); $0.number(tally.maximumAsks)
      $0.key("shortestGapDays"); if let gap = summary.shortestGapDays { $0.decimal(gap) } else { $0.null() }
      $0.key("asksAfterDecline"); $0.number(tally.asksAfterDecline)
      $0.key("usersAskedAfterDecline"); $0.number(tally.usersAskedAfterDecline)
      $0.key("asksBeyond3In365Days"); $0.number(tally.asksBeyondYearlyLimit)
      $0.key("usersBeyond3In365Days"); $0.number(tally.usersBeyondYearlyLimit)
      $0.key("answers")
      $0.object {
        $0.key("rate"); $0.number(tally.rated)
        $0.key("remindLater"); $0.number(tally.remindLater)
        $0.key("decline"); $0.number(tally.declined)
        $0.key("dismiss"); $0.number(tally.dismissed)
      }
      $0.key("usersRated"); $0.number(tally.usersRated)
      $0.key("checks")
      $0.object {
        $0.key("users"); $0.number(explanation.users)
        $0.key("total"); $0.number(explanation.checks)
        $0.key("asked"); $0.number(explanation.asked)
        $0.key("blockedByNever"); $0.number(explanation.blockedByNever)
        $0.key("noAskRuleHeld"); $0.number(explanation.noAskRuleHeld)
        $0.key("rules")
        $0.array {
          for rule in explanation.rules {
            $0.object {
              $0.key("rule"); $0.string(rule.label)
              $0.key("kind"); $0.string(rule.kind.rawValue)
              $0.key("held"); $0.number(rule.held)
              $0.key("faulted"); $0.number(rule.faulted)
              $0.key("conditions")
              $0.array {
                for condition in rule.conditions {
                  $0.object {
                    $0.key("condition"); $0.string(condition.text)
                    $0.key("held"); $0.number(condition.held)
                    $0.key("evaluated"); $0.number(condition.evaluated)
                    $0.key("blocked"); $0.number(condition.blocked)
                    $0.key("reason"); if let reason = condition.reason { $0.string(reason) } else { $0.null() }
                    if let note = condition.note {
                      $0.key("note"); $0.string(note)
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

extension JSONWriter {
  /// Writes a decimal value with at most 6 decimals, trailing zeros removed (`0.25`, `1`); `null` if not finite.
  mutating func decimal(_ value: Double) {
    raw(value.isFinite ? SimulationFormat.trimmed(value, places: 6) : "null")
  }
}

extension SimulationReport {
  /// Runs `setup` on every core and summarises it: the report `policyc simulate` prints, as a value.
  ///
  /// The same setup (and seed) gives the same report, whatever the machine and scheduling.
  public static func simulate(_ setup: SimulationSetup, progress: SimulationProgress? = nil) -> SimulationReport {
    SimulationReport(setup: setup, outcome: SimulationEngine.run(setup, progress: progress))
  }

  /// The self-contained HTML report (inline CSS and SVG charts).
  public func html() -> String {
    SimulationHTML.render(self)
  }
}
