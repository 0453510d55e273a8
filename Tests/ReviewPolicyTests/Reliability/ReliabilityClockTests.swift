import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Clock changes: random histories with the device clock jumping back up to two years and ahead
/// up to five, driven through a ``ReviewTracker`` for every example policy (``ReviewClockRules``).
@Suite("Reliability: the clock goes backwards and jumps ahead")
struct ReliabilityClockTests {
  /// The example policies in Examples/.
  static let examples = [
    "review", "appirater", "appirater-alert", "armchair", "one-liner", "rate-our-app", "reviewkit",
  ]

  /// The instant facts that record a past moment.
  static let recorded = [
    "first_use", "install_date", "first_session", "last_prompt", "last_reminder", "last_decline", "last_rating",
    "last_bad_session",
  ]

  /// The day counts.
  static let dayCounts = ["days", "total_days"]

  @Test("recorded instants never lie after now, elapsed times and day counts are never negative", arguments: examples)
  func invariantsHoldUnderClockJumps(policyName: String) throws {
    let source = try EquivPolicies.example(policyName)
    let compiled = try #require(PolicyCompiler.compile(source, schema: ReviewSchema.standard).policy)
    let day: Int64 = 86_400_000
    for seed in UInt64(1)...20 {
      var random = EquivRandom(seed: seed)
      var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
      var real: Int64 = 1_700_000_000_000  // monotonic, test-driven time
      var offset: Int64 = 0  // the device clock minus real time
      for _ in 0..<300 {
        real += Int64(random.int(1...(20 * 24))) * 3_600_000
        if random.chance(0.05) {
          offset =
            random.chance(0.5)
            ? -Int64(random.int(1...730)) * day : Int64(random.int(1...(5 * 365))) * day
        } else if random.chance(0.05) {
          offset = 0  // the clock is set right again
        }
        let now = Timestamp(millisecondsSince1970: real + offset)
        switch random.int(0..<4) {
        case 0: _ = tracker.launch(at: now, countingUse: true)
        case 1: tracker.countEvent(named: nil, at: now)
        default:
          if tracker.promptIfAppropriate(at: now) {
            _ = tracker.record(random.pick([.remindLater, .declined, .rated, .remindLater]), at: now)
          }
        }
        let facts = try #require(try? tracker.facts(at: now).get())
        for name in Self.recorded {
          if case .instant(let instant)? = facts.value(of: name) {
            #expect(instant <= now, "\(policyName) seed \(seed): \(name) \(instant) is after now \(now)")
          }
        }
        for name in Self.dayCounts {
          if case .int(let days)? = facts.value(of: name) { #expect(days >= 0, "\(policyName): \(name) < 0") }
        }
      }
    }
  }

  /// A prompt recorded while the clock was five years ahead does not lock the user out once
  /// the clock is set right: `last_prompt` counts as now, so the policy's own waits apply.
  @Test("a prompt stamped in the future counts as now")
  func futurePromptCountsAsNow() throws {
    let source = "ask when since(last_prompt) >= 7d\n"
    let compiled = try #require(PolicyCompiler.compile(source, schema: ReviewSchema.standard).policy)
    var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
    let day: Int64 = 86_400_000
    let start: Int64 = 1_700_000_000_000
    let ahead = Timestamp(millisecondsSince1970: start + 5 * 365 * day)
    let askedAhead = tracker.promptIfAppropriate(at: ahead)
    #expect(askedAhead)
    _ = tracker.record(.remindLater, at: ahead)
    // The clock is set right: asked again no later than seven days of real time later.
    let askedAtOnce = tracker.promptIfAppropriate(at: Timestamp(millisecondsSince1970: start + day))
    #expect(!askedAtOnce)
    let askedAfterTheWait = tracker.promptIfAppropriate(at: Timestamp(millisecondsSince1970: start + 9 * day))
    #expect(askedAfterTheWait)
  }
}

/// The day-count rule (``ReviewClockRules``): a jump back moves the start instants earlier.
@Suite("Reliability: day counts never decrease")
struct ReliabilityDayCountTests {
  static let day: Int64 = 86_400_000
  static let start: Int64 = 1_700_000_000_000

  static func days(_ tracker: ReviewTracker, at now: Timestamp) -> (days: Int64?, total: Int64?) {
    guard case .success(let facts) = tracker.facts(at: now) else { return (nil, nil) }
    var result: (days: Int64?, total: Int64?) = (nil, nil)
    if case .int(let days)? = facts.value(of: "days") { result.days = days }
    if case .int(let days)? = facts.value(of: "total_days") { result.total = days }
    return result
  }

  @Test("after a jump back the day counts keep their value, then grow with the clock")
  func jumpBackKeepsDays() throws {
    let compiled = try #require(PolicyCompiler.compile("days >= 30\n", schema: ReviewSchema.standard).policy)
    var tracker = ReviewTracker(policy: compiled, appVersion: "1.0")
    let at = { (days: Int64) in Timestamp(millisecondsSince1970: Self.start + days * Self.day) }
    tracker.countUse(at: at(0))
    tracker.countUse(at: at(20))
    #expect(Self.days(tracker, at: at(20)) == (20, 20))
    // Read-only before any call sees the jump: the same value as once it is recorded.
    #expect(Self.days(tracker, at: at(-365)) == (20, 20))
    tracker.countUse(at: at(-365))
    #expect(tracker.state.clockHighWater == at(-365))
    #expect(tracker.state.firstUse == at(-385))
    #expect(Self.days(tracker, at: at(-365)) == (20, 20))
    #expect(Self.days(tracker, at: at(-355)) == (30, 30))
    let asks = tracker.promptIfAppropriate(at: at(-355))
    #expect(asks)
    // Set right again: the jump ahead raises the counts, which keep growing.
    tracker.countUse(at: at(21))
    #expect(Self.days(tracker, at: at(21)) == (406, 406))
  }

  @Test("the high-water mark is stored, and a state without one reads as before")
  func highWaterRoundTrips() throws {
    var state = ReviewState()
    state.enter(version: "1.0", at: Timestamp(millisecondsSince1970: Self.start))
    #expect(state.clockHighWater == Timestamp(millisecondsSince1970: Self.start))
    func decoded(_ bytes: [UInt8]) -> ReviewState? { bytes.withUnsafeBufferPointer { ReviewStateJSON.decode($0) } }
    #expect(decoded(ReviewStateJSON.encode(state)) == state)
    var later = state
    later.countUse()
    later.settleClock(at: Timestamp(millisecondsSince1970: Self.start - Self.day))
    let patch = ReviewStateJSON.patch(from: state, to: later)
    let patched = patch.withUnsafeBufferPointer { ReviewStateJSON.applying(patch: $0, to: state) }
    #expect(patched == later)
    // A state stored before the mark existed: no mark, and the first call sets it.
    var old = state
    old.clockHighWater = nil
    let bytes = ReviewStateJSON.encode(old)
    #expect(!String(decoding: bytes, as: UTF8.self).contains("clockHighWater"))
    var loaded = try #require(decoded(bytes))
    #expect(loaded.clockHighWater == nil)
    loaded.countUse()
    loaded.enter(version: "1.0", at: Timestamp(millisecondsSince1970: Self.start - Self.day))
    #expect(loaded.clockHighWater == Timestamp(millisecondsSince1970: Self.start - Self.day))
    #expect(loaded.firstUse == Timestamp(millisecondsSince1970: Self.start))
  }
}
