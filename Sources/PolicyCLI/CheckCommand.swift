import PolicyCore
import ReviewPolicy

/// `policyc check`: compile each policy against the review schema and print its diagnostics.
enum CheckCommand {
  static let usage = "USAGE: policyc check [--format text|json|sarif|github] [--no-color] <file>...\n"

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    let parsed: Arguments
    do {
      parsed = try Arguments.parse(arguments, valueOptions: ["format"], flagOptions: ["help", "no-color"])
    } catch {
      io.write("policyc check: error: \(error.message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    if parsed.flags.contains("help") {
      io.write(Help.check, to: .standardOutput)
      return PolicyCLI.success
    }
    let format = parsed.values["format"] ?? "text"
    guard ["text", "json", "sarif", "github"].contains(format) else {
      io.write(
        "policyc check: error: unknown format `\(format)`; use `text`, `json`, `sarif` or `github`\n\n\(usage)",
        to: .standardError)
      return PolicyCLI.usageError
    }
    guard !parsed.operands.isEmpty else {
      io.write("policyc check: error: no files given\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let renderer = DiagnosticRenderer(usesColor: format == "text" && PolicyCLI.usesColor(io, disabled: parsed.flags.contains("no-color")))
    var status = PolicyCLI.success
    var results: [(path: String, source: SourceFile, diagnostics: [Diagnostic])] = []
    for path in expand(parsed.operands, io: io, status: &status) {
      guard let source = load(path, io: io) else {
        status = PolicyCLI.usageError
        continue
      }
      let diagnostics: [Diagnostic]
      if let tooLarge = source.tooLarge {
        diagnostics = [tooLarge]
      } else {
        // The compiler's diagnostics with the analyzer's warnings (never-holding rules, etiquette...).
        diagnostics = PolicyAnalyzer.diagnostics(
          for: PolicyCompiler.compile(source.file, schema: ReviewSchema.standard), checks: ReviewEtiquette.checks)
      }
      if diagnostics.hasErrors && status == PolicyCLI.success { status = PolicyCLI.failure }
      results.append((source.file.path, source.file, diagnostics))
      if format == "text" {
        io.write(renderer.render(diagnostics, in: source.file), to: .standardOutput)
      }
    }
    // The "too many" markers are not problems of their own.
    let counted = results.flatMap(\.diagnostics).filter { $0.code != .tooManyErrors && $0.code != .tooManyWarnings }
    let errors = counted.filter { $0.severity == .error }.count
    let warnings = counted.filter { $0.severity == .warning }.count
    if format == "json" {
      io.write(json(results, errors: errors, warnings: warnings), to: .standardOutput)
    } else if format == "sarif" {
      io.write(DiagnosticFormats.sarif(results), to: .standardOutput)
    } else if format == "github" {
      io.write(DiagnosticFormats.github(results), to: .standardOutput)
    } else if !results.isEmpty {
      let files = results.count == 1 ? "1 file" : "\(results.count) files"
      let summary =
        errors + warnings == 0
        ? "no problems" : [count(errors, "error"), count(warnings, "warning")].filter { !$0.isEmpty }.joined(separator: ", ")
      io.write("checked \(files): \(summary)\n", to: .standardOutput)
    }
    return status
  }

  static func count(_ number: Int, _ noun: String) -> String {
    number == 0 ? "" : "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// Replaces each directory operand by the `.policy` files in it, sorted.
  static func expand(_ operands: [String], io: CommandIO, status: inout Int32) -> [String] {
    var paths: [String] = []
    for operand in operands {
      guard operand != "-", io.isDirectory(operand) else {
        paths.append(operand)
        continue
      }
      do {
        let entries = try io.contentsOfDirectory(operand).filter { $0.hasSuffix(".policy") }.sorted()
        guard !entries.isEmpty else {
          io.write("policyc check: error: no .policy files in `\(operand)`\n", to: .standardError)
          status = PolicyCLI.usageError
          continue
        }
        let base = operand.hasSuffix("/") ? operand : operand + "/"
        paths.append(contentsOf: entries.map { base + $0 })
      } catch {
        io.write("policyc check: error: cannot read `\(operand)`: \(error.reason)\n", to: .standardError)
        status = PolicyCLI.usageError
      }
    }
    return paths
  }

  /// Reads a policy file, or reports why it could not be read.
  static func load(_ path: String, io: CommandIO, verb: String = "check") -> (file: SourceFile, tooLarge: Diagnostic?)? {
    let limit = Limits.maximumFileSize + 1
    let contents: (bytes: [UInt8], size: Int)
    if path == "-" {
      contents = io.readStandardInput(limit: limit)
    } else {
      do {
        contents = try io.readFile(path, limit: limit)
      } catch {
        io.write("policyc \(verb): error: cannot read `\(path)`: \(error.reason)\n", to: .standardError)
        return nil
      }
    }
    let displayPath = path == "-" ? "<stdin>" : path
    if contents.size > Limits.maximumFileSize {
      let file = SourceFile(path: displayPath, bytes: Array(contents.bytes.prefix(4096)))
      return (file, .fileTooLarge(size: contents.size))
    }
    return (SourceFile(path: displayPath, bytes: contents.bytes), nil)
  }

  static func json(_ results: [(path: String, source: SourceFile, diagnostics: [Diagnostic])], errors: Int, warnings: Int) -> String {
    var writer = JSONWriter()
    writer.object {
      $0.key("files")
      $0.array {
        for result in results {
          $0.object {
            $0.key("path"); $0.string(result.path)
            $0.key("diagnostics")
            $0.array {
              for diagnostic in result.diagnostics {
                DiagnosticJSON.write(diagnostic, in: result.source, to: &$0)
              }
            }
          }
        }
      }
      $0.key("errorCount"); $0.number(errors)
      $0.key("warningCount"); $0.number(warnings)
    }
    return writer.output + "\n"
  }
}

extension Diagnostic {
  /// The diagnostic for a file over ``Limits/maximumFileSize``, located at its start.
  static func fileTooLarge(size: Int) -> Diagnostic {
    .error(
      .fileTooLarge, "file is \(size) bytes; the limit is \(Limits.maximumFileSize) bytes (2 MiB)",
      at: .empty(at: 0), help: ["split the policy or remove unused parts"])
  }
}

/// The JSON form of a diagnostic.
enum DiagnosticJSON {
  static func write(_ diagnostic: Diagnostic, in source: SourceFile, to writer: inout JSONWriter) {
    let start = source.location(of: diagnostic.range.start)
    let end = source.location(of: diagnostic.range.end)
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
    }
  }
}
