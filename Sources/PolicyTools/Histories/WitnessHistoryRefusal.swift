/// Why no replayable history gives a set of facts: the facts involved and the reason, in words.
public struct WitnessHistoryRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  /// The facts the reason is about, as policies write them.
  public var facts: [String]
  /// The reason, a sentence: "`days` = 30, `total_days` = 10: this version would start before the install ...".
  public var reason: String

  /// The reason.
  public var description: String { reason }
}
