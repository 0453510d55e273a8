import Foundation
import PolicyCore

extension ReviewManager {
  /// Everything a manager is configured with. Only `appVersion` and `bundledPolicy` are required.
  public struct Configuration: Sendable {
    /// The running app version, as the app reports it (for example `CFBundleShortVersionString`).
    public var appVersion: String
    /// The running build number (`CFBundleVersion`), if known. Legacy imports need it: Appirater,
    /// Armchair and UAAppReviewManager stored the build as their version.
    public var build: String?
    /// What starts a "new version" (per-version counts start again): a new ``appVersion``
    /// (the default) or also a new ``build``.
    public var newVersionOn: NewVersionTrigger
    /// The policy the app ships with: the floor when no update has been received or the update no longer compiles.
    public var bundledPolicy: String
    /// The app's name, put into the prompt texts.
    public var appName: String
    /// Where the state lives. Defaults to ``JSONFileStore/standard()``.
    public var store: any ReviewStore
    /// The clock. Tests inject a fake one.
    public var clock: @Sendable () -> Date
    /// The prompt texts before the app name is put in; defaults to the user's preferred language.
    public var texts: PromptTexts
    /// Where "rate" should take the user (see ``ReviewURL``), if anywhere.
    public var reviewURL: URL?
    /// Shows the prompt and reports whether it could (``ReviewPresenter``): a prompt is recorded
    /// when its presenter reports it shown. Without one, ``promptIfAppropriate()`` still decides,
    /// records the prompt as handed to the app, and the app shows its own UI and calls ``record(_:)``.
    public var presenter: (any ReviewPresenter)?
    /// Receives every decision with its explanation, and every problem (store, policy updates).
    public var logger: (@Sendable (ReviewLogEntry) -> Void)?
    /// Receives every log entry as one line of the record format (``ReviewRecord``,
    /// docs/records.md), UTF-8 with its newline, for the app to forward to its own analytics:
    /// nothing leaves the device by itself. Called after the locks are released, on the calling thread.
    public var recorder: (@Sendable (Data) -> Void)?
    /// Called before counting a launch or a return to the foreground; returning false skips that use.
    public var shouldCountUse: (@Sendable (UseKind) -> Bool)?
    /// The lowest and highest a session's score can reach; nil for no bounds.
    public var scoreBounds: ClosedRange<Double>?
    /// Debug switch: ask every time a prompt is considered, whatever the policy says. Forced
    /// prompts and their answers are not recorded.
    public var alwaysAsk: Bool
    /// Keys of other review managers to import, each once: on the first launch with this library,
    /// or the first launch after a source is added (see ``LegacyStateImporter``: the
    /// `ReviewMigration` library provides them; give ``build`` too).
    public var legacySources: [any LegacyStateImporter]
    /// How long, in seconds, a prompt handed to the app without a presenter may wait for its
    /// answer (``record(_:)``): after that, the next call records it as "asked, outcome unknown"
    /// and the policy may ask again; a late answer is still recorded. A presenter's prompt has no
    /// timeout: it waits for the presenter's answer (a system prompt answers at once). A presenter
    /// that reports nothing at all within it is taken as not presented. Nil: no limit (the next
    /// launch or foreground still closes a prompt left pending). Defaults to 10 minutes.
    public var promptTimeout: TimeInterval?
    /// What a prompt still on screen when the app left the foreground means, when the app reports
    /// it with ``ReviewManager/appLeftForegroundWithPromptShowing()``.
    public var promptLeftShowing: PromptLeftShowing
    /// Delegate-style callbacks for analytics: a prompt shown, and each kind of answer.
    public var events: ReviewEvents
    /// Guardrails: policy source text with `never` rules only (for example
    /// `never answered when declined_any or rated_any` and `never yearly_cap when prompts_within(365d) >= 3`),
    /// checked after the running policy, whatever a policy update says: when one holds, nothing
    /// asks. Fails closed: a guardrail that faults, or that cannot be evaluated, forbids asking.
    /// Nil (the default): no guardrails. Compiled at init; an error throws
    /// ``ReviewManagerError/invalidGuardrails(_:)``.
    public var guardrails: String?
    /// What process the manager runs in: the app (the default), or an app extension (a widget, a
    /// share extension), which tracks and decides over the shared store but never presents or
    /// records a prompt.
    public var process: ProcessKind = .app
    /// The event names the app records with ``ReviewManager/significantEvent(_:mayPrompt:)``, if it
    /// says (`policyc check --events` checks a policy against the same list). An event recorded under a
    /// name that neither this set nor the policy's `event` declarations name is logged once.
    public var eventNames: Set<String> = []
    /// What an update's diagnostics are beyond the compiler's, given the environment it was
    /// compiled in: nil (the default) keeps the compiler's diagnostics, so an app does not link the
    /// analyzer. The ReviewAnalysis module's ``ReviewManager/Configuration`` method
    /// `analyzeUpdates()` sets the analyzer's warnings and the review etiquette (PC310-PC322), as
    /// `policyc check` reports them; ``ReviewManager/updatePolicy(_:)`` returns and logs them.
    public var updateAnalysis:
      (@Sendable (_ environment: PolicyEnvironment, _ compilation: Compilation) -> [Diagnostic])?

    /// The environment the bundled policy, the guardrails and updates are compiled in: the review
    /// schema with ``eventNames`` (once names are known, an event name a policy reads outside them is
    /// an error, `PC217`), as `policyc` compiles with the same names.
    var environment: PolicyEnvironment { PolicyEnvironment(eventNames: eventNames) }

    /// Whether log entries are wanted (a logger or a recorder).
    var wantsEntries: Bool { logger != nil || recorder != nil }

    /// Creates a configuration.
    public init(
      appVersion: String, build: String? = nil, bundledPolicy: String, appName: String = "this app",
      store: any ReviewStore = JSONFileStore.standard(), clock: @escaping @Sendable () -> Date = { Date() },
      texts: PromptTexts = .defaults(forPreferredLanguages: Locale.preferredLanguages), reviewURL: URL? = nil,
      presenter: (any ReviewPresenter)? = nil, logger: (@Sendable (ReviewLogEntry) -> Void)? = nil,
      shouldCountUse: (@Sendable (UseKind) -> Bool)? = nil, scoreBounds: ClosedRange<Double>? = -200...200,
      alwaysAsk: Bool = false, legacySources: [any LegacyStateImporter] = [],
      newVersionOn: NewVersionTrigger = .appVersion, promptTimeout: TimeInterval? = 600,
      promptLeftShowing: PromptLeftShowing = .dismissed, events: ReviewEvents = ReviewEvents(),
      guardrails: String? = nil, process: ProcessKind = .app, recorder: (@Sendable (Data) -> Void)? = nil
    ) {
      self.appVersion = appVersion
      self.build = build
      self.newVersionOn = newVersionOn
      self.bundledPolicy = bundledPolicy
      self.appName = appName
      self.store = store
      self.clock = clock
      self.texts = texts
      self.reviewURL = reviewURL
      self.presenter = presenter
      self.logger = logger
      self.recorder = recorder
      self.shouldCountUse = shouldCountUse
      self.scoreBounds = scoreBounds
      self.alwaysAsk = alwaysAsk
      self.legacySources = legacySources
      self.promptTimeout = promptTimeout
      self.promptLeftShowing = promptLeftShowing
      self.events = events
      self.guardrails = guardrails
      self.process = process
    }
  }

  /// What a prompt still on screen when the app left the foreground means.
  public enum PromptLeftShowing: String, Sendable, Hashable {
    /// Dismissed without an answer: asked, outcome unknown (``ReviewResponse/dismissed``).
    case dismissed
    /// Declined (``ReviewResponse/declined``), as Armchair records it on iOS.
    case declined

    /// The answer it records.
    var response: ReviewResponse {
      switch self {
      case .dismissed: .dismissed
      case .declined: .declined
      }
    }
  }

  /// What process a manager runs in.
  public enum ProcessKind: String, Sendable, Hashable {
    /// The app: prompts are presented (through the presenter) and recorded when shown.
    case app
    /// An app extension (a widget, a share or action extension): its calls count and decide, but
    /// it never presents a prompt and never records one (``PromptCheckOutcome/notPresented(_:)``).
    case appExtension
  }

  /// What starts a new version.
  public enum NewVersionTrigger: String, Sendable, Hashable {
    /// A new marketing version (`CFBundleShortVersionString`); new builds of it continue its counts.
    case appVersion
    /// A new marketing version or a new build (`CFBundleVersion`).
    case build
  }

  /// Which kind of use is about to be counted (for ``Configuration/shouldCountUse``).
  public enum UseKind: String, Sendable, Hashable {
    /// The app launched.
    case launch
    /// The app returned to the foreground.
    case foreground
  }
}

extension ReviewManager.Configuration {
  /// `seconds` as a span of whole milliseconds; nil for nil, NaN or a negative span, and the
  /// longest span for one too long to represent.
  static func timeSpan(_ seconds: TimeInterval?) -> TimeSpan? {
    guard let seconds, !seconds.isNaN, seconds >= 0 else { return nil }
    let milliseconds = (seconds * 1000).rounded(.down)
    return TimeSpan(milliseconds: milliseconds >= 9.2e18 ? .max : Int64(milliseconds))
  }
}
