import Testing

@testable import PolicyCLI

/// The test double itself must behave like the real system, or the CLI tests prove nothing.
@Suite("MemoryIO test double")
struct MemoryIOTests {
  @Test("readFile returns at most `limit` bytes and the true size")
  func readLimit() throws {
    let io = MemoryIO()
    io.addFile("a", bytes: [1, 2, 3, 4, 5])
    let partial = try io.readFile("a", limit: 3)
    #expect(partial.bytes == [1, 2, 3])
    #expect(partial.size == 5)
    let whole = try io.readFile("a", limit: 10)
    #expect(whole.bytes == [1, 2, 3, 4, 5])
    #expect(whole.size == 5)
    #expect(io.readPaths == ["a", "a"])
  }

  @Test("missing files, directories and configured failures throw with a reason")
  func readErrors() {
    let io = MemoryIO()
    io.addFile("dir/a.policy", "x")
    io.fileErrors["locked"] = "Permission denied"
    #expect(throws: FileReadError.self) { try io.readFile("missing", limit: 10) }
    #expect(reason(io, "missing") == "No such file or directory")
    #expect(reason(io, "dir") == "Is a directory")
    #expect(reason(io, "locked") == "Permission denied")
  }

  private func reason(_ io: MemoryIO, _ path: String) -> String? {
    do {
      _ = try io.readFile(path, limit: 10)
      return nil
    } catch {
      return error.reason
    }
  }

  @Test("directories come from file paths and explicit additions; listings are one level deep")
  func directories() throws {
    let io = MemoryIO()
    io.addFile("p/b.policy", "")
    io.addFile("p/a.policy", "")
    io.addFile("p/sub/c.policy", "")
    io.addDirectory("empty")
    #expect(io.isDirectory("p"))
    #expect(io.isDirectory("p/"))
    #expect(io.isDirectory("p/sub"))
    #expect(io.isDirectory("empty"))
    #expect(!io.isDirectory("p/a.policy"))
    #expect(!io.isDirectory("nothing"))
    #expect(Set(try io.contentsOfDirectory("p/")) == ["a.policy", "b.policy", "sub"])
    #expect(try io.contentsOfDirectory("empty") == [])
  }

  @Test("output is captured per stream; environment and terminal are configurable")
  func streams() {
    let io = MemoryIO(environment: ["NO_COLOR": "1"], isStandardOutputTerminal: true)
    io.write("out1 ", to: .standardOutput)
    io.write("err", to: .standardError)
    io.write("out2", to: .standardOutput)
    #expect(io.standardOutput == "out1 out2")
    #expect(io.standardError == "err")
    #expect(io.environment == ["NO_COLOR": "1"])
    #expect(io.isStandardOutputTerminal)
    io.standardInput = [65, 66, 67]
    let input = io.readStandardInput(limit: 2)
    #expect(input.bytes == [65, 66])
    #expect(input.size == 3)
  }
}
