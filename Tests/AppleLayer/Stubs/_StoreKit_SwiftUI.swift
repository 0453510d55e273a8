// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Interface stub of StoreKit's SwiftUI cross-import overlay (`_StoreKit_SwiftUI`): visible only in a file
// that imports both StoreKit and SwiftUI (the check passes `-enable-cross-import-overlays` and
// StoreKit.swiftcrossimport/SwiftUI.swiftoverlay names this module). Sources:
// ../shared/reference/apple-integration.md (SDK declarations table),
// developer.apple.com/documentation/storekit/requestreviewaction and
// developer.apple.com/documentation/swiftui/environmentvalues/requestreview.
@_exported import StoreKit
import SwiftUI

/// `@MainActor struct RequestReviewAction: Sendable { @MainActor func callAsFunction() }`
/// (iOS 16, Mac Catalyst 16, macOS 13, visionOS 1; unavailable on tvOS and watchOS).
@available(iOS 16.0, macCatalyst 16.0, macOS 13.0, visionOS 1.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@MainActor public struct RequestReviewAction: Sendable {
  @MainActor public func callAsFunction() {}
}

@available(iOS 16.0, macCatalyst 16.0, macOS 13.0, visionOS 1.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension EnvironmentValues {
  /// `var requestReview: RequestReviewAction { get }`.
  public var requestReview: RequestReviewAction { fatalError("interface stub") }
}
