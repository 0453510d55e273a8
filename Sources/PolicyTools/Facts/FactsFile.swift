import PolicyCore
import ReviewPolicy

/// Reads a facts file: a JSON object from fact names to values, for one compiled policy.
///
/// ```json
/// { "days": 31, "uses": 25, "declined": false,
///   "last_prompt": "2026-01-15T10:00:00Z", "version": "3.1",
///   "since_trial": "30d", "events(\"export\")": 4, "last_reminder": null }
/// ```
///
/// Durations are strings with units (`"30d"`, `"1d 12h"`), instants ISO-8601 strings,
/// versions strings, numbers exact decimals; `null` makes a fact that can be absent
/// absent. The key `now` sets the evaluation instant, and `seed` (or `install_seed`) the
/// subject's seed that `bucket("name")` draws from (0 when not given). A fact the file does not name takes
/// its fresh-install default: the schema's default, `now` for the first-use instants,
/// `v1.0` for a version, absent for a fact that can be absent.
public struct FactsFile: Sendable {
  /// The snapshot to evaluate.
  public var facts: Facts
  /// Facts the policy reads that took their default, with the value used ("absent" when absent).
  public var defaulted: [(name: String, value: String)]
  /// Warnings about the file that do not stop the evaluation, such as a given fact the policy
  /// never reads (PC409).
  public var warnings: [Diagnostic] = []

  /// Reads `source` for `policy`; `now` (from `--now`) wins over a `now` key in the file;
  /// without either, `clock` gives the instant.
  ///
  /// The scopes and bounds of `environment`'s schema check the file: a given fact the policy
  /// never reads is a warning (PC409), given facts that break a bound (`days` above `total_days`)
  /// an error (PC410). They are the review schema's whatever events the app records, so the
  /// standard environment is the default.
  public static func read(
    _ source: SourceFile, for policy: CompiledPolicy, now explicitNow: Timestamp?,
    environment: PolicyEnvironment = .standard, clock: () -> Timestamp
  ) -> Result<FactsFile, Problems> {
    let root: JSONNode
    switch JSONParser.parse(source) {
    case .success(let node): root = node
    case .failure(let failure):
      return .failure(Problems([.tools(.invalidJSON, failure.message, at: failure.range, help: failure.help)]))
    }
    return read(root, for: policy, now: explicitNow, environment: environment, clock: clock)
  }

  /// Reads facts from a JSON object node (of a facts file, or embedded in a test file), checked
  /// against the scopes and bounds of `environment`'s schema.
  public static func read(
    _ root: JSONNode, for policy: CompiledPolicy, now explicitNow: Timestamp?,
    environment: PolicyEnvironment = .standard, clock: () -> Timestamp
  ) -> Result<FactsFile, Problems> {
    let schema = environment.schema
    guard case .object(let members) = root.value else {
      return .failure(
        Problems([
          .tools(
            .unexpectedJSON, "a facts file is a JSON object, but this is \(root.value.kindName)", at: root.range,
            help: ["write the facts as `{\"days\": 31, \"uses\": 25}`"])
        ]))
    }
    var diagnostics: [Diagnostic] = []
    var now = explicitNow
    if let member = members.first(where: { $0.key == "now" }), explicitNow == nil {
      if case .string(let text) = member.value.value, let instant = Timestamp(iso8601: text) {
        now = instant
      } else {
        diagnostics.append(
          .tools(
            .invalidFactValue, "`now` must be an ISO-8601 instant such as \"2026-03-01T12:00:00Z\"",
            at: member.value.range))
      }
    }
    let instant = now ?? clock()
    var facts = policy.makeFacts(now: instant)
    var given = Set<Int>()
    var givenFacts: [FactsConsistency.Given] = []
    let knownNames = policy.layout.slots.map(\.name)
    let seedKeys = FactsFile.seedKeys.filter { policy.layout.slot(named: $0) == nil }
    for member in members where seedKeys.contains(member.key) {
      if case .number(let text) = member.value.value, let seed = FactsFile.seed(text) {
        facts.seed = seed
      } else {
        diagnostics.append(
          .tools(
            .invalidFactValue, "`\(member.key)` must be an integer, the seed `bucket(\"name\")` draws from",
            at: member.value.range, help: ["write `\"\(member.key)\": 12345`"]))
      }
    }
    for member in members where member.key != "now" && !seedKeys.contains(member.key) {
      let slot =
        policy.layout.slot(named: member.key)
        ?? FactLayout.canonicalMemberName(member.key).flatMap(policy.layout.slot(named:))
      guard let slot else {
        if FactsFile.isFamilyMember(member.key, of: policy) { continue }  // a keyed fact the policy does not read
        let suggestion =
          FactsFile.keyedMember(spelledLike: member.key, in: policy)
          ?? EditDistance.suggestion(for: member.key, among: knownNames)
        diagnostics.append(
          .tools(
            .unknownFact, "unknown fact `\(member.key)`", at: member.keyRange,
            help: suggestion.map { ["did you mean `\($0)`?"] }
              ?? ["`policyc facts` lists the standard facts; a policy declares its own with `fact`"]))
        continue
      }
      let definition = policy.layout.slots[slot]
      switch FactsFile.value(member.value, for: definition) {
      case .success(let value?):
        do {
          try facts.set(slot: slot, to: value)
          given.insert(slot)
          givenFacts.append(FactsConsistency.Given(slot: slot, value: value, member: member))
        } catch {
          diagnostics.append(.tools(.invalidFactValue, "\(error)", at: member.value.range))
        }
      case .success(nil):
        given.insert(slot)
        givenFacts.append(FactsConsistency.Given(slot: slot, value: nil, member: member))
        try? facts.setAbsent(definition.name)
      case .failure(let problems):
        diagnostics += problems.diagnostics
      }
    }
    var defaulted: [(String, String)] = []
    for slot in policy.readSlots where !given.contains(slot) {
      let definition = policy.layout.slots[slot]
      if let value = definition.defaultValue {
        defaulted.append((definition.name, value.description))
      } else if definition.isOptional {
        defaulted.append((definition.name, "absent"))
      } else if definition.type == .instant {
        try? facts.set(slot: slot, to: .instant(instant))
        defaulted.append((definition.name, "now"))
      } else if definition.type == .version, let version = Version(parsing: "1.0") {
        try? facts.set(slot: slot, to: .version(version))
        defaulted.append((definition.name, "v1.0"))
      } else {
        diagnostics.append(
          .tools(
            .missingFact, "fact `\(definition.name)` has no value and no default", at: root.range,
            help: ["add `\"\(definition.name)\": \(FactsFile.example(for: definition.type))` to the facts file"]))
      }
    }
    diagnostics += FactsConsistency.brokenBounds(givenFacts, policy: policy, schema: schema)
    if !diagnostics.isEmpty { return .failure(Problems(diagnostics)) }
    return .success(
      FactsFile(
        facts: facts, defaulted: defaulted,
        warnings: FactsConsistency.unreadFacts(givenFacts, policy: policy, schema: schema)))
  }

  /// The member of a string-keyed fact the policy reads whose key `key` spells, give or take a
  /// plural: `events("purchase")` for `purchases`.
  static func keyedMember(spelledLike key: String, in policy: CompiledPolicy) -> String? {
    for slot in policy.layout.slots {
      guard case .family(_, .string(let member)) = slot.origin, !member.isEmpty,
        [member, member + "s", member + "es"].contains(key)
      else { continue }
      return slot.name
    }
    return nil
  }

  /// The keys that set ``Facts/seed`` (unless the policy declares a fact of that name).
  public static let seedKeys = ["seed", "install_seed"]

  /// A seed written as a JSON integer: 0 to 2^64 - 1, or a negative 64-bit integer (its bit pattern).
  public static func seed(_ text: String) -> UInt64? {
    UInt64(text) ?? Int64(text).map { UInt64(bitPattern: $0) }
  }

  /// Whether `key` is written like a member of one of the policy's keyed facts (`events("x")`).
  public static func isFamilyMember(_ key: String, of policy: CompiledPolicy) -> Bool {
    guard let open = key.firstIndex(of: "("), key.hasSuffix(")") else { return false }
    let family = String(key[..<open])
    return policy.layout.slots.contains { slot in
      if case .family(let name, _) = slot.origin { return name == family }
      return false
    }
  }

  /// The value of a JSON node for a fact, nil for `null` (absent), or a located diagnostic.
  public static func value(_ node: JSONNode, for definition: FactSlot) -> Result<Value?, Problems> {
    func mismatch(_ expected: String, help: String) -> Result<Value?, Problems> {
      .failure(
        Problems([
          .tools(
            .invalidFactValue, "fact `\(definition.name)` needs \(expected), but this is \(node.value.kindName)",
            at: node.range, help: [help])
        ]))
    }
    func invalid(_ message: String, help: String) -> Result<Value?, Problems> {
      .failure(Problems([.tools(.invalidFactValue, message, at: node.range, help: [help])]))
    }
    if case .null = node.value {
      guard definition.isOptional else {
        return invalid(
          "fact `\(definition.name)` cannot be absent", help: "give it a value such as \(example(for: definition.type))"
        )
      }
      return .success(nil)
    }
    switch definition.type {
    case .bool:
      guard case .bool(let flag) = node.value else {
        return mismatch("`true` or `false`", help: "write `true` or `false`")
      }
      return .success(.bool(flag))
    case .int:
      guard case .number(let text) = node.value else {
        return mismatch("an integer", help: "write a number such as `30`")
      }
      guard let integer = Int64(text) else {
        return invalid(
          "fact `\(definition.name)` needs an integer, but `\(text)` is not one in range",
          help: "ints are whole numbers from -9223372036854775808 to 9223372036854775807")
      }
      return .success(.int(integer))
    case .number:
      guard case .number(let text) = node.value else {
        return mismatch("a number", help: "write a number such as `4.5`")
      }
      guard let number = Number(parsing: text) else {
        return invalid(
          "`\(text)` is not a number this language can hold exactly",
          help: "numbers have at most 6 decimal places, no exponent, and range up to about 9.2 trillion")
      }
      return .success(.number(number))
    case .duration:
      guard case .string(let text) = node.value else {
        return mismatch("a duration string", help: "write durations with a unit, such as \"30d\" or \"1d 12h\"")
      }
      guard let span = TimeSpan(parsing: text) else {
        return invalid(
          "`\(text)` is not a duration",
          help: "write a whole number and a unit (s, m, h, d, w), such as \"30d\" or \"1d 12h\"")
      }
      return .success(.duration(span))
    case .instant:
      guard case .string(let text) = node.value else {
        return mismatch("an ISO-8601 instant", help: "write instants such as \"2026-03-01T12:00:00Z\"")
      }
      guard let instant = Timestamp(iso8601: text) else {
        return invalid(
          "`\(text)` is not an ISO-8601 instant",
          help: "write a date such as \"2026-03-01\" or a time with a zone such as \"2026-03-01T12:00:00Z\"")
      }
      return .success(.instant(instant))
    case .version:
      guard case .string(let text) = node.value else {
        return mismatch("a version string", help: "write versions as strings, such as \"3.1.0\"")
      }
      switch Version.parse(text) {
      case .success(let version): return .success(.version(version))
      case .failure(let error):
        let reason: String
        switch error {
        case .empty: reason = "is empty"
        case .notNumeric: reason = "is not 1 to 4 numbers separated by dots"
        case .tooManyParts: reason = "has more than 4 parts"
        case .partTooLarge: reason = "has a part larger than 4294967295"
        }
        return invalid("version `\(text)` \(reason)", help: "write versions such as \"3.1\" or \"v2.0.1\"")
      }
    case .string:
      guard case .string(let text) = node.value else {
        return mismatch("a string", help: "write strings in double quotes")
      }
      return .success(.string(text))
    }
  }

  /// An example JSON value of `type`, for advice.
  public static func example(for type: PolicyType) -> String {
    switch type {
    case .bool: "false"
    case .int: "0"
    case .number: "0.0"
    case .duration: "\"0s\""
    case .instant: "\"2026-01-01T00:00:00Z\""
    case .version: "\"1.0\""
    case .string: "\"\""
    }
  }
}
