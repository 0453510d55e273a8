// The Apple layer: CI builds this file only where SwiftUI and StoreKit exist (on Linux it compiles to nothing).
#if canImport(SwiftUI) && canImport(StoreKit) && (os(iOS) || os(macOS) || os(visionOS))
  import Foundation
  import StoreKit
  import SwiftUI

  /// Forwards a scene's phases to the manager and installs the scene's `requestReview` action for
  /// ``SystemReviewPresenter/requestReviewAction``. Every decision is in ``ScenePhaseTracker``.
  ///
  /// Built only where SwiftUI and StoreKit exist: CI (Linux) does not compile it.
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
        // The iOS 14 form (deprecated in iOS 17, macOS 14), as the iOS 16 / macOS 13 floor allows.
        .onChange(of: scenePhase) { phase in report(phase) }
        .onDisappear { manager.sceneDisconnected(sceneName) }
    }

    private func report(_ phase: ScenePhase) {
      if phase == .active {
        let action = requestReview
        SystemReviewPresenter.installedRequest = { action() }
      }
      let mapped: ScenePhaseTracker.Phase =
        phase == .active ? .active : phase == .background ? .background : .inactive
      manager.scene(sceneName, enteredPhase: mapped)
    }
  }

  @available(iOS 16.0, macOS 13.0, macCatalyst 16.0, visionOS 1.0, *)
  extension View {
    /// Drives `manager`'s lifecycle from this scene's `scenePhase` (the first foreground is the
    /// launch, a return from the background a foreground, going to the background reports a prompt
    /// still up) and installs the scene's `@Environment(\.requestReview)` action for
    /// ``SystemReviewPresenter/requestReviewAction``. Apply it once per window, to its root view.
    ///
    /// ```swift
    /// WindowGroup { ContentView().reviewPrompts(reviews) }
    /// ```
    ///
    /// Built only where SwiftUI and StoreKit exist: CI (Linux) does not compile it.
    public func reviewPrompts(_ manager: ReviewManager) -> some View {
      modifier(ReviewPromptsModifier(manager: manager))
    }
  }
#endif
