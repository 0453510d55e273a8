/// The built-in functions and names of the language.
package enum Builtin: String, Sendable, Hashable, CaseIterable {
  /// `since(instant) -> duration`: the time from the instant to `now`; infinite when the instant is absent.
  case since
  /// `min(a, b, ...)`: the smallest of two or more values of one ordered type.
  case min
  /// `max(a, b, ...)`: the largest of two or more values of one ordered type.
  case max
  /// `bucket("name") -> int`: the subject's bucket in `0..<100` for `name` (see ``Bucket``).
  case bucket

  /// The name `now`: the instant of the evaluation.
  package static let nowName = "now"

  /// Names no schema or declaration may reuse.
  static let reservedNames: Set<String> = Set(functionNames + [nowName])

  /// The names of every built-in function, in documentation order.
  package static let functionNames: [String] =
    allCases.filter { $0 != .bucket }.map(\.rawValue) + BuiltinFunction.allCases.map(\.name) + [bucket.rawValue]

  /// The signature as shown in help text.
  package var signature: String {
    switch self {
    case .since: "since(instant) -> duration"
    case .min: "min(a, b, ...)"
    case .max: "max(a, b, ...)"
    case .bucket: "bucket(\"name\") -> int"
    }
  }
}

/// The built-in functions that compute a value from the values of their arguments, such as
/// `abs`. Adding one is a case here: its name, signature, typing rule and arithmetic on storage
/// words. The checker types every call with ``resultType(for:)``; lowering emits one
/// `callFunction` instruction; the evaluator, the tree-walking explainer and the analyzer's
/// witnesses compute with ``apply(_:_:type:)``; the analyzer treats a call as an opaque value.
///
/// Arguments are one or two values of one type (the first argument's), never absent.
package enum BuiltinFunction: Sendable, Hashable, CaseIterable {
  /// `abs(x)`: the absolute value of an int, number or duration (the infinite duration stays
  /// infinite; the one value whose negation does not fit faults).
  case abs

  /// The name used in policies.
  package var name: String {
    switch self {
    case .abs: "abs"
    }
  }

  /// The signature as shown in help text.
  package var signature: String {
    switch self {
    case .abs: "abs(x)"
    }
  }

  /// The number of arguments (1 or 2).
  var arity: Int {
    switch self {
    case .abs: 1
    }
  }

  /// The types an argument may have (all arguments have the same type).
  var argumentTypes: [PolicyType] {
    switch self {
    case .abs: [.int, .number, .duration]
    }
  }

  /// The type of the result for arguments of `type` (one of ``argumentTypes``).
  func resultType(for type: PolicyType) -> PolicyType {
    switch self {
    case .abs: type
    }
  }

  /// The result's storage word for arguments `first` and `second` (0 when there is one) of
  /// `type`, or a fault. Pure and allocation-free: the evaluator calls it.
  @inline(__always)
  func apply(_ first: Int64, _ second: Int64, type: PolicyType) -> (value: Int64, fault: FaultKind?) {
    switch self {
    case .abs:
      // Not negative (the infinite duration included): itself; otherwise negated, which faults
      // only for the one int, number or duration whose negation does not fit.
      first >= 0 ? (first, nil) : ArithmeticKernel.negate(first, isDuration: type == .duration)
    }
  }

  /// The function called `name`, if any.
  init?(name: String) {
    guard let function = BuiltinFunction.table.first(where: { $0.name == name }) else { return nil }
    self = function
  }

  /// Every function, indexed by ``code``.
  static let table: [BuiltinFunction] = allCases.map { $0 }

  /// The function's number in instructions.
  var code: Int { BuiltinFunction.table.firstIndex(of: self) ?? 0 }
}

extension PolicyType {
  /// Every type, indexed by ``code`` (for instruction operands).
  static let table: [PolicyType] = allCases.map { $0 }

  /// The type's number in instructions.
  var code: Int { PolicyType.table.firstIndex(of: self) ?? 0 }
}
