/// The behaviour model of `policyc simulate`: how the synthetic users use the app
/// and answer prompts. Every parameter has a command-line flag and a default.
///
/// **Population.** Every user installs the app on day 1 of their own timeline (the
/// report measures days since install, so "day 34" means the 34th day after
/// install for everyone) and opens it on day 1. A share ``heavyShare`` of users
/// are heavy users, who open the app on any later day with probability
/// ``heavyOpenRate``; the others are light users (``lightOpenRate``). Each day is
/// decided independently, so a day without use costs one random draw.
///
/// **A day with the app open** has 1 + *k* sessions, *k* geometric so that the
/// mean is ``sessionsPerDay``. The first session starts between 07:00 and 19:00
/// and begins with `appLaunched()`, later ones 30 minutes to 3.5 hours after the
/// previous one with `appEnteredForeground()` (no session starts after 23:00). A
/// session is `sessionStarted()`, a prompt check (`promptIfAppropriate()`), 1 to 4
/// actions of +30 points each (`action(score:isBad:)`), a number of significant
/// events named `export` (geometric with mean ``eventsPerSession``, each
/// `significantEvent("export")`, which may prompt), then `sessionEnded()`.
/// Actions and events are 30 seconds to 5 minutes apart. A share
/// ``badSessionRate`` of sessions go badly: their last action scores -40 and marks
/// the session bad (before the session's events).
///
/// **Answers.** A prompt is answered "rate" with probability ``rateShare``,
/// "remind me later" with ``remindShare``, "no thanks" with ``declineShare``; the
/// rest dismiss it without answering. The answer is recorded by the manager.
///
/// **Releases.** A new app version ships every ``releaseEvery`` days (0: never).
/// The release calendar is shifted per user by a random offset, so updates do not
/// reach everyone at the same age. A user picks up a release at the first launch
/// on or after its day: the manager is created again with the new version over the
/// same store, as a relaunch does, which starts the per-version facts again.
///
/// **Comparisons.** Each user's behaviour comes from a random stream seeded with
/// the run's seed and the user's index, and their answers from a second stream, so
/// under two policies a user opens the app on the same days, has the same sessions
/// and events, and gives the same answer to their first, second, ... prompt; only
/// when (and whether) they are asked differs.
///
/// **Segments.** A model with ``segments`` splits the users into named groups by share; each
/// user's segment is drawn from a stream of its own (so a model without segments draws exactly
/// as before), and the segment's users follow ``SimulationSegment/model(over:)``: this model
/// with the segment's overrides.
public struct SimulationModel: Sendable, Hashable {
  /// The share of heavy users, 0...1.
  public var heavyShare = 0.2
  /// The probability that a heavy user opens the app on a given day.
  public var heavyOpenRate = 0.8
  /// The probability that a light user opens the app on a given day.
  public var lightOpenRate = 0.15
  /// The mean number of sessions on a day with the app open, at least 1.
  public var sessionsPerDay = 1.5
  /// The mean number of significant events per session.
  public var eventsPerSession = 1.0
  /// The share of sessions that go badly.
  public var badSessionRate = 0.05
  /// The probability of answering a prompt with "rate".
  public var rateShare = 0.25
  /// The probability of answering a prompt with "remind me later".
  public var remindShare = 0.35
  /// The probability of answering a prompt with "no thanks".
  public var declineShare = 0.4
  /// Days between app releases; 0 for a single version.
  public var releaseEvery = 30
  /// Named significant events and their mean count per session (from a behaviour file); empty for
  /// the classic model: ``eventsPerSession`` events named `export`.
  public var events: [SimulationEventRate] = []
  /// App facts with a distribution of values over users (from a behaviour file).
  public var facts: [SimulationFactDistribution] = []
  /// Named groups of users with their own settings, whose shares add up to 1 (from a behaviour
  /// file); empty: every user follows this model.
  public var segments: [SimulationSegment] = []

  /// The names of the events the model produces, in order.
  public var eventNames: [String] { events.isEmpty ? ["export"] : events.map(\.name) }

  /// The default model (the defaults of `policyc simulate`).
  public init() {}

  /// The share of prompts dismissed without an answer: what the three answers leave.
  public var dismissShare: Double { max(0, 1 - rateShare - remindShare - declineShare) }

  /// The command-line flags of the model, in help order, with their meaning.
  public static let options: [(name: String, meaning: String)] = [
    ("heavy-share", "share of heavy users"),
    ("heavy-open-rate", "daily open probability of heavy users"),
    ("light-open-rate", "daily open probability of light users"),
    ("sessions", "mean sessions per day with the app open (>= 1)"),
    ("event-rate", "mean significant events per session"),
    ("bad-sessions", "share of sessions that go badly"),
    ("rate", "probability of answering \"rate\""),
    ("remind", "probability of answering \"remind me later\""),
    ("decline", "probability of answering \"no thanks\""),
    ("release-every", "days between app releases (0: never)"),
  ]

  /// Sets the parameter of flag `name` from `text`, or returns why the value is not acceptable.
  ///
  /// Shares and probabilities accept `0.2` or `20%`. A flag wins over the behaviour file
  /// everywhere: it sets the top level and clears every segment's own value of the parameter.
  public mutating func set(_ name: String, _ text: String) -> String? {
    if let problem = setTopLevel(name, text) { return problem }
    if let keyPath = SimulationModel.segmentParameter(name) {
      for index in segments.indices { segments[index][keyPath: keyPath] = nil }
    }
    return nil
  }

  /// Sets the top-level parameter of flag `name` from `text`, or returns why the value is not acceptable.
  private mutating func setTopLevel(_ name: String, _ text: String) -> String? {
    if let keyPath = SimulationModel.shareParameter(name) {
      guard let value = SimulationModel.share(text) else {
        return SimulationMessages.invalidShareFlag(name, text)
      }
      self[keyPath: keyPath] = value
      return nil
    }
    switch name {
    case "sessions":
      guard let value = Double(text), value.isFinite, value >= 1, value <= 20 else {
        return SimulationMessages.invalidSessions(text)
      }
      sessionsPerDay = value
    case "event-rate":
      guard let value = Double(text), value.isFinite, value >= 0, value <= 20 else {
        return SimulationMessages.invalidEventsPerSession(text)
      }
      eventsPerSession = value
    case "release-every":
      guard let value = Int(text), value >= 0, value <= 3650 else {
        return SimulationMessages.invalidReleaseEvery(text)
      }
      releaseEvery = value
    default:
      return SimulationMessages.unknownModelFlag(name)
    }
    return nil
  }

  /// The parameter of a flag that takes a share or a probability, if `name` is one.
  private static func shareParameter(_ name: String) -> WritableKeyPath<SimulationModel, Double>? {
    switch name {
    case "heavy-share": \.heavyShare
    case "heavy-open-rate": \.heavyOpenRate
    case "light-open-rate": \.lightOpenRate
    case "bad-sessions": \.badSessionRate
    case "rate": \.rateShare
    case "remind": \.remindShare
    case "decline": \.declineShare
    default: nil
    }
  }

  /// Checks the parameters together: the three answers cannot add up to more than 1, at the top
  /// level or in a segment.
  public func validate() -> String? {
    let total = rateShare + remindShare + declineShare
    guard total <= 1 + 1e-9 else {
      return SimulationMessages.answerFlagsOverWhole(total: total)
    }
    for segment in segments {
      let model = segment.model(over: self)
      let total = model.rateShare + model.remindShare + model.declineShare
      guard total <= 1 + 1e-9 else {
        return SimulationMessages.segmentAnswerFlagsOverWhole(segment.name, total: total)
      }
    }
    return nil
  }

  /// Parses a share: a decimal from 0 to 1, or a percentage from 0% to 100%; nil otherwise.
  private static func share(_ text: String) -> Double? {
    var body = Substring(text)
    var divisor = 1.0
    if body.hasSuffix("%") {
      body = body.dropLast()
      divisor = 100
    }
    guard let value = Double(body), value.isFinite, value >= 0, value / divisor <= 1 else { return nil }
    return value / divisor
  }

  /// The events per session, for reports: `1.00 significant events per session` in the classic model.
  private var eventSummary: String {
    guard !events.isEmpty else {
      return "\(SimulationFormat.decimal(eventsPerSession, places: 2)) significant events per session"
    }
    return "events per session: "
      + events.map { "\($0.name) \(SimulationFormat.trimmed($0.perSession, places: 3))" }.joined(separator: ", ")
  }

  /// One sentence per aspect of the model, for reports.
  public var summaryLines: [String] {
    let p = SimulationFormat.share
    let releases = releaseEvery == 0 ? "a single app version" : "a new app version every \(releaseEvery) days"
    return [
      "\(p(heavyShare)) heavy users open the app on \(p(heavyOpenRate)) of days, the others on \(p(lightOpenRate)) (everyone on day 1)",
      "\(SimulationFormat.decimal(sessionsPerDay, places: 2)) sessions per day with the app open, \(eventSummary), \(p(badSessionRate)) bad sessions",
      "answers: rate \(p(rateShare)), remind me later \(p(remindShare)), no thanks \(p(declineShare)), dismiss \(p(dismissShare)); \(releases)",
    ] + segmentSummaryLines
  }

  /// One line per segment, for reports: `segment buyers (20%): purchase 0.05 per session`; none without segments.
  private var segmentSummaryLines: [String] {
    segments.map { segment in
      let changes = segment.overrideSummary
      return "segment \(segment.name) (\(SimulationFormat.share(segment.share))): "
        + (changes.isEmpty ? "as above" : changes)
    }
  }
}

/// A significant event of the behaviour model: its name and how often it happens.
public struct SimulationEventRate: Sendable, Hashable {
  /// The event name, as the app passes it to `significantEvent(_:)`.
  public var name: String
  /// The mean number of these events per session (geometric), 0...20.
  public var perSession: Double

  /// The event `name`, `perSession` times per session on average.
  public init(name: String, perSession: Double) {
    self.name = name
    self.perSession = perSession
  }
}

/// An app fact whose value differs between users: each user gets one value, drawn by share.
public struct SimulationFactDistribution: Sendable, Hashable {
  /// One value and the share of users who have it.
  public struct Share: Sendable, Hashable {
    /// The value as text, parsed by the fact's declared type (`pro`, `3`, `true`, `30d`).
    public var value: String
    /// The share of users, 0...1.
    public var share: Double

    /// `share` of the users have `value`.
    public init(value: String, share: Double) {
      self.value = value
      self.share = share
    }
  }

  /// The fact's name, as a policy declares it.
  public var name: String
  /// The values and their shares, adding up to 1.
  public var shares: [Share]

  /// The fact `name`, distributed as `shares`.
  public init(name: String, shares: [Share]) {
    self.name = name
    self.shares = shares
  }

  /// `free 70%, pro 30%`.
  public var summary: String {
    shares.map { "\($0.value) \(SimulationFormat.share($0.share))" }.joined(separator: ", ")
  }
}

/// A probability as a threshold for a 53-bit uniform draw: exact at 0 and 1.
struct SimulationProbability: Sendable, Hashable {
  /// Draws below this value succeed.
  var threshold: UInt64

  /// The probability `value` (clamped to 0...1).
  init(_ value: Double) {
    let clamped = value.isNaN ? 0 : min(max(value, 0), 1)
    threshold = UInt64((clamped * 9_007_199_254_740_992).rounded())
  }

  /// The continuation probability of a geometric count with mean `mean`: `mean / (1 + mean)`.
  static func geometric(mean: Double) -> SimulationProbability {
    SimulationProbability(mean / (1 + mean))
  }
}
