import Testing

@testable import PolicyAnalysis
@testable import PolicyCore

/// The limits as a value and the work budgets that keep compiling and analysing any text linear in
/// its size. Bounds are asserted on counted work (the analysis's work units, the rules the parser
/// kept), never on timers.
@Suite("limits and work budgets")
struct WorkBudgetTests {
  /// Small limits with every count set, so each test stays tiny.
  static let small = PolicyLimits(
    subject: "update", maximumSize: 4096, maximumNestingDepth: 8, maximumIdentifierLength: 16,
    maximumStringLength: 32, maximumDeclarations: 100, maximumListLength: 4, maximumRules: 3, maximumLets: 2,
    maximumFactDeclarations: 2, maximumEventDeclarations: 3, maximumExpressionNodes: 40)

  static func compile(_ text: String, limits: PolicyLimits = small) -> Compilation {
    PolicyCompiler.compile(text, path: "update.policy", schema: ToySchema.standard, limits: limits)
  }

  /// The codes of a compilation's errors.
  static func errorCodes(_ compilation: Compilation) -> [DiagnosticCode] {
    compilation.diagnostics.filter { $0.severity == .error }.map(\.code)
  }

  @Test("the file limits are those of `Limits`, and unchanged")
  func fileLimits() {
    let file = PolicyLimits.file
    #expect(file.maximumSize == Limits.maximumFileSize && file.maximumSize == 2 * 1024 * 1024)
    #expect(file.maximumNestingDepth == 64 && file.maximumIdentifierLength == 128)
    #expect(file.maximumStringLength == 4096 && file.maximumDeclarations == 65_536 && file.maximumListLength == 4096)
    // A file of 65,536 rules is within its limits: the counts are bounded by the declarations alone.
    #expect(file.maximumRules >= file.maximumDeclarations && file.maximumExpressionNodes == .max)
    #expect(
      PolicyLimits.describe(bytes: 2 * 1024 * 1024) == "2 MiB" && PolicyLimits.describe(bytes: 65_536) == "64 KiB")
  }

  @Test(
    "each count past its limit is its own error, at the declaration that passes it, and stops the parse",
    arguments: [
      ("ask when rated\nask when declined\nnever when feedback\nask when days > 1\nask when zz\n", "PC122", 4),
      ("let a = 1\nlet b = 2\nlet c = 3\nask when days > a + b + c + zz\n", "PC123", 3),
      ("fact a: int\nfact b: int\nfact c: int\nask when a + b + c > zz\n", "PC124", 3),
      ("event a, b\nevent c, d\nask when events(\"a\") > zz\n", "PC125", 2),
      (
        "ask when days > 1 and days > 2 and days > 3 and days > 4 and days > 5 and days > 6 and days > 7 and days > 8 and days > 9 and days > 10 and days > 11 and days > 12 and days > 13 and days > 14\nask when zz\n",
        "PC126", 1
      ),
    ])
  func countLimits(text: String, code: String, line: Int) {
    let compilation = Self.compile(text)
    // One error: the limit's. The rest of the text (with its unknown name `zz`) was not read.
    #expect(Self.errorCodes(compilation).map(\.rawValue) == [code])
    let error = compilation.diagnostics[0]
    #expect(compilation.source.location(of: error.range.start).line == line)
    #expect(error.message.hasPrefix("update "))
    #expect(error.help.first?.hasPrefix("the limit is ") == true)
    #expect(compilation.syntax.declarations.count < text.split(separator: "\n").count)
  }

  @Test("within every limit, the same texts compile")
  func withinLimits() {
    #expect(!Self.compile("ask when rated\nask when declined\nnever when feedback\n").hasErrors)
    #expect(!Self.compile("let a = 1\nlet b = 2\nask when days > a + b\n").hasErrors)
    #expect(!Self.compile("fact a: int\nfact b: int\nask when a + b > 1\n").hasErrors)
    #expect(!Self.compile("event a, b, c\nask when events(\"a\") > 1\n").hasErrors)
  }

  @Test("sizes, identifiers, strings, lists and nesting take the limits' numbers")
  func sizeLimits() {
    let big = Self.compile(String(repeating: "#\n", count: 2049))
    #expect(Self.errorCodes(big) == [.fileTooLarge])
    #expect(big.diagnostics[0].message == "update is 4098 bytes; the limit is 4096 bytes (4 KiB)")
    let name = Self.compile("ask when abcdefghijklmnopq\n")
    #expect(Self.errorCodes(name) == [.identifierTooLong])
    #expect(name.diagnostics[0].message.hasSuffix("is 17 bytes long; the limit is 16"))
    #expect(
      Self.errorCodes(Self.compile("fact plan: string\nask when plan == \"\(String(repeating: "a", count: 33))\"\n"))
        == [
          .stringTooLong
        ])
    #expect(Self.errorCodes(Self.compile("ask when days in [1, 2, 3, 4, 5]\n")) == [.listTooLong])
    let nested = String(repeating: "(", count: 9) + "rated" + String(repeating: ")", count: 9)
    #expect(Self.errorCodes(Self.compile("ask when \(nested)\n")) == [.nestingTooDeep])
    // The file limits take the same text.
    #expect(!Self.compile("ask when \(nested)\n", limits: .file).hasErrors)
  }

  /// A check like a host's etiquette: for each `ask` rule, a witness where the policy asks
  /// through it. Each witness is verified by deciding the whole policy: without a budget,
  /// rules × rules work.
  static let witnessCheck = AnalysisCheck(name: "witness per rule") { context in
    for (index, rule) in context.policy.rules.enumerated() where rule.kind == .ask {
      if context.isOutOfBudget { return }
      let asks = context.asks(throughRule: index)
      _ = context.witness(of: asks && .isTrue("rated")) { _, decision in
        decision.shouldAsk && decision.decidingRules.contains(index)
      }
    }
  }

  /// `count` rules that all decide on the same facts: the shape that took minutes.
  static func manyAskRules(_ count: Int) -> CompiledPolicy? {
    let text = (0..<count).map { "ask r\($0) when uses > 1 or rated\n" }.joined()
    return PolicyCompiler.compile(text, schema: ToySchema.standard).policy
  }

  @Test("the analysis spends work linear in the policy, however many rules every witness decides")
  func analysisWorkIsLinear() throws {
    var spentPerCondition: [Double] = []
    for count in [100, 400, 1600] {
      let policy = try #require(Self.manyAskRules(count))
      let options = AnalysisOptions.all
      let report = PolicyAnalyzer.analyze(policy, options: options, checks: [Self.witnessCheck])
      let conditions = Analysis.size(of: policy)
      #expect(report.workSpent <= options.workBudget(forConditions: conditions))
      spentPerCondition.append(Double(report.workSpent) / Double(conditions))
      if count == 1600 {
        // Out of budget: the analysis says so once, at the start, and how many rules it left.
        let incomplete = report.warnings.filter { $0.code == .analysisIncomplete }
        #expect(incomplete.count == 1)
        #expect(incomplete.first?.range.start == 0)
        #expect(incomplete.first?.message.contains("rules were not checked") == true)
      }
    }
    // The work per condition does not grow with the policy: bounded by the budget's rate.
    let bound = Double(AnalysisOptions.all.workPerCondition) + Double(AnalysisOptions.all.baseWork) / 300
    #expect(spentPerCondition.allSatisfy { $0 <= bound }, "\(spentPerCondition)")
  }

  @Test("a small policy is analysed fully, with no warning about the budget")
  func smallPolicyComplete() throws {
    let policy = try #require(Self.manyAskRules(10))
    let report = PolicyAnalyzer.analyze(policy, checks: [Self.witnessCheck])
    #expect(!report.warnings.contains { $0.code == .analysisIncomplete })
    #expect(report.isComplete)
  }

  @Test("the budget is linear: base work plus work per condition, capped")
  func budgetFormula() {
    let options = AnalysisOptions(searchSteps: 1_000_000, baseWork: 1000, workPerCondition: 10)
    #expect(options.workBudget(forConditions: 0) == 1000)
    #expect(options.workBudget(forConditions: 100) == 2000)
    #expect(options.workBudget(forConditions: 10_000_000) == 1_000_000)
    #expect(options.workBudget(forConditions: .max) == 1_000_000)
  }

  @Test("rules past the inline set that decide are kept in order, each once, whatever the insertion order")
  func spilledRuleIndices() {
    var indices = RuleIndices()
    for index in stride(from: 0, to: 20_000, by: 1) { indices.insert(index) }
    indices.insert(5000)
    #expect(indices.count == 20_000)
    #expect(Array(indices) == Array(0..<20_000))
    var unordered = RuleIndices()
    for index in [900, 300, 700, 300, 1000, 256, 5] { unordered.insert(index) }
    #expect(Array(unordered) == [5, 256, 300, 700, 900, 1000])
    #expect(unordered.contains(700) && !unordered.contains(701) && unordered.count == 6)
  }

  @Test("a policy of 20,000 ask rules that all hold decides with every rule, in order")
  func manyDecidingRules() throws {
    let text = String(repeating: "ask when uses > 1\n", count: 20_000)
    let policy = try #require(PolicyCompiler.compile(text, schema: ToySchema.standard).policy)
    var facts = policy.makeFacts(now: Timestamp(millisecondsSince1970: 0))
    try facts.set("uses", to: .int(2))
    let decision = policy.decide(facts)
    #expect(decision.shouldAsk && decision.decidingRules.count == 20_000)
    #expect(decision.decidingRules.contains(19_999) && Array(decision.decidingRules).last == 19_999)
  }

  @Test("the banded edit distance agrees with the full table (a swap of adjacent letters is one edit)")
  func bandedDistance() {
    func reference(_ a: String, _ b: String) -> Int {
      let lhs = Array(a.utf8.map { $0 | 0x20 })
      let rhs = Array(b.utf8.map { $0 | 0x20 })
      guard !lhs.isEmpty, !rhs.isEmpty else { return max(lhs.count, rhs.count) }
      var table = (0...lhs.count).map { i in (0...rhs.count).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
      for i in 1...lhs.count {
        for j in 1...rhs.count {
          let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
          table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
          if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
            table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
          }
        }
      }
      return table[lhs.count][rhs.count]
    }
    #expect(reference("exprot", "export") == 1)
    var random = SeededGenerator(seed: 23)
    let letters = Array("abcdz")
    for _ in 0..<3000 {
      let a = String(
        (0..<Int.random(in: 0...9, using: &random)).map { _ in letters.randomElement(using: &random) ?? "a" })
      let b = String(
        (0..<Int.random(in: 0...9, using: &random)).map { _ in letters.randomElement(using: &random) ?? "a" })
      for limit in 1...3 {
        let expected = reference(a, b)
        #expect(EditDistance.distance(a, b, limit: limit) == (expected <= limit ? expected : nil), "\(a) \(b) \(limit)")
      }
    }
  }

  @Test("did-you-mean stops after its work: a huge list of same-length names costs a bounded amount")
  func suggestionWorkIsBounded() {
    let candidates = (0..<100_000).map { "n\(String($0 + 100_000))" }
    // Within the work, the closest name is found...
    #expect(EditDistance.suggestion(for: "n100001x", among: candidates) == "n100001")
    // ...and a name only past it is not looked at.
    #expect(EditDistance.suggestion(for: "n199999x", among: candidates) == nil)
    #expect(EditDistance.suggestion(for: "n199999x", among: candidates, maximumWork: .max) == "n199999")
  }
}
