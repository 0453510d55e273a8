import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// Why a policy asked as often as it did: each rule and atomic condition at the prompt checks,
/// and what blocked the asks, with a reason for every condition that never held.
public struct SimulationExplanation: Sendable {
  /// One atomic condition of a rule.
  public struct Condition: Sendable, Hashable {
    /// The condition as written (whitespace collapsed).
    public var text: String
    /// Checks at which it held.
    public var held: Int
    /// Checks at which it was evaluated (not skipped by `and`/`or`).
    public var evaluated: Int
    /// Checks at which no rule asked and this condition of an `ask` rule failed.
    public var blocked: Int
    /// Why a condition of an `ask` rule never held, when it was evaluated and a reason is known.
    public var reason: String?
    /// Why a condition held at a share a reader would not expect, when the model explains it: a
    /// `bucket()` range at a share of checks unlike its share of users, a per-version wait longer
    /// than the release cadence that still held.
    public var note: String?
  }

  /// One rule.
  public struct Rule: Sendable, Hashable {
    /// `ask` or `never`.
    public var kind: RuleKind
    /// `ask armchair_defaults (line 20)`, `never (line 3)`.
    public var label: String
    /// Checks at which its condition held.
    public var held: Int
    /// Checks at which it faulted.
    public var faulted: Int
    /// Its atomic conditions, in source order.
    public var conditions: [Condition]
  }

  /// The users whose checks were explained (every ``SimulationSetup/explainStride``-th user).
  public let users: Int
  /// Their prompt checks (policy decisions).
  public let checks: Int
  /// Checks that asked.
  public let asked: Int
  /// Checks at which a `never` rule held.
  public let blockedByNever: Int
  /// Checks at which neither a `never` nor an `ask` rule held.
  public let noAskRuleHeld: Int
  /// The rules, in source order.
  public let rules: [Rule]

  /// The per-version facts of the review schema: a new app version starts them again.
  static let perVersionFacts: Set<String> = [
    "days", "uses", "events", "sessions", "declined", "feedback", "rated", "prompts", "first_use", "last_reminder",
  ]

  /// Explains `tally` of `policy` (its source `text`) under `model`, given what the model gives the policy's `inputs`.
  init(tally: SimulationCheckTally, policy: SimulationPolicy, model: SimulationModel, inputs: [SimulationInput]) {
    users = tally.users
    checks = tally.checks
    asked = tally.asked
    blockedByNever = tally.blockedByNever
    noAskRuleHeld = tally.noAskRuleHeld
    guard let compiled = policy.compiled else {
      rules = []
      return
    }
    let bytes = Array(policy.text.utf8)
    func text(_ range: SourceRange) -> String {
      let start = min(max(range.start, 0), bytes.count)
      let end = min(max(range.end, start), bytes.count)
      let written = String(decoding: bytes[start..<end], as: UTF8.self)
      return written.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    func line(_ offset: Int) -> Int {
      bytes.prefix(min(max(offset, 0), bytes.count)).reduce(1) { $1 == 10 ? $0 + 1 : $0 }
    }
    var rules: [Rule] = []
    for (index, rule) in compiled.rules.enumerated() where tally.rules.indices.contains(index) {
      let counts = tally.rules[index]
      let label = "\(rule.kind.rawValue)" + (rule.name.map { " \($0)" } ?? "") + " (line \(line(rule.range.start)))"
      var conditions: [Condition] = []
      for (position, range) in compiled.conditionRanges(ofRule: index).enumerated()
      where counts.conditionHeld.indices.contains(position) {
        let written = text(range)
        let held = counts.conditionHeld[position]
        let evaluated = counts.conditionEvaluated[position]
        let reason =
          rule.kind == .ask && held == 0 && evaluated > 0
          ? SimulationExplanation.reason(written, model: model, inputs: inputs) : nil
        var condition = Condition(
          text: written, held: held, evaluated: evaluated, blocked: counts.conditionBlocked[position], reason: reason)
        if held > 0 {
          condition.note = SimulationExplanation.note(written, held: held, evaluated: evaluated, model: model)
        }
        conditions.append(condition)
      }
      rules.append(
        Rule(kind: rule.kind, label: label, held: counts.held, faulted: counts.faulted, conditions: conditions))
    }
    self.rules = rules
  }

  /// Why a condition reading `text` never held, if the model explains it.
  static func reason(_ text: String, model: SimulationModel, inputs: [SimulationInput]) -> String? {
    let names = identifiers(text)
    for input in inputs where !input.isProduced {
      switch input.kind {
      case .event:
        if input.readAs.contains(where: { text.contains($0) }) {
          return "the behaviour model never produces `\(input.name)` events"
        }
      case .fact:
        if names.contains(input.name) { return "`\(input.name)` is \(input.stated)" }
      }
    }
    if model.releaseEvery > 0, names.contains(where: perVersionFacts.contains) {
      return "a new version every \(model.releaseEvery) day\(model.releaseEvery == 1 ? "" : "s") restarts it "
        + "(`--release-every 0` simulates one version)"
    }
    return nil
  }

  /// Why `text`, which held at `held` of the `evaluated` checks, held as often as it did, when
  /// that is surprising and the model explains it.
  static func note(_ text: String, held: Int, evaluated: Int, model: SimulationModel) -> String? {
    guard evaluated > 0 else { return nil }
    let observed = Double(held) / Double(evaluated)
    if text.hasPrefix("bucket(\""), let close = text.range(of: "\")"),
      let (comparison, bound) = comparison(text[close.upperBound...]), bound <= 1000
    {
      let users: Int
      switch comparison {
      case "<": users = min(max(bound, 0), 100)
      case "<=": users = min(max(bound + 1, 0), 100)
      case ">": users = min(max(99 - bound, 0), 100)
      default: users = min(max(100 - bound, 0), 100)
      }
      guard abs(observed * 100 - Double(users)) >= 1 else { return nil }
      return "it holds for \(users)% of users, but a user's bucket is fixed and the users in the range "
        + "made \(observed * 100 > Double(users) ? "more" : "fewer") prompt checks than the others"
    }
    if model.releaseEvery > 0,
      let subject = ["days", "since(first_use)"].first(where: { text.hasPrefix($0) }),
      let (comparison, wait) = comparison(text.dropFirst(subject.count), unit: "d"),
      comparison.hasPrefix(">"), wait >= model.releaseEvery
    {
      return "a new version comes every \(model.releaseEvery) days, but a user picks it up at their next "
        + "launch: one who does not open the app for a while keeps a version longer"
    }
    return nil
  }

  /// `rest` read as ` OP N` (spaces optional, OP one of `<`, `<=`, `>`, `>=`, N up to 9 digits,
  /// then `unit` if given, optionally): the operator and the number; nil otherwise.
  static func comparison(_ rest: Substring, unit: String? = nil) -> (String, Int)? {
    var text = rest.drop { $0 == " " }
    let comparison = ["<=", ">=", "<", ">"].first { text.hasPrefix($0) }
    guard let comparison else { return nil }
    text = text.dropFirst(comparison.count).drop { $0 == " " }
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    var after = text.dropFirst(digits.count)
    if let unit, after.hasPrefix(unit) { after = after.dropFirst(unit.count) }
    guard !digits.isEmpty, digits.count <= 9, after.isEmpty, let number = Int(digits) else { return nil }
    return (comparison, number)
  }

  /// The identifiers in `text`, outside string literals.
  static func identifiers(_ text: String) -> Set<String> {
    var names = Set<String>()
    var current = ""
    var inString = false
    for character in text {
      if character == "\"" { inString.toggle() }
      if !inString && (character.isLetter || character == "_" || (character.isNumber && !current.isEmpty)) {
        current.append(character)
      } else {
        if !current.isEmpty { names.insert(current) }
        current = ""
      }
    }
    if !current.isEmpty { names.insert(current) }
    return names
  }

  /// Sentences for the conditions of `ask` rules that never held: "`x` held at 0% of checks:
  /// reason"; then for conditions that held at a surprising share, with the note.
  public var zeroLines: [String] {
    let never = rules.filter { $0.kind == .ask }.flatMap(\.conditions).filter { $0.held == 0 && $0.evaluated > 0 }.map {
      "`\($0.text)` held at 0% of checks" + ($0.reason.map { ": " + $0 } ?? "")
    }
    let surprising = rules.flatMap(\.conditions).compactMap { condition in
      condition.note.map {
        "`\(condition.text)` held at \(SimulationFormat.percent(condition.held, of: checks)) of checks: \($0)"
      }
    }
    return never + surprising
  }
}
