import Testing

@testable import PolicyCore

// MARK: - Compiling

/// Compiles `text` against `schema` (the toy schema by default).
func compile(_ text: String, schema: FactSchema = ToySchema.standard) -> Compilation {
  PolicyCompiler.compile(text, path: "test.policy", schema: schema)
}

/// Compiles `text` and requires success (warnings allowed).
func compiled(
  _ text: String, schema: FactSchema = ToySchema.standard, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> CompiledPolicy {
  let compilation = compile(text, schema: schema)
  let errors = compilation.diagnostics.filter { $0.severity == .error }
  #expect(errors.isEmpty, "unexpected errors: \(errors.map(\.message))", sourceLocation: sourceLocation)
  return try #require(compilation.policy, sourceLocation: sourceLocation)
}

/// The codes of every diagnostic, in order.
func codes(_ compilation: Compilation) -> [DiagnosticCode] {
  compilation.diagnostics.map(\.code)
}

/// The codes of the errors only.
func errorCodes(_ compilation: Compilation) -> [DiagnosticCode] {
  compilation.diagnostics.filter { $0.severity == .error }.map(\.code)
}

/// The single diagnostic with `code`; fails the test when there is not exactly one.
func diagnostic(
  _ code: DiagnosticCode, in compilation: Compilation, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> Diagnostic {
  let matching = compilation.diagnostics.filter { $0.code == code }
  #expect(
    matching.count == 1,
    "expected one \(code.rawValue), got \(compilation.diagnostics.map { "\($0.code.rawValue) \($0.message)" })",
    sourceLocation: sourceLocation)
  return try #require(matching.first, sourceLocation: sourceLocation)
}

/// The text a diagnostic or node range covers.
func text(_ range: SourceRange, in compilation: Compilation) -> String {
  compilation.source.text(in: range)
}

// MARK: - Facts

/// A fixed evaluation instant: 2023-11-14T22:13:20Z.
let testNow = Timestamp(millisecondsSince1970: 1_700_000_000_000)
let day: Int64 = 86_400_000

/// Facts for a policy over the standard schema with every required fact set
/// (`first_use`, `install_date`, `version`), other facts at their defaults.
func standardFacts(_ policy: CompiledPolicy, now: Timestamp = testNow) throws -> Facts {
  var facts = policy.makeFacts(now: now)
  for name in ["first_use", "install_date"] where policy.layout.slot(named: name) != nil {
    try facts.set(name, to: .instant(Timestamp(millisecondsSince1970: now.millisecondsSince1970 - 40 * day)))
  }
  if policy.layout.slot(named: "version") != nil {
    try facts.set("version", to: .version(Version(parsing: "3.1")!))
  }
  return facts
}

/// Decides `text` (standard schema) after `configure` sets facts on top of ``standardFacts(_:now:)``.
func decide(
  _ text: String, schema: FactSchema = ToySchema.standard, sourceLocation: Testing.SourceLocation = #_sourceLocation,
  _ configure: (inout Facts) throws -> Void = { _ in }
) throws -> (CompiledPolicy, Decision) {
  let policy = try compiled(text, schema: schema, sourceLocation: sourceLocation)
  var facts = try standardFacts(policy)
  try configure(&facts)
  return (policy, policy.decide(facts))
}

/// The names (or labels) of the deciding rules.
func decidingNames(_ decision: Decision, _ policy: CompiledPolicy) -> Set<String> {
  Set(decision.decidingRules.map { policy.rules[$0].label })
}

extension Version {
  /// A version from text that must parse.
  static func v(_ text: String) -> Version { Version(parsing: text)! }
}

// MARK: - Parsing and the S-expression dumper

/// Parses `text` with the public parser.
func parse(_ text: String) -> ParsedPolicy {
  Parser.parse(SourceFile(path: "test.policy", text: text))
}

/// Parses a bare condition and returns its expression; requires no diagnostics.
func parseExpression(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Expr {
  let parsed = parse(text)
  #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics.map(\.message))", sourceLocation: sourceLocation)
  let declaration = try #require(parsed.file.declarations.first, sourceLocation: sourceLocation)
  guard case .rule(let rule) = declaration else {
    Issue.record("not a rule: \(declaration)", sourceLocation: sourceLocation)
    throw CancellationError()
  }
  return rule.condition
}

/// The S-expression of `text` parsed as a bare condition.
func sexp(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
  Sexp.dump(try parseExpression(text, sourceLocation: sourceLocation))
}

/// A small S-expression dumper for syntax trees (ranges ignored).
enum Sexp {
  static func dump(_ expr: Expr) -> String {
    switch expr.kind {
    case .literal(let literal): return dump(literal)
    case .name(let identifier): return identifier.name
    case .call(let name, let arguments):
      return "(call \(name.name)" + arguments.map { " " + dump($0) }.joined() + ")"
    case .has(let identifier): return "(has \(identifier.name))"
    case .list(let elements): return "[" + elements.map(dump).joined(separator: " ") + "]"
    case .unary(.not, let operand): return "(not \(dump(operand)))"
    case .unary(.negate, let operand): return "(neg \(dump(operand)))"
    case .binary(let op, let lhs, let rhs): return "(\(op.rawValue) \(dump(lhs)) \(dump(rhs)))"
    case .logical(let op, let operands):
      return "(\(op.rawValue)" + operands.map { " " + dump($0) }.joined() + ")"
    case .parenthesized(let inner): return "(paren \(dump(inner)))"
    case .error: return "<error>"
    }
  }

  static func dump(_ literal: Literal) -> String {
    switch literal {
    case .bool(let value): return String(value)
    case .int(let value): return String(value)
    case .number(let value): return "num:\(value)"
    case .duration(let span, let unit): return "dur:\(span.milliseconds)ms/\(unit.symbol)"
    case .version(let version): return "v\(version.parts.map(String.init).joined(separator: "."))"
    case .string(let text): return StringLiteral.quoted(text)
    }
  }

  static func dump(_ declaration: Declaration) -> String {
    switch declaration {
    case .fact(let fact):
      return "(fact \(fact.name.name) \(fact.type.map(\.rawValue) ?? "<error>")\(fact.isOptional ? "?" : ""))"
    case .let(let definition): return "(let \(definition.name.name) \(dump(definition.value)))"
    case .rule(let rule):
      let kind = rule.isBare ? "bare" : rule.kind.rawValue
      return "(\(kind)\(rule.name.map { " " + $0.name } ?? "") \(dump(rule.condition)))"
    case .events(let declaration):
      return "(event" + declaration.names.map { " " + $0.name }.joined() + ")"
    }
  }

  static func dump(_ file: PolicyFile) -> String {
    file.declarations.map(dump).joined(separator: "\n")
  }
}

// MARK: - Random numbers

/// The package's seeded generator (SplitMix64), so property tests are reproducible.
typealias SplitMix64 = SeededGenerator
