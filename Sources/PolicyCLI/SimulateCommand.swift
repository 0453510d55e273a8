import Foundation
import PolicyCore
import ReviewPolicy

/// `policyc simulate`: run the real ``ReviewManager`` over a synthetic population under one
/// policy, or two side by side, and report who is asked, when and how often.
///
/// The behaviour model is ``SimulationModel``; the run is ``SimulationEngine``; the reports are
/// ``SimulationReport`` (text, JSON) and ``SimulationHTML``.
enum SimulateCommand {
  /// The usage line printed after a usage error.
  static let usage = """
    USAGE: policyc simulate <policy> [<other-policy>] [--users N] [--days D] [--seed S]
                            [--html FILE] [--format text|json] [--fact NAME=VALUE]... [model options]

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
                            [--html FILE] [--format text|json] [--fact NAME=VALUE]... [model options]

    OPTIONS:
      --users <n>          users to simulate, 1 to 1000000 (default: 1000)
      --days <d>           days per user, 1 to 3650 (default: 365)
      --seed <s>           random seed, 0 to 18446744073709551615 (default: 1)
      --html <file>        also write a self-contained HTML report with charts
      --format <format>    `text` (default) or `json`
      --fact <name=value>  the value of an app fact a policy declares, such as
                           `--fact plan=pro` (repeatable); a declared fact not
                           given is false, 0, "" or v0 (absent if it can be)
      --verbose            print the speed (user-days per second) on standard error
      -h, --help           show this help

    BEHAVIOUR MODEL (shares and probabilities as 0.2 or 20%):
      --heavy-share <p>      share of heavy users (default: 20%)
      --heavy-open-rate <p>  daily chance that a heavy user opens the app (80%)
      --light-open-rate <p>  daily chance that a light user opens the app (15%)
      --sessions <n>         mean sessions per day with the app open, >= 1 (1.5)
      --events <n>           mean significant events per session (1)
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
      so per-version facts start again).

    REPORT: users asked (heavy and light users), the day of the first ask
    (percentiles and histogram), asks, asks per user per year, users asked
    more than once, the most asks to one user, the shortest time between two
    asks to one user, asks after a "no thanks", asks beyond 3 in 365 days
    (Apple's yearly limit), the answers, users who rated, and the number of
    asks per user. JSON (`--format json`) has the keys users, days, seed,
    model, activity and policies, a list of objects with name, usersAsked,
    askedShare, heavyUsersAsked, lightUsersAsked, firstAskDay (p10, p25,
    median, p75, p90, histogram [{from, to, users}], byDay), asks,
    asksPerUserPerYear, asksPerUser [{asks, orMore, users}],
    usersAskedMoreThanOnce, maximumAsks, shortestGapDays, asksAfterDecline,
    usersAskedAfterDecline, asksBeyond3In365Days, usersBeyond3In365Days,
    answers (rate, remindLater, decline, dismiss) and usersRated.

    EXIT STATUS:
      0  simulated
      1  a policy has errors
      2  usage error, or a file could not be read or written

    """

  /// Runs `policyc simulate` with `arguments` (after the command name) and returns the exit status.
  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    func usageError(_ message: String) -> Int32 {
      io.write("policyc simulate: error: \(message)\n\n\(usage)", to: .standardError)
      return PolicyCLI.usageError
    }
    let options: Options
    switch Options.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let error): return usageError(error.message)
    }
    if options.showsHelp {
      io.write(help, to: .standardOutput)
      return PolicyCLI.success
    }

    // The policies: every error of every policy is reported before giving up.
    let renderer = DiagnosticRenderer(usesColor: false)
    var compiled: [(path: String, text: String, policy: CompiledPolicy)] = []
    var status = PolicyCLI.success
    for path in options.policies {
      guard let source = CheckCommand.load(path, io: io, verb: "simulate") else { return PolicyCLI.usageError }
      if let tooLarge = source.tooLarge {
        io.write(renderer.render([tooLarge], in: source.file), to: .standardError)
        status = PolicyCLI.failure
        continue
      }
      let compilation = PolicyCompiler.compile(source.file, schema: ReviewSchema.standard)
      guard let policy = compilation.policy else {
        io.write(renderer.render(compilation.diagnostics, in: compilation.source), to: .standardError)
        status = PolicyCLI.failure
        continue
      }
      compiled.append((path, String(decoding: source.file.bytes, as: UTF8.self), policy))
    }
    guard status == PolicyCLI.success else { return status }

    // App facts the policies declare.
    let appFacts: [[(name: String, value: Value)]]
    switch SimulationAppFacts.resolve(options.facts, for: compiled.map { ($0.path, $0.policy) }) {
    case .success(let resolved):
      appFacts = resolved.values
      for note in resolved.notes { io.write("policyc simulate: note: \(note)\n", to: .standardError) }
    case .failure(let error):
      return usageError(error.message)
    }

    let setup = SimulationSetup(
      users: options.users, days: options.days, seed: options.seed, model: options.model,
      policies: compiled.indices.map {
        SimulationPolicy(name: compiled[$0].path, text: compiled[$0].text, appFacts: appFacts[$0])
      })

    // The run, with a progress line on a terminal.
    let showsProgress = io.isStandardOutputTerminal && options.format == "text"
    var lastPercent = -1
    let progress = showsProgress
      ? SimulationProgress { finished in
        let percent = finished * 100 / setup.users
        guard percent != lastPercent else { return }
        lastPercent = percent
        io.write("\rsimulating \(SimulationFormat.grouped(setup.users)) users: \(percent)%", to: .standardError)
      } : nil
    let started = DispatchTime.now().uptimeNanoseconds
    let outcome = SimulationEngine.run(setup, progress: progress)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    if showsProgress { io.write("\r\u{1B}[K", to: .standardError) }
    if options.verbose {
      let userDays = setup.users * setup.days * setup.policies.count
      let rate = elapsed > 0 ? Double(userDays) / elapsed : 0
      io.write(
        "policyc simulate: \(SimulationFormat.grouped(userDays)) user-days (\(SimulationFormat.grouped(setup.users)) users x "
          + "\(setup.days) day\(setup.days == 1 ? "" : "s") x \(setup.policies.count) polic\(setup.policies.count == 1 ? "y" : "ies")) in "
          + "\(SimulationFormat.decimal(elapsed, places: 2)) s: \(SimulationFormat.grouped(Int(rate))) user-days/s on "
          + "\(ProcessInfo.processInfo.activeProcessorCount) cores\n", to: .standardError)
    }

    let report = SimulationReport(setup: setup, outcome: outcome)
    io.write(options.format == "json" ? report.json() : report.text(), to: .standardOutput)
    if let path = options.htmlPath {
      do {
        try io.replaceFile(path, with: Array(SimulationHTML.render(report).utf8))
      } catch {
        io.write("policyc simulate: error: cannot write the HTML report `\(path)`: \(error.reason)\n", to: .standardError)
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
    /// `text` or `json`.
    var format = "text"
    /// `--fact` values, as given, in order.
    var facts: [(name: String, value: String)] = []
    /// Whether to print the speed on standard error.
    var verbose = false
    /// Whether `--help` was given.
    var showsHelp = false
    /// The behaviour model.
    var model = SimulationModel()

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
        if argument == "--fact" || argument == "-fact" {
          guard index < arguments.count else { return .failure(.init(message: "option `--fact` needs a value")) }
          assignment = arguments[index]
          index += 1
        } else if argument.hasPrefix("--fact=") {
          assignment = String(argument.dropFirst("--fact=".count))
        }
        guard let assignment else {
          rest.append(argument)
          continue
        }
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
          return .failure(.init(message: "`--fact \(assignment)` must be NAME=VALUE, such as `--fact plan=pro`"))
        }
        options.facts.append(
          (String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...])))
      }

      let modelOptions = Set(SimulationModel.options.map(\.name))
      let parsed: Arguments
      do {
        parsed = try Arguments.parse(
          rest, valueOptions: Set(["users", "days", "seed", "html", "format"]).union(modelOptions),
          flagOptions: ["help", "verbose"])
      } catch {
        return .failure(error)
      }
      if parsed.flags.contains("help") {
        options.showsHelp = true
        return .success(options)
      }
      options.verbose = parsed.flags.contains("verbose")
      options.format = parsed.values["format"] ?? "text"
      guard options.format == "text" || options.format == "json" else {
        return .failure(.init(message: "unknown format `\(options.format)`; use `text` or `json`"))
      }
      guard (1...2).contains(parsed.operands.count) else {
        return .failure(
          .init(message: parsed.operands.isEmpty ? "no policy given" : "give one or two policies, not \(parsed.operands.count)"))
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
      for (name, _) in SimulationModel.options {
        guard let text = parsed.values[name] else { continue }
        if let problem = options.model.set(name, text) { return .failure(.init(message: problem)) }
      }
      if let problem = options.model.validate() { return .failure(.init(message: problem)) }
      return .success(options)
    }
  }
}

/// The app-specific facts of the simulated policies: `--fact` values, or documented defaults.
enum SimulationAppFacts {
  /// The facts of each policy, and notes about the facts that took a default.
  struct Resolved {
    /// For each policy, the facts to set on its managers.
    var values: [[(name: String, value: Value)]]
    /// Notes for standard error: which declared facts took a default.
    var notes: [String]
  }

  /// Matches `given` against the facts each policy declares and parses the values by the declared types.
  static func resolve(
    _ given: [(name: String, value: String)], for policies: [(path: String, policy: CompiledPolicy)]
  ) -> Result<Resolved, Arguments.UsageError> {
    var declaredNames: [String] = []
    for (_, policy) in policies {
      for slot in policy.layout.slots {
        if case .declaration = slot.origin, !declaredNames.contains(slot.name) { declaredNames.append(slot.name) }
      }
    }
    var givenValues: [String: String] = [:]
    for (name, text) in given {
      guard declaredNames.contains(name) else {
        if ReviewSchema.facts.contains(where: { $0.name == name }) {
          return .failure(
            .init(message: "`--fact \(name)=...`: `\(name)` is tracked by the review manager; `--fact` sets app facts a policy declares"))
        }
        let suggestion = EditDistance.suggestion(for: name, among: declaredNames)
        let policiesText = policies.count == 1 ? "the policy does not declare" : "neither policy declares"
        return .failure(
          .init(message: "`--fact \(name)=\(text)`: \(policiesText) `fact \(name)`" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")))
      }
      givenValues[name] = text
    }
    var resolved = Resolved(values: [], notes: [])
    for (path, policy) in policies {
      var facts: [(name: String, value: Value)] = []
      var defaulted: [String] = []
      for slot in policy.layout.slots {
        guard case .declaration = slot.origin else { continue }
        if let text = givenValues[slot.name] {
          guard let value = parse(text, as: slot.type) else {
            return .failure(.init(message: "`--fact \(slot.name)=\(text)`: `\(slot.name)` is \(article(slot.type)) `\(slot.type)` in \(path); \(example(slot.type))"))
          }
          facts.append((slot.name, value))
        } else if !slot.isOptional {
          let value = zero(slot.type)
          facts.append((slot.name, value))
          defaulted.append("`\(slot.name)` = \(value)")
        }
      }
      resolved.values.append(facts)
      if !defaulted.isEmpty {
        resolved.notes.append(
          "\(path) declares app facts the simulation cannot know; using \(defaulted.joined(separator: ", ")) (set them with --fact NAME=VALUE)")
      }
    }
    return .success(resolved)
  }

  /// The value of `text` as a `type`, or nil.
  static func parse(_ text: String, as type: PolicyType) -> Value? {
    switch type {
    case .bool:
      switch text {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: return nil
      }
    case .int: return Int64(text).map(Value.int)
    case .number: return Number(parsing: text).map(Value.number)
    case .duration: return TimeSpan(parsing: text).map(Value.duration)
    case .version:
      return Version(parsing: text.hasPrefix("v") ? String(text.dropFirst()) : text).map(Value.version)
    case .instant: return Timestamp(iso8601: text).map(Value.instant)
    case .string:
      if text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") { return .string(String(text.dropFirst().dropLast())) }
      return .string(text)
    }
  }

  /// The default of a declared fact nobody set: false, 0, 0s, v0, "", or the install instant.
  static func zero(_ type: PolicyType) -> Value {
    switch type {
    case .bool: .bool(false)
    case .int: .int(0)
    case .number: .number(Number(scaled: 0))
    case .duration: .duration(TimeSpan(milliseconds: 0))
    case .version: .version(Version(high: 0, low: 0))
    case .instant: .instant(Timestamp(millisecondsSince1970: SimulationSetup.installInstant * 1000))
    case .string: .string("")
    }
  }

  /// "a" or "an" before the name of `type`.
  private static func article(_ type: PolicyType) -> String {
    type == .int || type == .instant ? "an" : "a"
  }

  /// Advice on writing a value of `type`.
  private static func example(_ type: PolicyType) -> String {
    switch type {
    case .bool: "write true or false"
    case .int: "write a whole number such as 3"
    case .number: "write a number such as 7.5"
    case .duration: "write a duration such as 30d"
    case .version: "write a version such as 3.1"
    case .instant: "write an ISO-8601 instant such as 2026-03-01T12:00:00Z"
    case .string: "write any text"
    }
  }
}
