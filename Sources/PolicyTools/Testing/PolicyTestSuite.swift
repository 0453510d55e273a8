import Foundation
import PolicyCore
import ReviewPolicy

/// The cases of one test file, run against its policy.
public struct PolicyTestReport: Sendable {
  /// The policy the file names, compiled in its environment (``PolicyEnvironment``).
  public var policy: CompiledPolicy
  /// One result per case, in file order.
  public var results: [CaseResult]
  /// Which rules and conditions the cases exercised.
  public var coverage: Coverage

  /// The number of cases that passed.
  public var passed: Int { results.filter(\.passed).count }
  /// The number of cases that failed.
  public var failed: Int { results.count - passed }
}

/// Why a test file's cases could not run: located problems, in the order to show them.
public struct PolicyTestFailure: Error, Sendable {
  /// Each group of problems with the file it is located in (the test file, or its policy).
  public var problems: [(source: SourceFile, diagnostics: [Diagnostic])]
  /// Whether the policy file could not be read (a usage error rather than a failing test).
  public var isUnreadablePolicy = false
}

/// Runs policy test files (`*.test.json`, see `policyc help test`) in process.
///
/// ```swift
/// let report = try PolicyTestSuite.run(contentsOf: "Examples/review.test.json").get()
/// print(report.passed, report.failed)
/// ```
public enum PolicyTestSuite {
  /// Parses `testFile`, reads its policy (a path relative to the folder of `path`) with
  /// `readFile`, compiles it in the environment `environment` gives for the policy's path (its
  /// project file's, or the one `--events` gives: see ``PolicyProject/Finder``), and runs every case.
  public static func run(
    _ testFile: SourceFile, at path: String,
    environment: (_ policyPath: String) -> Result<PolicyEnvironment, PolicyProject.Failure>,
    readFile: (String) throws -> [UInt8]
  ) -> Result<PolicyTestReport, PolicyTestFailure> {
    let file: PolicyTestFile
    switch PolicyTestFile.parse(testFile) {
    case .success(let parsed): file = parsed
    case .failure(let problems): return .failure(PolicyTestFailure(problems: [(testFile, problems.diagnostics)]))
    }
    let directory = (path as NSString).deletingLastPathComponent
    let policyPath = file.policy.hasPrefix("/") || directory.isEmpty ? file.policy : directory + "/" + file.policy
    let policyBytes: [UInt8]
    do {
      policyBytes = try readFile(policyPath)
    } catch {
      let diagnostic = TestFileMessages.unreadablePolicy(file.policy, error: error, at: file.policyRange)
      return .failure(PolicyTestFailure(problems: [(testFile, [diagnostic])], isUnreadablePolicy: true))
    }
    let policyEnvironment: PolicyEnvironment
    switch environment(policyPath) {
    case .success(let found): policyEnvironment = found
    case .failure(.invalid(let source, let diagnostics)):
      let diagnostic = ProjectFileMessages.policyProjectHasErrors(
        file.policy, projectPath: source.path, at: file.policyRange)
      return .failure(PolicyTestFailure(problems: [(source, diagnostics), (testFile, [diagnostic])]))
    case .failure(.unreadable(let projectPath, let reason)):
      let diagnostic = ProjectFileMessages.policyProjectUnreadable(
        file.policy, projectPath: projectPath, reason: reason, at: file.policyRange)
      return .failure(PolicyTestFailure(problems: [(testFile, [diagnostic])], isUnreadablePolicy: true))
    }
    let compilation = policyEnvironment.compile(SourceFile(path: policyPath, bytes: policyBytes))
    guard let policy = compilation.policy else {
      let diagnostic = TestFileMessages.policyWithErrors(file.policy, at: file.policyRange)
      return .failure(
        PolicyTestFailure(problems: [(compilation.source, compilation.diagnostics), (testFile, [diagnostic])]))
    }
    var coverage = Coverage(policy: policy)
    var results: [CaseResult] = []
    var problems: [Diagnostic] = []
    let policyText = String(decoding: policyBytes, as: UTF8.self)
    for testCase in file.cases {
      switch TestRunner.run(
        testCase, file: file, policy: policy, policyText: policyText, environment: policyEnvironment)
      {
      case .success(let result):
        coverage.record(result.explanation)
        results.append(result)
      case .failure(let caseProblems):
        problems += caseProblems.diagnostics
      }
    }
    if !problems.isEmpty { return .failure(PolicyTestFailure(problems: [(testFile, problems)])) }
    return .success(PolicyTestReport(policy: policy, results: results, coverage: coverage))
  }

  /// Reads the test file at `path` and its policy from the file system, and runs every case:
  /// the policy is compiled with `environment` when given, else with its project file's
  /// (``PolicyProject``).
  public static func run(
    contentsOf path: String, environment: PolicyEnvironment? = nil
  ) -> Result<PolicyTestReport, PolicyTestFailure> {
    let bytes: [UInt8]
    do {
      bytes = try readFile(path)
    } catch {
      let source = SourceFile(path: path, bytes: [])
      let diagnostic = TestFileMessages.unreadableTestFile(error)
      return .failure(PolicyTestFailure(problems: [(source, [diagnostic])], isUnreadablePolicy: true))
    }
    var finder = PolicyProject.Finder(given: environment)
    return run(
      SourceFile(path: path, bytes: bytes), at: path,
      environment: { finder.environment(forPolicyAt: $0, in: SystemProjectFileSystem()) }, readFile: readFile)
  }

  /// The bytes of the file at `path`.
  private static func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { throw UnreadableFile() }
    return Array(data)
  }

  /// A file that does not exist or cannot be read.
  private struct UnreadableFile: Error, CustomStringConvertible {
    var description: String { TestFileMessages.unreadableFile }
  }
}
