// No Foundation here: its `OutputStream` would hide PolicyCLI's.
import PolicyCLI

/// Runs `policyc` over the real file system and captures what it writes.
func policyc(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
  let io = CapturingIO()
  let status = PolicyCLI.run(arguments, io: io)
  return (status, io.output, io.errors)
}

/// The real file system, with the output captured.
final class CapturingIO: CommandIO {
  private let system = SystemIO()
  var output = ""
  var errors = ""

  func write(_ text: String, to stream: OutputStream) {
    if stream == .standardOutput { output += text } else { errors += text }
  }

  func readFile(_ path: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], size: Int) {
    try system.readFile(path, limit: limit)
  }

  func readStandardInput(limit: Int) -> (bytes: [UInt8], size: Int) { ([], 0) }
  /// The system's streaming read, in 7-byte pieces so lines cross them.
  func streamFile(_ path: String, chunkSize: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(FileReadError) {
    try system.streamFile(path, chunkSize: 7, body)
  }
  func isDirectory(_ path: String) -> Bool { system.isDirectory(path) }
  func contentsOfDirectory(_ path: String) throws(FileReadError) -> [String] { try system.contentsOfDirectory(path) }
  func replaceFile(_ path: String, with bytes: [UInt8]) throws(FileReadError) {
    throw FileReadError(reason: "these tests write no files")
  }
  var environment: [String: String] { [:] }
  var isStandardOutputTerminal: Bool { false }
}
