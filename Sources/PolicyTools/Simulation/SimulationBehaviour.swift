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
/// 0 to 1 or strings such as `"70%"`. `segments` names groups of users with their own settings
/// (``SimulationSegment``):
///
/// ```json
/// { "events": {"export": 1},
///   "segments": {"buyers": {"share": "20%", "events": {"purchase": 0.05}},
///                "others": {"share": "80%"}} }
/// ```
///
/// Problems are located in the file: invalid JSON (and a key given twice, such as a segment
/// name) is PC401, anything else PC408.
public enum SimulationBehaviour {
  /// The keys of a behaviour file, in documentation order.
  public static let keys = [
    "events", "facts", "releaseEvery", "sessionsPerDay", "answers", "heavyShare", "heavyOpenRate", "lightOpenRate",
    "badSessions", "segments",
  ]

  /// The keys of a segment: its share, and the top-level keys it can change, in documentation order.
  public static let segmentKeys = [
    "share", "events", "facts", "sessionsPerDay", "answers", "heavyShare", "heavyOpenRate", "lightOpenRate",
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

    /// The `answers` of each segment that gives some, by segment name: checked against the top
    /// level's answers once the whole file is read.
    var segmentAnswers: [String: SourceRange] = [:]

    /// Reads the root object.
    mutating func read(_ root: JSONNode) {
      guard case .object(let members) = root.value else {
        problems.append(SimulationMessages.behaviourNotAnObject(kind: root.value.kindName, at: root.range))
        return
      }
      for member in members {
        switch member.key {
        case "events": if let events = readEvents(member.value) { model.events = events }
        case "facts": if let facts = readFacts(member.value) { model.facts = facts }
        case "releaseEvery":
          if let days = number(member, in: 0...3650, unit: "a whole number of days") {
            if let whole = Int(exactly: days) {
              model.releaseEvery = whole
            } else {
              problems.append(SimulationMessages.fractionalReleaseEvery(at: member.value.range))
            }
          }
        case "sessionsPerDay": if let value = sessionsPerDay(member) { model.sessionsPerDay = value }
        case "answers":
          guard let answers = readAnswers(member.value) else { break }
          let total =
            (answers.rate ?? model.rateShare) + (answers.decline ?? model.declineShare)
            + (answers.later ?? model.remindShare)
          guard total <= 1 + 1e-9 else {
            problems.append(SimulationMessages.answersOverWhole(total: total, at: member.value.range))
            break
          }
          if let rate = answers.rate { model.rateShare = rate }
          if let decline = answers.decline { model.declineShare = decline }
          if let later = answers.later { model.remindShare = later }
        case "heavyShare": if let value = share(member) { model.heavyShare = value }
        case "heavyOpenRate": if let value = share(member) { model.heavyOpenRate = value }
        case "lightOpenRate": if let value = share(member) { model.lightOpenRate = value }
        case "badSessions": if let value = share(member) { model.badSessionRate = value }
        case "segments": readSegments(member.value)
        default:
          let suggestion = EditDistance.suggestion(for: member.key, among: SimulationBehaviour.keys)
          problems.append(
            SimulationMessages.unknownBehaviourKey(member.key, suggestion: suggestion, at: member.keyRange))
        }
      }
      // A segment's answers with the top level's answers it does not give.
      for segment in model.segments {
        guard let range = segmentAnswers[segment.name] else { continue }
        let resolved = segment.model(over: model)
        let total = resolved.rateShare + resolved.remindShare + resolved.declineShare
        if total > 1 + 1e-9 {
          problems.append(SimulationMessages.segmentAnswersOverWhole(segment.name, total: total, at: range))
        }
      }
      // In file order (the checks above come after the keys they follow).
      problems = problems.enumerated().sorted {
        ($0.element.range.start, $0.offset) < ($1.element.range.start, $1.offset)
      }.map(\.element)
    }

    /// The mean sessions per day of `member`, 1 to 20; otherwise records why not.
    mutating func sessionsPerDay(_ member: JSONMember) -> Double? {
      number(member, in: 1...20, unit: "a number")
    }

    /// Reads `events`: an object from event names to mean counts per session; nil when it is not an object.
    mutating func readEvents(_ node: JSONNode) -> [SimulationEventRate]? {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.eventsNotAnObject(kind: node.value.kindName, at: node.range))
        return nil
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
      return events
    }

    /// Reads `facts`: an object from fact names to objects from values to shares; nil when it is not an object.
    mutating func readFacts(_ node: JSONNode) -> [SimulationFactDistribution]? {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.factsNotAnObject(kind: node.value.kindName, at: node.range))
        return nil
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
      return facts
    }

    /// Reads `answers`: the shares of "rate", "no thanks" and "remind me later" it gives; nil when
    /// it has a problem.
    mutating func readAnswers(_ node: JSONNode) -> (rate: Double?, decline: Double?, later: Double?)? {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.answersNotAnObject(kind: node.value.kindName, at: node.range))
        return nil
      }
      var answers: (rate: Double?, decline: Double?, later: Double?) = (nil, nil, nil)
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
      return valid ? answers : nil
    }

    /// Reads `segments`: an object from segment names to segments, whose shares add up to 1.
    mutating func readSegments(_ node: JSONNode) {
      guard case .object(let members) = node.value else {
        problems.append(SimulationMessages.segmentsNotAnObject(kind: node.value.kindName, at: node.range))
        return
      }
      guard !members.isEmpty else {
        problems.append(SimulationMessages.noSegments(at: node.range))
        return
      }
      var segments: [SimulationSegment] = []
      var valid = true
      for (index, member) in members.enumerated() {
        guard index < SimulationSegment.maximumCount else {
          problems.append(SimulationMessages.tooManySegments(at: member.keyRange))
          valid = false
          break
        }
        guard !member.key.isEmpty else {
          problems.append(SimulationMessages.emptySegmentName(at: member.keyRange))
          valid = false
          continue
        }
        guard member.key.utf8.count <= SimulationSegment.maximumNameBytes else {
          problems.append(SimulationMessages.longSegmentName(bytes: member.key.utf8.count, at: member.keyRange))
          valid = false
          continue
        }
        guard let segment = readSegment(member) else {
          valid = false
          continue
        }
        segments.append(segment)
      }
      guard valid else { return }
      let total = segments.reduce(0) { $0 + $1.share }
      guard abs(total - 1) <= 1e-6 else {
        problems.append(SimulationMessages.segmentSharesNotWhole(total: total, at: node.range))
        return
      }
      model.segments = segments
    }

    /// Reads the segment `member`; nil when it has a problem.
    mutating func readSegment(_ member: JSONMember) -> SimulationSegment? {
      let name = member.key
      guard case .object(let members) = member.value.value else {
        problems.append(
          SimulationMessages.segmentNotAnObject(name, kind: member.value.value.kindName, at: member.value.range))
        return nil
      }
      let before = problems.count
      var segment = SimulationSegment(name: name, share: 0)
      var share: Double?
      var shareGiven = false
      for setting in members {
        switch setting.key {
        case "share":
          shareGiven = true
          share = self.share(setting)
        case "events": if let events = readEvents(setting.value) { segment.events = events }
        case "facts": if let facts = readFacts(setting.value) { segment.facts = facts }
        case "sessionsPerDay": segment.sessionsPerDay = sessionsPerDay(setting)
        case "answers":
          guard let answers = readAnswers(setting.value) else { break }
          segment.rateShare = answers.rate
          segment.declineShare = answers.decline
          segment.remindShare = answers.later
          segmentAnswers[name] = setting.value.range
        case "heavyShare": segment.heavyShare = self.share(setting)
        case "heavyOpenRate": segment.heavyOpenRate = self.share(setting)
        case "lightOpenRate": segment.lightOpenRate = self.share(setting)
        case "badSessions": segment.badSessionRate = self.share(setting)
        case "releaseEvery":
          problems.append(SimulationMessages.releaseEveryInSegment(segment: name, at: setting.keyRange))
        case "segments":
          problems.append(SimulationMessages.nestedSegments(segment: name, at: setting.keyRange))
        default:
          let suggestion = EditDistance.suggestion(for: setting.key, among: SimulationBehaviour.segmentKeys)
          problems.append(
            SimulationMessages.unknownSegmentKey(
              setting.key, segment: name, suggestion: suggestion, at: setting.keyRange))
        }
      }
      if !shareGiven { problems.append(SimulationMessages.missingSegmentShare(name, at: member.keyRange)) }
      guard problems.count == before, let share else { return nil }
      segment.share = share
      return segment
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
