import PolicyAnalysis
import PolicyCore
import PolicyTools
import ReviewAnalysis

/// `policyc fmt`: print, check or rewrite policies in the canonical layout.
enum FormatCommand: Command {
  static let name = "fmt"
  static let summary = "Format policies in the canonical layout"
  static let usage = "USAGE: policyc fmt [--check | --write] <file>...\n"

  static let help = """
    OVERVIEW: format policies in the one canonical layout

    Single spaces around operators; one declaration per line; a rule that is
    too long (over 100 columns) or has comments inside gets one condition per
    line, each after its `and`/`or`. Comments and blank lines between
    declarations are kept. Formatting twice changes nothing, and the result
    always means the same as the input (this is checked before anything is
    written). Files with syntax errors are reported and left alone.

    USAGE: policyc fmt [--check | --write] <file>...

    OPTIONS:
      (none)      print the formatted policy on standard output
      --check     print a diff for each file that is not formatted; exit 1 if any
      --write     rewrite files that are not formatted (atomically)
      --no-color  never colour diagnostics
      -h, --help  show this help

    EXIT STATUS:
      0  formatted (or, with --check, already formatted)
      1  a file is not formatted (--check) or has errors
      2  usage error, or a file could not be read or written

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, flags: ["check", "write", "no-color"], help: help) { return status }
    let checks = command.arguments.flags.contains("check")
    let writes = command.arguments.flags.contains("write")
    guard !(checks && writes) else { return command.usageError("use `--check` or `--write`, not both") }
    guard !command.arguments.operands.isEmpty else { return command.usageError("no files given") }
    if writes && command.arguments.operands.contains("-") {
      return command.usageError("`--write` cannot rewrite standard input")
    }

    let renderer = command.renderer()
    var failed = false
    var unformatted: [String] = []
    // The messages about directories say `check`, as they always have.
    let paths = command.expand(command.arguments.operands, failed: &failed, verb: "check").filter { !$0.isEmpty }
    var status = failed ? PolicyCLI.usageError : PolicyCLI.success
    for path in paths {
      guard let loaded = command.load(path) else {
        status = PolicyCLI.usageError
        continue
      }
      if let tooLarge = loaded.tooLarge {
        io.write(renderer.render([tooLarge], in: loaded.file), to: .standardError)
        status = max(status, PolicyCLI.failure)
        continue
      }
      let parsedPolicy = Parser.parse(loaded.file)
      let original = String(decoding: loaded.file.bytes, as: UTF8.self)
      switch PolicyFormatter().format(parsedPolicy) {
      case .failure(.syntaxErrors):
        io.write(
          renderer.render(parsedPolicy.diagnostics.filter { $0.severity == .error }, in: loaded.file),
          to: .standardError)
        command.error("`\(loaded.file.path)` has errors and was not formatted")
        status = max(status, PolicyCLI.failure)
      case .failure(.meaningChanged):
        io.write(
          "policyc fmt: internal error: formatting `\(loaded.file.path)` would change its meaning; it was left as it is. Please report this file.\n",
          to: .standardError)
        status = max(status, PolicyCLI.failure)
      case .success(let formatted):
        let isFormatted = formatted.utf8.elementsEqual(loaded.file.bytes)
        if checks {
          if !isFormatted {
            unformatted.append(loaded.file.path)
            io.write(LineDiff.unified(old: original, new: formatted, path: loaded.file.path), to: .standardOutput)
            status = max(status, PolicyCLI.failure)
          }
        } else if writes {
          if !isFormatted {
            do {
              try io.replaceFile(path, with: Array(formatted.utf8))
              io.write("formatted \(path)\n", to: .standardOutput)
            } catch {
              command.error("cannot write `\(path)`: \(error.reason)")
              status = PolicyCLI.usageError
            }
          }
        } else {
          io.write(formatted, to: .standardOutput)
        }
      }
    }
    if checks && !unformatted.isEmpty {
      let count = unformatted.count == 1 ? "1 file is" : "\(unformatted.count) files are"
      io.write(
        "\(count) not formatted; run `policyc fmt --write` on \(unformatted.joined(separator: ", "))\n",
        to: .standardError)
    }
    return status
  }
}
