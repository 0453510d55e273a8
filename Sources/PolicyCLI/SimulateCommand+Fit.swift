import PolicyTools
import ReviewPolicy

/// `policyc simulate --fit <records>... [--output FILE]`: a behaviour file estimated from the
/// app's records (``BehaviourFit``), for `policyc simulate --behaviour`.
extension SimulateCommand {
  /// Whether `arguments` ask for a fit.
  static func isFit(_ arguments: [String]) -> Bool {
    arguments.contains { $0 == "--fit" || $0 == "-fit" || $0.hasPrefix("--fit=") }
  }

  /// Reads the records, estimates the behaviour and writes it (standard output or `--output`);
  /// the notes go to standard error.
  static func fit(_ arguments: [String], io: CommandIO) -> Int32 {
    let command = CommandContext(self, io: io)
    var files: [String] = []
    var output: String?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "--fit", "-fit":
        files += CommandContext.operands(of: arguments, from: &index)
      case "--output", "-o":
        guard index < arguments.count else { return command.usageError("option `\(argument)` needs a file") }
        output = arguments[index]
        index += 1
      case "-h", "--help":
        io.write(help, to: .standardOutput)
        return PolicyCLI.success
      default:
        if argument.hasPrefix("--fit=") {
          files.append(String(argument.dropFirst("--fit=".count)))
        } else if argument.hasPrefix("--output=") {
          output = String(argument.dropFirst("--output=".count))
        } else {
          return command.usageError(
            "`--fit` takes only records files and `--output FILE`, not `\(argument)` (it runs no policy)")
        }
      }
    }
    guard !files.isEmpty else { return command.usageError("give the records with `--fit <file>...`") }
    var fit = BehaviourFit()
    let (summary, failed) = command.readRecords(files) { fit.add($0) }
    let estimate = fit.finish()
    guard estimate.installs > 0 else {
      command.error("no records in \(files.count == 1 ? "`\(files[0])`" : "the \(files.count) files"): nothing to fit")
      return PolicyCLI.failure
    }
    for note in estimate.notes { io.write("policyc simulate: note: \(note)\n", to: .standardError) }
    if let output {
      do throws(FileReadError) {
        try io.replaceFile(output, with: Array(estimate.behaviourFile.utf8))
      } catch {
        command.error("cannot write `\(output)`: \(error.reason)")
        return PolicyCLI.usageError
      }
    } else {
      io.write(estimate.behaviourFile, to: .standardOutput)
    }
    return failed || summary.problems > 0 ? PolicyCLI.failure : PolicyCLI.success
  }
}
