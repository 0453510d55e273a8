import Foundation
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

    USAGE: policyc lsp [--events <names>]

    OPTIONS:
      --events <names>  The event names the app records, separated by commas, as
                        for `policyc check --events`: an event name a policy reads
                        or declares outside them is an error (PC217)
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
    let eventNames = (command.arguments.values["events"] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let schema = ReviewSchema.standard.recordingEvents(eventNames)
    var loop = LanguageServerLoop(server: LanguageServer(schema: schema, version: PolicyCLI.version))
    return loop.run()
  }
}
