import Testing

@testable import PolicyCore

@Suite("Stable order")
struct StableOrderTests {
  /// An element whose key repeats, and whose tag tells equal keys apart.
  struct Keyed: Equatable {
    var key: Int
    var tag: Int
  }

  @Test("2,000 random arrays of 0 to 80 elements: sorted by key, equal keys in their original order")
  func randomArrays() {
    var random = SeededGenerator(seed: 27)
    for _ in 0..<2_000 {
      let count = Int(random.next() % 81)
      // Few distinct keys, so runs of equal keys are common and stability is exercised.
      let range = 1 + random.next() % 12
      let elements = (0..<count).map { Keyed(key: Int(random.next() % range), tag: $0) }
      let sorted = elements.stablySorted { $0.key < $1.key }
      // The reference: by key, then by original position.
      let expected = elements.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
        .map(\.element)
      #expect(sorted == expected)
    }
  }

  @Test("empty, one element, reversed input and a set's elements")
  func edges() {
    #expect([Int]().stablySorted(by: <) == [])
    #expect([7].stablySorted(by: <) == [7])
    #expect(Array((0..<100).reversed()).stablySorted(by: <) == Array(0..<100))
    #expect(Set(["b", "c", "a"]).stablySorted(by: <) == ["a", "b", "c"])
    #expect(StableOrder.positions(count: 0, by: .init { _, _ in true }) == [])
    #expect(StableOrder.positions(count: -3, by: .init { _, _ in true }) == [])
    // A comparison that always says "less" reverses runs but never loses a position.
    #expect(StableOrder.positions(count: 37, by: .init { _, _ in true }).sorted() == Array(0..<37))
  }
}
