/// Presents through the system's review request (StoreKit's), which never says whether it showed a
/// prompt or what the user did: it asks on the main actor and answers ``ReviewResponse/unknown``,
/// "asked, outcome unknown", so a prompt is never left waiting for an answer.
///
/// The platform-independent core of the Apple layer: `storeKit` (iOS, Mac Catalyst, visionOS and
/// macOS) and ``requestReviewAction`` (SwiftUI, through `reviewPrompts(_:)`) only
/// supply the main-actor closure.
///
/// App Store policy shows the system prompt at most three times in 365 days to a person who has not
/// rated the app on that device, always in development builds and never under TestFlight. Do not
/// tie a prompt check to a button tap: it may show nothing.
public struct SystemReviewPresenter: AsyncReviewPresenter {
  private let requestReview: @MainActor @Sendable () -> Void

  /// Creates a presenter that calls `requestReview` on the main actor for each prompt.
  public init(requestReview: @escaping @MainActor @Sendable () -> Void) {
    self.requestReview = requestReview
  }

  /// Requests the review on the main actor and answers ``ReviewResponse/unknown``.
  public func present(_ request: PromptRequest) async -> ReviewResponse {
    await requestReview()
    return .unknown
  }

  /// The request installed by the SwiftUI modifier `reviewPrompts(_:)` (the
  /// `requestReview` action of the scene active last), or by the app; nil until one is.
  @MainActor public static var installedRequest: (@MainActor () -> Void)?

  /// A presenter that calls ``installedRequest``, as `reviewPrompts(_:)` installs it
  /// (it requests nothing, and still answers ``ReviewResponse/unknown``, while none is installed).
  public static let requestReviewAction = SystemReviewPresenter { installedRequest?() }
}
