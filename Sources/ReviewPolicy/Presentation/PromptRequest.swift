import Foundation

/// What a presenter is asked to show.
public struct PromptRequest: Sendable {
  /// The texts, with the app name filled in.
  public var texts: PromptTexts
  /// Where "rate" should take the user, if configured.
  public var reviewURL: URL?
  /// Why the policy asked.
  public var explanation: ReviewExplanation
  /// Whether ``ReviewManager/Configuration/alwaysAsk`` forced a prompt the policy did not ask for.
  public var isForced: Bool
}
