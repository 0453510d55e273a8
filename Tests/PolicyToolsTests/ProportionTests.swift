import Testing

@testable import PolicyTools

/// The read-out's intervals against published figures, and their coverage over random samples.
@Suite("records: proportions and their intervals")
struct ProportionTests {
  @Test("Wilson intervals: 0 of 10, 10 of 10, 81 of 263 (Wilson 1927; as statistics texts tabulate)")
  func wilson() throws {
    let none = try #require(Proportion(0, of: 10).interval)
    #expect(none.lowerBound == 0 && abs(none.upperBound - 0.277_533) < 1e-6)
    let all = try #require(Proportion(10, of: 10).interval)
    #expect(abs(all.lowerBound - 0.722_467) < 1e-6 && abs(all.upperBound - 1) < 1e-12)
    let some = try #require(Proportion(81, of: 263).interval)
    #expect(abs(some.lowerBound - 0.255_289) < 1e-6 && abs(some.upperBound - 0.366_210) < 1e-6)
    #expect(Proportion(0, of: 0).interval == nil && Proportion(0, of: 0).rate == nil)
  }

  @Test("Newcombe's difference: 56/70 minus 48/80 is 0.2, 95% CI 0.0524 to 0.3339 (Newcombe 1998, method 10)")
  func newcombe() throws {
    let difference = try #require(Proportion(56, of: 70).difference(from: Proportion(48, of: 80)))
    #expect(abs(difference.estimate - 0.2) < 1e-12)
    #expect(abs(difference.interval.lowerBound - 0.0524) < 5e-5)
    #expect(abs(difference.interval.upperBound - 0.3339) < 5e-5)
    #expect(Proportion(1, of: 2).difference(from: Proportion(0, of: 0)) == nil)
  }

  @Test("over 4,000 random samples the 95% intervals hold the true share 93% to 97% of the time")
  func coverage() {
    var state: UInt64 = 0xC0FFEE
    func uniform() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var covered = 0
    var differencesCovered = 0
    let samples = 4_000
    for index in 0..<samples {
      let p = [0.05, 0.24, 0.31, 0.5][index % 4]
      let q = [0.2, 0.1, 0.31, 0.45][index % 4]
      let n = 200 + index % 300
      var a = 0
      var b = 0
      for _ in 0..<n {
        if uniform() < p { a += 1 }
        if uniform() < q { b += 1 }
      }
      let first = Proportion(a, of: n)
      if let interval = first.interval, interval.contains(p) { covered += 1 }
      if let difference = first.difference(from: Proportion(b, of: n)), difference.interval.contains(p - q) {
        differencesCovered += 1
      }
    }
    #expect((3_720...3_880).contains(covered), "\(covered) of \(samples)")
    #expect((3_720...3_880).contains(differencesCovered), "\(differencesCovered) of \(samples)")
  }
}
