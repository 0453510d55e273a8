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
    case .failure(let failure): return .failure(Problems([failure.diagnostic]))
    }
    return read(root, for: policy, now: explicitNow, environment: environment, clock: clock)
  }

  /// Reads facts from a JSON object node (of a facts file, or embedded in a test file), checked
  /// against the scopes and bounds of `environment`'s schema.
  package static func read(
    _ root: JSONNode, for policy: CompiledPolicy, now explicitNow: Timestamp?,
    environment: PolicyEnvironment = .standard, clock: () -> Timestamp
  ) -> Result<FactsFile, Problems> {
    let schema = environment.schema
    guard case .object(let members) = root.value else {
      return .failure(Problems([FactsFileMessages.notAnObject(kind: root.value.kindName, at: root.range)]))
    }
    var diagnostics: [Diagnostic] = []
    var now = explicitNow
    if let member = members.first(where: { $0.key == "now" }), explicitNow == nil {
      if case .string(let text) = member.value.value, let instant = Timestamp(iso8601: text) {
        now = instant
      } else {
        diagnostics.append(FactsFileMessages.invalidNow(at: member.value.range))
      }
    }
    let instant = now ?? clock()
    var facts = policy.makeFacts(now: instant)
    var given = Set<Int>()
    var givenFacts: [FactsConsistency.Given] = []
    var memberWarnings: [Diagnostic] = []
    let knownNames = policy.layout.slots.map(\.name)
    let seedKeys = FactsFile.seedKeys.filter { policy.layout.slot(named: $0) == nil }
    for member in members where seedKeys.contains(member.key) {
      if case .number(let text) = member.value.value, let seed = FactsFile.seed(text) {
        facts.seed = seed
      } else {
        diagnostics.append(FactsFileMessages.invalidSeed(member.key, at: member.value.range))
      }
    }
    for member in members where member.key != "now" && !seedKeys.contains(member.key) {
      let slot =
        policy.layout.slot(named: member.key)
        ?? policy.layout.canonicalMemberName(member.key).flatMap(policy.layout.slot(named:))
      guard let slot else {
        if let (event, known) = FactsFile.unknownEvent(member.key, policy: policy, schema: schema) {
          diagnostics.append(
            FactsFileMessages.unknownEvent(
              event, known: known, fromDeclarations: !policy.declaredEvents.isEmpty, at: member.keyRange))
          continue
        }
        if let warning = FactsConsistency.unreadMember(member, policy: policy, schema: schema) {
          memberWarnings.append(warning)
          continue
        }
        if FactsFile.isFamilyMember(member.key, of: policy) { continue }  // a keyed fact the policy does not read
        let suggestion =
          FactsFile.keyedMember(spelledLike: member.key, in: policy)
          ?? EditDistance.suggestion(for: member.key, among: knownNames)
        diagnostics.append(FactsFileMessages.unknownFact(member.key, suggestion: suggestion, at: member.keyRange))
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
          diagnostics.append(FactsFileMessages.refusedValue(error, at: member.value.range))
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
    var defaultedFacts: [FactsConsistency.Defaulted] = []
    for slot in policy.readSlots where !given.contains(slot) {
      let definition = policy.layout.slots[slot]
      if let value = definition.defaultValue {
        defaulted.append((definition.name, value.description))
        defaultedFacts.append(FactsConsistency.Defaulted(slot: slot, value: value))
      } else if definition.isOptional {
        defaulted.append((definition.name, "absent"))
        defaultedFacts.append(FactsConsistency.Defaulted(slot: slot, value: nil))
      } else if definition.type == .instant {
        try? facts.set(slot: slot, to: .instant(instant))
        defaulted.append((definition.name, "now"))
        defaultedFacts.append(FactsConsistency.Defaulted(slot: slot, value: .instant(instant)))
      } else if definition.type == .version, let version = Version(parsing: "1.0") {
        try? facts.set(slot: slot, to: .version(version))
        defaulted.append((definition.name, "v1.0"))
        defaultedFacts.append(FactsConsistency.Defaulted(slot: slot, value: .version(version)))
      } else {
        diagnostics.append(FactsFileMessages.missingFact(definition.name, type: definition.type, at: root.range))
      }
    }
    diagnostics += FactsConsistency.brokenRelations(
      givenFacts, defaulted: defaultedFacts, policy: policy, schema: schema, now: instant)
    if !diagnostics.isEmpty { return .failure(Problems(diagnostics)) }
    return .success(
      FactsFile(
        facts: facts, defaulted: defaulted,
        warnings: (FactsConsistency.unreadFacts(givenFacts, policy: policy, schema: schema) + memberWarnings)
          .sorted { $0.range.start < $1.range.start }))
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

  /// The event `key` names when it is a member of a family keyed by event names
  /// (`events("share")`) and the event is not one the policy declares with `event` (or, when it
  /// declares none, one the app records, from the project file or `--events`), with the names
  /// that are known; nil when the event is known, or when no names are (any name is accepted).
  static func unknownEvent(_ key: String, policy: CompiledPolicy, schema: FactSchema) -> (String, [String])? {
    guard let (family, argument) = FactLayout.member(parsing: key), case .string(let event) = argument,
      schema.family(named: family)?.keyIsEventName == true
    else { return nil }
    let known = policy.declaredEvents.isEmpty ? schema.eventNames.sorted() : policy.declaredEvents
    guard !known.isEmpty, !known.contains(event) else { return nil }
    return (event, known)
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
  package static func value(_ node: JSONNode, for definition: FactSlot) -> Result<Value?, Problems> {
    func failure(_ diagnostic: Diagnostic) -> Result<Value?, Problems> { .failure(Problems([diagnostic])) }
    func wrongKind() -> Result<Value?, Problems> {
      failure(
        FactsFileMessages.wrongKind(definition.name, type: definition.type, kind: node.value.kindName, at: node.range))
    }
    if case .null = node.value {
      guard definition.isOptional else {
        return failure(FactsFileMessages.absentValue(definition.name, type: definition.type, at: node.range))
      }
      return .success(nil)
    }
    switch definition.type {
    case .bool:
      guard case .bool(let flag) = node.value else { return wrongKind() }
      return .success(.bool(flag))
    case .int:
      guard case .number(let text) = node.value else { return wrongKind() }
      guard let integer = Int64(text) else {
        return failure(FactsFileMessages.integerOutOfRange(definition.name, text: text, at: node.range))
      }
      return .success(.int(integer))
    case .number:
      guard case .number(let text) = node.value else { return wrongKind() }
      guard let number = Number(parsing: text) else {
        return failure(FactsFileMessages.inexactNumber(text, at: node.range))
      }
      return .success(.number(number))
    case .duration:
      guard case .string(let text) = node.value else { return wrongKind() }
      guard let span = TimeSpan(parsing: text) else {
        return failure(FactsFileMessages.invalidDuration(text, at: node.range))
      }
      return .success(.duration(span))
    case .instant:
      guard case .string(let text) = node.value else { return wrongKind() }
      guard let instant = Timestamp(iso8601: text) else {
        return failure(FactsFileMessages.invalidInstant(text, at: node.range))
      }
      return .success(.instant(instant))
    case .version:
      guard case .string(let text) = node.value else { return wrongKind() }
      switch Version.parse(text) {
      case .success(let version): return .success(.version(version))
      case .failure(let error): return failure(FactsFileMessages.invalidVersion(text, error: error, at: node.range))
      }
    case .string:
      guard case .string(let text) = node.value else { return wrongKind() }
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
