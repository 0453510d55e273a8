import PolicyCore

/// The wording of every ``WitnessHistoryRefusal``.
enum WitnessHistoryMessages {
  /// A fact the history cannot produce: not a standard fact, nor a member of a standard family.
  static func unknownFact(_ name: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: [name], reason: "`\(name)` is not a fact the review tracker records, so no history sets it")
  }

  /// A value of the wrong type.
  static func wrongType(_ name: String, _ value: Value, expected: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: [name], reason: "`\(name)` = \(value) is not \(expected)")
  }

  /// A fact that is never absent, given absent.
  static func absent(_ name: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: [name], reason: "`\(name)` always has a value; no history leaves it absent")
  }

  /// A count below 0.
  static func negative(_ name: String, _ value: Int64) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: [name], reason: "`\(name)` = \(value) is below 0; counts start at 0")
  }

  /// A count of this version above its count of all versions.
  static func partAboveWhole(_ part: String, _ partValue: Int64, _ whole: String, _ wholeValue: Int64)
    -> WitnessHistoryRefusal
  {
    WitnessHistoryRefusal(
      facts: [part, whole],
      reason:
        "`\(part)` = \(partValue) is above `\(whole)` = \(wholeValue); this version's count is part of all versions'")
  }

  /// Something that happened in an earlier version, with `previous_version` absent.
  static func needsEarlierVersion(_ facts: [String], _ what: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts + ["previous_version"],
      reason:
        "\(what) happened in an earlier version, but `previous_version` is absent: the app never had another version")
  }

  /// A count too large to replay.
  static func tooMany(_ name: String, _ count: Int64, limit: Int) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: [name],
      reason:
        "`\(name)` = \(count) needs \(count) repetitions of one step; a replayable history repeats a step at most \(limit) times",
      exceedsLimits: true)
  }

  /// Something of an earlier version after this version's first use, with no prompt of an
  /// earlier version for a late answer: the tracker records that only when the device clock was
  /// set back before the update (`first_use` is then before instants recorded earlier), and a test
  /// file's clock only moves forward, so this is a limit of the replay, not of real users.
  static func clockSetBack(_ facts: [String], _ what: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts + ["first_use"],
      reason:
        "\(what) happened in an earlier version but after this version's first use: only a device clock set back before the update does that, and a test file's clock only moves forward",
      exceedsLimits: true)
  }

  /// A history whose steps repeat too often in all.
  static func tooLong(_ total: Int64, limit: Int) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: [], reason: "the history needs \(total) repeated steps in all; a replayable history has at most \(limit)",
      exceedsLimits: true)
  }

  /// Instants or spans outside what a test file can write.
  static func outOfRange(_ facts: [String]) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts,
      reason: "\(list(facts)) put the history outside the instants a test file can write (years 1 to 9999)",
      exceedsLimits: true)
  }

  /// Two facts about time that no history satisfies together.
  static func timing(_ facts: [String], _ clause: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: facts, reason: "\(list(facts)): \(clause)")
  }

  /// A flag of this version without the flag of all versions.
  static func flagWithoutAny(_ part: String, _ whole: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: [part, whole],
      reason: "`\(part)` is true but `\(whole)` is false; an answer in this version is an answer in any")
  }

  /// An optional fact present or absent against the fact that decides it.
  static func presence(_ name: String, _ other: String, _ clause: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: [name, other], reason: "`\(name)` \(clause)")
  }

  /// Versions that cannot be told apart.
  static func sameVersion(_ facts: [String]) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts, reason: "\(list(facts)) must be different versions, but they are equal")
  }

  /// Sessions that cannot be placed: counts after instants out of order.
  static func sessions(_ facts: [String]) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts,
      reason: "\(list(facts)): no order of sessions starts that many after each of these instants")
  }

  /// Counts of sessions since instants that disagree with the instants' order (more sessions
  /// after a later instant than after an earlier one): the tracker records that only when the
  /// device clock was set back between them, and a test file's clock only moves forward, so this
  /// is a limit of the replay, not of real users.
  static func sessionsAgainstTime(_ facts: [String]) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts,
      reason:
        "\(list(facts)): more sessions start after a later instant than after an earlier one; only a device clock set back does that, and a test file's clock only moves forward",
      exceedsLimits: true)
  }

  /// Prompts that cannot be placed in their time windows.
  static func prompts(_ facts: [String], _ clause: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: facts, reason: "\(list(facts)): \(clause)")
  }

  /// Session scores beyond the default score bounds (`ReviewManager.Configuration.scoreBounds`,
  /// -200 to 200), which `policyc test` replays with: an app configured with wider bounds can
  /// have them, so this is a limit of the replay, not of real users.
  static func beyondScoreBounds(_ facts: [String], _ clause: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: facts,
      reason: "\(list(facts)): \(clause) (the default `scoreBounds`, which `policyc test` replays with)",
      exceedsLimits: true)
  }

  /// Session scores that the averages rule out.
  static func scores(_ facts: [String], _ clause: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(facts: facts, reason: "\(list(facts)): \(clause)")
  }

  /// An event name a test-file step cannot write: an app can record it, so this is a limit of
  /// the replay, not of real users.
  static func eventName(_ name: String) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: [name],
      reason:
        "`\(name)`: the event name cannot be written in a history step (empty, or with quotes, arrows, a lone `x` or doubled spaces)",
      exceedsLimits: true)
  }

  /// The replayed history gave another value (a gap in the builder: reported, never hidden).
  static func replayMismatch(_ name: String, got: Value?, expected: Value?) -> WitnessHistoryRefusal {
    func show(_ value: Value?) -> String { value.map { "\($0)" } ?? "absent" }
    return WitnessHistoryRefusal(
      facts: [name],
      reason: "replayed through the review tracker, the history gives `\(name)` = \(show(got)), not \(show(expected))")
  }

  /// The replay itself could not run (the policy or a step was refused).
  static func replayFailed(_ problems: [String]) -> WitnessHistoryRefusal {
    WitnessHistoryRefusal(
      facts: [], reason: "the history could not be replayed: " + problems.joined(separator: "; "))
  }

  /// Facts as "`a`, `b`".
  private static func list(_ facts: [String]) -> String {
    facts.map { "`\($0)`" }.joined(separator: ", ")
  }
}
