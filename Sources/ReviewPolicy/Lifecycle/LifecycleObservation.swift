import Foundation

/// Notification observers registered by ``ReviewManager/observeLifecycle(of:launch:foreground:)``.
public final class LifecycleObservation: @unchecked Sendable {
  // @unchecked: `tokens` is only changed under `lock`.
  private let lock = NSLock()
  private let center: NotificationCenter
  private var tokens: [any NSObjectProtocol]

  init(center: NotificationCenter, tokens: [any NSObjectProtocol]) {
    self.center = center
    self.tokens = tokens
  }

  /// Stops observing.
  public func cancel() {
    lock.lock()
    let removed = tokens
    tokens = []
    lock.unlock()
    for token in removed { center.removeObserver(token) }
  }

  deinit {
    for token in tokens { center.removeObserver(token) }
  }
}
