/// Why no replayable history gives a set of facts: the facts involved and the reason, in words.
public struct WitnessHistoryRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  /// The facts the reason is about, as policies write them.
  public var facts: [String]
  /// The reason, a sentence: "`days` = 30, `total_days` = 10: this version would start before the install ...".
  public var reason: String
  /// Whether the facts are real but their history is longer or wider than a test file replays
  /// (a count above ``WitnessHistory/maximumRepetitions``, too many steps in all, instants outside
  /// the years 1 to 9999, an event name a step cannot write) or needs session scores beyond the
  /// default score bounds, -200 to 200, that `policyc test` replays with (an app may configure
  /// wider ones); false when no history gives them.
  public var exceedsLimits = false

  /// The reason.
  public var description: String { reason }
}
