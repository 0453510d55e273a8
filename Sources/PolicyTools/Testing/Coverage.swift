import PolicyCore

/// Which rules and conditions the cases exercised.
public struct Coverage: Sendable {
  /// The policy covered.
  public let policy: CompiledPolicy
  /// Per rule: seen holding.
  public var ruleHeld: [Bool]
  /// Per rule: seen deciding.
  public var ruleDecided: [Bool]
  /// Per rule, per condition: seen holding, seen failing.
  public var conditions: [[(held: Bool, failed: Bool)]]

  /// No case recorded yet.
  public init(policy: CompiledPolicy) {
    self.policy = policy
    ruleHeld = Array(repeating: false, count: policy.rules.count)
    ruleDecided = Array(repeating: false, count: policy.rules.count)
    conditions = Array(repeating: [], count: policy.rules.count)
  }

  /// Records what one case's explanation exercised.
  public mutating func record(_ explanation: Explanation) {
    for trace in explanation.rules {
      if trace.outcome == .held { ruleHeld[trace.index] = true }
      if trace.isDeciding { ruleDecided[trace.index] = true }
      if conditions[trace.index].isEmpty {
        conditions[trace.index] = Array(repeating: (false, false), count: trace.conditions.count)
      }
      for (position, condition) in trace.conditions.enumerated() where position < conditions[trace.index].count {
        if condition.status == .held { conditions[trace.index][position].held = true }
        if condition.status == .failed { conditions[trace.index][position].failed = true }
      }
    }
  }

  /// Something no case exercised.
  public struct Gap: Sendable, Hashable {
    /// The line in the policy.
    public var line: Int
    /// `path:line: rule `name` never held`, and so on.
    public var message: String
  }

  /// Rules that never held or decided, and conditions that never held or never failed.
  public func uncovered() -> [Gap] {
    var gaps: [Gap] = []
    for (index, rule) in policy.rules.enumerated() {
      let line = policy.source.location(of: rule.range.start).line
      let name = rule.name.map { "\(rule.kind.rawValue) \($0)" } ?? rule.label
      if !ruleHeld[index] || !ruleDecided[index] {
        let message = TestFileMessages.uncoveredRule(name, path: policy.source.path, line: line, held: ruleHeld[index])
        gaps.append(Gap(line: line, message: message))
      }
      let ranges = policy.conditionRanges(ofRule: index)
      for (position, seen) in conditions[index].enumerated() where position < ranges.count {
        let gap: TestFileMessages.ConditionGap
        switch (seen.held, seen.failed) {
        case (false, false): gap = .neverEvaluated
        case (false, true): gap = .neverHeld
        case (true, false): gap = .neverFailed
        case (true, true): continue
        }
        gaps.append(conditionGap(ranges[position], gap))
      }
      if conditions[index].isEmpty {
        for range in ranges { gaps.append(conditionGap(range, .neverEvaluated)) }
      }
    }
    return gaps
  }

  /// The gap of the condition at `range`.
  private func conditionGap(_ range: SourceRange, _ gap: TestFileMessages.ConditionGap) -> Gap {
    let location = policy.source.location(of: range.start)
    let message = TestFileMessages.uncoveredCondition(
      policy.source.text(in: range), path: policy.source.path, line: location.line, column: location.column, gap: gap)
    return Gap(line: location.line, message: message)
  }

  /// The coverage summary and every gap, one per line.
  public func report(path: String) -> String {
    let totalConditions = policy.rules.indices.reduce(0) { $0 + policy.conditionRanges(ofRule: $1).count }
    let both = conditions.reduce(0) { $0 + $1.filter { $0.held && $0.failed }.count }
    let decided = ruleDecided.filter { $0 }.count
    var output = "coverage of \(policy.source.path): \(decided) of \(policy.rules.count) rules decided a case; "
    output += "\(both) of \(totalConditions) conditions both held and failed\n"
    for gap in uncovered() { output += "  " + gap.message + "\n" }
    return output
  }
}
