import PolicyCore
import PolicyTools
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
  /// The environments of the run's policies: the one of `--events`, else each policy's project file's.
  private(set) var environments = PolicyProject.Finder()
  /// The project files whose problems were already reported.
  private var reportedProjects: Set<String> = []

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
    if let names = self.arguments.values["events"] { useEventNames(names) }
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

  /// A policy read and compiled in its environment.
  enum LoadedPolicy {
    /// The file could not be read (reported).
    case unreadable
    /// The file is too large or has errors (rendered on standard error).
    case failed
    /// The policy, the environment it was compiled in and its text.
    case compiled(CompiledPolicy, environment: PolicyEnvironment, text: String)
  }

  /// Reads the policy at `path` and compiles it in its environment (``environment(forPolicyAt:renderer:)``),
  /// rendering its problems, and those of its project file, on standard error.
  mutating func compile(_ path: String, renderer: DiagnosticRenderer) -> LoadedPolicy {
    guard let source = load(path) else { return .unreadable }
    if let tooLarge = source.tooLarge {
      io.write(renderer.render([tooLarge], in: source.file), to: .standardError)
      return .failed
    }
    let environment: PolicyEnvironment
    switch self.environment(forPolicyAt: path, renderer: renderer) {
    case .success(let found): environment = found
    case .failure(.invalid): return .failed
    case .failure(.unreadable): return .unreadable
    }
    let compilation = environment.compile(source.file)
    guard let policy = compilation.policy else {
      io.write(renderer.render(compilation.diagnostics, in: compilation.source), to: .standardError)
      return .failed
    }
    return .compiled(policy, environment: environment, text: String(decoding: source.file.bytes, as: UTF8.self))
  }
}

// MARK: - Environments

extension CommandContext {
  /// Makes `--events NAMES` (names separated by commas) the environment of every policy of the
  /// run; project files are then not read. ``parse(_:values:flags:help:)`` calls it when the
  /// option is given.
  mutating func useEventNames(_ names: String) {
    let list = names.split(separator: ",").map { part in
      var name = part
      while name.first?.isWhitespace == true { name.removeFirst() }
      while name.last?.isWhitespace == true { name.removeLast() }
      return String(name)
    }
    environments = PolicyProject.Finder(given: PolicyEnvironment(eventNames: Set(list)))
  }

  /// The environment of the policy at `path` (`-`: standard input): `--events`'s, else its
  /// project file's (``PolicyProject``), else the standard one; or why its project file cannot
  /// be used.
  mutating func projectEnvironment(forPolicyAt path: String) -> Result<PolicyEnvironment, PolicyProject.Failure> {
    environments.environment(forPolicyAt: path == "-" ? nil : path, in: CommandProjectFiles(io: io))
  }

  /// The environment of the policy at `path` for the verbs that report a project file with
  /// problems as a file of its own (check, check --fix, analyze): the project file's, or the
  /// standard one when it has problems. Those are given to `invalid` the first time this run meets
  /// them; an unreadable project file is reported as an I/O error (once) and sets `failed`.
  mutating func environment(
    forPolicyAt path: String, failed: inout Bool, invalid: (SourceFile, [Diagnostic]) -> Void
  ) -> PolicyEnvironment {
    switch projectEnvironment(forPolicyAt: path) {
    case .success(let found):
      return found
    case .failure(let failure):
      guard isFirstReport(of: failure) else { return .standard }
      switch failure {
      case .invalid(let project, let diagnostics): invalid(project, diagnostics)
      case .unreadable(let projectPath, let reason):
        error("cannot read the project file `\(projectPath)`: \(reason)")
        failed = true
      }
      return .standard
    }
  }

  /// Whether `failure` is reported for the first time in this run (it is then recorded as reported).
  mutating func isFirstReport(of failure: PolicyProject.Failure) -> Bool {
    reportedProjects.insert(failure.path).inserted
  }

  /// Reports `failure` once per run: an unreadable project file as an I/O error, a project file
  /// with problems by rendering them on standard error.
  mutating func report(_ failure: PolicyProject.Failure, renderer: DiagnosticRenderer) {
    guard isFirstReport(of: failure) else { return }
    switch failure {
    case .invalid(let source, let diagnostics):
      io.write(renderer.render(diagnostics, in: source), to: .standardError)
    case .unreadable(let path, let reason):
      error("cannot read the project file `\(path)`: \(reason)")
    }
  }

  /// ``projectEnvironment(forPolicyAt:)``, reporting a failure (once) on standard error.
  mutating func environment(
    forPolicyAt path: String, renderer: DiagnosticRenderer
  ) -> Result<PolicyEnvironment, PolicyProject.Failure> {
    let result = projectEnvironment(forPolicyAt: path)
    if case .failure(let failure) = result { report(failure, renderer: renderer) }
    return result
  }
}

/// A command's files, as project-file discovery reads them.
struct CommandProjectFiles: PolicyProjectFileSystem {
  /// The command's I/O.
  let io: CommandIO

  /// The current directory of the I/O.
  var currentDirectory: String { io.currentDirectory }

  /// Whether a file is at `path`.
  func fileExists(atPath path: String) -> Bool { io.fileExists(path) }

  /// Reads the file at `path` through the I/O.
  func contents(atPath path: String, limit: Int) throws(PolicyProjectReadError) -> (bytes: [UInt8], size: Int) {
    do {
      return try io.readFile(path, limit: limit)
    } catch {
      throw PolicyProjectReadError(reason: error.reason)
    }
  }
}
