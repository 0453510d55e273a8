import PolicyCore
import ReviewPolicy

/// `policyc analyze`: the policy analyzer's warnings (rules that never or always hold,
/// shadowed `ask` rules, contradictory or redundant comparisons, review etiquette), with the
/// compiler's own diagnostics.
enum AnalyzeCommand {
  static let usage = "USAGE: policyc analyze [--format text|json|sarif|github] [--no-color] <file>...\n"

  /// Exit status: the policy has errors and cannot be analysed (also usage and I/O errors).
  static let cannotAnalyse: Int32 = 2

  static let help = """
    OVERVIEW: find logic mistakes and review-etiquette problems in policies

    Reports, besides the diagnostics of `policyc check`:
      PC310  a rule that can never hold
      PC311  a rule that always holds (a `never` rule: the policy never asks)
      PC312  an `ask` rule that can hold only when a `never` rule holds too
      PC313  comparisons of one value that contradict each other in an `and`,
             or cover every value in an `or`
      PC314  a comparison made redundant by another of the same `and` or `or`
      PC320  the policy can ask a user who declined or rated this version
      PC321  the policy can ask again within 7 days of the last prompt
      PC322  the policy can ask a user who already saw 3 prompts in 365 days

    PC310-PC314 are proofs: no facts at all make the rule hold (or fail). Literal
    `true` and `false`, `has` of a fact that is never absent and empty lists are
    left out of them: writing `ask when true` is deliberate. PC320-PC322 come with
    an example, facts on which the compiled policy was evaluated and asks through
    that rule: `declined` (or `rated`) true, for PC320; the last prompt less than
    7 days before `now` (and not after it), for PC321; the last prompt less than
    365 days ago with `prompts_within(365d)` (and any longer window) at least 3
    and `total_prompts` at least 3, for PC322. A policy without any condition on
    those counts can ask after 3 prompts, and gets PC322. Comparisons the
    analysis does not model (arithmetic, two facts compared with each other)
    never lead to a warning without such an example.

    SILENCING: a comment on the first line of a rule (or `let`), or alone on the
    line just above it, silences the named warnings for that declaration:
      # policyc: allow PC321
      ask loyal when days >= 30   # policyc: allow PC320, PC322

    A policy larger than 10,000 conditions is not analysed (a note says so); a
    check too complex for the search limits is skipped with a note.

    USAGE: policyc analyze [--format text|json|sarif|github] [--no-color] <file>...

    OPTIONS:
      --format <format>  `text` (default), `json` (diagnostics with their
                         example facts, and notes), `sarif` (SARIF 2.1.0 for
                         code scanning) or `github` (workflow annotations)
      --no-color         never colour the output
      -h, --help         show this help

    EXIT STATUS:
      0  no warnings
      1  warnings found
      2  usage error, a file could not be read, or a policy has errors

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    func usageError(_ message: String) -> Int32 {
      io.write("policyc analyze: error: \(message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let parsed: Arguments
    do {
      parsed = try Arguments.parse(arguments, valueOptions: ["format"], flagOptions: ["help", "no-color"])
    } catch {
      return usageError(error.message)
    }
    if parsed.flags.contains("help") {
      io.write(help, to: .standardOutput)
      return PolicyCLI.success
    }
    let format = parsed.values["format"] ?? "text"
    guard ["text", "json", "sarif", "github"].contains(format) else {
      return usageError("unknown format `\(format)`; use `text`, `json`, `sarif` or `github`")
    }
    guard !parsed.operands.isEmpty else { return usageError("no files given") }
    let renderer = DiagnosticRenderer(
      usesColor: format == "text" && PolicyCLI.usesColor(io, disabled: parsed.flags.contains("no-color")))

    var unreadable = false
    var results: [FileResult] = []
    for path in expand(parsed.operands, io: io, unreadable: &unreadable) {
      guard let source = CheckCommand.load(path, io: io, verb: "analyze") else {
        unreadable = true
        continue
      }
      let result: FileResult
      if let tooLarge = source.tooLarge {
        result = FileResult(path: source.file.path, source: source.file, diagnostics: [tooLarge])
      } else {
        let compilation = PolicyCompiler.compile(source.file, schema: ReviewSchema.standard)
        var diagnostics = compilation.diagnostics
        var report: AnalysisReport?
        if let policy = compilation.policy {
          let analysis = PolicyAnalyzer.analyze(policy, checks: ReviewEtiquette.checks)
          report = analysis
          diagnostics = PolicyAnalyzer.merge(compilation.diagnostics, analysis.warnings)
        }
        result = FileResult(
          path: source.file.path, source: source.file, diagnostics: diagnostics, report: report, policy: compilation.policy)
      }
      results.append(result)
      if format == "text" {
        var output = renderer.render(result.diagnostics, in: result.source)
        for note in result.report?.notes ?? [] { output += "\(result.path): note: \(note)\n" }
        io.write(output, to: .standardOutput)
      }
    }
    let counted = results.flatMap(\.diagnostics).filter { $0.code != .tooManyErrors && $0.code != .tooManyWarnings }
    let errors = counted.filter { $0.severity == .error }.count
    let warnings = counted.filter { $0.severity == .warning }.count
    if format == "json" {
      io.write(json(results, errors: errors, warnings: warnings), to: .standardOutput)
    } else if format == "sarif" {
      io.write(DiagnosticFormats.sarif(results.map { ($0.path, $0.source, $0.diagnostics) }), to: .standardOutput)
    } else if format == "github" {
      io.write(DiagnosticFormats.github(results.map { ($0.path, $0.source, $0.diagnostics) }), to: .standardOutput)
    } else if !results.isEmpty {
      let files = results.count == 1 ? "1 file" : "\(results.count) files"
      let summary =
        errors + warnings == 0
        ? "no problems"
        : [CheckCommand.count(errors, "error"), CheckCommand.count(warnings, "warning")].filter { !$0.isEmpty }
          .joined(separator: ", ")
      io.write("analyzed \(files): \(summary)\n", to: .standardOutput)
    }
    if unreadable || errors > 0 { return cannotAnalyse }
    return warnings > 0 ? PolicyCLI.failure : PolicyCLI.success
  }

  /// One analysed file.
  struct FileResult {
    var path: String
    var source: SourceFile
    var diagnostics: [Diagnostic]
    var report: AnalysisReport?
    var policy: CompiledPolicy?
  }

  /// Replaces each directory operand by the `.policy` files in it, sorted.
  static func expand(_ operands: [String], io: CommandIO, unreadable: inout Bool) -> [String] {
    var paths: [String] = []
    for operand in operands {
      guard operand != "-", io.isDirectory(operand) else {
        paths.append(operand)
        continue
      }
      do {
        let entries = try io.contentsOfDirectory(operand).filter { $0.hasSuffix(".policy") }.sorted()
        guard !entries.isEmpty else {
          io.write("policyc analyze: error: no .policy files in `\(operand)`\n", to: .standardError)
          unreadable = true
          continue
        }
        let base = operand.hasSuffix("/") ? operand : operand + "/"
        paths.append(contentsOf: entries.map { base + $0 })
      } catch {
        io.write("policyc analyze: error: cannot read `\(operand)`: \(error.reason)\n", to: .standardError)
        unreadable = true
      }
    }
    return paths
  }

  static func json(_ results: [FileResult], errors: Int, warnings: Int) -> String {
    var writer = JSONWriter()
    var raw = RawJSON()
    writer.object {
      $0.key("files")
      $0.array {
        for result in results {
          $0.object {
            $0.key("path"); $0.string(result.path)
            $0.key("diagnostics")
            $0.array {
              for diagnostic in result.diagnostics {
                let witness = result.report?.findings.first { $0.diagnostic == diagnostic }?.witness
                writeDiagnostic(diagnostic, witness: witness, result, to: &$0, raw: &raw)
              }
            }
            $0.key("silenced")
            $0.array {
              for finding in result.report?.silenced ?? [] {
                $0.object {
                  $0.key("code"); $0.string(finding.diagnostic.code.rawValue)
                  $0.key("message"); $0.string(finding.diagnostic.message)
                  $0.key("line"); $0.number(result.source.location(of: finding.diagnostic.range.start).line)
                }
              }
            }
            $0.key("notes")
            $0.array { for note in result.report?.notes ?? [] { $0.string(note) } }
          }
        }
      }
      $0.key("errorCount"); $0.number(errors)
      $0.key("warningCount"); $0.number(warnings)
    }
    return raw.resolve(writer.output) + "\n"
  }

  /// A diagnostic as `policyc check --format json` writes it, plus `witness`: the example
  /// facts (a facts file's object) or null.
  static func writeDiagnostic(
    _ diagnostic: Diagnostic, witness: Witness?, _ result: FileResult, to writer: inout JSONWriter, raw: inout RawJSON
  ) {
    let start = result.source.location(of: diagnostic.range.start)
    let end = result.source.location(of: diagnostic.range.end)
    writer.object {
      $0.key("severity"); $0.string(diagnostic.severity.rawValue)
      $0.key("code"); $0.string(diagnostic.code.rawValue)
      $0.key("message"); $0.string(diagnostic.message)
      $0.key("line"); $0.number(start.line)
      $0.key("column"); $0.number(start.column)
      $0.key("endLine"); $0.number(end.line)
      $0.key("endColumn"); $0.number(end.column)
      $0.key("startOffset"); $0.number(diagnostic.range.start)
      $0.key("endOffset"); $0.number(diagnostic.range.end)
      $0.key("help")
      $0.array { for line in diagnostic.help { $0.string(line) } }
      $0.key("witness")
      if let witness, let policy = result.policy {
        $0.string(raw.placeholder(WitnessFacts.object(witness, names: WitnessFacts.names(witness, reading: [policy]))))
      } else {
        $0.null()
      }
    }
  }
}

/// Witnesses written as facts files (`policyc eval --facts`).
enum WitnessFacts {
  /// The facts of `witness` worth writing for `policies`: those they read, and those the
  /// analysis constrained that they know.
  static func names(_ witness: Witness, reading policies: [CompiledPolicy]) -> [String] {
    var read = Set<String>()
    for policy in policies {
      for slot in policy.readSlots { read.insert(policy.layout.slots[slot].name) }
    }
    return witness.facts.filter { fact in
      read.contains(fact.name)
        || (fact.isConstrained && policies.contains { $0.layout.slot(named: fact.name) != nil })
    }.map(\.name)
  }

  /// The JSON text of a value in a facts file.
  static func json(_ value: Value?) -> String {
    guard let value else { return "null" }
    switch value {
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let integer): return String(integer)
    case .number(let number): return number.description
    case .duration(let span): return JSONWriter.quoted(span.description)
    case .instant(let instant): return JSONWriter.quoted(instant.description)
    case .version(let version): return JSONWriter.quoted(version.description)
    case .string(let text): return JSONWriter.quoted(text)
    }
  }

  /// The facts named `names` (and `now`) as one compact JSON object.
  static func object(_ witness: Witness, names: [String]) -> String {
    var members = ["\(JSONWriter.quoted("now")):\(JSONWriter.quoted(witness.now.description))"]
    for name in names {
      guard let fact = witness.fact(named: name) else { continue }
      members.append("\(JSONWriter.quoted(name)):\(json(fact.value))")
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  /// A facts file for `witness` with the facts named `names`, one per line.
  static func text(_ witness: Witness, names: [String]) -> String {
    var lines = ["  \(JSONWriter.quoted("now")): \(JSONWriter.quoted(witness.now.description))"]
    for name in names {
      guard let fact = witness.fact(named: name) else { continue }
      lines.append("  \(JSONWriter.quoted(name)): \(json(fact.value))")
    }
    return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
  }
}

/// Raw JSON spliced into a ``JSONWriter``'s output: the writer gets a placeholder string,
/// replaced by the raw text afterwards (the writer cannot write numbers with decimals).
struct RawJSON {
  private var texts: [String] = []

  /// A placeholder to write with `JSONWriter.string` in place of `raw`.
  mutating func placeholder(_ raw: String) -> String {
    texts.append(raw)
    return "\u{1}raw\(texts.count - 1)\u{1}"
  }

  /// `output` with every placeholder replaced by its raw text.
  func resolve(_ output: String) -> String {
    var result = output
    for (index, raw) in texts.enumerated() {
      result = result.replacingOccurrences(of: JSONWriter.quoted("\u{1}raw\(index)\u{1}"), with: raw)
    }
    return result
  }
}
