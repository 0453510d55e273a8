import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// The hand-written state coder: it must read back everything it writes, agree with Foundation's
/// `Codable` both ways, and leave everything it does not understand to Foundation.
@Suite("runtime: state coding")
struct RuntimeCodingTests {
  /// A two-year state: 200 launches over 700 days, 50 prompts with answers, 7 versions.
  static var realistic: ReviewState {
    var state = ReviewState()
    let end: Int64 = 1_780_000_000_000
    let names = ["export", "share", "édit \"quoted\"", "import\n", "print/✓"]
    let answers: [ReviewResponse] = [.remindLater, .declined, .dismissed, .rated, .unknown]
    for launch in 0..<200 {
      let now = Timestamp(millisecondsSince1970: end - Int64(700 - launch * 700 / 200) * 86_400_000)
      state.enter(version: "3.\(launch / 30)", build: "\(launch / 10)", newVersionOnBuild: false, at: now)
      state.countUse()
      state.startSession(at: now)
      for event in 0..<(launch % 4) { state.countEvent(named: names[(launch + event) % names.count]) }
      state.addAction(
        score: Number(scaled: Int64(launch % 7) * -15_123_456), isBad: launch % 23 == 0, bounds: nil, at: now)
      if launch % 4 == 1 {
        state.recordPrompt(at: now, outcome: .pending)
        state.record(answers[(launch / 4) % answers.count], at: now)
      }
    }
    state.policySource = "ask when uses >= 3 # \u{1}\t✓"
    state.importedLegacy = ["appirater"]
    return state
  }

  @Test("the fast decoder reads back what the encoder writes, and Foundation reads the same")
  func roundTrip() throws {
    for state in [Self.realistic, RuntimeStoreTests.fullState, ReviewState()] {
      let bytes = ReviewStateJSON.encode(state)
      let fast = bytes.withUnsafeBufferPointer { ReviewStateJSON.decode($0) }
      #expect(fast == state)
      let foundation = try JSONDecoder().decode(ReviewState.self, from: Data(bytes))
      #expect(foundation == state)
      // Foundation's own encoding decodes the same with the fast decoder.
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let theirs = try encoder.encode(state)
      #expect(theirs.withUnsafeBytes { ReviewStateJSON.decode($0.bindMemory(to: UInt8.self)) } == state)
    }
  }

  @Test("what the fast decoder does not take is left to Foundation, which explains it")
  func fallsBack() {
    let valid = String(decoding: ReviewStateJSON.encode(RuntimeStoreTests.fullState), as: UTF8.self)
    for text in [
      valid.replacingOccurrences(of: "\"uses\":7", with: "\"uses\":7.0"),
      valid.replacingOccurrences(of: "\"uses\":7", with: "\"uses\":7,\"uses\":8"),
      valid.replacingOccurrences(of: "\"format\":1", with: "\"format\":2"),
      valid.replacingOccurrences(of: "\"uses\":7", with: "\"uses\":\"7\""),
      "{\"format\":1}", "[]", "",
    ] {
      let bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBufferPointer { ReviewStateJSON.decode($0) } == nil, "\(text.prefix(40))")
    }
  }
}
