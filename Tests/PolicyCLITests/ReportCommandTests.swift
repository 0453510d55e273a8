import Foundation
import PolicyCore
import ReviewPolicy
import Testing

@testable import PolicyCLI

/// `policyc report`: the rollout read-out from records files.
@Suite("policyc report")
struct ReportCommandTests {
  static let policy = """
    ask new when bucket("arm") < 10 and uses >= 2
    ask old when bucket("arm") >= 10 and uses >= 4

    """

  /// A record line for `install` at minute `minute`.
  static func line(_ install: String, _ minute: Int, _ event: String, _ more: String = "") -> String {
    let time = "2026-11-01T10:\(minute < 10 ? "0" : "")\(minute):00Z"
    return #"{"schema":1,"install":"\#(install)","time":"\#(time)","event":"\#(event)","app":"1.0""# + more + "}"
  }

  /// A prompt check by the policy above, with the install's bucket.
  static func check(_ install: String, _ minute: Int, bucket: Int, asked: Bool) -> String {
    let fingerprint = PolicyIdentity.fingerprint(of: policy)
    let rule = bucket < 10 ? "new" : "old"
    return line(
      install, minute, "promptCheck",
      #","policy":"\#(fingerprint)","origin":"bundled","asked":\#(asked),"reason":"\#(asked ? "askRuleHeld" : "noAskRuleHeld")","rules":[\#(asked ? "\"\(rule)\"" : "")],"buckets":{"arm":\#(bucket)}"#
    )
  }

  static let records =
    [
      check("i1", 1, bucket: 3, asked: true), line("i1", 1, "promptShown"),
      line("i1", 2, "response", #","answer":"rated""#),
      check("i2", 3, bucket: 5, asked: true), line("i2", 3, "promptShown"),
      line("i2", 4, "response", #","answer":"declined""#),
      check("i3", 5, bucket: 50, asked: false), check("i3", 6, bucket: 50, asked: true), line("i3", 6, "promptShown"),
      line("i3", 7, "response", #","answer":"dismissed""#), line("i4", 8, "launch", #","counted":true"#),
      check("i4", 8, bucket: 70, asked: false),
    ].joined(separator: "\n") + "\n"

  @Test("the arms named by the rules, their counts and shares with intervals, the comparison in words")
  func readOut() {
    let io = MemoryIO()
    io.addFile("rollout.policy", Self.policy)
    io.addFile("records.jsonl", Self.records)
    let result = io.run(["report", "records.jsonl", "--policy", "rollout.policy"])
    #expect(result.status == 0, "\(result)")
    #expect(result.standardError == "")
    let fingerprint = PolicyIdentity.fingerprint(of: Self.policy)
    #expect(
      result.standardOutput == """
        read 12 records from 12 lines of 1 file

        policy \(fingerprint) (rollout.policy)
          arm  installs  checks  asks  shown             prompted  rated per prompted  declined per prompted
          new         2       2     2      2  100.0% (34.2-100.0)    50.0% (9.5-90.5)       50.0% (9.5-90.5)
          old         2       3     1      1     50.0% (9.5-90.5)     0.0% (0.0-79.3)        0.0% (0.0-79.3)
          new vs old: the new arm was prompted 2.00x as often; rated per prompted install 50.0% vs 0.0%, difference 50.0 points, 95% CI -39.1 to 90.5: not distinguishable from no difference at 95%

        shares with 95% Wilson score intervals; differences with Newcombe's hybrid score intervals

        """)
  }

  @Test("JSON carries the same counts and intervals; a malformed line is PC411 on standard error and exit 1")
  func jsonAndProblems() throws {
    let io = MemoryIO()
    io.addFile("rollout.policy", Self.policy)
    io.addFile("records.jsonl", Self.records + #"{"schema":1,"install":"i9"}"# + "\n")
    let result = io.run(["report", "records.jsonl", "--policy", "rollout.policy", "--format", "json"])
    #expect(result.status == 1)
    #expect(result.standardError.hasPrefix("records.jsonl:13:27: error: the record has no `time` [PC411]\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["records"] as? Int == 12 && object["problems"] as? Int == 1 && object["lines"] as? Int == 13)
    let policies = try #require(object["policies"] as? [[String: Any]])
    let arms = try #require(policies.first?["arms"] as? [[String: Any]])
    #expect(arms.map { $0["arm"] as? String } == ["new", "old"])
    let rated = try #require(arms.first?["ratedPerPrompted"] as? [String: Any])
    #expect(rated["successes"] as? Int == 1 && rated["trials"] as? Int == 2)
    #expect(abs((rated["low"] as? Double ?? 0) - 0.094_531) < 1e-6)
    // The comparison of the two arms, as the text says it.
    let comparisons = try #require(policies.first?["comparisons"] as? [[String: Any]])
    #expect(comparisons.count == 1)
    #expect(comparisons.first?["arm"] as? String == "new" && comparisons.first?["other"] as? String == "old")
    #expect(comparisons.first?["promptedRatio"] as? Double == 2)
    #expect(comparisons.first?["ratedDifference"] as? Double == 0.5)
    #expect(abs((comparisons.first?["ratedDifferenceLow"] as? Double ?? 0) + 0.391) < 1e-3)
  }

  @Test("--html writes one self-contained page: the arms' table, the verdict, one interval chart per share")
  func html() throws {
    let io = MemoryIO()
    io.addFile("rollout.policy", Self.policy)
    io.addFile("records.jsonl", Self.records)
    let result = io.run(["report", "records.jsonl", "--policy", "rollout.policy", "--html", "out.html"])
    #expect(result.status == 0, "\(result)")
    let page = String(decoding: try #require(io.files["out.html"]), as: UTF8.self)
    #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
    #expect(!page.contains("<script") && !page.contains("http"))
    #expect(page.contains("<tr><td>new</td><td>2</td><td>2</td><td>2</td><td>2</td><td>100.0% (34.2-100.0)</td>"))
    #expect(page.contains("new vs old: the new arm was prompted 2.00x as often"))
    #expect(page.components(separatedBy: "<figure id=").count == 4)
    // Each arm's estimate and interval, as the tooltip says it.
    #expect(page.contains("<title>new: 50.0% (9.5-90.5), 1 of 2</title>"))
    #expect(io.run(["report", "--sql", "--html", "x.html"]).status == 2)
  }

  @Test("--sql prints the queries with each arm's rule as bucket ranges; it reads no records")
  func sql() {
    let io = MemoryIO()
    io.addFile("rollout.policy", Self.policy)
    let result = io.run(["report", "--sql", "--policy", "rollout.policy"])
    #expect(result.status == 0, "\(result)")
    let fingerprint = PolicyIdentity.fingerprint(of: Self.policy)
    #expect(result.standardOutput.hasPrefix("-- The rollout read-out of `policyc report` as SQL"))
    #expect(result.standardOutput.contains(#"--   "bucket_arm": the value of buckets.arm"#))
    #expect(
      result.standardOutput.contains(
        """
              WHEN policy = '\(fingerprint)' THEN COALESCE(NULLIF(SUBSTR(
                CASE WHEN "bucket_arm" BETWEEN 0 AND 9 THEN '+new' ELSE '' END
                || CASE WHEN "bucket_arm" BETWEEN 10 AND 99 THEN '+old' ELSE '' END, 2), ''), 'rest')
              ELSE 'all'
        """))
    // Two queries: the arms, then their comparisons.
    #expect(result.standardOutput.split(separator: "\n").filter { $0.hasSuffix(";") && !$0.hasPrefix("--") }.count == 2)
    #expect(MemoryIO().run(["report", "--sql", "records.jsonl"]).status == 2)
    // Without a policy every install is in arm `all`.
    #expect(MemoryIO().run(["report", "--sql"]).standardOutput.contains("    'all' AS arm\n"))
  }

  @Test("without --policy every install is in arm `all`; no operand is a usage error; an unreadable file exit 1")
  func edges() {
    let io = MemoryIO()
    io.addFile("records.jsonl", Self.records)
    let plain = io.run(["report", "records.jsonl"])
    #expect(plain.status == 0)
    #expect(plain.standardOutput.contains("\n  all         4       5     3      3"))
    #expect(io.run(["report"]).status == 2)
    let missing = io.run(["report", "nope.jsonl"])
    #expect(missing.status == 1 && missing.standardError.contains("cannot read `nope.jsonl`"))
  }
}
