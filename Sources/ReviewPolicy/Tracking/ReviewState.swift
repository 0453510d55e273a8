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
  public var format: Int {
    get { storage.members.format }
    _modify {
      makeUnique()
      yield &storage.members.format
    }
  }

  // MARK: - This version

  /// The app version being tracked, as the app reports it; nil before the first use.
  public var version: String? {
    get { storage.members.version }
    _modify {
      makeUnique()
      yield &storage.members.version
    }
  }
  /// The build number being tracked (`CFBundleVersion`), when the app configures one; see
  /// ``ReviewManager/Configuration/build``.
  public var build: String? {
    get { storage.members.build }
    _modify {
      makeUnique()
      yield &storage.members.build
    }
  }
  /// When this version was first used.
  public var firstUse: Timestamp? {
    get { storage.members.firstUse }
    _modify {
      makeUnique()
      yield &storage.members.firstUse
    }
  }
  /// Launches and returns to the foreground counted in this version.
  public var uses: Int {
    get { storage.members.uses }
    _modify {
      makeUnique()
      yield &storage.members.uses
    }
  }
  /// Significant events in this version.
  public var events: Int {
    get { storage.members.events }
    _modify {
      makeUnique()
      yield &storage.members.events
    }
  }
  /// Significant events in this version, by name.
  public var eventsByName: [String: Int] {
    get { storage.members.eventsByName }
    _modify {
      makeUnique()
      yield &storage.members.eventsByName
    }
  }
  /// Sessions started in this version.
  public var sessions: Int {
    get { storage.members.sessions }
    _modify {
      makeUnique()
      yield &storage.members.sessions
    }
  }
  /// Prompts shown in this version.
  public var prompts: Int {
    get { storage.members.prompts }
    _modify {
      makeUnique()
      yield &storage.members.prompts
    }
  }
  /// Whether the user chose "no thanks" in this version.
  public var declined: Bool {
    get { storage.members.declined }
    _modify {
      makeUnique()
      yield &storage.members.declined
    }
  }
  /// Whether the user rated this version.
  public var rated: Bool {
    get { storage.members.rated }
    _modify {
      makeUnique()
      yield &storage.members.rated
    }
  }
  /// Whether the user chose to give feedback in this version.
  public var feedback: Bool {
    get { storage.members.feedback }
    _modify {
      makeUnique()
      yield &storage.members.feedback
    }
  }
  /// When the user last chose "remind me later" in this version.
  public var lastReminder: Timestamp? {
    get { storage.members.lastReminder }
    _modify {
      makeUnique()
      yield &storage.members.lastReminder
    }
  }

  // MARK: - The whole install

  /// When any version was first used.
  public var installDate: Timestamp? {
    get { storage.members.installDate }
    _modify {
      makeUnique()
      yield &storage.members.installDate
    }
  }
  /// When the first session started (``ReviewManager/sessionStarted()``), any version; nil
  /// until then. A default session (actions logged with no session started) does not set it.
  public var firstSession: Timestamp? {
    get { storage.members.firstSession }
    _modify {
      makeUnique()
      yield &storage.members.firstSession
    }
  }
  /// This install's random seed, from which policies draw `bucket("name")` (rollouts and
  /// experiments): drawn at the first tracked call under a policy that reads a bucket, then kept
  /// for good, so an install stays in its buckets across launches, updates and policy changes.
  /// A reset (``ReviewManager/reset()``) forgets it (a reset is a new install, so it gets new
  /// buckets). Nil until then (decisions then use seed 0), and in states stored before seeds existed.
  public var installSeed: Int64? {
    get { storage.members.installSeed }
    _modify {
      makeUnique()
      yield &storage.members.installSeed
    }
  }
  /// This install's random record identifier (``ReviewRecord/install``): 32 hexadecimal digits
  /// drawn from the system's random source the first time a record is made, never derived from
  /// the device or the user. A reset forgets it, like ``installSeed``.
  public var recordInstall: String? {
    get { storage.members.recordInstall }
    _modify {
      makeUnique()
      yield &storage.members.recordInstall
    }
  }
  /// The version used before ``version``.
  public var previousVersion: String? {
    get { storage.members.previousVersion }
    _modify {
      makeUnique()
      yield &storage.members.previousVersion
    }
  }
  /// Uses, all versions.
  public var totalUses: Int {
    get { storage.members.totalUses }
    _modify {
      makeUnique()
      yield &storage.members.totalUses
    }
  }
  /// Significant events, all versions.
  public var totalEvents: Int {
    get { storage.members.totalEvents }
    _modify {
      makeUnique()
      yield &storage.members.totalEvents
    }
  }
  /// Significant events by name, all versions.
  public var totalEventsByName: [String: Int] {
    get { storage.members.totalEventsByName }
    _modify {
      makeUnique()
      yield &storage.members.totalEventsByName
    }
  }
  /// Sessions started, all versions (also the number of the latest session).
  public var totalSessions: Int {
    get { storage.members.totalSessions }
    _modify {
      makeUnique()
      yield &storage.members.totalSessions
    }
  }
  /// Prompts shown, all versions.
  public var totalPrompts: Int {
    get { storage.members.totalPrompts }
    _modify {
      makeUnique()
      yield &storage.members.totalPrompts
    }
  }
  /// Whether the user chose "no thanks" in any version.
  public var declinedAny: Bool {
    get { storage.members.declinedAny }
    _modify {
      makeUnique()
      yield &storage.members.declinedAny
    }
  }
  /// Whether the user rated any version.
  public var ratedAny: Bool {
    get { storage.members.ratedAny }
    _modify {
      makeUnique()
      yield &storage.members.ratedAny
    }
  }
  /// Whether the user chose to give feedback in any version (absent, so false, in states stored
  /// before it existed; loading sets it from ``feedback`` and the answers kept).
  public var feedbackAny: Bool {
    get { storage.members.feedbackAny }
    _modify {
      makeUnique()
      yield &storage.members.feedbackAny
    }
  }
  /// When the user last chose "no thanks".
  public var lastDecline: Timestamp? {
    get { storage.members.lastDecline }
    _modify {
      makeUnique()
      yield &storage.members.lastDecline
    }
  }
  /// When the user last chose to rate.
  public var lastRating: Timestamp? {
    get { storage.members.lastRating }
    _modify {
      makeUnique()
      yield &storage.members.lastRating
    }
  }
  /// The device clock's high-water mark: the instant of the latest tracked call, so that a clock
  /// set back is noticed. The next call that sees the clock behind it moves the start instants
  /// (``firstUse``, ``installDate``, ``firstSession``) earlier by the jump, so day counts never
  /// decrease (docs/facts.md, "Clocks"), and lowers the mark to its own instant. Nil before the first
  /// tracked call, and in states stored before it existed (a jump back is seen from the next call).
  public var clockHighWater: Timestamp? {
    get { storage.members.clockHighWater }
    _modify {
      makeUnique()
      yield &storage.members.clockHighWater
    }
  }

  // MARK: - Sessions

  /// The session in progress, if any: one the app started, or the uncounted default session that
  /// actions logged since the last launch with no session started go into (as ReviewKit does).
  public var currentSession: SessionRecord? {
    get { storage.members.currentSession }
    _modify {
      makeUnique()
      yield &storage.members.currentSession
    }
  }
  /// Earlier sessions, oldest first, at most `ReviewLimits.sessionHistory`.
  public var recentSessions: [SessionRecord] {
    get { storage.members.recentSessions }
    _modify {
      makeUnique()
      yield &storage.members.recentSessions
    }
  }
  /// The most recent bad session before the current one (kept even when it leaves ``recentSessions``).
  public var lastBadSession: SessionRecord? {
    get { storage.members.lastBadSession }
    _modify {
      makeUnique()
      yield &storage.members.lastBadSession
    }
  }

  // MARK: - Prompts and answers

  /// Prompts shown, oldest first: every prompt within `ReviewLimits.promptRetention` before the last one
  /// (up to `ReviewLimits.promptHistory`), and always the last one.
  public var promptHistory: [PromptRecord] {
    get { storage.members.promptHistory }
    _modify {
      makeUnique()
      yield &storage.members.promptHistory
    }
  }
  /// The user's answers, oldest first, at most `ReviewLimits.responseHistory`.
  public var responses: [ResponseRecord] {
    get { storage.members.responses }
    _modify {
      makeUnique()
      yield &storage.members.responses
    }
  }

  // MARK: - Housekeeping

  /// The source of the last policy update that compiled (see ``ReviewManager/updatePolicy(_:)``),
  /// at most 64 KiB of UTF-8 text: a larger one is dropped when the state is loaded.
  public var policySource: String? {
    get { storage.members.policySource }
    _modify {
      makeUnique()
      yield &storage.members.policySource
    }
  }
  /// The fingerprint (``PolicyIdentity/fingerprint(of:)``) of the bundled policy the stored update
  /// was received under: when the app ships a different bundled policy, the update stops applying
  /// until a new one arrives. Nil in states written before fingerprints were stored (such an
  /// update keeps applying).
  public var policyReceivedUnder: String? {
    get { storage.members.policyReceivedUnder }
    _modify {
      makeUnique()
      yield &storage.members.policyReceivedUnder
    }
  }
  /// Which legacy managers' keys were imported (so each import happens once).
  public var importedLegacy: [String] {
    get { storage.members.importedLegacy }
    _modify {
      makeUnique()
      yield &storage.members.importedLegacy
    }
  }
  /// How many times this install's state was reset (``ReviewManager/reset()`` adds one). A manager
  /// that finds a stored state of a higher epoch takes it (a reset made elsewhere wins); one of a
  /// lower epoch is a stale copy, and the state in memory wins (see ``merged(with:)``). 0 in states
  /// stored before epochs existed, and not written while 0.
  public var epoch: Int {
    get { storage.members.epoch }
    _modify {
      makeUnique()
      yield &storage.members.epoch
    }
  }

  /// A fresh state: nothing used, nothing asked.
  public init() {
    storage = Storage(Members())
  }

  /// The stored members, shared by copies of the state until one of them changes (copy on
  /// write). A state is one reference wherever it is kept: the types holding one (the tracker,
  /// the store's readings and transactions) copy and destroy it with one retain or release, not
  /// one per member, which took 40 KB of the app's code.
  private var storage: Storage

  /// Gives this state its own storage before a member changes, when another copy shares it.
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// Decodes the members, as they are encoded.
  public init(from decoder: any Decoder) throws {
    storage = Storage(try Members(from: decoder))
  }

  /// Encodes the members: one JSON object member each, named as the properties are.
  public func encode(to encoder: any Encoder) throws {
    try storage.members.encode(to: encoder)
  }

  /// Whether two states have the same members.
  public static func == (lhs: ReviewState, rhs: ReviewState) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.members == rhs.storage.members
  }

  /// The box that holds a state's members; changed only through a state that holds the sole
  /// reference to it (``makeUnique()``), so sharing it between threads is safe.
  private final class Storage: @unchecked Sendable {
    /// The members. Accessed only through a state, which owns the box or only reads it: no
    /// access needs the run-time exclusivity check.
    @exclusivity(unchecked) var members: Members

    /// A box holding `members`.
    init(_ members: Members) {
      self.members = members
    }

    /// A new box holding these members (the copy a change to a shared state makes, in one place).
    @inline(never)
    func copy() -> Storage {
      Storage(members)
    }
  }

  /// The stored members, each documented at the property of the same name.
  private struct Members: Codable, Sendable, Equatable {
    var format: Int = ReviewState.currentFormat
    var version: String?
    var build: String?
    var firstUse: Timestamp?
    var uses: Int = 0
    var events: Int = 0
    var eventsByName: [String: Int] = [:]
    var sessions: Int = 0
    var prompts: Int = 0
    var declined: Bool = false
    var rated: Bool = false
    var feedback: Bool = false
    var lastReminder: Timestamp?
    var installDate: Timestamp?
    var firstSession: Timestamp?
    var installSeed: Int64?
    var recordInstall: String?
    var previousVersion: String?
    var totalUses: Int = 0
    var totalEvents: Int = 0
    var totalEventsByName: [String: Int] = [:]
    var totalSessions: Int = 0
    var totalPrompts: Int = 0
    var declinedAny: Bool = false
    var ratedAny: Bool = false
    @OmittedWhenZero var feedbackAny: Bool = false
    var lastDecline: Timestamp?
    var lastRating: Timestamp?
    var clockHighWater: Timestamp?
    var currentSession: SessionRecord?
    var recentSessions: [SessionRecord] = []
    var lastBadSession: SessionRecord?
    var promptHistory: [PromptRecord] = []
    var responses: [ResponseRecord] = []
    var policySource: String?
    var policyReceivedUnder: String?
    var importedLegacy: [String] = []
    @OmittedWhenZero var epoch: Int = 0
  }

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
