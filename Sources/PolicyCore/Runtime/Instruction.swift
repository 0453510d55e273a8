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
  /// Jump to `b` when register `a` is / is not in constant set `c`.
  case jumpIfIn
  case jumpIfNotIn
  /// Jump to `b` when the version in registers `a`, `a+1` is / is not in version set `c`.
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
  case divideDurationByInt
  case divideDurations
  case negateDuration
  case addToInstant
  case subtractFromInstant
  case subtractInstants
  case minimum
  case maximum
  case minimumVersion
  case maximumVersion
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
  /// Constant sets for `in`, sorted ascending (versions: flattened pairs, sorted as unsigned pairs).
  var sets: [[Int64]] = []
  /// Registers needed: 0 is `now`, then `let` values and states, then scratch.
  var registerCount = 1
  /// For each compiled `let`: entry point, state register.
  var letEntries: [(entry: Int, stateRegister: Int)] = []
  /// The entry point of each rule, in rule order.
  var ruleEntries: [Int] = []
  /// Slots of facts that cannot be absent and that the policy reads, as presence-word masks.
  var requiredMask: [UInt64] = []
}
