import Foundation
import PolicyCore
import Testing

@testable import ReviewMigration
@testable import ReviewPolicy

/// One-time imports of other review managers' keys (reference: review-managers.md 1.2, 1.9, 2.2, 3.5, 4).
@Suite("runtime: legacy import")
struct RuntimeLegacyImportTests {
  typealias F = RuntimeFixtures

  static func ms(_ seconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: seconds * 1000)
  }

  // MARK: - Appirater

  static var appiraterValues: [String: Any] {
    [
      "kAppiraterFirstUseDate": 1_600_000_000.0,
      "kAppiraterUseCount": 12,
      "kAppiraterSignificantEventCount": 5,
      "kAppiraterCurrentVersion": "1.0",
      "kAppiraterRatedCurrentVersion": false,
      "kAppiraterDeclinedToRate": true,
      "kAppiraterReminderRequestDate": 1_650_000_000.0,
    ]
  }

  static var appiraterExpected: ReviewState {
    var state = ReviewState()
    state.firstUse = ms(1_600_000_000)
    state.installDate = ms(1_600_000_000)
    state.uses = 12
    state.totalUses = 12
    state.events = 5
    state.totalEvents = 5
    state.version = "1.0"
    state.declined = true
    state.declinedAny = true
    state.lastReminder = ms(1_650_000_000)
    state.importedLegacy = ["appirater"]
    return state
  }

  /// ``appiraterExpected`` as a manager holds it: with the clock of its first call, the fixtures' start.
  static var appiraterExpectedByManager: ReviewState {
    var state = appiraterExpected
    state.clockHighWater = F.at(0)
    return state
  }

  @Test("Appirater: the seven kAppirater keys")
  func appirater() throws {
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: "ask when uses < 0", appVersion: "1.0", store: store, clock: clock,
      legacySources: [.appirater(DictionarySource(Self.appiraterValues))])
    #expect(manager.currentState == Self.appiraterExpectedByManager)
    expectRuntimeFacts(
      [
        "days == 1157", "total_days == 1157", "uses == 12", "total_uses == 12", "events == 5", "total_events == 5",
        "declined", "declined_any", "not rated", "not rated_any", "since(last_reminder) == 50000000s",
        "since(first_use) == 100000000s", "version == v1.0", "not has previous_version", "not has last_prompt",
      ], manager.currentState, now: clock.now, appVersion: "1.0")

    // Imported once: the next launch of another manager over the same store does not import again.
    manager.appLaunched()
    let again = try F.manager(
      policy: "ask when uses < 0", appVersion: "1.0", store: store, clock: clock,
      legacySources: [.appirater(DictionarySource(Self.appiraterValues))])
    #expect(again.currentState.uses == 13)
    again.appLaunched()
    let state = again.currentState
    #expect((state.uses, state.totalUses, state.events) == (14, 14, 5))
    #expect(state.importedLegacy == ["appirater"])
  }

  @Test("Appirater: values as UserDefaults returns them (NSNumber, Double, Bool) through UserDefaultsSource")
  func appiraterFromUserDefaults() throws {
    let suite = "ReviewPolicyRuntimeTests.\(UUID().uuidString)"
    let defaults = try #require(UserDefaults(suiteName: suite))
    defer { defaults.removePersistentDomain(forName: suite) }
    defaults.set(1_600_000_000.0, forKey: "kAppiraterFirstUseDate")
    defaults.set(12, forKey: "kAppiraterUseCount")
    defaults.set(5, forKey: "kAppiraterSignificantEventCount")
    defaults.set("1.0", forKey: "kAppiraterCurrentVersion")
    defaults.set(false, forKey: "kAppiraterRatedCurrentVersion")
    defaults.set(true, forKey: "kAppiraterDeclinedToRate")
    defaults.set(1_650_000_000.0, forKey: "kAppiraterReminderRequestDate")
    let manager = try F.manager(appVersion: "1.0", legacySources: [.appirater(UserDefaultsSource(defaults))])
    #expect(manager.currentState == Self.appiraterExpectedByManager)
  }

  @Test(
    "a source configured after this library's state exists is imported once, into the running version, without counting twice"
  )
  func importIntoExistingState() throws {
    var existing = ReviewState()
    existing.version = "1.0"
    existing.uses = 2
    existing.totalUses = 2
    let store = InMemoryReviewStore(existing)
    let clock = RuntimeTestClock()
    let sources: [LegacyImport.Source] = [.appirater(DictionarySource(Self.appiraterValues))]
    let manager = try F.manager(policy: Self.oneLiner, store: store, clock: clock, legacySources: sources)
    #expect((manager.currentState.uses, manager.currentState.totalUses) == (12, 12))
    #expect(manager.currentState.declined)
    manager.appLaunched()
    #expect(store.storedState?.importedLegacy == ["appirater"])
    #expect((store.storedState?.uses, store.storedState?.totalUses) == (13, 13))
    // Imported once: later managers with the same source count on.
    let again = try F.manager(policy: Self.oneLiner, store: store, clock: clock, legacySources: sources)
    again.appLaunched()
    #expect((store.storedState?.uses, store.storedState?.totalUses, store.storedState?.events) == (14, 14, 5))
    #expect(store.storedState?.importedLegacy == ["appirater"])
    // The user declined in Appirater: the README's one-liner does not ask, even 60 days on.
    clock.advance(days: 60)
    #expect(again.promptIfAppropriate() == false)
  }

  /// The README's one-liner.
  static let oneLiner = "ask when days >= 30 and uses >= 20 and not declined"

  /// Appirater, Armchair and UAAppReviewManager as each writes its keys, with the build number
  /// (`CFBundleVersion`, "245") as its version while the app reports "3.1" and build "245".
  static var buildKeyedSources: [(name: String, source: LegacyImport.Source)] {
    let appirater: [String: Any] = [
      "kAppiraterFirstUseDate": 1_600_000_000.0, "kAppiraterUseCount": 25, "kAppiraterSignificantEventCount": 4,
      "kAppiraterCurrentVersion": "245", "kAppiraterRatedCurrentVersion": false, "kAppiraterDeclinedToRate": true,
      "kAppiraterReminderRequestDate": 0.0,
    ]
    let armchair: [String: Any] = [
      "42_ArmchairFirstUseDate": 1_600_000_000.0, "42_ArmchairUseCount": 25, "42_ArmchairSignificantEventCount": 4,
      "42_ArmchairKeyCurrentVersion": "245", "42_ArmchairRatedCurrentVersion": false,
      "42_ArmchairKeyDeclinedToRate": true, "42_ArmchairReminderRequestDate": 0.0,
      "42_ArmchairPreviousVersion": "244", "42_ArmchairPreviousVersionRated": false,
      "42_ArmchairPreviousVersionDeclinedToRate": false, "42_ArmchairKeyRatedAnyVersion": false,
      "42_ArmchairAppiraterMigrationCompleted": true, "42_ArmchairUAAppReviewManagerMigrationCompleted": true,
    ]
    let ua: [String: Any] = [
      "42_UAAppReviewManagerKeyFirstUseDate": 1_600_000_000.0, "42_UAAppReviewManagerKeyUseCount": 25,
      "42_UAAppReviewManagerKeySignificantEventCount": 4, "42_UAAppReviewManagerKeyCurrentVersion": "245",
      "42_UAAppReviewManagerKeyRatedCurrentVersion": false, "42_UAAppReviewManagerKeyDeclinedToRate": true,
      "42_UAAppReviewManagerKeyReminderRequestDate": 0.0, "42_UAAppReviewManagerKeyPreviousVersion": "244",
      "42_UAAppReviewManagerKeyPreviousVersionRated": false,
      "42_UAAppReviewManagerKeyPreviousVersionDeclinedToRate": false,
      "42_UAAppReviewManagerKeyRatedAnyVersion": false, "42_UAAppReviewManagerKeyAppiraterMigrationCompleted": true,
    ]
    return [
      ("appirater", .appirater(DictionarySource(appirater))),
      ("armchair", .armchair(DictionarySource(armchair), keyPrefix: "42_")),
      ("uaappreviewmanager", .uaAppReviewManager(DictionarySource(ua), keyPrefix: "42_")),
    ]
  }

  @Test(
    "a library's stored build is the running build: uses, events, first use and declined stay the running version's, and the one-liner does not ask",
    arguments: [0, 1, 2])
  func buildMapsToRunningVersion(_ index: Int) throws {
    let (name, source) = Self.buildKeyedSources[index]
    let store = InMemoryReviewStore()
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: Self.oneLiner, appVersion: "3.1", store: store, clock: clock, legacySources: [source], build: "245")
    manager.appLaunched()
    manager.significantEvent()
    let state = manager.currentState
    #expect((state.version, state.build) == ("3.1", "245"), "\(name)")
    #expect((state.uses, state.events, state.totalUses) == (26, 5, 26), "\(name)")
    #expect(state.firstUse == Self.ms(1_600_000_000), "\(name)")
    #expect((state.declined, state.declinedAny, state.rated) == (true, true, false), "\(name)")
    #expect(store.storedState == state, "\(name)")
    expectRuntimeFacts(["days >= 30", "uses >= 20", "declined"], state, now: clock.now, appVersion: "3.1")
    #expect(manager.promptIfAppropriate() == false, "\(name)")
    // A new build of the same version keeps counting (the marketing version starts versions).
    let next = try F.manager(
      policy: Self.oneLiner, appVersion: "3.1", store: store, clock: clock, legacySources: [source], build: "246")
    next.appLaunched()
    #expect((next.currentState.uses, next.currentState.declined, next.currentState.build) == (27, true, "246"))
  }

  @Test("importing the same source twice changes nothing the second time")
  func importIsIdempotent() {
    let source = LegacyImport.Source.appirater(DictionarySource(Self.appiraterValues))
    let once = LegacyImport.importing(source, into: ReviewState(), at: Timestamp(millisecondsSince1970: 0))
    let twice = LegacyImport.importing(source, into: once, at: Timestamp(millisecondsSince1970: 0))
    #expect(once == Self.appiraterExpected)
    #expect(twice == once)
    #expect(source.name == "appirater")
  }

  // MARK: - Armchair

  @Test("Armchair: the \"<appID>_\" prefix and its irregular key names")
  func armchair() throws {
    let values: [String: Any] = [
      "123_ArmchairFirstUseDate": 1_690_000_000.0,
      "123_ArmchairUseCount": 30,
      "123_ArmchairSignificantEventCount": 8,
      "123_ArmchairKeyCurrentVersion": "2.1",
      "123_ArmchairRatedCurrentVersion": false,
      "123_ArmchairKeyDeclinedToRate": false,
      "123_ArmchairReminderRequestDate": 1_695_000_000.0,
      "123_ArmchairPreviousVersion": "2.0",
      "123_ArmchairPreviousVersionRated": true,
      "123_ArmchairPreviousVersionDeclinedToRate": true,
      "123_ArmchairKeyRatedAnyVersion": false,
      "123_ArmchairAppiraterMigrationCompleted": true,
      // Decoys: regular-looking names Armchair does not use, and other prefixes.
      "123_ArmchairCurrentVersion": "9.9",
      "123_ArmchairDeclinedToRate": true,
      "ArmchairUseCount": 999,
      "_ArmchairUseCount": 998,
      "kAppiraterUseCount": 500,
    ]
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: "ask when uses < 0", appVersion: "2.1", clock: clock,
      legacySources: [.armchair(DictionarySource(values), keyPrefix: "123_")])
    var expected = ReviewState()
    expected.firstUse = Self.ms(1_690_000_000)
    expected.installDate = Self.ms(1_690_000_000)
    expected.uses = 30
    expected.totalUses = 30
    expected.events = 8
    expected.totalEvents = 8
    expected.version = "2.1"
    expected.ratedAny = true
    expected.declinedAny = true
    expected.previousVersion = "2.0"
    expected.lastReminder = Self.ms(1_695_000_000)
    expected.importedLegacy = ["armchair"]
    expected.clockHighWater = F.at(0)
    #expect(manager.currentState == expected)
    expectRuntimeFacts(
      [
        "days == 115", "uses == 30", "events == 8", "not rated", "not declined", "rated_any", "declined_any",
        "has previous_version and previous_version == v2.0", "version == v2.1", "since(last_reminder) == 5000000s",
      ], manager.currentState, now: clock.now, appVersion: "2.1")
    #expect(LegacyImport.armchairKey("CurrentVersion") == "ArmchairKeyCurrentVersion")
    #expect(LegacyImport.armchairKey("UseCount") == "ArmchairUseCount")
  }

  @Test("Armchair: RatedAnyVersion alone sets rated_any, not rated")
  func armchairRatedAnyVersion() throws {
    let manager = try F.manager(
      appVersion: "2.1",
      legacySources: [
        .armchair(
          DictionarySource(["9_ArmchairKeyRatedAnyVersion": true, "9_ArmchairKeyCurrentVersion": "2.1"]),
          keyPrefix: "9_")
      ])
    #expect((manager.currentState.rated, manager.currentState.ratedAny) == (false, true))
  }

  // MARK: - UAAppReviewManager

  @Test("UAAppReviewManager: \"<appID>_UAAppReviewManagerKey<Type>\" keys")
  func uaAppReviewManager() throws {
    let prefix = "123_UAAppReviewManagerKey"
    let values: [String: Any] = [
      prefix + "FirstUseDate": 1_680_000_000.0,
      prefix + "UseCount": 3,
      prefix + "SignificantEventCount": 40,
      prefix + "CurrentVersion": "5.0",
      prefix + "RatedCurrentVersion": true,
      prefix + "DeclinedToRate": false,
      prefix + "PreviousVersion": "4.9",
      prefix + "PreviousVersionRated": false,
      prefix + "PreviousVersionDeclinedToRate": false,
      prefix + "RatedAnyVersion": true,
      "123_ArmchairUseCount": 77,
    ]
    let manager = try F.manager(
      appVersion: "5.0", legacySources: [.uaAppReviewManager(DictionarySource(values), keyPrefix: "123_")])
    var expected = ReviewState()
    expected.firstUse = Self.ms(1_680_000_000)
    expected.installDate = Self.ms(1_680_000_000)
    expected.uses = 3
    expected.totalUses = 3
    expected.events = 40
    expected.totalEvents = 40
    expected.version = "5.0"
    expected.rated = true
    expected.ratedAny = true
    expected.previousVersion = "4.9"
    expected.importedLegacy = ["uaappreviewmanager"]
    expected.clockHighWater = F.at(0)
    #expect(manager.currentState == expected)
    expectRuntimeFacts(
      ["rated", "rated_any", "not declined", "events == 40", "has previous_version and previous_version == v4.9"],
      manager.currentState, now: F.start, appVersion: "5.0")
  }

  // MARK: - RateOurAppHelper

  @Test("RateOurAppHelper: version, action counter and each user selection", arguments: [0, 1, 2, 3, 7])
  func rateOurAppHelper(selection: Int) throws {
    let values: [String: Any] = [
      "RateOurAppKeys_lastKnownAppVersion": "3.0",
      "RateOurAppKeys_actionCounter": 4,
      "RateOurAppKeys_userSelection": selection,
    ]
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      appVersion: "3.0", clock: clock, legacySources: [.rateOurAppHelper(DictionarySource(values))])
    var expected = ReviewState()
    expected.version = "3.0"
    expected.events = 4
    expected.totalEvents = 4
    expected.importedLegacy = ["rateourapphelper"]
    switch selection {
    case 1:
      expected.rated = true
      expected.ratedAny = true
    case 2:
      expected.feedback = true
      expected.feedbackAny = true
    case 3:
      expected.lastReminder = Timestamp(clock.now)
    default:
      break
    }
    var state = manager.currentState
    if selection == 3 {
      #expect(state.lastReminder != nil)
      #expect(state.lastReminder == expected.lastReminder)
      state.lastReminder = expected.lastReminder
    }
    #expect(state == expected)
    expectRuntimeFacts(
      ["events == 4", "total_events == 4", "uses == 0", "days == 0"], state, now: clock.now, appVersion: "3.0")
  }

  // MARK: - ReviewKit

  static func reviewKitSession(_ date: Double, _ score: Double, _ isBad: Bool, version: (Int, Int, Int) = (1, 2, 0))
    -> String
  {
    "{\"date\":\(date),\"version\":{\"major\":\(version.0),\"minor\":\(version.1),\"patch\":\(version.2)},\"score\":\(score),\"isBad\":\(isBad)}"
  }

  @Test("ReviewKit: sessions as ReviewKit encodes them, the session count and the last-request keys")
  func reviewKit() throws {
    // JSONEncoder's default date encoding: seconds since 2001-01-01 (978,307,200 s after 1970).
    let sessions =
      "["
      + [
        Self.reviewKitSession(700_086_400, 20.5, true), Self.reviewKitSession(700_000_000, 10, false),
        Self.reviewKitSession(700_172_800, 30, false),
      ].joined(separator: ",") + "]"
    let values: [String: Any] = [
      "ReviewRequestSessions": Data(sessions.utf8),
      "ReviewRequestSessionsNumber": 5,
      "ReviewRequestFirstDate": 1_670_000_000.0,
      "ReviewRequestLastDate": 1_690_000_000.0,
      "ReviewRequestLastSession": 4,
      "ReviewRequestLastVersion": Data("{\"major\":1,\"minor\":1,\"patch\":0}".utf8),
    ]
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: "ask when uses < 0", appVersion: "1.2.0", clock: clock,
      legacySources: [.reviewKit(DictionarySource(values))])
    var expected = ReviewState()
    expected.version = "1.2.0"
    expected.firstUse = Self.ms(1_670_000_000)
    expected.installDate = Self.ms(1_670_000_000)
    expected.firstSession = Self.ms(1_670_000_000)  // ReviewRequestFirstDate: ReviewKit's initial wait goes on
    expected.totalSessions = 5
    expected.recentSessions = [
      SessionRecord(number: 3, start: Self.ms(1_678_307_200), version: "1.2.0", score: F.number("10")),
      SessionRecord(number: 4, start: Self.ms(1_678_393_600), version: "1.2.0", score: F.number("20.5"), isBad: true),
      SessionRecord(number: 5, start: Self.ms(1_678_480_000), version: "1.2.0", score: F.number("30")),
    ]
    expected.lastBadSession = expected.recentSessions[1]
    expected.promptHistory = [
      PromptRecord(date: Self.ms(1_690_000_000), version: "1.1.0", session: 4, outcome: .unknown)
    ]
    expected.totalPrompts = 1
    expected.importedLegacy = ["reviewkit"]
    #expect(manager.currentState == expected)
    expectRuntimeFacts(
      [
        "total_sessions == 5", "sessions == 0", "(average_score(3) ?? 0.0) == 20.166666",
        "(average_score(1) ?? 0.0) == 30.0", "(sessions_since_prompt ?? -1) == 1", "(sessions_since_bad ?? -1) == 1",
        "since(last_bad_session) == 21606400s", "since(last_prompt) == 10000000s",
        "has last_prompt_version and last_prompt_version == v1.1.0", "total_prompts == 1", "prompts == 0",
        "prompts_within(365d) == 1", "days == 347", "not session_bad",
      ], manager.currentState, now: clock.now, appVersion: "1.2.0")
  }

  @Test("ReviewKit as actually stored: the last request's version overwrote the sessions (reference 3.5)")
  func reviewKitOverwrittenSessions() throws {
    let values: [String: Any] = [
      "ReviewRequestSessions": Data("{\"major\":1,\"minor\":2,\"patch\":0}".utf8),
      "ReviewRequestSessionsNumber": 12,
      "ReviewRequestFirstDate": 1_670_000_000.0,
      "ReviewRequestLastDate": 1_690_000_000.0,
      "ReviewRequestLastSession": 11,
    ]
    let manager = try F.manager(appVersion: "1.2.0", legacySources: [.reviewKit(DictionarySource(values))])
    let state = manager.currentState
    #expect(state.totalSessions == 12)
    #expect(state.recentSessions.isEmpty)
    #expect(state.lastBadSession == nil)
    // The version ReviewKit wrote over its sessions is the last prompt's version.
    #expect(
      state.promptHistory == [
        PromptRecord(date: Self.ms(1_690_000_000), version: "1.2.0", session: 11, outcome: .unknown)
      ])
    #expect(state.version == nil)
    expectRuntimeFacts(
      [
        "total_sessions == 12", "(sessions_since_prompt ?? -1) == 1", "has last_prompt",
        "has last_prompt_version and last_prompt_version == v1.2.0",
      ],
      state, now: F.start, appVersion: "1.2.0")
  }

  @Test(
    "ReviewKit after a request and a later session: the lost prompt version is the running version; a session count from before 1.2.1 is read"
  )
  func reviewKitLostVersion() throws {
    // After a request ReviewKit wrote the version over its sessions; the next session's save found
    // no sessions there and wrote a list of one. The request's version is gone.
    let later = Self.reviewKitSession(1_690_000_000 - 978_307_200 + 3600, 40, false, version: (3, 1, 0))
    let values: [String: Any] = [
      "ReviewRequestSessions": Data("[\(later)]".utf8), "ReviewRequestSessionsNumber": 9,
      "ReviewRequestFirstDate": 1_670_000_000.0, "ReviewRequestLastDate": 1_690_000_000.0,
      "ReviewRequestLastSession": 8,
    ]
    let clock = RuntimeTestClock()
    let manager = try F.manager(
      policy: "ask when not (has last_prompt_version and last_prompt_version == version)", appVersion: "3.1",
      clock: clock, legacySources: [.reviewKit(DictionarySource(values))])
    let state = manager.currentState
    #expect(state.promptHistory.map(\.version) == ["3.1"])
    #expect(state.recentSessions.map(\.version) == ["3.1"])
    #expect(state.version == "3.1")
    // A once-per-version rule does not ask again in the version ReviewKit asked in.
    #expect(manager.promptIfAppropriate() == false)
    // ReviewKit before 1.2.1 stored its session count under `ReviewRequestSessions`.
    let old = LegacyImport.importing(
      .reviewKit(DictionarySource(["ReviewRequestSessions": 17])), into: ReviewState(),
      at: Timestamp(millisecondsSince1970: 0), appVersion: "3.1", build: nil)
    #expect(old.totalSessions == 17)
  }

  @Test("ReviewKit: more sessions than the history keeps the latest ReviewLimits.sessionHistory, numbered from the end")
  func reviewKitManySessions() throws {
    var items: [String] = []
    for index in 0..<70 {
      items.append(Self.reviewKitSession(Double(700_000_000 + index * 60), Double(index), index == 3))
    }
    let sessions: String = "[" + items.joined(separator: ",") + "]"
    let values: [String: Any] = ["ReviewRequestSessions": sessions, "ReviewRequestSessionsNumber": 70]
    let state = LegacyImport.importing(
      .reviewKit(DictionarySource(values)), into: ReviewState(), at: Timestamp(millisecondsSince1970: 0))
    #expect(state.totalSessions == 70)
    #expect(state.recentSessions.map(\.number) == Array(21...70))
    #expect(state.recentSessions.first?.score == F.number("20"))
    #expect(state.lastBadSession == nil)  // the bad session (#4) is not among the kept ones
  }

  // MARK: - Several sources, bad values

  @Test("several sources merge: larger counts, earlier first use, the first version found, combined flags")
  func severalSources() throws {
    let armchair: [String: Any] = [
      "1_ArmchairFirstUseDate": 1_500_000_000.0, "1_ArmchairUseCount": 30, "1_ArmchairSignificantEventCount": 2,
      "1_ArmchairKeyCurrentVersion": "7.0", "1_ArmchairRatedCurrentVersion": true,
    ]
    let manager = try F.manager(
      appVersion: "1.0",
      legacySources: [
        .appirater(DictionarySource(Self.appiraterValues)), .armchair(DictionarySource(armchair), keyPrefix: "1_"),
      ])
    let state = manager.currentState
    #expect(state.firstUse == Self.ms(1_500_000_000))
    #expect(state.installDate == Self.ms(1_500_000_000))
    #expect((state.uses, state.totalUses, state.events, state.totalEvents) == (30, 30, 5, 5))
    #expect(state.version == "1.0")
    #expect((state.rated, state.ratedAny, state.declined, state.declinedAny) == (true, true, true, true))
    #expect(state.importedLegacy == ["appirater", "armchair"])
  }

  @Test(
    "an imported version other than the app's is a version change at the first use: totals and previous_version stay")
  func importedVersionDiffers() throws {
    // Appirater tracks CFBundleVersion (a build number); the app reports its short version.
    var values = Self.appiraterValues
    values["kAppiraterCurrentVersion"] = "45"
    // The app's build is 46: Appirater's facts belong to an earlier build.
    let manager = try F.manager(
      policy: "ask when uses < 0", appVersion: "1.0", legacySources: [.appirater(DictionarySource(values))], build: "46"
    )
    manager.appLaunched()
    let state = manager.currentState
    #expect((state.version, state.previousVersion) == ("1.0", "45"))
    #expect((state.uses, state.totalUses) == (1, 13))
    #expect((state.declined, state.declinedAny) == (false, true))
  }

  @Test("bad values (text where numbers are expected, NaN, infinity, wrong types) are ignored without crashing")
  func badValues() throws {
    let appirater: [String: Any] = [
      "kAppiraterFirstUseDate": Double.nan,
      "kAppiraterUseCount": "many",
      "kAppiraterSignificantEventCount": Double.infinity,
      "kAppiraterCurrentVersion": 5,
      "kAppiraterRatedCurrentVersion": "maybe",
      "kAppiraterDeclinedToRate": Data([1]),
      "kAppiraterReminderRequestDate": "yesterday",
    ]
    let reviewKit: [String: Any] = [
      "ReviewRequestSessionsNumber": "lots",
      "ReviewRequestSessions": Data("not json".utf8),
      "ReviewRequestFirstDate": Double.nan,
      "ReviewRequestLastDate": "yesterday",
      "ReviewRequestLastSession": "x",
      "ReviewRequestLastVersion": 3,
    ]
    let rateOurApp: [String: Any] = [
      "RateOurAppKeys_lastKnownAppVersion": 3.0,
      "RateOurAppKeys_actionCounter": Double.nan,
      "RateOurAppKeys_userSelection": "writeReview",
    ]
    let armchair: [String: Any] = [
      "p_ArmchairFirstUseDate": -5.0, "p_ArmchairUseCount": -7, "p_ArmchairSignificantEventCount": 1e300,
      "p_ArmchairReminderRequestDate": Double.infinity, "p_ArmchairPreviousVersion": ["2.0"],
    ]
    let manager = try F.manager(
      appVersion: "1.0",
      legacySources: [
        .appirater(DictionarySource(appirater)), .reviewKit(DictionarySource(reviewKit)),
        .rateOurAppHelper(DictionarySource(rateOurApp)), .armchair(DictionarySource(armchair), keyPrefix: "p_"),
      ])
    var expected = ReviewState()
    expected.importedLegacy = ["appirater", "reviewkit", "rateourapphelper", "armchair"]
    #expect(manager.currentState == expected)
    manager.appLaunched()
    #expect(manager.currentState.uses == 1)
    #expect(manager.promptIfAppropriate())
  }

  @Test("numeric text is read as a number")
  func numericText() {
    let state = LegacyImport.importing(
      .appirater(
        DictionarySource([
          "kAppiraterUseCount": "12", "kAppiraterFirstUseDate": "1600000000", "kAppiraterDeclinedToRate": "YES",
        ])),
      into: ReviewState(), at: Timestamp(millisecondsSince1970: 0))
    #expect((state.uses, state.firstUse, state.declined) == (12, Self.ms(1_600_000_000), true))
  }

  @Test("ReviewKit sessions with extreme dates and scores import without trapping")
  func reviewKitExtremeSessions() {
    let sessions =
      "[" + Self.reviewKitSession(1e300, 1e300, false) + "," + Self.reviewKitSession(-1e300, -1e300, true) + "]"
    let state = LegacyImport.importing(
      .reviewKit(DictionarySource(["ReviewRequestSessions": Data(sessions.utf8), "ReviewRequestSessionsNumber": -3])),
      into: ReviewState(), at: Timestamp(millisecondsSince1970: 0))
    #expect(state.totalSessions == 2)
    #expect(state.recentSessions.map(\.number) == [1, 2])
    #expect(state.recentSessions.map(\.score) == [Number(scaled: 0), Number(scaled: 0)])
  }

  @Test("a hostile ReviewKit last-request session number does not trap the first decision")
  func reviewKitHostileLastSession() async {
    await #expect(processExitsWith: .success) {
      let values: [String: Any] = [
        "ReviewRequestSessionsNumber": 3, "ReviewRequestLastDate": 1_690_000_000.0, "ReviewRequestLastSession": Int.min,
      ]
      let manager = try ReviewManager(
        configuration: .init(
          appVersion: "1.0", bundledPolicy: "ask when uses >= 0", store: InMemoryReviewStore(), texts: .english,
          legacySources: [.reviewKit(DictionarySource(values))]))
      _ = manager.promptIfAppropriate()
    }
  }

  @Test("a ReviewKit session count of Int.max without stored sessions does not trap")
  func reviewKitHugeSessionCount() async {
    await #expect(processExitsWith: .success) {
      let state = LegacyImport.importing(
        .reviewKit(DictionarySource(["ReviewRequestSessionsNumber": Int.max])), into: ReviewState(),
        at: Timestamp(millisecondsSince1970: 0))
      // Counts are bounded at a billion sessions.
      precondition(state.totalSessions == 1_000_000_000)
    }
  }
}
