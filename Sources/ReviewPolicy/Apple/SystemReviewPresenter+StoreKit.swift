// The Apple layer: CI builds this file only where StoreKit exists (on Linux it compiles to nothing).
#if canImport(StoreKit)
  import StoreKit
  #if canImport(UIKit) && (os(iOS) || os(visionOS))
    import UIKit
  #endif

  #if canImport(UIKit) && (os(iOS) || os(visionOS))
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    extension SystemReviewPresenter {
      /// StoreKit's prompt in the foreground-active window scene: `AppStore.requestReview(in:)`
      /// (iOS 16, Mac Catalyst 16, visionOS 1), on the main actor; it answers ``ReviewResponse/unknown``.
      /// With no foreground-active scene it requests nothing (and still answers unknown).
      ///
      /// Built only where StoreKit and UIKit exist: CI (Linux) does not compile it.
      public static var storeKit: SystemReviewPresenter {
        SystemReviewPresenter {
          let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
          if let scene = scenes.first(where: { $0.activationState == .foregroundActive }) {
            AppStore.requestReview(in: scene)
          }
        }
      }
    }
  #elseif os(macOS)
    extension SystemReviewPresenter {
      /// StoreKit's prompt on macOS: `SKStoreReviewController.requestReview()` (macOS 10.14 and
      /// later, deprecated in macOS 15 in favour of `AppStore.requestReview(in:)` with a view
      /// controller, whose macOS 13 availability is not confirmed), on the main actor; it answers
      /// ``ReviewResponse/unknown``. SwiftUI apps can use ``requestReviewAction`` instead.
      ///
      /// Built only where StoreKit exists on macOS: CI (Linux) does not compile it.
      public static var storeKit: SystemReviewPresenter {
        SystemReviewPresenter { SKStoreReviewController.requestReview() }
      }
    }
  #endif
#endif
