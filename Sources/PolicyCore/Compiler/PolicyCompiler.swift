/// The outcome of compiling one policy: diagnostics, and the policy when there were no errors.
public struct Compilation: Sendable {
  /// The source that was compiled.
  public let source: SourceFile
  /// The syntax tree (also when there were errors).
  package let syntax: PolicyFile
  /// Every diagnostic, ordered by position.
  public let diagnostics: [Diagnostic]
  /// The compiled policy, or nil when any diagnostic is an error.
  public let policy: CompiledPolicy?

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Compiles policy source, the pipeline's entry point:
///
/// ```
/// Source ─ Parser ─▶ PolicyFile (Syntax) ─ Checker ─▶ CheckedPolicy (Sema)
///        ─ ProgramBuilder ─▶ Program (Lowering) ─▶ CompiledPolicy (Runtime: decide, explain)
/// ```
public enum PolicyCompiler {
  /// Compiles `source` against `schema`, within the limits of a policy file (``PolicyLimits/file``).
  public static func compile(_ source: SourceFile, schema: FactSchema) -> Compilation {
    compile(source, schema: schema, limits: .file)
  }

  /// Compiles `source` against `schema` within `limits`: text over the size is rejected before
  /// it is lexed, and the parse stops at the first count past its limit (the partial tree is not
  /// checked), each with its own error.
  public static func compile(_ source: SourceFile, schema: FactSchema, limits: PolicyLimits) -> Compilation {
    let parsed = Parser.parse(source, limits: limits)
    var bag = DiagnosticBag()
    for diagnostic in parsed.diagnostics { bag.report(diagnostic) }
    var checker = Checker(source: source, schema: schema, bag: bag)
    if !bag.isFull && !parsed.exceededLimit {
      checker.check(parsed.file)
    }
    bag = checker.bag
    var diagnostics = bag.diagnostics.sortedByPosition()
    for code in DiagnosticCap.markerCodes {
      if let index = diagnostics.firstIndex(where: { $0.code == code }) {
        diagnostics.append(diagnostics.remove(at: index))
      }
    }
    guard !bag.hasErrors else {
      return Compilation(source: source, syntax: parsed.file, diagnostics: diagnostics, policy: nil)
    }
    let policy = compile(checker.checkedPolicy)
    return Compilation(source: source, syntax: parsed.file, diagnostics: diagnostics, policy: policy)
  }

  /// Compiles policy text; `path` is the name shown in diagnostics.
  ///
  /// Text over ``Limits/maximumFileSize`` is rejected from its size alone: its source keeps only
  /// the start, for the excerpt (a 10 MB update of newlines used to build an 80 MB line table first).
  public static func compile(_ text: String, path: String = "<policy>", schema: FactSchema) -> Compilation {
    compile(text, path: path, schema: schema, limits: .file)
  }

  /// Compiles policy text within `limits`; `path` is the name shown in diagnostics.
  ///
  /// Text over ``PolicyLimits/maximumSize`` is rejected from its size alone, before a line table
  /// is built: its source keeps only the start, for the excerpt.
  public static func compile(_ text: String, path: String = "<policy>", schema: FactSchema, limits: PolicyLimits)
    -> Compilation
  {
    let size = text.utf8.count
    guard size <= limits.maximumSize else {
      let source = SourceFile(path: path, bytes: Array(text.utf8.prefix(4096)))
      return Compilation(
        source: source, syntax: PolicyFile(declarations: [], comments: []),
        diagnostics: [.fileTooLarge(size: size, limits: limits)], policy: nil)
    }
    return compile(SourceFile(path: path, text: text), schema: schema, limits: limits)
  }

  /// Lowers a checked policy (one without errors) to instructions.
  static func compile(_ checked: CheckedPolicy) -> CompiledPolicy {
    let program = ProgramBuilder.build(checked)
    return CompiledPolicy(checked, program: program)
  }
}
