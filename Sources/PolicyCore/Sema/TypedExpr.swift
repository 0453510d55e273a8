/// A checked expression: every name resolved, every operator specialised to its operand types.
///
/// The checker produces it; the compiler lowers it to instructions and the
/// explainer walks it. Its shape guarantees the evaluator cannot meet a type
/// error or read an absent value without a guard.
package struct TypedExpr: Sendable {
  /// The node.
  package var node: TypedNode
  /// The value's type.
  package var type: PolicyType
  /// Whether the value can be absent here (only facts, `let`s and `??` chains).
  package var isOptional: Bool
  /// The source it came from, without parentheses around it.
  package var range: SourceRange
  /// The source as written, with any parentheses around it (the checker drops parentheses from
  /// the tree); equal to ``range`` when there are none.
  package var writtenRange: SourceRange

  /// Creates a typed expression; `writtenRange` defaults to `range`.
  package init(
    _ node: TypedNode, _ type: PolicyType, isOptional: Bool = false, range: SourceRange,
    writtenRange: SourceRange? = nil
  ) {
    self.node = node
    self.type = type
    self.isOptional = isOptional
    self.range = range
    self.writtenRange = writtenRange ?? range
  }

  /// The direct subexpressions, left to right (a `let`'s value is not followed).
  package var children: [TypedExpr] {
    switch node {
    case .constant, .fact, .letValue, .now, .has, .bucket: []
    case .not(let inner), .negate(let inner), .since(let inner), .promote(let inner), .membership(_, let inner, _):
      [inner]
    case .logical(_, let operands), .extremum(_, let operands), .call(_, let operands): operands
    case .compare(_, let lhs, let rhs), .arithmetic(_, let lhs, let rhs), .coalesce(let lhs, let rhs): [lhs, rhs]
    }
  }

  /// Calls `visit` on this expression, then on each subexpression, parents before children and
  /// left to right. It keeps its own stack, so deep trees cannot exhaust the call stack.
  package func forEachNode(_ visit: (TypedExpr) throws -> Void) rethrows {
    var stack = [self]
    while let next = stack.popLast() {
      try visit(next)
      stack.append(contentsOf: next.children.reversed())
    }
  }
}

/// The nodes of a ``TypedExpr``.
package indirect enum TypedNode: Sendable {
  /// A constant.
  case constant(Value)
  /// The value of a fact slot (see ``FactLayout``).
  case fact(Int)
  /// The value of the `let` with this index.
  case letValue(Int)
  /// The evaluation instant.
  case now
  /// Whether the fact slot or `let` is present.
  case has(PresenceSource)
  /// Logical negation.
  case not(TypedExpr)
  /// A short-circuit chain, evaluated left to right.
  case logical(LogicalOperator, [TypedExpr])
  /// A comparison of two operands of the same type.
  case compare(ComparisonOperator, TypedExpr, TypedExpr)
  /// Membership of the operand in a constant list.
  case membership(negated: Bool, TypedExpr, [Value])
  /// Arithmetic, specialised by operand types.
  case arithmetic(Arithmetic, TypedExpr, TypedExpr)
  /// Arithmetic negation of an int, number or duration.
  case negate(TypedExpr)
  /// The left operand if present, else the right operand.
  case coalesce(TypedExpr, TypedExpr)
  /// `now - instant`, or the infinite duration when the instant is absent.
  case since(TypedExpr)
  /// The least (`isMinimum`) or greatest operand.
  case extremum(isMinimum: Bool, [TypedExpr])
  /// An int converted to a number.
  case promote(TypedExpr)
  /// A call of a built-in function on present arguments of one type.
  case call(BuiltinFunction, [TypedExpr])
  /// `bucket("name")`: the snapshot's bucket for `name`, whose ``Bucket/nameHash(_:)`` is `hash`.
  case bucket(name: String, hash: UInt64)
}

/// What `has` tests.
package enum PresenceSource: Sendable, Equatable {
  /// A fact slot.
  case fact(Int)
  /// A `let`.
  case letValue(Int)
}

/// A comparison operator.
package enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
  /// The comparison `op` is, or nil for an operator that does not compare.
  init?(_ op: BinaryOperator) {
    switch op {
    case .equal: self = .equal
    case .notEqual: self = .notEqual
    case .less: self = .less
    case .lessEqual: self = .lessEqual
    case .greater: self = .greater
    case .greaterEqual: self = .greaterEqual
    case .in, .notIn, .coalesce, .add, .subtract, .multiply, .divide, .remainder: return nil
    }
  }

  /// `==`
  case equal = "=="
  /// `!=`
  case notEqual = "!="
  /// `<`
  case less = "<"
  /// `<=`
  case lessEqual = "<="
  /// `>`
  case greater = ">"
  /// `>=`
  case greaterEqual = ">="

  /// The operator that holds exactly when this one does not.
  var negated: ComparisonOperator {
    switch self {
    case .equal: .notEqual
    case .notEqual: .equal
    case .less: .greaterEqual
    case .lessEqual: .greater
    case .greater: .lessEqual
    case .greaterEqual: .less
    }
  }

  /// The operator with its operands swapped (`a < b` is `b > a`).
  package var swapped: ComparisonOperator {
    switch self {
    case .equal: .equal
    case .notEqual: .notEqual
    case .less: .greater
    case .lessEqual: .greaterEqual
    case .greater: .less
    case .greaterEqual: .lessEqual
    }
  }

  /// Whether `ordering` (-1, 0 or 1: how the left operand compares with the right) satisfies the operator.
  package func holds(forOrdering ordering: Int) -> Bool {
    switch self {
    case .equal: ordering == 0
    case .notEqual: ordering != 0
    case .less: ordering < 0
    case .lessEqual: ordering <= 0
    case .greater: ordering > 0
    case .greaterEqual: ordering >= 0
    }
  }
}

/// An arithmetic operation specialised by operand types.
package enum Arithmetic: String, Sendable, Hashable, CaseIterable {
  /// int + int
  case addInt
  /// int - int
  case subtractInt
  /// int * int
  case multiplyInt
  /// int / int, truncating toward zero
  case divideInt
  /// int % int, with the sign of the dividend
  case remainderInt
  /// number + number
  case addNumber
  /// number - number
  case subtractNumber
  /// number * number
  case multiplyNumber
  /// number / number
  case divideNumber
  /// duration + duration
  case addDuration
  /// duration - duration
  case subtractDuration
  /// duration * int
  case multiplyDuration
  /// int * duration
  case multiplyIntByDuration
  /// duration / int
  case divideDurationByInt
  /// duration / duration -> int, truncating
  case divideDurations
  /// instant + duration
  case addToInstant
  /// duration + instant
  case addInstantToDuration
  /// instant - duration
  case subtractFromInstant
  /// instant - instant -> duration
  case subtractInstants
}
