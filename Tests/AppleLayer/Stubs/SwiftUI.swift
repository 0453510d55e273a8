// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation, NoLeadingUnderscores, UseSynthesizedInitializer
// Interface stub of SwiftUI: only what the Apple layer and the iOS guide's SwiftUI snippet use, with the
// isolation of the SDKs that build Swift 6 mode (iPhoneOS 18.1 / MacOSX 15.1: `View`, `ViewModifier`,
// `Scene` and `App` are `@MainActor @preconcurrency` protocols, their modifiers `nonisolated`) and their
// availability and deprecations. Sources: ../shared/reference/apple-integration.md (SDK declarations
// table) and the developer.apple.com/documentation/swiftui pages named on each declaration.
// Bodies are placeholders: the check only type-checks. visionOS is named wherever the SDK leaves it to be
// inferred from iOS through SDKSettings.json (which this check has no copy of): the pages state visionOS 1.0.

/// developer.apple.com/documentation/swiftui/view: `@MainActor @preconcurrency protocol View`.
@MainActor @preconcurrency public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// developer.apple.com/documentation/swiftui/viewbuilder (`buildLimitedAvailability` from iOS 14, macOS 11).
@resultBuilder public struct ViewBuilder {
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildEither<TrueContent: View, FalseContent: View>(
    first: TrueContent
  ) -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent() }
  public static func buildEither<TrueContent: View, FalseContent: View>(
    second: FalseContent
  ) -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent() }
  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS 1.0, *)
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// `extension Never: View` (every primitive view's `Body`).
extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError("interface stub") }
}

/// developer.apple.com/documentation/swiftui/emptyview: `@frozen struct EmptyView: View`.
@frozen public struct EmptyView: View {
  nonisolated public init() {}
  public typealias Body = Never
  public var body: Never { fatalError("interface stub") }
}

/// developer.apple.com/documentation/swiftui/anyview: `@frozen struct AnyView: View`.
@frozen public struct AnyView: View {
  nonisolated public init<V: View>(_ view: V) {}
  public typealias Body = Never
  public var body: Never { fatalError("interface stub") }
}

/// What `if`/`else` in a `@ViewBuilder` builds: `@frozen struct _ConditionalContent<TrueContent, FalseContent>`.
@frozen public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
  nonisolated init() {}
  public typealias Body = Never
  public var body: Never { fatalError("interface stub") }
}

/// developer.apple.com/documentation/swiftui/viewmodifier: `@MainActor @preconcurrency protocol ViewModifier`.
@MainActor @preconcurrency public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _ViewModifier_Content<Self>
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// developer.apple.com/documentation/swiftui/viewmodifier/content: the view a modifier is applied to.
public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
  public typealias Body = Never
  public var body: Never { fatalError("interface stub") }
}

/// developer.apple.com/documentation/swiftui/modifiedcontent: `@frozen struct ModifiedContent<Content, Modifier>`.
@frozen public struct ModifiedContent<Content, Modifier> {
  nonisolated init() {}
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  public typealias Body = Never
  public var body: Never { fatalError("interface stub") }
}

extension View {
  /// developer.apple.com/documentation/swiftui/view/modifier(_:).
  nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent() }

  /// developer.apple.com/documentation/swiftui/view/onappear(perform:).
  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }

  /// developer.apple.com/documentation/swiftui/view/ondisappear(perform:).
  nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { self }

  /// developer.apple.com/documentation/swiftui/view/onchange(of:perform:): iOS 14-17, macOS 11-14,
  /// tvOS 14-17, watchOS 7-10, visionOS 1.0-1.0 (deprecated from visionOS's first release).
  @available(
    iOS, introduced: 14.0, deprecated: 17.0,
    message: "Use `onChange` with a two or zero parameter action closure instead."
  )
  @available(
    macOS, introduced: 11.0, deprecated: 14.0,
    message: "Use `onChange` with a two or zero parameter action closure instead."
  )
  @available(
    tvOS, introduced: 14.0, deprecated: 17.0,
    message: "Use `onChange` with a two or zero parameter action closure instead."
  )
  @available(
    watchOS, introduced: 7.0, deprecated: 10.0,
    message: "Use `onChange` with a two or zero parameter action closure instead."
  )
  @available(
    visionOS, introduced: 1.0, deprecated: 1.0,
    message: "Use `onChange` with a two or zero parameter action closure instead."
  )
  nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void)
    -> some View
  {
    self
  }

  /// developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg: iOS 17, macOS 14,
  /// tvOS 17, watchOS 10, visionOS 1.
  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
  nonisolated public func onChange<V: Equatable>(
    of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
  ) -> some View { self }
}

/// developer.apple.com/documentation/swiftui/dynamicproperty.
public protocol DynamicProperty {}

/// developer.apple.com/documentation/swiftui/environment:
/// `@frozen @propertyWrapper struct Environment<Value>: DynamicProperty` (nonisolated init and value).
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
  nonisolated public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
  nonisolated public var wrappedValue: Value { fatalError("interface stub") }
}

/// developer.apple.com/documentation/swiftui/environmentvalues: `struct EnvironmentValues`.
public struct EnvironmentValues {
  /// developer.apple.com/documentation/swiftui/environmentvalues/scenephase (iOS 14, macOS 11, tvOS 14, watchOS 7).
  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS 1.0, *)
  public var scenePhase: ScenePhase { .active }
}

/// developer.apple.com/documentation/swiftui/scenephase: `enum ScenePhase: Comparable, Hashable, Sendable`
/// (not frozen: a `switch` needs `@unknown default`).
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS 1.0, *)
public enum ScenePhase: Comparable, Hashable, Sendable {
  case background, inactive, active
}

/// developer.apple.com/documentation/swiftui/state:
/// `@frozen @propertyWrapper struct State<Value>: DynamicProperty`, `Sendable` when `Value` is.
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
  nonisolated public init(wrappedValue value: Value) {}
  public var wrappedValue: Value {
    get { fatalError("interface stub") }
    nonmutating set {}
  }
}

extension State: Sendable where Value: Sendable {}

/// developer.apple.com/documentation/swiftui/scene: `@MainActor @preconcurrency protocol Scene`.
@MainActor @preconcurrency public protocol Scene {
  associatedtype Body: Scene
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: Scene {}

/// developer.apple.com/documentation/swiftui/scenebuilder.
@resultBuilder public struct SceneBuilder {
  public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// developer.apple.com/documentation/swiftui/windowgroup: `struct WindowGroup<Content>: Scene where Content: View`.
public struct WindowGroup<Content: View>: Scene {
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  public var body: Never { fatalError("interface stub") }
}

/// developer.apple.com/documentation/swiftui/app: `@MainActor @preconcurrency protocol App`.
@MainActor @preconcurrency public protocol App {
  associatedtype Body: Scene
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
  @MainActor @preconcurrency init()
}

extension App {
  /// developer.apple.com/documentation/swiftui/app/main(): what `@main` calls.
  @MainActor @preconcurrency public static func main() {}
}
