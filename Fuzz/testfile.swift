// Fuzz target `testfile`: the test-file reader (PolicyTestFile.parse in
// Sources/PolicyTools/Testing/PolicyTestFile.swift) and the history-step parser (HistoryStep.parse).
//
// The input is a test file. Each of its lines is also given to HistoryStep.parse on its own,
// so the step syntax is fuzzed directly as well as inside JSON strings.
//
// Invariants (a violation calls `fuzzFail`):
// - a test file that parses has cases, each named uniquely and with facts or a history;
//   a failure has located diagnostics inside the file;
// - a history step that parses repeats 1 to 100000 times, waits a finite non-negative time,
//   and parsing its own text again gives the same step;
// - the facts of each facts case, read for Examples/review.policy (a copy below), decide the
//   same way as they explain.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore,
// ReviewPolicy and PolicyTools.
import Foundation

@testable import PolicyCore
@testable import PolicyTools
@testable import ReviewPolicy

/// Examples/review.policy, the policy of Examples/review.test.json.
let reviewPolicyText = """
  fact plan: string
  fact crashed_this_session: bool

  let engaged = days >= 14 and uses >= 10
  let loved = events("export") >= 3 or (average_score(3) ?? 0) >= 75
  let recently_asked = since(last_prompt) < 8w

  never answered when declined or rated
  never declined_recently when since(last_decline) < 26w
  never too_soon when recently_asked or since(last_reminder) < 3d
  never bad_session when session_bad or crashed_this_session
  never yearly_cap when prompts_within(365d) >= 3
  never buggy_release when version >= v3.0 and version < v3.0.3
  never same_version when has last_prompt_version and version <= last_prompt_version

  ask loyal when engaged and loved
  ask paying when plan in ["pro", "team"] and days >= 7 and uses >= 5
  """

let reviewPolicy: CompiledPolicy = {
  let compilation = PolicyCompiler.compile(reviewPolicyText, path: "review.policy", schema: ReviewSchema.standard)
  guard let policy = compilation.policy else { fuzzFail("the review policy does not compile") }
  return policy
}()

let fixedClock = Timestamp(millisecondsSince1970: 1_772_366_400_000)

/// A step as text, for comparing two parses.
func describe(_ step: HistoryStep) -> String {
  "\(step.action) x\(step.repetitions) every \(step.every.map { "\($0.milliseconds)" } ?? "-") -> \(step.answer.map(\.rawValue) ?? "-")"
}

func checkStep(_ step: HistoryStep, text: String) {
  if step.repetitions < 1 || step.repetitions > 100_000 { fuzzFail("step `\(text)` repeats \(step.repetitions) times") }
  if let every = step.every, every.milliseconds < 0 || every.isInfinite { fuzzFail("step `\(text)` every \(every)") }
  switch step.action {
  case .wait(let span):
    if span.milliseconds < 0 || span.isInfinite { fuzzFail("step `\(text)` waits \(span.milliseconds) ms") }
  case .action(let score, _, _):
    if !score.isFinite { fuzzFail("step `\(text)` has score \(score)") }
  case .event(let name?):
    if name.isEmpty { fuzzFail("step `\(text)` has an empty event name") }
  case .update(let version):
    if version.isEmpty { fuzzFail("step `\(text)` updates to an empty version") }
  default:
    break
  }
  // Parsing is a function of the text.
  switch HistoryStep.parse(text, range: step.range) {
  case .success(let again):
    if describe(again) != describe(step) { fuzzFail("step `\(text)` parses two ways") }
  case .failure:
    fuzzFail("step `\(text)` parses once only")
  }
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let source = SourceFile(path: "fuzz.test.json", bytes: bytes)

  // Each line as a history step.
  var start = 0
  for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
    let text = String(decoding: line, as: UTF8.self)
    let range = SourceRange(start: start, end: start + line.count)
    start += line.count + 1
    switch HistoryStep.parse(text, range: range) {
    case .success(let step): checkStep(step, text: text)
    case .failure(let problems):
      if problems.diagnostics.count != 1 || problems.diagnostics[0].code != PolicyToolsCode.invalidHistoryStep.code {
        fuzzFail("a history step failed with \(problems.diagnostics.map(\.code))")
      }
    }
  }

  switch PolicyTestFile.parse(source) {
  case .success(let file):
    if file.cases.isEmpty { fuzzFail("a test file without cases parsed") }
    checkRange(file.policyRange, in: bytes.count, "the policy path")
    var names = Set<String>()
    for testCase in file.cases {
      checkRange(testCase.range, in: bytes.count, "a test case")
      checkRange(testCase.expectRange, in: bytes.count, "an expectation")
      if testCase.name.isEmpty || !names.insert(testCase.name).inserted {
        fuzzFail("case name `\(testCase.name)` is empty or repeated")
      }
      if testCase.facts == nil && testCase.history == nil { fuzzFail("a case without facts or history") }
      if let prompts = testCase.prompts, prompts < 0 { fuzzFail("a case expects \(prompts) prompts") }
      for (_, range) in testCase.deciding ?? [] { checkRange(range, in: bytes.count, "a deciding rule name") }
      for step in testCase.history ?? [] {
        checkRange(step.range, in: bytes.count, "a history step")
        if step.repetitions < 1 || step.repetitions > 100_000 { fuzzFail("a step repeats \(step.repetitions) times") }
      }
      if let facts = testCase.facts {
        let now = testCase.now ?? file.now
        switch FactsFile.read(facts, for: reviewPolicy, now: now, clock: { fixedClock }) {
        case .success(let read):
          let decision = reviewPolicy.decide(read.facts)
          let explanation = reviewPolicy.explain(read.facts)
          if explanation.decision != decision { fuzzFail("explain's decision differs from decide's") }
          if decision.reason == .invalidFacts { fuzzFail("facts that were read gave invalid facts") }
          _ = ExplanationRenderer().render(explanation, of: reviewPolicy)
        case .failure(let problems):
          if problems.diagnostics.isEmpty { fuzzFail("a facts failure without diagnostics") }
          for diagnostic in problems.diagnostics {
            checkRange(diagnostic.range, in: bytes.count, "facts diagnostic \(diagnostic.code)")
          }
          _ = DiagnosticRenderer().render(problems.diagnostics, in: source)
        }
      }
    }
  case .failure(let problems):
    if problems.diagnostics.isEmpty { fuzzFail("a failure without diagnostics") }
    for diagnostic in problems.diagnostics {
      checkRange(diagnostic.range, in: bytes.count, "diagnostic \(diagnostic.code)")
    }
    _ = DiagnosticRenderer().render(problems.diagnostics, in: source)
  }
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(
    [
      #"""
      {"policy": "review.policy", "now": "2026-03-01T00:00:00Z", "cases": [
        {"name": "loyal", "facts": {"days": 31, "uses": 25, "plan": "pro", "crashed_this_session": false}, "expect": "ask", "deciding": ["loyal"]},
        {"name": "history", "history": ["launch x 21 every 2d", "event export", "action 3 bad prompt", "prompt -> remind", "wait 1w", "update 3.2", "prompt"],
         "expect": "dont_ask", "deciding": ["too_soon"], "prompts": 1}
      ]}
      """#,
      #"{"policy": 1, "cases": [{"name": "a", "facts": {"dayz": 1}, "expects": "ask", "history": ["lauch x 3"]}]}"#,
    ], fuzz)
  return 0
}
