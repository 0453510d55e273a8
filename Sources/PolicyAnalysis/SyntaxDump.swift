import PolicyCore

/// A deterministic S-expression of a syntax tree without source ranges.
///
/// Two files with the same dump mean the same thing: the formatter checks its
/// output with it (reformatted text must parse to the same tree), and tests use it.
///
/// ```
/// (rule ask loyal (and (>= (name days) (int 30)) (not (name muted))))
/// ```
package enum SyntaxDump {
  /// The dump of every declaration, one per line.
  package static func dump(_ file: PolicyFile) -> String {
    file.declarations.map(dump).joined(separator: "\n")
  }

  /// The dump of one declaration.
  static func dump(_ declaration: Declaration) -> String {
    switch declaration {
    case .fact(let fact):
      let type = fact.type.map { $0.rawValue + (fact.isOptional ? "?" : "") } ?? "<error>"
      return "(fact \(fact.name.name) \(type)\(fact.defaultValue.map { " " + dump($0) } ?? ""))"
    case .let(let definition):
      return "(let \(definition.name.name) \(dump(definition.value)))"
    case .rule(let rule):
      return
        "(rule \(rule.kind.rawValue)\(rule.name.map { " " + $0.name } ?? "")\(rule.isBare ? " bare" : "") \(dump(rule.condition)))"
    case .events(let declaration):
      return "(event" + declaration.names.map { " " + StringLiteral.quoted($0.name) }.joined() + ")"
    }
  }

  /// The dump of an expression.
  static func dump(_ expr: Expr) -> String {
    switch expr.kind {
    case .literal(let literal):
      switch literal {
      case .bool(let value): return "(bool \(value))"
      case .int(let value): return "(int \(value))"
      case .number(let value): return "(number \(value))"
      case .duration(let value, _): return "(duration \(value.milliseconds)ms)"
      case .version(let value): return "(version \(value))"
      case .string(let value): return "(string \(StringLiteral.quoted(value)))"
      }
    case .name(let name): return "(name \(name.name))"
    case .call(let name, let arguments): return "(call \(name.name)\(arguments.map { " " + dump($0) }.joined()))"
    case .has(let name): return "(has \(name.name))"
    case .list(let elements): return "(list\(elements.map { " " + dump($0) }.joined()))"
    case .unary(let op, let operand): return "(\(op.rawValue) \(dump(operand)))"
    case .binary(let op, let lhs, let rhs): return "(\(op.rawValue) \(dump(lhs)) \(dump(rhs)))"
    case .logical(let op, let operands): return "(\(op.rawValue)\(operands.map { " " + dump($0) }.joined()))"
    case .parenthesized(let inner): return "(paren \(dump(inner)))"
    case .error: return "(error)"
    }
  }
}
