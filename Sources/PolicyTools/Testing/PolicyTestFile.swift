import Foundation
import PolicyCore
import ReviewPolicy

/// A test file for `policyc test`: a policy and cases with their expected decisions.
///
/// ```json
/// {
///   "policy": "review.policy",
///   "now": "2026-03-01T12:00:00Z",
///   "cases": [
///     { "name": "a loyal user is asked",
///       "facts": { "days": 31, "uses": 25, "plan": "pro" },
///       "expect": "ask", "deciding": ["loyal"] },
///     { "name": "not asked twice in eight weeks",
///       "facts": { "plan": "pro" },
///       "history": ["launch x 20 every 1d", "event export x 3", "prompt -> remind", "wait 3d", "prompt"],
///       "expect": "dont_ask", "deciding": ["too_soon"], "prompts": 1 }
///   ]
/// }
/// ```
package struct PolicyTestFile: Sendable {
  /// The policy path as written, relative to the test file's folder.
  package var policy: String
  /// Where the policy path is written.
  package var policyRange: SourceRange
  /// The default `now` of facts cases.
  package var now: Timestamp?
  /// The default start of history cases.
  package var start: Timestamp?
  /// The cases, in file order.
  package var cases: [PolicyTestCase]

  static let fileKeys = ["policy", "now", "start", "cases"]
  static let caseKeys = ["name", "facts", "history", "version", "now", "start", "expect", "deciding", "prompts"]

  /// Parses a test file, reporting every problem with its location.
  package static func parse(_ source: SourceFile) -> Result<PolicyTestFile, Problems> {
    let root: JSONNode
    switch JSONParser.parse(source) {
    case .success(let node): root = node
    case .failure(let failure): return .failure(Problems([failure.diagnostic]))
    }
    var problems: [Diagnostic] = []
    guard case .object(let members) = root.value else {
      return .failure(Problems([TestFileMessages.notAnObject(kind: root.value.kindName, at: root.range)]))
    }
    problems += unknownKeys(members, allowed: fileKeys, in: "a test file")
    var file = PolicyTestFile(policy: "", policyRange: root.range, now: nil, start: nil, cases: [])
    if let member = members.first(where: { $0.key == "policy" }), case .string(let path) = member.value.value {
      file.policy = path
      file.policyRange = member.value.range
    } else {
      problems.append(TestFileMessages.missingPolicy(at: root.range))
    }
    file.now = instant(members.first { $0.key == "now" }, &problems)
    file.start = instant(members.first { $0.key == "start" }, &problems)
    if let member = members.first(where: { $0.key == "cases" }), case .array(let nodes) = member.value.value {
      var names = Set<String>()
      for node in nodes {
        if let testCase = PolicyTestCase.parse(node, &problems) {
          if !names.insert(testCase.name).inserted {
            problems.append(TestFileMessages.duplicateCaseName(testCase.name, at: testCase.range))
          }
          file.cases.append(testCase)
        }
      }
      if nodes.isEmpty {
        problems.append(TestFileMessages.noCases(at: member.value.range))
      }
    } else {
      problems.append(TestFileMessages.missingCases(at: root.range))
    }
    return problems.isEmpty ? .success(file) : .failure(Problems(problems))
  }

  static func unknownKeys(_ members: [JSONMember], allowed: [String], in what: String) -> [Diagnostic] {
    members.filter { !allowed.contains($0.key) }.map { member in
      TestFileMessages.unknownKey(
        member.key, in: what, allowed: allowed, suggestion: EditDistance.suggestion(for: member.key, among: allowed),
        at: member.keyRange)
    }
  }

  static func instant(_ member: JSONMember?, _ problems: inout [Diagnostic]) -> Timestamp? {
    guard let member else { return nil }
    if case .string(let text) = member.value.value, let instant = Timestamp(iso8601: text) { return instant }
    problems.append(TestFileMessages.invalidInstant(member.key, at: member.value.range))
    return nil
  }
}

/// One test case.
package struct PolicyTestCase: Sendable {
  /// The case's name, unique in its file.
  package var name: String
  /// Where the case is.
  package var range: SourceRange
  /// Facts (for a facts case), or the policy's own facts (for a history case).
  package var facts: JSONNode?
  /// The usage history run through the review manager (a history case).
  package var history: [HistoryStep]?
  /// The app version of a history case (default `1.0`).
  package var version: String
  /// The evaluation instant of a facts case.
  package var now: Timestamp?
  /// The start of a history case.
  package var start: Timestamp?
  /// Whether the policy is expected to ask.
  package var expectsAsk: Bool
  /// Where the expectation is.
  package var expectRange: SourceRange
  /// The exact set of deciding rules expected, if given.
  package var deciding: [(name: String, range: SourceRange)]?
  /// The number of prompts the history is expected to show, if given.
  package var prompts: Int?

  /// Parses one case, appending its problems to `problems`; nil when it has any.
  package static func parse(_ node: JSONNode, _ problems: inout [Diagnostic]) -> PolicyTestCase? {
    guard case .object(let members) = node.value else {
      problems.append(TestFileMessages.caseNotAnObject(kind: node.value.kindName, at: node.range))
      return nil
    }
    let before = problems.count
    problems += PolicyTestFile.unknownKeys(members, allowed: PolicyTestFile.caseKeys, in: "a test case")
    // A mistyped key (`expects`) is already reported: do not also report the key as missing.
    let mistyped = Set(
      members.compactMap { member in
        PolicyTestFile.caseKeys.contains(member.key)
          ? nil : EditDistance.suggestion(for: member.key, among: PolicyTestFile.caseKeys)
      })
    func member(_ key: String) -> JSONMember? { members.first { $0.key == key } }
    var testCase = PolicyTestCase(
      name: "", range: node.range, facts: nil, history: nil, version: "1.0", now: nil, start: nil, expectsAsk: false,
      expectRange: node.range, deciding: nil, prompts: nil)
    if let name = member("name"), case .string(let text) = name.value.value, !text.isEmpty {
      testCase.name = text
    } else if !mistyped.contains("name") {
      problems.append(TestFileMessages.missingCaseName(at: node.range))
    }
    if let expect = member("expect"), case .string(let text) = expect.value.value, ["ask", "dont_ask"].contains(text) {
      testCase.expectsAsk = text == "ask"
      testCase.expectRange = expect.value.range
    } else if !mistyped.contains("expect") || member("expect") != nil {
      problems.append(TestFileMessages.missingExpectation(at: member("expect")?.value.range ?? node.range))
    }
    if let facts = member("facts") {
      if case .object = facts.value.value {
        testCase.facts = facts.value
      } else {
        problems.append(TestFileMessages.factsNotAnObject(at: facts.value.range))
      }
    }
    if let history = member("history") {
      if case .array(let steps) = history.value.value {
        var parsed: [HistoryStep] = []
        for step in steps {
          if case .string(let text) = step.value {
            switch HistoryStep.parse(text, range: step.range) {
            case .success(let historyStep): parsed.append(historyStep)
            case .failure(let problem): problems += problem.diagnostics
            }
          } else {
            problems.append(TestFileMessages.historyStepNotAString(at: step.range))
          }
        }
        testCase.history = parsed
      } else {
        problems.append(TestFileMessages.historyNotAnArray(at: history.value.range))
      }
    }
    if testCase.facts == nil && testCase.history == nil && !mistyped.contains("facts") && !mistyped.contains("history")
    {
      problems.append(TestFileMessages.missingFactsOrHistory(at: node.range))
    }
    if let version = member("version") {
      if case .string(let text) = version.value.value {
        testCase.version = text
      } else {
        problems.append(TestFileMessages.versionNotAString(at: version.value.range))
      }
    }
    testCase.now = PolicyTestFile.instant(member("now"), &problems)
    testCase.start = PolicyTestFile.instant(member("start"), &problems)
    if let deciding = member("deciding") {
      if case .array(let names) = deciding.value.value {
        testCase.deciding = names.compactMap { node in
          if case .string(let text) = node.value { return (text, node.range) }
          problems.append(TestFileMessages.ruleNameNotAString(at: node.range))
          return nil
        }
      } else {
        problems.append(TestFileMessages.decidingNotAnArray(at: deciding.value.range))
      }
    }
    if let prompts = member("prompts") {
      if case .number(let text) = prompts.value.value, let count = Int(text), count >= 0 {
        testCase.prompts = count
      } else {
        problems.append(TestFileMessages.promptsNotAWholeNumber(at: prompts.value.range))
      }
    }
    return problems.count == before ? testCase : nil
  }
}
