import PolicyCore
import ReviewPolicy

/// The behaviour constants of one segment's users (or of every user, without segments), prepared
/// once per run from the segment's model (``SimulationSegment/model(over:)``) and shared by the workers.
struct SimulationSegmentPlan: Sendable {
  /// The chance that a user is a heavy user.
  let heavy: SimulationProbability
  /// A heavy user's daily chance of opening the app.
  let heavyOpen: SimulationProbability
  /// A light user's daily chance of opening the app.
  let lightOpen: SimulationProbability
  /// The chance of one more session on a day with the app open (geometric).
  let extraSession: SimulationProbability
  /// The chance of one more significant event in a session (geometric), in the classic model.
  let event: SimulationProbability
  /// The chance that a session goes badly.
  let badSession: SimulationProbability
  /// Answer draws below this threshold rate.
  let rate: UInt64
  /// Answer draws below this threshold (and not below `rate`) choose "remind me later".
  let remind: UInt64
  /// Answer draws below this threshold (and not below `remind`) decline; the rest dismiss.
  let decline: UInt64
  /// The named events of a session, with the chance of one more of each (geometric); empty for the classic model.
  let events: [(name: String, more: SimulationProbability)]
  /// The names of the distributed facts, in the order of ``factThresholds``.
  let factNames: [String]
  /// Per distributed fact: the upper threshold of each value's draw.
  let factThresholds: [[UInt64]]
  /// Per policy, per distributed fact, per value: the value to set (nil when the policy does not declare the fact).
  let factValues: [[[Value]?]]

  /// The constants of `model`, for policies whose new-user trackers are `trackers` (nil: does not compile).
  init(_ model: SimulationModel, trackers: [ReviewTracker?]) {
    heavy = SimulationProbability(model.heavyShare)
    heavyOpen = SimulationProbability(model.heavyOpenRate)
    lightOpen = SimulationProbability(model.lightOpenRate)
    extraSession = SimulationProbability((model.sessionsPerDay - 1) / model.sessionsPerDay)
    event = SimulationProbability.geometric(mean: model.eventsPerSession)
    badSession = SimulationProbability(model.badSessionRate)
    rate = SimulationProbability(model.rateShare).threshold
    remind = SimulationProbability(model.rateShare + model.remindShare).threshold
    decline = SimulationProbability(model.rateShare + model.remindShare + model.declineShare).threshold
    events = model.events.map { ($0.name, SimulationProbability.geometric(mean: $0.perSession)) }
    factNames = model.facts.map(\.name)
    factThresholds = model.facts.map { fact in
      SimulationSegmentPlan.thresholds(fact.shares.map(\.share))
    }
    factValues = trackers.map { tracker in
      model.facts.map { fact -> [Value]? in
        guard let slots = tracker?.policy.layout.slots,
          let slot = slots.first(where: { $0.name == fact.name && $0.isDeclaration })
        else { return nil }
        let values = fact.shares.compactMap { SimulationAppFacts.parse($0.value, as: slot.type) }
        return values.count == fact.shares.count ? values : nil
      }
    }
  }

  /// The upper threshold of each choice's 53-bit draw, for choices with `shares` adding up to 1.
  static func thresholds(_ shares: [Double]) -> [UInt64] {
    var running = 0.0
    return shares.map { share in
      running += share
      return SimulationProbability(running).threshold
    }
  }

  /// The choice of a 53-bit `draw` among `thresholds` (the last when rounding leaves it above them all).
  @inline(__always)
  static func choice(_ draw: UInt64, among thresholds: [UInt64]) -> Int {
    thresholds.firstIndex { draw < $0 } ?? (thresholds.count - 1)
  }
}

extension SeededGenerator {
  /// What the run's seed is XORed with for the users' segment draws: their own streams, so a
  /// model without segments draws exactly as it did before segments existed ("segments" in ASCII).
  static let segmentSeedSalt: UInt64 = 0x7365_676D_656E_7473

  /// The segment of user `user` in a run seeded with `seed`, among segments whose draws end at `thresholds`:
  /// one draw from the user's segment stream; 0 without segments (no draw).
  static func segment(ofUser user: Int, seed: UInt64, thresholds: [UInt64]) -> Int {
    guard thresholds.count > 1 else { return 0 }
    var random = SimulationRandom(seed: seed ^ segmentSeedSalt, user: user, stream: 0)
    return SimulationSegmentPlan.choice(random.next53(), among: thresholds)
  }
}
