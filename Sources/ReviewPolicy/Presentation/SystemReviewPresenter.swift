/// Presents through the system's review request (StoreKit's), which never says whether it showed a
/// prompt or what the user did: on the main actor it requests the review and answers
/// ``ReviewResponse/unknown``, "asked, outcome unknown", or, when there is nothing to request it in
/// (no foreground-active window scene, no installed action), reports "not presented" and nothing
/// is recorded.
///
/// The platform-independent core of the Apple layer: `storeKit` (iOS, Mac Catalyst, visionOS and
/// macOS) and ``requestReviewAction`` (SwiftUI, through `reviewPrompts(_:)`) only
/// supply the main-actor closure.
///
/// App Store policy shows the system prompt at most three times in 365 days to a person who has not
/// rated the app on that device, always in development builds and never under TestFlight. Do not
/// tie a prompt check to a button tap: it may show nothing.
public struct SystemReviewPresenter: ReviewPresenter {
  private let requestReview: @MainActor @Sendable () -> Bool
  private let unavailableReason: String

  /// Creates a presenter that calls `requestReview` on the main actor for each prompt;
  /// `requestReview` returns whether it could request a review (false: there was nothing to
  /// present in, and `reason` says why in the log).
  public init(unavailable reason: String, requestReview: @escaping @MainActor @Sendable () -> Bool) {
    self.requestReview = requestReview
    self.unavailableReason = reason
  }

  /// Requests the review on the main actor; answers ``ReviewResponse/unknown``, or reports
  /// "not presented" when it could not request one.
  public func present(_ request: PromptRequest, reply: PromptReply) {
    let requestReview = requestReview
    let reason = unavailableReason
    Task { @MainActor in
      if requestReview() {
        reply.answer(.unknown)
      } else {
        reply.notPresented(reason)
      }
    }
  }

  /// Requests the review on the main actor and answers ``ReviewResponse/unknown`` (whether or not
  /// it could request one: this form has no way to say; the manager uses ``present(_:reply:)``).
  public func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
    present(request, reply: PromptReply { report in if case .answered(let response) = report { respond(response) } })
  }

  /// The request installed by the SwiftUI modifier `reviewPrompts(_:)` (the
  /// `requestReview` action of the scene active last), or by the app; nil until one is, and
  /// again once the scene that installed it went to the background or its view went away.
  @MainActor public static var installedRequest: (@MainActor () -> Void)? {
    get { installed?.request }
    set { installed = newValue.map { (request: $0, owner: nil) } }
  }

  /// The installed request and who installed it (a scene's identifier; nil: the app).
  @MainActor private static var installed: (request: @MainActor () -> Void, owner: String?)?

  /// Installs `request` as ``installedRequest``, remembering `owner` (a scene's identifier).
  @MainActor public static func install(_ request: @escaping @MainActor () -> Void, owner: String) {
    installed = (request, owner)
  }

  /// Removes ``installedRequest`` if `owner` installed it; another scene's request stays.
  @MainActor public static func uninstall(owner: String) {
    if installed?.owner == owner { installed = nil }
  }

  /// A presenter that calls ``installedRequest``, as `reviewPrompts(_:)` installs it; with none
  /// installed (no view with the modifier on screen in an active scene) it reports "not presented".
  public static let requestReviewAction = SystemReviewPresenter(
    unavailable: "no `requestReview` action is installed (no view with `reviewPrompts(_:)` is on screen "
      + "in an active scene)"
  ) {
    guard let request = installedRequest else { return false }
    request()
    return true
  }
}
