/// `policyc help [command]`: the overview, or one verb's help.
enum HelpCommand: Command {
  static let name = "help"
  static let summary = "Show help for a command"
  static let usage = "USAGE: policyc help [<command>]\n"
  /// Other spellings of `help` as a verb.
  static let aliases = ["--help", "-h"]
  static var help: String { Help.overview }

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    guard let topic = arguments.first else {
      io.write(Help.overview, to: .standardOutput)
      return PolicyCLI.success
    }
    guard let text = Help.text(for: topic) else {
      io.write("policyc: error: no help for `\(topic)`\n\n" + Help.overview, to: .standardError)
      return PolicyCLI.usageError
    }
    io.write(text, to: .standardOutput)
    return PolicyCLI.success
  }
}
