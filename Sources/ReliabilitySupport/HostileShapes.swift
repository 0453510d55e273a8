// The hostile update shapes of issue 23, at any size: shared by the reliability tests, the
// `review-stress hostile` driver and the `update` fuzz target's seeds. It imports no test framework.

import PolicyCore
import ReviewPolicy

/// One hostile update shape: a generator of update texts of a chosen size.
public struct HostileShape: Sendable {
  /// A short name (no spaces): the driver's and the seeds' key.
  public var name: String
  /// What it is.
  public var summary: String
  /// Whether the language rejects it at any size (a shape that may be accepted is expected to be
  /// accepted below the update limit and rejected above it).
  public var alwaysRejected: Bool
  /// The text of about `bytes` UTF-8 bytes (exactly `bytes` when `bytes` exceeds a few hundred).
  public var make: @Sendable (_ bytes: Int) -> String

  /// The text of `bytes` UTF-8 bytes.
  public func source(bytes: Int) -> String { make(bytes) }
}

/// The shapes of the issue: updates a policy's language accepted on the main branch that wiped the
/// state, froze the app or made every later call slow, and the misspelt names that took seconds to reject.
public enum HostileShapes {
  /// The remote update limit in bytes (`PolicyLimits.remoteUpdate`).
  public static let updateLimit = PolicyLimits.remoteUpdate.maximumSize

  /// The sizes each shape is tried at: 64 KiB, 1 MiB and the update limit (once when they coincide).
  public static let sizes: [Int] = {
    var sizes: [Int] = []
    for size in [64 * 1024, 1 << 20, updateLimit] where !sizes.contains(size) { sizes.append(size) }
    return sizes.sorted()
  }()

  /// The honest bundled policy the shapes try to replace.
  public static let bundledPolicy = "ask when uses >= 3"
  /// The guardrail that must hold whatever an update says.
  public static let guardrails = "never answered when declined_any or rated_any"

  /// `lines` produced by `line(i)` for i = 0, 1, ..., as many as fit in `bytes` after `head`,
  /// then a comment padding the text to exactly `bytes` when there is room for one.
  /// At most `count` lines when given.
  static func filled(
    _ head: String, bytes: Int, tail: String = "", count: Int = .max, _ line: (Int) -> String
  ) -> String {
    var text = head
    var index = 0
    let budget = bytes - tail.utf8.count
    while index < count {
      let next = line(index)
      if text.utf8.count + next.utf8.count > budget - 3 { break }
      text += next
      index += 1
    }
    text += tail
    let room = bytes - text.utf8.count
    if room >= 2 { text += "#" + String(repeating: " ", count: room - 2) + "\n" }
    return text
  }

  /// `head` followed by `filler` repeated to exactly `bytes` bytes (`filler` is one byte).
  static func padded(_ head: String, bytes: Int, filler: Character) -> String {
    head + String(repeating: filler, count: max(0, bytes - head.utf8.count))
  }

  /// The remote-update limits the largest honest-looking updates are built to.
  static let limits = PolicyLimits.remoteUpdate

  /// The largest update every limit allows at once: 64 facts left unset, 64 events, 256 `let`s and
  /// 256 rules reading them all, then a comment up to `bytes`.
  static func largestUpdate(bytes: Int) -> String {
    var text = (0..<limits.maximumFactDeclarations).map { "fact f\($0): int\n" }.joined()
    text += (0..<limits.maximumEventDeclarations).map { "event e\($0)\n" }.joined()
    text += (0..<limits.maximumLets).map { "let l\($0) = uses >= \($0) and days >= \($0 % 97)\n" }.joined()
    text += (0..<limits.maximumRules).map { index in
      let kind = index % 4 == 0 ? "never" : "ask"
      return "\(kind) r\(index) when l\(index) and events(\"e\(index % 64)\") >= \(index % 5) "
        + "and (f\(index % 64) ?? 0) >= 0 and not rated and since(last_prompt) ?? 0d > \(index % 30)d\n"
    }.joined()
    let room = bytes - text.utf8.count
    if room >= 2 { text += "#" + String(repeating: " ", count: room - 2) + "\n" }
    return text
  }

  /// Every shape.
  public static let all: [HostileShape] = [
    HostileShape(
      name: "control-comment", summary: "`ask when days >= 0` + a comment of control characters",
      alwaysRejected: false,
      make: { padded("ask when days >= 0\n# ", bytes: $0, filler: "\u{1}") }),
    HostileShape(
      name: "blank-lines", summary: "`ask when days >= 0` + blank lines", alwaysRejected: false,
      make: { padded("ask when days >= 0\n", bytes: $0, filler: "\n") }),
    HostileShape(
      name: "quotes-comment", summary: "`ask when days >= 0` + a comment of quotes", alwaysRejected: false,
      make: { padded("ask when days >= 0\n# ", bytes: $0, filler: "\"") }),
    HostileShape(
      name: "distinct-asks", summary: "distinct ask rules (`ask when uses >= i and days >= i`)", alwaysRejected: false,
      make: { filled("", bytes: $0) { "ask when uses >= \($0) and days >= \($0 % 97)\n" } }),
    HostileShape(
      name: "one-node-asks", summary: "one-node ask rules (`ask rI when session_bad`)", alwaysRejected: false,
      make: { filled("", bytes: $0) { "ask r\($0) when session_bad\n" } }),
    HostileShape(
      name: "misspelt-names", summary: "declared events and misspelt references to them (rejected)",
      alwaysRejected: true,
      make: { bytes in
        filled("", bytes: bytes) { index in
          index % 2 == 0
            ? "event export_photo_\(index)\n" : "ask when events(\"exprot_photo_\(index - 1)\") > 0\n"
        }
      }),
    HostileShape(
      name: "never-rules", summary: "many `never` rules and one ask", alwaysRejected: false,
      make: { filled("ask when days >= 0\n", bytes: $0) { "never when uses == \($0 + 1_000_000)\n" } }),
    HostileShape(
      name: "unset-facts", summary: "declared app facts left unset (`fact fI: int`), one read", alwaysRejected: false,
      make: { filled("ask when days >= 0 or f0 >= 0\n", bytes: $0) { "fact f\($0): int\n" } }),
    HostileShape(
      name: "asks-at-limit", summary: "as many distinct ask rules as the rule limit allows, then a comment",
      alwaysRejected: false,
      make: {
        filled("", bytes: $0, count: limits.maximumRules) {
          "ask a\($0) when uses >= \($0) and days >= \($0 % 97) and sessions >= \($0 % 13)\n"
        }
      }),
    HostileShape(
      name: "nevers-at-limit", summary: "as many `never` rules as the rule limit allows and one ask, then a comment",
      alwaysRejected: false,
      make: {
        filled("ask when days >= 0\n", bytes: $0, count: limits.maximumRules - 1) {
          "never n\($0) when uses == \($0 + 1_000_000) or events(\"x\($0)\") >= 1000\n"
        }
      }),
    HostileShape(
      name: "largest-update",
      summary: "every count limit at once (64 unset facts, 64 events, 256 lets, 256 rules), then a comment",
      alwaysRejected: false, make: { largestUpdate(bytes: $0) }),
    HostileShape(
      name: "declared-events", summary: "declared events (`event eI`), one read", alwaysRejected: false,
      make: { filled("ask when events(\"e0\") >= 0\n", bytes: $0) { "event e\($0)\n" } }),
  ]

  /// The shape named `name`.
  public static func shape(named name: String) -> HostileShape? {
    all.first { $0.name == name }
  }
}
