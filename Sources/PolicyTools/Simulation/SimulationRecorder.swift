import Foundation
import PolicyCore
import ReviewPolicy

/// Writes one simulated install's records (docs/records.md) as a real review manager would: one
/// line per launch, return to the foreground, session, action, significant event, prompt check,
/// prompt shown and answer, with the same encoder (``ReviewRecord/line``).
///
/// The lines of one install are buffered and handed to the sink together (a sink called from
/// several threads gets each install's records contiguous and in order).
struct SimulationRecorder {
  /// The policy's identity, as a manager bundling it names it.
  let policy: PolicyIdentity
  /// The policy's rule names (an unnamed rule by its label), by rule index.
  let ruleNames: [String]
  /// Whether the policy reads `bucket()` (then decisions carry the buckets and the seed).
  let readsBuckets: Bool
  /// The current install's identifier.
  private(set) var install = ""
  /// The current install's app version.
  var appVersion = ""
  /// The current install's bucket values, by name.
  private var buckets: [String: Int64] = [:]
  /// The current install's bucket seed.
  private var seed: Int64?
  /// The lines written since the last ``take()``.
  private(set) var bytes = Data()

  /// A recorder of installs running `compiled`, whose source is `source`.
  init(compiled: CompiledPolicy, source: String) {
    policy = PolicyIdentity(origin: .bundled, fingerprint: PolicyIdentity.fingerprint(of: source))
    ruleNames = compiled.rules.map { $0.name ?? $0.label }
    readsBuckets = !compiled.bucketNames.isEmpty
  }

  /// Starts the records of a new install: its identifier from `random` (two draws), its app
  /// version, and, for a policy that reads buckets, its seed and the bucket values of `names`.
  mutating func begin(random: inout SimulationRandom, appVersion: String, seed: Int64?, bucketNames: [String]) {
    install = ReviewRecord.hex(Int64(bitPattern: random.next())) + ReviewRecord.hex(Int64(bitPattern: random.next()))
    self.appVersion = appVersion
    self.seed = readsBuckets ? seed : nil
    buckets = [:]
    if readsBuckets {
      for name in bucketNames { buckets[name] = Bucket.value(seed: UInt64(bitPattern: seed ?? 0), name: name) }
    }
  }

  /// Appends a record of `event` at `seconds` (since 1970) with `fill` setting its other members.
  mutating func add(_ event: ReviewLogEntry.Event, at seconds: Int64, _ fill: (inout ReviewRecord) -> Void = { _ in }) {
    var record = ReviewRecord(
      install: install, time: Timestamp(millisecondsSince1970: seconds * 1000), event: event.rawValue,
      appVersion: appVersion)
    fill(&record)
    bytes.append(contentsOf: record.line.utf8)
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Appends the record of a deciding call `event` at `seconds` whose decision was `decision`
  /// and that asked if `asked` (with `name` for a significant event).
  mutating func decision(
    _ event: ReviewLogEntry.Event, at seconds: Int64, decision: Decision?, asked: Bool, name: String? = nil
  ) {
    let policy = policy
    let ruleNames = ruleNames
    let buckets = buckets
    let seed = seed
    add(event, at: seconds) { record in
      record.policy = policy
      record.asked = asked
      record.reason = (decision?.reason ?? .invalidFacts).rawValue
      record.rules =
        decision.map { decision in
          decision.decidingRules.compactMap { ruleNames.indices.contains($0) ? ruleNames[$0] : nil }
        } ?? []
      record.buckets = buckets
      record.seed = seed
      record.name = name
    }
  }

  /// The lines written since the last call, and no more.
  mutating func take() -> Data {
    defer { bytes = Data() }
    return bytes
  }
}
