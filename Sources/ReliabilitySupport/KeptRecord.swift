// What a hostile update must leave intact, shared by the reliability tests, `review-stress
// hostile` and the `update` fuzz target. It imports no test framework.

import ReviewPolicy

/// The counts and the answer a user's state must keep through an update and relaunches.
public struct KeptRecord: Equatable, Sendable, CustomStringConvertible {
  /// Launches and foregrounds over the install.
  public var uses: Int
  /// Significant events over the install.
  public var events: Int
  /// `export` events over the install.
  public var export: Int
  /// Prompts over the install.
  public var prompts: Int
  /// Whether the user declined ("no thanks") in any version.
  public var declined: Bool
  /// The answers kept.
  public var responses: Int

  /// The record of `state`.
  public init(_ state: ReviewState) {
    uses = state.totalUses
    events = state.totalEvents
    export = state.totalEventsByName["export"] ?? 0
    prompts = state.totalPrompts
    declined = state.declinedAny
    responses = state.responses.count
  }

  /// `uses 3, events 5 (export 5), prompts 1, declined, 1 answer`.
  public var description: String {
    "uses \(uses), events \(events) (export \(export)), prompts \(prompts), "
      + (declined ? "declined" : "not declined") + ", \(responses) answers"
  }
}
