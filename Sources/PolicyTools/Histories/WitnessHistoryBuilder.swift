import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewPolicy

/// Builds a ``WitnessHistory`` from the values of the standard review facts: places every count,
/// answer, prompt and session on a timeline that ends at `now`, then writes the timeline as
/// test-file steps. Its work is linear in the facts and the steps (counts become `x <count>`).
struct WitnessHistoryBuilder {
  typealias Refusal = WitnessHistoryRefusal
  typealias Messages = WitnessHistoryMessages

  /// One day in milliseconds.
  static let day: Int64 = 86_400_000

  /// The version segment a step must fall in.
  enum Segment: Int {
    /// Any version.
    case any
    /// A version before the current one.
    case earlier
    /// The first version, when three are needed (the last prompt's).
    case first
    /// The current version.
    case current
  }

  /// Steps at one instant of the timeline; items are ordered by time, then phase, then creation.
  struct Item {
    var time: Int64
    var phase: Double
    var steps: [String]
    var segment: Segment = .any
    /// The facts the item stands for, for refusals.
    var facts: [String] = []
    /// The counted sessions the item starts.
    var sessions: Int64 = 0
    /// Creation order.
    var sequence = 0
    /// The version segment the item starts, if it is a version change.
    var starts: Segment?
  }

  /// A point of the timeline that a count of later sessions is given for.
  struct Marker {
    var time: Int64
    var phase: Double
    var after: Int64
    var facts: [String]
  }

  /// What a fact was given as: not given, absent, or a value.
  enum Given: Equatable {
    case unknown
    case absent
    case value(Value)
  }

  /// The instant of the facts, in milliseconds: the end of the history.
  let now: Int64
  /// The plain facts given, by name (nil: given absent).
  var plain: [String: Value?] = [:]
  /// `events(name)` given, by name.
  var events: [String: Value?] = [:]
  /// `total_events(name)` given, by name.
  var totalEvents: [String: Value?] = [:]
  /// `average_score(n)` given, by count.
  var averages: [Int64: Value?] = [:]
  /// `prompts_within(w)` given, by window.
  var windows: [TimeSpan: Value?] = [:]
  /// The timeline so far.
  var items: [Item] = []
  /// The repetitions of the steps so far, against ``WitnessHistory/maximumTotalRepetitions``.
  var repetitions: Int64 = 0
  /// The instant of the last prompt, once placed.
  var lastPrompt: Int64?

  /// A builder for `facts` at `now`; refuses a fact that is not the review schema's.
  init(facts: [AssignedFact], now: Timestamp) throws(Refusal) {
    self.now = now.millisecondsSince1970
    for fact in facts {
      if let family = fact.family, let key = fact.key {
        switch (family, key) {
        case ("events", .string(let name)): events[name] = fact.value
        case ("total_events", .string(let name)): totalEvents[name] = fact.value
        case ("average_score", .int(let count)): averages[count] = fact.value
        case ("prompts_within", .duration(let window)): windows[window] = fact.value
        default: throw Messages.unknownFact(fact.name)
        }
      } else {
        guard ReviewSchema.standard.fact(named: fact.name) != nil else { throw Messages.unknownFact(fact.name) }
        plain[fact.name] = fact.value
      }
    }
  }

  // MARK: - Reading the facts

  /// How the plain fact `name` is given.
  func given(_ name: String) -> Given {
    guard let entry = plain[name] else { return .unknown }
    return entry.map(Given.value) ?? .absent
  }

  /// A count that is never absent: nil when not given.
  func count(_ name: String) throws(Refusal) -> Int64? {
    switch given(name) {
    case .unknown: return nil
    case .absent: throw Messages.absent(name)
    case .value(let value): return try Self.count(name, value)
    }
  }

  /// `value` of fact `name` as a count: a whole number not below 0.
  static func count(_ name: String, _ value: Value) throws(Refusal) -> Int64 {
    guard case .int(let count) = value else { throw Messages.wrongType(name, value, expected: "a whole number") }
    guard count >= 0 else { throw Messages.negative(name, count) }
    return count
  }

  /// An optional count: `.some(nil)` when given absent.
  func optionalCount(_ name: String) throws(Refusal) -> Int64?? {
    switch given(name) {
    case .unknown: return .none
    case .absent: return .some(nil)
    case .value(let value): return .some(try Self.count(name, value))
    }
  }

  /// A flag that is never absent: nil when not given.
  func flag(_ name: String) throws(Refusal) -> Bool? {
    switch given(name) {
    case .unknown: return nil
    case .absent: throw Messages.absent(name)
    case .value(.bool(let flag)): return flag
    case .value(let value): throw Messages.wrongType(name, value, expected: "true or false")
    }
  }

  /// An instant in milliseconds: `.some(nil)` when given absent.
  func instant(_ name: String) throws(Refusal) -> Int64?? {
    switch given(name) {
    case .unknown: return .none
    case .absent: return .some(nil)
    case .value(.instant(let instant)):
      guard instant.millisecondsSince1970 <= now else {
        throw Messages.timing([name], "it is after now; the tracker records nothing in the future")
      }
      return .some(instant.millisecondsSince1970)
    case .value(let value): throw Messages.wrongType(name, value, expected: "an instant")
    }
  }

  /// A version: `.some(nil)` when given absent.
  func version(_ name: String) throws(Refusal) -> Version?? {
    switch given(name) {
    case .unknown: return .none
    case .absent: return .some(nil)
    case .value(.version(let version)): return .some(version)
    case .value(let value): throw Messages.wrongType(name, value, expected: "a version")
    }
  }

  // MARK: - Arithmetic

  /// `a - b`, refused as out of range on overflow.
  static func minus(_ a: Int64, _ b: Int64, _ facts: [String]) throws(Refusal) -> Int64 {
    let (result, overflow) = a.subtractingReportingOverflow(b)
    if overflow { throw Messages.outOfRange(facts) }
    return result
  }

  /// `a * b`, refused as out of range on overflow.
  static func times(_ a: Int64, _ b: Int64, _ facts: [String]) throws(Refusal) -> Int64 {
    let (result, overflow) = a.multipliedReportingOverflow(by: b)
    if overflow { throw Messages.outOfRange(facts) }
    return result
  }

  /// The instants `now - (count + 1) days` (exclusive) to `now - count days`: where a day count
  /// of `count` starts.
  func dayRange(_ count: Int64, _ name: String) throws(Refusal) -> ClosedRange<Int64> {
    let high = try Self.minus(now, try Self.times(count, Self.day, [name]), [name])
    let low = try Self.minus(high, Self.day - 1, [name])
    return low...high
  }

  // MARK: - Steps

  /// `text x count` (or `text` for one), counted against the limits; nil for none.
  mutating func repeated(_ text: String, _ count: Int64, _ name: String, answer: String? = nil) throws(Refusal)
    -> String?
  {
    guard count > 0 else { return nil }
    guard count <= Int64(WitnessHistory.maximumRepetitions) else {
      throw Messages.tooMany(name, count, limit: WitnessHistory.maximumRepetitions)
    }
    repetitions += count
    guard repetitions <= Int64(WitnessHistory.maximumTotalRepetitions) else {
      throw Messages.tooLong(repetitions, limit: WitnessHistory.maximumTotalRepetitions)
    }
    return text + (count > 1 ? " x \(count)" : "") + (answer.map { " -> " + $0 } ?? "")
  }

  /// Adds `item` to the timeline, after those added before it at its instant and phase.
  mutating func add(_ item: Item) {
    var item = item
    item.sequence = items.count
    items.append(item)
  }

  /// Adds the steps that are not nil at `time` and `phase`, in `segment`.
  mutating func add(
    _ time: Int64, _ phase: Double, _ steps: [String?], _ segment: Segment = .any, facts: [String] = [],
    sessions: Int64 = 0
  ) {
    let present = steps.compactMap { $0 }
    guard !present.isEmpty else { return }
    add(Item(time: time, phase: phase, steps: present, segment: segment, facts: facts, sessions: sessions))
  }

  /// The `silent event` step for `name` (quoted when it has spaces), checked to parse back to it.
  /// A name longer than the tracker keeps is written as the tracker counts it, cut to its first
  /// ``ReviewState/eventKey(_:)`` bytes: `events("name")` reads that count.
  static func eventStep(_ written: String?) throws(Refusal) -> String {
    guard let written else { return "silent event" }
    let name = ReviewState.eventKey(written)
    let text = name.contains(" ") ? "silent event \"\(name)\"" : "silent event \(name)"
    let clean =
      !name.isEmpty && !name.contains("\"") && !name.contains("->")
      && !name.contains("  ") && name.trimmingCharacters(in: .whitespaces) == name
      && !name.split(separator: " ").contains("x")
    guard clean, case .success(let step) = HistoryStep.parse(text + " x 2", range: SourceRange(start: 0, end: 0)),
      case .silentEvent(name) = step.action, step.repetitions == 2
    else { throw Messages.eventName("events(\"\(written)\")") }
    return text
  }
}
