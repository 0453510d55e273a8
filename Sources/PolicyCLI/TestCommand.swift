import Foundation
import PolicyCore
import ReviewPolicy

/// `policyc test`: run the cases of policy test files; one line per case, then a total.
enum TestCommand {
  static let usage = "USAGE: policyc test [--coverage] [--format text|json] <test file or folder>...\n"

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    func usageError(_ message: String) -> Int32 {
      io.write("policyc test: error: \(message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let parsed: Arguments
    do {
      parsed = try Arguments.parse(arguments, valueOptions: ["format"], flagOptions: ["coverage", "help", "no-color"])
    } catch {
      return usageError(error.message)
    }
    if parsed.flags.contains("help") {
      io.write(Help.test, to: .standardOutput)
      return PolicyCLI.success
    }
    let format = parsed.values["format"] ?? "text"
    guard format == "text" || format == "json" else { return usageError("unknown format `\(format)`; use `text` or `json`") }
    guard !parsed.operands.isEmpty else { return usageError("no test files given") }
    let renderer = DiagnosticRenderer(usesColor: PolicyCLI.usesColor(io, disabled: parsed.flags.contains("no-color")))

    var status = PolicyCLI.success
    var paths: [String] = []
    for operand in parsed.operands {
      if io.isDirectory(operand) {
        do {
          let entries = try io.contentsOfDirectory(operand).filter { $0.hasSuffix(".test.json") }.sorted()
          if entries.isEmpty {
            io.write("policyc test: error: no .test.json files in `\(operand)`\n", to: .standardError)
            status = PolicyCLI.usageError
          }
          let base = operand.hasSuffix("/") ? operand : operand + "/"
          paths += entries.map { base + $0 }
        } catch {
          io.write("policyc test: error: cannot read `\(operand)`: \(error.reason)\n", to: .standardError)
          status = PolicyCLI.usageError
        }
      } else {
        paths.append(operand)
      }
    }
    var passed = 0
    var failed = 0
    var coverageText = ""
    var fileReports: [String] = []
    for path in paths {
      guard let loaded = CheckCommand.load(path, io: io, verb: "test") else {
        status = PolicyCLI.usageError
        continue
      }
      let file: PolicyTestFile
      switch PolicyTestFile.parse(loaded.file) {
      case .success(let parsedFile): file = parsedFile
      case .failure(let problems):
        io.write(renderer.render(problems.diagnostics, in: loaded.file), to: .standardError)
        status = max(status, PolicyCLI.failure)
        continue
      }
      // The policy, relative to the test file.
      let directory = (path as NSString).deletingLastPathComponent
      let policyPath = file.policy.hasPrefix("/") || directory.isEmpty ? file.policy : directory + "/" + file.policy
      let policyBytes: [UInt8]
      do {
        policyBytes = try io.readFile(policyPath, limit: Limits.maximumFileSize + 1).bytes
      } catch {
        let diagnostic = Diagnostic.error(
          .unusablePolicy, "cannot read the policy `\(file.policy)`: \(error.reason)", at: file.policyRange,
          help: ["the path is relative to the test file's folder"])
        io.write(renderer.render([diagnostic], in: loaded.file), to: .standardError)
        status = PolicyCLI.usageError
        continue
      }
      let policySource = SourceFile(path: policyPath, bytes: policyBytes)
      let compilation = PolicyCompiler.compile(policySource, schema: ReviewSchema.standard)
      guard let policy = compilation.policy else {
        io.write(renderer.render(compilation.diagnostics, in: compilation.source), to: .standardError)
        let diagnostic = Diagnostic.error(
          .unusablePolicy, "the policy `\(file.policy)` has errors", at: file.policyRange,
          help: ["fix the errors above, then run the tests again"])
        io.write(renderer.render([diagnostic], in: loaded.file), to: .standardError)
        status = max(status, PolicyCLI.failure)
        continue
      }
      var coverage = Coverage(policy: policy)
      var results: [CaseResult] = []
      var problems: [Diagnostic] = []
      for testCase in file.cases {
        switch TestRunner.run(testCase, file: file, policy: policy, policyText: String(decoding: policyBytes, as: UTF8.self)) {
        case .success(let result):
          coverage.record(result.explanation)
          results.append(result)
        case .failure(let caseProblems):
          problems += caseProblems.diagnostics
        }
      }
      if !problems.isEmpty {
        io.write(renderer.render(problems, in: loaded.file), to: .standardError)
        status = max(status, PolicyCLI.failure)
        continue
      }
      for result in results {
        if result.passed { passed += 1 } else { failed += 1 }
        if format == "text" { io.write(result.line + "\n", to: .standardOutput) }
      }
      if parsed.flags.contains("coverage") { coverageText += coverage.report(path: policySource.path) }
      fileReports.append(json(path: path, results: results, coverage: parsed.flags.contains("coverage") ? coverage : nil))
    }
    if failed > 0 { status = max(status, PolicyCLI.failure) }
    if format == "json" {
      io.write(
        "{\"files\":[" + fileReports.joined(separator: ",") + "],\"passed\":\(passed),\"failed\":\(failed)}\n",
        to: .standardOutput)
    } else {
      io.write(coverageText, to: .standardOutput)
      io.write("\(passed) passed, \(failed) failed\n", to: .standardOutput)
    }
    return status
  }

  static func json(path: String, results: [CaseResult], coverage: Coverage?) -> String {
    var writer = JSONWriter()
    writer.object {
      $0.key("path"); $0.string(path)
      $0.key("cases")
      $0.array {
        for result in results {
          $0.object {
            $0.key("name"); $0.string(result.name)
            $0.key("passed"); $0.bool(result.passed)
            $0.key("expected"); $0.string(result.expected)
            $0.key("actual"); $0.string(result.actual)
          }
        }
      }
      if let coverage {
        $0.key("uncovered")
        $0.array { for line in coverage.uncovered() { $0.string(line.message) } }
      }
    }
    return writer.output
  }
}

/// The outcome of one case.
struct CaseResult {
  var name: String
  var passed: Bool
  var expected: String
  var actual: String
  var explanation: Explanation

  /// `PASS  name`, or `FAIL  name: expected ..., got ...`.
  var line: String {
    passed ? "PASS  \(name)" : "FAIL  \(name): expected \(expected), got \(actual)"
  }
}

/// Runs test cases: facts cases directly, history cases through a real ``ReviewManager``.
enum TestRunner {
  static let defaultStart = Timestamp(millisecondsSince1970: 1_767_225_600_000)  // 2026-01-01T00:00:00Z

  static func run(
    _ testCase: PolicyTestCase, file: PolicyTestFile, policy: CompiledPolicy, policyText: String
  ) -> Result<CaseResult, Problems> {
    // Rule names in `deciding` must exist.
    let names = policy.rules.map { $0.name ?? $0.label }
    var problems: [Diagnostic] = []
    for (name, range) in testCase.deciding ?? [] where !names.contains(name) {
      let suggestion = EditDistance.suggestion(for: name, among: names)
      problems.append(
        .error(
          .unexpectedJSON, "the policy has no rule named `\(name)`", at: range,
          help: [suggestion.map { "did you mean `\($0)`?" } ?? "the rules are \(names.map { "`\($0)`" }.joined(separator: ", "))"]))
    }
    if !problems.isEmpty { return .failure(Problems(problems)) }

    let explanation: Explanation
    var promptCount: Int?
    if let history = testCase.history {
      switch runHistory(history, testCase, file: file, policy: policy, policyText: policyText) {
      case .success(let result):
        explanation = result.explanation
        promptCount = result.prompts
      case .failure(let failure): return .failure(failure)
      }
    } else if let factsNode = testCase.facts {
      let now = testCase.now ?? file.now
      switch FactsFile.read(factsNode, for: policy, now: now, clock: { Timestamp(Date()) }) {
      case .success(let facts): explanation = policy.explain(facts.facts)
      case .failure(let failure): return .failure(failure)
      }
    } else {
      return .failure(Problems([]))
    }
    let decision = explanation.decision
    let renderer = ExplanationRenderer()
    func describe(ask: Bool, rules: [String]?) -> String {
      (ask ? "ask" : "don't ask") + (rules.map { $0.isEmpty ? "" : " (" + $0.map { "`\($0)`" }.joined(separator: ", ") + ")" } ?? "")
    }
    let actualRules = decision.decidingRules.map { names[$0] }
    var passed = decision.shouldAsk == testCase.expectsAsk
    if let expected = testCase.deciding?.map(\.name), Set(expected) != Set(actualRules) { passed = false }
    var expected = describe(ask: testCase.expectsAsk, rules: testCase.deciding?.map(\.name))
    var actual = renderer.summary(decision, policy)
    if let fault = decision.firstFault { actual += "; fault: " + renderer.describe(fault, policy) }
    if let wanted = testCase.prompts, let promptCount {
      expected += ", \(wanted) prompt\(wanted == 1 ? "" : "s")"
      actual += ", \(promptCount) prompt\(promptCount == 1 ? "" : "s")"
      if wanted != promptCount { passed = false }
    }
    return .success(CaseResult(name: testCase.name, passed: passed, expected: expected, actual: actual, explanation: explanation))
  }

  /// A clock the history advances.
  final class HistoryClock: @unchecked Sendable {
    // @unchecked: the runner uses it from one thread at a time.
    var now: Timestamp
    init(_ now: Timestamp) { self.now = now }
  }

  /// Answers prompts with the answer of the step that triggered them, and counts them.
  final class HistoryPresenter: ReviewPresenter, @unchecked Sendable {
    // @unchecked: the runner uses it from one thread at a time.
    var answer: ReviewResponse?
    var prompts = 0
    func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
      prompts += 1
      if let answer { respond(answer) }
    }
  }

  static func runHistory(
    _ history: [HistoryStep], _ testCase: PolicyTestCase, file: PolicyTestFile, policy: CompiledPolicy,
    policyText: String
  ) -> Result<(explanation: Explanation, prompts: Int), Problems> {
    // Only the policy's own facts may be given: the standard ones come from the history.
    var appFacts: [(String, Value)] = []
    var problems: [Diagnostic] = []
    if let facts = testCase.facts, case .object(let members) = facts.value {
      for member in members {
        guard let slot = policy.layout.slot(named: member.key), case .declaration = policy.layout.slots[slot].origin else {
          problems.append(
            .error(
              .unexpectedJSON, "a history case computes `\(member.key)` from its history", at: member.keyRange,
              help: ["give only the facts the policy declares with `fact`; use a facts case to set standard facts"]))
          continue
        }
        switch FactsFile.value(member.value, for: policy.layout.slots[slot]) {
        case .success(let value?): appFacts.append((member.key, value))
        case .success(nil): break
        case .failure(let failure): problems += failure.diagnostics
        }
      }
    }
    if !problems.isEmpty { return .failure(Problems(problems)) }

    let clock = HistoryClock(testCase.start ?? file.start ?? defaultStart)
    let presenter = HistoryPresenter()
    let store = InMemoryReviewStore()
    func manager(version: String) -> ReviewManager? {
      let created = try? ReviewManager(
        configuration: .init(
          appVersion: version, bundledPolicy: policyText, store: store, clock: { Date(clock.now) },
          texts: .english, presenter: presenter))
      for (name, value) in appFacts { created?.setFact(name, value) }
      return created
    }
    guard var current = manager(version: testCase.version) else {
      return .failure(Problems([.error(.unusablePolicy, "the policy does not compile for the review manager", at: testCase.range)]))
    }
    for step in history {
      presenter.answer = step.answer
      for repetition in 0..<step.repetitions {
        if repetition > 0, let every = step.every, let next = clock.now.adding(every) { clock.now = next }
        switch step.action {
        case .launch: current.appLaunched()
        case .foreground: current.appEnteredForeground()
        case .session: current.sessionStarted()
        case .endSession: current.sessionEnded()
        case .event(let name): current.significantEvent(name)
        case .action(let score, let isBad, let mayPrompt): current.action(score: score, isBad: isBad, mayPrompt: mayPrompt)
        case .prompt: current.promptIfAppropriate()
        case .wait(let span): if let next = clock.now.adding(span) { clock.now = next }
        case .update(let version):
          if let updated = manager(version: version) { current = updated }
        }
      }
    }
    guard let (compiled, facts) = current.currentFacts() else {
      return .failure(
        Problems([.error(.unexpectedJSON, "the app version `\(testCase.version)` does not start with a number", at: testCase.range)]))
    }
    return .success((compiled.explain(facts), presenter.prompts))
  }
}

/// Which rules and conditions the cases exercised.
struct Coverage {
  let policy: CompiledPolicy
  var ruleHeld: [Bool]
  var ruleDecided: [Bool]
  /// Per rule, per condition: seen holding, seen failing.
  var conditions: [[(held: Bool, failed: Bool)]]

  init(policy: CompiledPolicy) {
    self.policy = policy
    ruleHeld = Array(repeating: false, count: policy.rules.count)
    ruleDecided = Array(repeating: false, count: policy.rules.count)
    conditions = Array(repeating: [], count: policy.rules.count)
  }

  mutating func record(_ explanation: Explanation) {
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

  struct Gap {
    var line: Int
    var message: String
  }

  /// Rules that never held or decided, and conditions that never held or never failed.
  func uncovered() -> [Gap] {
    var gaps: [Gap] = []
    for (index, rule) in policy.rules.enumerated() {
      let line = policy.source.location(of: rule.range.start).line
      let name = rule.name.map { "\(rule.kind.rawValue) \($0)" } ?? rule.label
      if !ruleHeld[index] {
        gaps.append(Gap(line: line, message: "\(policy.source.path):\(line): rule `\(name)` never held"))
      } else if !ruleDecided[index] {
        gaps.append(Gap(line: line, message: "\(policy.source.path):\(line): rule `\(name)` never decided"))
      }
      let ranges = policy.conditionRanges(ofRule: index)
      for (position, seen) in conditions[index].enumerated() where position < ranges.count {
        let location = policy.source.location(of: ranges[position].start)
        let text = policy.source.text(in: ranges[position])
        let prefix = "\(policy.source.path):\(location.line):\(location.column): `\(text)`"
        switch (seen.held, seen.failed) {
        case (false, false): gaps.append(Gap(line: location.line, message: prefix + " never evaluated"))
        case (false, true): gaps.append(Gap(line: location.line, message: prefix + " never held"))
        case (true, false): gaps.append(Gap(line: location.line, message: prefix + " never failed"))
        case (true, true): break
        }
      }
      if conditions[index].isEmpty {
        for range in ranges {
          let location = policy.source.location(of: range.start)
          gaps.append(
            Gap(
              line: location.line,
              message: "\(policy.source.path):\(location.line):\(location.column): `\(policy.source.text(in: range))` never evaluated"))
        }
      }
    }
    return gaps
  }

  /// The coverage summary and every gap, one per line.
  func report(path: String) -> String {
    let totalConditions = policy.rules.indices.reduce(0) { $0 + policy.conditionRanges(ofRule: $1).count }
    let both = conditions.reduce(0) { $0 + $1.filter { $0.held && $0.failed }.count }
    let decided = ruleDecided.filter { $0 }.count
    var output = "coverage of \(policy.source.path): \(decided) of \(policy.rules.count) rules decided a case; "
    output += "\(both) of \(totalConditions) conditions both held and failed\n"
    for gap in uncovered() { output += "  " + gap.message + "\n" }
    return output
  }
}
