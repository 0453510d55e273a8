import Foundation
import PolicyCore
import ReviewPolicy
import Testing

@testable import PolicyTools

/// `policyc simulate --fit`: the estimators on data drawn from known parameters, and a simulated
/// population's records fitted back to the model that made them.
@Suite("behaviour fit")
struct BehaviourFitTests {
  /// Records of `users` simulated users over `days` days of `model`, under a policy that asks.
  static func simulatedRecords(_ model: SimulationModel, users: Int, days: Int, seed: UInt64) -> [ReviewRecord] {
    let sink = RecordReplayTests.Sink()
    let text = "never too_soon when since(last_prompt) < 4w\nask when total_days >= 2\n"
    var setup = SimulationSetup(
      users: users, days: days, seed: seed, model: model, policies: [SimulationPolicy(name: "p", text: text)])
    setup.recordSink = sink.write
    _ = SimulationEngine.run(setup)
    return sink.records()
  }

  @Test(
    "a simulated population's records give back its model: open rates, sessions, events, segments, answers, releases"
  )
  func recoversTheModel() throws {
    var model = SimulationModel()
    model.heavyShare = 0.3
    model.heavyOpenRate = 0.7
    model.lightOpenRate = 0.1
    model.sessionsPerDay = 2
    model.badSessionRate = 0.1
    model.rateShare = 0.3
    model.declineShare = 0.3
    model.remindShare = 0.2
    model.releaseEvery = 14
    model.events = [SimulationEventRate(name: "export", perSession: 0.5), .init(name: "share", perSession: 0.2)]
    // The purchase scenario: a fifth of the users buy, 0.1 times a session; the rest never.
    var buyers = SimulationSegment(name: "buyers", share: 0.2)
    buyers.events = [SimulationEventRate(name: "purchase", perSession: 0.1)]
    var others = SimulationSegment(name: "others", share: 0.8)
    others.events = [SimulationEventRate(name: "purchase", perSession: 0)]
    model.segments = [buyers, others]
    var fit = BehaviourFit()
    let records = Self.simulatedRecords(model, users: 3000, days: 90, seed: 11)
    for record in records { fit.add(record) }
    let estimate = fit.finish()
    // The installs in another order (each install's own records still in order) give the same file.
    var byInstall: [String: [ReviewRecord]] = [:]
    for record in records { byInstall[record.install, default: []].append(record) }
    var reordered = BehaviourFit()
    for install in byInstall.keys.sorted(by: >) { for record in byInstall[install] ?? [] { reordered.add(record) } }
    #expect(reordered.finish().behaviourFile == estimate.behaviourFile)
    #expect(estimate.installs == 3000)
    #expect(estimate.days == 90)
    // Tolerances: about three standard errors at 3,000 installs (open rates over 89 days each).
    let open = try #require(estimate.openRates)
    #expect(abs(open.heavyShare - 0.3) < 0.03, "\(open)")
    #expect(abs(open.heavyRate - 0.7) < 0.02, "\(open)")
    #expect(abs(open.lightRate - 0.1) < 0.01, "\(open)")
    // Sessions cut at 23:00 make a day's sessions slightly fewer than the model's mean.
    let sessions = try #require(estimate.sessionsPerDay)
    #expect(sessions > 1.85 && sessions <= 2.02, "\(sessions)")
    #expect(abs((estimate.badSessions ?? 0) - 0.1) < 0.01)
    let rates = Dictionary(uniqueKeysWithValues: estimate.events.map { ($0.name, $0.fit) })
    #expect(abs((rates["export"]?.pooledRate ?? 0) - 0.5) < 0.02, "\(rates)")
    #expect(abs((rates["share"]?.pooledRate ?? 0) - 0.2) < 0.01, "\(rates)")
    // Everyone produces `export` and `share`; only a fifth of the installs ever purchase.
    #expect(estimate.segmentEvents.map(\.name) == ["purchase"], "\(estimate.events.map { ($0.name, $0.fit) })")
    let purchase = try #require(rates["purchase"])
    #expect(abs(purchase.neverShare - 0.8) < 0.025, "\(purchase)")
    #expect(abs(purchase.rate - 0.1) < 0.008, "\(purchase)")
    let answers = try #require(estimate.answerShares)
    #expect(estimate.promptsShown > 2000)
    #expect(abs(answers.rate - 0.3) < 0.04 && abs(answers.decline - 0.3) < 0.04 && abs(answers.later - 0.2) < 0.04)
    #expect(estimate.releaseEvery == 14)

    // The file reads back as a behaviour model with those values.
    let source = SourceFile(path: "fitted.json", text: estimate.behaviourFile)
    let read = try SimulationBehaviour.read(source, into: SimulationModel()).get()
    #expect(read.heavyShare == (open.heavyShare * 10_000).rounded() / 10_000)
    #expect(read.releaseEvery == 14)
    #expect(read.events.map(\.name) == ["export", "share"])
    #expect(abs(read.sessionsPerDay - sessions) < 1e-4)
    #expect(read.segments.map(\.name) == ["with purchase", "without purchase"])
    #expect(abs(read.segments.reduce(0) { $0 + $1.share } - 1) < 1e-9)
    #expect(read.segments.last?.events == [SimulationEventRate(name: "purchase", perSession: 0)])
  }

  /// Installs: `producing` of `installs` produce the event, a geometric number per session with
  /// mean `rate`; each has 1 to 60 sessions. The histograms the estimator takes.
  static func eventCounts(
    installs: Int, producing: Double, rate: Double, seed: UInt64
  ) -> (zeros: [MixtureFit.SessionCount], producers: MixtureFit.Producers) {
    var random = SeededGenerator(seed: seed)
    var zeros: [Int: Int] = [:]
    var producers = MixtureFit.Producers(installs: 0, events: 0, sessions: 0)
    let more = rate / (1 + rate)
    for _ in 0..<installs {
      let sessions = 1 + Int(random.next() % 60)
      var events = 0
      if Double(random.next() >> 11) / 9_007_199_254_740_992 < producing {
        for _ in 0..<sessions {
          while Double(random.next() >> 11) / 9_007_199_254_740_992 < more { events += 1 }
        }
      }
      if events > 0 {
        producers.installs += 1
        producers.events += events
        producers.sessions += sessions
      } else {
        zeros[sessions, default: 0] += 1
      }
    }
    return (zeros.map { .init(sessions: $0.key, installs: $0.value) }, producers)
  }

  @Test("zero inflation: 20% of installs buying 0.05 times a session is told apart from everyone buying less")
  func zeroInflation() throws {
    let inflated = Self.eventCounts(installs: 20_000, producing: 0.2, rate: 0.05, seed: 3)
    let fit = try #require(MixtureFit.zeroInflated(zeroSessions: inflated.zeros, withEvents: inflated.producers))
    #expect(abs(fit.neverShare - 0.8) < 0.02, "\(fit)")
    #expect(abs(fit.rate - 0.05) < 0.005, "\(fit)")
    #expect(fit.statistic > 1000, "\(fit)")
    // The pooled rate is the plain mean: a fifth of it.
    #expect(abs(fit.pooledRate - 0.01) < 0.001, "\(fit)")

    let plain = Self.eventCounts(installs: 20_000, producing: 1, rate: 0.05, seed: 4)
    let none = try #require(MixtureFit.zeroInflated(zeroSessions: plain.zeros, withEvents: plain.producers))
    #expect(none.statistic < BehaviourEstimate.segmentStatistic, "\(none)")
    #expect(abs(none.pooledRate - 0.05) < 0.002, "\(none)")
  }

  @Test("open rates: one rate for everyone gives no heavy users; two give both")
  func openRates() throws {
    var random = SeededGenerator(seed: 9)
    func counts(_ rates: [(share: Double, rate: Double)]) -> [MixtureFit.DayCount] {
      var histogram: [Int: Int] = [:]
      for _ in 0..<5000 {
        var draw = Double(random.next() >> 11) / 9_007_199_254_740_992
        let rate =
          rates.first {
            draw -= $0.share; return draw < 0
          }?.rate ?? rates[rates.count - 1].rate
        var opened = 0
        for _ in 0..<60 where Double(random.next() >> 11) / 9_007_199_254_740_992 < rate { opened += 1 }
        histogram[opened, default: 0] += 1
      }
      return histogram.map { .init(days: 60, opened: $0.key, installs: $0.value) }
    }
    let one = try #require(MixtureFit.openRates(counts([(1, 0.4)])))
    #expect(one.heavyShare == 0 && abs(one.lightRate - 0.4) < 0.01, "\(one)")
    let two = try #require(MixtureFit.openRates(counts([(0.1, 0.9), (0.9, 0.3)])))
    #expect(abs(two.heavyShare - 0.1) < 0.02 && abs(two.heavyRate - 0.9) < 0.02, "\(two)")
    #expect(abs(two.lightRate - 0.3) < 0.01, "\(two)")
    #expect(MixtureFit.openRates([]) == nil)
  }

  @Test("answer shares are rounded down: three sevenths, three sevenths and a seventh read back (found by fuzzing)")
  func answersRoundDown() throws {
    var estimate = BehaviourEstimate()
    estimate.installs = 1
    estimate.answers = ["rated": 3, "declined": 3, "remindLater": 1]
    #expect(estimate.behaviourFile.contains("\"answers\": {\"rate\": 0.4285, \"decline\": 0.4285, \"later\": 0.1428}"))
    let read = SimulationBehaviour.read(
      SourceFile(path: "fitted.json", text: estimate.behaviourFile), into: SimulationModel())
    #expect(throws: Never.self) { try read.get() }
  }

  @Test(
    "hostile records still fit to a file the reader takes: bad actions outside sessions, empty and long event names")
  func hostileRecords() throws {
    let install = "0123456789abcdef0123456789abcdef"
    let long = String(repeating: "x", count: 70)
    var lines: [String] = []
    func line(_ time: String, _ event: String, _ extra: String = "") {
      lines.append(
        #"{"schema":1,"install":"\#(install)","time":"2026-01-0\#(time)Z","event":"\#(event)","app":"1.0"\#(extra)}"#)
    }
    line("1T08:00:00", "action", #","score":-40,"bad":true"#)
    line("1T08:00:01", "sessionStart")
    line("1T08:00:02", "action", #","score":-40,"bad":true"#)
    line("1T08:00:03", "action", #","score":-40,"bad":true"#)
    line("1T08:00:04", "sessionEnd")
    line("1T08:00:05", "action", #","score":-40,"bad":true"#)
    line("1T08:00:06", "significantEvent", #","name":"""#)
    for day in 2...9 {
      line("\(day)T08:00:00", "sessionStart")
      line("\(day)T08:00:01", "significantEvent", #","name":"\#(long)""#)
    }
    var fit = BehaviourFit()
    for text in lines { fit.add(try RecordReader.record(in: text).get()) }
    let estimate = fit.finish()
    // One bad session of nine; no event without a name.
    #expect(estimate.badSessions == 1.0 / 9)
    #expect(estimate.events.map(\.name) == [long])
    let read = SimulationBehaviour.read(
      SourceFile(path: "fitted.json", text: estimate.behaviourFile), into: SimulationModel())
    #expect(throws: Never.self) { try read.get() }
  }

  @Test("segments: each inflated event splits the installs, shares add up to exactly 100%, the file reads back")
  func segmentsFromEvents() throws {
    var estimate = BehaviourEstimate()
    estimate.installs = 100
    func event(_ name: String, never: Double, statistic: Double) -> BehaviourEstimate.Event {
      .init(
        name: name, fit: .init(pooledRate: 0.1 * (1 - never), neverShare: never, rate: 0.1, statistic: statistic))
    }
    estimate.events = [
      event("export", never: 0, statistic: 0), event("purchase", never: 0.8, statistic: 500),
      event("share", never: 1.0 / 3, statistic: 50), event("weak", never: 0.5, statistic: 5),
    ]
    let segments = estimate.segments
    #expect(
      segments.map(\.name) == [
        "with purchase, with share", "without purchase, with share", "with purchase, without share",
        "without purchase, without share",
      ])
    #expect(segments.map(\.share) == [1333, 5333, 667, 2667])
    #expect(segments.reduce(0) { $0 + $1.share } == 10_000)
    #expect(segments[1].events.map(\.rate) == [0, 0.1])
    let file = estimate.behaviourFile
    #expect(file.contains("\"events\": {\"export\": 0.1, \"weak\": 0.05}"), "\(file)")
  }
}
