/// A named group of users whose behaviour differs from the rest of the model (a behaviour file's
/// `segments`): "20% of users buy about once a month, 80% never".
///
/// A segment is the model's top level with its own overrides: ``events`` are merged by name over
/// the top-level events (a rate given here replaces that event's rate, 0 means the segment never
/// produces it, and events not given keep the top-level rate), ``facts`` are merged by fact name
/// (a distribution given here replaces that fact's), and every other setting given here replaces
/// the top-level value; a setting that is nil keeps it. The release calendar is one for the app
/// and cannot be set per segment. Model flags on the command line win over the file everywhere:
/// they set the top level and clear every segment's override (``SimulationModel/set(_:_:)``).
public struct SimulationSegment: Sendable, Hashable {
  /// The segment's name, as the behaviour file writes it (non-empty, at most ``maximumNameBytes`` bytes).
  public var name: String
  /// The share of users in the segment, 0...1; the shares of a model's segments add up to 1.
  public var share: Double
  /// The segment's share of heavy users, or nil for the top level's.
  public var heavyShare: Double?
  /// The segment's daily open probability of heavy users, or nil for the top level's.
  public var heavyOpenRate: Double?
  /// The segment's daily open probability of light users, or nil for the top level's.
  public var lightOpenRate: Double?
  /// The segment's mean number of sessions on a day with the app open, or nil for the top level's.
  public var sessionsPerDay: Double?
  /// The segment's share of sessions that go badly, or nil for the top level's.
  public var badSessionRate: Double?
  /// The segment's probability of answering "rate", or nil for the top level's.
  public var rateShare: Double?
  /// The segment's probability of answering "remind me later", or nil for the top level's.
  public var remindShare: Double?
  /// The segment's probability of answering "no thanks", or nil for the top level's.
  public var declineShare: Double?
  /// Event rates that replace (or join) the top level's, by name, in file order.
  public var events: [SimulationEventRate] = []
  /// Fact distributions that replace (or join) the top level's, by name, in file order.
  public var facts: [SimulationFactDistribution] = []

  /// The most segments a model may have.
  public static let maximumCount = 64
  /// The longest segment name, in UTF-8 bytes.
  public static let maximumNameBytes = 64

  /// The segment `name` with `share` of the users, and no overrides yet.
  public init(name: String, share: Double) {
    self.name = name
    self.share = share
  }

  /// The model the segment's users follow: `base` (the top level) with this segment's overrides,
  /// and no segments of its own.
  public func model(over base: SimulationModel) -> SimulationModel {
    var model = base
    model.segments = []
    if let heavyShare { model.heavyShare = heavyShare }
    if let heavyOpenRate { model.heavyOpenRate = heavyOpenRate }
    if let lightOpenRate { model.lightOpenRate = lightOpenRate }
    if let sessionsPerDay { model.sessionsPerDay = sessionsPerDay }
    if let badSessionRate { model.badSessionRate = badSessionRate }
    if let rateShare { model.rateShare = rateShare }
    if let remindShare { model.remindShare = remindShare }
    if let declineShare { model.declineShare = declineShare }
    if !events.isEmpty {
      // The top level's events, or the default `export` events it stands for, then the overrides.
      var merged =
        base.events.isEmpty ? [SimulationEventRate(name: "export", perSession: base.eventsPerSession)] : base.events
      for event in events {
        if let index = merged.firstIndex(where: { $0.name == event.name }) {
          merged[index] = event
        } else {
          merged.append(event)
        }
      }
      model.events = merged
    }
    for fact in facts {
      if let index = model.facts.firstIndex(where: { $0.name == fact.name }) {
        model.facts[index] = fact
      } else {
        model.facts.append(fact)
      }
    }
    return model
  }

  /// What the segment changes, for the model summary: `purchase 0.05 per session, sessions 2`; empty when nothing.
  public var overrideSummary: String {
    let p = SimulationFormat.share
    var parts: [String] = events.map { "\($0.name) \(SimulationFormat.trimmed($0.perSession, places: 3)) per session" }
    parts += facts.map { "\($0.name) \($0.summary)" }
    if let sessionsPerDay { parts.append("\(SimulationFormat.decimal(sessionsPerDay, places: 2)) sessions per day") }
    if let heavyShare { parts.append("\(p(heavyShare)) heavy users") }
    if let heavyOpenRate { parts.append("heavy users open on \(p(heavyOpenRate)) of days") }
    if let lightOpenRate { parts.append("light users open on \(p(lightOpenRate)) of days") }
    if let badSessionRate { parts.append("\(p(badSessionRate)) bad sessions") }
    if let rateShare { parts.append("rate \(p(rateShare))") }
    if let remindShare { parts.append("remind me later \(p(remindShare))") }
    if let declineShare { parts.append("no thanks \(p(declineShare))") }
    return parts.joined(separator: ", ")
  }
}

extension SimulationModel {
  /// The model of each segment's users, in order (``SimulationSegment/model(over:)``); the model
  /// itself when it has no segments.
  public var segmentModels: [SimulationModel] {
    segments.isEmpty ? [self] : segments.map { $0.model(over: self) }
  }

  /// Sets the rate of the event `event.name` (`--event NAME=RATE`) at the top level and in every
  /// segment; the event joins the default `export` events when the top level names none.
  public mutating func setEvent(_ event: SimulationEventRate) {
    if events.isEmpty {
      events = [SimulationEventRate(name: "export", perSession: eventsPerSession)]
    }
    if let index = events.firstIndex(where: { $0.name == event.name }) {
      events[index] = event
    } else {
      events.append(event)
    }
    for index in segments.indices {
      if let position = segments[index].events.firstIndex(where: { $0.name == event.name }) {
        segments[index].events[position] = event
      }
    }
  }

  /// Removes the distribution of the fact `name` at the top level and in every segment (`--fact NAME=VALUE` gives
  /// every user one value).
  public mutating func removeDistribution(of name: String) {
    facts.removeAll { $0.name == name }
    for index in segments.indices { segments[index].facts.removeAll { $0.name == name } }
  }

  /// The facts distributed for every user, whatever their segment: the top level's, and those every segment gives.
  public var everyUserFacts: [SimulationFactDistribution] {
    let models = segmentModels
    guard let first = models.first else { return facts }
    return first.facts.filter { fact in models.allSatisfy { model in model.facts.contains { $0.name == fact.name } } }
  }

  /// Every fact distribution of every segment's users (empty without segments), for checking the values: a fact
  /// only some segments distribute takes a default for the other users.
  public var someUserFacts: [SimulationFactDistribution] {
    segments.isEmpty ? [] : segmentModels.flatMap(\.facts)
  }

  /// Whether the model names events anywhere: at its top level or in a segment.
  public var namesEvents: Bool {
    !events.isEmpty || segments.contains { !$0.events.isEmpty }
  }

  /// The segment keypath a model flag `name` also sets, if the flag sets a per-segment value.
  static func segmentParameter(_ name: String) -> WritableKeyPath<SimulationSegment, Double?>? {
    switch name {
    case "heavy-share": \.heavyShare
    case "heavy-open-rate": \.heavyOpenRate
    case "light-open-rate": \.lightOpenRate
    case "sessions": \.sessionsPerDay
    case "bad-sessions": \.badSessionRate
    case "rate": \.rateShare
    case "remind": \.remindShare
    case "decline": \.declineShare
    default: nil
    }
  }
}
