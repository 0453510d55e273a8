import Foundation

/// Turns the phases of an app's scenes into the manager's lifecycle calls: the first time the app
/// is in the foreground is its launch, a return from the background is a foreground, and going to
/// the background is the moment to report a prompt still on screen.
///
/// A value with no platform code: the SwiftUI modifier `reviewPrompts(_:)` and
/// `observeApplicationLifecycle(center:)` only forward phases to it (through
/// ``ReviewManager/scene(_:enteredPhase:)``), and every decision is here, tested on Linux.
///
/// The app is in the foreground while any of its scenes is active or inactive (as UIKit's
/// aggregate state: an alert over the app, or a pulled-down notification center, makes it inactive,
/// not backgrounded), and in the background when every scene is in the background or gone.
public struct ScenePhaseTracker: Sendable, Hashable {
  /// A scene's phase, as SwiftUI's `ScenePhase` names them.
  public enum Phase: String, Sendable, Hashable {
    /// In the foreground and interactive.
    case active
    /// In the foreground, not receiving events (an alert or a system overlay is up, or it is on its way).
    case inactive
    /// Not visible.
    case background

    /// Whether the scene is in the foreground (active or inactive).
    public var isForeground: Bool {
      switch self {
      case .active, .inactive: true
      case .background: false
      }
    }
  }

  /// A lifecycle call for the manager.
  public enum Call: String, Sendable, Hashable {
    /// ``ReviewManager/appLaunched()``: the app reached the foreground for the first time.
    case appLaunched
    /// ``ReviewManager/appEnteredForeground()``: the app came back from the background.
    case appEnteredForeground
    /// ``ReviewManager/appLeftForegroundWithPromptShowing()``: the app went to the background (it
    /// records a prompt still on screen as configured, and does nothing otherwise).
    case appLeftForeground
  }

  /// The last phase of each scene, by the app's name for it.
  public private(set) var phases: [String: Phase] = [:]
  /// Whether the launch was reported.
  public private(set) var hasLaunched = false

  /// Creates a tracker that has seen no scene yet.
  public init() {}

  /// Whether the app is in the foreground: any scene is.
  public var isForeground: Bool {
    phases.values.contains { $0.isForeground }
  }

  /// Records that `scene` entered `phase`; returns the call it makes, if any.
  public mutating func scene(_ scene: String, enteredPhase phase: Phase) -> Call? {
    let wasForeground = isForeground
    phases[scene] = phase
    return transition(from: wasForeground)
  }

  /// Forgets `scene` (it was closed); returns the call that makes, if any (the last scene going
  /// away leaves the foreground).
  public mutating func sceneDisconnected(_ scene: String) -> Call? {
    let wasForeground = isForeground
    phases[scene] = nil
    return transition(from: wasForeground)
  }

  private mutating func transition(from wasForeground: Bool) -> Call? {
    switch (wasForeground, isForeground) {
    case (false, true):
      guard hasLaunched else {
        hasLaunched = true
        return .appLaunched
      }
      return .appEnteredForeground
    case (true, false):
      return .appLeftForeground
    case (false, false), (true, true):
      return nil
    }
  }
}

/// A ``ScenePhaseTracker`` shared by every hookup of one manager, from any thread.
final class LockedScenePhaseTracker: @unchecked Sendable {
  // @unchecked: `tracker` is only touched under `lock`.
  private let lock = NSLock()
  private var tracker = ScenePhaseTracker()

  /// Applies `change` to the tracker under the lock and returns its call.
  func update(_ change: (inout ScenePhaseTracker) -> ScenePhaseTracker.Call?) -> ScenePhaseTracker.Call? {
    lock.lock()
    defer { lock.unlock() }
    return change(&tracker)
  }

  /// A copy of the tracker.
  var current: ScenePhaseTracker {
    lock.lock()
    defer { lock.unlock() }
    return tracker
  }
}

extension ReviewManager {
  /// Reports that one of the app's scenes (named as the app likes: one name per window) entered
  /// `phase`, and makes the lifecycle call that follows (see ``ScenePhaseTracker``): the first
  /// foreground counts the launch, a return from the background counts a foreground, and going to
  /// the background reports a prompt still on screen.
  ///
  /// The SwiftUI modifier `reviewPrompts(_:)` calls it; use it directly from any
  /// other scene lifecycle. Do not also call ``appLaunched()`` or ``appEnteredForeground()``.
  public func scene(_ scene: String, enteredPhase phase: ScenePhaseTracker.Phase) {
    apply(phases.update { $0.scene(scene, enteredPhase: phase) })
  }

  /// Reports that one of the app's scenes was closed (see ``scene(_:enteredPhase:)``).
  public func sceneDisconnected(_ scene: String) {
    apply(phases.update { $0.sceneDisconnected(scene) })
  }

  /// The phases reported so far with ``scene(_:enteredPhase:)`` and the hookups.
  public var scenePhases: ScenePhaseTracker {
    phases.current
  }

  /// Feeds the app's phase to ``scene(_:enteredPhase:)`` (as the scene `"app"`): `current` now, and
  /// then the phase each of `notifications` stands for whenever `center` posts it. Keep the
  /// returned observation: observing stops when it is cancelled or released.
  ///
  /// `observeApplicationLifecycle(center:)` calls it with UIKit's or AppKit's notifications.
  public func observePhases(
    of center: NotificationCenter = .default, current: ScenePhaseTracker.Phase,
    notifications: [Notification.Name: ScenePhaseTracker.Phase]
  ) -> LifecycleObservation {
    let scene = "app"
    self.scene(scene, enteredPhase: current)
    var tokens: [any NSObjectProtocol] = []
    for (name, phase) in notifications.stablySorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      tokens.append(
        center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
          self?.scene(scene, enteredPhase: phase)
        })
    }
    return LifecycleObservation(center: center, tokens: tokens)
  }

  private func apply(_ call: ScenePhaseTracker.Call?) {
    switch call {
    case .appLaunched?: appLaunched()
    case .appEnteredForeground?: appEnteredForeground()
    case .appLeftForeground?: appLeftForegroundWithPromptShowing()
    case nil: break
    }
  }
}
