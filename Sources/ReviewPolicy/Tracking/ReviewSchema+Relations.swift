import PolicyCore

extension ReviewSchema {
  /// What every real history satisfies, as ``FactRelation``s: the analyzer, `diff`, facts files
  /// and explanations consider only fact sets that satisfy them. `FactRelationTests` derives
  /// every one from the tracker, over random histories.
  static let relations: [FactRelation] = bounds + minimums + instants + presences + clocks + conditional

  /// The bounds: a count of this version is at most the count of all versions (`events` and
  /// `total_events` are facts and families, bound member by member too) and an answer in this
  /// version is an answer in any version (both from the declarations' `partOf`); nothing happens
  /// before the install; recent prompts are some of all prompts; sessions since something are
  /// some of all sessions.
  static let bounds: [FactRelation] = {
    let parts = declarations.compactMap { declaration in declaration.partOf.map { (declaration.definition, $0) } }
    let counts = parts.filter { $0.0.type == .int }.map { fact, whole in
      FactRelation.bound(fact.name, atMost: whole, because: "`\(fact.name)` counts this version, part of all versions")
    }
    let answers = parts.filter { $0.0.type == .bool }.map { fact, whole in
      FactRelation.bound(fact.name, atMost: whole, because: "`\(fact.name)` in this version means `\(whole)` too")
    }
    let instants = recordedInstants.filter { $0 != "install_date" }.map { name in
      FactRelation.bound("install_date", atMost: name, because: "nothing happens before the install")
    }
    return counts + answers + instants + [
      .bound("first_use", atMost: "last_reminder", because: "a reminder of this version comes after its first use"),
      .bound(
        "prompts_within", atMost: "total_prompts", because: "prompts within a time window are some of all prompts"),
      .bound(
        "sessions_since_prompt", atMost: "total_sessions",
        because: "sessions since the last prompt are some of all sessions"),
      .bound(
        "sessions_since_bad", atMost: "total_sessions",
        because: "sessions since the last bad session are some of all sessions"),
    ]
  }()

  /// Bounds that hold in some histories only: on the first version every lifetime fact is its
  /// version's; an answer or prompt of this version comes after its first use, and the last
  /// prompt is of this version once this version showed one.
  static let conditional: [FactRelation] = {
    let firstVersion = declarations.compactMap { declaration in
      declaration.partOf.map { whole in
        FactRelation(
          .boundWhen(
            FactBound(whole, atMost: declaration.definition.name, because: ""), when: .absent("previous_version")),
          because: "before any other version, `\(whole)` is `\(declaration.definition.name)`")
      }
    }
    let sinceFirstUse = [("declined", "last_decline"), ("rated", "last_rating")].map { flag, instant in
      FactRelation(
        .boundWhen(FactBound("first_use", atMost: instant, because: ""), when: .isTrue(flag)),
        because: "`\(flag)` is an answer of this version, so `\(instant)` is not before `first_use`")
    }
    // Recording a prompt forgets those more than `promptRetention` before it.
    let retention = "\(ReviewLimits.promptRetention.milliseconds / 86_400_000) days"
    let covered = [
      FactRelation(
        .windowCovers(
          family: "prompts_within", count: "prompts", since: "first_use", latest: "last_prompt",
          longest: ReviewLimits.promptRetention, kept: Int64(ReviewLimits.promptHistory)),
        because:
          "this version's prompts come after `first_use`, and none is forgotten while the last one is at most "
          + "\(retention) after it, so a window longer than `since(first_use)` holds them all"),
      FactRelation(
        .windowCovers(
          family: "prompts_within", count: "total_prompts", since: "install_date", latest: "last_prompt",
          longest: ReviewLimits.promptRetention, kept: Int64(ReviewLimits.promptHistory)),
        because:
          "every prompt comes after `install_date`, and none is forgotten while the last one is at most \(retention) "
          + "after it, so a window longer than `since(install_date)` holds them all"),
    ]
    let sums = [
      ("events", "significant events with a name are some of this version's events"),
      ("total_events", "significant events with a name are some of all events"),
    ].map { name, reason in
      FactRelation(.membersSum(family: name, atMost: name), because: reason)
    }
    let sessionsHere = FactRelation(
      .boundWhenAtMost(
        FactBound("first_use", atMost: "first_session", because: ""), fact: "total_sessions", limit: "sessions"),
      because: "when every session is of this version, the first one is not before `first_use`")
    let sessionsBefore = FactRelation(
      .boundWhenAbove(
        FactBound("first_session", atMost: "first_use", because: ""), fact: "total_sessions", limit: "sessions"),
      because: "when a session was of an earlier version, the first one is before this version's `first_use`")
    let sessionsAfterPrompt = FactRelation(
      .boundWhenAbove(
        FactBound("total_sessions", atMost: "sessions_since_prompt", because: ""), fact: "first_session",
        limit: "last_prompt"),
      because: "when the first session started after the last prompt, every session started since it")
    let averages = FactRelation(
      .presentFrom("average_score", count: "total_sessions", minimum: 2),
      because: "starting a session ends the one before, so after two sessions one has finished")
    let averagedTogether = FactRelation(
      .presentTogether(family: "average_score", fromKey: 1, whenPresent: "last_bad_session"),
      because:
        "`average_score(n)` averages up to the last n finished sessions, so it is absent, for every n >= 1, only while none has finished (a bad session is recorded when it finishes)"
    )
    let averagedEarlier = FactRelation(
      .boundWhen(FactBound("total_sessions", atMost: "sessions", because: ""), when: .absent("average_score")),
      because:
        "a new version ends the session in progress, so once a session of an earlier version started one has finished"
    )
    let otherVersion = FactRelation(
      .distinct("previous_version", "version"), because: "`previous_version` is the version the app had before this one"
    )
    let prompted: [FactRelation] = [
      FactRelation(
        .boundWhen(FactBound("first_use", atMost: "last_prompt", because: ""), when: .positive("prompts")),
        because: "a prompt of this version comes after `first_use`"),
      FactRelation(
        .boundWhen(FactBound("version", atMost: "last_prompt_version", because: ""), when: .positive("prompts")),
        because: "once this version showed a prompt, the last prompt is of this version"),
      FactRelation(
        .boundWhen(FactBound("last_prompt_version", atMost: "version", because: ""), when: .positive("prompts")),
        because: "once this version showed a prompt, the last prompt is of this version"),
      FactRelation(
        .boundWhen(FactBound("sessions_since_prompt", atMost: "sessions", because: ""), when: .positive("prompts")),
        because: "once this version showed a prompt, every session since the last prompt started in this version"),
      FactRelation(
        .boundWhen(FactBound("install_date", atMost: "first_use", because: ""), when: .absent("previous_version")),
        because: "before any other version, `first_use` is `install_date`"),
      FactRelation(
        .boundWhen(FactBound("first_use", atMost: "install_date", because: ""), when: .absent("previous_version")),
        because: "before any other version, `first_use` is `install_date`"),
    ]
    return firstVersion + sinceFirstUse + covered + sums + [
      averages, averagedTogether, averagedEarlier, sessionsHere, sessionsBefore, sessionsAfterPrompt, otherVersion,
    ] + prompted
  }()

  /// The instants the tracker records, none after `now`.
  static let recordedInstants = [
    "install_date", "first_use", "first_session", "last_prompt", "last_reminder", "last_decline", "last_rating",
    "last_bad_session",
  ]

  /// Counts are never negative.
  static let minimums: [FactRelation] = {
    let counts = declarations.filter { declaration in
      declaration.definition.type == .int
    }.map(\.definition.name)
    // `events` and `total_events` are facts and families: one minimum each covers both.
    return (counts + ["prompts_within"]).map { name in
      FactRelation(.minimum(name, .int(0)), because: "`\(name)` counts something, never below 0")
    }
  }()

  /// Recorded instants are never after `now`, and a longer window holds at least the prompts of a shorter one.
  static let instants: [FactRelation] =
    recordedInstants.map { name in
      FactRelation(.notAfterNow(name), because: "`\(name)` was recorded at or before now")
    } + [
      FactRelation(.increasing("prompts_within"), because: "a longer time window holds the prompts of a shorter one")
    ]

  /// Which optional facts are present exactly when something has happened.
  static let presences: [FactRelation] = [
    FactRelation(
      .presence("last_prompt", when: .positive("total_prompts")),
      because: "`last_prompt` is present exactly when a prompt was shown (`total_prompts` >= 1)"),
    FactRelation(
      .presence("last_prompt_version", when: .present("last_prompt")),
      because: "`last_prompt_version` is the version of `last_prompt`"),
    FactRelation(
      .presence("sessions_since_prompt", when: .present("last_prompt")),
      because: "`sessions_since_prompt` counts from `last_prompt`"),
    FactRelation(
      .presence("last_decline", when: .isTrue("declined_any")),
      because: "`last_decline` is present exactly when the user chose \"no thanks\" (`declined_any`)"),
    FactRelation(
      .presence("last_rating", when: .isTrue("rated_any")),
      because: "`last_rating` is present exactly when the user rated (`rated_any`)"),
    FactRelation(
      .presence("first_session", when: .positive("total_sessions")),
      because: "`first_session` is present exactly when a session started (`total_sessions` >= 1)"),
    FactRelation(
      .presence("sessions_since_bad", when: .present("last_bad_session")),
      because: "`sessions_since_bad` counts from `last_bad_session`"),
  ]

  /// Day counts are whole days of the instants they count from; recent prompts are within their window.
  static let clocks: [FactRelation] = [
    FactRelation(
      .wholeUnits(count: "days", since: "first_use", unit: TimeSpan(milliseconds: 86_400_000)),
      because: "`days` is the number of whole days since `first_use`"),
    FactRelation(
      .wholeUnits(count: "total_days", since: "install_date", unit: TimeSpan(milliseconds: 86_400_000)),
      because: "`total_days` is the number of whole days since `install_date`"),
    FactRelation(
      .window(family: "prompts_within", latest: "last_prompt"),
      because: "`prompts_within(w)` is at least 1 exactly when `last_prompt` is less than `w` before now"),
  ]
}
