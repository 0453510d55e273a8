// Fuzz target `store`: the store loader (ReviewStateCoding.decode in
// Sources/ReviewPolicy/Storage/ReviewStore.swift), then a ReviewManager over the loaded state.
//
// The input is stored state (JSON). A hash of the input picks the app version, the clock and a
// few tracking calls, so the corpus stays plain state files.
//
// Invariants (a violation calls `fuzzFail`):
// - a decoded state is sanitized (sanitizing again changes nothing) and survives
//   encode -> decode unchanged;
// - entering a version tracks that version, with per-version counts reset when it changed;
// - a ReviewManager over an InMemoryReviewStore seeded with the state derives facts (exactly
//   when the app version starts with a number) on which decide and explain agree;
// - promptIfAppropriate() records a pending prompt exactly when it asks, and never asks once
//   the user declined in this version when the bundled policy runs (it says `never answered when
//   declined or rated`; a stored policy update may say otherwise).
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore and
// ReviewPolicy.
import Foundation

@testable import PolicyCore
@testable import ReviewPolicy

/// A policy that reads every standard fact and family, and respects a "no thanks".
let bundledPolicy = """
  never answered when declined or rated
  never too_soon when since(last_prompt) < 1w or since(last_reminder) < 1d or since(last_decline) < 1d
    or since(last_rating) < 1d
  never capped when prompts_within(365d) >= 3 or prompts > 5 or total_prompts > 50
  never bad when session_bad or since(last_bad_session) < 1d or (sessions_since_bad ?? 10) < 2
  never same when has last_prompt_version and version <= last_prompt_version
  ask loyal when days >= 1 and total_days >= 1 and events("x") + total_events("x") >= 1
    and (average_score(3) ?? 0) >= 0 and session_score >= 0.0
    and sessions + total_sessions + total_uses + uses + events + total_events >= 0
    and (sessions_since_prompt ?? 0) >= 0 and since(first_use) >= 0s and since(install_date) >= 0s
    and (not has previous_version or version >= previous_version) and not feedback and not declined_any
    and not rated_any
  ask anyone when uses >= 0
  """

extension FuzzRandom {
  mutating func choose<T>(_ values: [T]) -> T { values[below(values.count)] }
}

/// A clock fixed at one date.
struct FixedClock: Sendable {
  let date: Date
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let state: ReviewState
  switch ReviewStateCoding.decode(Data(bytes)) {
  case .failure(let problem):
    _ = problem.description
    return 0
  case .success(let decoded):
    state = decoded
  }

  // Decoding sanitizes; sanitizing is idempotent; the state round-trips.
  let sanitized = state.sanitized()
  if sanitized != state { fuzzFail("sanitizing a decoded state changed it:\n\(state)\n\(sanitized)") }
  do {
    let encoded = try ReviewStateCoding.encode(state)
    switch ReviewStateCoding.decode(encoded) {
    case .success(let again):
      if again != state { fuzzFail("encode -> decode changed the state") }
    case .failure(let problem):
      fuzzFail("an encoded state does not decode: \(problem)")
    }
  } catch {
    fuzzFail("a decoded state does not encode: \(error)")
  }

  var random = FuzzRandom(state: fuzzSeed(bytes))
  let versions = [
    state.version ?? "1.0", state.version ?? "2.0", "3.1", "", "beta", "v1.2.3.4.5", "99999999999.1", "2.0 (45)",
  ]
  let appVersion = random.choose(versions)
  let latest =
    ([state.firstUse, state.installDate, state.lastReminder, state.lastDecline, state.lastRating]
    + state.promptHistory.map(\.date) + state.recentSessions.map(\.start)).compactMap { $0 }.max()
  let dates: [Date] = [
    Date(timeIntervalSince1970: 1_772_366_400),  // 2026-03-01T12:00:00Z
    latest.map { Date($0).addingTimeInterval(86_400 * Double(random.below(400))) } ?? Date(timeIntervalSince1970: 0),
    latest.map { Date($0) } ?? Date(timeIntervalSince1970: 1),
    Date(timeIntervalSince1970: 0),
    Date(timeIntervalSince1970: 1e16),
    Date(timeIntervalSince1970: -1e16),
    .distantFuture,
    .distantPast,
  ]
  let clock = FixedClock(date: random.choose(dates))
  let now = Timestamp(clock.date)

  // Entering a version.
  var entered = state
  let changed = entered.enter(version: appVersion, at: now)
  if entered.version != appVersion || entered.firstUse == nil || entered.installDate == nil {
    fuzzFail("entering version `\(appVersion)` left version \(String(describing: entered.version))")
  }
  if changed {
    if entered.previousVersion != state.version || entered.uses != 0 || entered.prompts != 0 || entered.declined {
      fuzzFail("a version change kept per-version facts")
    }
  }

  // A manager over the state.
  let store = InMemoryReviewStore(state)
  let manager: ReviewManager
  do {
    manager = try ReviewManager(
      configuration: .init(
        appVersion: appVersion, bundledPolicy: bundledPolicy, appName: "Fuzz", store: store,
        clock: { [clock] in clock.date }, texts: .english))
  } catch {
    fuzzFail("the bundled policy does not compile: \(error)")
  }
  let parses = AppVersion.parse(appVersion) != nil
  if let (policy, facts) = manager.currentFacts() {
    if !parses { fuzzFail("facts for an app version that does not parse") }
    let decision = policy.decide(facts)
    let explanation = policy.explain(facts)
    if explanation.decision != decision { fuzzFail("explain's decision differs from decide's") }
    _ = ExplanationRenderer().render(explanation, of: policy)
  } else if parses {
    fuzzFail("no facts for app version `\(appVersion)`, which parses")
  }
  _ = manager.explainCurrentDecision()

  /// Asks, and checks that asking recorded a pending prompt at `now`.
  func prompt() -> Bool {
    let before = manager.currentState.totalPrompts
    let asked = manager.promptIfAppropriate()
    let after = manager.currentState
    if asked {
      if after.promptHistory.last?.outcome != .pending || after.promptHistory.last?.date != now {
        fuzzFail("a prompt was requested but not recorded as pending at now")
      }
      if after.totalPrompts != (before == .max ? .max : max(before, 0) + 1) {
        fuzzFail("a prompt was requested but the prompt count went from \(before) to \(after.totalPrompts)")
      }
    } else if after.totalPrompts != before {
      fuzzFail("no prompt was requested but the prompt count changed")
    }
    if store.storedState != after { fuzzFail("the store does not hold the manager's state") }
    return asked
  }
  _ = prompt()

  // A few tracking calls picked by the input, then a "no thanks" must stop prompts in this version.
  let names: [String?] = [nil, "x", "", String(repeating: "é", count: 100), "export"]
  let scores: [Double] = [1, -1, 250, .infinity, -.infinity, .nan, 1e300, 0.000_000_1]
  let responses = ReviewResponse.allCases
  for _ in 0..<random.below(8) {
    switch random.below(9) {
    case 0: manager.appLaunched()
    case 1: manager.appEnteredForeground()
    case 2: manager.sessionStarted()
    case 3: manager.sessionEnded()
    case 4: manager.significantEvent(random.choose(names), mayPrompt: random.below(2) == 0)
    case 5: manager.action(score: random.choose(scores), isBad: random.below(4) == 0, mayPrompt: random.below(2) == 0)
    case 6: manager.record(random.choose(responses))
    case 7: _ = prompt()
    default: _ = manager.explainCurrentDecision()
    }
  }
  manager.recordWithoutPrompt(.declined)
  if !manager.currentState.declined { fuzzFail("a \"no thanks\" was not recorded") }
  let asked = prompt()
  // A stored policy update (`policySource`) that compiles runs instead of the bundled policy, and
  // need not respect a "no thanks"; the bundled one does.
  if asked && manager.policyOrigin == .bundled { fuzzFail("asked after a \"no thanks\" in this version") }
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  var state = ReviewState()
  state.enter(version: "1.0", at: Timestamp(millisecondsSince1970: 1_772_366_400_000))
  state.countUse()
  state.countEvent(named: "export")
  state.startSession(at: Timestamp(millisecondsSince1970: 1_772_366_400_000))
  state.recordPrompt(at: Timestamp(millisecondsSince1970: 1_772_366_400_000), outcome: .pending)
  state.record(.remindLater, at: Timestamp(millisecondsSince1970: 1_772_366_400_000))
  let encoded = (try? ReviewStateCoding.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  fuzzWarmUp(
    [encoded, encoded.replacingOccurrences(of: "\"1.0\"", with: "\"2.0 (45)\""), "{\"format\": 9}", "[1]"], fuzz)
  return 0
}
