import PolicyCore

/// Reads a behaviour file: the JSON form of a ``SimulationModel`` (`policyc simulate --behaviour FILE`).
///
/// ```json
/// { "events": {"purchase": 0.2, "export": 1.5},
///   "facts": {"plan": {"free": 0.7, "pro": 0.3}},
///   "releaseEvery": 30, "sessionsPerDay": 1.5,
///   "answers": {"rate": 0.25, "decline": 0.4, "later": 0.35} }
/// ```
///
/// Every key is optional; a key not given keeps the model's value. Shares are numbers from
/// 0 to 1 or strings such as `"70%"`. Problems are located in the file: invalid JSON is
/// PC401, anything else PC408.
public enum SimulationBehaviour {
  /// The keys of a behaviour file, in documentation order.
  public static let keys = [
    "events", "facts", "releaseEvery", "sessionsPerDay", "answers", "heavyShare", "heavyOpenRate", "lightOpenRate",
    "badSessions",
  ]

  /// The keys of `answers`.
  public static let answerKeys = ["rate", "decline", "later"]

  /// `model` with the settings of the behaviour file `source`, or every problem found in it.
  public static func read(_ source: SourceFile, into model: SimulationModel) -> Result<SimulationModel, Problems> {
    let root: JSONNode
    switch JSONParser.parse(source) {
    case .success(let node): root = node
    case .failure(let failure): return .failure(Problems([failure.diagnostic]))
    }
    var reader = Reader(model: model)
    reader.read(root)
    return reader.problems.isEmpty ? .success(reader.model) : .failure(Problems(reader.problems))
  }

  /// The state of one reading: the model so far and the problems found.
  private struct Reader {
    /// The model, updated key by key.
    var model: SimulationModel
    /// The problems found, in file order: PC408 errors of ``SimulationMessages``.
    var problems: [Diagnostic] = []

    /// Reads the root object.
    mutating func read(_ root: JSONNode) {
      guard case .object(let members) = root.value else {
        problems.append(SimulationMessages.behaviourNotAnObject(kind: root.value.kindName, at: root.range))
        return
      }
      for member in members {
        switch member.key {
        case "events": readEvents(member.value)
        case "facts": readFacts(member.value)
        case "releaseEvery":
          if let days = number(member, in: 0...3650, unit: "a whole number of days") {
            if let whole = Int(exactly: days) {
              model.releaseEvery = whole
            } else {
              problems.append(SimulationMessages.fractionalReleaseEvery(at: member.value.range))
            }
          }
        case "sessionsPerDay":
          if let value = number(member, in: 1...20, unit: "a number") { model.sessionsPerDay = value }
        case "answers": readAnswers(member.value)
        case "heavyShare": if let value = share(member) { model.heavyShare = value }
        case "heavyOpenRate": if let value = share(member) { model.heavyOpenRate = value }
        case "lightOpenRate": if let value = share(member) { model.lightOpenRate = value }
        case "badSessions": if let value = share(member) { model.badSessionRate = value }
        default:
          let suggestion = EditDistance.suggestion(for: member.key, among: SimulationBehaviour.keys)
          problems.append(
            SimulationMessages.unknownBehaviourKey(member.key, suggestion: suggestion, at: member.keyRange))
        }
      }
    }

    /// Reads `events`: an object from event names to mean counts per session.
    mutating func readEvents(_ node: JSONNode) {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.eventsNotAnObject(kind: node.value.kindName, at: node.range))
        return
      }
      var events: [SimulationEventRate] = []
      for member in members {
        guard !member.key.isEmpty else {
          problems.append(SimulationMessages.emptyEventName(at: member.keyRange))
          continue
        }
        guard !events.contains(where: { $0.name == member.key }) else {
          problems.append(SimulationMessages.duplicateEvent(member.key, at: member.keyRange))
          continue
        }
        guard let rate = number(member, in: 0...20, unit: "a number of events per session") else { continue }
        events.append(SimulationEventRate(name: member.key, perSession: rate))
      }
      model.events = events
    }

    /// Reads `facts`: an object from fact names to objects from values to shares.
    mutating func readFacts(_ node: JSONNode) {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.factsNotAnObject(kind: node.value.kindName, at: node.range))
        return
      }
      var facts: [SimulationFactDistribution] = []
      for member in members {
        guard case .object(let values) = member.value.value, !values.isEmpty else {
          let kind = member.value.value == .object([]) ? nil : member.value.value.kindName
          problems.append(SimulationMessages.factNotShares(member.key, kind: kind, at: member.value.range))
          continue
        }
        var shares: [SimulationFactDistribution.Share] = []
        var total = 0.0
        var valid = true
        for value in values {
          guard let share = share(value) else {
            valid = false
            continue
          }
          shares.append(.init(value: value.key, share: share))
          total += share
        }
        guard valid else { continue }
        guard abs(total - 1) <= 1e-6 else {
          problems.append(SimulationMessages.sharesNotWhole(member.key, total: total, at: member.value.range))
          continue
        }
        facts.append(SimulationFactDistribution(name: member.key, shares: shares))
      }
      model.facts = facts
    }

    /// Reads `answers`: the shares of "rate", "no thanks" and "remind me later".
    mutating func readAnswers(_ node: JSONNode) {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.answersNotAnObject(kind: node.value.kindName, at: node.range))
        return
      }
      var answers = (rate: model.rateShare, decline: model.declineShare, later: model.remindShare)
      var valid = true
      for member in members {
        guard SimulationBehaviour.answerKeys.contains(member.key) else {
          let suggestion = EditDistance.suggestion(for: member.key, among: SimulationBehaviour.answerKeys)
          problems.append(SimulationMessages.unknownAnswer(member.key, suggestion: suggestion, at: member.keyRange))
          valid = false
          continue
        }
        guard let value = share(member) else {
          valid = false
          continue
        }
        switch member.key {
        case "rate": answers.rate = value
        case "decline": answers.decline = value
        default: answers.later = value
        }
      }
      guard valid else { return }
      let total = answers.rate + answers.decline + answers.later
      guard total <= 1 + 1e-9 else {
        problems.append(SimulationMessages.answersOverWhole(total: total, at: node.range))
        return
      }
      model.rateShare = answers.rate
      model.declineShare = answers.decline
      model.remindShare = answers.later
    }

    /// The number of `member` if it is one within `bounds`; otherwise records why not.
    mutating func number(_ member: JSONMember, in bounds: ClosedRange<Double>, unit: String) -> Double? {
      guard case .number(let text) = member.value.value, let value = Double(text), value.isFinite,
        bounds.contains(value)
      else {
        problems.append(
          SimulationMessages.numberOutOfRange(
            member.key, unit: unit, bounds: bounds, found: describe(member.value), at: member.value.range))
        return nil
      }
      return value
    }

    /// The share of `member`: a number from 0 to 1 or a string from "0%" to "100%"; otherwise records why not.
    mutating func share(_ member: JSONMember) -> Double? {
      switch member.value.value {
      case .number(let text):
        if let value = Double(text), value.isFinite, (0...1).contains(value) { return value }
      case .string(let text) where text.hasSuffix("%"):
        if let value = Double(text.dropLast()), value.isFinite, (0...100).contains(value) { return value / 100 }
      case .null, .bool, .string, .array, .object:
        break
      }
      problems.append(
        SimulationMessages.invalidShare(member.key, found: describe(member.value), at: member.value.range))
      return nil
    }

    /// `1.5`, `"often"`, or the kind of a value that is neither a number nor a string.
    func describe(_ node: JSONNode) -> String {
      switch node.value {
      case .number(let text): "`\(text)`"
      case .string(let text): "`\"\(text)\"`"
      case .null, .bool, .array, .object: node.value.kindName
      }
    }
  }
}
