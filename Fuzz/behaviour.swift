// Fuzz target `behaviour`: the behaviour-file reader of `policyc simulate --behaviour FILE`
// (SimulationBehaviour.read in Sources/PolicyTools/Simulation/SimulationBehaviour.swift), then a
// small simulation (SimulationReport.simulate) with the model it reads.
//
// The input is a behaviour file. A hash of it picks the population (1 to 5 users), the horizon
// (1 to 40 days) and the seed, both cut down when the model's sessions and events would make the
// run long.
//
// Invariants (a violation calls `fuzzFail`):
// - the file either reads to a model or fails with error diagnostics (PC401 or PC408), each
//   located inside the file; never both, never neither;
// - a model that reads has every parameter finite and within its documented bounds: shares from
//   0 to 1, answers adding up to at most 1, 1 to 20 sessions a day, 0 to 20 events a session,
//   a whole number of days from 0 to 3650 between releases, uniquely and non-emptily named
//   events, fact distributions of shares adding up to 1; a key the file does not give keeps the
//   default; reading the same file into the model it gave changes nothing;
// - when its facts resolve for Examples/review.policy (as `policyc simulate` resolves them), the
//   simulation completes with consistent counts (users asked at most once per user, answers
//   adding up to prompts, first-ask days adding up to the users asked, percentages from 0 to
//   100) and is deterministic: a second run gives the same outcome and the same reports.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore,
// ReviewPolicy and PolicyTools.
import Foundation

@testable import PolicyCore
@testable import PolicyTools
@testable import ReviewPolicy

/// Examples/review.policy, without its comments.
let reviewPolicyText = """
  fact plan: string = "free"
  fact crashed_this_session: bool
  event export, purchase, share

  let engaged = days >= 14 and uses >= 10
  let loved = events("export") >= 3 or (average_score(3) ?? 0) >= 75
  let recently_asked = since(last_prompt) < 8w

  never answered when declined or rated
  never declined_recently when since(last_decline) < 26w
  never too_soon when recently_asked or since(last_reminder) < 3d
  never bad_session when session_bad or crashed_this_session
  never yearly_cap when prompts_within(365d) >= 3
  never buggy_release when version >= v3.0 and version < v3.0.3
  never same_version when has last_prompt_version and version <= last_prompt_version

  ask loyal when engaged and loved
  ask paying when plan in ["pro", "team"] and days >= 7 and uses >= 5
  """

let reviewPolicy: CompiledPolicy = {
  let compilation = PolicyCompiler.compile(reviewPolicyText, path: "review.policy", schema: ReviewSchema.standard)
  guard let policy = compilation.policy else { fuzzFail("the review policy does not compile") }
  return policy
}()

func checkShare(_ value: Double, _ what: String) {
  if !value.isFinite || value < 0 || value > 1 { fuzzFail("\(what) is \(value), not a share") }
}

/// Checks the parameters of a model that was read.
func checkModel(_ model: SimulationModel, given keys: Set<String>) {
  let defaults = SimulationModel()
  checkShare(model.heavyShare, "heavyShare")
  checkShare(model.heavyOpenRate, "heavyOpenRate")
  checkShare(model.lightOpenRate, "lightOpenRate")
  checkShare(model.badSessionRate, "badSessions")
  checkShare(model.rateShare, "the rate share")
  checkShare(model.remindShare, "the later share")
  checkShare(model.declineShare, "the decline share")
  if model.rateShare + model.remindShare + model.declineShare > 1 + 1e-9 { fuzzFail("the answers add up to over 1") }
  if model.validate() != nil { fuzzFail("a model that was read does not validate") }
  checkShare(model.dismissShare, "the dismiss share")
  if !model.sessionsPerDay.isFinite || model.sessionsPerDay < 1 || model.sessionsPerDay > 20 {
    fuzzFail("sessionsPerDay is \(model.sessionsPerDay)")
  }
  if model.releaseEvery < 0 || model.releaseEvery > 3650 { fuzzFail("releaseEvery is \(model.releaseEvery)") }
  var names = Set<String>()
  for event in model.events {
    if event.name.isEmpty || !names.insert(event.name).inserted { fuzzFail("event `\(event.name)` empty or repeated") }
    if !event.perSession.isFinite || event.perSession < 0 || event.perSession > 20 {
      fuzzFail("event `\(event.name)` has rate \(event.perSession)")
    }
  }
  var factNames = Set<String>()
  for fact in model.facts {
    if !factNames.insert(fact.name).inserted { fuzzFail("the fact `\(fact.name)` is distributed twice") }
    if fact.shares.isEmpty { fuzzFail("the fact `\(fact.name)` has no values") }
    var values = Set<String>()
    var total = 0.0
    for share in fact.shares {
      if !values.insert(share.value).inserted { fuzzFail("the fact `\(fact.name)` gives `\(share.value)` twice") }
      checkShare(share.share, "a share of `\(fact.name)`")
      total += share.share
    }
    if abs(total - 1) > 1e-6 { fuzzFail("the shares of `\(fact.name)` add up to \(total)") }
  }
  // A key the file does not give keeps the model's value.
  let untouched: [(String, Bool)] = [
    ("events", model.events == defaults.events), ("facts", model.facts == defaults.facts),
    ("releaseEvery", model.releaseEvery == defaults.releaseEvery),
    ("sessionsPerDay", model.sessionsPerDay == defaults.sessionsPerDay),
    (
      "answers",
      model.rateShare == defaults.rateShare && model.remindShare == defaults.remindShare
        && model.declineShare == defaults.declineShare
    ),
    ("heavyShare", model.heavyShare == defaults.heavyShare),
    ("heavyOpenRate", model.heavyOpenRate == defaults.heavyOpenRate),
    ("lightOpenRate", model.lightOpenRate == defaults.lightOpenRate),
    ("badSessions", model.badSessionRate == defaults.badSessionRate),
  ]
  for (key, same) in untouched where !same && !keys.contains(key) {
    fuzzFail("`\(key)` changed but the file does not give it")
  }
}

/// Checks the counts of one simulation.
func checkReport(_ report: SimulationReport) {
  let setup = report.setup
  let activity = report.outcome.activity
  if activity.heavyUsers < 0 || activity.heavyUsers > setup.users { fuzzFail("\(activity.heavyUsers) heavy users") }
  if activity.activeDays < setup.users || activity.activeDays > setup.users * setup.days {
    fuzzFail("\(activity.activeDays) active days for \(setup.users) users over \(setup.days) days")
  }
  if activity.sessions < activity.activeDays { fuzzFail("fewer sessions than active days") }
  if activity.badSessions < 0 || activity.badSessions > activity.sessions {
    fuzzFail("\(activity.badSessions) bad sessions")
  }
  if activity.events < 0 || activity.checks < activity.sessions || activity.updates < 0 {
    fuzzFail("events \(activity.events), checks \(activity.checks), updates \(activity.updates)")
  }
  if report.policies.count != setup.policies.count { fuzzFail("a summary per policy") }
  for summary in report.policies {
    let tally = summary.tally
    if tally.managerFailures != 0 { fuzzFail("\(tally.managerFailures) manager failures") }
    if tally.usersAsked < 0 || tally.usersAsked > setup.users { fuzzFail("\(tally.usersAsked) users asked") }
    if tally.heavyUsersAsked < 0 || tally.heavyUsersAsked > tally.usersAsked
      || tally.heavyUsersAsked > activity.heavyUsers
    {
      fuzzFail("\(tally.heavyUsersAsked) heavy users asked")
    }
    if tally.usersRated > tally.usersAsked || tally.usersAskedAfterDecline > tally.usersAsked
      || tally.usersBeyondYearlyLimit > tally.usersAsked
    {
      fuzzFail("more users rated, asked after a decline or beyond the limit than asked")
    }
    if tally.asks < tally.usersAsked || tally.asks > activity.checks + activity.events {
      fuzzFail("\(tally.asks) asks for \(tally.usersAsked) users")
    }
    if tally.rated + tally.remindLater + tally.declined + tally.dismissed != tally.asks {
      fuzzFail("the answers do not add up to the asks")
    }
    if tally.firstAskDays.count != setup.days || tally.firstAskDays.reduce(0, +) != tally.usersAsked {
      fuzzFail("the first-ask days do not add up to the users asked")
    }
    if tally.asksPerUser.reduce(0, +) != setup.users || tally.asksPerUser[0] != setup.users - tally.usersAsked {
      fuzzFail("the asks-per-user buckets do not add up to the users")
    }
    if tally.maximumAsks < 0 || (tally.asks > 0) != (tally.maximumAsks > 0) { fuzzFail("maximum \(tally.maximumAsks)") }
    if let gap = tally.shortestGap, gap < 0 { fuzzFail("a negative gap between asks") }
    if tally.checks.checks < 0 || tally.checks.asked > tally.checks.checks { fuzzFail("rule tally \(tally.checks)") }
    for percentile in summary.percentiles {
      if let day = percentile, day < 1 || day > setup.days { fuzzFail("a percentile on day \(day)") }
    }
    if summary.histogram.reduce(0, +) != tally.usersAsked { fuzzFail("the histogram does not add up") }
    if summary.cumulativeAsked.last.map({ $0 != tally.usersAsked }) ?? (setup.days > 0) {
      fuzzFail("the cumulative count does not end at the users asked")
    }
    if !summary.asksPerUserPerYear.isFinite || summary.asksPerUserPerYear < 0 { fuzzFail("asks per user per year") }
    let percent = 100 * Double(tally.usersAsked) / Double(setup.users)
    if !(0...100).contains(percent) { fuzzFail("\(percent)% of users asked") }
  }
}

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let source = SourceFile(path: "fuzz.behaviour.json", bytes: bytes)
  let model: SimulationModel
  switch SimulationBehaviour.read(source, into: SimulationModel()) {
  case .failure(let problems):
    if problems.diagnostics.isEmpty { fuzzFail("a failure without diagnostics") }
    for diagnostic in problems.diagnostics {
      if diagnostic.severity != .error { fuzzFail("a failure with a \(diagnostic.severity) \(diagnostic.code)") }
      if diagnostic.code != PolicyToolsCode.invalidJSON.code && diagnostic.code != PolicyToolsCode.invalidBehaviour.code
      {
        fuzzFail("a failure with \(diagnostic.code)")
      }
      checkRange(diagnostic.range, in: bytes.count, "diagnostic \(diagnostic.code)")
    }
    _ = DiagnosticRenderer().render(problems.diagnostics, in: source)
    return 0
  case .success(let read):
    model = read
  }
  var keys = Set<String>()
  if case .success(let root) = JSONParser.parse(source), case .object(let members) = root.value {
    for member in members { keys.insert(member.key) }
  } else {
    fuzzFail("a file that is not a JSON object read as a behaviour")
  }
  checkModel(model, given: keys)
  // Reading is a function of the file: reading it again over its own result changes nothing.
  switch SimulationBehaviour.read(source, into: model) {
  case .success(let again): if again != model { fuzzFail("reading the file twice gave two models") }
  case .failure: fuzzFail("the file reads into the default model only")
  }
  _ = model.summaryLines

  // The facts, resolved as `policyc simulate` resolves them; then a small run, twice.
  let resolved: SimulationAppFacts.Resolved
  switch SimulationAppFacts.resolve([], for: [("review.policy", reviewPolicy)], distributed: model.facts) {
  case .success(let value): resolved = value
  case .failure(let failure):
    if failure.message.isEmpty { fuzzFail("a resolution failure without a message") }
    return 0
  }
  // The run is kept small, at most about 400 simulated sessions and events (one user for one day
  // when a single day has more): this target is about the file and the model it gives, whose
  // every parameter a short run uses as a long one does, and a run of 20 sessions a day of 60
  // events over 40 days for 5 users took 1.6 s, so the fuzzer ran at 170 inputs a second.
  var random = FuzzRandom(state: fuzzSeed(bytes))
  let budget = 400 / (model.sessionsPerDay * (1 + model.events.reduce(0) { $0 + $1.perSession }))
  let users = max(1, min(1 + random.below(5), Int(budget)))
  let days = max(1, min(1 + random.below(40), Int(budget / Double(users))))
  let setup = SimulationSetup(
    users: users, days: days, seed: random.next(), model: model,
    policies: [
      SimulationPolicy(
        name: "review.policy", text: reviewPolicyText, appFacts: resolved.values[0],
        defaultedFacts: resolved.defaulted.first ?? [])
    ])
  _ = SimulationInputs.warnings(for: SimulationInputs.inputs(of: setup))
  let report = SimulationReport.simulate(setup)
  checkReport(report)
  let again = SimulationReport.simulate(setup)
  if again.outcome != report.outcome { fuzzFail("two runs with the same seed differ") }
  if again.text() != report.text() || again.json() != report.json() { fuzzFail("two runs report differently") }
  return 0
}

/// libFuzzer's set-up hook, called once before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(
    [
      #"""
      {"events": {"export": 0.8, "purchase": 0.05, "share": 0.3},
       "facts": {"plan": {"free": 0.7, "pro": 0.25, "team": 0.05}, "crashed_this_session": {"false": 0.98, "true": 0.02}},
       "releaseEvery": 30, "sessionsPerDay": 1.5, "answers": {"rate": 0.25, "decline": 0.4, "later": 0.35}}
      """#,
      #"{"event": 1, "answers": {"rate": "150%"}, "facts": {"plan": {"free": 0.5}}}"#,
    ], fuzz)
  return 0
}
