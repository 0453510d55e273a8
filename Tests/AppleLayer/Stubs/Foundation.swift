// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// Interface stub of Foundation: only what the Apple layer, the ReviewPolicy stub and the iOS guide's
// Apple snippets use. Source: Apple's Foundation documentation (developer.apple.com/documentation/foundation),
// as Swift imports it from the SDKs (iPhoneOS 18.1 / MacOSX 15.1). Bodies are placeholders: the check only type-checks.
// Built without Objective-C interop (like the toolchain's standard library), so `NSObject` and
// `NSObjectProtocol` are plain Swift here; nothing in the layer uses `@objc`.

/// developer.apple.com/documentation/objectivec/nsobjectprotocol (an `@objc` protocol in the SDK).
public protocol NSObjectProtocol: AnyObject {}

/// developer.apple.com/documentation/objectivec/nsobject: `open class NSObject: NSObjectProtocol, Hashable`
/// (identity equality and hashing unless overridden); not `Sendable`.
open class NSObject: NSObjectProtocol, Hashable {
  public init() {}
  public static func == (lhs: NSObject, rhs: NSObject) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// developer.apple.com/documentation/foundation/notification (`Notification.Name` is
/// `NSNotification.Name`: `struct Name: Hashable, RawRepresentable, @unchecked Sendable`).
public struct Notification {
  public struct Name: Hashable, RawRepresentable, @unchecked Sendable {
    public var rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
  }
}

/// developer.apple.com/documentation/foundation/notificationcenter:
/// `open class NotificationCenter: NSObject, @unchecked Sendable`, `class var default: NotificationCenter { get }`.
open class NotificationCenter: NSObject, @unchecked Sendable {
  open class var `default`: NotificationCenter { NotificationCenter() }
}

/// developer.apple.com/documentation/foundation/uuid: `struct UUID: Hashable, Sendable`, `init()`, `var uuidString: String { get }`.
public struct UUID: Hashable, Sendable {
  public init() {}
  public var uuidString: String { "" }
}

/// developer.apple.com/documentation/foundation/bundle: `open class Bundle: NSObject, @unchecked Sendable`,
/// `class var main: Bundle { get }` (the guide's `makeManager(presenter:bundle:)` takes one).
open class Bundle: NSObject, @unchecked Sendable {
  open class var main: Bundle { Bundle() }
}
