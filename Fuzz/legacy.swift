// Fuzz target `legacy`: the one-time import of other review managers' stored keys
// (LegacyImport.importing in Sources/ReviewMigration/LegacyImport.swift), then a ReviewManager over
// the imported state.
//
// The input's bytes build a dictionary of the keys that Appirater, Armchair, UAAppReviewManager,
// RateOurAppHelper and ReviewKit stored (the importer's own key names, so every branch is
// reachable, plus a few unknown ones), with values of every property-list type: strings (numbers,
// booleans, dates and ReviewKit's JSON among them), integers, doubles (NaN, infinities, huge,
// subnormal), NSNumbers, dates, booleans, data, arrays and nested dictionaries. The input also
// picks the sources, their order, the app version and build, and the clock.
//
// Invariants (a violation calls `fuzzFail`):
// - importing never crashes, and records each source once: importing a source again changes nothing;
// - the imported state is sanitized (sanitizing again changes nothing), its counts are
//   non-negative, its instants are finite dates, its session and prompt numbers lie within the
//   session count;
// - it survives ReviewStateCoding encode -> decode unchanged;
// - a ReviewManager configured with the same sources over an empty store imports each of them into
//   a state that passes the same checks, and decides (and explains the same decision) without a
//   fault on Examples/review.policy, also after a prompt check.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore and
// ReviewPolicy.
import Foundation

@testable import PolicyCore
@testable import ReviewMigration
@testable import ReviewPolicy

/// Examples/review.policy, without its comments.
let reviewPolicyText = """
  fact plan: string = "free"
  fact crashed_this_session: bool = false
  event export, purchase, share

  let engaged = days >= 14 and uses >= 10
  let loved = events("export") >= 3 or (average_score(3) ?? 0) >= 75
  let recently_asked = since(last_prompt) < 8w

  never answered when declined or rated
  never declined_recently when since(last_decline) < 26w
  never too_soon when recently_asked or since(last_reminder) < 3d
  never bad_session when session_bad or crashed_this_session
  never yearly_cap when prompts_within(365d) >= 3
  never buggy_release when version >= v3.0 and version < v3.0.3
  never same_version when has last_prompt_version and version <= last_prompt_version

  ask loyal when engaged and loved
  ask paying when plan in ["pro", "team"] and days >= 7 and uses >= 5
  """

/// The per-version keys of Appirater, Armchair and UAAppReviewManager, without their prefixes.
let appiraterKeys = [
  "CurrentVersion", "FirstUseDate", "UseCount", "SignificantEventCount", "RatedCurrentVersion", "DeclinedToRate",
  "ReminderRequestDate", "RatedAnyVersion", "PreviousVersionRated", "PreviousVersionDeclinedToRate", "PreviousVersion",
]

/// Every key the importer reads, and a few it does not.
let legacyKeys: [String] =
  appiraterKeys.map { "kAppirater" + $0 } + appiraterKeys.map { "app_" + LegacyImport.armchairKey($0) }
  + appiraterKeys.map { "app_UAAppReviewManagerKey" + $0 }
  + [
    "RateOurAppKeys_lastKnownAppVersion", "RateOurAppKeys_actionCounter", "RateOurAppKeys_userSelection",
    "ReviewRequestSessions", "ReviewRequestSessionsNumber", "ReviewRequestLastVersion", "ReviewRequestFirstDate",
    "ReviewRequestLastDate", "ReviewRequestLastSession", "kAppiraterUnknown", "", "app_",
  ]

let interestingDoubles: [Double] = [
  0, -0.0, 1, -1, 0.5, 1e9, 1_000_000_001, 1.7e9, -1.7e9, 7.5e8, 9.2e15, 9.3e15, 9e18, 9.3e18, -9.3e18, 1e300, -1e300,
  .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan,
  Double(Int64.max), Double(Int.min), 3.5, 86_400,
]

let interestingInts: [Int] = [0, 1, 2, 3, -1, 5, 100, 1_000_000_000, 1_000_000_001, .max, .min, .max - 1, 999]

let interestingStrings: [String] = [
  "", "1", "0", "true", "YES", "no", "1.0", "2.0", "3.1", "3.1.0", "45", "1.2.3", "nan", "inf", "-inf", "1e400", "-5",
  "9223372036854775807", "9223372036854775808", "1700000000", "-1e300", "0x10", "v1", "1.", ".1", "1..2",
  String(repeating: "9", count: 300), "\u{0}", "é", "1.0 (45)",
  #"{"major":3,"minor":1,"patch":0}"#, #"{"major":-1,"minor":0,"patch":0}"#,
  #"[{"date":7.5e8,"version":{"major":1,"minor":0,"patch":0},"score":30,"isBad":false}]"#,
  #"[{"date":1e300,"version":{"major":3,"minor":1,"patch":0},"score":1e308,"isBad":true}]"#,
  #"[{"date":-1e300,"version":{"major":0,"minor":0,"patch":0},"score":-1e308,"isBad":true},"#
    + #"{"date":1.7e9,"version":{"major":18446744073709551615,"minor":1,"patch":2},"score":0,"isBad":false}]"#,
]

/// Reads the input's bytes as a stream of choices; past the end every choice is 0.
struct ByteStream {
  var bytes: [UInt8]
  var offset = 0

  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }
  mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(byte()) % bound }
  var isEmpty: Bool { offset >= bytes.count }
  mutating func raw64() -> UInt64 {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
    return value
  }
  mutating func text() -> String {
    let count = below(24)
    var utf8: [UInt8] = []
    for _ in 0..<count { utf8.append(byte()) }
    return String(decoding: utf8, as: UTF8.self)
  }
  mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

  /// A property-list value; `depth` bounds the nesting.
  mutating func value(depth: Int = 0) -> Any {
    switch below(depth < 2 ? 13 : 11) {
    case 0: return pick(interestingStrings)
    case 1: return text()
    case 2: return pick(interestingInts)
    case 3: return Int(truncatingIfNeeded: raw64())
    case 4: return pick(interestingDoubles)
    case 5: return Double(bitPattern: raw64())
    case 6: return NSNumber(value: pick(interestingDoubles))
    case 7: return NSNumber(value: pick(interestingInts))
    case 8: return byte() & 1 == 1
    case 9: return Date(timeIntervalSince1970: pick(interestingDoubles))
    case 10: return Data(pick(interestingStrings).utf8)
    case 11: return (0..<below(4)).map { _ in value(depth: depth + 1) }
    default:
      var dictionary: [String: Any] = [:]
      for _ in 0..<below(4) { dictionary[pick(legacyKeys)] = value(depth: depth + 1) }
      return dictionary
    }
  }
}

func checkState(_ state: ReviewState, _ what: String) {
  if state.sanitized() != state { fuzzFail("\(what): sanitizing the imported state changed it") }
  let counts = [
    state.uses, state.events, state.sessions, state.prompts, state.totalUses, state.totalEvents, state.totalSessions,
    state.totalPrompts,
  ]
  if counts.contains(where: { $0 < 0 }) { fuzzFail("\(what): a negative count in \(counts)") }
  if state.eventsByName.values.contains(where: { $0 < 0 }) || state.totalEventsByName.values.contains(where: { $0 < 0 })
  {
    fuzzFail("\(what): a negative event count")
  }
  let instants =
    [state.firstUse, state.installDate, state.firstSession, state.lastReminder, state.lastDecline, state.lastRating]
    .compactMap { $0 } + state.promptHistory.map(\.date) + state.recentSessions.map(\.start)
  for instant in instants where !Date(instant).timeIntervalSince1970.isFinite {
    fuzzFail("\(what): an instant that is not a finite date")
  }
  for prompt in state.promptHistory where prompt.session < 0 || prompt.session > state.totalSessions {
    fuzzFail("\(what): a prompt in session \(prompt.session) of \(state.totalSessions)")
  }
  for session in state.recentSessions where session.number < 1 || session.number > state.totalSessions {
    fuzzFail("\(what): session \(session.number) of \(state.totalSessions)")
  }
  if Set(state.importedLegacy).count != state.importedLegacy.count { fuzzFail("\(what): a source recorded twice") }
}

final class FixedStore: @unchecked Sendable {
  // @unchecked: written once before use.
  let date: Date
  init(_ date: Date) { self.date = date }
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var stream = ByteStream(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
  let versions: [(String?, String?)] = [
    (nil, nil), ("3.1", nil), ("3.1", "45"), ("1.0", "1.0"), ("2.0", "1.0"), ("3.1.0", "3.1"), ("beta", nil),
  ]
  let (appVersion, build) = stream.pick(versions)
  let clock = Date(timeIntervalSince1970: stream.pick([1_772_366_400, 0, 1e12, -1e12, 978_307_200]))
  let now = Timestamp(clock)
  let sourceCount = 1 + stream.below(5)
  var values: [String: Any] = [:]
  while !stream.isEmpty {
    values[stream.pick(legacyKeys)] = stream.value()
  }
  let dictionary = DictionarySource(values)
  let all: [LegacyImport.Source] = [
    .appirater(dictionary), .armchair(dictionary, keyPrefix: "app_"),
    .uaAppReviewManager(dictionary, keyPrefix: "app_"), .rateOurAppHelper(dictionary), .reviewKit(dictionary),
  ]
  var random = FuzzRandom(state: fuzzSeed(Array(UnsafeBufferPointer(start: data, count: size))))
  var sources = all
  for index in sources.indices.reversed() { sources.swapAt(index, random.below(index + 1)) }
  sources = Array(sources.prefix(sourceCount))

  var state = ReviewState()
  for source in sources {
    state = LegacyImport.importing(source, into: state, at: now, appVersion: appVersion, build: build)
    checkState(state, "after importing \(source.name)")
    if !state.importedLegacy.contains(source.name) { fuzzFail("\(source.name) is not recorded as imported") }
  }
  for source in sources {
    let again = LegacyImport.importing(source, into: state, at: now, appVersion: appVersion, build: build)
    if again != state { fuzzFail("importing \(source.name) twice changed the state") }
  }
  do {
    let encoded = try ReviewStateCoding.encode(state)
    switch ReviewStateCoding.decode(encoded) {
    case .success(let decoded): if decoded != state { fuzzFail("encode -> decode changed the imported state") }
    case .failure(let problem): fuzzFail("an imported state does not decode: \(problem)")
    }
  } catch {
    fuzzFail("an imported state does not encode: \(error)")
  }

  // A manager that imports the same sources on its first launch.
  guard let appVersion else { return 0 }
  let store = InMemoryReviewStore(ReviewState())
  let fixed = FixedStore(clock)
  let manager: ReviewManager
  do {
    manager = try ReviewManager(
      configuration: .init(
        appVersion: appVersion, build: build, bundledPolicy: reviewPolicyText, appName: "Fuzz", store: store,
        clock: { fixed.date }, texts: .english, legacySources: sources))
  } catch {
    fuzzFail("the review policy does not compile: \(error)")
  }
  let managed = manager.currentState
  checkState(managed, "the manager's state")
  for source in sources where !managed.importedLegacy.contains(source.name) {
    fuzzFail("the manager did not import \(source.name)")
  }
  guard let (policy, facts) = manager.currentFacts() else {
    if AppVersion.parse(appVersion) != nil { fuzzFail("no facts for app version `\(appVersion)`") }
    return 0
  }
  let decision = policy.decide(facts)
  if decision.faultCount != 0 {
    fuzzFail("the decision faulted: \(String(describing: decision.firstFault)) on \(managed)")
  }
  let explanation = policy.explain(facts)
  if explanation.decision != decision { fuzzFail("explain's decision differs from decide's") }
  _ = manager.explainCurrentDecision()
  _ = manager.promptIfAppropriate()
  checkState(manager.currentState, "the state after a prompt check")
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(["\u{2}\u{0}\u{4}\u{0}\u{1}\u{2}\u{3}\u{1}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}", "\u{1}"], fuzz)
  return 0
}
