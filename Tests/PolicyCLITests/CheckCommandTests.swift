import Foundation
import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy
import Testing

@testable import PolicyCLI
@testable import PolicyTools

/// The usage line printed after a usage error of `policyc check`.
let checkUsage = """
  USAGE: policyc check [--format text|json|sarif|github] [--events <names>] [--update-limits]
                       [--no-color] <file>...
         policyc check --fix [--events <names>] [--no-color] <file>...

  """

/// `policyc` with no command, or `policyc help`.
let overviewHelp = """
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
    report    Read out a rollout from the app's records
    replay    Replay the app's real installs under a policy
    analyze   Find rules that never hold and prompts that break review etiquette
    diff      Say whether two policies decide the same, with a counterexample
    lsp       Serve editors over the Language Server Protocol
    help      Show help for a command

  OPTIONS:
    -h, --help     Show this overview
    -v, --version  Print the version of policyc

  See 'policyc help <command>' for details.

  """

/// `policyc help check`.
let checkHelp = """
  OVERVIEW: check policies against the review fact schema

  Prints each error and warning with its location, the source line and
  advice. A warning with an example (PC320-PC322) ends with a user's history
  that leads to it, as a case for `policyc test`, replayed before it is shown
  (`testCase` in JSON). Directories are searched for *.policy files. `-` reads
  standard input.

  PROJECT FILE: each policy is compiled with the app's declarations in the
  nearest reviewpolicy.json, in the policy's folder or a folder above it (for
  standard input, from the current directory), such as
    {"events": ["export", "purchase"]}
  `events` lists the event names the app records (as in
  `ReviewManager.Configuration.eventNames`): an event name a policy reads or
  declares outside them is an error (PC217). Without a project file or
  --events, a policy may read any event name it does not itself restrict with
  `event`. A project file with errors is reported as a file of its own; the
  policies below it are checked without the app's names.

  USAGE: policyc check [--format text|json|sarif|github] [--events <names>]
                       [--update-limits] [--no-color] <file>...
         policyc check --fix [--events <names>] [--no-color] <file>...

  OPTIONS:
    --fix              Apply the fixes the diagnostics carry, one at a time, each
                       only when the file checks better with it (no new errors,
                       fewer problems), until none helps; rewrite each changed
                       file atomically and print `PATH:LINE:COL: fixed CODE: FIX`
                       for each fix, then the problems that remain
    --format <format>  `text` (default), `json`, `sarif` (SARIF 2.1.0 for code
                       scanning) or `github` (GitHub Actions annotations)
    --events <names>   The event names the app records, separated by commas,
                       for every policy instead of its project file's: an
                       event name a policy reads or declares outside them is
                       an error (PC217)
    --no-color         Never colour the output (colour is used only on a
                       terminal, and never when NO_COLOR is set)
    --update-limits    Check each file against the limits of a remote policy
                       update (64 KiB, 256 rules, ...; docs/remote-updates.md)
                       instead of those of a policy file
    -h, --help         Show this help

  EXIT STATUS:
    0  no errors (warnings are allowed)
    1  at least one file has an error
    2  usage error, or a file could not be read or written

  With --fix the status is that of the files after fixing.

  """

/// A clean policy.
/// It respects review etiquette, so the analyzer has nothing to say either.
let cleanPolicy = """
  never answered when declined or rated
  never too_soon when since(last_prompt) < 8w
  never yearly_cap when prompts_within(365d) >= 3
  ask when days >= 30 and uses >= 20

  """
/// A policy with one error (PC201 at 1:10).
let errorPolicy = "ask when dayz >= 30\n"
/// A policy with one warning (PC302 at 1:5).
let warningPolicy = "let loyal = days >= 30\nask when uses >= 20  # policyc: allow PC320 PC321 PC322\n"

/// The text output for ``errorPolicy`` at `path`, without the summary.
func errorOutput(_ path: String) -> String {
  """
  \(path):1:10: error: unknown name `dayz` [PC201]
   1 | ask when dayz >= 30
     |          ^~~~
  help: did you mean `days`?

  """
}

/// The text output for ``warningPolicy`` at `path`, without the summary.
func warningOutput(_ path: String) -> String {
  """
  \(path):1:5: warning: `loyal` is defined but never used [PC302]
   1 | let loyal = days >= 30
     |     ^~~~~
  help: use it in a rule or remove it

  """
}

@Suite("policyc usage errors")
struct UsageTests {
  @Test("no arguments: the overview on standard error, exit 2")
  func noArguments() {
    let result = runPolicyc([])
    #expect(result == RunResult(status: 2, standardOutput: "", standardError: overviewHelp))
  }

  @Test("`check` without files: exit 2 and the usage line")
  func noFiles() {
    let result = runPolicyc(["check"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "", standardError: "policyc check: error: no files given\n\n" + checkUsage))
  }

  @Test("`check` with only options and no files: exit 2 and the usage line")
  func optionsButNoFiles() {
    let result = runPolicyc(["check", "--format", "json", "--no-color"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "", standardError: "policyc check: error: no files given\n\n" + checkUsage))
  }

  @Test("an unknown option: exit 2, the usage line, and no file is read")
  func unknownOption() {
    let io = MemoryIO()
    io.addFile("a.policy", cleanPolicy)
    let result = io.run(["check", "--bogus", "a.policy"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc check: error: unknown option `--bogus`\n\n" + checkUsage))
    #expect(io.readPaths.isEmpty)
  }

  @Test("a misspelled option suggests the right one")
  func misspelledOption() {
    let result = runPolicyc(["check", "--form", "json", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc check: error: unknown option `--form`; did you mean `--format`?\n\n" + checkUsage))
  }

  @Test("an unknown single-dash option is a usage error")
  func unknownShortOption() {
    let result = runPolicyc(["check", "-x", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "", standardError: "policyc check: error: unknown option `-x`\n\n" + checkUsage))
  }

  @Test("an unknown format: exit 2 and nothing is checked")
  func unknownFormat() {
    let io = MemoryIO()
    io.addFile("a.policy", errorPolicy)
    let result = io.run(["check", "--format", "xml", "a.policy"])
    #expect(result.status == 2)
    #expect(result.standardOutput == "")
    #expect(
      result.standardError.hasPrefix(
        "policyc check: error: unknown format `xml`; use `text`, `json`, `sarif` or `github`\n"))
    #expect(io.readPaths.isEmpty)
  }

  @Test("an unknown format prints the usage line like every other usage error")
  func unknownFormatPrintsUsage() {
    let result = runPolicyc(["check", "--format=xml", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(
      result.standardError == "policyc check: error: unknown format `xml`; use `text`, `json`, `sarif` or `github`\n\n"
        + checkUsage)
  }

  @Test("`--format` without a value")
  func formatWithoutValue() {
    let result = runPolicyc(["check", "--format"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc check: error: option `--format` needs a value\n\n" + checkUsage))
  }

  @Test("`--no-color=yes` is a usage error")
  func flagWithValue() {
    let result = runPolicyc(["check", "--no-color=yes", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc check: error: option `--no-color` takes no value\n\n" + checkUsage))
  }

  @Test("an unknown command suggests the closest one")
  func unknownCommandDidYouMean() {
    let result = runPolicyc(["chek", "a.policy"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc: error: unknown command `chek`; did you mean `check`?\n\n" + overviewHelp))
  }

  @Test("an unknown command far from every command gets no suggestion")
  func unknownCommandWithoutSuggestion() {
    let result = runPolicyc(["frobnicate"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc: error: unknown command `frobnicate`\n\n" + overviewHelp))
  }
}

@Suite("policyc help")
struct HelpTests {
  @Test("the overview on standard output, exit 0", arguments: [["help"], ["--help"], ["-h"], ["help", "help"]])
  func overview(arguments: [String]) {
    #expect(runPolicyc(arguments) == RunResult(status: 0, standardOutput: overviewHelp, standardError: ""))
  }

  @Test(
    "the help of `check` on standard output, exit 0",
    arguments: [["help", "check"], ["check", "--help"], ["check", "-h"], ["check", "--help", "missing.policy"]])
  func check(arguments: [String]) {
    #expect(runPolicyc(arguments) == RunResult(status: 0, standardOutput: checkHelp, standardError: ""))
  }

  @Test("help for an unknown topic: exit 2")
  func unknownTopic() {
    let result = runPolicyc(["help", "nope"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "", standardError: "policyc: error: no help for `nope`\n\n" + overviewHelp))
  }
}

@Suite("policyc check: files, exit status and output")
struct CheckTests {
  @Test("a clean file: exit 0 and `no problems`")
  func cleanFile() {
    let result = runPolicyc(["check", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(result == RunResult(status: 0, standardOutput: "checked 1 file: no problems\n", standardError: ""))
  }

  @Test("the product's one-line example is a complete policy: no errors, exit 0, and the etiquette it lacks")
  func oneLineExample() {
    let result = runPolicyc(
      ["check", "review.policy"], files: ["review.policy": "days >= 30 and uses >= 20 and not declined"])
    #expect(result.status == 0)
    #expect(diagnosticCodes(in: result.standardOutput) == ["PC320", "PC321", "PC322"])
    #expect(result.standardOutput.hasSuffix("checked 1 file: 3 warnings\n"))
  }

  @Test("warnings only: exit 0")
  func warningsOnly() {
    let result = runPolicyc(["check", "w.policy"], files: ["w.policy": warningPolicy])
    #expect(
      result
        == RunResult(
          status: 0, standardOutput: warningOutput("w.policy") + "checked 1 file: 1 warning\n", standardError: ""))
  }

  @Test("an error: exit 1")
  func error() {
    let result = runPolicyc(["check", "e.policy"], files: ["e.policy": errorPolicy])
    #expect(
      result
        == RunResult(
          status: 1, standardOutput: errorOutput("e.policy") + "checked 1 file: 1 error\n", standardError: ""))
  }

  @Test("several files: each in order, one summary, exit 1 when any has an error")
  func severalFiles() {
    let result = runPolicyc(
      ["check", "w.policy", "e.policy", "ok.policy", "e2.policy"],
      files: ["w.policy": warningPolicy, "e.policy": errorPolicy, "ok.policy": cleanPolicy, "e2.policy": errorPolicy])
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: warningOutput("w.policy") + errorOutput("e.policy") + errorOutput("e2.policy")
            + "checked 4 files: 2 errors, 1 warning\n",
          standardError: ""))
  }

  @Test("a missing file: exit 2, a message naming it, and the other files are still checked")
  func missingFile() {
    let io = MemoryIO()
    io.addFile("a.policy", cleanPolicy)
    io.addFile("c.policy", warningPolicy)
    let result = io.run(["check", "a.policy", "missing.policy", "c.policy"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: warningOutput("c.policy") + "checked 2 files: 1 warning\n",
          standardError: "policyc check: error: cannot read `missing.policy`: No such file or directory\n"))
    #expect(io.readPaths == ["a.policy", "missing.policy", "c.policy"])
  }

  @Test(
    "an I/O error wins over an error in another file: exit 2 in either order",
    arguments: [["e.policy", "missing.policy"], ["missing.policy", "e.policy"]])
  func ioErrorWinsOverError(files: [String]) {
    let result = runPolicyc(["check"] + files, files: ["e.policy": errorPolicy])
    #expect(result.status == 2)
    #expect(result.standardOutput == errorOutput("e.policy") + "checked 1 file: 1 error\n")
    #expect(result.standardError == "policyc check: error: cannot read `missing.policy`: No such file or directory\n")
  }

  @Test("an unreadable file reports the system's reason")
  func unreadableFile() {
    let io = MemoryIO()
    io.fileErrors["secret.policy"] = "Permission denied"
    let result = io.run(["check", "secret.policy"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "",
          standardError: "policyc check: error: cannot read `secret.policy`: Permission denied\n"))
  }

  @Test("a directory operand expands to its *.policy files, sorted")
  func directoryOperand() {
    let io = MemoryIO()
    io.addFile("policies/b.policy", errorPolicy)
    io.addFile("policies/a.policy", warningPolicy)
    io.addFile("policies/c.policy", cleanPolicy)
    io.addFile("policies/notes.txt", "not a policy")
    io.addFile("policies/d.policy.bak", errorPolicy)
    io.addFile("policies/nested/e.policy", errorPolicy)
    let result = io.run(["check", "policies"])
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: warningOutput("policies/a.policy") + errorOutput("policies/b.policy")
            + "checked 3 files: 1 error, 1 warning\n",
          standardError: ""))
    #expect(io.readPaths == ["policies/a.policy", "policies/b.policy", "policies/c.policy"])
  }

  @Test("a directory operand with a trailing slash gives the same paths")
  func directoryOperandWithSlash() {
    let io = MemoryIO()
    io.addFile("policies/b.policy", cleanPolicy)
    io.addFile("policies/a.policy", errorPolicy)
    let result = io.run(["check", "policies/", "extra.policy"])
    #expect(result.status == 2)
    #expect(result.standardOutput == errorOutput("policies/a.policy") + "checked 2 files: 1 error\n")
    #expect(result.standardError == "policyc check: error: cannot read `extra.policy`: No such file or directory\n")
    #expect(io.readPaths == ["policies/a.policy", "policies/b.policy", "extra.policy"])
  }

  @Test("a directory that cannot be listed: exit 2 and the reason")
  func unreadableDirectory() {
    let io = MemoryIO()
    io.directoryErrors["locked"] = "Permission denied"
    io.addFile("a.policy", cleanPolicy)
    let result = io.run(["check", "locked", "a.policy"])
    #expect(
      result
        == RunResult(
          status: 2, standardOutput: "checked 1 file: no problems\n",
          standardError: "policyc check: error: cannot read `locked`: Permission denied\n"))
  }

  @Test("`-` reads standard input, shown as <stdin>")
  func standardInput() {
    let io = MemoryIO()
    io.standardInput = Array("dayz >= 30\n".utf8)
    let result = io.run(["check", "-"])
    #expect(
      result
        == RunResult(
          status: 1,
          standardOutput: """
            <stdin>:1:1: error: unknown name `dayz` [PC201]
             1 | dayz >= 30
               | ^~~~
            help: did you mean `days`?
            checked 1 file: 1 error

            """,
          standardError: ""))
    #expect(io.standardInputReads == 1)
    #expect(io.readPaths.isEmpty)
  }

  @Test("`-` with a clean policy on standard input, beside a file")
  func standardInputBesideFile() {
    let result = runPolicyc(
      ["check", "e.policy", "-"], files: ["e.policy": errorPolicy],
      standardInput: cleanPolicy)
    #expect(
      result
        == RunResult(
          status: 1, standardOutput: errorOutput("e.policy") + "checked 2 files: 1 error\n", standardError: ""))
  }

  @Test("`--` ends the options, so a file may start with a dash")
  func doubleDash() {
    let result = runPolicyc(["check", "--", "-odd.policy"], files: ["-odd.policy": errorPolicy])
    #expect(
      result
        == RunResult(
          status: 1, standardOutput: errorOutput("-odd.policy") + "checked 1 file: 1 error\n", standardError: ""))
  }

  @Test("a file over 2 MiB on standard input is reported as PC100, not read whole")
  func standardInputTooLarge() {
    let io = MemoryIO()
    io.standardInput = Array(repeating: UInt8(ascii: "("), count: 3 * 1024 * 1024)
    let result = io.run(["check", "-"])
    #expect(result.status == 1)
    #expect(
      result.standardOutput.hasPrefix(
        "<stdin>:1:1: error: file is 3145728 bytes; the limit is 2097152 bytes (2 MiB) [PC100]\n"))
    #expect(result.standardOutput.hasSuffix("help: split the policy or remove unused parts\nchecked 1 file: 1 error\n"))
  }
}

@Suite("policyc check --format json")
struct JSONFormatTests {
  static let mixedPolicy = "let unused = 3\nask when dayz >= 3\n"

  @Test("a file with an error and a warning: exact JSON")
  func errorAndWarning() throws {
    let result = runPolicyc(
      ["check", "--format", "json", "m.policy"], files: ["m.policy": JSONFormatTests.mixedPolicy])
    let expected =
      #"{"files":[{"path":"m.policy","diagnostics":["#
      + #"{"severity":"warning","code":"PC302","domain":"PolicyCore","message":"`unused` is defined but never used","line":1,"column":5,"endLine":1,"endColumn":11,"startOffset":4,"endOffset":10,"help":["use it in a rule or remove it"],"notes":[],"fixIts":[],"witness":null,"testCase":null},"#
      + #"{"severity":"error","code":"PC201","domain":"PolicyCore","message":"unknown name `dayz`","line":2,"column":10,"endLine":2,"endColumn":14,"startOffset":24,"endOffset":28,"help":["did you mean `days`?"],"notes":[],"fixIts":[{"message":"replace `dayz` with `days`","automatic":true,"edits":[{"startOffset":24,"endOffset":28,"line":2,"column":10,"endLine":2,"endColumn":14,"replacement":"days"}]}],"witness":null,"testCase":null}"#
      + #"],"silenced":[],"notes":[]}],"errorCount":1,"warningCount":1}"# + "\n"
    #expect(result == RunResult(status: 1, standardOutput: expected, standardError: ""))
  }

  @Test("the JSON parses with JSONSerialization and carries the same facts")
  func parses() throws {
    let result = runPolicyc(
      ["check", "--format=json", "m.policy", "ok.policy"],
      files: ["m.policy": JSONFormatTests.mixedPolicy, "ok.policy": cleanPolicy])
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let root = try #require(object as? [String: Any])
    #expect(root["errorCount"] as? Int == 1)
    #expect(root["warningCount"] as? Int == 1)
    let files = try #require(root["files"] as? [[String: Any]])
    #expect(files.map { $0["path"] as? String } == ["m.policy", "ok.policy"])
    let diagnostics = try #require(files[0]["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["code"] as? String } == ["PC302", "PC201"])
    #expect(diagnostics.map { $0["severity"] as? String } == ["warning", "error"])
    #expect(diagnostics[1]["message"] as? String == "unknown name `dayz`")
    #expect(diagnostics[1]["line"] as? Int == 2)
    #expect(diagnostics[1]["column"] as? Int == 10)
    #expect(diagnostics[1]["help"] as? [String] == ["did you mean `days`?"])
    #expect((files[1]["diagnostics"] as? [Any])?.isEmpty == true)
  }

  @Test("quotes in messages are escaped")
  func escaping() throws {
    let result = runPolicyc(
      ["check", "--format", "json", "u.policy"], files: ["u.policy": "fact plan: string\nask when plan == \"pro\n"])
    let expected =
      #"{"files":[{"path":"u.policy","diagnostics":[{"severity":"error","code":"PC103","domain":"PolicyCore","message":"string is missing its closing `\"`","line":2,"column":18,"endLine":2,"endColumn":22,"startOffset":35,"endOffset":39,"help":["strings end on the line where they start; add `\"` at the end"],"notes":[],"fixIts":[],"witness":null,"testCase":null}],"silenced":[],"notes":[]}],"errorCount":1,"warningCount":0}"#
      + "\n"
    #expect(result == RunResult(status: 1, standardOutput: expected, standardError: ""))
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    let message = ((object?["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]])?.first?["message"]
    #expect(message as? String == "string is missing its closing `\"`")
  }

  @Test("a missing file in JSON mode: reported on standard error, left out of the JSON, exit 2")
  func missingFile() {
    let result = runPolicyc(
      ["check", "--format", "json", "ok.policy", "gone.policy"], files: ["ok.policy": cleanPolicy])
    #expect(
      result
        == RunResult(
          status: 2,
          standardOutput:
            #"{"files":[{"path":"ok.policy","diagnostics":[],"silenced":[],"notes":[]}],"errorCount":0,"warningCount":0}"#
            + "\n",
          standardError: "policyc check: error: cannot read `gone.policy`: No such file or directory\n"))
  }

  @Test("JSON is never coloured, even on a terminal")
  func noColourInJSON() {
    let result = runPolicyc(
      ["check", "--format", "json", "e.policy"], files: ["e.policy": errorPolicy], terminal: true)
    #expect(result.status == 1)
    #expect(!result.standardOutput.contains("\u{1B}"))
    #expect(
      result.standardOutput.hasPrefix(
        #"{"files":[{"path":"e.policy","diagnostics":[{"severity":"error","code":"PC201""#))
  }
}

@Suite("policyc check colour")
struct ColourTests {
  static let plain = errorOutput("e.policy") + "checked 1 file: 1 error\n"

  @Test("ANSI colour on a terminal when NO_COLOR is unset")
  func colourOnTerminal() {
    let result = runPolicyc(["check", "e.policy"], files: ["e.policy": errorPolicy], terminal: true)
    let esc = "\u{1B}"
    let expected =
      "\(esc)[1me.policy:1:10:\(esc)[0m \(esc)[1;31merror:\(esc)[0m \(esc)[1munknown name `dayz`\(esc)[0m [PC201]\n"
      + " \(esc)[1;34m1\(esc)[0m \(esc)[1;34m|\(esc)[0m ask when dayz >= 30\n"
      + "   \(esc)[1;34m|\(esc)[0m          \(esc)[1;32m^~~~\(esc)[0m\n"
      + "\(esc)[1;36mhelp:\(esc)[0m did you mean `days`?\n"
      + "checked 1 file: 1 error\n"
    #expect(result == RunResult(status: 1, standardOutput: expected, standardError: ""))
  }

  @Test("warnings are yellow on a terminal")
  func warningColour() {
    let result = runPolicyc(["check", "w.policy"], files: ["w.policy": warningPolicy], terminal: true)
    #expect(result.standardOutput.contains("\u{1B}[1;33mwarning:\u{1B}[0m"))
    #expect(!result.standardOutput.contains("\u{1B}[1;31m"))
  }

  @Test("an empty NO_COLOR counts as unset")
  func emptyNoColor() {
    let result = runPolicyc(
      ["check", "e.policy"], files: ["e.policy": errorPolicy], environment: ["NO_COLOR": ""], terminal: true)
    #expect(result.standardOutput.contains("\u{1B}[1;31merror:\u{1B}[0m"))
  }

  struct PlainCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var environment: [String: String] = [:]
    var terminal: Bool
    var testDescription: String { "\(arguments) env \(environment) terminal \(terminal)" }
  }

  @Test(
    "no colour with NO_COLOR set, with --no-color, or off a terminal",
    arguments: [
      PlainCase(arguments: ["check", "e.policy"], environment: ["NO_COLOR": "1"], terminal: true),
      PlainCase(arguments: ["check", "--no-color", "e.policy"], terminal: true),
      PlainCase(arguments: ["check", "e.policy", "--no-color"], terminal: true),
      PlainCase(arguments: ["check", "e.policy"], terminal: false),
      PlainCase(arguments: ["check", "e.policy"], environment: ["TERM": "xterm-256color"], terminal: false),
    ])
  func noColour(_ plain: PlainCase) {
    let result = runPolicyc(
      plain.arguments, files: ["e.policy": errorPolicy], environment: plain.environment, terminal: plain.terminal)
    #expect(result == RunResult(status: 1, standardOutput: ColourTests.plain, standardError: ""))
    #expect(!result.standardOutput.contains("\u{1B}"))
  }
}

@Suite("policyc facts")
struct FactsCommandTests {
  @Test("the table lists every fact and family of the schema, with a header, exit 0")
  func table() {
    let result = runPolicyc(["facts"])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("NAME") == true)
    for fact in ReviewSchema.standard.facts {
      #expect(lines.contains { $0.hasPrefix(fact.name + " ") }, "\(fact.name)")
    }
    #expect(lines.contains { $0.hasPrefix("events(event_name) ") && $0.contains("events(\"purchase\") >= 3") })
    #expect(lines.contains { $0.hasPrefix("last_prompt ") && $0.contains("instant?") })
  }

  @Test("--format json parses and has one object per fact and family")
  func json() throws {
    let result = runPolicyc(["facts", "--format", "json"])
    #expect(result.status == 0)
    let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
    let rows = try #require(parsed)
    #expect(rows.count == ReviewSchema.standard.facts.count + ReviewSchema.standard.families.count)
    let days = try #require(rows.first { $0["name"] as? String == "days" })
    #expect(days["type"] as? String == "int")
    #expect(days["unit"] as? String == "days")
    #expect(days["default"] as? String == "0")
    #expect(days["canBeAbsent"] as? Bool == false)
  }

  @Test("usage errors exit 2")
  func usage() {
    #expect(runPolicyc(["facts", "--format", "xml"]).status == 2)
    #expect(runPolicyc(["facts", "extra"]).status == 2)
    #expect(runPolicyc(["facts", "--bogus"]).status == 2)
    #expect(runPolicyc(["facts", "--help"]).standardOutput.contains("USAGE: policyc facts"))
  }
}

@Suite("policyc check --format sarif and github")
struct CheckFormatTests {
  static let policy = "ask when dayz > 3\nlet x = 1\n"

  @Test("github: one workflow command per diagnostic, properties and data escaped")
  func github() {
    let result = runPolicyc(
      ["check", "--format", "github", "a,b.policy"], files: ["a,b.policy": CheckFormatTests.policy])
    #expect(result.status == 1)
    #expect(
      result.standardOutput == """
        ::error file=a%2Cb.policy,line=1,col=10,endLine=1,endColumn=14,title=PC201 unknown name::unknown name `dayz`%0Ahelp: did you mean `days`?
        ::warning file=a%2Cb.policy,line=2,col=5,endLine=2,endColumn=6,title=PC302 unused `let`::`x` is defined but never used%0Ahelp: use it in a rule or remove it

        """)
    #expect(DiagnosticFormats.data("50% done\r\nok") == "50%25 done%0D%0Aok")
    #expect(DiagnosticFormats.property("a:b,c") == "a%3Ab%2Cc")
  }

  @Test("sarif: a valid SARIF 2.1.0 log with rules and located results")
  func sarif() throws {
    let result = runPolicyc(["check", "--format", "sarif", "a.policy"], files: ["a.policy": CheckFormatTests.policy])
    #expect(result.status == 1)
    let log = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "policyc")
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.map { $0["id"] as? String } == ["PC201", "PC302"])
    #expect(rules.map { $0["name"] as? String } == ["UnknownName", "UnusedLet"])
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.map { $0["level"] as? String } == ["error", "warning"])
    let location = try #require(
      (results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
    #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "a.policy")
    let region = try #require(location["region"] as? [String: Any])
    #expect(region["startLine"] as? Int == 1)
    #expect(region["startColumn"] as? Int == 10)
    #expect(region["endColumn"] as? Int == 14)
    #expect(
      (results[0]["message"] as? [String: Any])?["text"] as? String == "unknown name `dayz`\nhelp: did you mean `days`?"
    )
  }

  @Test("a clean file: an empty SARIF result list and no annotations; exit 0")
  func clean() throws {
    let sarif = runPolicyc(["check", "--format", "sarif", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(sarif.status == 0)
    #expect(sarif.standardOutput.contains(#""results":[]"#))
    let github = runPolicyc(["check", "--format", "github", "a.policy"], files: ["a.policy": cleanPolicy])
    #expect(github == RunResult(status: 0, standardOutput: "", standardError: ""))
  }

  @Test("every diagnostic code has a written summary")
  func summaries() {
    for code in KnownDiagnosticCodes.all {
      #expect(!code.summary.isEmpty, "\(code.rawValue) has no summary")
    }
  }
}

@Suite("policyc analyze --format sarif and github")
struct AnalyzeFormatTests {
  @Test("analyze writes etiquette warnings as workflow annotations and as SARIF; exit 1 for warnings")
  func formats() throws {
    let files = ["o.policy": "days >= 30 and uses >= 20 and not declined\n"]
    let github = runPolicyc(["analyze", "--format", "github", "o.policy"], files: files)
    #expect(github.status == 1)
    let lines = github.standardOutput.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.hasPrefix("::warning file=o.policy,line=1,col=1,") })
    #expect(lines.map { $0.contains(",title=PC320 ") } == [true, false, false])
    #expect(lines.map { $0.contains(",title=PC321 ") } == [false, true, false])
    #expect(lines.map { $0.contains(",title=PC322 ") } == [false, false, true])
    let sarif = runPolicyc(["analyze", "--format", "sarif", "o.policy"], files: files)
    #expect(sarif.status == 1)
    let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    #expect((run["results"] as? [[String: Any]])?.map { $0["ruleId"] as? String } == ["PC320", "PC321", "PC322"])
    #expect(runPolicyc(["analyze", "--format", "yaml", "o.policy"], files: files).status == 2)
  }
}

@Suite("policyc help for every command")
struct EveryCommandHelpTests {
  @Test(
    "`policyc help <command>` and `<command> --help` print an overview and a usage line, exit 0",
    arguments: Help.commands)
  func help(command: String) {
    let viaHelp = runPolicyc(["help", command])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.standardOutput.hasPrefix("OVERVIEW:"))
    #expect(viaHelp.standardOutput.contains("USAGE: policyc"))
    guard command != "help" else { return }
    #expect(viaHelp.standardOutput.contains("USAGE: policyc \(command)"))
    let viaFlag = runPolicyc([command, "--help"])
    #expect(viaFlag == viaHelp)
    #expect(Help.overview.contains("  \(command) "), "the overview lists `\(command)`")
  }
}
