/// A checked policy lowered to instructions, ready to decide.
///
/// A value: safe to share between threads and to evaluate concurrently.
public struct CompiledPolicy: Sendable {
  /// The source it was compiled from.
  public var source: SourceFile { parts.source }
  /// The facts the policy can read, with their storage positions.
  package var layout: FactLayout { parts.layout }
  /// The rules, in source order; ``Decision/decidingRules`` indexes this array.
  public var rules: [CheckedRule] { parts.rules }
  /// The `let` definitions, in source order.
  public var lets: [CheckedLet] { parts.lets }
  /// The slots of the facts the policy's rules and `let`s read, ascending.
  package var readSlots: [Int] { parts.readSlots }
  /// The event names the policy declares with `event`, sorted; empty when it declares none.
  package var declaredEvents: [String] { parts.declaredEvents }
  /// The names of the `bucket("name")` calls of the rules and `let`s, sorted, without duplicates:
  /// empty when decisions do not depend on ``Facts/seed``.
  package var bucketNames: [String] { parts.bucketNames }
  /// The schema's relations between facts: the analyzer considers only facts that satisfy them.
  package var relations: [FactRelation] { parts.relations }
  let storage: ProgramStorage
  /// The layout's fingerprint and words, which every decision checks its facts against.
  private let fingerprint: UInt64
  private let wordCount: Int
  /// Everything else, in one immutable box: a policy is two references wherever it is kept (the
  /// manager's policies, compilations), so copying one is two retains, not one per member.
  private let parts: Parts

  /// The members a decision does not read.
  private final class Parts: Sendable {
    let source: SourceFile
    let layout: FactLayout
    let rules: [CheckedRule]
    let lets: [CheckedLet]
    let readSlots: [Int]
    let declaredEvents: [String]
    let bucketNames: [String]
    let relations: [FactRelation]

    init(_ checked: CheckedPolicy) {
      self.source = checked.source
      self.layout = checked.layout
      self.rules = checked.rules
      self.lets = checked.lets
      self.readSlots = checked.usedSlots.sorted()
      self.declaredEvents = checked.declaredEvents
      self.relations = checked.relations
      self.bucketNames = checked.bucketNames
    }
  }

  init(_ checked: CheckedPolicy, program: Program) {
    self.parts = Parts(checked)
    self.fingerprint = checked.layout.fingerprint
    self.wordCount = checked.layout.wordCount
    let rules = checked.rules
    self.storage = ProgramStorage(
      program, neverRules: rules.indices.filter { rules[$0].kind == .never },
      askRules: rules.indices.filter { rules[$0].kind == .ask })
  }

  /// A fresh snapshot for this policy at `now`, holding every fact's default value.
  public func makeFacts(now: Timestamp) -> Facts {
    Facts(layout: layout, now: now)
  }

  /// The number of instructions the policy compiled to (for benchmarks and tests).
  package var instructionCount: Int { storage.code.count }

  /// The number of 64-bit registers an evaluation uses.
  var registerCount: Int { storage.registerCount }

  /// Decides whether to ask, without allocating.
  ///
  /// `let`s are evaluated first, then every `never` rule; if none holds, every
  /// `ask` rule. A fault in a rule is recorded and counts against asking. The
  /// register file lives on the stack; only a policy needing more than 512
  /// registers (about 150 `let`s) may put it on the heap.
  public func decide(_ facts: Facts) -> Decision {
    let counts = facts.storageCounts
    guard facts.fingerprint == fingerprint, counts.words >= wordCount,
      counts.presence >= storage.requiredMask.count
    else {
      return Decision.invalid(.foreignFacts)
    }
    let storage = self.storage
    let now = facts.now.millisecondsSince1970
    let seed = facts.seed
    // Rules from 64 on that decide; the first 64 come back in the summary. The decision is built
    // here, in the caller's return slot: built inside the closures and returned through them, its
    // hundred bytes were copied back just after being written, a third of the call's time.
    var deciding = RuleIndices()
    let summary = facts.withStorage { words, presence in
      guard storage.registerCount <= RegisterFile.smallCapacity else {
        return CompiledPolicy.evaluateWithManyRegisters(
          storage, words: words, presence: presence, now: now, seed: seed, deciding: &deciding)
      }
      return withUnsafeTemporaryAllocation(of: Int64.self, capacity: RegisterFile.smallCapacity) { registers in
        guard let registers = registers.baseAddress else { return EvaluationSummary.invalid(.foreignFacts) }
        return CompiledPolicy.evaluate(
          storage, words: words, presence: presence, registers: registers, now: now, seed: seed, deciding: &deciding)
      }
    }
    deciding.insertFirstSixtyFour(summary.firstSixtyFour, count: Int(summary.firstSixtyFourCount))
    return Decision(
      shouldAsk: summary.reason == .askRuleHeld, reason: summary.reason, decidingRules: deciding,
      firstFault: summary.faultCount == 0
        ? nil
        : Fault(
          kind: summary.firstFaultKind, rule: summary.firstFaultRule < 0 ? nil : Int(summary.firstFaultRule),
          range: summary.firstFaultRule < 0 ? .empty(at: 0) : storage.ranges[Int(summary.firstFaultPC)]),
      faultCount: Int(summary.faultCount))
  }

  /// ``decide(_:)``'s evaluation for a policy whose registers do not fit
  /// ``RegisterFile/smallCapacity``.
  @inline(never)
  private static func evaluateWithManyRegisters(
    _ storage: ProgramStorage, words: UnsafePointer<Int64>, presence: UnsafePointer<UInt64>, now: Int64,
    seed: UInt64, deciding: inout RuleIndices
  ) -> EvaluationSummary {
    if storage.registerCount <= RegisterFile.largeCapacity {
      var file = RegisterFile.zero
      return withUnsafeMutableBytes(of: &file) { bytes in
        guard let base = bytes.baseAddress else { return EvaluationSummary.invalid(.foreignFacts) }
        let registers = base.assumingMemoryBound(to: Int64.self)
        return evaluate(
          storage, words: words, presence: presence, registers: registers, now: now, seed: seed, deciding: &deciding)
      }
    }
    return withUnsafeTemporaryAllocation(of: Int64.self, capacity: storage.registerCount) { registers in
      guard let registers = registers.baseAddress else { return EvaluationSummary.invalid(.foreignFacts) }
      return evaluate(
        storage, words: words, presence: presence, registers: registers, now: now, seed: seed, deciding: &deciding)
    }
  }

  /// Checks that the facts the policy needs are present, then runs ``Evaluator/evaluate``.
  @inline(__always)
  private static func evaluate(
    _ storage: ProgramStorage, words: UnsafePointer<Int64>, presence: UnsafePointer<UInt64>,
    registers: UnsafeMutablePointer<Int64>, now: Int64, seed: UInt64, deciding: inout RuleIndices
  ) -> EvaluationSummary {
    let requiredMask = storage.requiredMask
    var index = 0
    while index < requiredMask.count {
      let mask = requiredMask[index]
      if presence[index] & mask != mask { return EvaluationSummary.invalid(.missingFact) }
      index += 1
    }
    // No register is read before it is written (let states are set as their segments end;
    // scratch registers by the instruction that produces them), so the file is not cleared.
    registers[0] = now
    if storage.isSingleAskRule {
      return Evaluator.evaluateSingleAskRule(
        storage, words: words, presence: presence, registers: registers, seed: seed, deciding: &deciding)
    }
    return Evaluator.evaluate(
      storage, words: words, presence: presence, registers: registers, seed: seed, deciding: &deciding)
  }
}

/// What an evaluation decided, small enough to come back in registers: ``Decision`` is built from
/// it (and the rules past the 64th that decided) where it is returned.
struct EvaluationSummary {
  /// Rules 0 to 63 that decided, one bit each.
  var firstSixtyFour: UInt64 = 0
  /// The number of bits set in ``firstSixtyFour`` (counted as they are set: x86-64's baseline
  /// has no population count instruction).
  var firstSixtyFourCount: UInt8 = 0
  var faultCount: Int32 = 0
  /// The rule of the first fault, or -1 for a fault of the facts themselves.
  var firstFaultRule: Int32 = -1
  /// The instruction of the first fault.
  var firstFaultPC: Int32 = 0
  var firstFaultKind: FaultKind = .overflow
  var reason: DecisionReason = .noAskRuleHeld

  /// Records rule `rule` as deciding: in ``firstSixtyFour`` for rules 0 to 63, in `deciding` past them.
  @inline(__always)
  mutating func recordDeciding(_ rule: Int, in deciding: inout RuleIndices) {
    if rule < 64 {
      firstSixtyFour |= 1 << UInt64(rule)
      firstSixtyFourCount &+= 1
    } else {
      deciding.insert(rule)
    }
  }

  /// Counts a fault of rule `rule` at instruction `pc`, keeping the first one's details.
  @inline(__always)
  mutating func recordFault(_ kind: FaultKind, rule: Int, pc: Int) {
    if faultCount == 0 {
      firstFaultKind = kind
      firstFaultRule = Int32(truncatingIfNeeded: rule)
      firstFaultPC = Int32(truncatingIfNeeded: pc)
    }
    faultCount += 1
  }

  /// "Don't ask" because the facts cannot be evaluated.
  static func invalid(_ kind: FaultKind) -> EvaluationSummary {
    EvaluationSummary(faultCount: 1, firstFaultKind: kind, reason: .invalidFacts)
  }
}

/// Register files on the stack.
enum RegisterFile {
  /// Registers allocated with `withUnsafeTemporaryAllocation`, which stays on the stack up to 1 KiB.
  static let smallCapacity = 128
  /// Registers in a fixed 4 KiB stack buffer, used when a policy needs more than ``smallCapacity``.
  static let largeCapacity = 512

  typealias Eight = (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64)
  typealias SixtyFour = (Eight, Eight, Eight, Eight, Eight, Eight, Eight, Eight)
  typealias FiveHundredTwelve = (SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour)

  static let zero: FiveHundredTwelve = {
    let eight: Eight = (0, 0, 0, 0, 0, 0, 0, 0)
    let sixtyFour: SixtyFour = (eight, eight, eight, eight, eight, eight, eight, eight)
    return (sixtyFour, sixtyFour, sixtyFour, sixtyFour, sixtyFour, sixtyFour, sixtyFour, sixtyFour)
  }()
}

extension Decision {
  /// "Don't ask" because the facts cannot be evaluated.
  static func invalid(_ kind: FaultKind) -> Decision {
    Decision(
      shouldAsk: false, reason: .invalidFacts, decidingRules: RuleIndices(),
      firstFault: Fault(kind: kind, rule: nil, range: .empty(at: 0)), faultCount: 1)
  }
}

extension CompiledPolicy {
  /// The compiled instructions, one per line (`pc: op a b c immediate`), with each rule's and
  /// `let`'s entry marked: a debugging and performance aid.
  var programListing: String {
    var entries: [Int: String] = [:]
    for segment in storage.segments {
      let entry = Int(segment.entry)
      switch segment.kind {
      case .letState: entries[entry, default: ""] += "let entry"
      case .never, .ask: entries[entry] = "rule \(rules[Int(segment.target)].label)"
      }
    }
    var output = "registers: \(storage.registerCount)\n"
    for (pc, instruction) in storage.code.enumerated() {
      if let entry = entries[pc] { output += "\(entry):\n" }
      output +=
        "  \(pc): \(instruction.op) a=\(instruction.a) b=\(instruction.b) c=\(instruction.c) imm=\(instruction.immediate)\n"
    }
    return output
  }
}
