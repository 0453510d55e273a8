/// A `policyc` verb. A new verb is a type conforming to this protocol, in a file of its own,
/// and one line in ``Commands/all``: dispatch, `policyc help`, the overview and the
/// did-you-mean for mistyped verbs all read that list.
protocol Command {
  /// The verb, such as `check`.
  static var name: String { get }
  /// The one-line summary in the overview.
  static var summary: String { get }
  /// The usage line(s) printed after a usage error.
  static var usage: String { get }
  /// `policyc help <name>` and `policyc <name> --help`.
  static var help: String { get }
  /// Runs the command with `arguments` (after the verb) and returns the exit status.
  static func run(_ arguments: [String], io: CommandIO) -> Int32
}

/// The registry of verbs, in the order of the overview.
enum Commands {
  /// Every verb.
  static var all: [any Command.Type] {
    [
      CheckCommand.self, EvalCommand.self, ExplainCommand.self, FactsCommand.self, FormatCommand.self,
      TestCommand.self, SimulateCommand.self, ReportCommand.self, ReplayCommand.self, AnalyzeCommand.self,
      DiffCommand.self,
      LSPCommand.self,
      HelpCommand.self,
    ]
  }

  /// The verb named `name`, if any.
  static func named(_ name: String) -> (any Command.Type)? {
    all.first { $0.name == name }
  }
}
