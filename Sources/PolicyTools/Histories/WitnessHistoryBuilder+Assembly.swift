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
