import Foundation
import PolicyCore
import ReviewPolicy

/// Reads stored values by key: `UserDefaults`, or a dictionary in tests.
public protocol LegacyKeyValueSource: Sendable {
  /// The value stored under `key`, if any.
  func value(forKey key: String) -> Any?
}

/// `UserDefaults` as a source of legacy keys.
public struct UserDefaultsSource: LegacyKeyValueSource, @unchecked Sendable {
  // @unchecked: `UserDefaults` is thread-safe.
  private let defaults: UserDefaults

  /// A source reading `defaults`.
  public init(_ defaults: UserDefaults = .standard) {
    self.defaults = defaults
  }

  /// The value under `key`.
  public func value(forKey key: String) -> Any? {
    defaults.object(forKey: key)
  }
}

/// A dictionary as a source of legacy keys.
public struct DictionarySource: LegacyKeyValueSource, @unchecked Sendable {
  // @unchecked: the dictionary is immutable and holds plain values (numbers, strings, data).
  private let values: [String: Any]

  /// A source holding `values`.
  public init(_ values: [String: Any]) {
    self.values = values
  }

  /// The value under `key`.
  public func value(forKey key: String) -> Any? {
    values[key]
  }
}

/// A one-time import of the keys that other review managers stored, so an app
/// switching to this library keeps its users' history.
///
/// Imports fill a state that has nothing yet: counts take the larger value,
/// dates the earlier first use, flags are combined. Each source is imported once.
public enum LegacyImport {
  /// A legacy manager whose keys to import, made by ``LegacyStateImporter/appirater(_:)`` and its
  /// siblings (`legacySources: [.armchair(UserDefaultsSource(), keyPrefix: "<appID>_")]`).
  public struct Source: LegacyStateImporter {
    /// The manager, and where its keys are.
    enum Manager: Sendable {
      case appirater(any LegacyKeyValueSource)
      case armchair(any LegacyKeyValueSource, keyPrefix: String)
      case uaAppReviewManager(any LegacyKeyValueSource, keyPrefix: String)
      case rateOurAppHelper(any LegacyKeyValueSource)
      case reviewKit(any LegacyKeyValueSource)
    }

    /// The manager, and where its keys are.
    let manager: Manager

    /// The name recorded in ``ReviewState/importedLegacy``.
    public var name: String {
      switch manager {
      case .appirater: "appirater"
      case .armchair: "armchair"
      case .uaAppReviewManager: "uaappreviewmanager"
      case .rateOurAppHelper: "rateourapphelper"
      case .reviewKit: "reviewkit"
      }
    }

    /// `state` with this source's keys merged in (see ``LegacyImport/importing(_:into:at:appVersion:build:)``).
    public func importing(into state: ReviewState, at now: Timestamp, appVersion: String?, build: String?)
      -> ReviewState
    {
      LegacyImport.importing(self, into: state, at: now, appVersion: appVersion, build: build)
    }
  }

  /// `state` with `source`'s keys merged in (once: a source already imported is skipped);
  /// `now` dates answers the legacy manager stored without a date.
  public static func importing(_ source: Source, into state: ReviewState, at now: Timestamp) -> ReviewState {
    importing(source, into: state, at: now, appVersion: nil, build: nil)
  }

  /// `state` with `source`'s keys merged in (once: a source already imported is skipped), for an
  /// app running `appVersion` (its marketing version) and `build` (its `CFBundleVersion`).
  ///
  /// Appirater, Armchair and UAAppReviewManager stored the build as their version. When that is
  /// the running build (or the running version, or no build is given), their per-version facts
  /// (uses, events, first use, declined, rated, the reminder) become the running version's, so
  /// switching libraries in an update loses none of them; an older build's facts count as an
  /// earlier version's (totals, rated or declined in any version, the previous version).
  /// ReviewKit's sessions and last prompt are read as ReviewKit's `UserDefaults` storage really
  /// wrote them. Counts take the larger value, so importing into a state that already counts
  /// the same uses does not count them twice.
  public static func importing(
    _ source: Source, into state: ReviewState, at now: Timestamp, appVersion: String?, build: String?
  ) -> ReviewState {
    guard !state.importedLegacy.contains(source.name) else { return state }
    var state = state
    let running = appVersion.map { RunningVersion(appVersion: $0, build: build, now: now) }
    switch source.manager {
    case .appirater(let values):
      importAppiraterStyle(values, key: { "kAppirater" + $0 }, into: &state, running: running)
    case .armchair(let values, let prefix):
      importAppiraterStyle(values, key: { prefix + armchairKey($0) }, into: &state, running: running)
    case .uaAppReviewManager(let values, let prefix):
      importAppiraterStyle(values, key: { prefix + "UAAppReviewManagerKey" + $0 }, into: &state, running: running)
    case .rateOurAppHelper(let values):
      importRateOurApp(values, into: &state, at: now)
    case .reviewKit(let values):
      importReviewKit(values, into: &state, running: running)
    }
    state.importedLegacy.append(source.name)
    return state.sanitized()
  }

  /// The version the app runs, for mapping a legacy manager's stored version.
  struct RunningVersion {
    var appVersion: String
    var build: String?
    var now: Timestamp

    /// Whether a legacy manager's stored version is the running one: the running build or version,
    /// or any version when the build is unknown (the safe reading: it keeps "declined").
    func isCurrent(_ stored: String) -> Bool {
      stored == appVersion || build == nil || stored == build
    }
  }

  // MARK: - Appirater, Armchair, UAAppReviewManager

  /// Armchair's default key names (they are not uniform).
  static func armchairKey(_ type: String) -> String {
    switch type {
    case "CurrentVersion", "DeclinedToRate", "RatedAnyVersion": "ArmchairKey" + type
    default: "Armchair" + type
    }
  }

  private static func importAppiraterStyle(
    _ values: any LegacyKeyValueSource, key: (String) -> String, into state: inout ReviewState,
    running: RunningVersion?
  ) {
    let stored = values.value(forKey: key("CurrentVersion")) as? String
    var firstUse: Timestamp?
    if let seconds = double(values.value(forKey: key("FirstUseDate"))), seconds > 0 {
      firstUse = Timestamp(Date(timeIntervalSince1970: seconds))
    }
    let uses = int(values.value(forKey: key("UseCount")))
    let events = int(values.value(forKey: key("SignificantEventCount")))
    let rated = bool(values.value(forKey: key("RatedCurrentVersion"))) == true
    let declined = bool(values.value(forKey: key("DeclinedToRate"))) == true
    var reminder: Timestamp?
    if let seconds = double(values.value(forKey: key("ReminderRequestDate"))), seconds > 0 {
      reminder = Timestamp(Date(timeIntervalSince1970: seconds))
    }
    // Whether the legacy per-version facts are the running version's.
    let isCurrent = running.map { running in stored.map(running.isCurrent) ?? true } ?? true
    let hasFacts = stored != nil || firstUse != nil || (uses ?? 0) > 0 || (events ?? 0) > 0 || rated || declined
    if let running, isCurrent, hasFacts {
      state.enter(version: running.appVersion, build: running.build, newVersionOnBuild: false, at: running.now)
    }
    if let firstUse {
      if isCurrent { state.firstUse = min(state.firstUse ?? firstUse, firstUse) }
      state.installDate = min(state.installDate ?? firstUse, firstUse)
    }
    if let uses {
      if isCurrent { state.uses = max(state.uses, uses) }
      state.totalUses = max(state.totalUses, uses)
    }
    if let events {
      if isCurrent { state.events = max(state.events, events) }
      state.totalEvents = max(state.totalEvents, events)
    }
    if running == nil, state.version == nil, let stored {
      state.version = stored
    }
    if rated {
      if isCurrent { state.rated = true }
      state.ratedAny = true
    }
    if declined {
      if isCurrent { state.declined = true }
      state.declinedAny = true
    }
    if bool(values.value(forKey: key("RatedAnyVersion"))) == true
      || bool(values.value(forKey: key("PreviousVersionRated"))) == true
    {
      state.ratedAny = true
    }
    if bool(values.value(forKey: key("PreviousVersionDeclinedToRate"))) == true {
      state.declinedAny = true
    }
    if isCurrent {
      if state.previousVersion == nil, let previous = values.value(forKey: key("PreviousVersion")) as? String {
        state.previousVersion = previous
      }
      if let reminder { state.lastReminder = max(state.lastReminder ?? reminder, reminder) }
    } else if state.previousVersion == nil, let stored {
      // An older build's facts: that build is the version before the running one.
      state.previousVersion = stored
    }
  }

  // MARK: - RateOurAppHelper

  private static func importRateOurApp(
    _ values: any LegacyKeyValueSource, into state: inout ReviewState, at now: Timestamp
  ) {
    if state.version == nil, let version = values.value(forKey: "RateOurAppKeys_lastKnownAppVersion") as? String {
      state.version = version
    }
    if let actions = int(values.value(forKey: "RateOurAppKeys_actionCounter")) {
      state.events = max(state.events, actions)
      state.totalEvents = max(state.totalEvents, actions)
    }
    // 0 no selection, 1 write a review, 2 give feedback, 3 maybe later.
    switch int(values.value(forKey: "RateOurAppKeys_userSelection")) {
    case 1:
      state.rated = true
      state.ratedAny = true
    case 2:
      state.feedback = true
    case 3:
      // The date of "maybe later" was never stored: record it as now, which keeps the
      // helper's meaning (silent until the next version).
      state.lastReminder = state.lastReminder ?? now
    default:
      break
    }
  }

  // MARK: - ReviewKit

  private struct ReviewKitVersion: Decodable {
    var major: UInt
    var minor: UInt
    var patch: UInt
    var text: String { "\(major).\(minor).\(patch)" }

    /// Whether ReviewKit's `major.minor.patch` text names the same version as `appVersion`
    /// (ReviewKit reads `CFBundleShortVersionString` and fills missing parts with 0: "3.1" is 3.1.0).
    static func same(_ text: String, _ appVersion: String) -> Bool {
      func parts(_ version: String) -> [UInt]? {
        var numbers: [UInt] = []
        for part in version.split(separator: ".", omittingEmptySubsequences: false) {
          guard let number = UInt(part) else { return nil }
          numbers.append(number)
        }
        while numbers.count < 3 { numbers.append(0) }
        return numbers
      }
      guard let left = parts(text), let right = parts(appVersion) else { return false }
      return left == right
    }
  }

  private struct ReviewKitSession: Decodable {
    var date: Double
    var version: ReviewKitVersion
    var score: Double
    var isBad: Bool
  }

  /// Imports what ReviewKit's `UserDefaults` storage (1.0 to 1.2.3) really holds. Its setter of
  /// the last prompt's version writes the version under `ReviewRequestSessions`, over the
  /// sessions (and before 1.2.1 the session count went there too), so that key holds the
  /// sessions, or the last prompt's version, or a count; `ReviewRequestLastVersion` is read too,
  /// should a fixed ReviewKit have written it.
  private static func importReviewKit(
    _ values: any LegacyKeyValueSource, into state: inout ReviewState, running: RunningVersion?
  ) {
    let sessionsValue = values.value(forKey: "ReviewRequestSessions")
    var sessions: [ReviewKitSession] = []
    var lastVersion: String?
    var storedCount = int(values.value(forKey: "ReviewRequestSessionsNumber")) ?? 0
    if let data = data(sessionsValue) {
      if let decoded = try? JSONDecoder().decode([ReviewKitSession].self, from: data) {
        sessions = decoded.stablySorted { $0.date < $1.date }
      } else if let version = try? JSONDecoder().decode(ReviewKitVersion.self, from: data) {
        lastVersion = version.text
      }
    } else if let count = int(sessionsValue) {
      storedCount = max(storedCount, count)
    }
    if let data = data(values.value(forKey: "ReviewRequestLastVersion")),
      let version = try? JSONDecoder().decode(ReviewKitVersion.self, from: data)
    {
      lastVersion = version.text
    }
    // Counts beyond a billion sessions are not real; bounding them keeps the arithmetic below exact.
    let total = min(max(storedCount, 0), 1_000_000_000)
    let count = max(total, sessions.count)
    state.totalSessions = max(state.totalSessions, count)
    let firstNumber = count - sessions.count + 1
    let mapped = { (text: String) -> String in
      guard let running, ReviewKitVersion.same(text, running.appVersion) else { return text }
      return running.appVersion
    }
    state.recentSessions = sessions.suffix(ReviewLimits.sessionHistory).enumerated().map { offset, session in
      SessionRecord(
        number: firstNumber + offset + max(0, sessions.count - ReviewLimits.sessionHistory),
        start: reviewKitDate(session.date), version: mapped(session.version.text),
        score: Number(session.score) ?? Number(scaled: 0), isBad: session.isBad)
    }
    state.lastBadSession = state.recentSessions.last { $0.isBad }
    if let seconds = double(values.value(forKey: "ReviewRequestFirstDate")), seconds > 0 {
      let date = Timestamp(Date(timeIntervalSince1970: seconds))
      state.installDate = min(state.installDate ?? date, date)
      state.firstUse = min(state.firstUse ?? date, date)
      state.firstSession = min(state.firstSession ?? date, date)
    } else if let first = state.recentSessions.first, count == sessions.count {
      state.firstSession = min(state.firstSession ?? first.start, first.start)
    }
    if let seconds = double(values.value(forKey: "ReviewRequestLastDate")), seconds > 0 {
      let date = Timestamp(Date(timeIntervalSince1970: seconds))
      // The version asked in: as stored; else that of the last session begun by then; else
      // (ReviewKit lost it) the running version, so a once-per-version rule does not ask again.
      let sessionVersion = sessions.last { reviewKitDate($0.date) <= date }?.version.text
      let version = lastVersion ?? sessionVersion ?? running?.appVersion ?? state.version ?? ""
      let session = min(max(int(values.value(forKey: "ReviewRequestLastSession")) ?? count, 0), count)
      state.promptHistory.append(
        PromptRecord(date: date, version: mapped(version), session: session, outcome: .unknown))
      state.totalPrompts = max(state.totalPrompts, 1)
    }
    if state.version == nil, let last = sessions.last {
      state.version = mapped(last.version.text)
    }
  }

  /// ReviewKit encodes session dates with `JSONEncoder`'s default: seconds since 2001-01-01.
  /// A value above one billion is taken as seconds since 1970 instead.
  private static func reviewKitDate(_ seconds: Double) -> Timestamp {
    seconds > 1_000_000_000
      ? Timestamp(Date(timeIntervalSince1970: seconds)) : Timestamp(Date(timeIntervalSinceReferenceDate: seconds))
  }

  // MARK: - Value conversions

  static func double(_ value: Any?) -> Double? {
    switch value {
    case let number as Double: number.isFinite ? number : nil
    case let number as Int: Double(number)
    case let number as NSNumber: number.doubleValue.isFinite ? number.doubleValue : nil
    case let text as String: Double(text).flatMap { $0.isFinite ? $0 : nil }
    default: nil
    }
  }

  static func int(_ value: Any?) -> Int? {
    switch value {
    case let number as Int: number
    case let number as Double: number.isFinite && abs(number) < 9e18 ? Int(number) : nil
    case let number as NSNumber: number.intValue
    case let text as String: Int(text)
    default: nil
    }
  }

  static func bool(_ value: Any?) -> Bool? {
    switch value {
    case let flag as Bool: flag
    case let number as Int: number != 0
    case let number as NSNumber: number.boolValue
    case let text as String: ["1", "true", "yes"].contains(text.lowercased())
    default: nil
    }
  }

  static func data(_ value: Any?) -> Data? {
    switch value {
    case let data as Data: data
    case let text as String: Data(text.utf8)
    default: nil
    }
  }
}

extension LegacyStateImporter where Self == LegacyImport.Source {
  /// Appirater's unprefixed `kAppirater...` keys.
  public static func appirater(_ values: any LegacyKeyValueSource) -> Self {
    LegacyImport.Source(manager: .appirater(values))
  }

  /// Armchair's keys; the prefix is `"<appID>_"` unless the app changed it.
  public static func armchair(_ values: any LegacyKeyValueSource, keyPrefix: String) -> Self {
    LegacyImport.Source(manager: .armchair(values, keyPrefix: keyPrefix))
  }

  /// UAAppReviewManager's keys (`"<appID>_UAAppReviewManagerKey..."`); the prefix is `"<appID>_"`.
  public static func uaAppReviewManager(_ values: any LegacyKeyValueSource, keyPrefix: String) -> Self {
    LegacyImport.Source(manager: .uaAppReviewManager(values, keyPrefix: keyPrefix))
  }

  /// The RateOurAppHelper snippet's `RateOurAppKeys_...` keys.
  public static func rateOurAppHelper(_ values: any LegacyKeyValueSource) -> Self {
    LegacyImport.Source(manager: .rateOurAppHelper(values))
  }

  /// ReviewKit's `ReviewRequest...` keys.
  public static func reviewKit(_ values: any LegacyKeyValueSource) -> Self {
    LegacyImport.Source(manager: .reviewKit(values))
  }
}
