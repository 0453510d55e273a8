/// `policyc explain`: decide on a facts file and show every rule and condition with the values it saw.
enum ExplainCommand: Command {
  static let name = "explain"
  static let summary = "Show every rule and condition with the values it saw"
  static let usage = """
    USAGE: policyc explain <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]
                           [--events <names>]

    """

  static let help = """
    OVERVIEW: explain a policy's decision on a facts file

    Prints the decision, then every `let` the rules use with its value and,
    indented under it, the conditions inside it (or, for a `let` that is not a
    condition, the facts it reads), then every rule with every condition: held,
    failed, not needed (an earlier condition already decided, or another branch
    of an `or` held) or faulted, with the values it saw. This answers "why
    didn't it ask?": the failed conditions are exactly those that blocked, and
    a failed `let` shows what failed inside it.

    USAGE: policyc explain <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]
                           [--events <names>]

    The facts file, the project file and the options are those of `policyc
    eval` (see `policyc help eval`). Exit status as for `policyc eval`.

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    EvalCommand.run(arguments, io: io, as: self)
  }
}
