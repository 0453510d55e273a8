import Foundation
import PolicyCore
import ReliabilitySupport
import Testing

@testable import ReviewPolicy

/// A relaunch must see exactly the state the running manager had, so its policy decides the
/// same: loading (``ReviewState/sanitized()``) must leave every state the manager writes
/// unchanged, whatever the device clock did.
@Suite("reliability: relaunch")
struct ReliabilityRelaunchTests {
  typealias F = RuntimeFixtures

  @Test("a relaunch loads the state the manager had, also after the clock went back")
  func relaunchSeesTheSameState() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    let presenter = RuntimeRecordingPresenter(answer: .remindLater)
    let manager = try F.manager(store: JSONFileStore(url: url), clock: clock, presenter: presenter)
    // With the clock going forward, a relaunch sees exactly the manager's state.
    for _ in 0..<3 {
      manager.appLaunched()
      #expect(manager.promptIfAppropriate())
      manager.recordWithoutPrompt(.feedback)
      clock.advance(days: 3)
    }
    #expect(try F.manager(store: JSONFileStore(url: url), clock: clock).currentState == manager.currentState)
    // The user sets the clock a year ahead and is asked, sets it back and is asked again.
    clock.advance(days: 365)
    #expect(manager.promptIfAppropriate())
    clock.advance(days: -365 + 30)
    #expect(manager.promptIfAppropriate())
    clock.advance(days: 2)
    let checking = "never soon when since(last_prompt) < 1d\nask when uses >= 0"
    let asHeld = try F.manager(policy: checking, store: InMemoryReviewStore(manager.currentState), clock: clock)
    let relaunched = try F.manager(policy: checking, store: JSONFileStore(url: url), clock: clock)
    #expect(asHeld.explainCurrentDecision().decision?.shouldAsk == true)
    // Regression: loading used to re-sort promptHistory and responses by date, so after the clock
    // went back a relaunch saw another last prompt and last answer than the running manager
    // (since(last_prompt) was 2 days in memory and -333 days after the relaunch).
    #expect(relaunched.currentState.lastPrompt == manager.currentState.lastPrompt)
    #expect(relaunched.currentState.responses == manager.currentState.responses)
    #expect(relaunched.currentState == manager.currentState)
    #expect(relaunched.explainCurrentDecision().summary == asHeld.explainCurrentDecision().summary)
  }

  @Test("an app version longer than the bound is tracked cut, the same way in memory and after a relaunch")
  func longAppVersionSurvivesRelaunch() throws {
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let version = "2." + String(repeating: "7", count: 400)
    let manager = try F.manager(appVersion: version, store: JSONFileStore(url: url))
    manager.appLaunched()
    manager.significantEvent("export")
    #expect(manager.currentState.version?.utf8.count == ReviewLimits.versionLength)
    // The relaunch does not see a new version: the counts of this version go on.
    let relaunched = try F.manager(appVersion: version, store: JSONFileStore(url: url))
    #expect(relaunched.currentState == manager.currentState)
    relaunched.appLaunched()
    #expect(relaunched.currentState.uses == 2 && relaunched.currentState.events == 1)
    #expect(relaunched.currentState.previousVersion == nil)
  }
  @Test(
    "a new version first used after the clock went back before the install: the relaunch sees the same install date")
  func newVersionBeforeInstallDate() throws {
    // Found by `trackedStatesAreFixedPointsOfLoading`: the new version's first use is before the
    // install date, and loading moved the install date back to the first use in the relaunched
    // state only, so `since(install_date)` differed across a relaunch.
    let directory = try RuntimeTemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    let url = directory.file("review-state.json")
    let clock = RuntimeTestClock()
    try F.manager(appVersion: "1.0", store: JSONFileStore(url: url), clock: clock).appLaunched()
    clock.advance(days: -30)
    let manager = try F.manager(
      policy: "ask when since(install_date) < 1d", appVersion: "1.1", store: JSONFileStore(url: url), clock: clock)
    manager.appLaunched()
    let relaunched = try F.manager(
      policy: "ask when since(install_date) < 1d", appVersion: "1.1", store: JSONFileStore(url: url), clock: clock)
    #expect(relaunched.currentState == manager.currentState)
    // The jump back moved the install date 30 days earlier (day counts never decrease, ``ReviewClockRules``).
    #expect(manager.currentState.installDate == F.at(-30 * F.day))
    #expect(manager.currentState.firstUse == F.at(-30 * F.day))
    #expect(relaunched.explainCurrentDecision().summary == manager.explainCurrentDecision().summary)
  }

  @Test(
    "every state the tracking operations produce, with the clock jumping back and forth, loads back unchanged",
    arguments: [1, 2, 3, 4])
  func trackedStatesAreFixedPointsOfLoading(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var state = ReviewState()
    var now = F.startMilliseconds
    let versions = ["1.0", "1.1", "2.0", "2.0.1-beta (45)", String(repeating: "3.", count: 200) + "0"]
    var version = versions[0]
    for step in 0..<3_000 {
      // Mostly forward by seconds to weeks; sometimes back by up to a year, sometimes years ahead,
      // sometimes to before the install.
      switch Int.random(in: 0..<20, using: &random) {
      case 0: now -= Int64.random(in: 0...(365 * 86_400_000), using: &random)
      case 1: now += Int64.random(in: 0...(5 * 365 * 86_400_000), using: &random)
      case 2: now = F.startMilliseconds - Int64.random(in: 0...(2 * 365 * 86_400_000), using: &random)
      default: now += Int64.random(in: 0...(14 * 86_400_000), using: &random)
      }
      if Int.random(in: 0..<200, using: &random) == 0 {
        version = versions[Int.random(in: 0..<versions.count, using: &random)]
      }
      let at = F.at(now - F.startMilliseconds)
      state.enter(version: version, at: at)
      switch Int.random(in: 0..<8, using: &random) {
      case 0: state.countUse()
      case 1:
        state.countEvent(
          named: ["export", "share", nil, String(repeating: "é", count: 100)][Int.random(in: 0..<4, using: &random)])
      case 2: state.startSession(at: at)
      case 3:
        let score = Number(Double(Int.random(in: -50...50, using: &random))) ?? Number(scaled: 0)
        let bounds = (Number(-200.0) ?? Number(scaled: 0))...(Number(200.0) ?? Number(scaled: 0))
        state.addAction(score: score, isBad: Int.random(in: 0..<10, using: &random) == 0, bounds: bounds, at: at)
      case 4: state.recordPrompt(at: at, outcome: .pending)
      case 5:
        state.record(ReviewResponse.allCases[Int.random(in: 0..<ReviewResponse.allCases.count, using: &random)], at: at)
      case 6: state.endSession()
      default: state.countUse()
      }
      let loaded = state.sanitized()
      if loaded != state {
        Issue.record("seed \(seed), step \(step): loading changes the state the manager holds")
        return
      }
    }
    // And through the coding the stores use.
    guard case .success(let decoded) = ReviewStateCoding.decode(try ReviewStateCoding.encode(state)) else {
      Issue.record("the state does not decode")
      return
    }
    #expect(decoded == state)
  }
}
