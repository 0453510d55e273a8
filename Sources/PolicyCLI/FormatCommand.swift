import PolicyCore

/// `policyc fmt`: print, check or rewrite policies in the canonical layout.
enum FormatCommand {
  static let usage = "USAGE: policyc fmt [--check | --write] <file>...\n"

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    func usageError(_ message: String) -> Int32 {
      io.write("policyc fmt: error: \(message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let parsed: Arguments
    do {
      parsed = try Arguments.parse(arguments, valueOptions: [], flagOptions: ["check", "write", "help", "no-color"])
    } catch {
      return usageError(error.message)
    }
    if parsed.flags.contains("help") {
      io.write(Help.fmt, to: .standardOutput)
      return PolicyCLI.success
    }
    let checks = parsed.flags.contains("check")
    let writes = parsed.flags.contains("write")
    guard !(checks && writes) else { return usageError("use `--check` or `--write`, not both") }
    guard !parsed.operands.isEmpty else { return usageError("no files given") }
    if writes && parsed.operands.contains("-") { return usageError("`--write` cannot rewrite standard input") }

    let renderer = DiagnosticRenderer(usesColor: PolicyCLI.usesColor(io, disabled: parsed.flags.contains("no-color")))
    var status = PolicyCLI.success
    var unformatted: [String] = []
    var paths = CheckCommand.expand(parsed.operands, io: io, status: &status)
    paths = paths.filter { !$0.isEmpty }
    for path in paths {
      guard let loaded = CheckCommand.load(path, io: io, verb: "fmt") else {
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
        io.write(renderer.render(parsedPolicy.diagnostics.filter { $0.severity == .error }, in: loaded.file), to: .standardError)
        io.write("policyc fmt: error: `\(loaded.file.path)` has errors and was not formatted\n", to: .standardError)
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
              io.write("policyc fmt: error: cannot write `\(path)`: \(error.reason)\n", to: .standardError)
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
      io.write("\(count) not formatted; run `policyc fmt --write` on \(unformatted.joined(separator: ", "))\n", to: .standardError)
    }
    return status
  }
}
