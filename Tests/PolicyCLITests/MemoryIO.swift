@testable import PolicyCLI

/// An in-memory ``CommandIO``: virtual files and directories, a virtual standard input,
/// captured standard output and standard error, and a configurable environment and terminal.
///
/// Paths are plain strings looked up exactly as given, except that trailing slashes are
/// ignored, so `dir` and `dir/` name the same directory. A file `dir/a.policy` makes `dir`
/// a directory; empty directories are added with ``addDirectory(_:)``.
final class MemoryIO: CommandIO {
  /// File contents by path.
  var files: [String: [UInt8]] = [:]
  /// Directories that exist even without files in them.
  var directories: Set<String> = []
  /// Paths whose reading fails, with the reason reported.
  var fileErrors: [String: String] = [:]
  /// Directories whose listing fails, with the reason reported.
  var directoryErrors: [String: String] = [:]
  /// What standard input yields.
  var standardInput: [UInt8] = []
  /// The environment the command sees.
  var environment: [String: String]
  /// Whether standard output claims to be a terminal.
  var isStandardOutputTerminal: Bool
  /// The current directory, for project-file discovery: relative paths are looked at this many
  /// folders up (the root by default: never above the current directory).
  var currentDirectory = "/"

  /// Everything written to standard output.
  private(set) var standardOutput = ""
  /// Everything written to standard error.
  private(set) var standardError = ""
  /// The paths passed to ``readFile(_:limit:)``, in order.
  private(set) var readPaths: [String] = []
  /// How many times standard input was read.
  private(set) var standardInputReads = 0

  init(
    files: [String: [UInt8]] = [:], environment: [String: String] = [:], isStandardOutputTerminal: Bool = false
  ) {
    self.files = files
    self.environment = environment
    self.isStandardOutputTerminal = isStandardOutputTerminal
  }

  /// Paths whose writing fails, with the reason reported.
  var writeErrors: [String: String] = [:]
  /// The paths passed to ``replaceFile(_:with:)``, in order.
  private(set) var writtenPaths: [String] = []

  /// Replaces a virtual file, or fails as configured in ``writeErrors``.
  func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileReadError) {
    if let reason = writeErrors[path] { throw FileReadError(reason: reason) }
    writtenPaths.append(path)
    files[path] = bytes
  }

  /// Adds a text file.
  func addFile(_ path: String, _ text: String) {
    files[path] = Array(text.utf8)
  }

  /// Adds a file of raw bytes.
  func addFile(_ path: String, bytes: [UInt8]) {
    files[path] = bytes
  }

  /// Adds a directory (it may stay empty).
  func addDirectory(_ path: String) {
    directories.insert(MemoryIO.normalized(path))
  }

  // MARK: - CommandIO

  func write(_ text: String, to stream: OutputStream) {
    switch stream {
    case .standardOutput: standardOutput += text
    case .standardError: standardError += text
    }
  }

  func readFile(_ path: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int) {
    readPaths.append(path)
    if let reason = fileErrors[path] { throw FileReadError(reason: reason) }
    if isDirectory(path) { throw FileReadError(reason: "Is a directory") }
    guard let bytes = files[path] else { throw FileReadError(reason: "No such file or directory") }
    return (Array(bytes.prefix(limit)), bytes.count)
  }

  func readStandardInput(limit: Int) -> (bytes: [UInt8], size: Int) {
    standardInputReads += 1
    return (Array(standardInput.prefix(limit)), standardInput.count)
  }

  /// Whether a virtual file (readable or not) is at `path`; it does not count as a read.
  func fileExists(_ path: String) -> Bool {
    files[path] != nil || fileErrors[path] != nil
  }

  func isDirectory(_ path: String) -> Bool {
    let directory = MemoryIO.normalized(path)
    if directories.contains(directory) || directoryErrors[directory] != nil { return true }
    let prefix = directory + "/"
    return files.keys.contains { $0.hasPrefix(prefix) }
  }

  func contentsOfDirectory(_ path: String) throws(FileReadError) -> [String] {
    let directory = MemoryIO.normalized(path)
    if let reason = directoryErrors[directory] { throw FileReadError(reason: reason) }
    guard isDirectory(directory) else { throw FileReadError(reason: "Not a directory") }
    let prefix = directory + "/"
    var names = Set<String>()
    for candidate in Array(files.keys) + Array(directories) where candidate.hasPrefix(prefix) {
      let rest = candidate.dropFirst(prefix.count)
      if let name = rest.split(separator: "/").first { names.insert(String(name)) }
    }
    // A real directory listing has no particular order: return a shuffled-looking one
    // (reverse sorted) so that tests notice a command that forgets to sort.
    return names.sorted(by: >)
  }

  private static func normalized(_ path: String) -> String {
    var result = path
    while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
    return result
  }
}

/// The result of one in-process `policyc` run.
struct RunResult: Equatable, CustomStringConvertible {
  var status: Int32
  var standardOutput: String
  var standardError: String

  var description: String {
    "exit \(status)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
  }
}

extension MemoryIO {
  /// Runs `policyc arguments` against this I/O.
  func run(_ arguments: [String]) -> RunResult {
    let status = PolicyCLI.run(arguments, io: self)
    return RunResult(status: status, standardOutput: standardOutput, standardError: standardError)
  }
}

/// Runs `policyc arguments` with a fresh ``MemoryIO`` holding `files` (text).
func runPolicyc(
  _ arguments: [String], files: [String: String] = [:], environment: [String: String] = [:],
  terminal: Bool = false, standardInput: String? = nil
) -> RunResult {
  let io = MemoryIO(environment: environment, isStandardOutputTerminal: terminal)
  for (path, text) in files { io.addFile(path, text) }
  if let standardInput { io.standardInput = Array(standardInput.utf8) }
  return io.run(arguments)
}

/// `PolicyCLI`'s stream type, named without the clash with Foundation's `OutputStream`
/// (and with the enum `PolicyCLI`, which hides the module name).
typealias CLIOutputStream = OutputStream
