// The Apple layer: built only where SwiftUI and StoreKit exist (on Linux it compiles to nothing). CI compiles
// it for every Apple platform against interface stubs of the SDKs: Scripts/check-apple-layer.sh.
#if canImport(SwiftUI) && canImport(StoreKit) && (os(iOS) || os(macOS) || os(visionOS))
  import Foundation
  import StoreKit
  import SwiftUI

  /// Forwards a scene's phases to the manager and, while the scene is active, installs its
  /// `requestReview` action for ``SystemReviewPresenter/requestReviewAction`` (removed when the
  /// scene goes to the background or the view disappears). Every decision is in ``ScenePhaseTracker``.
  @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
  @MainActor
  struct ReviewPromptsModifier: ViewModifier {
    let manager: ReviewManager
    @Environment(\.scenePhase) private var scenePhase
    @Environment(\.requestReview) private var requestReview
    @State private var sceneName = UUID().uuidString

    func body(content: Content) -> some View {
      content
        .onAppear { report(scenePhase) }
        .onNewValue(of: scenePhase) { phase in report(phase) }
        .onDisappear {
          SystemReviewPresenter.uninstall(owner: sceneName)
          manager.sceneDisconnected(sceneName)
        }
    }

    private func report(_ phase: ScenePhase) {
      if phase == .active {
        let action = requestReview
        SystemReviewPresenter.install({ action() }, owner: sceneName)
      } else if phase == .background {
        SystemReviewPresenter.uninstall(owner: sceneName)
      }
      let mapped: ScenePhaseTracker.Phase =
        phase == .active ? .active : phase == .background ? .background : .inactive
      manager.scene(sceneName, enteredPhase: mapped)
    }
  }

  extension View {
    /// Calls `action` with each new `value`: `onChange(of:initial:_:)` where it exists (visionOS,
    /// iOS 17, macOS 14), else `onChange(of:perform:)` (deprecated there, so never used there).
    @ViewBuilder
    fileprivate func onNewValue<V: Equatable>(of value: V, _ action: @escaping (V) -> Void) -> some View {
      #if os(visionOS)
        onChange(of: value) { _, new in action(new) }
      #else
        if #available(iOS 17.0, macOS 14.0, *) {
          onChange(of: value) { _, new in action(new) }
        } else {
          onChange(of: value, perform: action)
        }
      #endif
    }
  }

  @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
  extension View {
    /// Drives `manager`'s lifecycle from this scene's `scenePhase` (the first foreground is the
    /// launch, a return from the background a foreground, going to the background reports a prompt
    /// still up) and, while the scene is active, installs its `@Environment(\.requestReview)`
    /// action for ``SystemReviewPresenter/requestReviewAction``. Apply it once per window, to its
    /// root view.
    ///
    /// ```swift
    /// WindowGroup { ContentView().reviewPrompts(reviews) }
    /// ```
    public func reviewPrompts(_ manager: ReviewManager) -> some View {
      modifier(ReviewPromptsModifier(manager: manager))
    }
  }
#endif
