import Foundation

extension ReviewManager {
  /// Counts a launch or a foreground whenever `center` posts one of the given names.
  ///
  /// The names are the app's to choose, for example `UIApplication.didFinishLaunchingNotification`
  /// and `UIApplication.willEnterForegroundNotification` on iOS, or
  /// `NSApplication.didFinishLaunchingNotification` and `NSApplication.willBecomeActiveNotification`
  /// on macOS. Keep the returned observation: observing stops when it is cancelled or released.
  public func observeLifecycle(
    of center: NotificationCenter = .default, launch: [Notification.Name], foreground: [Notification.Name]
  ) -> LifecycleObservation {
    var tokens: [any NSObjectProtocol] = []
    for name in launch {
      tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.appLaunched() })
    }
    for name in foreground {
      tokens.append(
        center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.appEnteredForeground() })
    }
    return LifecycleObservation(center: center, tokens: tokens)
  }
}
