// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Interface stub of AppKit (macOS only): what the Apple layer uses, with the isolation of the MacOSX 15.1
// SDK (AppKit is `@MainActor` throughout). Sources: ../shared/reference/apple-integration.md (SDK
// declarations table) and Apple's documentation pages named on each declaration.
import Foundation

/// developer.apple.com/documentation/appkit/nsresponder: `@MainActor open class NSResponder: NSObject`.
@MainActor open class NSResponder: NSObject {}

/// developer.apple.com/documentation/appkit/nsapplication: `@MainActor open class NSApplication: NSResponder`.
@MainActor open class NSApplication: NSResponder {
  /// developer.apple.com/documentation/appkit/nsapplication/shared (no extension unavailability in the SDK).
  open class var shared: NSApplication { NSApplication() }
  /// developer.apple.com/documentation/appkit/nsapplication/isactive.
  open var isActive: Bool { false }
  /// developer.apple.com/documentation/appkit/nsapplication/keywindow: `var keyWindow: NSWindow? { get }`.
  open var keyWindow: NSWindow? { nil }
  /// developer.apple.com/documentation/appkit/nsapplication/mainwindow: `var mainWindow: NSWindow? { get }`.
  open var mainWindow: NSWindow? { nil }
  /// developer.apple.com/documentation/appkit/nsapplication/willbecomeactivenotification (`nonisolated`).
  nonisolated public static let willBecomeActiveNotification = Notification.Name(
    "NSApplicationWillBecomeActiveNotification")
  /// developer.apple.com/documentation/appkit/nsapplication/didresignactivenotification (`nonisolated`).
  nonisolated public static let didResignActiveNotification = Notification.Name(
    "NSApplicationDidResignActiveNotification")
}

/// developer.apple.com/documentation/appkit/nswindow: `@MainActor open class NSWindow: NSResponder`.
@MainActor open class NSWindow: NSResponder {
  /// developer.apple.com/documentation/appkit/nswindow/contentviewcontroller (macOS 10.10):
  /// `var contentViewController: NSViewController? { get set }`.
  open var contentViewController: NSViewController? {
    get { nil }
    set {}
  }
}

/// developer.apple.com/documentation/appkit/nsviewcontroller: `@MainActor open class NSViewController: NSResponder`.
@MainActor open class NSViewController: NSResponder {}
