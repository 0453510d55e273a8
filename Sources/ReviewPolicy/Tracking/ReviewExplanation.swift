import PolicyCore

/// A decision with its explanation.
public struct ReviewExplanation: Error, Sendable {
  /// The decision; nil when the facts could not be built (an app version that does not parse).
  public var decision: Decision?
  /// One line: ask or not, and why.
  public var summary: String
  /// Every rule and condition with the values seen (see PolicyCore's `ExplanationRenderer`).
  public var text: String
}
