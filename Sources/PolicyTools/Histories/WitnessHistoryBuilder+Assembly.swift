import PolicyCore

extension WitnessHistoryBuilder {
  /// Adds the install and the version changes, orders the items and writes them as steps.
  mutating func assemble(
    start: Int64, installRange: ClosedRange<Int64>, current: Version, previous: Version?, first: Version?
  ) throws(Refusal) -> WitnessHistory {
    var install = min(installRange.upperBound, start)
    for item in items { install = min(install, item.time) }
    guard install >= installRange.lowerBound else {
      let facts = Array(Set(items.filter { $0.time < installRange.lowerBound }.flatMap(\.facts))).sorted()
      throw Messages.timing(["install_date"] + facts, "something would happen before the install")
    }
    if previous == nil && install < start {
      let facts = Array(Set(items.filter { $0.time < start }.flatMap(\.facts))).sorted()
      throw Messages.needsEarlierVersion(facts, "something before this version's first use")
    }
    guard Timestamp(iso8601: Timestamp(millisecondsSince1970: install).description)?.millisecondsSince1970 == install
    else { throw Messages.outOfRange(["install_date", "total_days"]) }
    add(Item(time: install, phase: WitnessPhase.install, steps: ["end session"], facts: ["install_date"]))
    var segment: Segment = previous == nil ? .current : (first == nil ? .earlier : .first)
    if let first, let previous {
      guard let lastPrompt else { throw Messages.needsEarlierVersion(["last_prompt_version"], "\(first)") }
      add(
        Item(
          time: lastPrompt, phase: WitnessPhase.secondVersion, steps: ["update \(previous)", "end session"],
          facts: ["previous_version"], starts: .earlier))
    }
    if previous != nil {
      add(
        Item(
          time: start, phase: WitnessPhase.currentVersion, steps: ["update \(current)", "end session"],
          facts: ["first_use", "version"], starts: .current))
    }
    for version in [current, previous, first].compactMap({ $0 }) where Version(parsing: version.description) != version
    {
      throw Messages.sameVersion(["version"])
    }
    let ordered = items.sorted { ($0.time, $0.phase, $0.sequence) < ($1.time, $1.phase, $1.sequence) }
    var steps: [String] = []
    var clock = install
    var prompts = PromptLedger()
    for item in ordered {
      guard item.time <= now else { throw Messages.timing(item.facts, "it would be after now") }
      if item.time > clock {
        steps.append(try wait(item.time - clock, item.facts))
        clock = item.time
      }
      if let starts = item.starts { segment = starts }
      let fits: Bool
      switch item.segment {
      case .any: fits = true
      case .earlier: fits = segment == .earlier || segment == .first
      case .first: fits = segment == .first
      case .current: fits = segment == .current
      }
      guard fits else {
        throw Messages.timing(
          item.facts + ["first_use"],
          item.segment == .current
            ? "it belongs to this version but falls before its first use"
            : "it belongs to an earlier version but falls after this version's first use")
      }
      try prompts.replay(item, inEarlierVersion: segment != .current)
      steps += item.steps
    }
    if now > clock { steps.append(try wait(now - clock, ["now"])) }
    let firstVersion = first ?? previous ?? current
    return WitnessHistory(
      start: Timestamp(millisecondsSince1970: install), version: firstVersion.description, steps: steps,
      now: Timestamp(millisecondsSince1970: now))
  }

  /// `wait <span>`, checked to parse back to the same span.
  private func wait(_ milliseconds: Int64, _ facts: [String]) throws(Refusal) -> String {
    let span = TimeSpan(milliseconds: milliseconds)
    guard TimeSpan(parsing: span.description) == span else { throw Messages.outOfRange(facts) }
    return "wait \(span)"
  }
}

/// The prompts a history shows, in order, to check that each late answer (`late -> rate`) finds
/// the prompt of an earlier version it is meant for, as the tracker looks it up: the newest prompt
/// still without an answer, found by its instant and still kept.
struct PromptLedger {
  /// Prompts shown by one step at one instant; the newest `count - unanswered` have late answers.
  private struct Group {
    var time: Int64
    var count: Int64
    var inEarlierVersion: Bool
    var unanswered: Int64
  }

  private var groups: [Group] = []

  /// Applies the `shown` and `late` steps of `item`, shown in an earlier version or not.
  mutating func replay(_ item: WitnessHistoryBuilder.Item, inEarlierVersion: Bool) throws(WitnessHistoryRefusal) {
    for text in item.steps where text.hasPrefix("shown") || text.hasPrefix("late") {
      guard case .success(let step) = HistoryStep.parse(text, range: SourceRange(start: 0, end: 0)) else { continue }
      switch step.action {
      case .shown:
        let count = Int64(step.repetitions)
        groups.append(Group(time: item.time, count: count, inEarlierVersion: inEarlierVersion, unanswered: count))
      case .late:
        try answerLate(item.facts)
      case .launch, .foreground, .session, .endSession, .event, .silentEvent, .action, .prompt, .unprompted, .wait,
        .update:
        continue
      }
    }
  }

  /// Gives the newest prompt without an answer a late one, or refuses.
  private mutating func answerLate(_ facts: [String]) throws(WitnessHistoryRefusal) {
    guard groups.contains(where: \.inEarlierVersion) else {
      // No prompt of an earlier version to answer late.
      throw WitnessHistoryMessages.clockSetBack(facts, "`\(facts.last ?? "")` without `\(facts.first ?? "")`")
    }
    guard let index = groups.lastIndex(where: { $0.unanswered > 0 }) else {
      throw WitnessHistoryMessages.prompts(
        facts + ["total_prompts"], "each late answer needs a prompt of an earlier version without an answer")
    }
    let group = groups[index]
    guard group.inEarlierVersion else {
      throw WitnessHistoryMessages.prompts(
        facts + ["prompts"], "a prompt of this version would take the late answer meant for an earlier version's")
    }
    // The tracker finds a prompt by its instant (the newest at it) among those it keeps.
    var newer = group.count - group.unanswered
    for later in groups[(index + 1)...] { newer += later.count }
    let newest = groups.last?.time ?? group.time
    guard group.unanswered == group.count, !groups[(index + 1)...].contains(where: { $0.time == group.time }),
      newer < Int64(ReviewLimitsView.promptHistory), newest - group.time <= ReviewLimitsView.promptRetention
    else {
      throw WitnessHistoryMessages.prompts(
        facts + ["total_prompts"], "each late answer needs a prompt of an earlier version of its own, still kept")
    }
    groups[index].unanswered -= 1
  }
}
