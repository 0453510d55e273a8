/// The syntax tree of one policy file, as parsed; names are not resolved yet.
package struct PolicyFile: Sendable {
  /// The declarations in source order.
  package var declarations: [Declaration]
  /// The `#` comments, in source order (used by the formatter).
  package var comments: [Comment]
}

/// One top-level declaration.
package enum Declaration: Sendable {
  /// `fact NAME: TYPE`, `fact NAME: TYPE?`, either with `= DEFAULT`.
  case fact(FactDeclaration)
  /// `let NAME = EXPR`.
  case `let`(LetDeclaration)
  /// `ask [NAME] when EXPR`, `never [NAME] when EXPR`, or a bare condition.
  case rule(Rule)
  /// `event NAME, NAME, ...`: the event names the policy may count.
  case events(EventDeclaration)

  /// The declaration with its condition, value or type replaced by an error placeholder.
  ///
  /// The parser uses it for a declaration that had a syntax error: the checker
  /// then knows the name but reports nothing more about the broken part.
  func withoutBody() -> Declaration {
    switch self {
    case .fact(var declaration):
      declaration.type = nil
      declaration.defaultValue = nil
      return .fact(declaration)
    case .let(var declaration):
      declaration.value = Expr(.error, range: declaration.value.range)
      return .let(declaration)
    case .rule(var rule):
      rule.condition = Expr(.error, range: rule.condition.range)
      return .rule(rule)
    case .events(var declaration):
      // A broken list declares nothing: names checked against it would be reported twice.
      declaration.names = []
      return .events(declaration)
    }
  }

  /// The source range of the whole declaration.
  package var range: SourceRange {
    switch self {
    case .fact(let declaration): declaration.range
    case .let(let declaration): declaration.range
    case .rule(let rule): rule.range
    case .events(let declaration): declaration.range
    }
  }
}

/// A name as written, with its location.
package struct Identifier: Sendable, Equatable {
  /// The name.
  package var name: String
  /// Where it is written.
  package var range: SourceRange

  /// Creates an identifier.
  init(_ name: String, range: SourceRange) {
    self.name = name
    self.range = range
  }
}

/// `fact NAME: TYPE[?] [= DEFAULT]`: an app-specific fact the policy relies on, with the value
/// it has while the app has not set it.
package struct FactDeclaration: Sendable {
  /// The fact's name.
  package var name: Identifier
  /// The declared type, or nil when the declaration has a syntax error (already reported).
  package var type: PolicyType?
  /// Whether the fact can be absent (`?`).
  package var isOptional: Bool
  /// The range of the type annotation, `?` included.
  package var typeRange: SourceRange
  /// The default after `=`, as written (the checker requires a literal of the declared type), or nil.
  package var defaultValue: Expr?
  /// The whole declaration.
  package var range: SourceRange

  /// Creates a fact declaration.
  init(
    name: Identifier, type: PolicyType?, isOptional: Bool, typeRange: SourceRange, defaultValue: Expr? = nil,
    range: SourceRange
  ) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
    self.typeRange = typeRange
    self.defaultValue = defaultValue
    self.range = range
  }
}

/// `event purchase, export`: the names of the events the policy counts with `events("...")`
/// and `total_events("...")`. Once a policy declares any, a name it did not declare is an error.
package struct EventDeclaration: Sendable {
  /// The names as written (an identifier, or a string for a name that is not one), with their ranges.
  package var names: [Identifier]
  /// The whole declaration.
  var range: SourceRange
}

/// `let NAME = EXPR`: a named value that later declarations can use.
package struct LetDeclaration: Sendable {
  /// The name being defined.
  package var name: Identifier
  /// The defining expression.
  package var value: Expr
  /// The whole declaration.
  package var range: SourceRange
}

/// Whether a rule asks or forbids asking.
public enum RuleKind: String, Sendable, Hashable {
  /// `ask when ...`: ask when the condition holds, unless a `never` rule holds.
  case ask
  /// `never when ...`: do not ask when the condition holds, whatever the `ask` rules say.
  case never
}

/// A decision rule.
package struct Rule: Sendable {
  /// `ask` or `never`.
  package var kind: RuleKind
  /// The optional name shown in explanations and tests.
  package var name: Identifier?
  /// The condition.
  package var condition: Expr
  /// Whether the rule is a bare condition (a file that is just an expression).
  package var isBare: Bool
  /// The whole rule.
  package var range: SourceRange
}

/// An expression node with its source range.
package struct Expr: Sendable {
  /// What the node is.
  package var kind: Kind
  /// The bytes it covers.
  package var range: SourceRange
  /// The node's nesting depth: 1 for a leaf; an `and`/`or` chain adds one level however long it is.
  var depth: Int
  /// The number of nodes in the tree this node roots, itself included (the parser's node limit
  /// reads it rather than walking the tree again).
  var nodeCount: Int

  /// Creates a node; `depth` and `nodeCount` are computed from the children.
  init(_ kind: Kind, range: SourceRange) {
    self.kind = kind
    self.range = range
    let children = kind.childSummary
    self.depth = 1 + children.deepest
    self.nodeCount = 1 + children.nodes
  }

  /// Whether the node stands for a syntax error already reported.
  package var isError: Bool {
    if case .error = kind { true } else { false }
  }

  /// The kinds of expression node.
  package indirect enum Kind: Sendable {
    /// A literal value.
    case literal(Literal)
    /// A name: a fact, a `let`, or `now`.
    case name(Identifier)
    /// `NAME(ARGS)`: a built-in function or a keyed fact such as `events("purchase")`.
    case call(Identifier, [Expr])
    /// `has NAME`: whether a fact or `let` that can be absent is present.
    case has(Identifier)
    /// `[A, B, ...]`: a list, only valid on the right of `in`.
    case list([Expr])
    /// `not E` or `-E`.
    case unary(UnaryOperator, Expr)
    /// `A op B` for arithmetic, comparison, `??` and `in`.
    case binary(BinaryOperator, Expr, Expr)
    /// A chain `A and B and C` or `A or B or C`, kept flat so long chains need no deep recursion.
    case logical(LogicalOperator, [Expr])
    /// `(E)`, kept so the formatter and explanations show what was written.
    case parenthesized(Expr)
    /// A placeholder where parsing failed; the error was already reported.
    case error

    /// The greatest depth of the direct children and the nodes under them, (0, 0) for a leaf
    /// (no array is built: this runs for every node).
    var childSummary: (deepest: Int, nodes: Int) {
      switch self {
      case .literal, .name, .has, .error: (0, 0)
      case .call(_, let operands), .list(let operands), .logical(_, let operands):
        operands.reduce((0, 0)) { (max($0.0, $1.depth), $0.1 + $1.nodeCount) }
      case .unary(_, let operand), .parenthesized(let operand): (operand.depth, operand.nodeCount)
      case .binary(_, let lhs, let rhs): (max(lhs.depth, rhs.depth), lhs.nodeCount + rhs.nodeCount)
      }
    }

    /// The direct children, left to right.
    package var children: [Expr] {
      switch self {
      case .literal, .name, .has, .error: []
      case .call(_, let arguments): arguments
      case .list(let elements): elements
      case .unary(_, let operand): [operand]
      case .binary(_, let lhs, let rhs): [lhs, rhs]
      case .logical(_, let operands): operands
      case .parenthesized(let inner): [inner]
      }
    }
  }
}

/// A literal as written.
package enum Literal: Sendable, Equatable {
  /// `true` or `false`.
  case bool(Bool)
  /// An integer such as `30`.
  case int(Int64)
  /// A number such as `7.5`.
  case number(Number)
  /// A duration such as `30d` (the unit is kept for display).
  case duration(TimeSpan, DurationUnit)
  /// A version such as `v2.1` or `2.1.3`.
  case version(Version)
  /// A string such as `"purchase"`.
  case string(String)

  /// The literal's value.
  var value: Value {
    switch self {
    case .bool(let value): .bool(value)
    case .int(let value): .int(value)
    case .number(let value): .number(value)
    case .duration(let value, _): .duration(value)
    case .version(let value): .version(value)
    case .string(let value): .string(value)
    }
  }
}

/// A prefix operator.
package enum UnaryOperator: String, Sendable, Hashable {
  /// `not`
  case not
  /// `-`
  case negate = "-"
}

/// A binary operator, from lowest to highest precedence group.
package enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
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
  /// `in`
  case `in`
  /// `not in`
  case notIn = "not in"
  /// `??`
  case coalesce = "??"
  /// `+`
  case add = "+"
  /// `-`
  case subtract = "-"
  /// `*`
  case multiply = "*"
  /// `/`
  case divide = "/"
  /// `%`
  case remainder = "%"

  /// Whether the operator is a comparison (`==` through `>=`).
  var isComparison: Bool {
    switch self {
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: true
    case .in, .notIn, .coalesce, .add, .subtract, .multiply, .divide, .remainder: false
    }
  }
}

/// `and` or `or`.
package enum LogicalOperator: String, Sendable, Hashable {
  /// `and`: true when every operand is; stops at the first false operand.
  case and
  /// `or`: true when any operand is; stops at the first true operand.
  case or
}
