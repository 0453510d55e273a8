/// `policyc --version` (or `-v`, `-V`): the version of the tool, one line on standard output.
///
/// Not a verb of ``Commands/all``: like `--help`, it is an option of `policyc` itself.
enum VersionCommand: Command {
  static let name = "--version"
  static let summary = "Print the version of policyc"
  static let usage = "USAGE: policyc --version\n"
  /// The spellings of the option: `-v` as most tools spell it, `-V` as Python and curl do.
  static let aliases = ["--version", "-v", "-V"]
  static var help: String { "OVERVIEW: print the version of policyc\n\n" + usage }

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    guard arguments.isEmpty else {
      io.write("policyc: error: `--version` takes no arguments\n\n" + usage, to: .standardError)
      return PolicyCLI.usageError
    }
    io.write("policyc \(PolicyCLI.version)\n", to: .standardOutput)
    return PolicyCLI.success
  }
}

extension PolicyCLI {
  /// The version of `policyc`, as `policyc --version` prints it (semantic versioning).
  package static let version = "0.1.0"
}
