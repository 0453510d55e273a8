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
      return try FactSchema(facts: facts, families: families).relating(scopes: scopes, bounds: bounds)
    } catch {
      // The definitions below are constants checked by the tests; an invalid one is a programming error.
      assertionFailure("invalid standard schema: \(error)")
      return .empty
    }
  }()

  /// The plain facts, in documentation order.
  public static let facts: [FactDefinition] = [
    // This version
    FactDefinition(
      "days", .int, meaning: "whole days since the first use of this app version", unit: "days",
      defaultValue: .int(0), example: "days >= 30"),
    FactDefinition(
      "uses", .int, meaning: "launches and returns to the foreground in this version", unit: "uses",
      defaultValue: .int(0), example: "uses >= 20"),
    FactDefinition(
      "events", .int, meaning: "significant events in this version", unit: "events", defaultValue: .int(0),
      example: "events >= 5"),
    FactDefinition(
      "sessions", .int, meaning: "sessions started in this version", unit: "sessions", defaultValue: .int(0),
      example: "sessions > 2"),
    FactDefinition(
      "declined", .bool, meaning: "the user chose \"no thanks\" in this version", defaultValue: .bool(false),
      example: "not declined"),
    FactDefinition(
      "feedback", .bool, meaning: "the user chose to give feedback instead of rating, in this version",
      defaultValue: .bool(false), example: "not feedback"),
    FactDefinition(
      "rated", .bool, meaning: "the user rated this version", defaultValue: .bool(false), example: "not rated"),
    FactDefinition(
      "prompts", .int, meaning: "review prompts shown in this version", unit: "prompts", defaultValue: .int(0),
      example: "prompts == 0"),
    FactDefinition(
      "first_use", .instant, meaning: "when this app version was first used", example: "since(first_use) >= 30d"),
    FactDefinition("version", .version, meaning: "the app version now running", example: "version >= v2.0"),
    FactDefinition(
      "last_reminder", .instant, isOptional: true,
      meaning: "when the user last chose \"remind me later\" in this version; absent if never",
      example: "since(last_reminder) >= 1d"),

    // The whole install
    FactDefinition(
      "total_days", .int, meaning: "whole days since the first use of any version", unit: "days",
      defaultValue: .int(0), example: "total_days >= 90"),
    FactDefinition(
      "total_uses", .int, meaning: "launches and returns to the foreground, all versions", unit: "uses",
      defaultValue: .int(0), example: "total_uses >= 50"),
    FactDefinition(
      "total_events", .int, meaning: "significant events, all versions", unit: "events", defaultValue: .int(0),
      example: "total_events >= 10"),
    FactDefinition(
      "total_sessions", .int, meaning: "sessions started, all versions", unit: "sessions", defaultValue: .int(0),
      example: "total_sessions > 2"),
    FactDefinition(
      "total_prompts", .int, meaning: "review prompts shown, all versions", unit: "prompts", defaultValue: .int(0),
      example: "total_prompts < 5"),
    FactDefinition(
      "declined_any", .bool, meaning: "the user chose \"no thanks\" in any version", defaultValue: .bool(false),
      example: "not declined_any"),
    FactDefinition(
      "rated_any", .bool, meaning: "the user rated any version", defaultValue: .bool(false), example: "not rated_any"),
    FactDefinition(
      "install_date", .instant, meaning: "when any version of the app was first used",
      example: "since(install_date) > 4d"),
    FactDefinition(
      "first_session", .instant, isOptional: true,
      meaning: "when the first session started, any version; absent before the app starts one",
      example: "total_sessions > 2 and since(first_session) > 4d"),
    FactDefinition(
      "previous_version", .version, isOptional: true,
      meaning: "the version used before this one; absent on the first version",
      example: "has previous_version and version > previous_version"),

    // Prompts and answers
    FactDefinition(
      "last_prompt", .instant, isOptional: true, meaning: "when a review prompt was last shown; absent if never",
      example: "since(last_prompt) >= 8w"),
    FactDefinition(
      "last_prompt_version", .version, isOptional: true,
      meaning: "the app version of the last prompt; absent if never prompted",
      example: "not has last_prompt_version or version > last_prompt_version"),
    FactDefinition(
      "sessions_since_prompt", .int, isOptional: true,
      meaning: "sessions started since the last prompt; absent if never prompted", unit: "sessions",
      example: "(sessions_since_prompt ?? 5) > 4"),
    FactDefinition(
      "last_decline", .instant, isOptional: true,
      meaning: "when the user last chose \"no thanks\", any version; absent if never",
      example: "since(last_decline) >= 26w"),
    FactDefinition(
      "last_rating", .instant, isOptional: true, meaning: "when the user last chose to rate; absent if never",
      example: "since(last_rating) >= 52w"),

    // Sessions and scores
    FactDefinition(
      "session_score", .number, meaning: "score of the current session, from its actions", unit: "points",
      defaultValue: .number(Number(scaled: 0)), example: "session_score > 100"),
    FactDefinition(
      "session_bad", .bool, meaning: "the current session was marked bad", defaultValue: .bool(false),
      example: "not session_bad"),
    FactDefinition(
      "last_bad_session", .instant, isOptional: true,
      meaning: "when the most recent earlier bad session started; absent if none",
      example: "since(last_bad_session) > 2d"),
    FactDefinition(
      "sessions_since_bad", .int, isOptional: true,
      meaning: "sessions started since the most recent bad session; absent if none", unit: "sessions",
      example: "(sessions_since_bad ?? 3) > 2"),
  ]

  /// The two spans the facts describe: per-version facts and lifetime (`total_`, `_any`) facts.
  public static let scopes: [FactScope] = [
    FactScope(
      "this version",
      facts: [
        "days", "uses", "events", "sessions", "declined", "feedback", "rated", "prompts", "first_use", "last_reminder",
      ]),
    FactScope(
      "the whole install",
      facts: [
        "total_days", "total_uses", "total_events", "total_sessions", "total_prompts", "declined_any", "rated_any",
        "install_date", "last_decline", "last_rating", "prompts_within",
      ]),
  ]

  /// What every real history satisfies: a count of this version is at most the count of all
  /// versions (`events` and `total_events` are facts and families, bound member by member too),
  /// an answer in this version is an answer in any version, and nothing happened before the install.
  public static let bounds: [FactBound] = {
    let counts = ["days", "uses", "events", "sessions", "prompts"].map { name in
      FactBound(name, atMost: "total_\(name)", because: "`\(name)` counts this version, part of all versions")
    }
    let answers = ["declined", "rated"].map { name in
      FactBound(name, atMost: "\(name)_any", because: "`\(name)` in this version means `\(name)_any` too")
    }
    let instants = ["first_use", "last_prompt", "last_reminder", "last_decline", "last_rating", "last_bad_session"]
      .map { name in
        FactBound("install_date", atMost: name, because: "nothing happens before the install")
      }
    return counts + answers + instants
  }()

  /// The keyed fact families.
  public static let families: [FactFamilyDefinition] = [
    FactFamilyDefinition(
      "events", key: .string, keyMeaning: "event name", .int,
      meaning: "significant events with this name in this version", unit: "events", defaultValue: .int(0),
      example: "events(\"purchase\") >= 3", keyIsEventName: true),
    FactFamilyDefinition(
      "total_events", key: .string, keyMeaning: "event name", .int,
      meaning: "significant events with this name, all versions", unit: "events", defaultValue: .int(0),
      example: "total_events(\"purchase\") >= 3", keyIsEventName: true),
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
