import AllocationCounter
import Foundation
import PolicyCore
import ReviewPolicy

/// One measured line of the report.
struct BenchResult {
  var name: String
  /// The measured value: nanoseconds per operation, or megabytes per second, or user-days per second.
  var value: Double
  var unit: String
  /// The hand-written baseline in the same unit, when there is one.
  var baseline: Double?
  /// The target, as text, and whether it was met.
  var target: String
  var met: Bool
  /// Heap allocations per operation, when counted.
  var allocations: Double?
}

/// The benchmark workloads. Each measures the policy path and, where there is one, a
/// hand-written Swift baseline over the same data, in the same run.
struct Workloads {
  let samples: Int
  let sink = Sink()
  let examples: URL

  // MARK: - W1: the expression Go engines compare themselves with

  static let w1Policy = """
    fact Origin: string
    fact Country: string
    fact Value: int
    fact Adults: int
    (Origin == "MOW" or Country == "RU") and (Value >= 100 or Adults == 1)

    """

  /// The environment of the hand-written closure.
  struct W1Environment {
    var origin: String
    var country: String
    var value: Int
    var adults: Int
  }

  /// What an embedder would otherwise write: a prebuilt closure over a struct, called through a function value.
  @inline(never)
  static func w1Closure() -> (W1Environment) -> Bool {
    { env in (env.origin == "MOW" || env.country == "RU") && (env.value >= 100 || env.adults == 1) }
  }

  func w1() throws -> BenchResult {
    let policy = try compile(Workloads.w1Policy, schema: .empty)
    let environments = [
      W1Environment(origin: "MOW", country: "RU", value: 100, adults: 1),
      W1Environment(origin: "LED", country: "RU", value: 50, adults: 2),
      W1Environment(origin: "LED", country: "DE", value: 100, adults: 1),
      W1Environment(origin: "SVO", country: "FR", value: 10, adults: 3),
    ]
    var snapshots: [Facts] = []
    for env in environments {
      var facts = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
      try facts.set("Origin", to: .string(env.origin))
      try facts.set("Country", to: .string(env.country))
      try facts.set("Value", to: .int(Int64(env.value)))
      try facts.set("Adults", to: .int(Int64(env.adults)))
      snapshots.append(facts)
    }
    let closure = Workloads.w1Closure()
    for index in 0..<4 where policy.decide(snapshots[index]).shouldAsk != closure(environments[index]) {
      throw BenchError.disagreement("W1, case \(index)")
    }
    let ours = time { policy.decide(snapshots[$0 & 3]).shouldAsk }
    let baseline = time { closure(environments[$0 & 3]) }
    let allocations = countAllocations { policy.decide(snapshots[$0 & 3]).shouldAsk }
    return BenchResult(
      name: "W1 expr, 4 app facts", value: ours, unit: "ns", baseline: baseline, target: "<= 3x closure, 0 allocations",
      met: ours <= 3 * baseline && allocations == 0, allocations: allocations)
  }

  // MARK: - W2: the example policies against hand-written versions

  /// The facts the hand-written review rules read.
  struct ReviewFacts {
    var now: Int64
    var firstUse: Int64
    var installDate: Int64
    var uses: Int
    var declined: Bool
    var rated: Bool
    var lastReminder: Int64?
    var sessionScore: Double
    var sessionBad: Bool
    var totalSessions: Int
    var sessionsSinceBad: Int?
    var lastBadSession: Int64?
    var version: [Int]
    var lastPromptVersion: [Int]?
    var sessionsSincePrompt: Int?
    var lastPrompt: Int64?
    var average: Double?
  }

  static let day: Int64 = 86_400_000

  /// Armchair's default criteria, hand-written.
  @inline(never)
  static func armchairClosure() -> (ReviewFacts) -> Bool {
    { f in
      f.now - f.firstUse >= 30 * day && f.uses > 20 && !f.declined && !f.rated
        && (f.lastReminder.map { f.now - $0 >= day } ?? true)
    }
  }

  /// ReviewKit's default criteria, hand-written.
  @inline(never)
  static func reviewKitClosure() -> (ReviewFacts) -> Bool {
    { f in
      !f.sessionBad && f.sessionScore > 100 && f.totalSessions > 2 && f.now - f.installDate > 4 * day
        && ((f.sessionsSinceBad ?? 0) > 2 || (f.lastBadSession.map { f.now - $0 > 2 * day } ?? true))
        && (f.lastPromptVersion.map { f.version.lexicographicallyPrecedes($0) == false && f.version != $0 } ?? true)
        && (f.sessionsSincePrompt ?? 5) > 4 && (f.lastPrompt.map { f.now - $0 > 56 * day } ?? true)
        && (f.average ?? -1) >= 75
    }
  }

  static let reviewCases: [ReviewFacts] = {
    let now: Int64 = 1_780_000_000_000
    return [
      ReviewFacts(
        now: now, firstUse: now - 40 * day, installDate: now - 90 * day, uses: 25, declined: false, rated: false,
        lastReminder: nil, sessionScore: 120, sessionBad: false, totalSessions: 30, sessionsSinceBad: nil,
        lastBadSession: nil, version: [3, 1, 0], lastPromptVersion: [3, 0, 0], sessionsSincePrompt: 9,
        lastPrompt: now - 70 * day, average: 80),
      ReviewFacts(
        now: now, firstUse: now - 10 * day, installDate: now - 10 * day, uses: 30, declined: false, rated: false,
        lastReminder: now - 2 * day, sessionScore: 50, sessionBad: false, totalSessions: 5, sessionsSinceBad: 1,
        lastBadSession: now - day, version: [3, 1, 0], lastPromptVersion: nil, sessionsSincePrompt: nil,
        lastPrompt: nil, average: nil),
      ReviewFacts(
        now: now, firstUse: now - 60 * day, installDate: now - 200 * day, uses: 80, declined: true, rated: false,
        lastReminder: nil, sessionScore: 150, sessionBad: true, totalSessions: 50, sessionsSinceBad: 0,
        lastBadSession: now - 3 * day, version: [3, 1, 0], lastPromptVersion: [3, 1, 0], sessionsSincePrompt: 2,
        lastPrompt: now - 3 * day, average: 90),
      ReviewFacts(
        now: now, firstUse: now - 31 * day, installDate: now - 31 * day, uses: 21, declined: false, rated: false,
        lastReminder: now - 3 * day, sessionScore: 101, sessionBad: false, totalSessions: 3, sessionsSinceBad: 3,
        lastBadSession: now - 5 * day, version: [3, 2], lastPromptVersion: [3, 1, 9], sessionsSincePrompt: 5,
        lastPrompt: now - 60 * day, average: 75),
    ]
  }()

  /// The same facts as a policy snapshot.
  func snapshot(_ f: ReviewFacts, for policy: CompiledPolicy) throws -> Facts {
    var facts = policy.makeFacts(now: Timestamp(millisecondsSince1970: f.now))
    func set(_ name: String, _ value: Value?) throws {
      guard policy.layout.slot(named: name) != nil else { return }
      if let value { try facts.set(name, to: value) } else { try facts.setAbsent(name) }
    }
    func version(_ parts: [Int]) -> Value? { Version(parts: parts.map { UInt32($0) }).map(Value.version) }
    try set("first_use", .instant(Timestamp(millisecondsSince1970: f.firstUse)))
    try set("install_date", .instant(Timestamp(millisecondsSince1970: f.installDate)))
    try set("uses", .int(Int64(f.uses)))
    try set("declined", .bool(f.declined))
    try set("rated", .bool(f.rated))
    try set("last_reminder", f.lastReminder.map { .instant(Timestamp(millisecondsSince1970: $0)) })
    try set("session_score", Number(f.sessionScore).map(Value.number))
    try set("session_bad", .bool(f.sessionBad))
    try set("total_sessions", .int(Int64(f.totalSessions)))
    try set("sessions_since_bad", f.sessionsSinceBad.map { .int(Int64($0)) })
    try set("last_bad_session", f.lastBadSession.map { .instant(Timestamp(millisecondsSince1970: $0)) })
    try set("version", version(f.version))
    try set("last_prompt_version", f.lastPromptVersion.flatMap(version))
    try set("sessions_since_prompt", f.sessionsSincePrompt.map { .int(Int64($0)) })
    try set("last_prompt", f.lastPrompt.map { .instant(Timestamp(millisecondsSince1970: $0)) })
    try set("average_score(3)", f.average.flatMap(Number.init).map(Value.number))
    return facts
  }

  func w2(_ file: String, closure: (ReviewFacts) -> Bool) throws -> BenchResult {
    let policy = try compile(
      String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8), schema: ReviewSchema.standard)
    let snapshots = try Workloads.reviewCases.map { try snapshot($0, for: policy) }
    for (index, facts) in snapshots.enumerated()
    where policy.decide(facts).shouldAsk != closure(Workloads.reviewCases[index]) {
      throw BenchError.disagreement("\(file), case \(index)")
    }
    let ours = time { policy.decide(snapshots[$0 & 3]).shouldAsk }
    let baseline = time { closure(Workloads.reviewCases[$0 & 3]) }
    let allocations = countAllocations { policy.decide(snapshots[$0 & 3]).shouldAsk }
    return BenchResult(
      name: "W2 \(file)", value: ours, unit: "ns", baseline: baseline, target: "<= 3x closure, 0 allocations",
      met: ours <= 3 * baseline && allocations == 0, allocations: allocations)
  }

  // MARK: - W3: compiling

  func w3Examples() throws -> [BenchResult] {
    let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".policy") }
      .sorted()
    return try names.map { name in
      let url = examples.appendingPathComponent(name)
      let nanoseconds = Measure.nanosecondsPerCall(samples: samples, batch: 200) { _ in
        let bytes = (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? []
        sink.consume(
          PolicyCompiler.compile(SourceFile(path: name, bytes: bytes), schema: ReviewSchema.standard).policy != nil)
      }
      guard
        PolicyCompiler.compile(try String(contentsOf: url, encoding: .utf8), schema: ReviewSchema.standard).policy
          != nil
      else { throw BenchError.disagreement("\(name) does not compile") }
      return BenchResult(
        name: "W3 compile \(name)", value: nanoseconds / 1000, unit: "us", baseline: nil, target: "< 50 us",
        met: nanoseconds < 50_000, allocations: nil)
    }
  }

  /// A generated policy of about 1 MiB: lets and rules over the standard facts.
  static func largePolicy() -> String {
    var text = "# A generated policy of about 1 MiB.\n"
    var index = 0
    while text.utf8.count < 1 << 20 {
      text +=
        "let engaged_\(index) = days >= \(index % 90) and uses > \(index % 50) or events(\"e\(index % 40)\") >= 2\n"
      text +=
        "never cooldown_\(index) when since(last_prompt) < \(index % 12 + 1)w and prompts_within(365d) >= \(index % 4 + 1)\n"
      text += "ask rule_\(index) when engaged_\(index) and not declined and version >= v\(index % 5).\(index % 10)\n"
      index += 1
    }
    return text
  }

  func w3Large() throws -> BenchResult {
    let text = Workloads.largePolicy()
    let bytes = Array(text.utf8)
    let result = PolicyCompiler.compile(SourceFile(path: "large.policy", bytes: bytes), schema: ReviewSchema.standard)
    guard result.policy != nil else { throw BenchError.disagreement("the large policy does not compile") }
    let nanoseconds = Measure.nanosecondsPerCall(samples: max(3, samples / 3), batch: 1) { _ in
      sink.consume(
        PolicyCompiler.compile(SourceFile(path: "large.policy", bytes: bytes), schema: ReviewSchema.standard).policy
          != nil)
    }
    let megabytesPerSecond = Double(bytes.count) / 1_048_576 / (nanoseconds / 1e9)
    return BenchResult(
      name: "W3 compile 1 MiB policy (\(result.policy?.rules.count ?? 0) rules)", value: megabytesPerSecond,
      unit: "MB/s",
      baseline: nil, target: ">= 20 MB/s", met: megabytesPerSecond >= 20, allocations: nil)
  }

  // MARK: - W4: the review manager with the default file store

  final class Clock: @unchecked Sendable {
    // @unchecked: advanced by the one benchmarking thread.
    var date = Date(timeIntervalSince1970: 1_780_000_000)
  }

  /// A state as a real install holds it after two years: 200 launches over 700 days, one session each
  /// with a few named events and actions, 50 prompts with their answers, across 7 versions.
  static func realisticState(endingAt end: Date) -> ReviewState {
    var state = ReviewState()
    let endMilliseconds = Int64(end.timeIntervalSince1970 * 1000)
    let names = ["export", "share", "edit", "import", "print"]
    let answers: [ReviewResponse] = [.remindLater, .declined, .dismissed, .rated, .unknown]
    for launch in 0..<200 {
      let offset = Int64(700 - launch * 700 / 200) * day
      let now = Timestamp(millisecondsSince1970: endMilliseconds - offset + Int64(launch) * 1000)
      state.enter(version: "3.\(launch / 30)", at: now)
      state.countUse()
      state.startSession(at: now)
      for event in 0..<(launch % 4) { state.countEvent(named: names[(launch + event) % names.count]) }
      state.addAction(
        score: Number(scaled: Int64(launch % 7) * 15_000_000), isBad: launch % 23 == 0, bounds: nil, at: now)
      if launch % 4 == 1 {
        state.recordPrompt(at: now, outcome: .pending)
        state.record(answers[(launch / 4) % answers.count], at: now)
      }
    }
    state.endSession()
    return state
  }

  func w4() throws -> [BenchResult] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("policy-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let policy = try String(contentsOf: examples.appendingPathComponent("armchair.policy"), encoding: .utf8)
    let clock = Clock()
    let url = directory.appendingPathComponent("review-state.json")
    let store = JSONFileStore(url: url)
    // The realistic state, as the store writes it.
    let realistic = Workloads.realisticState(endingAt: clock.date)
    try store.save(realistic)
    let bytes = (try? Data(contentsOf: url).count) ?? 0
    func makeManager() throws -> ReviewManager {
      try ReviewManager(
        configuration: .init(
          appVersion: "3.6", bundledPolicy: policy, store: JSONFileStore(url: url), clock: { clock.date },
          texts: .english))
    }
    // Cold init: a new manager (and store) over the file, as at every launch of the app or an extension.
    let coldInit = Measure.nanosecondsPerCall(samples: samples, batch: 20) { _ in
      sink.consume((try? makeManager()) != nil)
    }
    let manager = try makeManager()
    // The worst cold init: the journal nearly full (the changes of every call since the file was last written whole).
    func journalSize() -> Int {
      (try? FileManager.default.attributesOfItem(atPath: store.journalURL.path)[.size] as? Int) ?? 0
    }
    var calls = 0
    repeat {
      clock.date += 60
      manager.significantEvent("export", mayPrompt: false)
      calls += 1
    } while journalSize() < JSONFileStore.journalLimit * 9 / 10 && calls < 10_000
    let journal = journalSize()
    let coldJournal = Measure.nanosecondsPerCall(samples: samples, batch: 20) { _ in
      sink.consume((try? makeManager()) != nil)
    }
    let launch = Measure.nanosecondsPerCall(samples: samples, batch: 50) { _ in
      clock.date += 1
      manager.appLaunched()
    }
    let record = Measure.nanosecondsPerCall(samples: samples, batch: 50) { _ in
      clock.date += 1
      manager.significantEvent("export", mayPrompt: false)
    }
    // Durable when the call returns: a fresh store reads the last count back.
    guard case .loaded(let state) = JSONFileStore(url: url).load(), state.events == manager.currentState.events,
      state.recentSessions.count == realistic.recentSessions.count
    else {
      throw BenchError.disagreement("the file store does not hold the last event")
    }
    let decide = Measure.nanosecondsPerCall(samples: samples, batch: 50) { _ in
      clock.date += 1
      sink.consume(manager.promptIfAppropriate())
    }
    let size = String(format: "%.1f KB", Double(bytes) / 1000)
    return [
      BenchResult(
        name: "W4 cold init (\(size) state)", value: coldInit / 1000, unit: "us", baseline: nil,
        target: "<= 1000 us", met: coldInit <= 1_000_000, allocations: nil),
      BenchResult(
        name: "W4 cold init (+ \(journal / 1000) KB journal)", value: coldJournal / 1000, unit: "us", baseline: nil,
        target: "<= 1000 us", met: coldJournal <= 1_000_000, allocations: nil),
      BenchResult(
        name: "W4 launch (\(size) state, saved)", value: launch / 1000, unit: "us", baseline: nil,
        target: "<= 100 us", met: launch <= 100_000, allocations: nil),
      BenchResult(
        name: "W4 record an event (\(size) state, saved)", value: record / 1000, unit: "us", baseline: nil,
        target: "<= 100 us", met: record <= 100_000, allocations: nil),
      BenchResult(
        name: "W4 decide (prompt check)", value: decide / 1000, unit: "us", baseline: nil, target: "<= 100 us",
        met: decide <= 100_000, allocations: nil),
    ]
  }

  // MARK: - Helpers

  func compile(_ text: String, schema: FactSchema) throws -> CompiledPolicy {
    let compilation = PolicyCompiler.compile(text, path: "bench.policy", schema: schema)
    guard let policy = compilation.policy else {
      throw BenchError.disagreement(DiagnosticRenderer().render(compilation.diagnostics, in: compilation.source))
    }
    return policy
  }

  /// Median nanoseconds per call of `body` over batches of a million calls.
  func time(_ body: (Int) -> Bool) -> Double {
    for index in 0..<100_000 { sink.consume(body(index)) }  // warm up
    return Measure.nanosecondsPerCall(samples: samples, batch: 1_000_000) { sink.consume(body($0)) }
  }

  /// Heap allocations per call, counted by interposing malloc (Linux with glibc), or nil elsewhere.
  func countAllocations(_ body: (Int) -> Bool) -> Double? {
    guard allocation_counter_is_available() != 0 else { return nil }
    for index in 0..<1000 { sink.consume(body(index)) }
    allocation_counter_start()
    for index in 0..<10_000 { sink.consume(body(index)) }
    return Double(allocation_counter_stop()) / 10_000
  }
}

/// A workload that could not run as designed.
enum BenchError: Error, CustomStringConvertible {
  case disagreement(String)
  /// Something a workload needs is not there (`detail` says what, and how to get it).
  case missing(String)

  var description: String {
    switch self {
    case .disagreement(let detail): "the policy and its baseline disagree, or a workload failed: \(detail)"
    case .missing(let detail): detail
    }
  }
}
