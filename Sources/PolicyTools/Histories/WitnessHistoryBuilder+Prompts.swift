import PolicyCore

extension WitnessHistoryBuilder {
  /// A group of prompts shown at one instant, which may move within `low...high`.
  private struct PromptGroup {
    var time: Int64
    var low: Int64
    var high: Int64
    var count: Int64
    var isLast: Bool
  }

  /// `now - window`, the oldest instant outside the window (saturating).
  private func edge(_ window: Int64) -> Int64 {
    let (value, overflow) = now.subtractingReportingOverflow(window)
    return overflow ? Int64.min : value
  }

  /// Places `total` prompts, `inCurrentGiven` of them in this version when given, the last at
  /// `lastGiven` when given, so that each window counts its prompts (`sessionsSince`, the sessions
  /// since the last prompt when given, else 0, moves an unknown last prompt early), leaving a
  /// prompt of an earlier version for each of `lateAnswers` (the instants of late answers to
  /// them). Returns the last prompt's instant and phase (nil with no prompt), for the sessions since it.
  mutating func placePrompts(
    total: Int64, inCurrentGiven: Int64?, lastGiven: Int64?, inCurrent: Bool?,
    windows: [(window: Int64, count: Int64, name: String)], start: Int64, floor: Int64, first: Bool,
    sessionsSince: Int64, lateAnswers: [Int64] = []
  ) throws(Refusal) -> (time: Int64, phase: Double)? {
    guard total > 0 else { return nil }
    // Every prompt is a step: more prompts than a whole history may repeat steps is a limit of
    // the replay, whatever else the counts say (checked first, so no other refusal hides it).
    guard total <= Int64(WitnessHistory.maximumTotalRepetitions) else {
      throw Messages.tooLong(total, limit: WitnessHistory.maximumTotalRepetitions)
    }
    // Late answers go to prompts of an earlier version: with no prompt of this version known, there is none.
    var inCurrent = inCurrent
    if !lateAnswers.isEmpty && inCurrent == nil && inCurrentGiven == nil { inCurrent = false }
    // The last prompt: given, or in the smallest window that counts one.
    var last: Int64
    if let lastGiven {
      last = lastGiven
    } else if let index = windows.firstIndex(where: { $0.count >= 1 }) {
      // As late as its window allows; as early with sessions since it (they need room after it).
      let low = max(edge(windows[index].window) &+ 1, floor)
      last = index == 0 ? now : edge(windows[index - 1].window)
      if inCurrent == false { last = max(min(last, start), low) }
      if sessionsSince > 0 { last = max(low, inCurrent == true ? start : low) }
    } else {
      last = windows.last.map { edge($0.window) } ?? now
      if inCurrent == false { last = min(last, start) }
      if sessionsSince > 0 { last = min(last, inCurrent == true ? start : floor) }
    }
    if inCurrent == true && last < start { last = lastGiven ?? start }
    guard last >= floor else { throw Messages.timing(["last_prompt"], "it is before the install") }
    // Each window counts the prompts after its edge; the last prompt is the newest.
    var band: Int?
    for (index, window) in windows.enumerated() where band == nil && last > edge(window.window) { band = index }
    for (index, window) in windows.enumerated() {
      let within = last > edge(window.window)
      if within != (window.count >= 1) {
        throw Messages.prompts(
          [window.name, "last_prompt"],
          within
            ? "the last prompt is within the window, which counts none"
            : "the window counts prompts, but the last prompt is older")
      }
      if let band, index < band, window.count != 0 {
        throw Messages.prompts([window.name, "last_prompt"], "the window counts prompts, but the last prompt is older")
      }
    }
    var groups: [PromptGroup] = []
    var counted: Int64 = 0
    for (index, window) in windows.enumerated() {
      let need = window.count - counted
      counted = window.count
      guard let band, index > band, need > 0 else { continue }
      let high = min(edge(windows[index - 1].window), last)
      groups.append(PromptGroup(time: high, low: edge(window.window) &+ 1, high: high, count: need, isLast: false))
    }
    let rest = total - counted
    if let band {
      if rest > 0 {
        guard windows.last?.window != Int64.max else {
          throw Messages.prompts(
            [windows[windows.count - 1].name, "total_prompts"], "an infinite window counts every prompt kept")
        }
        // Older than the widest window, or pruned: the tracker keeps prompts for 730 days before the last.
        let pruned = last.subtractingReportingOverflow(ReviewLimitsView.promptRetention + 1)
        let high = max(
          min(last, edge(windows[windows.count - 1].window)), pruned.overflow ? Int64.min : pruned.partialValue)
        groups.insert(PromptGroup(time: high, low: floor, high: high, count: rest, isLast: false), at: 0)
      }
      // The last prompt, and the other prompts of its window anywhere in the window before it.
      let bandCount = windows[band].count - (band == 0 ? 0 : windows[band - 1].count)
      let low = edge(windows[band].window) &+ 1
      if bandCount > 1 {
        groups.append(PromptGroup(time: last, low: low, high: last, count: bandCount - 1, isLast: false))
      }
      groups.append(PromptGroup(time: last, low: lastGiven ?? low, high: lastGiven ?? last, count: 1, isLast: true))
    } else {
      let high = lastGiven ?? min(now, windows.last.map { edge($0.window) } ?? now)
      if rest > 1 { groups.append(PromptGroup(time: last, low: floor, high: last, count: rest - 1, isLast: false)) }
      groups.append(PromptGroup(time: last, low: lastGiven ?? floor, high: high, count: 1, isLast: true))
    }
    groups.sort { ($0.isLast ? 1 : 0, $0.time) < ($1.isLast ? 1 : 0, $1.time) }
    // The newest prompts are this version's.
    var remaining =
      inCurrentGiven ?? (inCurrent == false ? 0 : groups.filter { $0.time >= start }.reduce(0) { $0 + $1.count })
    if inCurrentGiven == nil, inCurrent == true, remaining == 0 { remaining = groups.last?.count ?? 0 }
    if inCurrentGiven == nil, inCurrent == true {
      // Leave a prompt of an earlier version for each late answer.
      remaining = max(1, min(remaining, total - Int64(lateAnswers.count)))
    }
    var placed: [(group: PromptGroup, current: Int64, earlier: Int64)] = []
    for group in groups.reversed() {
      var group = group
      let current = min(remaining, group.count)
      remaining -= current
      let earlier = group.count - current
      let facts = group.isLast ? ["last_prompt", "prompts"] : ["prompts", "total_prompts"]
      if current > 0 && group.time < start {
        guard start <= group.high else {
          throw Messages.prompts(facts, "a prompt of this version would fall before this version's first use")
        }
        group.time = start
      }
      if earlier > 0 && group.time > start {
        guard start >= group.low else {
          throw Messages.prompts(facts, "a prompt of an earlier version would fall after this version's first use")
        }
        group.time = start
      }
      if earlier > 0 && floor == start && !first && group.low > start {
        throw Messages.needsEarlierVersion(facts, "a prompt")
      }
      placed.append((group, current, earlier))
    }
    for (group, current, earlier) in placed.reversed() {
      let facts = group.isLast ? ["last_prompt", "total_prompts"] : ["total_prompts"]
      // Two late answers take two prompts, which the tracker tells apart by their instants: one
      // a millisecond earlier, within the group's window, or before the floor (the install moves).
      let room = group.time > group.low || (group.low == floor && group.time > Int64.min)
      let apart: Int64 = lateAnswers.count > 1 && earlier > 1 && room && !group.isLast ? 1 : 0
      add(
        group.time - 1, WitnessPhase.earlierTimed,
        [try repeated("shown", apart == 1 ? earlier - 1 : 0, "total_prompts", answer: "unknown")], .earlier,
        facts: facts)
      add(
        group.time, WitnessPhase.earlierTimed,
        [try repeated("shown", apart == 1 ? 1 : earlier, "total_prompts", answer: "unknown")],
        group.isLast && first ? .first : .earlier, facts: facts)
      add(
        group.time, WitnessPhase.currentTimed, [try repeated("shown", current, "prompts", answer: "unknown")], .current,
        facts: facts)
    }
    guard let newest = placed.first else { return nil }
    lastPrompt = newest.group.time
    return (newest.group.time, newest.current > 0 ? WitnessPhase.currentTimed : WitnessPhase.earlierTimed)
  }
}
