import Foundation
import Testing

@testable import ReviewPolicy

/// Scripts/check-apple-layer.sh compiles the Apple layer against Tests/AppleLayer/Stubs/ReviewPolicy.swift,
/// a stub of the platform-independent API the layer calls. These tests prove that every declaration of
/// that stub exists in the real module with the same types, so the check cannot pass against an API
/// the real module no longer has.
@Suite("Apple layer: the ReviewPolicy stub matches the real module")
struct AppleLayerStubTests {
  static let stubFile = "Tests/AppleLayer/Stubs/ReviewPolicy.swift"
  static let guideSupportFile = "Tests/AppleLayer/Stubs/GuideSupport.swift"

  /// Every public declaration of the stub, as written there (one line each, trimmed); each is
  /// referenced with its types in `signaturesExist`.
  static let stubbed: [String] = [
    "public final class ReviewManager: @unchecked Sendable {",
    "public func scene(_ scene: String, enteredPhase phase: ScenePhaseTracker.Phase) {}",
    "public func sceneDisconnected(_ scene: String) {}",
    "public func observePhases(",
    "public func significantEvent(_ name: String? = nil, mayPrompt: Bool = true) -> Bool { false }",
    "public struct ScenePhaseTracker: Sendable, Hashable {",
    "public enum Phase: String, Sendable, Hashable {",
    "public final class LifecycleObservation: @unchecked Sendable {",
    "public protocol ReviewPresenter: Sendable {}",
    "public struct SystemReviewPresenter: ReviewPresenter {",
    "public init(unavailable reason: String, requestReview: @escaping @MainActor @Sendable () -> Bool) {}",
    "@MainActor public static var installedRequest: (@MainActor () -> Void)?",
    "@MainActor public static func install(_ request: @escaping @MainActor () -> Void, owner: String) {}",
    "@MainActor public static func uninstall(owner: String) {}",
    "public static let requestReviewAction = SystemReviewPresenter(unavailable: \"\") { false }",
  ]

  static func requireSendable<T: Sendable>(_: T.Type) {}
  static func requireHashable<T: Hashable>(_: T.Type) {}

  @Test("the stub declares exactly the declarations this test references")
  func stubIsListed() throws {
    let declared = try DocumentationTests.text(of: Self.stubFile).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { $0.hasPrefix("public ") || $0.hasPrefix("@MainActor public ") }
    #expect(declared == Self.stubbed, "\(Self.stubFile) changed: update this test's references with it")
  }

  @Test("each stubbed declaration exists in ReviewPolicy with the stub's types")
  @MainActor
  func signaturesExist() throws {
    // ReviewManager, its phase calls and the event the guide's snippets record.
    Self.requireSendable(ReviewManager.self)
    let scene: (ReviewManager) -> (String, ScenePhaseTracker.Phase) -> Void = ReviewManager.scene(_:enteredPhase:)
    let disconnected: (ReviewManager) -> (String) -> Void = ReviewManager.sceneDisconnected(_:)
    let observe:
      (ReviewManager) -> (NotificationCenter, ScenePhaseTracker.Phase, [Notification.Name: ScenePhaseTracker.Phase])
        -> LifecycleObservation = ReviewManager.observePhases(of:current:notifications:)
    let event: (ReviewManager) -> (String?, Bool) -> Bool = ReviewManager.significantEvent(_:mayPrompt:)
    // ScenePhaseTracker.Phase: its cases, raw values and conformances.
    Self.requireSendable(ScenePhaseTracker.self)
    Self.requireHashable(ScenePhaseTracker.self)
    Self.requireSendable(ScenePhaseTracker.Phase.self)
    Self.requireHashable(ScenePhaseTracker.Phase.self)
    let phases: [ScenePhaseTracker.Phase] = [.active, .inactive, .background]
    #expect(phases.map(\.rawValue) == ["active", "inactive", "background"])
    Self.requireSendable(LifecycleObservation.self)
    // SystemReviewPresenter, as the layer builds and installs it.
    let make: (String, @escaping @MainActor @Sendable () -> Bool) -> SystemReviewPresenter =
      SystemReviewPresenter.init(unavailable:requestReview:)
    let install: @MainActor (@escaping @MainActor () -> Void, String) -> Void = SystemReviewPresenter.install(_:owner:)
    let uninstall: @MainActor (String) -> Void = SystemReviewPresenter.uninstall(owner:)
    let installed: (@MainActor () -> Void)? = SystemReviewPresenter.installedRequest
    let action: SystemReviewPresenter = .requestReviewAction
    let presenter: any ReviewPresenter = make("none") { false }
    _ = (scene, disconnected, observe, event, install, uninstall, installed, action, presenter)

    // The defaults the layer and the snippets rely on: observePhases(of: .default), significantEvent().
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: "3.1", bundledPolicy: try DocumentationTests.text(of: "Examples/review.policy"),
        store: InMemoryReviewStore(), clock: { RuntimeFixtures.start }, texts: .english, presenter: action))
    let observation = manager.observePhases(current: .active, notifications: [:])
    observation.cancel()
    manager.significantEvent()
    #expect(manager.currentState.events == 1)
  }

  @Test("install and uninstall keep one scene's action: another scene's uninstall leaves it")
  @MainActor
  func installIsOwned() {
    defer { SystemReviewPresenter.installedRequest = nil }
    SystemReviewPresenter.install({}, owner: "scene A")
    SystemReviewPresenter.uninstall(owner: "scene B")
    #expect(SystemReviewPresenter.installedRequest != nil)
    SystemReviewPresenter.uninstall(owner: "scene A")
    #expect(SystemReviewPresenter.installedRequest == nil)
  }

  @Test("the guide's Apple snippets use makeManager(presenter:bundle:) as the guide's first snippet declares it")
  func guideSupportMatches() throws {
    let makeManager: (any ReviewPresenter, Bundle) throws -> ReviewManager = DarkroomReviews.makeManager(
      presenter:bundle:)
    _ = makeManager
    let support = try DocumentationTests.text(of: Self.guideSupportFile)
    #expect(
      support.contains(
        "static func makeManager(presenter: any ReviewPresenter, bundle: Bundle = .main) throws -> ReviewManager {"))
  }
}
