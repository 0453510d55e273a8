import PolicyCore

/// What can be recovered from stored bytes the decoders reject: the members of the state that are
/// whole and of the right type, taken one by one, so that a state cut short, damaged in one place
/// or too large to read whole still gives back the user's counts, answers and "no thanks" instead
/// of nothing. Every step is linear in the bytes given, and the bytes given are bounded by the
/// store's read limit.
enum ReviewStateSalvage {
  /// How many bytes at the end of a file too large to read whole are read for the members after
  /// the part left unread.
  static let tailSize = 256 * 1024
  /// How many places in the tail are tried as the start of the members after the part not read
  /// (each try stops at its first mismatch; the limit bounds the work on hostile bytes).
  static let tailAttempts = 64

  /// What was recovered.
  struct Outcome: Sendable {
    /// The state the recovered members give (sanitized, as every loaded state is).
    var state: ReviewState
    /// The members taken, in the order found.
    var recovered: [String]
    /// The members found whose value has the wrong type (not taken).
    var rejected: [String]

    /// One line for a report: what was recovered, and what was not.
    var summary: String {
      let taken = recovered.filter { $0 != "format" }
      var text = "recovered \(taken.count) members"
      if !taken.isEmpty { text += " (\(taken.prefix(8).joined(separator: ", "))\(taken.count > 8 ? ", ..." : ""))" }
      if !rejected.isEmpty { text += ", \(rejected.count) of the wrong type dropped" }
      return text
    }
  }

  /// The state recovered from `bytes`, stored bytes the decoders reject: from their first bytes
  /// and their last ``tailSize`` bytes, reading at most the read limit in all (what a store reads
  /// of a file over it); nil when nothing but the format could be recovered.
  static func state(of bytes: UnsafeBufferPointer<UInt8>) -> Outcome? {
    let limit = ReviewStateCoding.maximumSize
    let head = bytes.count > limit ? UnsafeBufferPointer(rebasing: bytes[..<(limit - tailSize)]) : bytes
    return state(head: head, tail: UnsafeBufferPointer(rebasing: bytes[max(0, bytes.count - tailSize)...]))
  }

  /// The state recovered from `head`, the first bytes of a stored state, and `tail`, its last
  /// bytes when the bytes between were not read or not understood; nil when nothing but the format
  /// could be recovered.
  static func state(head: UnsafeBufferPointer<UInt8>, tail: UnsafeBufferPointer<UInt8>?) -> Outcome? {
    var parser = ReviewStateJSON.Parser(bytes: head)
    var members = parser.parseLeadingMembers().members
    if let tail {
      let found = Set(members.map { $0.key })
      members += trailingMembers(tail).filter { !found.contains($0.key) }
    }
    var outcome = apply(members, to: ReviewState())
    guard outcome.recovered.contains(where: { $0 != "format" }) else { return nil }
    outcome.state = outcome.state.sanitized()
    return outcome
  }

  /// The members of one journal line the decoder rejects, as far as they are whole.
  static func lineMembers(_ line: UnsafeBufferPointer<UInt8>) -> [(key: String, value: ReviewStateJSON.Value)] {
    var parser = ReviewStateJSON.Parser(bytes: line)
    return parser.parseLeadingMembers().members
  }

  /// `state` with each of `members` set that has the right type (the first value of a repeated
  /// member; members this library does not store are ignored).
  static func apply(_ members: [(key: String, value: ReviewStateJSON.Value)], to state: ReviewState) -> Outcome {
    var outcome = Outcome(state: state, recovered: [], rejected: [])
    var seen = Set<String>()
    for (key, value) in members where knownKeys.contains(key) && !seen.contains(key) {
      seen.insert(key)
      if let patched = ReviewStateJSON.applying(members: [key: value], to: outcome.state) {
        outcome.state = patched
        outcome.recovered.append(key)
      } else {
        outcome.rejected.append(key)
      }
    }
    return outcome
  }

  /// The keys of a stored state's members.
  private static let knownKeys = Set(ReviewStateJSON.stateMembers.map(\.name))

  /// The members at the end of `tail` (the last bytes of a stored state): from the first place,
  /// a `,` then the quoted name of a state member and a `:`, from which the rest parses as
  /// members up to the closing `}` at the end. Empty when there is none within ``tailAttempts``.
  ///
  /// Inside a JSON string every `"` is escaped, so `,"name":` only appears between members or
  /// elements; requiring a member's name and the object's end right after the last member makes
  /// a false start all but impossible, and a false start only gives values from damaged bytes,
  /// which are sanitized like any others.
  static func trailingMembers(_ tail: UnsafeBufferPointer<UInt8>) -> [(key: String, value: ReviewStateJSON.Value)] {
    var attempts = 0
    var index = 0
    while index + 2 < tail.count && attempts < tailAttempts {
      defer { index += 1 }
      guard tail[index] == UInt8(ascii: ","), tail[index + 1] == UInt8(ascii: "\"") else { continue }
      guard let key = quotedName(in: tail, at: index + 1), knownKeys.contains(key) else { continue }
      attempts += 1
      var parser = ReviewStateJSON.Parser(bytes: tail)
      parser.index = index + 1
      if let members = parser.parseTrailingMembers() { return members }
    }
    return []
  }

  /// The plain name quoted at `start` (a `"`) and followed by `:`; nil when there is none (names
  /// of stored members are short and plain).
  private static func quotedName(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> String? {
    var end = start + 1
    while end < bytes.count && end - start <= 32 {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") { break }
      guard byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "z") else { return nil }
      end += 1
    }
    guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), end + 1 < bytes.count,
      bytes[end + 1] == UInt8(ascii: ":")
    else { return nil }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
  }
}
