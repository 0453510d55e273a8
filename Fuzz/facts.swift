// Fuzz target `facts`: the facts-file reader (Sources/PolicyTools/JSON/JSONDocument.swift and
// Facts/FactsFile.swift), bytes in, for one fixed compiled policy that reads a fact of every type.
//
// Invariants (a violation calls `fuzzFail`):
// - the JSON parser's ranges lie inside the file and nest; a parsed document written back as
//   JSON parses to the same document; a failure points inside the file;
// - FactsFile.read succeeds with facts the policy can decide on (never "invalid facts"), where
//   every member the file gave has exactly that value, or fails with located diagnostics;
// - decide and explain agree on the facts read.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore,
// ReviewPolicy and PolicyTools.
@testable import PolicyCore
@testable import PolicyTools
@testable import ReviewPolicy

/// A policy that reads standard facts, keyed facts and a declared fact of every type.
let fixedPolicyText = """
  fact plan: string
  fact seats: int?
  fact score: number
  fact grace: duration
  fact trial_end: instant?
  fact build: version?
  fact beta: bool

  let engaged = days >= 14 and uses >= 10
  let loved = events("export") >= 3 or (average_score(3) ?? 0) >= 75

  never answered when declined or rated
  never too_soon when since(last_prompt) < 8w or since(last_reminder) < 3d
  never yearly_cap when prompts_within(365d) >= 3
  never same_version when has last_prompt_version and version <= last_prompt_version
  never trial when now < (trial_end ?? now) + grace
  never old_build when has build and build < v2.0 or version < v1.0.1
  ask loyal when engaged and loved and not beta
  ask paying when plan in ["pro", "team"] and (seats ?? 1) * 2 > 3 and score >= 7.5
  ask veteran when since(install_date) > 52w and total_events("share") > 0 and session_score > 1.5
  """

let fixedPolicy: CompiledPolicy = {
  let compilation = PolicyCompiler.compile(fixedPolicyText, path: "fixed.policy", schema: ReviewSchema.standard)
  guard let policy = compilation.policy else {
    fuzzFail("the fixed policy does not compile: \(compilation.diagnostics.map(\.message))")
  }
  return policy
}()

/// 2026-03-01T12:00:00Z: the clock, when the file gives no `now`.
let fixedClock = Timestamp(millisecondsSince1970: 1_772_366_400_000)

/// Checks that every node's range lies in its parent's.
func checkNode(_ node: JSONNode, in outer: SourceRange, count: Int) {
  checkRange(node.range, in: count, "a JSON node")
  if node.range.start < outer.start || node.range.end > outer.end { fuzzFail("a JSON node lies outside its parent") }
  switch node.value {
  case .array(let elements):
    for element in elements { checkNode(element, in: node.range, count: count) }
  case .object(let members):
    for member in members {
      checkRange(member.keyRange, in: count, "a JSON key")
      if member.keyRange.start < node.range.start || member.keyRange.end > member.value.range.start {
        fuzzFail("a JSON key lies outside its object or after its value")
      }
      checkNode(member.value, in: node.range, count: count)
    }
  default:
    break
  }
}

/// `node` written as JSON, every string escaped (control characters as `\u00XX`).
func writeJSON(_ node: JSONNode, into output: inout String) {
  func string(_ text: String) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output += "\""
  }
  switch node.value {
  case .null: output += "null"
  case .bool(let flag): output += flag ? "true" : "false"
  case .number(let text): output += text
  case .string(let text): string(text)
  case .array(let elements):
    output += "["
    for (index, element) in elements.enumerated() {
      if index > 0 { output += ", " }
      writeJSON(element, into: &output)
    }
    output += "]"
  case .object(let members):
    output += "{"
    for (index, member) in members.enumerated() {
      if index > 0 { output += ", " }
      string(member.key)
      output += ": "
      writeJSON(member.value, into: &output)
    }
    output += "}"
  }
}

/// The document without ranges, for comparing.
func shape(_ node: JSONNode) -> String {
  var text = ""
  writeJSON(node, into: &text)
  return text
}

/// Checks decide against explain on `facts`.
func checkDecision(_ policy: CompiledPolicy, _ facts: Facts) {
  let decision = policy.decide(facts)
  let explanation = policy.explain(facts)
  if explanation.decision != decision { fuzzFail("explain's decision differs from decide's") }
  if decision.reason == .invalidFacts { fuzzFail("a facts file that was read gave invalid facts: \(decision)") }
  if decision.shouldAsk {
    for index in decision.decidingRules {
      if case .faulted = explanation.rules[index].outcome { fuzzFail("a faulted rule decided to ask") }
    }
    for trace in explanation.rules where policy.rules[trace.index].kind == .never && trace.outcome != .notHeld {
      fuzzFail("asked although never rule \(trace.index) held or faulted")
    }
  }
  _ = ExplanationRenderer().render(explanation, of: policy)
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let source = SourceFile(path: "facts.json", bytes: bytes)
  let policy = fixedPolicy

  // The JSON parser on its own.
  var document: JSONNode?
  switch JSONParser.parse(source) {
  case .success(let node):
    document = node
    checkNode(node, in: SourceRange(start: 0, end: bytes.count), count: bytes.count)
    let written = shape(node)
    switch JSONParser.parse(SourceFile(path: "written.json", text: written)) {
    case .success(let again):
      if shape(again) != written { fuzzFail("JSON written back reads differently:\n\(written)\n\(shape(again))") }
    case .failure(let failure):
      fuzzFail("JSON written back does not parse (\(failure.message)):\n\(written)")
    }
  case .failure(let failure):
    checkRange(failure.range, in: bytes.count, "a JSON error")
  }

  // The facts file. A `now` in the file is used half the time; otherwise `--now` wins.
  let explicitNow: Timestamp? = bytes.count % 2 == 0 ? nil : fixedClock
  switch FactsFile.read(source, for: policy, now: explicitNow, clock: { fixedClock }) {
  case .success(let file):
    guard case .object(let members)? = document?.value else { fuzzFail("facts read from a file that is not an object") }
    for member in members where member.key != "now" {
      guard
        let slot = policy.layout.slot(named: member.key)
          ?? policy.layout.canonicalMemberName(member.key).flatMap(policy.layout.slot(named:))
      else { continue }
      let read = file.facts.value(atSlot: slot)
      switch FactsFile.value(member.value, for: policy.layout.slots[slot]) {
      case .success(let expected):
        // The last member for a slot wins (`events("a")` and `events("a" )` can name one slot).
        let last = members.last {
          $0.key != "now"
            && (policy.layout.slot(named: $0.key)
              ?? policy.layout.canonicalMemberName($0.key).flatMap(policy.layout.slot(named:))) == slot
        }
        if last?.keyRange == member.keyRange, read != expected {
          fuzzFail(
            "fact `\(member.key)` reads \(String(describing: read)), the file says \(String(describing: expected))")
        }
      case .failure:
        fuzzFail("FactsFile.read accepted a value that FactsFile.value rejects, for `\(member.key)`")
      }
    }
    for (name, _) in file.defaulted where policy.layout.slot(named: name) == nil {
      fuzzFail("defaulted fact `\(name)` is not in the policy")
    }
    checkDecision(policy, file.facts)
  case .failure(let problems):
    if problems.diagnostics.isEmpty { fuzzFail("a failure without diagnostics") }
    for diagnostic in problems.diagnostics {
      checkRange(diagnostic.range, in: bytes.count, "diagnostic \(diagnostic.code)")
      if diagnostic.severity != .error { fuzzFail("a facts-file problem that is not an error") }
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
      #"{"now": "2026-03-01T12:00:00Z", "plan": "pro", "seats": 4, "score": 8.25, "grace": "1d 12h", "beta": false, "events(\"export\")": 4, "version": "3.1", "build": null}"#,
      #"{"plan": 3, "dayz": [1, {"a": null}], "now": "soon"}"#,
    ], fuzz)
  return 0
}
