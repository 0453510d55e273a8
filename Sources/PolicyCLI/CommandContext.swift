import PolicyCore
import ReviewPolicy

/// The start every command shares: its arguments parsed, `--help` answered, usage errors written.
struct CommandContext {
  /// The verb, for messages.
  let verb: String
  /// The usage line(s) printed after a usage error.
  let usage: String
  /// The streams.
  let io: CommandIO
  /// The arguments, when they parsed.
  private(set) var arguments = Arguments()

  /// A command line for `command`.
  init(_ command: any Command.Type, io: CommandIO) {
    self.init(verb: command.name, usage: command.usage, io: io)
  }

  /// A command line for the verb `verb`.
  init(verb: String, usage: String, io: CommandIO) {
    self.verb = verb
    self.usage = usage
    self.io = io
  }

  /// Writes `policyc VERB: error: MESSAGE`, then the usage, and returns the usage-error status.
  func usageError(_ message: String) -> Int32 {
    io.write("policyc \(verb): error: \(message)\n\n\(usage)", to: .standardError)
    return PolicyCLI.usageError
  }

  /// Writes `policyc VERB: error: MESSAGE` alone (an I/O error).
  func error(_ message: String) {
    io.write("policyc \(verb): error: \(message)\n", to: .standardError)
  }

  /// Parses `arguments`; on a usage error or `--help` returns the status to exit with
  /// (after writing the error or `help`), else nil and ``arguments`` is set.
  mutating func parse(
    _ arguments: [String], values: Set<String> = [], flags: Set<String>, help: String
  ) -> Int32? {
    do {
      self.arguments = try Arguments.parse(arguments, valueOptions: values, flagOptions: flags.union(["help"]))
    } catch {
      return usageError(error.message)
    }
    if self.arguments.flags.contains("help") {
      io.write(help, to: .standardOutput)
      return PolicyCLI.success
    }
    return nil
  }

  /// The `--format` given (default `text`), or nil after a usage error if it is not one of `formats`.
  func format(among formats: [String]) -> String? {
    let format = arguments.values["format"] ?? "text"
    guard formats.contains(format) else {
      let quoted = formats.map { "`\($0)`" }
      let list = quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
      _ = usageError("unknown format `\(format)`; use \(list)")
      return nil
    }
    return format
  }

  /// A diagnostic renderer: colour on a terminal unless `--no-color` or `NO_COLOR`, and unless `plain`.
  func renderer(plain: Bool = false) -> DiagnosticRenderer {
    DiagnosticRenderer(usesColor: !plain && PolicyCLI.usesColor(io, disabled: arguments.flags.contains("no-color")))
  }

  /// Replaces each directory operand by the files in it ending in `suffix`, sorted; `failed`
  /// is set when a directory has none or cannot be listed. `verb` overrides the verb in messages.
  func expand(_ operands: [String], suffix: String = ".policy", failed: inout Bool, verb: String? = nil) -> [String] {
    let context = verb.map { CommandContext(verb: $0, usage: usage, io: io) } ?? self
    var paths: [String] = []
    for operand in operands {
      guard operand != "-", io.isDirectory(operand) else {
        paths.append(operand)
        continue
      }
      do {
        let entries = try io.contentsOfDirectory(operand).filter { $0.hasSuffix(suffix) }.sorted()
        guard !entries.isEmpty else {
          context.error("no \(suffix) files in `\(operand)`")
          failed = true
          continue
        }
        let base = operand.hasSuffix("/") ? operand : operand + "/"
        paths.append(contentsOf: entries.map { base + $0 })
      } catch {
        context.error("cannot read `\(operand)`: \(error.reason)")
        failed = true
      }
    }
    return paths
  }

  /// Reads a policy (or other) file, `-` for standard input, or reports why it could not be read.
  /// A file over ``Limits/maximumFileSize`` comes with its diagnostic.
  func load(_ path: String) -> (file: SourceFile, tooLarge: Diagnostic?)? {
    let limit = Limits.maximumFileSize + 1
    let contents: (bytes: [UInt8], size: Int)
    if path == "-" {
      contents = io.readStandardInput(limit: limit)
    } else {
      do {
        contents = try io.readFile(path, limit: limit)
      } catch {
        self.error("cannot read `\(path)`: \(error.reason)")
        return nil
      }
    }
    let displayPath = path == "-" ? "<stdin>" : path
    if contents.size > Limits.maximumFileSize {
      let file = SourceFile(path: displayPath, bytes: Array(contents.bytes.prefix(4096)))
      return (file, .fileTooLarge(size: contents.size))
    }
    return (SourceFile(path: displayPath, bytes: contents.bytes), nil)
  }

  /// A policy read and compiled against the review schema.
  enum LoadedPolicy {
    /// The file could not be read (reported).
    case unreadable
    /// The file is too large or has errors (rendered on standard error).
    case failed
    /// The policy and its text.
    case compiled(CompiledPolicy, text: String)
  }

  /// Reads and compiles the policy at `path`, rendering its problems on standard error.
  func compile(_ path: String, renderer: DiagnosticRenderer) -> LoadedPolicy {
    guard let source = load(path) else { return .unreadable }
    if let tooLarge = source.tooLarge {
      io.write(renderer.render([tooLarge], in: source.file), to: .standardError)
      return .failed
    }
    let compilation = PolicyCompiler.compile(source.file, schema: ReviewSchema.standard)
    guard let policy = compilation.policy else {
      io.write(renderer.render(compilation.diagnostics, in: compilation.source), to: .standardError)
      return .failed
    }
    return .compiled(policy, text: String(decoding: source.file.bytes, as: UTF8.self))
  }
}
