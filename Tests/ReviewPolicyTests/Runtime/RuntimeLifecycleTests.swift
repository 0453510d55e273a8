import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Counting launches and foregrounds from notifications.
@Suite("runtime: lifecycle observation")
struct RuntimeLifecycleTests {
  typealias F = RuntimeFixtures
  static let launch = Notification.Name("RuntimeTests.launch")
  static let otherLaunch = Notification.Name("RuntimeTests.otherLaunch")
  static let foreground = Notification.Name("RuntimeTests.foreground")
  static let unrelated = Notification.Name("RuntimeTests.unrelated")

  @Test("posted launch and foreground notifications are counted as uses; others are not; nothing prompts")
  func countsNotifications() throws {
    let center = NotificationCenter()
    let presenter = RuntimeRecordingPresenter()
    let kinds = RuntimeCounter()
    let manager = try F.manager(
      presenter: presenter,
      shouldCountUse: { kind in
        if kind == .foreground { kinds.increment() }
        return true
      })
    let observation = manager.observeLifecycle(
      of: center, launch: [Self.launch, Self.otherLaunch], foreground: [Self.foreground])
    center.post(name: Self.launch, object: nil)
    center.post(name: Self.otherLaunch, object: "sender")
    center.post(name: Self.foreground, object: nil)
    center.post(name: Self.foreground, object: nil)
    center.post(name: Self.foreground, object: nil)
    center.post(name: Self.unrelated, object: nil)
    #expect(manager.currentState.uses == 5)
    #expect(kinds.value == 3)
    #expect(presenter.requests.isEmpty)
    // A notification posted on another center is not observed.
    NotificationCenter().post(name: Self.launch, object: nil)
    #expect(manager.currentState.uses == 5)
    observation.cancel()
  }

  @Test("cancel() stops counting, and cancelling twice is harmless")
  func cancelStops() throws {
    let center = NotificationCenter()
    let manager = try F.manager()
    let observation = manager.observeLifecycle(of: center, launch: [Self.launch], foreground: [Self.foreground])
    center.post(name: Self.launch, object: nil)
    observation.cancel()
    center.post(name: Self.launch, object: nil)
    center.post(name: Self.foreground, object: nil)
    observation.cancel()
    #expect(manager.currentState.uses == 1)
  }

  @Test("releasing the observation stops counting")
  func releaseStops() throws {
    let center = NotificationCenter()
    let manager = try F.manager()
    var observation: LifecycleObservation? = manager.observeLifecycle(
      of: center, launch: [Self.launch], foreground: [Self.foreground])
    center.post(name: Self.foreground, object: nil)
    #expect(observation != nil)
    observation = nil
    center.post(name: Self.foreground, object: nil)
    center.post(name: Self.launch, object: nil)
    #expect(manager.currentState.uses == 1)
    // An observation that is never kept observes nothing.
    _ = manager.observeLifecycle(of: center, launch: [Self.launch], foreground: [])
    center.post(name: Self.launch, object: nil)
    #expect(manager.currentState.uses == 1)
  }

  @Test("the observation does not keep the manager alive, and posting after the manager is gone is harmless")
  func managerReleased() throws {
    let center = NotificationCenter()
    let store = InMemoryReviewStore()
    var manager: ReviewManager? = try F.manager(store: store)
    weak let weakManager = manager
    let observation = manager?.observeLifecycle(of: center, launch: [Self.launch], foreground: [])
    center.post(name: Self.launch, object: nil)
    manager = nil
    #expect(weakManager == nil)
    center.post(name: Self.launch, object: nil)
    #expect(store.storedState?.uses == 1)
    observation?.cancel()
  }

  @Test("notifications posted from several threads are all counted")
  func concurrentPosts() throws {
    let center = NotificationCenter()
    let manager = try F.manager()
    let observation = manager.observeLifecycle(of: center, launch: [Self.launch], foreground: [Self.foreground])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      for _ in 0..<100 {
        center.post(name: index.isMultiple(of: 2) ? Self.launch : Self.foreground, object: nil)
      }
    }
    #expect(manager.currentState.uses == 800)
    observation.cancel()
  }
}
