import PolicyCore

/// The `policyc` commands as functions: arguments and streams in, exit status out.
package enum PolicyCLI {
  /// Exit status: success.
  package static let success: Int32 = 0
  /// Exit status: the input has errors (diagnostics were printed).
  package static let failure: Int32 = 1
  /// Exit status: usage or I/O error.
  package static let usageError: Int32 = 2

  /// Runs `policyc` with `arguments` (without the program name) and returns the exit status.
  package static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    guard let verb = arguments.first else {
      io.write(Help.overview, to: .standardError)
      return usageError
    }
    let rest = Array(arguments.dropFirst())
    if VersionCommand.aliases.contains(verb) { return VersionCommand.run(rest, io: io) }
    if let command = Commands.named(verb) ?? (HelpCommand.aliases.contains(verb) ? HelpCommand.self : nil) {
      return command.run(rest, io: io)
    }
    let suggestion =
      verb == "version" ? VersionCommand.name : EditDistance.suggestion(for: verb, among: Help.commands)
    io.write(
      "policyc: error: unknown command `\(verb)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "") + "\n\n"
        + Help.overview, to: .standardError)
    return usageError
  }

  /// Whether output to standard output should be coloured: a terminal, and `NO_COLOR` unset or empty.
  static func usesColor(_ io: CommandIO, disabled: Bool) -> Bool {
    !disabled && io.isStandardOutputTerminal && (io.environment["NO_COLOR"] ?? "").isEmpty
  }
}

/// The overview and help of every verb, from the registry.
enum Help {
  /// The verbs, sorted.
  static var commands: [String] { Commands.all.map { $0.name }.sorted() }

  /// `policyc help`: the verbs with their summaries, in registry order.
  static var overview: String {
    let width = Commands.all.map { $0.name.count }.max() ?? 0
    let lines = Commands.all.map { command in
      "  " + command.name + String(repeating: " ", count: width - command.name.count) + "  " + command.summary + "\n"
    }
    return """
      OVERVIEW: check review-prompt policies

      USAGE: policyc <command> [options]

      COMMANDS:

      """ + lines.joined() + """

        OPTIONS:
          -h, --help     Show this overview
          -v, --version  Print the version of policyc

        See 'policyc help <command>' for details.

        """
  }

  /// The help of `topic`, a verb (or `--version`, `-v`, `version`); nil if there is no such verb.
  static func text(for topic: String) -> String? {
    if VersionCommand.aliases.contains(topic) || topic == "version" { return VersionCommand.help }
    return Commands.named(topic)?.help
  }
}
