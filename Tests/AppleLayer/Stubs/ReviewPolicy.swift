// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// The platform-independent ReviewPolicy API the Apple layer (and the iOS guide's Apple snippets) call,
// compiled with Sources/ReviewPolicy/Apple/*.swift as the module ReviewPolicy. Source: the real module;
// Tests/ReviewPolicyTests/AppleLayerStubTests.swift checks on Linux that each declaration below exists
// there with the same types (keep the two in step). Bodies are placeholders: the check only type-checks.
import Foundation

public final class ReviewManager: @unchecked Sendable {
  init() {}
  public func scene(_ scene: String, enteredPhase phase: ScenePhaseTracker.Phase) {}
  public func sceneDisconnected(_ scene: String) {}
  public func observePhases(
    of center: NotificationCenter = .default, current: ScenePhaseTracker.Phase,
    notifications: [Notification.Name: ScenePhaseTracker.Phase]
  ) -> LifecycleObservation { LifecycleObservation() }
  @discardableResult
  public func significantEvent(_ name: String? = nil, mayPrompt: Bool = true) -> Bool { false }
}

public struct ScenePhaseTracker: Sendable, Hashable {
  public enum Phase: String, Sendable, Hashable {
    case active, inactive, background
  }
}

public final class LifecycleObservation: @unchecked Sendable {
  init() {}
}

public protocol ReviewPresenter: Sendable {}

public struct SystemReviewPresenter: ReviewPresenter {
  public init(unavailable reason: String, requestReview: @escaping @MainActor @Sendable () -> Bool) {}
  @MainActor public static var installedRequest: (@MainActor () -> Void)?
  @MainActor public static func install(_ request: @escaping @MainActor () -> Void, owner: String) {}
  @MainActor public static func uninstall(owner: String) {}
  public static let requestReviewAction = SystemReviewPresenter(unavailable: "") { false }
}
