/// The `bucket("name")` ranges a rule requires: the rollout arms a read-out groups subjects by.
extension CompiledPolicy {
  /// For the rule at `index`, the bucket values its condition requires, by bucket name: from the
  /// comparisons of `bucket("name")` with an integer constant (either side, any comparison but
  /// `!=`) among the operands of the condition's top-level `and` chain (or the whole condition),
  /// intersected per name. A rule whose condition reads a bucket only elsewhere (under `or`,
  /// `not`, in arithmetic, through a `let`) requires no range here: nil for that name is "any
  /// value". Empty when the rule names no bucket that way. A name no bucket value satisfies gets
  /// a range past them all (`100...100`).
  public func bucketRanges(ofRule index: Int) -> [String: ClosedRange<Int64>] {
    guard rules.indices.contains(index) else { return [:] }
    let condition = rules[index].condition
    var operands = [condition]
    if case .logical(.and, let parts) = condition.node { operands = parts }
    var ranges: [String: ClosedRange<Int64>] = [:]
    let all = Int64(0)...(Bucket.count - 1)
    for operand in operands {
      guard case .compare(let comparison, let lhs, let rhs) = operand.node else { continue }
      let name: String
      let constant: Int64
      var op = comparison
      switch (lhs.node, rhs.node) {
      case (.bucket(let bucket, _), .constant(.int(let value))):
        (name, constant) = (bucket, value)
      case (.constant(.int(let value)), .bucket(let bucket, _)):
        (name, constant) = (bucket, value)
        op = op.swapped
      default: continue
      }
      let range: ClosedRange<Int64>?
      switch op {
      case .equal: range = constant...constant
      case .less: range = constant == Int64.min ? nil : Int64.min...(constant - 1)
      case .lessEqual: range = Int64.min...constant
      case .greater: range = constant == Int64.max ? nil : (constant + 1)...Int64.max
      case .greaterEqual: range = constant...Int64.max
      case .notEqual: continue
      }
      let current = ranges[name] ?? all
      guard let range, range.overlaps(current) else {
        // No bucket value satisfies both: a range past every bucket value.
        ranges[name] = Bucket.count...Bucket.count
        continue
      }
      ranges[name] = max(range.lowerBound, current.lowerBound)...min(range.upperBound, current.upperBound)
    }
    return ranges
  }
}
