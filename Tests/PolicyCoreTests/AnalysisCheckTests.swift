import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// The analyzer's hook, with a toy domain: a check that an `ask` rule cannot ask while `frozen`.
@Suite("analyzer: extra checks through the hook")
struct AnalysisCheckTests {
  static let frozen = AnalysisCheck(name: "frozen accounts") { context in
    for (index, rule) in context.policy.rules.enumerated() where rule.kind == .ask {
      let condition = context.asks(throughRule: index) && .isTrue("frozen")
      guard context.isSatisfiable(condition) != false else { continue }
      let witness = context.witness(of: condition) { witness, decision in
        decision.decidingRules.contains(index) && witness.fact(named: "frozen")?.value == .bool(true)
      }
      guard let witness else { continue }
      context.report(
        .shadowedAskRule, "\(context.title(ofRule: index)) can ask a frozen account", at: rule.range, owner: rule.range,
        help: ["reads \(context.factsRead(byRule: index).sorted().joined(separator: ", "))"], witness: witness)
    }
  }

  @Test("a check reports with a verified witness; without the check, nothing")
  func reports() throws {
    let text = "fact frozen: bool\nfact n: int\nlet big = n > 3\nask loyal when big\nnever huge when n > 10\n"
    let policy = try compiled(text, schema: .empty)
    #expect(PolicyAnalyzer.analyze(policy).warnings == [])
    let report = PolicyAnalyzer.analyze(policy, checks: [Self.frozen])
    #expect(report.warnings.map(\.message) == ["ask rule `loyal` can ask a frozen account"])
    #expect(report.warnings.first?.help == ["reads n"])
    let witness = try #require(report.findings.first?.witness)
    let decision = policy.decide(witness.facts(for: policy))
    #expect(decision.shouldAsk && decision.decidingRules.contains(0))
    guard case .int(let n)? = witness.fact(named: "n")?.value else {
      Issue.record("no value for n")
      return
    }
    #expect(n > 3 && n <= 10)
  }

  @Test("a never rule that covers the case silences the check; so does a comment")
  func covered() throws {
    let guarded = try compiled(
      "fact frozen: bool\nfact n: int\nnever off when frozen\nask when n > 3\n", schema: .empty)
    #expect(PolicyAnalyzer.analyze(guarded, checks: [Self.frozen]).warnings == [])
    let allowed = try compiled(
      "fact frozen: bool\nfact n: int\nask when n > 3  # policyc: allow PC312\n", schema: .empty)
    let report = PolicyAnalyzer.analyze(allowed, checks: [Self.frozen])
    #expect(report.warnings == [])
    #expect(report.silenced.count == 1)
  }
}

@Suite("typed tree")
struct TypedTreeTests {
  @Test("children and forEachNode visit every node; parentheses leave the tree but not the written range")
  func children() throws {
    let policy = try compiled(
      "ask when (days > 3 and not (uses < 2)) or abs(days - 40) == 1", schema: ToySchema.standard)
    let condition = policy.rules[0].condition
    var kinds: [String] = []
    condition.forEachNode { node in
      switch node.node {
      case .logical: kinds.append("logical")
      case .compare: kinds.append("compare")
      case .not: kinds.append("not")
      case .fact: kinds.append("fact")
      case .constant: kinds.append("constant")
      case .arithmetic: kinds.append("arithmetic")
      case .call: kinds.append("call")
      case .letValue, .now, .has, .membership, .negate, .coalesce, .since, .extremum, .promote, .bucket:
        kinds.append("other")
      }
    }
    #expect(
      kinds == [
        "logical", "logical", "compare", "fact", "constant", "not", "compare", "fact", "constant",
        "compare", "call", "arithmetic", "fact", "constant", "constant",
      ])
    guard case .logical(_, let operands) = condition.node else {
      Issue.record("not a chain")
      return
    }
    #expect(operands[0].children.count == 2)
    #expect(policy.source.text(in: operands[0].range) == "days > 3 and not (uses < 2)")
    #expect(policy.source.text(in: operands[0].writtenRange) == "(days > 3 and not (uses < 2))")
  }
}
