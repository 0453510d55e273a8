// The Apple layer: built only where StoreKit exists (on Linux it compiles to nothing). CI compiles it for
// every Apple platform against interface stubs of the SDKs: Scripts/check-apple-layer.sh.
#if canImport(StoreKit)
  import StoreKit
  #if canImport(UIKit) && (os(iOS) || os(visionOS))
    import UIKit

    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    extension SystemReviewPresenter {
      /// StoreKit's prompt in the foreground-active window scene: `AppStore.requestReview(in:)`
      /// (iOS 16, Mac Catalyst 16, visionOS 1), on the main actor; it answers ``ReviewResponse/unknown``.
      /// With no foreground-active window scene it requests nothing and reports "not presented".
      /// Unavailable in app extensions (it needs `UIApplication.shared`).
      public static var storeKit: SystemReviewPresenter {
        SystemReviewPresenter(unavailable: "no foreground-active window scene") {
          let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
          guard let scene = scenes.first(where: { $0.activationState == .foregroundActive }) else { return false }
          AppStore.requestReview(in: scene)
          return true
        }
      }
    }
  #elseif canImport(AppKit) && os(macOS)
    import AppKit

    @available(macOS 13.0, *)
    @available(macOSApplicationExtension, unavailable)
    extension SystemReviewPresenter {
      /// StoreKit's prompt on macOS: `AppStore.requestReview(in:)` (macOS 13) with the key (or main)
      /// window's content view controller, on the main actor; it answers ``ReviewResponse/unknown``.
      /// With no such window it requests nothing and reports "not presented". SwiftUI apps can use
      /// ``requestReviewAction`` instead. Unavailable in app extensions.
      public static var storeKit: SystemReviewPresenter {
        SystemReviewPresenter(unavailable: "no key or main window with a content view controller") {
          let window = NSApplication.shared.keyWindow ?? NSApplication.shared.mainWindow
          guard let controller = window?.contentViewController else { return false }
          AppStore.requestReview(in: controller)
          return true
        }
      }
    }
  #endif
#endif
