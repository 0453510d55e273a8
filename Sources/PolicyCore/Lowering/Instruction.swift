/// The operations of the evaluator.
///
/// Jumps name their target in `b`. "Fact" operations read a storage word of
/// the ``Facts`` snapshot directly; the fused `jumpIfFact...` forms cover the
/// most common condition, a fact compared with a constant, in one dispatch.
enum Opcode: UInt8 {
  // Control
  case jump
  case returnTrue
  case returnFalse

  // Fact word `a` compared with `immediate`; jump to `b` when it holds.
  case jumpIfFactEqual
  case jumpIfFactNotEqual
  case jumpIfFactLess
  case jumpIfFactLessEqual
  case jumpIfFactGreater
  case jumpIfFactGreaterEqual
  // `(fact ?? fallback)` compared with `immediate`, for a fact that can be absent: jump to `b` when
  // it holds. `a` is the fact's word; `c` its slot when an absent fact falls through, or `~slot`
  // when an absent fact jumps (the fallback's outcome, known when the program is built).
  case jumpIfOptionalFactEqual
  case jumpIfOptionalFactNotEqual
  case jumpIfOptionalFactLess
  case jumpIfOptionalFactLessEqual
  case jumpIfOptionalFactGreater
  case jumpIfOptionalFactGreaterEqual
  /// Jump to `b` when the ordering of the version facts at words `a` and `c` (less, equal,
  /// greater: bit 0, 1, 2) is set in `immediate`.
  case jumpIfFactVersionsOrdered
  // `since(fact)` compared with `immediate` (a finite duration); jump to `b` when it holds. `a` is the
  // fact's word; `c` its slot when it can be absent (then absent means infinite), else -1.
  case jumpIfSinceEqual
  case jumpIfSinceNotEqual
  case jumpIfSinceLess
  case jumpIfSinceLessEqual
  case jumpIfSinceGreater
  case jumpIfSinceGreaterEqual
  /// Jump to `b` when bool fact word `a` is true / false.
  case jumpIfFactTrue
  case jumpIfFactFalse
  /// Jump to `b` when fact slot `a` is present / absent.
  case jumpIfPresent
  case jumpIfAbsent
  /// Jump to `b` when the `let` whose state register is `a` is present / absent (fault if it faulted).
  case jumpIfLetPresent
  case jumpIfLetAbsent

  // Register `a` compared with register `c`; jump to `b` when it holds.
  case jumpIfEqual
  case jumpIfNotEqual
  case jumpIfLess
  case jumpIfLessEqual
  case jumpIfGreater
  case jumpIfGreaterEqual
  // Register `a` compared with `immediate`; jump to `b` when it holds.
  case jumpIfEqualImmediate
  case jumpIfNotEqualImmediate
  case jumpIfLessImmediate
  case jumpIfLessEqualImmediate
  case jumpIfGreaterImmediate
  case jumpIfGreaterEqualImmediate
  /// Jump to `b` when register `a` is nonzero / zero.
  case jumpIfTrue
  case jumpIfFalse
  /// Jump to `b` when register `a` is / is not in the constant set at `immediate`
  /// (`offset << 32 | count` into ``Program/setData``, sorted ascending).
  case jumpIfIn
  case jumpIfNotIn
  /// Jump to `b` when the version in registers `a`, `a+1` is / is not in the version set at
  /// `immediate` (pairs of words, `count` pairs).
  case jumpIfVersionIn
  case jumpIfVersionNotIn

  // Values: destination register `a`.
  /// `a = immediate`
  case loadImmediate
  /// `a = immediate`, `a+1 = b << 32 | c` (a version constant)
  case loadImmediatePair
  /// `a = word b`
  case loadFact
  /// `a, a+1 = words b, b+1`
  case loadFactPair
  /// `a = register b` (`c` is the `let` state register: fault unless present)
  case loadLet
  /// `a, a+1 = registers b, b+1` (`c` as for ``loadLet``)
  case loadLetPair
  /// `a = register b`
  case move
  /// `a, a+1 = registers b, b+1`
  case movePair
  /// `a = compare(version b, version c)` as -1, 0 or 1
  case compareVersions

  // Arithmetic: `a = b op c`, faulting on overflow.
  case addInt
  case subtractInt
  case multiplyInt
  case divideInt
  case remainderInt
  case negateInt
  case multiplyNumber
  case divideNumber
  case promote
  case addDuration
  case subtractDuration
  case multiplyDuration
  case multiplyIntByDuration
  case divideDurationByInt
  case divideDurations
  case negateDuration
  case addToInstant
  case addInstantToDuration
  case subtractFromInstant
  case subtractInstants
  case minimum
  case maximum
  case minimumVersion
  case maximumVersion
  /// `a = function(b, c)` for the ``BuiltinFunction`` numbered `immediate >> 8`, on arguments of
  /// the ``PolicyType`` numbered `immediate & 0xff`; faults as the function does.
  case callFunction
  /// `a = bucket(seed, immediate)`: the snapshot's ``Bucket`` for the name hash in `immediate`.
  case bucket
}

/// One instruction: an operation and its operands (24 bytes).
struct Instruction: Sendable {
  var op: Opcode
  var a: Int32
  var b: Int32
  var c: Int32
  var immediate: Int64

  init(_ op: Opcode, a: Int = 0, b: Int = 0, c: Int = 0, immediate: Int64 = 0) {
    self.op = op
    self.a = Int32(truncatingIfNeeded: a)
    self.b = Int32(truncatingIfNeeded: b)
    self.c = Int32(truncatingIfNeeded: c)
    self.immediate = immediate
  }
}

/// A compiled program: instructions, constant sets and the entry point of each `let` and rule.
struct Program: Sendable {
  var code: [Instruction] = []
  /// The source range of each instruction, for locating faults.
  var ranges: [SourceRange] = []
  /// The constant sets of `in`, back to back (versions as pairs of words).
  var setData: [Int64] = []
  /// Registers needed: 0 is `now`, then `let` values and states, then scratch. (The snapshot's
  /// seed, which `bucket` reads, is passed to the evaluator beside the registers.)
  var registerCount = 1
  /// For each compiled `let`: its entry point and state register.
  var letEntries: [(entry: Int, stateRegister: Int)] = []
  /// The entry point of each rule, in rule order.
  var ruleEntries: [Int] = []
  /// Slots of facts that cannot be absent and that the policy reads, as presence-word masks.
  var requiredMask: [UInt64] = []
}

/// What a decision does with the outcome of one run of the interpreter.
enum SegmentKind: UInt8 {
  /// A `let`: the outcome goes to its state register.
  case letState
  /// A `never` rule: holding or faulting makes it decide.
  case never
  /// An `ask` rule: holding makes it decide.
  case ask
}

/// One run of the interpreter a decision makes: where it starts and what its outcome sets.
struct Segment {
  /// The entry point.
  var entry: Int32
  var kind: SegmentKind
  /// The `let`'s state register, or the rule's index.
  var target: Int32
}

/// A compiled program in raw, immutable buffers, so evaluation reads it through
/// pointers: no array accessors, no reference counting per instruction, no allocation.
final class ProgramStorage: @unchecked Sendable {
  // Immutable after `init`; freed in `deinit`. @unchecked: the buffers are never written after init.
  let code: UnsafeMutableBufferPointer<Instruction>
  let ranges: UnsafeMutableBufferPointer<SourceRange>
  let setData: UnsafeMutableBufferPointer<Int64>
  /// What a decision runs, in order: every `let`, then every `never` rule, then every `ask` rule.
  let segments: UnsafeMutableBufferPointer<Segment>
  /// The number of `let` and `never` segments: the first `ask` segment's index.
  let firstAskSegment: Int
  /// Whether the program is one `ask` rule and nothing else
  /// (``Evaluator/evaluateSingleAskRule(_:words:presence:registers:seed:deciding:)`` runs it).
  let isSingleAskRule: Bool
  let requiredMask: UnsafeMutableBufferPointer<UInt64>
  let registerCount: Int
  /// The starts of ``code``, ``setData`` and ``segments``: the evaluator reads through them,
  /// never nil (every buffer is allocated with room for one element at least).
  let codeStart: UnsafeMutablePointer<Instruction>
  let setDataStart: UnsafeMutablePointer<Int64>
  let segmentStart: UnsafeMutablePointer<Segment>

  init(_ program: Program, neverRules: [Int], askRules: [Int]) {
    // Each buffer has room for at least one element, so its start is never nil.
    func allocate<Element>(_ elements: [Element]) -> UnsafeMutablePointer<Element> {
      let start = UnsafeMutablePointer<Element>.allocate(capacity: max(elements.count, 1))
      _ = UnsafeMutableBufferPointer(start: start, count: elements.count).initialize(from: elements)
      return start
    }
    func copy<Element>(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
      UnsafeMutableBufferPointer(start: allocate(elements), count: elements.count)
    }
    codeStart = allocate(program.code)
    code = UnsafeMutableBufferPointer(start: codeStart, count: program.code.count)
    ranges = copy(program.ranges)
    setDataStart = allocate(program.setData)
    setData = UnsafeMutableBufferPointer(start: setDataStart, count: program.setData.count)
    // Entry points, registers and rule indices fit 32 bits: a policy file is at most 2 MiB.
    func segment(_ entry: Int, _ kind: SegmentKind, _ target: Int) -> Segment {
      Segment(entry: Int32(truncatingIfNeeded: entry), kind: kind, target: Int32(truncatingIfNeeded: target))
    }
    let ordered =
      program.letEntries.map { segment($0.entry, .letState, $0.stateRegister) }
      + neverRules.map { segment(program.ruleEntries[$0], .never, $0) }
      + askRules.map { segment(program.ruleEntries[$0], .ask, $0) }
    segmentStart = allocate(ordered)
    segments = UnsafeMutableBufferPointer(start: segmentStart, count: ordered.count)
    firstAskSegment = program.letEntries.count + neverRules.count
    isSingleAskRule = ordered.count == 1 && firstAskSegment == 0
    requiredMask = copy(program.requiredMask)
    registerCount = program.registerCount
  }

  deinit {
    for buffer in [
      UnsafeMutableRawPointer(code.baseAddress), UnsafeMutableRawPointer(ranges.baseAddress),
      UnsafeMutableRawPointer(setData.baseAddress), UnsafeMutableRawPointer(segments.baseAddress),
      UnsafeMutableRawPointer(requiredMask.baseAddress),
    ] {
      buffer?.deallocate()
    }
  }
}
