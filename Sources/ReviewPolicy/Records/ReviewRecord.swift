import Foundation
import PolicyCore

/// One line of the record format (docs/records.md): a log entry as a stable JSON object an app
/// may forward to its own analytics, for `policyc report` and `policyc replay` to read.
///
/// A record names no user and no device: `install` is a random identifier drawn for this
/// install (``ReviewState/recordInstall``), forgotten by ``ReviewManager/reset()``. Nothing is
/// sent anywhere: the manager hands each line to ``ReviewManager/Configuration/recorder``.
public struct ReviewRecord: Sendable, Equatable {
  /// The format's version: a reader refuses a larger one (docs/records.md, "Compatibility").
  public static let schema = 1

  /// The format version of this record.
  public var schema: Int = ReviewRecord.schema
  /// The install's random identifier (32 lowercase hexadecimal digits).
  public var install: String
  /// When it happened, to the millisecond.
  public var time: Timestamp
  /// What happened: a ``ReviewLogEntry/Event`` raw value.
  public var event: String
  /// The running app version.
  public var appVersion: String
  /// The running build, if the app gave one.
  public var build: String?
  /// The policy that decided, was accepted or runs (decision and policy entries).
  public var policy: PolicyIdentity?
  /// For a prompt check: whether the policy asked.
  public var asked: Bool?
  /// For a prompt check: why (a `DecisionReason` raw value).
  public var reason: String?
  /// For a prompt check: the rules that decided, by name (an unnamed rule by its label).
  public var rules: [String] = []
  /// For a prompt check: the `bucket("name")` values the policy reads, for this install.
  public var buckets: [String: Int64] = [:]
  /// For a response: the answer (a ``ReviewResponse`` raw value).
  public var answer: String?
  /// The significant event's name, or the app fact set (``ReviewLogEntry/name``).
  public var name: String?
  /// For a launch or a return to the foreground: whether the use was counted.
  public var counted: Bool?
  /// For an action: its score (finite).
  public var score: Double?
  /// For an action: whether it marked the session bad.
  public var bad: Bool?
  /// For a prompt check of a policy that reads `bucket("name")`: the install's seed its bucket
  /// values are drawn from (written as 16 hexadecimal digits), so a replay draws the same values.
  public var seed: Int64?
  /// For a response: true when the answer was given outside any prompt (a "Rate this app" row).
  public var outside: Bool?

  /// Creates a record.
  public init(
    install: String, time: Timestamp, event: String, appVersion: String, build: String? = nil,
    policy: PolicyIdentity? = nil, asked: Bool? = nil, reason: String? = nil, rules: [String] = [],
    buckets: [String: Int64] = [:], answer: String? = nil, name: String? = nil
  ) {
    self.install = install
    self.time = time
    self.event = event
    self.appVersion = appVersion
    self.build = build
    self.policy = policy
    self.asked = asked
    self.reason = reason
    self.rules = rules
    self.buckets = buckets
    self.answer = answer
    self.name = name
  }

  /// The record of `entry` for the install `install` running `appVersion` (`build`).
  public init(_ entry: ReviewLogEntry, install: String, appVersion: String, build: String?) {
    self.init(
      install: install, time: Timestamp(entry.date), event: entry.event.rawValue, appVersion: appVersion,
      build: build, policy: entry.policy, name: entry.name)
    if entry.isDecision, let decision = entry.decision {
      asked = decision.shouldAsk
      reason = decision.reason.rawValue
      rules = entry.decidingRuleNames
      buckets = entry.buckets
      seed = entry.bucketSeed
    } else if entry.isDecision {
      asked = false
      reason = DecisionReason.invalidFacts.rawValue
    }
    answer = entry.response?.rawValue
    if entry.isOutsidePrompt { outside = true }
    counted = entry.counted
    score = entry.score.flatMap { $0.isFinite ? $0 : nil }
    bad = entry.isBad
  }

  /// The record as one line of JSON, without its newline: keys in the documented order, members
  /// that do not apply left out.
  public var line: String {
    var writer = ReviewStateJSON.Writer()
    var first = true
    @inline(never)
    func key(_ name: String) {
      if !first { writer.bytes.append(UInt8(ascii: ",")) }
      first = false
      writer.string(name)
      writer.bytes.append(UInt8(ascii: ":"))
    }
    writer.bytes.append(UInt8(ascii: "{"))
    key("schema")
    writer.int(schema)
    key("install")
    writer.string(install)
    key("time")
    writer.string(time.description)
    key("event")
    writer.string(event)
    key("app")
    writer.string(appVersion)
    if let build {
      key("build")
      writer.string(build)
    }
    if let policy {
      key("policy")
      writer.string(policy.fingerprint)
      key("origin")
      writer.string(policy.origin.rawValue)
    }
    if let asked {
      key("asked")
      writer.bool(asked)
    }
    if let reason {
      key("reason")
      writer.string(reason)
    }
    // A decision always has its rules and buckets (perhaps empty); any record read with them
    // keeps them, so every record writes a line that reads back to it.
    if asked != nil || !rules.isEmpty {
      key("rules")
      writer.array(rules) { $0.string($1) }
    }
    if asked != nil || !buckets.isEmpty {
      key("buckets")
      writer.bytes.append(UInt8(ascii: "{"))
      for (index, name) in buckets.keys.stablySorted(by: <).enumerated() {
        if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
        writer.string(name)
        writer.bytes.append(UInt8(ascii: ":"))
        writer.int64(buckets[name] ?? 0)
      }
      writer.bytes.append(UInt8(ascii: "}"))
    }
    if let seed {
      key("seed")
      writer.string(ReviewRecord.hex(seed))
    }
    if let answer {
      key("answer")
      writer.string(answer)
    }
    if let outside {
      key("outside")
      writer.bool(outside)
    }
    if let name {
      key("name")
      writer.string(name)
    }
    if let counted {
      key("counted")
      writer.bool(counted)
    }
    if let score, score.isFinite {
      key("score")
      writer.bytes.append(contentsOf: Array(ReviewRecord.number(score).utf8))
    }
    if let bad {
      key("bad")
      writer.bool(bad)
    }
    writer.bytes.append(UInt8(ascii: "}"))
    return String(decoding: writer.bytes, as: UTF8.self)
  }

  /// `value` as a JSON number: an integer without a fraction (`25`), else the shortest decimal
  /// that reads back to it (`12.5`).
  static func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }

  /// `seed`'s bit pattern as 16 lowercase hexadecimal digits (also a policy's fingerprint).
  package static func hex(_ seed: Int64) -> String {
    let digits = String(UInt64(bitPattern: seed), radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The seed written as 16 hexadecimal digits (``hex(_:)``), or nil.
  package static func seed(hex text: String) -> Int64? {
    guard text.utf8.count == 16, let bits = UInt64(text, radix: 16) else { return nil }
    return Int64(bitPattern: bits)
  }

  /// ``line`` followed by a newline, as UTF-8: what an app appends to a JSON Lines file or sends.
  public var data: Data { Data((line + "\n").utf8) }

  /// A new install identifier: 128 random bits as 32 lowercase hexadecimal digits, drawn from the
  /// system's random source, never from the device or the user.
  static func newInstall() -> String {
    var generator = SystemRandomNumberGenerator()
    let digits = Array("0123456789abcdef")
    return String((0..<32).map { _ in digits[Int(generator.next() & 0xF)] })
  }
}
