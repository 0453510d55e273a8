import PolicyAnalysis
import PolicyCore
import ReviewAnalysis
import ReviewPolicy

/// The rollout read-out's counts (issue 26): records, streamed in, tallied per policy and arm.
///
/// Each install belongs to the arm of its first prompt check (intention to treat): the policy
/// that decided it and the rules whose `bucket()` ranges (``CompiledPolicy/bucketRanges(ofRule:)``)
/// hold the install's bucket values. Memory grows with the installs, not with the records.
package struct RolloutTally {
  /// A policy and an arm of it.
  package struct Arm: Sendable, Hashable, Comparable {
    /// The policy's fingerprint.
    package var policy: String
    /// The arm: the rules whose bucket ranges hold the install's buckets, by name, joined by
    /// `+`; `rest` when none does; `all` when the policy was not given or reads no bucket.
    package var name: String

    package static func < (a: Arm, b: Arm) -> Bool { (a.policy, a.name) < (b.policy, b.name) }
  }

  /// One arm's counts.
  package struct Counts: Sendable, Hashable {
    /// Installs in the arm.
    package var installs = 0
    /// Prompt checks.
    package var checks = 0
    /// Checks that asked.
    package var asks = 0
    /// Prompts shown.
    package var shown = 0
    /// Answers by kind (`rated`, `declined`, `dismissed`, `unknown`, ...).
    package var answers: [String: Int] = [:]
    /// Installs shown at least one prompt.
    package var promptedInstalls = 0
    /// Prompted installs that rated at least once.
    package var ratedInstalls = 0
    /// Prompted installs that declined at least once.
    package var declinedInstalls = 0

    /// Adds `other`'s counts (of other installs).
    package mutating func add(_ other: Counts) {
      installs += other.installs
      checks += other.checks
      asks += other.asks
      shown += other.shown
      for (answer, count) in other.answers { answers[answer, default: 0] += count }
      promptedInstalls += other.promptedInstalls
      ratedInstalls += other.ratedInstalls
      declinedInstalls += other.declinedInstalls
    }

    /// The share of installs shown a prompt.
    package var prompted: Proportion { Proportion(promptedInstalls, of: installs) }
    /// The share of prompted installs that rated.
    package var ratedPerPrompted: Proportion { Proportion(ratedInstalls, of: promptedInstalls) }
    /// The share of prompted installs that declined.
    package var declinedPerPrompted: Proportion { Proportion(declinedInstalls, of: promptedInstalls) }
  }

  /// What is known of one install.
  private struct Install {
    var arm: Arm?
    /// When the check that fixed ``arm`` was made.
    var armTime = Timestamp(millisecondsSince1970: 0)
    var prompted = false
    var rated = false
    var declined = false
    /// Counts seen before the install's arm was known.
    var checks = 0
    var asks = 0
    var shown = 0
    var answers: [String: Int] = [:]
  }

  /// The policies given, by fingerprint, with each rule's bucket ranges.
  package let policies: [String: [ArmRule]]

  /// A rule that names an arm: its name (or label) and the `bucket()` ranges it requires.
  package typealias ArmRule = (name: String, ranges: [String: ClosedRange<Int64>])
  /// The installs seen.
  private var installs: [String: Install] = [:]

  /// A tally that names arms by the rules of `policies` (others' installs are in arm `all`).
  /// The part of the installs counted (all when nil).
  package var shard: RecordShard?

  /// A tally that names arms by the rules of `policies` (others' installs are in arm `all`),
  /// counting the installs of `shard` only (all when nil).
  package init(policies: [CompiledPolicy], shard: RecordShard?) {
    self.init(policies: policies)
    self.shard = shard
  }

  package init(policies: [CompiledPolicy]) {
    var known: [String: [ArmRule]] = [:]
    for policy in policies {
      let fingerprint = PolicyIdentity.fingerprint(of: String(decoding: policy.source.bytes, as: UTF8.self))
      known[fingerprint] = policy.rules.indices.compactMap { index in
        let ranges = policy.bucketRanges(ofRule: index)
        return ranges.isEmpty ? nil : (policy.rules[index].name ?? policy.rules[index].label, ranges)
      }
    }
    self.policies = known
  }

  /// The arm of an install whose first check was decided by `policy` with `buckets`.
  private static func arm(policy: String, buckets: [String: Int64], policies: [String: [ArmRule]]) -> Arm {
    guard let rules = policies[policy], !rules.isEmpty else { return Arm(policy: policy, name: "all") }
    let holding = rules.filter { rule in
      rule.ranges.allSatisfy { name, range in buckets[name].map(range.contains) ?? false }
    }
    return Arm(policy: policy, name: holding.isEmpty ? "rest" : holding.map(\.name).joined(separator: "+"))
  }

  /// Counts `record`.
  package mutating func add(_ record: ReviewRecord) {
    if let shard, !shard.contains(install: record.install) { return }
    // One lookup, the install changed in place.
    RolloutTally.add(record, to: &installs[record.install, default: Install()], policies: policies)
  }

  /// Counts `record` into its install's counts.
  private static func add(
    _ record: ReviewRecord, to install: inout Install, policies: [String: [ArmRule]]
  ) {
    if record.asked != nil, let policy = record.policy {
      // The earliest check fixes the arm (at one instant, the first arm in order), whatever
      // order the records come in: the SQL read-out (``RolloutSQL``) says the same.
      let candidate = arm(policy: policy.fingerprint, buckets: record.buckets, policies: policies)
      if let current = install.arm {
        if record.time < install.armTime || (record.time == install.armTime && candidate < current) {
          install.arm = candidate
          install.armTime = record.time
        }
      } else {
        install.arm = candidate
        install.armTime = record.time
      }
    }
    if record.asked != nil {
      install.checks += 1
      if record.asked == true { install.asks += 1 }
    }
    switch record.event {
    case ReviewLogEntry.Event.promptShown.rawValue:
      install.shown += 1
      install.prompted = true
    case ReviewLogEntry.Event.response.rawValue:
      if let answer = record.answer {
        install.answers[answer, default: 0] += 1
        if answer == ReviewResponse.rated.rawValue { install.rated = true }
        if answer == ReviewResponse.declined.rawValue { install.declined = true }
      }
    default: break
    }
  }

  /// The arms of several tallies of disjoint installs (shards), added up, sorted.
  package static func merged(_ parts: [[(arm: Arm, counts: Counts)]]) -> [(arm: Arm, counts: Counts)] {
    var result: [Arm: Counts] = [:]
    for part in parts {
      for (arm, counts) in part { result[arm, default: Counts()].add(counts) }
    }
    return result.keys.sorted().compactMap { arm in result[arm].map { (arm, $0) } }
  }

  /// The counts per arm (installs with no prompt check are not in any arm), sorted by policy and arm.
  package var arms: [(arm: Arm, counts: Counts)] {
    var result: [Arm: Counts] = [:]
    for install in installs.values {
      guard let arm = install.arm else { continue }
      var counts = result[arm] ?? Counts()
      counts.installs += 1
      counts.checks += install.checks
      counts.asks += install.asks
      counts.shown += install.shown
      for (answer, count) in install.answers { counts.answers[answer, default: 0] += count }
      if install.prompted { counts.promptedInstalls += 1 }
      if install.prompted && install.rated { counts.ratedInstalls += 1 }
      if install.prompted && install.declined { counts.declinedInstalls += 1 }
      result[arm] = counts
    }
    return result.keys.sorted().compactMap { arm in result[arm].map { (arm, $0) } }
  }
}
