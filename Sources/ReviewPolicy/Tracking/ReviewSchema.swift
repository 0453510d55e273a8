import PolicyCore

/// The standard vocabulary of review policies: the facts a review manager tracks.
///
/// Per-version facts (`days`, `uses`, `events`, `declined`, `rated`, ...) start
/// again when the app version changes; `total_` facts go on for the life of the
/// install. The policy chooses which to use. `policyc facts` prints this table.
public enum ReviewSchema {
  /// The standard schema.
  public static let standard: FactSchema = {
    do {
      return try FactSchema(facts: facts, families: families).relating(scopes: scopes, relations: relations)
    } catch {
      // The definitions below are constants checked by the tests; an invalid one is a programming error.
      assertionFailure("invalid standard schema: \(error)")
      return .empty
    }
  }()

  /// The plain facts, in documentation order.
  package static let facts: [FactDefinition] = declarations.map(\.definition)

  /// The plain facts declared, in documentation order: each with where its value comes from
  /// (a count or flag stored in ``ReviewState``, or computed), its span and the lifetime fact it
  /// is part of. A new stored fact is one line here, its property in ``ReviewState`` and the
  /// tracking call that sets it (see ``ReviewFactDeclaration``).
  static let declarations: [ReviewFactDeclaration] = [
    // This version
    .computed(
      .days,
      FactDefinition(
        "days", .int, meaning: "whole days since the first use of this app version", unit: "days",
        defaultValue: .int(0), example: "days >= 30"), scope: .version, partOf: "total_days"),
    .count(
      "uses", \.uses, key: "uses", scope: .version, partOf: "total_uses",
      meaning: "launches and returns to the foreground in this version", unit: "uses", example: "uses >= 20"),
    .count(
      "events", \.events, key: "events", scope: .version, partOf: "total_events",
      meaning: "significant events in this version", unit: "events", example: "events >= 5"),
    .count(
      "sessions", \.sessions, key: "sessions", scope: .version, partOf: "total_sessions",
      meaning: "sessions started in this version", unit: "sessions", example: "sessions > 2"),
    .flag(
      "declined", \.declined, key: "declined", scope: .version, partOf: "declined_any",
      meaning: "the user chose \"no thanks\" in this version", example: "not declined"),
    .flag(
      "feedback", \.feedback, key: "feedback", scope: .version, partOf: "feedback_any",
      meaning: "the user chose to give feedback instead of rating, in this version", example: "not feedback"),
    .flag(
      "rated", \.rated, key: "rated", scope: .version, partOf: "rated_any", meaning: "the user rated this version",
      example: "not rated"),
    .count(
      "prompts", \.prompts, key: "prompts", scope: .version, partOf: "total_prompts",
      meaning: "review prompts shown in this version", unit: "prompts", example: "prompts == 0"),
    .computed(
      .firstUse,
      FactDefinition(
        "first_use", .instant, meaning: "when this app version was first used", example: "since(first_use) >= 30d"),
      scope: .version),
    .computed(
      .version, FactDefinition("version", .version, meaning: "the app version now running", example: "version >= v2.0")),
    .computed(
      .lastReminder,
      FactDefinition(
        "last_reminder", .instant, isOptional: true,
        meaning: "when the user last chose \"remind me later\" in this version; absent if never",
        example: "since(last_reminder) >= 1d"), scope: .version),

    // The whole install
    .computed(
      .totalDays,
      FactDefinition(
        "total_days", .int, meaning: "whole days since the first use of any version", unit: "days",
        defaultValue: .int(0), example: "total_days >= 90"), scope: .install),
    .count(
      "total_uses", \.totalUses, key: "totalUses", scope: .install,
      meaning: "launches and returns to the foreground, all versions", unit: "uses", example: "total_uses >= 50"),
    .count(
      "total_events", \.totalEvents, key: "totalEvents", scope: .install, meaning: "significant events, all versions",
      unit: "events", example: "total_events >= 10"),
    .count(
      "total_sessions", \.totalSessions, key: "totalSessions", scope: .install,
      meaning: "sessions started, all versions", unit: "sessions", example: "total_sessions > 2"),
    .count(
      "total_prompts", \.totalPrompts, key: "totalPrompts", scope: .install,
      meaning: "review prompts shown, all versions", unit: "prompts", example: "total_prompts < 5"),
    .flag(
      "declined_any", \.declinedAny, key: "declinedAny", scope: .install,
      meaning: "the user chose \"no thanks\" in any version", example: "not declined_any"),
    .flag(
      "rated_any", \.ratedAny, key: "ratedAny", scope: .install, meaning: "the user rated any version",
      example: "not rated_any"),
    .flag(
      "feedback_any", \.feedbackAny, key: "feedbackAny", scope: .install, coding: .omittedWhenZero,
      meaning: "the user chose to give feedback instead of rating, in any version", example: "not feedback_any"),
    .computed(
      .installDate,
      FactDefinition(
        "install_date", .instant, meaning: "when any version of the app was first used",
        example: "since(install_date) > 4d"), scope: .install),
    .computed(
      .firstSession,
      FactDefinition(
        "first_session", .instant, isOptional: true,
        meaning: "when the first session started, any version; absent before the app starts one",
        example: "total_sessions > 2 and since(first_session) > 4d")),
    .computed(
      .previousVersion,
      FactDefinition(
        "previous_version", .version, isOptional: true,
        meaning: "the version used before this one; absent on the first version",
        example: "has previous_version and version > previous_version")),

    // Prompts and answers
    .computed(
      .lastPrompt,
      FactDefinition(
        "last_prompt", .instant, isOptional: true, meaning: "when a review prompt was last shown; absent if never",
        example: "since(last_prompt) >= 8w")),
    .computed(
      .lastPromptVersion,
      FactDefinition(
        "last_prompt_version", .version, isOptional: true,
        meaning: "the app version of the last prompt; absent if never prompted",
        example: "not has last_prompt_version or version > last_prompt_version")),
    .computed(
      .sessionsSincePrompt,
      FactDefinition(
        "sessions_since_prompt", .int, isOptional: true,
        meaning: "sessions started since the last prompt; absent if never prompted", unit: "sessions",
        example: "(sessions_since_prompt ?? 5) > 4")),
    .computed(
      .lastDecline,
      FactDefinition(
        "last_decline", .instant, isOptional: true,
        meaning: "when the user last chose \"no thanks\", any version; absent if never",
        example: "since(last_decline) >= 26w"), scope: .install),
    .computed(
      .lastRating,
      FactDefinition(
        "last_rating", .instant, isOptional: true, meaning: "when the user last chose to rate; absent if never",
        example: "since(last_rating) >= 52w"), scope: .install),

    // Sessions and scores
    .computed(
      .sessionScore,
      FactDefinition(
        "session_score", .number, meaning: "score of the current session, from its actions", unit: "points",
        defaultValue: .number(Number(scaled: 0)), example: "session_score > 100")),
    .computed(
      .sessionBad,
      FactDefinition(
        "session_bad", .bool, meaning: "the current session was marked bad", defaultValue: .bool(false),
        example: "not session_bad")),
    .computed(
      .lastBadSession,
      FactDefinition(
        "last_bad_session", .instant, isOptional: true,
        meaning: "when the most recent earlier bad session started; absent if none",
        example: "since(last_bad_session) > 2d")),
    .computed(
      .sessionsSinceBad,
      FactDefinition(
        "sessions_since_bad", .int, isOptional: true,
        meaning: "sessions started since the most recent bad session; absent if none", unit: "sessions",
        example: "(sessions_since_bad ?? 3) > 2")),
  ]

  /// The two spans the facts describe: per-version facts and lifetime (`total_`, `_any`) facts,
  /// from the declarations (and the `prompts_within` family, which counts over the whole install).
  static let scopes: [FactScope] = [
    FactScope("this version", facts: declarations.filter { $0.scope == .version }.map(\.definition.name)),
    FactScope(
      "the whole install",
      facts: declarations.filter { $0.scope == .install }.map(\.definition.name) + ["prompts_within"]),
  ]

  /// The keyed fact families.
  static let families: [FactFamilyDefinition] = [
    FactFamilyDefinition(
      "events", key: .string, keyMeaning: "event name", .int,
      meaning: "significant events with this name in this version", unit: "events", defaultValue: .int(0),
      example: "events(\"purchase\") >= 3", keyIsEventName: true,
      keyLength: ReviewLimits.eventNameLength),
    FactFamilyDefinition(
      "total_events", key: .string, keyMeaning: "event name", .int,
      meaning: "significant events with this name, all versions", unit: "events", defaultValue: .int(0),
      example: "total_events(\"purchase\") >= 3", keyIsEventName: true,
      keyLength: ReviewLimits.eventNameLength),
    FactFamilyDefinition(
      "average_score", key: .int, keyMeaning: "number of sessions", .number, isOptional: true,
      meaning: "average score of up to this many previous sessions; absent if there are none", unit: "points",
      example: "(average_score(3) ?? 0) >= 75"),
    FactFamilyDefinition(
      "prompts_within", key: .duration, keyMeaning: "time window", .int,
      meaning: "review prompts shown within this time before now, all versions", unit: "prompts",
      defaultValue: .int(0), example: "prompts_within(365d) < 3"),
  ]
}
