import PolicyCore

/// Everything a review manager remembers about one install, as stored.
///
/// Per-version counters (`uses`, `events`, ...) start again when the app version
/// changes; lifetime counters (`totalUses`, ...) go on. History is bounded: the
/// most recent sessions, prompts within the retention window and the latest
/// responses, plus aggregates, so the state stays small however long the app lives.
public struct ReviewState: Codable, Sendable, Equatable {
  /// The newest format this library reads and writes.
  public static let currentFormat = 1

  /// The format of this state; a file with a newer format is not read (see ``JSONFileStore``).
  public var format = ReviewState.currentFormat

  // MARK: - This version

  /// The app version being tracked, as the app reports it; nil before the first use.
  public var version: String?
  /// The build number being tracked (`CFBundleVersion`), when the app configures one; see
  /// ``ReviewManager/Configuration/build``.
  public var build: String?
  /// When this version was first used.
  public var firstUse: Timestamp?
  /// Launches and returns to the foreground counted in this version.
  public var uses = 0
  /// Significant events in this version.
  public var events = 0
  /// Significant events in this version, by name.
  public var eventsByName: [String: Int] = [:]
  /// Sessions started in this version.
  public var sessions = 0
  /// Prompts shown in this version.
  public var prompts = 0
  /// Whether the user chose "no thanks" in this version.
  public var declined = false
  /// Whether the user rated this version.
  public var rated = false
  /// Whether the user chose to give feedback in this version.
  public var feedback = false
  /// When the user last chose "remind me later" in this version.
  public var lastReminder: Timestamp?

  // MARK: - The whole install

  /// When any version was first used.
  public var installDate: Timestamp?
  /// When the first session started (``ReviewManager/sessionStarted()``), any version; nil
  /// until then. A default session (actions logged with no session started) does not set it.
  public var firstSession: Timestamp?
  /// This install's random seed, from which policies draw `bucket("name")` (rollouts and
  /// experiments): drawn at the first tracked call under a policy that reads a bucket, then kept
  /// for good, so an install stays in its buckets across launches, updates and policy changes.
  /// A reset (``ReviewManager/reset()``) forgets it (a reset is a new install, so it gets new
  /// buckets). Nil until then (decisions then use seed 0), and in states stored before seeds existed.
  public var installSeed: Int64?
  /// This install's random record identifier (``ReviewRecord/install``): 32 hexadecimal digits
  /// drawn from the system's random source the first time a record is made, never derived from
  /// the device or the user. A reset forgets it, like ``installSeed``.
  public var recordInstall: String?
  /// The version used before ``version``.
  public var previousVersion: String?
  /// Uses, all versions.
  public var totalUses = 0
  /// Significant events, all versions.
  public var totalEvents = 0
  /// Significant events by name, all versions.
  public var totalEventsByName: [String: Int] = [:]
  /// Sessions started, all versions (also the number of the latest session).
  public var totalSessions = 0
  /// Prompts shown, all versions.
  public var totalPrompts = 0
  /// Whether the user chose "no thanks" in any version.
  public var declinedAny = false
  /// Whether the user rated any version.
  public var ratedAny = false
  /// Whether the user chose to give feedback in any version (absent, so false, in states stored
  /// before it existed; loading sets it from ``feedback`` and the answers kept).
  @OmittedWhenZero public var feedbackAny = false
  /// When the user last chose "no thanks".
  public var lastDecline: Timestamp?
  /// When the user last chose to rate.
  public var lastRating: Timestamp?
  /// The device clock's high-water mark: the instant of the latest tracked call, so that a clock
  /// set back is noticed. The next call that sees the clock behind it moves the start instants
  /// (``firstUse``, ``installDate``, ``firstSession``) earlier by the jump, so day counts never
  /// decrease (docs/facts.md, "Clocks"), and lowers the mark to its own instant. Nil before the first
  /// tracked call, and in states stored before it existed (a jump back is seen from the next call).
  public var clockHighWater: Timestamp?

  // MARK: - Sessions

  /// The session in progress, if any: one the app started, or the uncounted default session that
  /// actions logged since the last launch with no session started go into (as ReviewKit does).
  public var currentSession: SessionRecord?
  /// Earlier sessions, oldest first, at most `ReviewLimits.sessionHistory`.
  public var recentSessions: [SessionRecord] = []
  /// The most recent bad session before the current one (kept even when it leaves ``recentSessions``).
  public var lastBadSession: SessionRecord?

  // MARK: - Prompts and answers

  /// Prompts shown, oldest first: every prompt within `ReviewLimits.promptRetention` before the last one
  /// (up to `ReviewLimits.promptHistory`), and always the last one.
  public var promptHistory: [PromptRecord] = []
  /// The user's answers, oldest first, at most `ReviewLimits.responseHistory`.
  public var responses: [ResponseRecord] = []

  // MARK: - Housekeeping

  /// The source of the last policy update that compiled (see ``ReviewManager/updatePolicy(_:)``),
  /// at most 64 KiB of UTF-8 text: a larger one is dropped when the state is loaded.
  public var policySource: String?
  /// The fingerprint (``PolicyIdentity/fingerprint(of:)``) of the bundled policy the stored update
  /// was received under: when the app ships a different bundled policy, the update stops applying
  /// until a new one arrives. Nil in states written before fingerprints were stored (such an
  /// update keeps applying).
  public var policyReceivedUnder: String?
  /// Which legacy managers' keys were imported (so each import happens once).
  public var importedLegacy: [String] = []
  /// How many times this install's state was reset (``ReviewManager/reset()`` adds one). A manager
  /// that finds a stored state of a higher epoch takes it (a reset made elsewhere wins); one of a
  /// lower epoch is a stale copy, and the state in memory wins (see ``merged(with:)``). 0 in states
  /// stored before epochs existed, and not written while 0.
  @OmittedWhenZero public var epoch = 0

  /// A fresh state: nothing used, nothing asked.
  public init() {}

  /// The most recent prompt, if any.
  public var lastPrompt: PromptRecord? { promptHistory.last }
}

/// One session: when it started, in which version, its score and whether it went badly.
///
/// A default session (actions logged after a launch with no session started) is not counted:
/// it carries the number of the last session started (0 before the first).
public struct SessionRecord: Codable, Sendable, Equatable {
  /// The session's number over the whole install, starting at 1 (a default session: the number
  /// of the last session started before it).
  public var number: Int
  /// When it started.
  public var start: Timestamp
  /// The app version it ran.
  public var version: String
  /// The sum of its actions' scores, kept within the configured bounds.
  public var score: Number
  /// Whether an action marked it bad.
  public var isBad: Bool

  /// Creates a session record.
  public init(number: Int, start: Timestamp, version: String, score: Number = Number(scaled: 0), isBad: Bool = false) {
    self.number = number
    self.start = start
    self.version = version
    self.score = score
    self.isBad = isBad
  }
}

/// What became of a prompt.
public enum PromptOutcome: String, Codable, Sendable, Hashable {
  /// Shown; no answer yet.
  case pending
  /// Asked, outcome unknown: a system prompt (StoreKit, Play In-App Review) that never reports
  /// back, or a prompt left unanswered until a launch, a return to the foreground or its timeout.
  case unknown
  /// The user chose to rate.
  case rated
  /// The user chose "no thanks".
  case declined
  /// The user chose "remind me later".
  case remindLater
  /// The user chose to give feedback.
  case feedback
  /// Dismissed without an answer (for example, the app went to the background).
  case dismissed
}

/// One prompt: when, in which version and session, and what came of it.
public struct PromptRecord: Codable, Sendable, Equatable {
  /// When it was shown.
  public var date: Timestamp
  /// The app version.
  public var version: String
  /// The number of the session it was shown in (``ReviewState/totalSessions`` at the time).
  public var session: Int
  /// The outcome.
  public var outcome: PromptOutcome

  /// Creates a prompt record.
  public init(date: Timestamp, version: String, session: Int, outcome: PromptOutcome) {
    self.date = date
    self.version = version
    self.session = session
    self.outcome = outcome
  }
}

/// A user's answer to a prompt.
public enum ReviewResponse: String, Codable, Sendable, Hashable, CaseIterable {
  /// The user chose to rate (or was sent to the store).
  case rated
  /// The user chose "no thanks".
  case declined
  /// The user chose "remind me later".
  case remindLater
  /// The user chose to send feedback instead.
  case feedback
  /// The prompt went away without an answer.
  case dismissed
  /// A system prompt was requested; whether it showed, and what the user did, is unknown.
  case unknown
}

/// One recorded answer.
public struct ResponseRecord: Codable, Sendable, Hashable {
  /// The answer.
  public var response: ReviewResponse
  /// When it was given.
  public var date: Timestamp
  /// The app version at the time.
  public var version: String

  /// Creates a response record.
  public init(response: ReviewResponse, date: Timestamp, version: String) {
    self.response = response
    self.date = date
    self.version = version
  }
}

/// The bounds that keep ``ReviewState`` small.
package enum ReviewLimits {
  /// Earlier sessions kept (enough for `average_score(n)` up to this `n`).
  package static let sessionHistory = 50
  /// How long prompts are kept (enough for `prompts_within(730d)`); the last prompt is always kept.
  static let promptRetention = TimeSpan(milliseconds: 730 * 86_400_000)
  /// The most prompts kept, whatever their age.
  package static let promptHistory = 100
  /// Answers kept.
  package static let responseHistory = 20
  /// Distinct event names counted; further new names are counted in the totals only.
  static let eventNames = 200
  /// The longest event name kept, in bytes; longer names are cut.
  static let eventNameLength = 128
  /// The longest app version string kept, in bytes; longer versions are cut.
  static let versionLength = 256
  /// Legacy managers remembered as imported (``ReviewState/importedLegacy``).
  static let legacyImports = 16
  /// The longest legacy manager name remembered, in bytes; longer names are dropped.
  static let legacyNameLength = 64
  /// The largest policy update accepted and stored, in bytes of UTF-8 text (64 KiB). A stored state
  /// holding a larger one (written before this limit, or by another writer) drops it when loaded,
  /// and the store reports it (``ReviewState/oversizedUpdateSize``).
  ///
  /// The update is stored inside the state (``ReviewState/policySource``), escaped as JSON: each
  /// byte becomes at most 6 bytes (`\u0001`), so the stored update takes at most 384 KiB, and the
  /// whole state stays far below the store's read limit (`ReviewStateCoding.maximumSize`;
  /// `ReliabilityStateBoundTests.maximalStateFits` builds the largest state and checks it).
  package static let updateSize = PolicyLimits.remoteUpdate.maximumSize
}

/// The coding of a stored member added after states were first stored (``ReviewState/epoch``,
/// and counts and flags declared with ``ReviewFactDeclaration/Coding/omittedWhenZero``): read as
/// 0 or false when absent, and left out while 0 or false, so older states load and a state that
/// never set it is written as before.
@propertyWrapper
struct OmittedWhenZero<Value: Codable & Sendable & Equatable & ZeroValued>: Codable, Sendable, Equatable {
  /// The value.
  var wrappedValue: Value

  /// Wraps a value.
  init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  /// Decodes the value bare.
  init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.singleValueContainer().decode(Value.self)
  }

  /// Encodes the value bare.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

/// A type with a value that absence means (0, false): what ``OmittedWhenZero`` leaves out.
protocol ZeroValued {
  /// The value absence means.
  static var zeroValue: Self { get }
}

extension Int: ZeroValued {
  /// 0.
  static var zeroValue: Int { 0 }
}

extension Bool: ZeroValued {
  /// False.
  static var zeroValue: Bool { false }
}

extension KeyedDecodingContainer {
  /// An absent member is 0 or false (the synthesized decoder of ``ReviewState`` calls this overload).
  func decode<Value>(_ type: OmittedWhenZero<Value>.Type, forKey key: Key) throws -> OmittedWhenZero<Value> {
    try decodeIfPresent(type, forKey: key) ?? OmittedWhenZero(wrappedValue: Value.zeroValue)
  }
}

extension KeyedEncodingContainer {
  /// A member of 0 or false is left out (the synthesized encoder of ``ReviewState`` calls this overload).
  mutating func encode<Value>(_ value: OmittedWhenZero<Value>, forKey key: Key) throws {
    guard value.wrappedValue != Value.zeroValue else { return }
    try encode(value.wrappedValue, forKey: key)
  }
}
