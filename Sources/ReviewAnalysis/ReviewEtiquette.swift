import PolicyAnalysis
import PolicyCore
import ReviewPolicy

/// The review-etiquette checks of `policyc check` and `policyc analyze`, for policies over
/// ``ReviewSchema``: an `ask` rule that can ask a user who declined or rated this version
/// (PC320), ask again within 7 days of the last prompt (PC321), or ask after 3 prompts in 365
/// days (PC322). Each warning comes with a ``Witness`` on which the compiled policy asks through
/// the rule. A policy that does not read the facts a check needs gets no warning from it. The
/// codes are ReviewPolicy's own, ``ReviewPolicyCode``.
///
/// Pass ``checks`` to ``PolicyAnalyzer/analyze(_:options:checks:)``.
enum ReviewEtiquette {
  /// The etiquette checks, in the order they report.
  static let checks: [AnalysisCheck] = [
    AnalysisCheck(name: "review etiquette", codes: ReviewPolicyCode.allCases.map(\.code), run: check)
  ]

  static let day: Int64 = 86_400_000

  /// Runs PC320, PC321 and PC322 on each `ask` rule.
  static func check(_ context: inout AnalysisContext) {
    let policy = context.policy
    let layout = policy.layout
    let policyReads = Set(policy.readSlots.map { layout.slots[$0].name })
    // Once, not per rule: a policy of many rules must not cost rules × rules.
    let ruleNames = Set(policy.rules.compactMap(\.name))
    func has(_ name: String, _ type: PolicyType, optional: Bool? = nil) -> Bool {
      guard let slot = layout.slot(named: name) else { return false }
      return layout.slots[slot].type == type && (optional == nil || layout.slots[slot].isOptional == optional)
    }
    for (index, rule) in policy.rules.enumerated() where rule.kind == .ask {
      // The analysis's work budget is spent: it reports the rules left unchecked (PC318).
      if context.isOutOfBudget { return }
      let asks = context.asks(throughRule: index)
      let readNames = context.factsRead(byRule: index)
      guard context.isSatisfiable(asks) != false else { continue }
      let title = context.title(ofRule: index)
      // PC320: a user who declined or rated this version.
      var answers: [(String, Witness)] = []
      for (answer, any) in [("declined", "declined_any"), ("rated", "rated_any")] where has(answer, .bool) {
        var condition = AnalysisCondition.isTrue(answer)
        if has(any, .bool) { condition = condition && .isTrue(any) }
        let witness = context.witness(of: asks && condition) { witness, decision in
          decision.shouldAsk && decision.decidingRules.contains(index)
            && witness.fact(named: answer)?.value == .bool(true)
        }
        if let witness { answers.append((answer, witness)) }
      }
      if let first = answers.first {
        let respect = answerCondition(forRuleReading: readNames, policy: policy)
        let added = addedRule(named: "answered", when: respect, to: policy, names: ruleNames)
        context.report(
          EtiquetteMessages.asksAfterAnswer(
            title, answers: answers.map(\.0), facts: example(first.1, reading: readNames.union([first.0])),
            respect: respect, fixIt: added?.fixIt, at: rule.range), owner: rule.range, witness: first.1)
      }
      guard has("last_prompt", .instant, optional: true) else { continue }
      // PC321: within 7 days of the last prompt.
      let week = history(prompts: 1, maximumAge: 7 * day, layout: layout)
      if let witness = context.witness(
        of: asks && week,
        verify: { witness, decision in
          decision.shouldAsk && decision.decidingRules.contains(index)
            && isHistory(witness, prompts: 1, maximumAge: 7 * day)
        })
      {
        let added = addedRule(named: "too_soon", when: "since(last_prompt) < 8w", to: policy, names: ruleNames)
        context.report(
          EtiquetteMessages.asksTooSoon(
            title, facts: example(witness, reading: readNames, history: true), lastPromptAge: lastPromptAge(witness),
            fixIt: added?.fixIt, at: rule.range), owner: rule.range, witness: witness)
      }
      // PC322: after 3 prompts in 365 days.
      let year = history(prompts: 3, maximumAge: 365 * day, layout: layout)
      if let witness = context.witness(
        of: asks && year,
        verify: { witness, decision in
          decision.shouldAsk && decision.decidingRules.contains(index)
            && isHistory(witness, prompts: 3, maximumAge: 365 * day)
        })
      {
        let counts =
          policyReads.contains("total_prompts") || policyReads.contains("prompts")
          || policyReads.contains { $0.hasPrefix("prompts_within(") }
        let added = addedRule(named: "yearly_cap", when: "prompts_within(365d) >= 3", to: policy, names: ruleNames)
        context.report(
          EtiquetteMessages.asksTooOften(
            title, facts: example(witness, reading: readNames, history: true), lastPromptAge: lastPromptAge(witness),
            countsPrompts: counts, fixIt: added?.fixIt, at: rule.range), owner: rule.range, witness: witness)
      }
    }
  }

  /// The condition that respects a user's answer, in the scope of the facts a rule reads
  /// (``ReviewSchema/scopes``): `declined_any or rated_any` for a rule that reads only lifetime
  /// facts, else `declined or rated`. Only facts the policy's layout has are named.
  static func answerCondition(forRuleReading names: Set<String>, policy: CompiledPolicy) -> String {
    let schema = ReviewSchema.standard
    let families = names.map { name in name.firstIndex(of: "(").map { String(name[..<$0]) } ?? name }
    let scopes = families.compactMap { schema.scope(of: $0)?.name }
    var answers = ["declined", "rated"]
    if let lifetime = schema.scopes.first(where: { $0.name == "the whole install" }), !scopes.isEmpty,
      scopes.allSatisfy({ $0 == lifetime.name })
    {
      let counterparts = answers.compactMap { schema.counterpart(of: $0, in: lifetime) }
      if counterparts.count == answers.count, counterparts.allSatisfy({ policy.layout.slot(named: $0) != nil }) {
        answers = counterparts
      }
    }
    return answers.joined(separator: " or ")
  }

  /// The rule `never NAME when CONDITION` (`name`, or `name_2`, ... when a rule has that name)
  /// and the fix-it that adds it at the end of the file; nil for a bare condition, which must
  /// stay the file's only rule. Help lines name the rule as `name`, the advice; the fix-it's
  /// name is free in the file.
  static func addedRule(
    named name: String, when condition: String, to policy: CompiledPolicy, names: Set<String>? = nil
  ) -> (rule: String, fixIt: FixIt)? {
    let bytes = policy.source.bytes
    guard !isBareCondition(policy) else { return nil }
    let names = names ?? Set(policy.rules.compactMap(\.name))
    var chosen = name
    var suffix = 2
    while names.contains(chosen) {
      chosen = "\(name)_\(suffix)"
      suffix += 1
    }
    let rule = "never \(chosen) when \(condition)"
    let newline = bytes.last.map { $0 == UInt8(ascii: "\n") } ?? true
    return (rule, EtiquetteMessages.addRule(rule, at: bytes.count, newline: newline))
  }

  /// Whether the policy is a single bare condition (no `ask when` before it).
  static func isBareCondition(_ policy: CompiledPolicy) -> Bool {
    guard policy.rules.count == 1, let rule = policy.rules.first, rule.name == nil else { return false }
    let bytes = policy.source.bytes[rule.range.start..<rule.range.end]
    guard bytes.starts(with: "ask".utf8) else { return true }
    // `asked_count > 3` is a bare condition; `ask when` and `ask # ...` are rules.
    guard let next = bytes.dropFirst(3).first else { return false }
    let letter = next | 0x20
    return next == UInt8(ascii: "_") || (next >= 0x30 && next <= 0x39) || (letter >= 0x61 && letter <= 0x7A)
  }

  /// An example's facts for a help line, without `last_prompt` when the help describes the
  /// prompt history (`history`).
  static func example(_ witness: Witness, reading names: Set<String>, history: Bool = false) -> String {
    witness.summary(reading: history ? names.subtracting(["last_prompt"]) : names)
  }

  /// How long before `now` the witness's last prompt was, as in `1d`.
  static func lastPromptAge(_ witness: Witness) -> String {
    guard case .instant(let last)? = witness.fact(named: "last_prompt")?.value else { return "?" }
    return TimeSpan(milliseconds: witness.now.millisecondsSince1970 - last.millisecondsSince1970).description
  }

  /// The facts of a prompt history with at least `prompts` prompts, the last one less than
  /// `maximumAge` milliseconds before `now` (and not after it): `last_prompt` and
  /// `sessions_since_prompt` present, `total_prompts` at least `prompts`, and each
  /// `prompts_within(w)` consistent with them (at least 1, or `prompts` for windows of 365
  /// days or more, when the last prompt is within `w`; else 0).
  static func history(prompts: Int64, maximumAge: Int64, layout: FactLayout) -> AnalysisCondition {
    var parts: [AnalysisCondition] = [
      .isPresent("last_prompt"), .age(of: "last_prompt", atLeast: 0), .age(of: "last_prompt", atMost: maximumAge - 1),
    ]
    // A prompt records the app version, which parsed when the policy decided to ask.
    if let slot = layout.slot(named: "last_prompt_version"), layout.slots[slot].isOptional {
      parts.append(.isPresent("last_prompt_version"))
    }
    for slot in layout.slots where slot.type == .int {
      switch slot.name {
      case "sessions_since_prompt" where slot.isOptional:
        parts.append(.isPresent(slot.name))
        parts.append(.int(slot.name, atLeast: 0))
      case "total_prompts": parts.append(.int(slot.name, atLeast: prompts))
      case "prompts": parts.append(.int(slot.name, atLeast: 0))
      default:
        guard case .family("prompts_within", .duration(let window)) = slot.origin else { continue }
        let need = window.milliseconds >= 365 * day ? prompts : 1
        let within =
          AnalysisCondition.age(of: "last_prompt", atMost: window.milliseconds - 1)
          && .int(slot.name, atLeast: need)
        let outside =
          AnalysisCondition.age(of: "last_prompt", atLeast: window.milliseconds)
          && .int(slot.name, equals: 0)
        parts.append(within || outside)
      }
    }
    return .all(parts)
  }

  /// Whether `witness` is a prompt history as ``history(prompts:maximumAge:layout:)`` describes:
  /// the last prompt within `maximumAge`, and each window counting what the scenario needs. The
  /// rest (counts growing with the window, `total_prompts` at least each) the schema's relations
  /// already give every witness.
  static func isHistory(_ witness: Witness, prompts: Int64, maximumAge: Int64) -> Bool {
    guard case .instant(let last)? = witness.fact(named: "last_prompt")?.value else { return false }
    let age = witness.now.millisecondsSince1970 - last.millisecondsSince1970
    guard age >= 0 && age < maximumAge else { return false }
    for fact in witness.facts where fact.name.hasPrefix("prompts_within(") {
      guard case .int(let count)? = fact.value,
        let span = TimeSpan(parsing: fact.name.dropFirst("prompts_within(".count).dropLast())
      else { continue }
      let need: Int64 = span.milliseconds >= 365 * day ? prompts : 1
      if age < span.milliseconds ? count < need : count != 0 { return false }
    }
    if case .int(let total)? = witness.fact(named: "total_prompts")?.value, total < prompts { return false }
    return true
  }
}
