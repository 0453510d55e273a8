// The concurrency stress workload, shared by the reliability tests and `review-stress stress`.
// It imports no test framework: every check returns its failures as text.

import Dispatch
import Foundation
import PolicyCore
import ReviewPolicy

/// Many threads making a fixed, mixed plan of calls on one ``ReviewManager``, and the exact
/// state the plan must leave whatever the interleaving.
///
/// The plan is a pure function of (thread, call index). Every policy that runs during the
/// workload asks whenever it is consulted, one session is started before the threads and no
/// call ends one (a launch would: the plan's uses are returns to the foreground), and only
/// thread 0 changes the policy: so every count (uses, events by name, sessions, prompts,
/// answers) is determined by the plan alone, and so is the policy running at the end.
public struct StressWorkload: Sendable {
  /// The threads that call the manager at once.
  public var threads: Int
  /// The calls each thread makes.
  public var calls: Int

  /// A workload of `calls` calls on each of `threads` threads.
  public init(threads: Int, calls: Int) {
    self.threads = threads
    self.calls = calls
  }

  /// The bundled policy: it asks whenever it is consulted.
  public static let bundledPolicy = "ask always when uses >= 0"
  /// The policy updates thread 0 applies, in turn; each asks whenever it is consulted.
  public static let updates = [
    "ask updated when events >= 0 or uses >= 0",
    "never nobody when uses < 0\nask updated_again when days >= 0",
  ]
  /// The answers the presenter gives, in turn.
  public static let presenterAnswers: [ReviewResponse] = [.unknown, .rated, .declined, .remindLater]
  /// The answers the plan records directly, in turn.
  public static let recordedAnswers: [ReviewResponse] = [.feedback, .dismissed, .remindLater, .unknown]
  /// The instant the workload's clock always reads.
  public static let now = Date(timeIntervalSince1970: 1_700_000_000)

  /// One call of the plan.
  public enum Call: Sendable, Equatable {
    /// ``ReviewManager/appLaunched()``.
    case launch
    /// ``ReviewManager/appEnteredForeground()``.
    case foreground
    /// ``ReviewManager/significantEvent(_:mayPrompt:)``.
    case event(String?, mayPrompt: Bool)
    /// ``ReviewManager/sessionStarted()``.
    case sessionStart
    /// ``ReviewManager/action(score:isBad:mayPrompt:)``.
    case action(score: Double, isBad: Bool, mayPrompt: Bool)
    /// ``ReviewManager/promptIfAppropriate()``.
    case promptCheck
    /// ``ReviewManager/record(_:)``.
    case record(ReviewResponse)
    /// ``ReviewManager/currentState``, checking that no total went backwards since this thread's last read.
    case readState
    /// ``ReviewManager/currentFacts()``.
    case facts
    /// ``ReviewManager/explainCurrentDecision()``.
    case explain
    /// ``ReviewManager/setFact(_:_:)`` with a fact no policy declares.
    case setFact
    /// ``ReviewManager/updatePolicy(_:)`` with one of ``updates``.
    case update(String)
    /// ``ReviewManager/resetPolicy()``.
    case reset

    /// Whether the call asks the policy (and so, with these policies, prompts).
    public var prompts: Bool {
      switch self {
      case .event(_, let mayPrompt): mayPrompt
      case .action(_, _, let mayPrompt): mayPrompt
      case .promptCheck: true
      default: false
      }
    }
  }

  /// The call that `thread` makes at position `index`.
  ///
  /// The plan repeats every 100 calls: 20 uses, 30 events (in total and under 3 + 1 + 7 names
  /// per thread), 5 sessions, 5 direct answers, 10 calls that consult the policy (each of the
  /// five kinds that can prompt) and 30 reads; thread 0 also changes the policy every 5,000 calls.
  public static func call(thread: Int, index: Int) -> Call {
    let cycle = (index / 20) % 5
    switch index % 20 {
    case 0, 1, 11, 15: return .foreground
    case 2: return .event("e\(thread % 3)", mayPrompt: true)
    case 3: return .event(nil, mayPrompt: false)
    case 4: return .sessionStart
    case 5: return .action(score: thread.isMultiple(of: 2) ? 1.5 : -1, isBad: index % 100 == 5, mayPrompt: false)
    case 6: return cycle == 0 ? .promptCheck : .readState
    case 7: return .record(recordedAnswers[(index / 20 + thread) % recordedAnswers.count])
    case 8: return .event("shared", mayPrompt: cycle == 1)
    case 9: return .action(score: 0.25, isBad: false, mayPrompt: cycle == 2)
    case 10, 18: return .readState
    case 12: return .event("e\(thread % 3)", mayPrompt: false)
    case 13: return index % 1000 == 13 ? .explain : .facts
    case 14: return .setFact
    case 16: return .event("name-\(thread)-\(index % 7)", mayPrompt: false)
    case 17:
      if thread == 0 && index % 5000 == 17 {
        let turn = index / 5000
        return turn % 3 == 2 ? .reset : .update(updates[turn % 3])
      }
      return cycle == 3 ? .promptCheck : .facts
    default: return .event(nil, mayPrompt: cycle == 4)
    }
  }

  /// The totals the plan must produce.
  public struct Totals: Sendable, Equatable {
    /// Launches and foregrounds.
    public var uses = 0
    /// Significant events.
    public var events = 0
    /// Significant events by name.
    public var eventsByName: [String: Int] = [:]
    /// Sessions, including the one started before the threads.
    public var sessions = 1
    /// Calls that consult the policy (each asks, unless a prompt is showing: see
    /// ``Observed/blocked``).
    public var prompts = 0
    /// Answers recorded directly (not through the presenter).
    public var recorded = 0
    /// Policy updates applied (all accepted).
    public var updates = 0
    /// The origin of the policy running at the end.
    public var finalOrigin = PolicyOrigin.bundled
    /// The source of the policy running at the end.
    public var finalPolicy = StressWorkload.bundledPolicy
    /// The answers recorded directly, by kind.
    public var recordedKinds: Set<ReviewResponse> = []
  }

  /// The totals computed from the plan alone.
  public var expected: Totals {
    var totals = Totals()
    for thread in 0..<threads {
      for index in 0..<calls {
        let call = Self.call(thread: thread, index: index)
        if call.prompts { totals.prompts += 1 }
        switch call {
        case .launch, .foreground: totals.uses += 1
        case .event(let name, _):
          totals.events += 1
          if let name { totals.eventsByName[name, default: 0] += 1 }
        case .sessionStart: totals.sessions += 1
        case .record(let response):
          totals.recorded += 1
          totals.recordedKinds.insert(response)
        case .update(let source):
          totals.updates += 1
          (totals.finalOrigin, totals.finalPolicy) = (.update, source)
        case .reset: (totals.finalOrigin, totals.finalPolicy) = (.bundled, Self.bundledPolicy)
        default: break
        }
      }
    }
    return totals
  }

  /// What the threads saw while running.
  public struct Observed: Sendable {
    /// Calls that returned "a prompt was requested".
    public var promptsReturned = 0
    /// Prompts the presenter was asked to show.
    public var presented = 0
    /// Answers the presenter gave.
    public var answered = 0
    /// Policy updates the manager accepted.
    public var accepted = 0
    /// Problems seen during the run (a total that went backwards, a rejected update, ...).
    public var failures: [String] = []
    /// Log entries, by event.
    public var logged: [ReviewLogEntry.Event: Int] = [:]
    /// Presenter answers refused because a concurrent launch or foreground had closed their prompt
    /// first (logged as problems; the prompt contract of ``ReviewManager/record(_:)``).
    public var refusedAnswers = 0
    /// Decision log entries (every other call is logged too).
    public var decisionEntries = 0
    /// Decision log entries whose decision did not ask.
    public var decisionsNotAsking = 0
    /// Decisions to ask turned into "don't ask" because another thread's prompt was showing (no
    /// policy asks twice at once): every decision that did not ask must be one.
    public var blocked = 0
    /// Decisions of a bare prompt check (``ReviewManager/promptIfAppropriate()``): its own call
    /// changes nothing, asking or not (a prompt is recorded when its presenter reports it shown).
    public var bareChecks = 0
    /// Checks that asked: the prompts there must be.
    public var asked: Int { decisionEntries - blocked }
    /// Wall-clock time of the threads' run, in seconds.
    public var seconds = 0.0
  }

  /// Thread-safe tallies written by the presenter, the logger and the threads.
  final class Tally: @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    private let lock = NSLock()
    private var observed = Observed()

    /// Changes the tallies under the lock.
    func update(_ body: (inout Observed) -> Void) {
      lock.lock()
      body(&observed)
      lock.unlock()
    }

    /// A copy of the tallies.
    var value: Observed {
      lock.lock()
      defer { lock.unlock() }
      return observed
    }
  }

  /// A manager set up for the workload over `store`, reporting to `tally`.
  func makeManager(store: any ReviewStore, tally: Tally) throws -> ReviewManager {
    let presenter = ClosurePresenter { _, respond in
      var answer = ReviewResponse.unknown
      tally.update { observed in
        answer = Self.presenterAnswers[observed.presented % Self.presenterAnswers.count]
        observed.presented += 1
        observed.answered += 1
      }
      respond(answer)
    }
    let now = Self.now
    return try ReviewManager(
      configuration: .init(
        appVersion: "1.0", bundledPolicy: Self.bundledPolicy, appName: "Stress", store: store, clock: { now },
        texts: .english, presenter: presenter,
        logger: { entry in
          tally.update { observed in
            observed.logged[entry.event, default: 0] += 1
            if entry.event == .problem && entry.summary.hasPrefix("the answer `") { observed.refusedAnswers += 1 }
            if entry.decision.map({ !$0.shouldAsk }) == true { observed.decisionsNotAsking += 1 }
            if entry.isDecision { observed.decisionEntries += 1 }
            if entry.isDecision && entry.summary == ReviewTracker.promptShowingSummary { observed.blocked += 1 }
            if entry.isDecision && entry.event == .promptCheck { observed.bareChecks += 1 }
          }
        }))
  }

  /// Runs the plan on a new manager over `store`, each thread a real `Thread` started at
  /// the same moment; returns the manager and what was observed.
  public func run(store: any ReviewStore = InMemoryReviewStore()) throws -> (ReviewManager, Observed) {
    let tally = Tally()
    let manager = try makeManager(store: store, tally: tally)
    manager.sessionStarted()
    let finished = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for thread in 0..<threads {
      finished.enter()
      let worker = Thread { [self] in
        gate.wait()
        runThread(thread, manager: manager, tally: tally)
        finished.leave()
      }
      worker.start()
    }
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<threads { gate.signal() }
    finished.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    tally.update { $0.seconds = seconds }
    return (manager, tally.value)
  }

  /// One thread's part of the plan.
  func runThread(_ thread: Int, manager: ReviewManager, tally: Tally) {
    var returned = 0
    var accepted = 0
    var failures: [String] = []
    var last = (uses: 0, events: 0, sessions: 0, prompts: 0, responses: 0)
    for index in 0..<calls {
      let call = Self.call(thread: thread, index: index)
      switch call {
      case .launch: manager.appLaunched()
      case .foreground: manager.appEnteredForeground()
      case .event(let name, let mayPrompt):
        if manager.significantEvent(name, mayPrompt: mayPrompt) { returned += 1 }
      case .sessionStart: manager.sessionStarted()
      case .action(let score, let isBad, let mayPrompt):
        if manager.action(score: score, isBad: isBad, mayPrompt: mayPrompt) { returned += 1 }
      case .promptCheck:
        if manager.promptIfAppropriate() { returned += 1 }
      case .record(let response): manager.recordWithoutPrompt(response)
      case .readState:
        let state = manager.currentState
        let seen = (
          uses: state.totalUses, events: state.totalEvents, sessions: state.totalSessions,
          prompts: state.totalPrompts, responses: state.responses.count
        )
        if seen.uses < last.uses || seen.events < last.events || seen.sessions < last.sessions
          || seen.prompts < last.prompts || seen.responses < last.responses
        {
          failures.append("thread \(thread) call \(index): totals went backwards: \(last) then \(seen)")
        }
        last = seen
        if state.currentSession?.number != state.totalSessions {
          failures.append("thread \(thread) call \(index): the current session is not the latest")
        }
      case .facts:
        if manager.currentFacts() == nil { failures.append("thread \(thread) call \(index): no facts") }
      case .explain:
        if manager.explainCurrentDecision().decision?.shouldAsk != true {
          failures.append("thread \(thread) call \(index): the explanation does not ask")
        }
      case .setFact: manager.setFact("plan", .string(thread.isMultiple(of: 2) ? "pro" : "free"))
      case .update(let source):
        let result = manager.updatePolicy(source)
        if result.isAccepted {
          accepted += 1
        } else {
          failures.append("update rejected:\n\(result.renderedDiagnostics)")
        }
      case .reset: manager.resetPolicy()
      }
    }
    tally.update { observed in
      observed.promptsReturned += returned
      observed.accepted += accepted
      observed.failures += failures
    }
  }

  /// Every way `state` (and what was observed) differs from what the plan must produce;
  /// empty when all is exact.
  public func failures(state: ReviewState, observed: Observed, manager: ReviewManager) -> [String] {
    let totals = expected
    var failures = observed.failures
    func expect<T: Equatable>(_ what: String, _ actual: T, _ wanted: T) {
      if actual != wanted { failures.append("\(what): \(actual), expected \(wanted)") }
    }
    expect("uses", state.uses, totals.uses)
    expect("totalUses", state.totalUses, totals.uses)
    expect("events", state.events, totals.events)
    expect("totalEvents", state.totalEvents, totals.events)
    expect("eventsByName", state.eventsByName, totals.eventsByName)
    expect("totalEventsByName", state.totalEventsByName, totals.eventsByName)
    expect("sessions", state.sessions, totals.sessions)
    expect("totalSessions", state.totalSessions, totals.sessions)
    expect("current session number", state.currentSession?.number, totals.sessions)
    expect("sessions kept", state.recentSessions.count, min(totals.sessions - 1, ReviewLimits.sessionHistory))
    expect(
      "session numbers kept", state.recentSessions.map(\.number),
      Array((totals.sessions - state.recentSessions.count)..<totals.sessions))
    // Every check asks unless another thread's prompt is showing: each that asked is one prompt,
    // presented, answered and recorded once.
    let asked = observed.asked
    expect("checks that asked or were blocked", asked + observed.blocked, totals.prompts)
    expect("checks that asked", asked > 0, totals.prompts > 0)
    expect("prompts", state.prompts, asked)
    expect("totalPrompts", state.totalPrompts, asked)
    expect("calls that returned a prompt", observed.promptsReturned, asked)
    expect("prompts presented", observed.presented, asked)
    expect("answers given by the presenter", observed.answered, asked)
    expect("prompts kept", state.promptHistory.count, min(asked, ReviewLimits.promptHistory))
    expect("answers kept", state.responses.count, min(asked + totals.recorded, ReviewLimits.responseHistory))
    // Prompts are appended under the lock, so their sessions never decrease and none is later
    // than the latest session; the last prompt's own answer was recorded after it.
    let promptSessions = state.promptHistory.map(\.session)
    expect("prompt sessions in order", promptSessions, promptSessions.sorted())
    expect("prompt sessions within the total", promptSessions.allSatisfy { $0 >= 1 && $0 <= totals.sessions }, true)
    if totals.prompts > 0 { expect("the last prompt answered", state.promptHistory.last?.outcome != .pending, true) }
    expect("prompt versions", Set(state.promptHistory.map(\.version)), totals.prompts > 0 ? ["1.0"] : [])
    // Every answer given at least once leaves its mark.
    let given = Set(Self.presenterAnswers.prefix(asked)).union(totals.recordedKinds)
    expect("rated", state.rated, given.contains(.rated))
    expect("ratedAny", state.ratedAny, given.contains(.rated))
    expect("declined", state.declined, given.contains(.declined))
    expect("declinedAny", state.declinedAny, given.contains(.declined))
    expect("feedback", state.feedback, given.contains(.feedback))
    expect("reminded", state.lastReminder != nil, given.contains(.remindLater))
    if let score = state.currentSession?.score, let low = Number(-200.0), let high = Number(200.0),
      score < low || score > high
    {
      failures.append("session score \(score) outside -200...200")
    }
    expect("policy updates accepted", observed.accepted, totals.updates)
    expect("policyUpdated log entries", observed.logged[.policyUpdated] ?? 0, totals.updates)
    expect("decision log entries", observed.decisionEntries, totals.prompts)
    expect("decisions that did not ask", observed.decisionsNotAsking, observed.blocked)
    expect("problems logged", (observed.logged[.problem] ?? 0) - observed.refusedAnswers, 0)
    expect("running policy origin", manager.policyOrigin, totals.finalOrigin)
    expect("running policy", String(decoding: manager.currentPolicy.source.bytes, as: UTF8.self), totals.finalPolicy)
    expect("stored policy", state.policySource, totals.finalOrigin == .update ? totals.finalPolicy : nil)
    return failures
  }
}
