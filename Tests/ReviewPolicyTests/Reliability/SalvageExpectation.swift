import Foundation
import Testing

@testable import ReviewPolicy

/// What the stores recover from unusable bytes, for the tests that check a recovery: a corrupt
/// state gives back its members that are whole and of the right type (``ReviewStateSalvage``).
enum SalvageExpectation {
  /// The state a store recovers from `bytes` reported as `kind`; nil when it recovers nothing
  /// (starts from a fresh state).
  static func state(_ bytes: [UInt8], _ kind: StoreProblem.Kind) -> ReviewState? {
    guard kind == .corrupt else { return nil }
    return bytes.withUnsafeBufferPointer { ReviewStateSalvage.state(of: $0) }?.state
  }

  /// `state` as a manager at version 1.0 with the test presenter holds it after `appLaunched()`
  /// and one `significantEvent("export")`: the checks every recovery test makes of a manager that
  /// went on from a recovered state.
  static func expectWentOn(
    from recovered: ReviewState, to state: ReviewState, _ name: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(
      state.totalUses == ReviewState.incremented(recovered.totalUses)
        && state.totalEvents == ReviewState.incremented(recovered.totalEvents)
        && state.declinedAny == recovered.declinedAny && state.ratedAny == recovered.ratedAny
        && state.totalPrompts >= recovered.totalPrompts,
      "\(name): the recovered counts and answers were not kept", sourceLocation: sourceLocation)
  }
}
