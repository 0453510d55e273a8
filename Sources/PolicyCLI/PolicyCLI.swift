import PolicyCore
import ReviewPolicy

/// The `policyc` commands as functions: arguments and streams in, exit status out.
public enum PolicyCLI {
  /// Exit status: success.
  public static let success: Int32 = 0
  /// Exit status: the input has errors (diagnostics were printed).
  public static let failure: Int32 = 1
  /// Exit status: usage or I/O error.
  public static let usageError: Int32 = 2

  /// Runs `policyc` with `arguments` (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    guard let command = arguments.first else {
      io.write(Help.overview, to: .standardError)
      return usageError
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "check":
      return CheckCommand.run(rest, io: io)
    case "facts":
      return FactsCommand.run(rest, io: io)
    case "help", "--help", "-h":
      if let topic = rest.first {
        guard let text = Help.text(for: topic) else {
          io.write("policyc: error: no help for `\(topic)`\n\n" + Help.overview, to: .standardError)
          return usageError
        }
        io.write(text, to: .standardOutput)
        return success
      }
      io.write(Help.overview, to: .standardOutput)
      return success
    default:
      let suggestion = EditDistance.suggestion(for: command, among: Help.commands)
      io.write(
        "policyc: error: unknown command `\(command)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "") + "\n\n"
          + Help.overview, to: .standardError)
      return usageError
    }
  }

  /// Whether output to standard output should be coloured: a terminal, and `NO_COLOR` unset or empty.
  static func usesColor(_ io: CommandIO, disabled: Bool) -> Bool {
    !disabled && io.isStandardOutputTerminal && (io.environment["NO_COLOR"] ?? "").isEmpty
  }
}

/// Help texts, one per command.
enum Help {
  static let commands = ["check", "facts", "help"]

  static let overview = """
    OVERVIEW: check review-prompt policies

    USAGE: policyc <command> [options]

    COMMANDS:
      check     Check policies and print diagnostics
      facts     List the facts policies can use
      help      Show help for a command

    See 'policyc help <command>' for details.

    """

  static let check = """
    OVERVIEW: check policies against the review fact schema

    Prints each error and warning with its location, the source line and
    advice. Directories are searched for *.policy files. `-` reads standard input.

    USAGE: policyc check [--format text|json] [--no-color] <file>...

    OPTIONS:
      --format <format>  `text` (default) or `json`
      --no-color         Never colour the output (colour is used only on a
                         terminal, and never when NO_COLOR is set)
      -h, --help         Show this help

    EXIT STATUS:
      0  no errors (warnings are allowed)
      1  at least one file has an error
      2  usage error, or a file could not be read

    """

  static let facts = """
    OVERVIEW: list the facts review policies can use

    Prints the standard review schema: each fact's name, type (`?` when it
    can be absent), unit, meaning and an example condition. Keyed facts such
    as `events(event_name)` take a literal key: `events("purchase")`.

    USAGE: policyc facts [--format text|json]

    OPTIONS:
      --format <format>  `text` (default) or `json`
      -h, --help         Show this help

    """

  static func text(for topic: String) -> String? {
    switch topic {
    case "check": check
    case "facts": facts
    case "help": overview
    default: nil
    }
  }
}
