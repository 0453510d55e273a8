// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Interface stub of UIKit: only what the Apple layer and the iOS guide's UIKit snippet use, with the
// isolation, Sendable-ness and availability of the iPhoneOS 18.1 SDK (UIKit is `@MainActor` throughout;
// imported NS_ENUMs are Sendable). Sources: ../shared/reference/apple-integration.md (SDK declarations
// table) and Apple's documentation pages named on each declaration. watchOS has a UIKit without
// UIApplication or scenes: the module exists there, empty of what the layer uses.
import Foundation

#if !os(watchOS)
  /// developer.apple.com/documentation/uikit/uiresponder: `@MainActor open class UIResponder: NSObject`.
  @MainActor open class UIResponder: NSObject {}

  /// developer.apple.com/documentation/uikit/uiapplication: `@MainActor open class UIApplication: UIResponder`.
  @MainActor open class UIApplication: UIResponder {
    /// developer.apple.com/documentation/uikit/uiapplication/shared (iOS 2, Mac Catalyst 13.1, tvOS, visionOS 1);
    /// UIApplication.h: `NS_EXTENSION_UNAVAILABLE_IOS("Use view controller based solutions where appropriate instead.")`,
    /// which Swift imports for the iOS family's application extensions.
    @available(
      iOSApplicationExtension, unavailable, message: "Use view controller based solutions where appropriate instead."
    )
    @available(
      macCatalystApplicationExtension, unavailable,
      message: "Use view controller based solutions where appropriate instead."
    )
    @available(
      tvOSApplicationExtension, unavailable, message: "Use view controller based solutions where appropriate instead."
    )
    @available(
      visionOSApplicationExtension, unavailable,
      message: "Use view controller based solutions where appropriate instead."
    )
    open class var shared: UIApplication { UIApplication() }

    /// developer.apple.com/documentation/uikit/uiapplication/delegate: `unowned(unsafe) var delegate: (any UIApplicationDelegate)?`.
    open var delegate: (any UIApplicationDelegate)? {
      get { nil }
      set {}
    }

    /// developer.apple.com/documentation/uikit/uiapplication/applicationstate (iOS 4).
    open var applicationState: UIApplication.State { .active }

    /// developer.apple.com/documentation/uikit/uiapplication/connectedscenes (iOS 13, tvOS 13).
    open var connectedScenes: Set<UIScene> { [] }

    /// developer.apple.com/documentation/uikit/uiapplication/state: `enum State: Int, @unchecked Sendable`.
    public enum State: Int, @unchecked Sendable {
      case active, inactive, background
    }

    /// developer.apple.com/documentation/uikit/uiapplication/launchoptionskey:
    /// `struct LaunchOptionsKey: Hashable, RawRepresentable, @unchecked Sendable`.
    public struct LaunchOptionsKey: Hashable, RawRepresentable, @unchecked Sendable {
      public var rawValue: String
      public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// developer.apple.com/documentation/uikit/uiapplication/willenterforegroundnotification (iOS 4;
    /// `nonisolated`, per the SDK declarations table).
    nonisolated public static let willEnterForegroundNotification = Notification.Name(
      "UIApplicationWillEnterForegroundNotification")
    /// developer.apple.com/documentation/uikit/uiapplication/didenterbackgroundnotification (iOS 4; `nonisolated`).
    nonisolated public static let didEnterBackgroundNotification = Notification.Name(
      "UIApplicationDidEnterBackgroundNotification")
  }

  /// developer.apple.com/documentation/uikit/uiscene (iOS 13): `@MainActor open class UIScene: UIResponder`.
  @MainActor open class UIScene: UIResponder {
    /// developer.apple.com/documentation/uikit/uiscene/activationstate-swift.property.
    open var activationState: UIScene.ActivationState { .unattached }

    /// developer.apple.com/documentation/uikit/uiscene/activationstate-swift.enum:
    /// `enum ActivationState: Int, @unchecked Sendable`.
    public enum ActivationState: Int, @unchecked Sendable {
      case unattached = -1
      case foregroundActive, foregroundInactive, background
    }
  }

  /// developer.apple.com/documentation/uikit/uiwindowscene (iOS 13): `@MainActor open class UIWindowScene: UIScene`.
  @MainActor open class UIWindowScene: UIScene {}

  /// developer.apple.com/documentation/uikit/uiapplicationdelegate:
  /// `@MainActor protocol UIApplicationDelegate: NSObjectProtocol` (its methods are optional in the SDK:
  /// here a default implementation stands in for `optional`).
  @MainActor public protocol UIApplicationDelegate: NSObjectProtocol {
    /// developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfinishlaunchingwithoptions:).
    func application(
      _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
  }

  extension UIApplicationDelegate {
    /// The stand-in for the requirement's `optional`.
    public func application(
      _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }

    /// developer.apple.com/documentation/uikit/uiapplicationdelegate/main() (iOS 14): what `@main` calls.
    @available(iOS 14.0, tvOS 14.0, visionOS 1.0, *)
    @MainActor public static func main() {}
  }
#endif
