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
    case "eval":
      return EvalCommand.run(rest, io: io, explains: false)
    case "fmt":
      return FormatCommand.run(rest, io: io)
    case "test":
      return TestCommand.run(rest, io: io)
    case "simulate":
      return SimulateCommand.run(rest, io: io)
    case "analyze":
      return AnalyzeCommand.run(rest, io: io)
    case "diff":
      return DiffCommand.run(rest, io: io)
    case "explain":
      return EvalCommand.run(rest, io: io, explains: true)
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
  static let commands = ["analyze", "check", "diff", "eval", "explain", "facts", "fmt", "help", "simulate", "test"]

  static let overview = """
    OVERVIEW: check review-prompt policies

    USAGE: policyc <command> [options]

    COMMANDS:
      check     Check policies and print diagnostics
      eval      Decide on a facts file: ask or not, and which rules decided
      explain   Show every rule and condition with the values it saw
      facts     List the facts policies can use
      fmt       Format policies in the canonical layout
      test      Run a policy's test cases
      simulate  Run policies over a synthetic population of users
      analyze   Find rules that never hold and prompts that break review etiquette
      diff      Say whether two policies decide the same, with a counterexample
      help      Show help for a command

    See 'policyc help <command>' for details.

    """

  static let check = """
    OVERVIEW: check policies against the review fact schema

    Prints each error and warning with its location, the source line and
    advice. Directories are searched for *.policy files. `-` reads standard input.

    USAGE: policyc check [--format text|json|sarif|github] [--no-color] <file>...

    OPTIONS:
      --format <format>  `text` (default), `json`, `sarif` (SARIF 2.1.0 for code
                         scanning) or `github` (GitHub Actions annotations)
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

  static let eval = """
    OVERVIEW: decide whether a policy asks, given a facts file

    Prints the decision (ask or don't ask) and the rules that decided, the
    instant used as `now`, and the facts the policy reads that took their
    fresh-install default because the file did not give them.

    USAGE: policyc eval <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]

    FACTS FILE: a JSON object from fact names to values, for example
      {"days": 31, "uses": 25, "last_prompt": "2026-01-15T10:00:00Z",
       "version": "3.1", "events(\"export\")": 4, "last_reminder": null}
    Durations are strings with units ("30d", "1d 12h"), instants ISO-8601
    strings, versions strings; null makes a fact that can be absent absent.
    The key "now" sets the evaluation instant. A missing fact takes its
    default: the schema's default, now for first_use and install_date, v1.0
    for version, absent for facts that can be absent.

    OPTIONS:
      --facts <file>     the facts file (required)
      --now <instant>    the evaluation instant (default: "now" in the facts
                         file, else the current time)
      --format <format>  `text` (default) or `json`
      --no-color         never colour diagnostics
      -h, --help         show this help

    EXIT STATUS:
      0  the policy was evaluated (whatever the decision)
      1  the policy or the facts file has errors
      2  usage error, or a file could not be read

    """

  static let explain = """
    OVERVIEW: explain a policy's decision on a facts file

    Prints the decision, then every rule with every condition: held, failed,
    not needed (an earlier condition already decided) or faulted, with the
    values it saw. This answers "why didn't it ask?".

    USAGE: policyc explain <policy> --facts <facts.json> [--now <ISO-8601>] [--format text|json]

    The facts file and options are those of `policyc eval` (see `policyc help eval`).
    Exit status as for `policyc eval`.

    """

  static let fmt = """
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

  static let test = """
    OVERVIEW: run policy test cases

    A test file (*.test.json) names a policy and lists cases. Each case gives
    either facts, or a usage history that runs through the real review manager,
    and the expected decision. Prints one line per case, then `N passed, N
    failed`.

    USAGE: policyc test [--coverage] [--format text|json] <test file or folder>...

    TEST FILE:
      {
        "policy": "review.policy",            (relative to the test file)
        "now": "2026-03-01T12:00:00Z",        (default `now` of facts cases)
        "start": "2026-01-01T00:00:00Z",      (default start of histories)
        "cases": [
          { "name": "a loyal user is asked",
            "facts": {"days": 31, "uses": 25, "plan": "pro"},
            "expect": "ask", "deciding": ["loyal"] },
          { "name": "not asked twice in eight weeks",
            "facts": {"plan": "pro"}, "version": "3.1",
            "history": ["launch x 20 every 1d", "event export x 3",
                        "prompt -> remind", "wait 3d", "prompt"],
            "expect": "dont_ask", "deciding": ["too_soon"], "prompts": 1 }
        ]
      }
    "facts" uses the format of `policyc eval` (see `policyc help eval`); in a
    history case it gives only the facts the policy declares. "deciding" is
    the exact set of deciding rules (names, or `ask rule at line N`);
    "prompts" the number of prompts the history showed.

    HISTORY STEPS:
      launch | foreground | session | end session | event [name] |
      action <score> [bad] [prompt] | prompt | wait <duration> | update <version>
      add `x <count> [every <duration>]` to repeat a step, and
      `-> rate|decline|remind|feedback|dismiss|unknown` to answer its prompt.

    OPTIONS:
      --coverage         also list the rules that never held or decided, and
                         the conditions that never held or never failed
      --format <format>  `text` (default) or `json`
      --no-color         never colour diagnostics
      -h, --help         show this help

    EXIT STATUS:
      0  every case passed
      1  a case failed, or a test file or its policy has errors
      2  usage error, or a file could not be read

    """

  static func text(for topic: String) -> String? {
    switch topic {
    case "simulate": SimulateCommand.help
    case "analyze": AnalyzeCommand.help
    case "diff": DiffCommand.help
    case "test": test
    case "fmt": fmt
    case "check": check
    case "eval": eval
    case "explain": explain
    case "facts": facts
    case "help": overview
    default: nil
    }
  }
}
