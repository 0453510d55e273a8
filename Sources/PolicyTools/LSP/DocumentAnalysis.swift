import PolicyCore
import ReviewPolicy

/// What the language server knows about one version of a policy: its compilation, the
/// declarations and every use of a name, for hover, completion, navigation and symbols.
///
/// The uses and calls (``uses``, ``calls``) are indexed on demand (``indexNames()``): the
/// diagnostics of a keystroke need only the compilation, and walking every expression of a
/// 1 MiB policy takes longer than the rest of the analysis.
package struct DocumentAnalysis: Sendable {
  /// The environment the document was compiled in: its project file's, or the server's.
  package let environment: PolicyEnvironment
  /// The compilation in ``environment`` (the tree also when there are errors).
  package let compilation: Compilation
  /// The `fact` declarations, in file order.
  package let facts: [FactDeclaration]
  /// The `let` declarations, in file order.
  package let lets: [LetDeclaration]
  /// The rules, in file order.
  package let rules: [Rule]
  /// The `event` declarations, in file order.
  package let events: [EventDeclaration]
  /// Every name used in an expression (`.name` and `has`), in file order; empty until ``indexNames()``.
  package private(set) var uses: [Identifier] = []
  /// Every call (built-ins and fact families) with its arguments, in file order; empty until ``indexNames()``.
  package private(set) var calls: [(name: Identifier, arguments: [Expr])] = []
  /// Whether ``uses`` and ``calls`` are filled in.
  package private(set) var isIndexed = false

  /// Analyzes `source`, compiled in `environment` (names not indexed yet).
  package init(_ source: SourceFile, environment: PolicyEnvironment) {
    self.environment = environment
    compilation = environment.compile(source)
    var facts: [FactDeclaration] = []
    var lets: [LetDeclaration] = []
    var rules: [Rule] = []
    var events: [EventDeclaration] = []
    for declaration in compilation.syntax.declarations {
      switch declaration {
      case .fact(let fact): facts.append(fact)
      case .let(let binding): lets.append(binding)
      case .rule(let rule): rules.append(rule)
      case .events(let declaration): events.append(declaration)
      }
    }
    self.facts = facts
    self.lets = lets
    self.rules = rules
    self.events = events
  }

  /// Fills in ``uses`` and ``calls`` (once): every expression of the `let`s and rules, in file order.
  package mutating func indexNames() {
    guard !isIndexed else { return }
    isIndexed = true
    var roots: [Expr] = []
    for declaration in compilation.syntax.declarations {
      switch declaration {
      case .let(let binding): roots.append(binding.value)
      case .rule(let rule): roots.append(rule.condition)
      case .fact, .events: break
      }
    }
    // Children are pushed right to left, so they are visited in file order (no array per node).
    var stack = Array(roots.reversed())
    while let expr = stack.popLast() {
      switch expr.kind {
      case .name(let identifier), .has(let identifier): uses.append(identifier)
      case .call(let identifier, let arguments):
        calls.append((identifier, arguments))
        stack.append(contentsOf: arguments.reversed())
      case .list(let operands), .logical(_, let operands): stack.append(contentsOf: operands.reversed())
      case .unary(_, let operand), .parenthesized(let operand): stack.append(operand)
      case .binary(_, let lhs, let rhs):
        stack.append(rhs)
        stack.append(lhs)
      case .literal, .error: break
      }
    }
  }

  /// The source analyzed.
  package var source: SourceFile { compilation.source }

  /// The `let` named `name`, if declared.
  package func letDeclaration(named name: String) -> LetDeclaration? {
    lets.first { $0.name.name == name }
  }

  /// The `fact` declaration named `name`, if declared.
  package func factDeclaration(named name: String) -> FactDeclaration? {
    facts.first { $0.name.name == name }
  }

  /// The declaration of `name` (a `let` or a declared `fact`) and every use of it.
  package func occurrences(of name: String) -> (declaration: Identifier?, uses: [Identifier]) {
    let declaration = letDeclaration(named: name)?.name ?? factDeclaration(named: name)?.name
    return (declaration, uses.filter { $0.name == name })
  }

  /// The event names the `event` declarations name, in file order, without duplicates.
  package var declaredEventNames: [String] {
    var names: [String] = []
    for declaration in events {
      for name in declaration.names where !names.contains(name.name) { names.append(name.name) }
    }
    return names
  }

  /// The string keys written in calls of `family`, such as the event names of `events("...")`.
  package func stringKeys(of family: String) -> [String] {
    calls.compactMap { call in
      guard call.name.name == family, let first = call.arguments.first, case .literal(.string(let key)) = first.kind
      else { return nil }
      return key
    }
  }

  /// The identifier-like word (letters, digits, `_`) around `offset`, with its range.
  package func word(at offset: Int) -> (text: String, range: SourceRange)? {
    let bytes = source.bytes
    guard offset >= 0, offset <= bytes.count else { return nil }
    var start = offset
    while start > 0 && DocumentAnalysis.isWordByte(bytes[start - 1]) { start -= 1 }
    var end = offset
    while end < bytes.count && DocumentAnalysis.isWordByte(bytes[end]) { end += 1 }
    guard start < end else { return nil }
    let range = SourceRange(start: start, end: end)
    return (source.text(in: range), range)
  }

  /// Whether `byte` can be part of a name.
  static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
  }
}
