// The Apple layer: built only where UIKit or AppKit exists (on Linux it compiles to nothing). CI compiles it
// for every Apple platform against interface stubs of the SDKs: Scripts/check-apple-layer.sh.
#if canImport(UIKit) && (os(iOS) || os(tvOS) || os(visionOS))
  import Foundation
  import UIKit

  extension ReviewManager {
    /// Drives the manager's lifecycle from UIKit's app-wide notifications, in one call from
    /// `application(_:didFinishLaunchingWithOptions:)`: the app's state now, then
    /// `UIApplication.willEnterForegroundNotification` (a return to the foreground) and
    /// `UIApplication.didEnterBackgroundNotification` (the moment to report a prompt still up), both
    /// posted whether or not the app uses scenes. The first foreground counts the launch (see
    /// ``ScenePhaseTracker``). Keep the returned observation. Unavailable in app extensions (it
    /// needs `UIApplication.shared`).
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(tvOSApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @MainActor
    public func observeApplicationLifecycle(center: NotificationCenter = .default) -> LifecycleObservation {
      let state = UIApplication.shared.applicationState
      let current: ScenePhaseTracker.Phase =
        state == .active ? .active : state == .background ? .background : .inactive
      return observePhases(
        of: center, current: current,
        notifications: [
          UIApplication.willEnterForegroundNotification: .inactive,
          UIApplication.didEnterBackgroundNotification: .background,
        ])
    }
  }
#elseif canImport(AppKit) && os(macOS)
  import AppKit
  import Foundation

  extension ReviewManager {
    /// Drives the manager's lifecycle from AppKit's notifications, in one call at launch: whether
    /// the app is active now, then `NSApplication.willBecomeActiveNotification` (a return to the
    /// foreground) and `NSApplication.didResignActiveNotification` (the moment to report a prompt
    /// still up). The first activation counts the launch (see ``ScenePhaseTracker``). Keep the
    /// returned observation. Unavailable in app extensions.
    @available(macOSApplicationExtension, unavailable)
    @MainActor
    public func observeApplicationLifecycle(center: NotificationCenter = .default) -> LifecycleObservation {
      observePhases(
        of: center, current: NSApplication.shared.isActive ? .active : .background,
        notifications: [
          NSApplication.willBecomeActiveNotification: .active,
          NSApplication.didResignActiveNotification: .background,
        ])
    }
  }
#endif
