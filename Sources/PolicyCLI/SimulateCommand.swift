import Foundation
import PolicyAnalysis
import PolicyCore
import PolicyTools
import ReviewAnalysis
import ReviewPolicy

/// `policyc simulate`: run the real ``ReviewTracker`` (the manager's one decision path) over a
/// synthetic population under one policy, or two side by side, and report who is asked, when and
/// how often.
///
/// The behaviour model is ``SimulationModel``; the run is ``SimulationEngine``; the reports are
/// ``SimulationReport`` (text, JSON) and ``SimulationHTML``.
enum SimulateCommand: Command {
  static let name = "simulate"
  static let summary = "Run policies over a synthetic population of users"
  /// The usage line printed after a usage error.
  static let usage = """
    USAGE: policyc simulate <policy> [<other-policy>] [--users N] [--days D] [--seed S]
                            [--html FILE] [--records FILE] [--format text|json] [--fact NAME=VALUE]...
                            [--behaviour FILE] [--event NAME=RATE]...
                            [--events NAMES] [model options]
           policyc simulate --fit <records>... [--output FILE]

    """

  /// `policyc help simulate`.
  static let help = """
    OVERVIEW: simulate users meeting a policy, or two policies side by side

    Runs the review manager's core (ReviewTracker: the manager's own tracking
    and decisions, without its lock and store) for every synthetic user, day
    by day, answers its prompts as the behaviour model says, and reports who
    is asked, when and how often. Given two policies, the same users meet
    both: each opens the app on the same days and gives the same answer to
    their first, second, ... prompt; only the prompts differ. The same seed
    gives the same report, byte for byte.

    USAGE: policyc simulate <policy> [<other-policy>] [--users N] [--days D] [--seed S]
                            [--html FILE] [--records FILE] [--format text|json] [--fact NAME=VALUE]...
                            [--behaviour FILE] [--event NAME=RATE]...
                            [--events NAMES] [model options]
           policyc simulate --fit <records>... [--output FILE]

    OPTIONS:
      --users <n>          users to simulate, 1 to 1000000 (default: 1000)
      --days <d>           days per user, 1 to 3650 (default: 365)
      --seed <s>           random seed, 0 to 18446744073709551615 (default: 1)
      --html <file>        also write a self-contained HTML report with charts
      --records <file>     also write the first policy's users' records as a review
                           manager's recorder would (docs/records.md; JSON Lines,
                           for `policyc report` and `policyc replay`): launches,
                           sessions, actions, events, prompt checks, prompts and
                           answers, each user's lines together and in order
      --format <format>    `text` (default) or `json`
      --fact <name=value>  the value of an app fact a policy declares, such as
                           `--fact plan=pro` (repeatable); a declared fact not
                           given is false, 0, "" or v0 (absent if it can be)
      --event <name=rate>  a significant event and its mean number per session,
                           such as `--event purchase=0.2` (repeatable); it joins
                           the file's events, or the default `export` events
      --behaviour <file>   the behaviour model as JSON: event names with rates per
                           session, app facts with distributions, the release
                           cadence, sessions per day, the answer mix and segments
                           of users with their own settings (see docs/simulate.md);
                           flags given too win, in every segment (also --behavior)
    \(EnvironmentHelp.eventsOption(column: 23))
      --fit <records>...   estimate a behaviour file from the app's records
                           (docs/records.md) instead of simulating: open rates
                           (heavy and light users), sessions per day, each event's
                           rate, segments of installs that never produce an
                           event, the answer mix, bad sessions and the release
                           cadence (docs/simulate.md); to standard output, or to
                           the file of `--output FILE`
      --verbose            print the speed (user-days per second) on standard error
      --progress           show progress on standard error ("simulated 4,000/10,000
                           users"); the default when standard error is a terminal
                           and the format is text
      --no-progress        never show progress
      -h, --help           show this help

    BEHAVIOUR MODEL (shares and probabilities as 0.2 or 20%):
      --heavy-share <p>      share of heavy users (default: 20%)
      --heavy-open-rate <p>  daily chance that a heavy user opens the app (80%)
      --light-open-rate <p>  daily chance that a light user opens the app (15%)
      --sessions <n>         mean sessions per day with the app open, >= 1 (1.5)
      --event-rate <n>       mean significant events per session, without a
                             behaviour file's events (1)
      --bad-sessions <p>     share of sessions that go badly (5%)
      --rate <p>             chance of answering a prompt "rate" (25%)
      --remind <p>           chance of answering "remind me later" (35%)
      --decline <p>          chance of answering "no thanks" (40%); the rest
                             dismiss the prompt without answering
      --release-every <d>    days between app releases, 0 for none (30)

      Every user installs the app on day 1 (days count from the install) and
      opens it that day; on each later day a user opens it with their daily
      chance. A day with the app open has one or more sessions between 07:00
      and 23:00: the first starts with a launch, the others with a return to
      the foreground. A session is: sessionStarted, a prompt check
      (promptIfAppropriate), 1 to 4 actions of +30 points, the significant
      events (named "export"; each is a prompt check), sessionEnded. A bad
      session's last action scores -40 and marks it bad. Releases follow a
      calendar shifted at random per user; a user picks up a new version at
      their next launch (the manager is created again over the same store,
      so per-version facts start again). A behaviour file's events replace
      the "export" events: each named event comes a geometric number of
      times per session with its mean rate; each user gets one value of each
      distributed app fact.

      A behaviour file's keys: `events`, `facts`, `releaseEvery`,
      `sessionsPerDay`, `answers`, `heavyShare`, `heavyOpenRate`,
      `lightOpenRate`, `badSessions` and `segments`. `segments` names groups
      of users, each with its `share` (the shares add up to 100%) and any of
      the other keys but `releaseEvery`: a segment's `events` and `facts` are
      merged by name over the top level's (a rate of 0 removes an event), its
      other keys replace the top level's. Each user's segment is drawn from a
      stream of its own, the same under both policies. Model flags, `--event`
      and `--fact` set the value at the top level and in every segment.

      Every event and app fact a policy reads is listed in the report with
      what the model gives it; before the run, a warning names every event a
      policy reads that the model never produces.

    REPORT: users asked (heavy and light users, and each segment's users),
    the day of the first ask (percentiles and histogram), asks, asks per user
    per year, users asked more than once, the most asks to one user, the
    shortest time between two asks to one user, asks after a "no thanks",
    asks beyond 3 in 365 days (Apple's yearly limit), the answers, users who
    rated, and the number of asks per user. JSON (`--format json`) has the
    keys users, days, seed, model, activity and policies, a list of objects
    with name, usersAsked, askedShare, heavyUsersAsked, lightUsersAsked,
    segments [{name, users, asked}] (with segments only), firstAskDay (p10,
    p25, median, p75, p90, histogram [{from, to, users}], byDay), asks,
    asksPerUserPerYear, asksPerUser [{asks, orMore, users}],
    usersAskedMoreThanOnce, maximumAsks, shortestGapDays, asksAfterDecline,
    usersAskedAfterDecline, asksBeyond3In365Days, usersBeyond3In365Days,
    answers (rate, remindLater, decline, dismiss) and usersRated.

    The report then explains the outcome: the behaviour the policies read
    (events and app facts with their rates, distributions or defaults), for
    each policy every rule and condition with how often it held at the
    prompt checks, and what blocked the asks (a `never` rule, or the failed
    conditions of the `ask` rules), with a reason for each condition that
    never held (such as "a new version every 30 days restarts it"). In JSON:
    the top-level key behaviour, and per policy the key checks. Above 250
    users, the checks of 250 users are explained (every n-th user).

    \(EnvironmentHelp.projectFile("A project file with errors is reported, and its policies are not simulated (exit status 1). The names only check the policies: the behaviour model says which events happen."))

    For long runs, build in release: `swift run -c release policyc simulate ...`.

    EXIT STATUS:
      0  simulated
      1  a policy has errors
      2  usage error, or a file could not be read or written

    """

  /// A progress counter that writes `simulated 4,000/10,000 users` on standard error at most every
  /// 2% of the users or half a second, and always for the last user: rewriting one line on a
  /// terminal (`inPlace`), else one line each (for a log, with `--progress`).
  static func progressLine(users: Int, inPlace: Bool, io: CommandIO) -> SimulationProgress {
    var shown = 0
    var shownAt = DispatchTime.now().uptimeNanoseconds
    let step = max(1, users / 50)
    let total = SimulationFormat.grouped(users)
    return SimulationProgress { finished in
      let now = DispatchTime.now().uptimeNanoseconds
      guard finished == users || finished - shown >= step || now - shownAt >= 500_000_000 else { return }
      shown = finished
      shownAt = now
      let line = "simulated \(SimulationFormat.grouped(finished))/\(total) users"
      io.write(inPlace ? "\r" + line : line + "\n", to: .standardError)
    }
  }

  /// Runs `policyc simulate` with `arguments` (after the command name) and returns the exit status.
  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    if isFit(arguments) { return fit(arguments, io: io) }
    var command = CommandContext(self, io: io)
    let options: Options
    switch Options.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let error): return command.usageError(error.message)
    }
    if options.showsHelp {
      io.write(help, to: .standardOutput)
      return PolicyCLI.success
    }
    if let names = options.eventNames { command.useEventNames(names) }

    // The policies: every error of every policy is reported before giving up.
    let renderer = DiagnosticRenderer(usesColor: false)
    var compiled: [(path: String, text: String, policy: CompiledPolicy, environment: PolicyEnvironment)] = []
    var status = PolicyCLI.success
    for path in options.policies {
      switch command.compile(path, renderer: renderer) {
      case .unreadable: return PolicyCLI.usageError
      case .failed: status = PolicyCLI.failure
      case .compiled(let policy, let environment, let text): compiled.append((path, text, policy, environment))
      }
    }
    guard status == PolicyCLI.success else { return status }

    // The behaviour model: the file's, then the flags.
    var model = SimulationModel()
    if let path = options.behaviourPath {
      guard let source = command.load(path) else { return PolicyCLI.usageError }
      if let tooLarge = source.tooLarge {
        io.write(renderer.render([tooLarge], in: source.file), to: .standardError)
        return PolicyCLI.failure
      }
      switch SimulationBehaviour.read(source.file, into: model) {
      case .success(let read): model = read
      case .failure(let problems):
        io.write(renderer.render(problems.diagnostics, in: source.file), to: .standardError)
        return PolicyCLI.failure
      }
    }
    for (name, text) in options.modelFlags {
      if name == "event-rate" && model.namesEvents {
        return command.usageError(
          "`--event-rate` sets the rate of the default `export` events; the behaviour file names its own events")
      }
      if let problem = model.set(name, text) { return command.usageError(problem) }
    }
    if let problem = model.validate() { return command.usageError(problem) }
    // `--event` and `--fact` win over the file at the top level and in every segment; named
    // events join the default ones.
    for event in options.events { model.setEvent(event) }
    for fact in options.facts { model.removeDistribution(of: fact.name) }

    // App facts the policies declare.
    let appFacts: [[(name: String, value: Value)]]
    let defaulted: [[String]]
    switch SimulationAppFacts.resolve(
      options.facts, for: compiled.map { ($0.path, $0.policy) }, distributed: model.everyUserFacts,
      partlyDistributed: model.someUserFacts)
    {
    case .success(let resolved):
      appFacts = resolved.values
      defaulted = resolved.defaulted
      for note in resolved.notes { io.write("policyc simulate: note: \(note)\n", to: .standardError) }
    case .failure(let error):
      return command.usageError(error.message)
    }

    let setup = SimulationSetup(
      users: options.users, days: options.days, seed: options.seed, model: model,
      policies: compiled.indices.map {
        SimulationPolicy(
          name: compiled[$0].path, text: compiled[$0].text, appFacts: appFacts[$0], defaultedFacts: defaulted[$0],
          environment: compiled[$0].environment)
      })
    for warning in SimulationInputs.warnings(for: SimulationInputs.inputs(of: setup)) {
      io.write("policyc simulate: warning: \(warning)\n", to: .standardError)
    }

    // The run, with a progress line when standard error is a terminal: standard output (the
    // report) is never touched, so pipes and goldens stay byte-identical.
    let showsProgress = options.progress ?? (io.isStandardErrorTerminal && options.format == "text")
    let inPlace = io.isStandardErrorTerminal
    let progress = showsProgress ? progressLine(users: setup.users, inPlace: inPlace, io: io) : nil
    let started = DispatchTime.now().uptimeNanoseconds
    var report: SimulationReport?
    if let path = options.recordsPath {
      do throws(FileReadError) {
        try io.streamToFile(path) { write in
          var recorded = setup
          recorded.recordSink = write
          report = SimulationReport.simulate(recorded, progress: progress)
        }
      } catch {
        command.error("cannot write the records `\(path)`: \(error.reason)")
        return PolicyCLI.usageError
      }
    } else {
      report = SimulationReport.simulate(setup, progress: progress)
    }
    guard let report else { return PolicyCLI.usageError }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    if showsProgress && inPlace { io.write("\r\u{1B}[K", to: .standardError) }
    if options.verbose {
      let userDays = setup.users * setup.days * setup.policies.count
      let rate = elapsed > 0 ? Double(userDays) / elapsed : 0
      io.write(
        "policyc simulate: \(SimulationFormat.grouped(userDays)) user-days (\(SimulationFormat.grouped(setup.users)) users x "
          + "\(setup.days) day\(setup.days == 1 ? "" : "s") x \(setup.policies.count) polic\(setup.policies.count == 1 ? "y" : "ies")) in "
          + "\(SimulationFormat.decimal(elapsed, places: 2)) s: \(SimulationFormat.grouped(Int(rate))) user-days/s on "
          + "\(ProcessInfo.processInfo.activeProcessorCount) cores\n", to: .standardError)
    }

    io.write(options.format == "json" ? report.json() : report.text(), to: .standardOutput)
    if let path = options.htmlPath {
      do {
        try io.replaceFile(path, with: Array(report.html().utf8))
      } catch {
        command.error("cannot write the HTML report `\(path)`: \(error.reason)")
        return PolicyCLI.usageError
      }
    }
    return PolicyCLI.success
  }

  /// The command line of `policyc simulate`, checked.
  struct Options {
    /// One or two policy paths.
    var policies: [String] = []
    /// Users to simulate.
    var users = 1000
    /// Days per user.
    var days = 365
    /// The random seed.
    var seed: UInt64 = 1
    /// Where to write the HTML report, if anywhere.
    var htmlPath: String?
    /// Where to write the first policy's records, if anywhere.
    var recordsPath: String?
    /// `text` or `json`.
    var format = "text"
    /// `--fact` values, as given, in order.
    var facts: [(name: String, value: String)] = []
    /// `--event` rates, in order.
    var events: [SimulationEventRate] = []
    /// Whether to print the speed on standard error.
    var verbose = false
    /// `--progress` (true), `--no-progress` (false), or neither (nil: on a terminal, for text).
    var progress: Bool?
    /// Whether `--help` was given.
    var showsHelp = false
    /// The behaviour file, if any.
    var behaviourPath: String?
    /// The model flags, as given (applied over the behaviour file), in help order.
    var modelFlags: [(name: String, text: String)] = []
    /// `--events`: the event names the app records, separated by commas, as given.
    var eventNames: String?

    /// Parses and checks `arguments`; the error is a usage message.
    static func parse(_ arguments: [String]) -> Result<Options, Arguments.UsageError> {
      var options = Options()
      // `--fact` may be repeated, which `Arguments` does not keep: take those out first.
      var rest: [String] = []
      var index = 0
      while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if argument == "--" {
          rest.append(contentsOf: arguments[(index - 1)...])
          break
        }
        var assignment: String?
        var option = "fact"
        for name in ["fact", "event"] {
          if argument == "--\(name)" || argument == "-\(name)" {
            guard index < arguments.count else { return .failure(.init(message: "option `--\(name)` needs a value")) }
            assignment = arguments[index]
            option = name
            index += 1
          } else if argument.hasPrefix("--\(name)=") {
            assignment = String(argument.dropFirst("--\(name)=".count))
            option = name
          }
        }
        guard let assignment else {
          rest.append(argument)
          continue
        }
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
          return .failure(
            .init(
              message: option == "fact"
                ? "`--fact \(assignment)` must be NAME=VALUE, such as `--fact plan=pro`"
                : "`--event \(assignment)` must be NAME=RATE, such as `--event purchase=0.2`"))
        }
        let name = String(assignment[..<equals])
        let value = String(assignment[assignment.index(after: equals)...])
        if option == "fact" {
          options.facts.append((name, value))
        } else {
          guard let rate = Double(value), rate.isFinite, rate >= 0, rate <= 20 else {
            return .failure(
              .init(message: "`--event \(assignment)`: the rate must be a number of events per session from 0 to 20"))
          }
          options.events.append(SimulationEventRate(name: name, perSession: rate))
        }
      }

      let modelOptions = Set(SimulationModel.options.map(\.name))
      let parsed: Arguments
      do {
        parsed = try Arguments.parse(
          rest,
          valueOptions: Set(["users", "days", "seed", "html", "records", "format", "behaviour", "behavior", "events"])
            .union(modelOptions),
          flagOptions: ["help", "verbose", "progress", "no-progress"])
      } catch {
        return .failure(error)
      }
      if parsed.flags.contains("help") {
        options.showsHelp = true
        return .success(options)
      }
      options.verbose = parsed.flags.contains("verbose")
      switch (parsed.flags.contains("progress"), parsed.flags.contains("no-progress")) {
      case (true, true): return .failure(.init(message: "give `--progress` or `--no-progress`, not both"))
      case (true, false): options.progress = true
      case (false, true): options.progress = false
      case (false, false): options.progress = nil
      }
      options.format = parsed.values["format"] ?? "text"
      guard options.format == "text" || options.format == "json" else {
        return .failure(.init(message: "unknown format `\(options.format)`; use `text` or `json`"))
      }
      guard (1...2).contains(parsed.operands.count) else {
        return .failure(
          .init(
            message: parsed.operands.isEmpty
              ? "no policy given" : "give one or two policies, not \(parsed.operands.count)"))
      }
      options.policies = parsed.operands
      if let text = parsed.values["users"] {
        guard let users = Int(text), (1...SimulationSetup.maximumUsers).contains(users) else {
          return .failure(.init(message: "`--users \(text)` must be a whole number from 1 to 1000000"))
        }
        options.users = users
      }
      if let text = parsed.values["days"] {
        guard let days = Int(text), (1...SimulationSetup.maximumDays).contains(days) else {
          return .failure(.init(message: "`--days \(text)` must be a whole number from 1 to 3650"))
        }
        options.days = days
      }
      if let text = parsed.values["seed"] {
        guard let seed = UInt64(text) else {
          return .failure(.init(message: "`--seed \(text)` must be a whole number from 0 to 18446744073709551615"))
        }
        options.seed = seed
      }
      if let path = parsed.values["html"] {
        guard !path.isEmpty else { return .failure(.init(message: "`--html` needs a file name")) }
        options.htmlPath = path
      }
      if let path = parsed.values["records"] {
        guard !path.isEmpty else { return .failure(.init(message: "`--records` needs a file name")) }
        options.recordsPath = path
      }
      if parsed.values["behaviour"] != nil && parsed.values["behavior"] != nil {
        return .failure(.init(message: "give `--behaviour` once (`--behavior` is the same option)"))
      }
      if let path = parsed.values["behaviour"] ?? parsed.values["behavior"] {
        guard !path.isEmpty else { return .failure(.init(message: "`--behaviour` needs a file name")) }
        options.behaviourPath = path
      }
      if let names = parsed.values["events"] {
        // `--events` named a rate before `--event-rate` did.
        guard Double(names.trimmingCharacters(in: .whitespaces)) == nil else {
          return .failure(
            .init(
              message:
                "`--events \(names)` names the events the app records; for the mean number of events per session, use `--event-rate \(names)`"
            ))
        }
        options.eventNames = names
      }
      // Check the flags on the default model now (usage errors come before any file is read);
      // they are applied again over the behaviour file.
      var model = SimulationModel()
      for (name, _) in SimulationModel.options {
        guard let text = parsed.values[name] else { continue }
        if let problem = model.set(name, text) { return .failure(.init(message: problem)) }
        options.modelFlags.append((name, text))
      }
      if options.behaviourPath == nil, let problem = model.validate() { return .failure(.init(message: problem)) }
      return .success(options)
    }
  }
}
