/// A checked policy lowered to instructions, ready to decide.
///
/// A value: safe to share between threads and to evaluate concurrently.
public struct CompiledPolicy: Sendable {
  /// The source it was compiled from.
  public let source: SourceFile
  /// The facts the policy can read, with their storage positions.
  public let layout: FactLayout
  /// The rules, in source order; ``Decision/decidingRules`` indexes this array.
  public let rules: [CheckedRule]
  /// The `let` definitions, in source order.
  public let lets: [CheckedLet]
  let program: Program
  let neverRules: [Int]
  let askRules: [Int]

  init(source: SourceFile, layout: FactLayout, rules: [CheckedRule], lets: [CheckedLet], program: Program) {
    self.source = source
    self.layout = layout
    self.rules = rules
    self.lets = lets
    self.program = program
    self.neverRules = rules.indices.filter { rules[$0].kind == .never }
    self.askRules = rules.indices.filter { rules[$0].kind == .ask }
  }

  /// A fresh snapshot for this policy at `now`, holding every fact's default value.
  public func makeFacts(now: Timestamp) -> Facts {
    Facts(layout: layout, now: now)
  }

  /// Decides whether to ask, without allocating.
  ///
  /// `let`s are evaluated first, then every `never` rule; if none holds, every
  /// `ask` rule. A fault in a rule is recorded and counts against asking.
  public func decide(_ facts: Facts) -> Decision {
    guard facts.fingerprint == layout.fingerprint, facts.words.count >= layout.wordCount,
      facts.presence.count >= program.requiredMask.count
    else {
      return Decision(
        shouldAsk: false, reason: .invalidFacts, decidingRules: RuleIndices(),
        firstFault: Fault(kind: .foreignFacts, rule: nil, range: .empty(at: 0)), faultCount: 1)
    }
    for index in program.requiredMask.indices
    where facts.presence[index] & program.requiredMask[index] != program.requiredMask[index] {
      return Decision(
        shouldAsk: false, reason: .invalidFacts, decidingRules: RuleIndices(),
        firstFault: Fault(kind: .missingFact, rule: nil, range: .empty(at: 0)), faultCount: 1)
    }
    return program.code.withUnsafeBufferPointer { code in
      program.sets.withUnsafeBufferPointer { sets in
        facts.words.withUnsafeBufferPointer { words in
          facts.presence.withUnsafeBufferPointer { presence in
            withUnsafeTemporaryAllocation(of: Int64.self, capacity: program.registerCount) { registers in
              registers.initialize(repeating: 0)
              registers[0] = facts.now.millisecondsSince1970
              for (entry, stateRegister) in program.letEntries {
                let result = Evaluator.run(
                  from: entry, code: code, sets: sets, words: words, presence: presence, registers: registers)
                registers[stateRegister] =
                  result.outcome < 0
                  ? LetState.state(for: result.fault) : (result.outcome == 1 ? LetState.present : LetState.absent)
              }
              var deciding = RuleIndices()
              var firstFault: Fault?
              var faultCount = 0
              for rule in neverRules {
                let result = Evaluator.run(
                  from: program.ruleEntries[rule], code: code, sets: sets, words: words, presence: presence,
                  registers: registers)
                if result.outcome != 0 { deciding.append(rule) }
                if result.outcome < 0 {
                  if firstFault == nil {
                    firstFault = Fault(kind: result.fault, rule: rule, range: program.ranges[result.pc])
                  }
                  faultCount += 1
                }
              }
              if deciding.totalCount > 0 {
                return Decision(
                  shouldAsk: false, reason: .neverRuleHeld, decidingRules: deciding, firstFault: firstFault,
                  faultCount: faultCount)
              }
              for rule in askRules {
                let result = Evaluator.run(
                  from: program.ruleEntries[rule], code: code, sets: sets, words: words, presence: presence,
                  registers: registers)
                if result.outcome == 1 { deciding.append(rule) }
                if result.outcome < 0 {
                  if firstFault == nil {
                    firstFault = Fault(kind: result.fault, rule: rule, range: program.ranges[result.pc])
                  }
                  faultCount += 1
                }
              }
              return Decision(
                shouldAsk: deciding.totalCount > 0, reason: deciding.totalCount > 0 ? .askRuleHeld : .noAskRuleHeld,
                decidingRules: deciding, firstFault: firstFault, faultCount: faultCount)
            }
          }
        }
      }
    }
  }

  /// The number of instructions the policy compiled to (for benchmarks and tests).
  public var instructionCount: Int { program.code.count }
}

/// The outcome of compiling one policy: diagnostics, and the policy when there were no errors.
public struct Compilation: Sendable {
  /// The source that was compiled.
  public let source: SourceFile
  /// The syntax tree (also when there were errors).
  public let syntax: PolicyFile
  /// Every diagnostic, ordered by position.
  public let diagnostics: [Diagnostic]
  /// The compiled policy, or nil when any diagnostic is an error.
  public let policy: CompiledPolicy?

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Compiles policy source: parse, check against a schema, lower to instructions.
public enum PolicyCompiler {
  /// Compiles `source` against `schema`.
  public static func compile(_ source: SourceFile, schema: FactSchema) -> Compilation {
    let parsed = Parser.parse(source)
    var bag = DiagnosticBag()
    for diagnostic in parsed.diagnostics { bag.report(diagnostic) }
    var checker = Checker(source: source, schema: schema, bag: bag)
    if !bag.isFull && source.bytes.count <= Limits.maximumFileSize {
      checker.check(parsed.file)
    }
    bag = checker.bag
    var diagnostics = bag.diagnostics.sortedByPosition()
    for code in [DiagnosticCode.tooManyWarnings, .tooManyErrors] {
      if let index = diagnostics.firstIndex(where: { $0.code == code }) {
        diagnostics.append(diagnostics.remove(at: index))
      }
    }
    guard !bag.hasErrors else {
      return Compilation(source: source, syntax: parsed.file, diagnostics: diagnostics, policy: nil)
    }
    var layout = checker.layout
    layout.computeFingerprint()
    let program = ProgramBuilder.build(
      layout: layout, lets: checker.lets, rules: checker.rules, usedSlots: checker.usedSlots)
    let policy = CompiledPolicy(source: source, layout: layout, rules: checker.rules, lets: checker.lets, program: program)
    return Compilation(source: source, syntax: parsed.file, diagnostics: diagnostics, policy: policy)
  }

  /// Compiles policy text; `path` is the name shown in diagnostics.
  public static func compile(_ text: String, path: String = "<policy>", schema: FactSchema) -> Compilation {
    compile(SourceFile(path: path, text: text), schema: schema)
  }
}
