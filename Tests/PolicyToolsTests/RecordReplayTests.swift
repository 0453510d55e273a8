import Foundation
import PolicyAnalysis
import PolicyCore
import Testing

@testable import PolicyTools
@testable import ReviewAnalysis
@testable import ReviewPolicy

/// `policyc replay` (issue 26): records rebuilt into histories and run through the real tracker.
@Suite("records: replay")
struct RecordReplayTests {
  /// Lines handed over from any thread.
  final class Sink: @unchecked Sendable {
    // @unchecked: `bytes` is only touched under `lock`.
    private let lock = NSLock()
    private var bytes = Data()

    var write: @Sendable (Data) -> Void {
      { [self] data in
        self.lock.lock()
        self.bytes.append(data)
        self.lock.unlock()
      }
    }

    /// Every line read back as a record (a line that is not one fails the test).
    func records() -> [ReviewRecord] {
      lock.lock()
      let all = bytes
      lock.unlock()
      return all.split(separator: UInt8(ascii: "\n")).compactMap { line in
        let text = String(decoding: line, as: UTF8.self)
        switch RecordReader.record(in: text) {
        case .success(let record): return record
        case .failure(let problem):
          Issue.record("not a record: \(problem.message) in \(text)")
          return nil
        }
      }
    }
  }

  /// A random policy: one to three `ask` rules over uses, days, events, sessions and buckets,
  /// sometimes with a `never` rule on prompts and the time since the last one.
  static func randomPolicy(_ random: inout SeededGenerator) -> String {
    func below(_ bound: UInt64) -> Int { Int(random.next() % bound) }
    var lines: [String] = []
    for index in 0..<(1 + below(3)) {
      var conditions = ["uses >= \(1 + below(12))"]
      if below(2) == 0 { conditions.append("days >= \(below(20))") }
      if below(2) == 0 { conditions.append("events(\"export\") >= \(below(15))") }
      if below(3) == 0 { conditions.append("total_sessions >= \(below(30))") }
      if below(3) == 0 { conditions.append("bucket(\"arm\") < \(10 + below(80))") }
      if below(4) == 0 { conditions.append("not declined") }
      lines.append("ask r\(index) when " + conditions.joined(separator: " and "))
    }
    if below(2) == 0 { lines.append("never capped when total_prompts >= \(1 + below(4))") }
    if below(2) == 0 { lines.append("never soon when since(last_prompt) < \(1 + below(20))d") }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("replaying a simulated population's records under the policy that produced them reproduces every decision")
  func simulatedRecordsReplayExactly() throws {
    var random = SeededGenerator(seed: 26)
    var differentPolicies = 0
    for round in 0..<12 {
      let text = RecordReplayTests.randomPolicy(&random)
      let compiled = try #require(PolicyEnvironment.standard.compile(text, path: "p\(round)").policy, "\(text)")
      let sink = Sink()
      var model = SimulationModel()
      model.releaseEvery = [0, 7, 30][round % 3]
      var setup = SimulationSetup(
        users: 60, days: 70, seed: random.next(), model: model, policies: [SimulationPolicy(name: "p", text: text)])
      setup.recordSink = sink.write
      let simulated = SimulationEngine.run(setup)
      let records = sink.records()
      #expect(!records.isEmpty)

      let other = RecordReplayTests.randomPolicy(&random)
      let otherCompiled = try #require(PolicyEnvironment.standard.compile(other, path: "q").policy)
      var replay = RecordReplay(policies: [
        RecordReplay.Policy(name: "p", compiled: compiled), RecordReplay.Policy(name: "q", compiled: otherCompiled),
      ])
      for record in records { replay.add(record) }
      let outcome = replay.finish()
      #expect(outcome.installs == 60)
      #expect(outcome.unknownEvents == 0)
      // Every decision reproduced, and the counts are the simulation's own.
      let same = outcome.comparisons[0]
      #expect(same.sameDecisions == outcome.checks, "\(text)")
      #expect(same.askedInstead == 0 && same.didNotAsk == 0, "\(text)")
      #expect(same.earlier == 0 && same.later == 0 && same.onlyReplayed == 0 && same.onlyOriginal == 0)
      #expect(outcome.replayed[0] == outcome.original)
      #expect(outcome.original.asks == simulated.tallies[0].asks)
      #expect(outcome.original.installsAsked == simulated.tallies[0].usersAsked)
      #expect(outcome.original.answers["rated", default: 0] == simulated.tallies[0].rated)
      #expect(outcome.original.answers["declined", default: 0] == simulated.tallies[0].declined)
      #expect(outcome.checks == simulated.activity.checks)
      // The other policy's counts add up: every check is the same, asked instead, or not asked.
      let diff = outcome.comparisons[1]
      #expect(diff.sameDecisions + diff.askedInstead + diff.didNotAsk == outcome.checks)
      #expect(
        diff.sameFirstAsk + diff.earlier + diff.later + diff.onlyReplayed + diff.onlyOriginal + diff.neither == 60)
      if diff.sameDecisions < outcome.checks { differentPolicies += 1 }
    }
    // The comparison is not vacuous: most random pairs of policies decide differently somewhere.
    #expect(differentPolicies >= 6)
  }

  /// A clock tests move by hand.
  final class Clock: @unchecked Sendable {
    // @unchecked: `now` is only touched under `lock`.
    private let lock = NSLock()
    private var now = Date(timeIntervalSince1970: 1_767_225_600)

    var function: @Sendable () -> Date {
      { [self] in
        self.lock.lock()
        defer { self.lock.unlock() }
        return self.now
      }
    }

    func advance(_ seconds: Double) {
      lock.lock()
      now += seconds
      lock.unlock()
    }
  }

  @Test(
    "replaying a real manager's records under its policy reproduces every decision, late answers and updates included")
  func managerRecordsReplayExactly() throws {
    var random = SeededGenerator(seed: 2611)
    for round in 0..<8 {
      let text = RecordReplayTests.randomPolicy(&random)
      let compiled = try #require(PolicyEnvironment.standard.compile(text, path: "p").policy)
      let sink = Sink()
      let clock = Clock()
      var version = 1
      func manager(_ store: InMemoryReviewStore) throws -> ReviewManager {
        try ReviewManager(
          configuration: .init(
            appVersion: "1.\(version)", bundledPolicy: text, store: store, clock: clock.function, texts: .english,
            recorder: sink.write))
      }
      // Three installs, each with its own store.
      for _ in 0..<3 {
        let store = InMemoryReviewStore()
        var current = try manager(store)
        for _ in 0..<(150 + Int(random.next() % 150)) {
          clock.advance(Double(random.next() % 40_000))
          switch random.next() % 12 {
          case 0:
            if random.next() % 6 == 0 { version += 1 }
            current = try manager(store)
            current.appLaunched()
          case 1: current.appEnteredForeground()
          case 2: current.sessionStarted()
          case 3: current.sessionEnded()
          case 4, 5: current.significantEvent("export")
          case 6: current.action(score: 20, isBad: random.next() % 5 == 0, mayPrompt: random.next() % 2 == 0)
          case 7, 8: current.promptIfAppropriate()
          case 9: _ = current.record([.rated, .declined, .remindLater, .dismissed][Int(random.next() % 4)])
          case 10: current.appLeftForegroundWithPromptShowing()
          default: current.recordWithoutPrompt(.declined)
          }
        }
      }
      let records = sink.records()
      var replay = RecordReplay(policies: [RecordReplay.Policy(name: "p", compiled: compiled)])
      for record in records { replay.add(record) }
      let outcome = replay.finish()
      #expect(outcome.installs == 3)
      #expect(outcome.checks > 0)
      // On a difference, the install's records up to it say why.
      let context = outcome.comparisons[0].differences.first.map { first in
        records.filter { $0.install == first.install && $0.time <= first.time }.map(\.line).joined(separator: "\n")
      }
      #expect(outcome.comparisons[0].sameDecisions == outcome.checks, "round \(round): \(text)\n\(context ?? "")")
      #expect(outcome.comparisons[0].differences.isEmpty)
      #expect(outcome.replayed[0].asks == outcome.original.asks, "round \(round): \(text)")
    }
  }
}
