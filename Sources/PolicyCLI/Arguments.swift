/// A command line split into options and operands, checked against what a command accepts.
struct Arguments {
  /// Operands in order (files).
  var operands: [String] = []
  /// Options that take a value, by name (without dashes).
  var values: [String: String] = [:]
  /// Options given without a value.
  var flags: Set<String> = []

  /// A usage mistake, reported with the command's usage line; exit status 2.
  struct UsageError: Error {
    var message: String
  }

  /// Parses `arguments`. `valueOptions` take a value (`--format json` or `--format=json`);
  /// `flagOptions` take none. `--` ends options; `-` alone is an operand (standard input).
  static func parse(
    _ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>
  ) throws(UsageError) -> Arguments {
    var result = Arguments()
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        result.operands.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = String(argument.drop(while: { $0 == "-" }))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      if name == "h" { name = "help" }
      if valueOptions.contains(name) {
        if let inlineValue {
          result.values[name] = inlineValue
        } else if index < arguments.count {
          result.values[name] = arguments[index]
          index += 1
        } else {
          throw UsageError(message: "option `--\(name)` needs a value")
        }
      } else if flagOptions.contains(name) {
        guard inlineValue == nil else { throw UsageError(message: "option `--\(name)` takes no value") }
        result.flags.insert(name)
      } else {
        let known = Array(valueOptions) + Array(flagOptions)
        let suggestion = known.sorted().first { name.hasPrefix($0) || $0.hasPrefix(name) }
        throw UsageError(
          message: "unknown option `\(argument)`" + (suggestion.map { "; did you mean `--\($0)`?" } ?? ""))
      }
    }
    return result
  }
}
