import PolicyTools
import ReviewPolicy

/// `policyc lsp`: the language server over standard input and output.
enum LSPCommand: Command {
  static let name = "lsp"
  static let summary = "Serve editors over the Language Server Protocol"
  static let usage = "USAGE: policyc lsp [--events <names>]\n"

  static let help = """
    OVERVIEW: run the policy language server

    Speaks the Language Server Protocol (JSON-RPC with Content-Length framing) on
    standard input and output, for editors: diagnostics as you type (the codes and
    wording of `policyc check`), hover, completion, go to definition, references,
    document symbols, formatting and quick fixes. See docs/editors.md.

    \(EnvironmentHelp.projectFile("Each document's project file is read whenever the document is checked, and saving a project file checks the open policies again. A project file with errors gets diagnostics of its own, and the policies below it are checked without the app's names."))

    USAGE: policyc lsp [--events <names>]

    OPTIONS:
    \(EnvironmentHelp.eventsOption(column: 20, capitalized: true))
      --stdio           Accepted and ignored (standard input and output are always
                        used)
      -h, --help        Show this help

    EXIT STATUS:
      0  the client sent `shutdown` then `exit`
      1  the client sent `exit` without `shutdown`, or closed the input
      2  usage error

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var command = CommandContext(self, io: io)
    if let status = command.parse(arguments, values: ["events"], flags: ["stdio"], help: help) { return status }
    guard command.arguments.operands.isEmpty else { return command.usageError("`lsp` takes no files") }
    // `--events` is every document's environment; without it, each document's project file gives its own.
    let server =
      if let given = command.environments.given {
        LanguageServer(environment: given, version: PolicyCLI.version)
      } else {
        LanguageServer(projectFiles: SystemProjectFileSystem(), version: PolicyCLI.version)
      }
    var loop = LanguageServerLoop(server: server)
    return loop.run()
  }
}
