import Foundation

/// The two maximum-likelihood estimators behind `policyc simulate --fit`, by expectation
/// maximisation over histograms (so their cost grows with the distinct counts, not the installs).
///
/// - ``openRates(_:)``: a two-component binomial mixture of the days each install opened the app
///   (the behaviour model's heavy and light users).
/// - ``zeroInflated(zeroSessions:withEvents:)``: a zero-inflated count model of one event: a share
///   of installs never produces it, the others produce a geometric number per session.
package enum MixtureFit {
  /// Installs that opened the app on `opened` of `days` days.
  package struct DayCount: Sendable, Hashable {
    /// Days observed after the install's first.
    package var days: Int
    /// Of them, the days with the app opened.
    package var opened: Int
    /// Installs with these counts.
    package var installs: Int

    /// Installs that opened the app on `opened` of `days` days.
    package init(days: Int, opened: Int, installs: Int) {
      self.days = days
      self.opened = opened
      self.installs = installs
    }
  }

  /// The fitted mixture of daily open rates.
  package struct OpenRates: Sendable, Hashable {
    /// The share of installs in the component with the higher rate.
    package var heavyShare: Double
    /// That component's daily chance of opening the app.
    package var heavyRate: Double
    /// The other component's.
    package var lightRate: Double
  }

  /// The smallest and largest rate a component takes (logarithms stay finite).
  static let rateBounds = 1e-6...(1 - 1e-6)

  /// The two-component binomial mixture fitted to `counts`; one component (a heavy share of 0)
  /// when the two would be closer than 2 points or either would hold under 0.5% of installs.
  /// Nil without a day observed.
  package static func openRates(_ counts: [DayCount]) -> OpenRates? {
    let observed = counts.filter { $0.days > 0 && $0.installs > 0 && $0.opened >= 0 && $0.opened <= $0.days }
    let installs = observed.reduce(0.0) { $0 + Double($1.installs) }
    let totalDays = observed.reduce(0.0) { $0 + Double($1.installs) * Double($1.days) }
    guard installs > 0, totalDays > 0 else { return nil }
    let pooled = observed.reduce(0.0) { $0 + Double($1.installs) * Double($1.opened) } / totalDays
    let single = OpenRates(heavyShare: 0, heavyRate: clamp(pooled), lightRate: clamp(pooled))
    // Start from the installs' own rates: the top fifth against the rest.
    let byRate = observed.sorted { Double($0.opened) / Double($0.days) > Double($1.opened) / Double($1.days) }
    var top = (installs: 0.0, opened: 0.0, days: 0.0)
    for count in byRate where top.installs < installs / 5 {
      top.installs += Double(count.installs)
      top.opened += Double(count.installs) * Double(count.opened)
      top.days += Double(count.installs) * Double(count.days)
    }
    var share = top.installs / installs
    var heavy = clamp(top.opened / max(top.days, 1))
    var light = clamp((pooled * totalDays - top.opened) / max(totalDays - top.days, 1))
    guard share < 1, heavy - light >= 0.02 else { return single }
    for _ in 0..<2000 {
      var weight = 0.0
      var heavyOpened = 0.0
      var heavyDays = 0.0
      var lightOpened = 0.0
      var lightDays = 0.0
      for count in observed {
        let (k, n) = (Double(count.opened), Double(count.days))
        let logHeavy = log(share) + k * log(heavy) + (n - k) * log1p(-heavy)
        let logLight = log1p(-share) + k * log(light) + (n - k) * log1p(-light)
        let isHeavy = 1 / (1 + exp(min(logLight - logHeavy, 700)))
        let m = Double(count.installs)
        weight += m * isHeavy
        heavyOpened += m * isHeavy * k
        heavyDays += m * isHeavy * n
        lightOpened += m * (1 - isHeavy) * k
        lightDays += m * (1 - isHeavy) * n
      }
      let next = (
        share: weight / installs, heavy: clamp(heavyOpened / max(heavyDays, 1e-12)),
        light: clamp(lightOpened / max(lightDays, 1e-12))
      )
      let moved = max(abs(next.share - share), abs(next.heavy - heavy), abs(next.light - light))
      (share, heavy, light) = next
      if moved < 1e-10 { break }
    }
    if heavy < light { (share, heavy, light) = (1 - share, light, heavy) }
    guard share >= 0.005, share <= 0.995, heavy - light >= 0.02 else { return single }
    return OpenRates(heavyShare: share, heavyRate: heavy, lightRate: light)
  }

  /// Installs with `sessions` sessions and none of the event.
  package struct SessionCount: Sendable, Hashable {
    /// Sessions of each install.
    package var sessions: Int
    /// Installs with that many sessions.
    package var installs: Int

    /// `installs` installs with `sessions` sessions each.
    package init(sessions: Int, installs: Int) {
      self.sessions = sessions
      self.installs = installs
    }
  }

  /// Installs with the event at least once: how many, their events and their sessions.
  package struct Producers: Sendable, Hashable {
    /// The installs.
    package var installs: Int
    /// Their events of the name.
    package var events: Int
    /// Their sessions.
    package var sessions: Int

    /// `installs` installs with `events` events in `sessions` sessions.
    package init(installs: Int, events: Int, sessions: Int) {
      self.installs = installs
      self.events = events
      self.sessions = sessions
    }
  }

  /// One event's fitted counts.
  package struct EventRate: Sendable, Hashable {
    /// Events per session, over every install.
    package var pooledRate: Double
    /// The share of installs that never produce the event (0 without zero inflation).
    package var neverShare: Double
    /// Events per session of the installs that produce it.
    package var rate: Double
    /// The likelihood-ratio statistic of the zero-inflated model against the pooled one
    /// (chi-squared with one degree of freedom under no inflation).
    package var statistic: Double
  }

  /// The zero-inflated geometric model of one event: installs that never produce it, and
  /// installs whose sessions each bring a geometric number with one mean. `zeroSessions` are the
  /// installs without the event, by their sessions; `withEvents` the others. Nil when no
  /// install has the event or there are no sessions.
  package static func zeroInflated(zeroSessions: [SessionCount], withEvents: Producers) -> EventRate? {
    let zeros = zeroSessions.filter { $0.sessions > 0 && $0.installs > 0 }
    guard withEvents.installs > 0, withEvents.events > 0, withEvents.sessions > 0 else { return nil }
    let zeroInstalls = zeros.reduce(0.0) { $0 + Double($1.installs) }
    let zeroSessionTotal = zeros.reduce(0.0) { $0 + Double($1.installs) * Double($1.sessions) }
    let installs = zeroInstalls + Double(withEvents.installs)
    let events = Double(withEvents.events)
    let sessions = Double(withEvents.sessions)
    /// The log-likelihood (without the terms that do not depend on the parameters).
    func logLikelihood(never: Double, rate: Double) -> Double {
      var total = 0.0
      for zero in zeros {
        let none = -Double(zero.sessions) * log1p(rate)
        let value = never > 0 ? log(never + (1 - never) * exp(none)) : none
        total += Double(zero.installs) * value
      }
      if never > 0 { total += Double(withEvents.installs) * log1p(-never) }
      return total + events * (log(rate) - log1p(rate)) - sessions * log1p(rate)
    }
    let pooled = events / (sessions + zeroSessionTotal)
    var never = zeroInstalls / installs / 2
    var rate = pooled
    if zeroInstalls > 0 {
      for _ in 0..<5000 {
        var neverWeight = 0.0
        var exposed = 0.0
        for zero in zeros {
          let none = exp(-Double(zero.sessions) * log1p(rate))
          let isNever = never / (never + (1 - never) * none)
          neverWeight += Double(zero.installs) * isNever
          exposed += Double(zero.installs) * (1 - isNever) * Double(zero.sessions)
        }
        let next = (never: min(neverWeight / installs, 1 - 1e-9), rate: events / (sessions + exposed))
        let moved = max(abs(next.never - never), abs(next.rate - rate) / max(rate, 1e-12))
        (never, rate) = next
        if moved < 1e-11 { break }
      }
    } else {
      never = 0
    }
    let statistic = max(0, 2 * (logLikelihood(never: never, rate: rate) - logLikelihood(never: 0, rate: pooled)))
    return EventRate(pooledRate: pooled, neverShare: never, rate: rate, statistic: statistic)
  }

  /// `value` held within ``rateBounds``.
  private static func clamp(_ value: Double) -> Double {
    value.isFinite ? min(max(value, rateBounds.lowerBound), rateBounds.upperBound) : rateBounds.lowerBound
  }
}
