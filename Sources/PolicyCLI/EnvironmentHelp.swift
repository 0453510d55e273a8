import PolicyTools

/// The help every verb that compiles policies shares: the project file and `--events`.
enum EnvironmentHelp {
  /// The `--events <names>` entry of an OPTIONS list whose descriptions start at `column`
  /// (without a line break after it); `capitalized` as the descriptions of `check` are.
  static func eventsOption(column: Int, capitalized: Bool = false) -> String {
    let lines = [
      (capitalized ? "The" : "the") + " event names the app records, separated by commas,",
      "for every policy instead of its project file's: an",
      "event name a policy reads or declares outside them is",
      "an error (PC217)",
    ]
    let option = "  --events <names>"
    let first = option + String(repeating: " ", count: max(1, column - option.count)) + lines[0]
    let padding = String(repeating: " ", count: column)
    return ([first] + lines.dropFirst().map { padding + $0 }).joined(separator: "\n")
  }

  /// The PROJECT FILE paragraph, ending with `verbText` (how the verb treats the project file,
  /// such as what a project file with errors does), wrapped; without a line break after it.
  static func projectFile(_ verbText: String) -> String {
    let before = """
      PROJECT FILE: each policy is compiled with the app's declarations in the nearest \(PolicyProject.fileName), \
      in the policy's folder or a folder above it (for standard input, from the current directory), such as
      """
    let after = """
      `events` lists the event names the app records (as in `ReviewManager.Configuration.eventNames`): an \
      event name a policy reads or declares outside them is an error (PC217). Without a project file or \
      --events, a policy may read any event name it does not itself restrict with `event`. 
      """
    return wrapped(before) + "\n  {\"events\": [\"export\", \"purchase\"]}\n" + wrapped(after + verbText)
  }

  /// `text`'s words in lines of at most `width` characters.
  static func wrapped(_ text: String, width: Int = 76) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    return (lines + [line]).joined(separator: "\n")
  }
}
