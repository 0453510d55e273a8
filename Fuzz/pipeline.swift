// Fuzz target `pipeline`: the whole language, bytes in.
//
// bytes -> parse -> check against ReviewSchema.standard -> if it compiles, decide and explain on
// several fact snapshots derived from the input -> format -> reformat and reparse.
//
// Invariants (a violation calls `fuzzFail`, which traps so libFuzzer records the input):
// - decide and explain agree: the same decision, and the decision the rule traces imply (never
//   rules that held or faulted decide "don't ask"; else ask rules that held decide "ask");
// - a faulted rule never makes the decision ask;
// - formatting is idempotent and the reformatted text parses to the same tree (SyntaxDump) with
//   the same comments, at the default width and at a width from 40 to 120 picked by the input;
// - the formatted policy checks with the same diagnostic codes and decides the same way.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore,
// PolicyAnalysis (the formatter) and ReviewPolicy.

@testable import PolicyAnalysis
@testable import PolicyCore
@testable import ReviewPolicy

/// The literals written in the policy, by type: fact values near them make conditions go both ways.
struct Literals {
  var ints: [Int64] = []
  var numbers: [Int64] = []
  var durations: [Int64] = []
  var versions: [Version] = []
  var strings: [String] = []

  init(_ file: PolicyFile) {
    for declaration in file.declarations {
      switch declaration {
      case .fact(let fact): if let value = fact.defaultValue { collect(value) }
      case .let(let definition): collect(definition.value)
      case .rule(let rule): collect(rule.condition)
      case .events(let declaration): strings.append(contentsOf: declaration.names.map(\.name))
      }
    }
  }

  mutating func collect(_ expr: Expr) {
    if case .literal(let literal) = expr.kind {
      switch literal {
      case .bool: break
      case .int(let value): ints.append(value)
      case .number(let value): numbers.append(value.scaled)
      case .duration(let value, _): durations.append(value.milliseconds)
      case .version(let value): versions.append(value)
      case .string(let value): strings.append(value)
      }
    }
    for child in expr.kind.children { collect(child) }
  }
}

/// Values for facts of each type: extremes, small values and values around the policy's literals.
struct ValueMaker {
  var random: FuzzRandom
  let literals: Literals

  mutating func near(_ values: [Int64]) -> Int64? {
    guard let value = random.pick(values) else { return nil }
    switch random.below(5) {
    case 0: return value &- 1
    case 1: return value &+ 1
    case 2: return 0 &- value
    default: return value
    }
  }

  mutating func word(_ literals: [Int64], scale: Int64) -> Int64 {
    switch random.below(10) {
    case 0: return .max
    case 1: return .min
    case 2: return 0
    case 3: return Int64(bitPattern: random.next())
    case 4, 5: return Int64(random.below(200) - 20) &* scale
    default: return near(literals) ?? Int64(random.below(100)) &* scale
    }
  }

  mutating func instant(now: Int64) -> Int64 {
    switch random.below(8) {
    case 0: return .max
    case 1: return .min
    case 2: return now
    case 3: return Int64(bitPattern: random.next())
    default:
      let span = near(literals.durations) ?? Int64(random.below(1000)) * 3_600_000
      return random.chance(80) ? now &- span : now &+ span
    }
  }

  mutating func value(_ type: PolicyType, now: Int64) -> Value {
    switch type {
    case .bool: return .bool(random.chance(50))
    case .int: return .int(word(literals.ints, scale: 1))
    case .number:
      return .number(Number(scaled: word(literals.numbers + literals.ints.map { $0 &* 1_000_000 }, scale: 1_000_000)))
    case .duration: return .duration(TimeSpan(milliseconds: word(literals.durations, scale: 86_400_000)))
    case .instant: return .instant(Timestamp(millisecondsSince1970: instant(now: now)))
    case .version:
      if random.chance(70), let version = random.pick(literals.versions) {
        var parts = version.parts
        if random.chance(40), !parts.isEmpty {
          let index = random.below(parts.count)
          parts[index] = random.chance(50) ? parts[index] &+ 1 : parts[index] &- 1
        }
        return .version(Version(parts: parts) ?? version)
      }
      return .version(
        Version(
          high: random.chance(50) ? random.next() : UInt64(random.below(5)) << 32,
          low: random.chance(30) ? random.next() : 0))
    case .string:
      if random.chance(75), let text = random.pick(literals.strings) { return .string(text) }
      return .string(random.pick(["", "pro", "free", "\u{0}", "é", "a\"b"]) ?? "")
    }
  }
}

/// One snapshot: `now`, and a value (nil: absent or unset) for each slot name.
struct Snapshot {
  var now: Timestamp
  var values: [(name: String, value: Value?)]

  /// The facts for `policy`, set by name (so the same snapshot fits the formatted policy too).
  func facts(for policy: CompiledPolicy) -> Facts {
    var facts = policy.makeFacts(now: now)
    for (name, value) in values {
      do {
        if let value { try facts.set(name, to: value) } else { try facts.setAbsent(name) }
      } catch {
        fuzzFail("setting `\(name)` from the policy's own layout failed: \(error)")
      }
    }
    return facts
  }
}

func makeSnapshot(_ policy: CompiledPolicy, _ maker: inout ValueMaker) -> Snapshot {
  let now: Int64
  switch maker.random.below(12) {
  case 0: now = .max
  case 1: now = .min
  case 2: now = 0
  case 3: now = Int64(bitPattern: maker.random.next())
  default: now = 1_772_366_400_000 + Int64(maker.random.below(1000)) * 86_400_000  // from 2026-03-01
  }
  var values: [(String, Value?)] = []
  for slot in policy.layout.slots {
    if slot.isOptional && maker.random.chance(35) {
      values.append((slot.name, nil))
    } else if slot.defaultValue != nil && maker.random.chance(30) {
      continue  // keep the default
    } else if slot.defaultValue == nil && !slot.isOptional && maker.random.chance(3) {
      continue  // leave a required fact missing: invalid facts
    } else {
      values.append((slot.name, maker.value(slot.type, now: now)))
    }
  }
  return Snapshot(now: Timestamp(millisecondsSince1970: now), values: values)
}

/// Checks decide against explain on `facts`; returns the decision.
@discardableResult
func checkDecision(_ policy: CompiledPolicy, _ facts: Facts) -> Decision {
  let decision = policy.decide(facts)
  if policy.decide(facts) != decision { fuzzFail("decide is not deterministic") }
  let explanation = policy.explain(facts)
  if explanation.decision != decision {
    fuzzFail("explain's decision \(explanation.decision) differs from decide's \(decision)")
  }
  let renderer = ExplanationRenderer()
  _ = renderer.render(explanation, of: policy)
  _ = renderer.summary(decision, policy)
  if let fault = decision.firstFault { _ = renderer.describe(fault, policy) }

  if decision.reason == .invalidFacts {
    if decision.shouldAsk || !explanation.rules.isEmpty { fuzzFail("invalid facts must not ask and have no traces") }
    return decision
  }
  if explanation.rules.count != policy.rules.count {
    fuzzFail("explain traced \(explanation.rules.count) of \(policy.rules.count) rules")
  }
  var neverDeciding: [Int] = []
  var askHeld: [Int] = []
  var neverFaults: [(Int, FaultKind)] = []
  var askFaults: [(Int, FaultKind)] = []
  for (position, trace) in explanation.rules.enumerated() {
    if trace.index != position { fuzzFail("rule traces out of order") }
    let kind = policy.rules[trace.index].kind
    switch (kind, trace.outcome) {
    case (.never, .held): neverDeciding.append(trace.index)
    case (.never, .faulted(let fault)):
      neverDeciding.append(trace.index)
      neverFaults.append((trace.index, fault))
    case (.ask, .held): askHeld.append(trace.index)
    case (.ask, .faulted(let fault)): askFaults.append((trace.index, fault))
    case (_, .notHeld): break
    }
  }
  let describe = { "decide: \(decision); traces: \(explanation.rules.map { "\($0.index):\($0.outcome)" })" }
  let expectedAsk = neverDeciding.isEmpty && !askHeld.isEmpty
  if decision.shouldAsk != expectedAsk { fuzzFail("shouldAsk disagrees with the traced rules. \(describe())") }
  let expectedRules = neverDeciding.isEmpty ? askHeld : neverDeciding
  if Array(decision.decidingRules) != expectedRules {
    fuzzFail("deciding rules disagree with the traced rules. \(describe())")
  }
  let expectedReason: DecisionReason =
    !neverDeciding.isEmpty ? .neverRuleHeld : (askHeld.isEmpty ? .noAskRuleHeld : .askRuleHeld)
  if decision.reason != expectedReason { fuzzFail("reason disagrees with the traced rules. \(describe())") }
  let counted = neverFaults + (neverDeciding.isEmpty ? askFaults : [])
  if decision.faultCount != counted.count { fuzzFail("fault count disagrees with the traced rules. \(describe())") }
  if let first = counted.first {
    if decision.firstFault?.rule != first.0 || decision.firstFault?.kind != first.1 {
      fuzzFail("first fault disagrees with the traced rules. \(describe())")
    }
  } else if decision.firstFault != nil {
    fuzzFail("a fault without a faulted rule. \(describe())")
  }
  for trace in explanation.rules where trace.isDeciding != decision.decidingRules.contains(trace.index) {
    fuzzFail("trace \(trace.index) isDeciding disagrees with the decision. \(describe())")
  }
  // Fail closed: a faulted rule never makes the decision ask.
  if decision.shouldAsk {
    for index in decision.decidingRules {
      if case .faulted = explanation.rules[index].outcome { fuzzFail("a faulted rule decided to ask. \(describe())") }
      if policy.rules[index].kind != .ask { fuzzFail("a never rule decided to ask. \(describe())") }
    }
    for trace in explanation.rules where policy.rules[trace.index].kind == .never && trace.outcome != .notHeld {
      fuzzFail("asked although never rule \(trace.index) held or faulted. \(describe())")
    }
  }
  return decision
}

/// The parts of a decision that do not depend on source positions.
func summary(_ decision: Decision) -> String {
  "\(decision.shouldAsk) \(decision.reason) \(Array(decision.decidingRules)) \(decision.faultCount) "
    + "\(decision.firstFault.map { "\($0.kind) \($0.rule.map(String.init) ?? "-")" } ?? "none")"
}

/// The text of every comment, split at `#` and trimmed, sorted: the formatter keeps them all
/// (comments within one condition may share a line).
func commentFragments(_ parsed: ParsedPolicy) -> [String] {
  parsed.file.comments.flatMap { comment in
    parsed.source.text(in: comment.range).split(separator: "#").map {
      String(
        $0.unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()
          .drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed().map(Character.init))
    }.filter { !$0.isEmpty }
  }.sorted()
}

/// Formats `parsed` (which has no syntax errors) at `width`: the text reparses to the same tree
/// with the same comments, and formatting it again at that width changes nothing.
@discardableResult
func checkFormatting(_ parsed: ParsedPolicy, width: Int) -> String {
  let formatter = PolicyFormatter(lineWidth: width)
  guard case .success(let text) = formatter.format(parsed) else {
    fuzzFail("formatting at width \(width) failed")
  }
  let reparsed = Parser.parse(SourceFile(path: "fuzz.policy", text: text))
  if reparsed.diagnostics.hasErrors { fuzzFail("the text formatted at width \(width) has syntax errors:\n\(text)") }
  if SyntaxDump.dump(reparsed.file) != SyntaxDump.dump(parsed.file) {
    fuzzFail("the text formatted at width \(width) parses to another tree:\n\(text)")
  }
  if commentFragments(reparsed) != commentFragments(parsed) {
    fuzzFail(
      "formatting at width \(width) lost or changed comments: \(commentFragments(parsed)) -> \(commentFragments(reparsed))\n\(text)"
    )
  }
  switch formatter.format(reparsed) {
  case .success(let again):
    if again != text {
      fuzzFail("formatting at width \(width) is not idempotent:\n--- once\n\(text)--- twice\n\(again)")
    }
  case .failure(let failure):
    fuzzFail("formatting the formatted text at width \(width) failed: \(failure)\n\(text)")
  }
  return text
}

func codes(_ diagnostics: [Diagnostic]) -> [String] {
  diagnostics.map { "\($0.severity) \($0.code)" }.sorted()
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let source = SourceFile(path: "fuzz.policy", bytes: bytes)
  let schema = ReviewSchema.standard

  // Parse and check.
  let parsed = Parser.parse(source)
  let compilation = PolicyCompiler.compile(source, schema: schema)
  if compilation.hasErrors != (compilation.policy == nil) { fuzzFail("a policy exactly when there are no errors") }
  if parsed.diagnostics.hasErrors && !compilation.hasErrors { fuzzFail("syntax errors lost by the compiler") }
  for diagnostic in compilation.diagnostics {
    let range = diagnostic.range
    if range.start < 0 || range.start > range.end || range.end > bytes.count + 1 {
      fuzzFail("diagnostic \(diagnostic.code) has range \(range.start)..<\(range.end) in \(bytes.count) bytes")
    }
  }
  _ = DiagnosticRenderer().render(compilation.diagnostics, in: source)

  // Evaluate on snapshots.
  var snapshots: [Snapshot] = []
  var decisions: [String] = []
  if let policy = compilation.policy {
    var maker = ValueMaker(random: FuzzRandom(state: fuzzSeed(bytes)), literals: Literals(parsed.file))
    for _ in 0..<6 {
      let snapshot = makeSnapshot(policy, &maker)
      decisions.append(summary(checkDecision(policy, snapshot.facts(for: policy))))
      snapshots.append(snapshot)
    }
  }

  // Format, reformat, reparse.
  let formatter = PolicyFormatter()
  switch formatter.format(parsed) {
  case .failure(.syntaxErrors):
    if !parsed.diagnostics.hasErrors { fuzzFail("the formatter refused a file without syntax errors") }
  case .failure(.meaningChanged):
    fuzzFail("the formatter changed the meaning of the file")
  case .success(let text):
    if parsed.diagnostics.hasErrors { fuzzFail("the formatter formatted a file with syntax errors") }
    let formattedSource = SourceFile(path: "fuzz.policy", text: text)
    let reparsed = Parser.parse(formattedSource)
    if reparsed.diagnostics.hasErrors { fuzzFail("the formatted text has syntax errors:\n\(text)") }
    if SyntaxDump.dump(reparsed.file) != SyntaxDump.dump(parsed.file) {
      fuzzFail("the formatted text parses to another tree:\n\(text)")
    }
    switch formatter.format(reparsed) {
    case .success(let again):
      if again != text { fuzzFail("formatting is not idempotent:\n--- once\n\(text)--- twice\n\(again)") }
    case .failure(let failure):
      fuzzFail("formatting the formatted text failed: \(failure)\n\(text)")
    }
    if commentFragments(reparsed) != commentFragments(parsed) {
      fuzzFail(
        "formatting lost or changed comments: \(commentFragments(parsed)) -> \(commentFragments(reparsed))\n\(text)")
    }
    // Another width, picked by the input: line breaking must keep the same properties.
    checkFormatting(parsed, width: 40 + Int(fuzzSeed(bytes) % 81))
    // The formatted policy means the same: same diagnostics, same decisions.
    let recompiled = PolicyCompiler.compile(formattedSource, schema: schema)
    if codes(recompiled.diagnostics) != codes(compilation.diagnostics) {
      fuzzFail(
        "formatting changed the diagnostics: \(codes(compilation.diagnostics)) -> \(codes(recompiled.diagnostics))")
    }
    if let policy = recompiled.policy {
      for (snapshot, expected) in zip(snapshots, decisions) {
        let decision = checkDecision(policy, snapshot.facts(for: policy))
        if summary(decision) != expected {
          fuzzFail("the formatted policy decides \(summary(decision)), the original \(expected)")
        }
      }
    }
  }
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(
    [
      """
      fact plan: string
      let engaged = days >= 14 and uses >= 10
      never answered when declined or rated
      never too_soon when since(last_prompt) < 8w or prompts_within(365d) >= 3
      never same_version when has last_prompt_version and version <= last_prompt_version
      ask loyal when engaged and (events("export") >= 3 or (average_score(3) ?? 0) >= 7.5)
      ask paying when plan in ["pro", "team"] and -days < -7 % 3
      """,
      "ask when dayz > 1 and \"x\" == 3",
    ], fuzz)
  return 0
}
