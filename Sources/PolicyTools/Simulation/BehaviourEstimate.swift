/// A behaviour model estimated from an app's records (``BehaviourFit``), written as a behaviour
/// file (``behaviourFile``) that `policyc simulate --behaviour` reads.
///
/// - Open rates: the days each install opened the app after its first, from its first record to
///   the last record of all, fitted as a mixture of heavy and light users (``MixtureFit``).
/// - `sessionsPerDay`: sessions per day with a session; `badSessions`: sessions in which an
///   action went badly, per session.
/// - Events: each name's events per session. An event that a share of installs never produces
///   (zero inflation, by a likelihood-ratio test at p < 0.001, ``segmentStatistic``) splits the
///   users into segments `with NAME` and `without NAME`; with several such events (at most
///   ``maximumSegmentEvents``, the strongest first), into every combination, taken as independent.
/// - `answers`: the known answers to prompts (not those given outside a prompt); `dismissed`,
///   `feedback` and `unknown` count as dismissals. Nothing when no answer is known.
/// - `releaseEvery`: the median days between the first records of consecutive app versions.
///
/// Records carry no fact values, so `facts` is not estimated.
package struct BehaviourEstimate: Sendable {
  /// The likelihood-ratio statistic above which an event's zero inflation makes segments: the
  /// chi-squared (1 degree of freedom) quantile of p = 0.001.
  package static let segmentStatistic = 10.83
  /// The most events that make segments (2^3 = 8 segments).
  package static let maximumSegmentEvents = 3
  /// The smallest share of installs without an event that makes segments.
  package static let smallestSegment = 0.01

  /// One event's estimate.
  package struct Event: Sendable {
    /// Its name.
    package var name: String
    /// The fit.
    package var fit: MixtureFit.EventRate

    /// Whether a share of installs never produces it (it makes segments).
    package var isInflated: Bool {
      fit.statistic > BehaviourEstimate.segmentStatistic && fit.neverShare >= BehaviourEstimate.smallestSegment
        && fit.neverShare <= 1 - BehaviourEstimate.smallestSegment
    }
  }

  /// Records read.
  package var records = 0
  /// Installs seen.
  package var installs = 0
  /// Days from the first record to the last.
  package var days = 0
  /// Sessions seen.
  package var sessions = 0
  /// The open-rate mixture; nil without a day observed after an install's first.
  package var openRates: MixtureFit.OpenRates?
  /// Sessions per day with a session; nil without sessions.
  package var sessionsPerDay: Double?
  /// Share of sessions that went badly; nil without sessions.
  package var badSessions: Double?
  /// The events, by name.
  package var events: [Event] = []
  /// Significant events of names beyond ``BehaviourFit/maximumEventNames``.
  package var otherEvents = 0
  /// Prompts shown.
  package var promptsShown = 0
  /// Answers to prompts, by answer (`rated`, `declined`, ...).
  package var answers: [String: Int] = [:]
  /// Answers given outside a prompt (not in the mix).
  package var outsideAnswers = 0
  /// Days between releases; 0 for one version.
  package var releaseEvery = 0
  /// App versions seen.
  package var versions = 0

  /// The events that make segments, the strongest first.
  package var segmentEvents: [Event] {
    Array(
      events.filter(\.isInflated).sorted { $0.fit.statistic > $1.fit.statistic }.prefix(Self.maximumSegmentEvents))
  }

  /// The segments: names and shares in ten-thousandths (adding up to 10,000), with each
  /// segment event's rate in it. Empty without segment events.
  package var segments: [(name: String, share: Int, events: [(name: String, rate: Double)])] {
    let splitting = segmentEvents
    guard !splitting.isEmpty else { return [] }
    var result: [(name: String, share: Int, events: [(name: String, rate: Double)])] = []
    for combination in 0..<(1 << splitting.count) {
      var share = 1.0
      var names: [String] = []
      var rates: [(name: String, rate: Double)] = []
      for (position, event) in splitting.enumerated() {
        let produces = combination & (1 << position) == 0
        share *= produces ? 1 - event.fit.neverShare : event.fit.neverShare
        names.append((produces ? "with " : "without ") + event.name)
        rates.append((event.name, produces ? event.fit.rate : 0))
      }
      result.append((names.joined(separator: ", "), Int((share * 10_000).rounded()), rates))
    }
    // Names a behaviour file takes (at most 64 bytes): long event names make numbered ones.
    if result.contains(where: { $0.name.utf8.count > SimulationSegment.maximumNameBytes }) {
      for index in result.indices { result[index].name = "segment \(index + 1)" }
    }
    // The rounded shares add up to exactly 10,000: the largest takes the difference.
    let difference = 10_000 - result.reduce(0) { $0 + $1.share }
    if let largest = result.indices.max(by: { result[$0].share < result[$1].share }) {
      result[largest].share += difference
    }
    return result
  }

  /// Shares of the known answers: rate, decline, later (the rest dismiss); nil when none is known.
  package var answerShares: (rate: Double, decline: Double, later: Double)? {
    let known = ["rated", "declined", "remindLater", "dismissed", "feedback"].reduce(0) { $0 + answers[$1, default: 0] }
    guard known > 0 else { return nil }
    func share(_ answer: String) -> Double { Double(answers[answer, default: 0]) / Double(known) }
    return (share("rated"), share("declined"), share("remindLater"))
  }

  /// The behaviour file: keys in the documented order, numbers to 4 decimals.
  package var behaviourFile: String {
    var lines: [String] = []
    let splitting = Set(segmentEvents.map(\.name))
    let plain = events.filter { !splitting.contains($0.name) }
    let eventList = plain.map { "\(JSONWriter.quoted($0.name)): \(Self.decimal(min($0.fit.pooledRate, 20)))" }
    lines.append("\"events\": {\(eventList.joined(separator: ", "))}")
    lines.append("\"releaseEvery\": \(releaseEvery)")
    if let sessionsPerDay { lines.append("\"sessionsPerDay\": \(Self.decimal(min(max(sessionsPerDay, 1), 20)))") }
    if let shares = answerShares {
      // Rounded down to ten-thousandths, so the three never add up to more than 100% (the reader's rule).
      func share(_ value: Double) -> String { Self.decimal((value * 10_000).rounded(.down) / 10_000) }
      lines.append(
        "\"answers\": {\"rate\": \(share(shares.rate)), \"decline\": \(share(shares.decline)), "
          + "\"later\": \(share(shares.later))}")
    }
    if let openRates {
      lines.append("\"heavyShare\": \(Self.decimal(openRates.heavyShare))")
      lines.append("\"heavyOpenRate\": \(Self.decimal(openRates.heavyRate))")
      lines.append("\"lightOpenRate\": \(Self.decimal(openRates.lightRate))")
    }
    if let badSessions { lines.append("\"badSessions\": \(Self.decimal(min(max(badSessions, 0), 1)))") }
    let segments = self.segments
    if !segments.isEmpty {
      let entries = segments.map { segment in
        let rates = segment.events.map { "\(JSONWriter.quoted($0.name)): \(Self.decimal(min($0.rate, 20)))" }
        return "    \(JSONWriter.quoted(segment.name)): {\"share\": \(Self.decimal(Double(segment.share) / 10_000)), "
          + "\"events\": {\(rates.joined(separator: ", "))}}"
      }
      lines.append("\"segments\": {\n" + entries.joined(separator: ",\n") + "\n  }")
    }
    return "{\n" + lines.map { "  " + $0 }.joined(separator: ",\n") + "\n}\n"
  }

  /// What the fit read and what it could not estimate, one sentence per line.
  package var notes: [String] {
    let count = SimulationFormat.grouped
    var notes = [
      "fitted \(count(installs)) installs over \(count(days)) days from \(count(records)) records "
        + "(\(count(sessions)) sessions, \(count(promptsShown)) prompts shown)",
      "records carry no fact values: give `facts` by hand",
    ]
    if openRates == nil { notes.append("no install was seen on two days: the open rates keep their defaults") }
    if sessionsPerDay == nil { notes.append("no sessions: sessions per day and bad sessions keep their defaults") }
    let unknown = answers["unknown", default: 0]
    if answerShares == nil {
      notes.append("no prompt has a known answer: the answer mix keeps its default")
    } else if unknown > 0 {
      notes.append("\(count(unknown)) prompts have no known answer (left out of the answer mix)")
    }
    if otherEvents > 0 {
      notes.append(
        "\(count(otherEvents)) events of names beyond the first \(BehaviourFit.maximumEventNames) are not estimated")
    }
    for event in segmentEvents {
      notes.append(
        "`\(event.name)`: \(SimulationFormat.share(1 - event.fit.neverShare)) of installs produce it, "
          + "\(Self.decimal(event.fit.rate)) per session (likelihood ratio "
          + "\(count(Int(min(event.fit.statistic, 1e15).rounded()))) against one rate for all)")
    }
    return notes
  }

  /// `value` with at most 4 decimals, without trailing zeros.
  static func decimal(_ value: Double) -> String { SimulationFormat.trimmed(value, places: 4) }
}
