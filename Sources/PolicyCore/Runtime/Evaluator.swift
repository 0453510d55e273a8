/// The state register of a `let`: absent, present, or faulted (with the fault kind).
enum LetState {
  static let absent: Int64 = 0
  static let present: Int64 = 1
  static let faulted: Int64 = 2

  // Switches rather than `FaultKind.allCases`, which would allocate an array per call.
  static func state(for fault: FaultKind) -> Int64 {
    switch fault {
    case .overflow: faulted
    case .divisionByZero: faulted + 1
    case .infiniteDuration: faulted + 2
    case .missingFact: faulted + 3
    case .foreignFacts: faulted + 4
    }
  }

  static func fault(_ state: Int64) -> FaultKind {
    switch state - faulted {
    case 0: .overflow
    case 1: .divisionByZero
    case 2: .infiniteDuration
    case 4: .foreignFacts
    default: .missingFact
    }
  }
}

/// The interpreter for ``Program``: a loop over a flat instruction array.
///
/// It works on unsafe views of the program, the fact words and a register
/// file on the stack, so an evaluation allocates nothing. The views are valid
/// by construction: the program was built for the layout the facts follow
/// (checked by fingerprint before any run), every register index is below
/// ``Program/registerCount`` and every word index below the layout's word count.
enum Evaluator {
  /// Runs a decision's segments (every `let`, every `never` rule, then, unless one of them
  /// decided, every `ask` rule), each from its entry point to its return or fault, in one loop:
  /// running a rule costs an iteration, not a call. Rules 0 to 63 that decide are returned in the
  /// summary's word, later ones inserted in `deciding`.
  // swiftlint:disable:next function_body_length cyclomatic_complexity
  static func evaluate(
    _ storage: ProgramStorage, words: UnsafePointer<Int64>, presence: UnsafePointer<UInt64>,
    registers r: UnsafeMutablePointer<Int64>, seed: UInt64, deciding: inout RuleIndices
  ) -> EvaluationSummary {
    let segments = UnsafePointer(storage.segmentStart)
    let segmentCount = storage.segments.count
    let firstAsk = storage.firstAskSegment
    let code = UnsafePointer(storage.codeStart)
    let setData = UnsafePointer(storage.setDataStart)
    var summary = EvaluationSummary()
    var decided = false
    var index = 0
    while index < segmentCount {
      // A `never` rule that decided leaves the `ask` rules unrun.
      if index == firstAsk && decided { break }
      let segment = segments[index]
      let (outcome, faultKind, pc) = run(
        from: Int(segment.entry), code: code, setData: setData, words: words, presence: presence, registers: r,
        seed: seed)
      let target = Int(segment.target)
      switch segment.kind {
      case .letState:
        r[target] = outcome < 0 ? LetState.state(for: faultKind) : (outcome == 1 ? LetState.present : LetState.absent)
      case .never, .ask:
        // A fault counts as holding for a `never` rule and as not holding for an `ask` rule.
        if outcome == 1 || (outcome < 0 && segment.kind == .never) {
          decided = true
          summary.recordDeciding(target, in: &deciding)
        }
        if outcome < 0 { summary.recordFault(faultKind, rule: target, pc: pc) }
      }
      index += 1
    }
    // Past the `let`s and `never` rules only when none of them decided.
    summary.reason = !decided ? .noAskRuleHeld : (index <= firstAsk ? .neverRuleHeld : .askRuleHeld)
    return summary
  }

  /// ``evaluate(_:words:presence:registers:seed:deciding:)`` for a policy that is one `ask` rule
  /// and nothing else (no `let`, no `never` rule), the most common shape: one run of the
  /// interpreter, without the segment loop's bookkeeping around it.
  static func evaluateSingleAskRule(
    _ storage: ProgramStorage, words: UnsafePointer<Int64>, presence: UnsafePointer<UInt64>,
    registers r: UnsafeMutablePointer<Int64>, seed: UInt64, deciding: inout RuleIndices
  ) -> EvaluationSummary {
    let segment = storage.segmentStart.pointee
    let (outcome, faultKind, pc) = run(
      from: Int(segment.entry), code: storage.codeStart, setData: storage.setDataStart, words: words,
      presence: presence, registers: r, seed: seed)
    var summary = EvaluationSummary()
    let target = Int(segment.target)
    if outcome == 1 {
      summary.reason = .askRuleHeld
      summary.recordDeciding(target, in: &deciding)
    } else if outcome < 0 {
      summary.recordFault(faultKind, rule: target, pc: pc)
    }
    return summary
  }

  /// Runs the interpreter from `entry` to a return or a fault: the outcome (1 returned true, 0
  /// returned false, -1 faulted), the fault's kind and the instruction it stopped at.
  // swiftlint:disable:next function_body_length cyclomatic_complexity
  @inline(__always)
  static func run(
    from entry: Int, code: UnsafePointer<Instruction>, setData: UnsafePointer<Int64>, words: UnsafePointer<Int64>,
    presence: UnsafePointer<UInt64>, registers r: UnsafeMutablePointer<Int64>, seed: UInt64
  ) -> (outcome: Int8, fault: FaultKind, pc: Int) {
    // 1: returned true, 0: returned false, -1: faulted with `fault` at `pc`.
    var outcome: Int8 = 0
    var faultKind = FaultKind.overflow
    var pc = entry
    run: while true {
      let i = code[pc]
      let a = Int(i.a)
      let b = Int(i.b)
      let c = Int(i.c)
      switch i.op {
      case .jump:
        pc = b
        continue
      case .returnTrue:
        outcome = 1
        break run
      case .returnFalse:
        outcome = 0
        break run

      case .jumpIfFactEqual: if words[a] == i.immediate { pc = b; continue }
      case .jumpIfFactNotEqual: if words[a] != i.immediate { pc = b; continue }
      case .jumpIfFactLess: if words[a] < i.immediate { pc = b; continue }
      case .jumpIfFactLessEqual: if words[a] <= i.immediate { pc = b; continue }
      case .jumpIfFactGreater: if words[a] > i.immediate { pc = b; continue }
      case .jumpIfFactGreaterEqual: if words[a] >= i.immediate { pc = b; continue }
      case .jumpIfOptionalFactEqual:
        if let jumps = absentJumps(c, presence) {
          if jumps { pc = b; continue }
        } else if words[a] == i.immediate {
          pc = b
          continue
        }
      case .jumpIfOptionalFactNotEqual:
        if let jumps = absentJumps(c, presence) {
          if jumps { pc = b; continue }
        } else if words[a] != i.immediate {
          pc = b
          continue
        }
      case .jumpIfOptionalFactLess:
        if let jumps = absentJumps(c, presence) {
          if jumps { pc = b; continue }
        } else if words[a] < i.immediate {
          pc = b
          continue
        }
      case .jumpIfOptionalFactLessEqual:
        if let jumps = absentJumps(c, presence) {
          if jumps { pc = b; continue }
        } else if words[a] <= i.immediate {
          pc = b
          continue
        }
      case .jumpIfOptionalFactGreater:
        if let jumps = absentJumps(c, presence) {
          if jumps { pc = b; continue }
        } else if words[a] > i.immediate {
          pc = b
          continue
        }
      case .jumpIfOptionalFactGreaterEqual:
        if let jumps = absentJumps(c, presence) {
          if jumps { pc = b; continue }
        } else if words[a] >= i.immediate {
          pc = b
          continue
        }
      case .jumpIfFactVersionsOrdered:
        let lhs = (UInt64(bitPattern: words[a]), UInt64(bitPattern: words[a + 1]))
        let rhs = (UInt64(bitPattern: words[c]), UInt64(bitPattern: words[c + 1]))
        let ordering: Int64 = lhs < rhs ? 1 : (lhs == rhs ? 2 : 4)
        if i.immediate & ordering != 0 { pc = b; continue }
      case .jumpIfSinceEqual:
        let (since, fault) = sinceFact(a, c, words, presence, r)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        if since == i.immediate { pc = b; continue }
      case .jumpIfSinceNotEqual:
        let (since, fault) = sinceFact(a, c, words, presence, r)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        if since != i.immediate { pc = b; continue }
      case .jumpIfSinceLess:
        let (since, fault) = sinceFact(a, c, words, presence, r)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        if since < i.immediate { pc = b; continue }
      case .jumpIfSinceLessEqual:
        let (since, fault) = sinceFact(a, c, words, presence, r)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        if since <= i.immediate { pc = b; continue }
      case .jumpIfSinceGreater:
        let (since, fault) = sinceFact(a, c, words, presence, r)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        if since > i.immediate { pc = b; continue }
      case .jumpIfSinceGreaterEqual:
        let (since, fault) = sinceFact(a, c, words, presence, r)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        if since >= i.immediate { pc = b; continue }
      case .jumpIfFactTrue: if words[a] != 0 { pc = b; continue }
      case .jumpIfFactFalse: if words[a] == 0 { pc = b; continue }
      case .jumpIfPresent: if presence[a >> 6] & (1 << UInt64(a & 63)) != 0 { pc = b; continue }
      case .jumpIfAbsent: if presence[a >> 6] & (1 << UInt64(a & 63)) == 0 { pc = b; continue }
      case .jumpIfLetPresent:
        if r[a] >= LetState.faulted {
          (outcome, faultKind) = (-1, LetState.fault(r[a]))
          break run
        }
        if r[a] == LetState.present { pc = b; continue }
      case .jumpIfLetAbsent:
        if r[a] >= LetState.faulted {
          (outcome, faultKind) = (-1, LetState.fault(r[a]))
          break run
        }
        if r[a] == LetState.absent { pc = b; continue }

      case .jumpIfEqual: if r[a] == r[c] { pc = b; continue }
      case .jumpIfNotEqual: if r[a] != r[c] { pc = b; continue }
      case .jumpIfLess: if r[a] < r[c] { pc = b; continue }
      case .jumpIfLessEqual: if r[a] <= r[c] { pc = b; continue }
      case .jumpIfGreater: if r[a] > r[c] { pc = b; continue }
      case .jumpIfGreaterEqual: if r[a] >= r[c] { pc = b; continue }
      case .jumpIfEqualImmediate: if r[a] == i.immediate { pc = b; continue }
      case .jumpIfNotEqualImmediate: if r[a] != i.immediate { pc = b; continue }
      case .jumpIfLessImmediate: if r[a] < i.immediate { pc = b; continue }
      case .jumpIfLessEqualImmediate: if r[a] <= i.immediate { pc = b; continue }
      case .jumpIfGreaterImmediate: if r[a] > i.immediate { pc = b; continue }
      case .jumpIfGreaterEqualImmediate: if r[a] >= i.immediate { pc = b; continue }
      case .jumpIfTrue: if r[a] != 0 { pc = b; continue }
      case .jumpIfFalse: if r[a] == 0 { pc = b; continue }
      case .jumpIfIn: if contains(setData, i.immediate, r[a]) { pc = b; continue }
      case .jumpIfNotIn: if !contains(setData, i.immediate, r[a]) { pc = b; continue }
      case .jumpIfVersionIn: if containsPair(setData, i.immediate, r[a], r[a + 1]) { pc = b; continue }
      case .jumpIfVersionNotIn: if !containsPair(setData, i.immediate, r[a], r[a + 1]) { pc = b; continue }

      case .loadImmediate: r[a] = i.immediate
      case .loadImmediatePair:
        r[a] = i.immediate
        r[a + 1] = Int64(bitPattern: UInt64(UInt32(bitPattern: i.b)) << 32 | UInt64(UInt32(bitPattern: i.c)))
      case .loadFact: r[a] = words[b]
      case .loadFactPair:
        r[a] = words[b]
        r[a + 1] = words[b + 1]
      case .loadLet:
        if r[c] != LetState.present {
          (outcome, faultKind) = (-1, LetState.fault(r[c]))
          break run
        }
        r[a] = r[b]
      case .loadLetPair:
        if r[c] != LetState.present {
          (outcome, faultKind) = (-1, LetState.fault(r[c]))
          break run
        }
        r[a] = r[b]
        r[a + 1] = r[b + 1]
      case .move: r[a] = r[b]
      case .movePair:
        r[a] = r[b]
        r[a + 1] = r[b + 1]
      case .compareVersions:
        let lhs = (UInt64(bitPattern: r[b]), UInt64(bitPattern: r[b + 1]))
        let rhs = (UInt64(bitPattern: r[c]), UInt64(bitPattern: r[c + 1]))
        r[a] = lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)

      case .addInt:
        if let fault = store(.addInt, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .subtractInt:
        if let fault = store(.subtractInt, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .multiplyInt:
        if let fault = store(.multiplyInt, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .divideInt:
        if let fault = store(.divideInt, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .remainderInt:
        if let fault = store(.remainderInt, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .multiplyNumber:
        if let fault = store(.multiplyNumber, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .divideNumber:
        if let fault = store(.divideNumber, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .addDuration:
        if let fault = store(.addDuration, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .subtractDuration:
        if let fault = store(.subtractDuration, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .multiplyDuration:
        if let fault = store(.multiplyDuration, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .multiplyIntByDuration:
        if let fault = store(.multiplyIntByDuration, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .divideDurationByInt:
        if let fault = store(.divideDurationByInt, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .divideDurations:
        if let fault = store(.divideDurations, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .addToInstant:
        if let fault = store(.addToInstant, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .addInstantToDuration:
        if let fault = store(.addInstantToDuration, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .subtractFromInstant:
        if let fault = store(.subtractFromInstant, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .subtractInstants:
        if let fault = store(.subtractInstants, r, a, b, c) {
          (outcome, faultKind) = (-1, fault)
          break run
        }
      case .negateInt, .negateDuration:
        let (value, fault) = ArithmeticKernel.negate(r[b], isDuration: i.op == .negateDuration)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        r[a] = value
      case .promote:
        let (value, fault) = ArithmeticKernel.promote(r[b])
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        r[a] = value
      case .minimum: r[a] = Swift.min(r[b], r[c])
      case .maximum: r[a] = Swift.max(r[b], r[c])
      case .minimumVersion, .maximumVersion:
        let lhs = (UInt64(bitPattern: r[b]), UInt64(bitPattern: r[b + 1]))
        let rhs = (UInt64(bitPattern: r[c]), UInt64(bitPattern: r[c + 1]))
        let pickLeft = i.op == .minimumVersion ? lhs <= rhs : lhs >= rhs
        r[a] = pickLeft ? r[b] : r[c]
        r[a + 1] = pickLeft ? r[b + 1] : r[c + 1]
      case .callFunction:
        let function = BuiltinFunction.table[Int(truncatingIfNeeded: i.immediate >> 8)]
        let type = PolicyType.table[Int(truncatingIfNeeded: i.immediate & 0xff)]
        let (value, fault) = function.apply(r[b], c > 0 ? r[c] : 0, type: type)
        if let fault {
          (outcome, faultKind) = (-1, fault)
          break run
        }
        r[a] = value
      case .bucket:
        r[a] = Evaluator.bucket(seed: seed, nameHash: UInt64(bitPattern: i.immediate))
      }
      pc &+= 1
    }
    return (outcome, faultKind, pc)
  }

  /// `bucket("name")`'s value, out of line: inlined, the mixing of the seed was hoisted to the
  /// start of every evaluation, bucket or not.
  @inline(never)
  static func bucket(seed: UInt64, nameHash: UInt64) -> Int64 {
    Bucket.value(seed: seed, nameHash: nameHash)
  }

  /// For an optional-fact jump's `c`: nil when the fact is present, else whether an absent fact
  /// jumps (`c` is `~slot`) or falls through (`c` is the slot).
  @inline(__always)
  static func absentJumps(_ c: Int, _ presence: UnsafePointer<UInt64>) -> Bool? {
    let slot = c >= 0 ? c : ~c
    if presence[slot >> 6] & (1 << UInt64(slot & 63)) != 0 { return nil }
    return c < 0
  }

  /// `since(fact)`: `now - fact`, or infinite when the fact (slot `slot`, if it can be absent) is absent.
  @inline(__always)
  static func sinceFact(
    _ word: Int, _ slot: Int, _ words: UnsafePointer<Int64>, _ presence: UnsafePointer<UInt64>,
    _ r: UnsafeMutablePointer<Int64>
  ) -> (Int64, FaultKind?) {
    if slot >= 0 && presence[slot >> 6] & (1 << UInt64(slot & 63)) == 0 { return (ArithmeticKernel.infinite, nil) }
    return ArithmeticKernel.subtractInstants(r[0], words[word])
  }

  @inline(__always)
  static func store(
    _ operation: Arithmetic, _ r: UnsafeMutablePointer<Int64>, _ a: Int, _ b: Int, _ c: Int
  ) -> FaultKind? {
    let (value, fault) = ArithmeticKernel.apply(operation, r[b], r[c])
    if fault == nil { r[a] = value }
    return fault
  }

  /// Whether the sorted set at `location` (`offset << 32 | count`) contains `value`.
  @inline(__always)
  static func contains(_ data: UnsafePointer<Int64>, _ location: Int64, _ value: Int64) -> Bool {
    let set = data + Int(location >> 32)
    let count = Int(location & 0xFFFF_FFFF)
    if count <= 16 {
      for index in 0..<count where set[index] == value { return true }
      return false
    }
    var low = 0
    var high = count - 1
    while low <= high {
      let middle = (low + high) / 2
      if set[middle] == value { return true }
      if set[middle] < value { low = middle + 1 } else { high = middle - 1 }
    }
    return false
  }

  /// Whether the version set at `location` (`offset << 32 | pair count`) contains the version.
  static func containsPair(_ data: UnsafePointer<Int64>, _ location: Int64, _ high: Int64, _ low: Int64) -> Bool {
    let set = data + Int(location >> 32)
    for index in 0..<Int(location & 0xFFFF_FFFF) where set[2 * index] == high && set[2 * index + 1] == low {
      return true
    }
    return false
  }
}
