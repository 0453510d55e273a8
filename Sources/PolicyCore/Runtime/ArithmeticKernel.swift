/// The arithmetic of the language on storage words, shared by the compiled
/// evaluator and the explaining evaluator so both fault in exactly the same cases.
///
/// Durations are milliseconds with `Int64.max` meaning infinite; a finite
/// result that lands on `Int64.max` is an overflow. Arithmetic on the infinite
/// duration keeps it infinite where the mathematical result is +∞
/// (∞ + d, ∞ - finite, ∞ * positive, ∞ / positive) and faults otherwise.
package enum ArithmeticKernel {
  static let infinite = Int64.max

  /// Applies `operation` to `lhs` and `rhs`; the fault is nil on success.
  @inline(__always)
  package static func apply(_ operation: Arithmetic, _ lhs: Int64, _ rhs: Int64) -> (value: Int64, fault: FaultKind?) {
    switch operation {
    case .addInt, .addNumber:
      let (value, overflow) = lhs.addingReportingOverflow(rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .subtractInt, .subtractNumber:
      let (value, overflow) = lhs.subtractingReportingOverflow(rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .multiplyInt:
      let (value, overflow) = lhs.multipliedReportingOverflow(by: rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .divideInt:
      if rhs == 0 { return (0, .divisionByZero) }
      let (value, overflow) = lhs.dividedReportingOverflow(by: rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .remainderInt:
      if rhs == 0 { return (0, .divisionByZero) }
      if rhs == -1 { return (0, nil) }  // `Int64.min % -1` is 0, though the division would overflow
      return (lhs % rhs, nil)
    case .multiplyNumber:
      guard let value = Number.scaledQuotient(lhs, rhs, Number.scale) else { return (0, .overflow) }
      return (value, nil)
    case .divideNumber:
      if rhs == 0 { return (0, .divisionByZero) }
      guard let value = Number.scaledQuotient(lhs, Number.scale, rhs) else { return (0, .overflow) }
      return (value, nil)
    case .addDuration:
      if lhs == infinite || rhs == infinite { return (infinite, nil) }
      return finite(lhs.addingReportingOverflow(rhs))
    case .subtractDuration:
      if rhs == infinite { return (0, .infiniteDuration) }
      if lhs == infinite { return (infinite, nil) }
      return finite(lhs.subtractingReportingOverflow(rhs))
    case .multiplyDuration:
      if lhs == infinite { return rhs > 0 ? (infinite, nil) : (0, .infiniteDuration) }
      return finite(lhs.multipliedReportingOverflow(by: rhs))
    case .multiplyIntByDuration:
      return apply(.multiplyDuration, rhs, lhs)
    case .divideDurationByInt:
      if rhs == 0 { return (0, .divisionByZero) }
      if lhs == infinite { return rhs > 0 ? (infinite, nil) : (0, .infiniteDuration) }
      // `-(Int64.max) / -1` would land on the infinite value: an overflow, like `-d`.
      return finite(lhs.dividedReportingOverflow(by: rhs))
    case .divideDurations:
      if rhs == 0 { return (0, .divisionByZero) }
      if lhs == infinite || rhs == infinite { return (0, .infiniteDuration) }
      let (value, overflow) = lhs.dividedReportingOverflow(by: rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .addToInstant:
      if rhs == infinite { return (0, .infiniteDuration) }
      let (value, overflow) = lhs.addingReportingOverflow(rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .addInstantToDuration:
      return apply(.addToInstant, rhs, lhs)
    case .subtractFromInstant:
      if rhs == infinite { return (0, .infiniteDuration) }
      let (value, overflow) = lhs.subtractingReportingOverflow(rhs)
      return overflow ? (0, .overflow) : (value, nil)
    case .subtractInstants:
      return subtractInstants(lhs, rhs)
    }
  }

  /// `lhs - rhs` for two instants: a duration (`since` is this with `now`).
  @inline(__always)
  static func subtractInstants(_ lhs: Int64, _ rhs: Int64) -> (value: Int64, fault: FaultKind?) {
    finite(lhs.subtractingReportingOverflow(rhs))
  }

  /// Negates an int or number (`isDuration` false) or a duration.
  @inline(__always)
  package static func negate(_ value: Int64, isDuration: Bool) -> (value: Int64, fault: FaultKind?) {
    if isDuration && value == infinite { return (0, .infiniteDuration) }
    let result = Int64(0).subtractingReportingOverflow(value)
    return isDuration ? finite(result) : (result.overflow ? (0, .overflow) : (result.partialValue, nil))
  }

  /// Converts an int to a number.
  @inline(__always)
  static func promote(_ value: Int64) -> (value: Int64, fault: FaultKind?) {
    let (result, overflow) = value.multipliedReportingOverflow(by: Number.scale)
    return overflow ? (0, .overflow) : (result, nil)
  }

  @inline(__always)
  private static func finite(_ result: (partialValue: Int64, overflow: Bool)) -> (value: Int64, fault: FaultKind?) {
    (result.overflow || result.partialValue == infinite) ? (0, .overflow) : (result.partialValue, nil)
  }
}
