// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Interface stub of StoreKit: only what the Apple layer uses, with the declarations of the iPhoneOS 18.1 and
// MacOSX 15.1 SDK interfaces as ../shared/reference/apple-integration.md (SDK declarations table) states
// them, checked against developer.apple.com/documentation/storekit/appstore/requestreview(in:)-1q8qs and
// the AppStore documentation. `SKStoreReviewController` is left out: the layer no longer uses it.
#if os(iOS) || os(visionOS)
  import UIKit
#elseif os(macOS)
  import AppKit
#endif

/// developer.apple.com/documentation/storekit/appstore:
/// `@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *) enum AppStore`, `Sendable`.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore: Sendable {}

#if os(iOS) || os(visionOS)
  extension AppStore {
    /// developer.apple.com/documentation/storekit/appstore/requestreview(in:)-1q8qs (iOS 16, Mac Catalyst 16,
    /// visionOS 1; unavailable on macOS, tvOS and watchOS).
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public static func requestReview(in scene: UIWindowScene) {}
  }
#elseif os(macOS)
  extension AppStore {
    /// developer.apple.com/documentation/storekit/appstore/requestreview(in:) with an `NSViewController`
    /// (macOS 13; the replacement for `SKStoreReviewController.requestReview()`, deprecated in macOS 15).
    @available(macOS 13.0, *)
    @available(iOS, unavailable)
    @available(macCatalyst, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    @MainActor public static func requestReview(in controller: NSViewController) {}
  }
#endif
