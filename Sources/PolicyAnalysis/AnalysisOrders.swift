import PolicyCore

/// An order between two variables of one kind: `lower < upper` (strict) or `lower <= upper`.
///
/// A comparison of two facts (`days > total_days`) states one where it holds and the reverse
/// where it fails (``Proposition/order(_:_:strict:)``), and each relation that bounds one fact by
/// another states one wherever it applies (``RelationAxioms/orders(in:)``). Bounds
/// propagation alone cannot refute a cycle of them through large domains (`days > total_days`
/// beside `days <= total_days` would raise both bounds one unit at a time), so a complete model
/// is checked as a graph: a cycle through a strict order has no solution.
struct OrderEdge: Hashable, Sendable {
  /// The smaller variable.
  var lower: AnalysisVariable
  /// The larger variable.
  var upper: AnalysisVariable
  /// Whether `lower` is strictly smaller.
  var strict: Bool

  /// `lower < upper` (strict) or `lower <= upper`.
  init(_ lower: AnalysisVariable, _ upper: AnalysisVariable, strict: Bool) {
    self.lower = lower
    self.upper = upper
    self.strict = strict
  }

  /// `state` with the bounds its orders and the relations' orders imply, or nil when they have
  /// no solution: a cycle through a strict order, or a domain left empty. A state without
  /// orders of its own is returned as it is; so is one whose check runs out of `budget` (it is
  /// then not refuted, which claims nothing).
  static func settle(_ state: TheoryState, axioms: RelationAxioms, budget: SearchBudget) -> TheoryState? {
    guard !state.orders.isEmpty else { return state }
    var state = state
    // Bounds and relations narrow each other; a few rounds reach what a policy's comparisons
    // need, and stopping early only leaves a model unrefuted.
    for _ in 0..<4 {
      let edges = axioms.orders(in: state)
      guard budget.spend(edges.count * edges.count + 1) else { return state }
      if hasStrictCycle(edges) { return nil }
      var narrowed = Set<String>()
      guard propagateBounds(edges, &state, narrowed: &narrowed) else { return nil }
      if narrowed.isEmpty || axioms.isEmpty { return state }
      switch axioms.propagate(&state, changed: narrowed, budget: budget) {
      case .contradiction: return nil
      case .outOfBudget: return state
      case .narrowed(let changed): if !changed { return state }
      }
    }
    return state
  }

  /// Whether some strict order's upper variable reaches its lower one through the orders.
  static func hasStrictCycle(_ edges: [OrderEdge]) -> Bool {
    let graph = OrderGraph(edges)
    return edges.contains { $0.strict && graph.reaches(from: $0.upper, to: $0.lower, strictly: false) }
  }

  /// Narrows the bounds along the orders until nothing changes (at most one round per variable
  /// and one more: without strict cycles, bounds settle within that); false when a domain empties.
  /// `narrowed` gets the facts whose bounds moved.
  static func propagateBounds(_ edges: [OrderEdge], _ state: inout TheoryState, narrowed: inout Set<String>) -> Bool {
    let variables = Set(edges.flatMap { [$0.lower, $0.upper] })
    for _ in 0...variables.count {
      var changed = false
      for edge in edges where edge.lower.kind == edge.upper.kind && edge.lower.kind != .string {
        let low = state.ordered[edge.lower] ?? OrderedDomain(kind: edge.lower.kind)
        let high = state.ordered[edge.upper] ?? OrderedDomain(kind: edge.upper.kind)
        // The upper variable is at least the lower's least value (one more when strict), and
        // the lower one at most the upper's greatest (one less).
        if edge.strict && (low.lower == edge.lower.kind.maximum || high.upper == edge.upper.kind.minimum) {
          return false
        }
        let least = edge.strict ? low.lower.successor : low.lower
        let most = edge.strict ? high.upper.predecessor : high.upper
        if least > high.lower {
          guard state.assume(.constraint(edge.upper, .atLeast(least))) else { return false }
          narrowed.insert(edge.upper.name)
          changed = true
        }
        if most < low.upper {
          guard state.assume(.constraint(edge.lower, .atMost(most))) else { return false }
          narrowed.insert(edge.lower.name)
          changed = true
        }
      }
      if !changed { return true }
    }
    return true
  }
}

/// Orders as a graph from each variable to those above it.
struct OrderGraph {
  private var next: [AnalysisVariable: [OrderEdge]] = [:]

  init(_ edges: [OrderEdge]) {
    for edge in edges { next[edge.lower, default: []].append(edge) }
  }

  /// Whether the orders put `lower` below `upper` through one order or more (`strictly`:
  /// through at least one strict order).
  func reaches(from lower: AnalysisVariable, to upper: AnalysisVariable, strictly: Bool) -> Bool {
    // Each variable is visited at most twice: before and after a strict order on the path.
    var seen: [Set<AnalysisVariable>] = [[], []]
    var stack = [(lower, false)]
    while let (variable, isStrict) = stack.popLast() {
      for edge in next[variable] ?? [] {
        let strict = isStrict || edge.strict
        if edge.upper == upper && (strict || !strictly) { return true }
        if seen[strict ? 1 : 0].insert(edge.upper).inserted { stack.append((edge.upper, strict)) }
      }
    }
    return false
  }
}

extension TheoryState {
  /// Whether `edge` contradicts an order already assumed: the reverse order, strict on either
  /// side, or a strict order of a variable with itself.
  func contradicts(_ edge: OrderEdge) -> Bool {
    (edge.lower == edge.upper && edge.strict)
      || orders.contains(OrderEdge(edge.upper, edge.lower, strict: !edge.strict))
      || (edge.strict && orders.contains(OrderEdge(edge.upper, edge.lower, strict: false)))
  }
}

extension PolicyTranslator {
  /// The variables of `lhs` and `rhs` when both are facts of one ordered type, in the order of
  /// their values: an instant's variable is its age, which runs the other way, so two instants
  /// come back swapped.
  static func orderVariables(_ lhs: Term, _ rhs: Term) -> (AnalysisVariable, AnalysisVariable)? {
    switch (lhs, rhs) {
    case (.value(let left, .instant), .value(let right, .instant)):
      return (
        AnalysisVariable(name: right, isAge: true, kind: .age), AnalysisVariable(name: left, isAge: true, kind: .age)
      )
    case (.age(let left), .age(let right)):
      return (
        AnalysisVariable(name: left, isAge: true, kind: .age), AnalysisVariable(name: right, isAge: true, kind: .age)
      )
    case (.value(_, let leftType), .value(_, let rightType)) where leftType == rightType:
      guard let left = variable(for: lhs), let right = variable(for: rhs), left.kind != .string, left.kind != .age
      else { return nil }
      return (left, right)
    default:
      return nil
    }
  }

  /// The comparison that holds exactly where `op` fails (on two present values).
  static func failing(_ op: ComparisonOperator) -> ComparisonOperator {
    switch op {
    case .less: .greaterEqual
    case .lessEqual: .greater
    case .greater: .lessEqual
    case .greaterEqual: .less
    case .equal: .notEqual
    case .notEqual: .equal
    }
  }

  /// `left op right` as orders between the two variables (`!=`: one is below the other).
  static func order(_ op: ComparisonOperator, _ left: AnalysisVariable, _ right: AnalysisVariable) -> Formula {
    switch op {
    case .less: .literal(.order(left, right, strict: true))
    case .lessEqual: .literal(.order(left, right, strict: false))
    case .greater: .literal(.order(right, left, strict: true))
    case .greaterEqual: .literal(.order(right, left, strict: false))
    case .equal: .literal(.order(left, right, strict: false)) && .literal(.order(right, left, strict: false))
    case .notEqual: .literal(.order(left, right, strict: true)) || .literal(.order(right, left, strict: true))
    }
  }
}
