import Foundation
import PolicyCore
import ReviewPolicy

/// The outcome of one case.
public struct CaseResult: Sendable {
  /// The case's name.
  public var name: String
  /// Whether the decision (and deciding rules and prompt count, when given) were as expected.
  public var passed: Bool
  /// The expectation in words: `ask (`loyal`)`, `don't ask, 1 prompt`.
  public var expected: String
  /// What happened, in the same words.
  public var actual: String
  /// The policy's explanation of its decision.
  public var explanation: Explanation
  /// Where the case's expectation (`"expect"`) is written in the test file.
  public var range: SourceRange
  /// For a history case, one line per step: the step as written, the prompts it showed and the
  /// rules that decided them (`2. "prompt -> remind": 1 prompt (`loyal`)`); empty for a facts case.
  public var trace: [String] = []
  /// Warnings about the case's facts, located in the test file (a fact the policy never reads, PC409).
  public var warnings: [Diagnostic] = []

  /// `PASS  name`, or `FAIL  name: expected ..., got ...`.
  public var line: String {
    passed ? "PASS  \(name)" : "FAIL  \(name): expected \(expected), got \(actual)"
  }

  /// ``line``, and for a failing case its location in `testFile` and the trace of its history.
  public func report(in testFile: SourceFile) -> String {
    guard !passed else { return line + "\n" }
    let location = testFile.location(of: range.start)
    var text = line + "\n      at \(testFile.path):\(location.line):\(location.column)\n"
    if !trace.isEmpty {
      text += "      history:\n"
      for step in trace { text += "        " + step + "\n" }
    }
    return text
  }
}

/// Runs test cases: facts cases directly, history cases through a real ``ReviewManager``.
public enum TestRunner {
  /// The start of a history when neither the case nor the file gives one: 2026-01-01T00:00:00Z.
  public static let defaultStart = Timestamp(millisecondsSince1970: 1_767_225_600_000)  // 2026-01-01T00:00:00Z

  /// Runs one case against `policy` (compiled from `policyText` in `environment`); a case's own
  /// problems (an unknown rule name, bad facts) are located in the test file. A history runs
  /// through a review manager that records the environment's event names.
  package static func run(
    _ testCase: PolicyTestCase, file: PolicyTestFile, policy: CompiledPolicy, policyText: String,
    environment: PolicyEnvironment
  ) -> Result<CaseResult, Problems> {
    // Rule names in `deciding` must exist.
    let names = policy.rules.map { $0.name ?? $0.label }
    var problems: [Diagnostic] = []
    for (name, range) in testCase.deciding ?? [] where !names.contains(name) {
      let suggestion = EditDistance.suggestion(for: name, among: names)
      problems.append(TestFileMessages.unknownRule(name, suggestion: suggestion, rules: names, at: range))
    }
    if !problems.isEmpty { return .failure(Problems(problems)) }

    let explanation: Explanation
    var promptCount: Int?
    var trace: [String] = []
    var warnings: [Diagnostic] = []
    if let history = testCase.history {
      switch runHistory(
        history, testCase, file: file, policy: policy, policyText: policyText, environment: environment)
      {
      case .success(let result):
        explanation = result.explanation
        promptCount = result.prompts
        trace = result.trace
      case .failure(let failure): return .failure(failure)
      }
    } else if let factsNode = testCase.facts {
      let now = testCase.now ?? file.now
      switch FactsFile.read(factsNode, for: policy, now: now, environment: environment, clock: { Timestamp(Date()) }) {
      case .success(let facts):
        explanation = policy.explain(facts.facts)
        warnings = facts.warnings
      case .failure(let failure): return .failure(failure)
      }
    } else {
      return .failure(Problems([]))
    }
    let decision = explanation.decision
    let renderer = ExplanationRenderer()
    func describe(ask: Bool, rules: [String]?) -> String {
      (ask ? "ask" : "don't ask")
        + (rules.map { $0.isEmpty ? "" : " (" + $0.map { "`\($0)`" }.joined(separator: ", ") + ")" } ?? "")
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
    return .success(
      CaseResult(
        name: testCase.name, passed: passed, expected: expected, actual: actual, explanation: explanation,
        range: testCase.expectRange, trace: trace, warnings: warnings))
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
    /// The deciding rules of each prompt, as indexes into the policy's rules.
    var deciding: [[Int]] = []
    func present(_ request: PromptRequest, respond: @escaping @Sendable (ReviewResponse) -> Void) {
      prompts += 1
      deciding.append(request.explanation.decision?.decidingRules.map { $0 } ?? [])
      if let answer { respond(answer) }
    }
  }

  /// Whether a test case for `policy` (compiled in `environment`) may record the event `name`:
  /// the policy's declared events, or for a policy that declares none, those the app records
  /// (a project's `events`); any name when neither names any. The policy can read no other.
  static func acceptsEvent(_ name: String, policy: CompiledPolicy, environment: PolicyEnvironment) -> Bool {
    if !policy.declaredEvents.isEmpty { return policy.declaredEvents.contains(name) }
    return environment.eventNames.isEmpty || environment.eventNames.contains(name)
  }

  static func runHistory(
    _ history: [HistoryStep], _ testCase: PolicyTestCase, file: PolicyTestFile, policy: CompiledPolicy,
    policyText: String, environment: PolicyEnvironment
  ) -> Result<(explanation: Explanation, prompts: Int, trace: [String], facts: Facts), Problems> {
    // Only the policy's own facts may be given: the standard ones come from the history.
    var appFacts: [(String, Value)] = []
    var problems: [Diagnostic] = []
    var seed: UInt64?
    if let facts = testCase.facts, case .object(let members) = facts.value {
      for member in members {
        if FactsFile.seedKeys.contains(member.key) && policy.layout.slot(named: member.key) == nil {
          // The install's seed, for `bucket("name")`: the history's store starts with it.
          if case .number(let text) = member.value.value, let value = FactsFile.seed(text) {
            seed = value
          } else {
            problems.append(FactsFileMessages.invalidSeed(member.key, withExample: false, at: member.value.range))
          }
          continue
        }
        guard let slot = policy.layout.slot(named: member.key), case .declaration = policy.layout.slots[slot].origin
        else {
          problems.append(TestFileMessages.computedFactGiven(member.key, at: member.keyRange))
          continue
        }
        switch FactsFile.value(member.value, for: policy.layout.slots[slot]) {
        case .success(let value?): appFacts.append((member.key, value))
        case .success(nil): break
        case .failure(let failure): problems += failure.diagnostics
        }
      }
    }
    // Once the policy declares its events, a step recording another name is a typo in the test;
    // so is, for a policy that declares none, a name outside those the app records.
    let declared = policy.declaredEvents
    let recorded = environment.eventNames.sorted()
    for step in history {
      guard let name = step.eventName, !acceptsEvent(name, policy: policy, environment: environment) else { continue }
      if !declared.isEmpty {
        let suggestion = EditDistance.suggestion(for: name, among: declared)
        problems.append(
          TestFileMessages.undeclaredEvent(name, suggestion: suggestion, declared: declared, at: step.range))
      } else if !recorded.contains(name) {
        let suggestion = EditDistance.suggestion(for: name, among: recorded)
        problems.append(
          TestFileMessages.unrecordedEvent(name, suggestion: suggestion, recorded: recorded, at: step.range))
      }
    }
    if !problems.isEmpty { return .failure(Problems(problems)) }

    let clock = HistoryClock(testCase.start ?? file.start ?? defaultStart)
    let presenter = HistoryPresenter()
    var initial: ReviewState?
    if let seed {
      initial = ReviewState()
      initial?.installSeed = Int64(bitPattern: seed)
    }
    let store = InMemoryReviewStore(initial)
    func manager(version: String) -> ReviewManager? {
      var configuration = ReviewManager.Configuration(
        appVersion: version, bundledPolicy: policyText, store: store, clock: { Date(clock.now) },
        texts: .english, presenter: presenter)
      configuration.eventNames = environment.eventNames
      let created = try? ReviewManager(configuration: configuration)
      for (name, value) in appFacts { created?.setFact(name, value) }
      return created
    }
    guard var current = manager(version: testCase.version) else {
      return .failure(Problems([TestFileMessages.policyRefusedByManager(at: testCase.range)]))
    }
    var trace: [String] = []
    let names = policy.rules.map { $0.name ?? $0.label }
    for (number, step) in zip(1..., history) {
      presenter.answer = step.answer
      let promptsBefore = presenter.deciding.count
      defer {
        let shown = presenter.deciding[promptsBefore...]
        var line = "\(number). \"\(step.text)\": "
        if shown.isEmpty {
          line += "no prompt"
        } else {
          let rules = Set(shown.joined()).sorted().compactMap { $0 < names.count ? "`\(names[$0])`" : nil }
          line += "\(shown.count) prompt\(shown.count == 1 ? "" : "s")"
          if !rules.isEmpty { line += " (" + rules.joined(separator: ", ") + ")" }
        }
        trace.append(line)
      }
      for repetition in 0..<step.repetitions {
        if repetition > 0, let every = step.every, let next = clock.now.adding(every) { clock.now = next }
        switch step.action {
        case .launch: current.appLaunched()
        case .foreground: current.appEnteredForeground()
        case .session: current.sessionStarted()
        case .endSession: current.sessionEnded()
        case .event(let name): current.significantEvent(name)
        case .silentEvent(let name): current.significantEvent(name, mayPrompt: false)
        case .action(let score, let isBad, let mayPrompt):
          current.action(score: score, isBad: isBad, mayPrompt: mayPrompt)
        case .prompt: current.promptIfAppropriate()
        case .shown:
          current.recordPromptShownForReplay(answer: step.answer)
          presenter.prompts += 1
          presenter.deciding.append([])
        case .unprompted:
          if let answer = step.answer { current.recordWithoutPrompt(answer) }
        case .late:
          guard let answer = step.answer, current.recordLateAnswerForReplay(answer) else {
            return .failure(
              Problems([TestFileMessages.lateAnswerWithoutPrompt(number: number, step.text, at: step.range)]))
          }
        case .wait(let span): if let next = clock.now.adding(span) { clock.now = next }
        case .update(let version):
          if let updated = manager(version: version) { current = updated }
        }
      }
      // An answer is given only to a prompt the step shows: one that shows none is a mistake in the test.
      if step.answer != nil, presenter.deciding.count == promptsBefore, !step.answersOutsidePrompt {
        let decision = current.currentFacts().map { compiled, facts in
          ExplanationRenderer().summary(compiled.explain(facts).decision, compiled)
        }
        return .failure(
          Problems([
            TestFileMessages.answerWithoutPrompt(number: number, step.text, decision: decision, at: step.range)
          ]))
      }
    }
    guard let (compiled, facts) = current.currentFacts() else {
      return .failure(Problems([TestFileMessages.invalidAppVersion(testCase.version, at: testCase.range)]))
    }
    let fresh = compiled.explain(facts)
    trace.append("then a fresh check: " + ExplanationRenderer().summary(fresh.decision, policy))
    return .success((fresh, presenter.prompts, trace, facts))
  }
}
