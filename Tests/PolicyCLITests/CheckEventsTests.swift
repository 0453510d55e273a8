import Testing

@testable import PolicyCLI

/// `policyc check --events`: the event names the app records.
@Suite("policyc check --events")
struct CheckEventsTests {
  static let policy = "ask when total_events(\"Purchase \") >= 3\n"

  @Test("without --events any name checks (back-compatible); with it, a name outside is PC217")
  func appNames() {
    let files = ["p.policy": Self.policy]
    #expect(!runPolicyc(["check", "p.policy"], files: files).standardOutput.contains("PC217"))
    let result = runPolicyc(["check", "--events", "purchase, export", "p.policy"], files: files)
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("p.policy:1:23: error: unknown event `Purchase ` [PC217]"))
    #expect(result.standardOutput.contains("help: did you mean `purchase`?"))
    #expect(result.standardOutput.contains("help: the app records `export`, `purchase`"))
  }

  @Test("a declared name the app does not record is PC217 at the declaration")
  func declaredButNotRecorded() {
    let files = ["p.policy": "event purchase, exprt\nask when events(\"purchase\") >= 3\n"]
    let result = runPolicyc(["check", "--events", "purchase,export", "p.policy"], files: files)
    #expect(result.standardOutput.contains("p.policy:1:17: error: unknown event `exprt` [PC217]"))
    #expect(result.standardOutput.contains("help: did you mean `export`?"))
  }
}
