/// A share of trials that succeeded (installs asked, asked installs that rated), with its 95%
/// confidence interval by the Wilson score method, and the difference of two shares with
/// Newcombe's hybrid score interval (Newcombe 1998, method 10): both standard, and both stay
/// within 0 to 1 and behave at 0 and at every trial succeeding, where the normal approximation
/// fails.
package struct Proportion: Sendable, Hashable {
  /// The trials that succeeded.
  package var successes: Int
  /// The trials.
  package var trials: Int

  /// The 97.5th percentile of the standard normal distribution: two-sided 95%.
  package static let z = 1.959_963_984_540_054

  /// A share of `successes` out of `trials` (clamped to `0...trials`).
  package init(_ successes: Int, of trials: Int) {
    self.trials = max(0, trials)
    self.successes = min(max(0, successes), self.trials)
  }

  /// The observed share, or nil with no trials.
  package var rate: Double? {
    trials == 0 ? nil : Double(successes) / Double(trials)
  }

  /// The 95% Wilson score interval, or nil with no trials.
  package var interval: ClosedRange<Double>? {
    guard let p = rate else { return nil }
    let n = Double(trials)
    let z2 = Self.z * Self.z
    let denominator = 1 + z2 / n
    let center = (p + z2 / (2 * n)) / denominator
    let half = Self.z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
    return max(0, center - half)...min(1, center + half)
  }

  /// This share minus `other`, with its 95% interval (Newcombe's hybrid score method), or nil when
  /// either has no trials.
  package func difference(from other: Proportion) -> (estimate: Double, interval: ClosedRange<Double>)? {
    guard let p1 = rate, let p2 = other.rate, let i1 = interval, let i2 = other.interval else { return nil }
    let d = p1 - p2
    let lower =
      d - ((p1 - i1.lowerBound) * (p1 - i1.lowerBound) + (i2.upperBound - p2) * (i2.upperBound - p2)).squareRoot()
    let upper =
      d + ((i1.upperBound - p1) * (i1.upperBound - p1) + (p2 - i2.lowerBound) * (p2 - i2.lowerBound)).squareRoot()
    return (d, max(-1, lower)...min(1, upper))
  }
}
