import PolicyCore
import PolicyTools
import ReviewPolicy

extension CheckCommand {
  /// `policyc check --fix`: applies the fixes that help, rewrites the changed files, reports
  /// each fix and then the problems that remain, as `check` prints them.
  /// `fixer` replaces the check of each policy's environment when given (tests).
  static func fix(_ command: CommandContext, fixer: PolicyFixer?) -> Int32 {
    var command = command
    guard command.arguments.values["format"] == nil || command.arguments.values["format"] == "text" else {
      return command.usageError("--fix prints text only; leave out --format")
    }
    guard !command.arguments.operands.isEmpty else { return command.usageError("no files given") }
    guard !command.arguments.operands.contains("-") else {
      return command.usageError("--fix rewrites files; it cannot read standard input")
    }
    let io = command.io
    let renderer = command.renderer()
    var failed = false
    var status = PolicyCLI.success
    var remaining: [Diagnostic] = []
    var files = 0
    var fixes = 0
    var changedFiles = 0
    for path in command.expand(command.arguments.operands, failed: &failed) {
      guard let source = command.load(path) else {
        failed = true
        continue
      }
      files += 1
      if let tooLarge = source.tooLarge {
        io.write(renderer.render([tooLarge], in: source.file), to: .standardOutput)
        remaining.append(tooLarge)
        status = PolicyCLI.failure
        continue
      }
      // The policy's environment; a project file with problems is reported (once) with the
      // problems that remain, and the policies below it are fixed without the app's names.
      let environment = command.environment(forPolicyAt: path, failed: &failed) { project, diagnostics in
        io.write(renderer.render(diagnostics, in: project), to: .standardOutput)
        remaining.append(contentsOf: diagnostics)
        status = PolicyCLI.failure
      }
      let outcome = (fixer ?? PolicyFixer(environment: environment)).fix(source.file)
      var diagnostics = outcome.diagnosticsAfter
      var shown = outcome.fixed
      if outcome.changed {
        do {
          try io.replaceFile(path, with: outcome.fixed.bytes)
          changedFiles += 1
          fixes += outcome.applied.count
          for applied in outcome.applied {
            io.write(
              "\(path):\(applied.location.line):\(applied.location.column): fixed \(applied.code.rawValue): "
                + applied.message + "\n", to: .standardOutput)
          }
        } catch {
          command.error("cannot write `\(path)`: \(error.reason)")
          failed = true
          diagnostics = outcome.diagnosticsBefore
          shown = outcome.original
        }
      }
      io.write(renderer.render(diagnostics, in: shown), to: .standardOutput)
      if diagnostics.hasErrors { status = PolicyCLI.failure }
      remaining.append(contentsOf: diagnostics)
    }
    if files > 0 {
      let (errors, warnings) = DiagnosticSummary.counts(remaining)
      let count = fixes == 1 ? "1 fix" : "\(fixes) fixes"
      let fileCount = changedFiles == 1 ? "1 file" : "\(changedFiles) files"
      io.write(fixes == 0 ? "no fixes applied\n" : "applied \(count) to \(fileCount)\n", to: .standardOutput)
      io.write(DiagnosticSummary.line("checked", files: files, errors: errors, warnings: warnings), to: .standardOutput)
    }
    return failed ? PolicyCLI.usageError : status
  }
}
