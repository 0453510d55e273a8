import PolicyCore

/// The schema's relations (``FactRelation``) over the variables of one analysis, as propagators
/// that narrow a search's ``TheoryState``: the solver then only finds facts that satisfy them.
///
/// Each propagator removes values that no fact set satisfying its relation can have, so a search
/// that runs out of states is still a proof, now over real fact sets. Propagation reaches bounds
/// consistency for the order relations; whatever it leaves undecided, ``label(_:slots:budget:)``
/// settles one fact at a time, and ``WitnessBuilder`` checks the finished witness against the
/// relations themselves.
struct RelationAxioms: Sendable {
  /// A propagator: one relation between variables of the analysis.
  enum Propagator: Sendable {
    /// `lower <= upper` when both facts are present and the guard (if any) holds (instants are
    /// stated over their ages, reversed).
    case order(
      lower: AnalysisVariable, lowerFact: String, upper: AnalysisVariable, upperFact: String, guard: Guard?)
    /// The variable is at least the key when its fact is present.
    case minimum(AnalysisVariable, fact: String, AnalysisKey)
    /// The optional fact `fact` is present exactly when `other` is.
    case samePresence(fact: String, other: String)
    /// The optional fact `other` is present wherever the optional fact `fact` is.
    case presentWith(fact: String, other: String)
    /// The optional fact `fact` is present exactly when the variable (an int or bool) is at least 1.
    case presentWhenPositive(fact: String, AnalysisVariable)
    /// `count` is the number of whole `unit`s in `age` (which is at least 0).
    case wholeUnits(count: AnalysisVariable, age: AnalysisVariable, unit: Int64)
    /// `count >= 1` exactly when `latest` is present and its `age` is below `window`.
    case window(count: AnalysisVariable, latest: String, age: AnalysisVariable, window: Int64)
    /// `member >= min(count, kept)` when `age` is below `window` and the optional instant fact
    /// `latest` is at most `longest` after the instant whose age `age` is. `latestAge` is the
    /// latest instant's age, nil when the analysis has no variable for it (it is then only known
    /// to be at least 0).
    case covers(
      count: AnalysisVariable, member: AnalysisVariable, age: AnalysisVariable, latest: String,
      latestAge: AnalysisVariable?, window: Int64, longest: Int64, kept: Int64)
    /// The optional fact `fact` is present when the variable is at least the minimum.
    case presentFrom(fact: String, AnalysisVariable, minimum: Int64)
    /// The members add up to at most the total: each member is at least every variable of its
    /// list (the member itself, and the same key's member of families below it).
    case sum(members: [[AnalysisVariable]], total: AnalysisVariable)
    /// The two variables differ when both facts are present.
    case distinct(AnalysisVariable, fact: String, AnalysisVariable, other: String)

    /// The facts whose state the propagator reads and narrows.
    var facts: [String] {
      switch self {
      case .order(_, let lower, _, let upper, let condition): [lower, upper] + (condition?.facts ?? [])
      case .minimum(_, let fact, _): [fact]
      case .samePresence(let fact, let other), .presentWith(let fact, let other): [fact, other]
      case .presentWhenPositive(let fact, let variable): [fact, variable.name]
      case .wholeUnits(let count, let age, _): [count.name, age.name]
      case .window(let count, let latest, _, _): [count.name, latest]
      case .distinct(_, let fact, _, let other): [fact, other]
      case .covers(let count, let member, let age, let latest, _, _, _, _): [count.name, member.name, age.name, latest]
      case .sum(let members, let total): members.joined().map(\.name) + [total.name]
      case .presentFrom(let fact, let variable, _): [fact, variable.name]
      }
    }
  }

  /// When a conditional order applies: a fact present or absent, a variable (an int or a
  /// bool) at least 1, or an int variable at most another.
  enum Guard: Sendable {
    case present(String)
    case absent(String)
    case atLeastOne(AnalysisVariable)
    case atMost(AnalysisVariable, AnalysisVariable)
    /// The first variable is above the second, both of present facts.
    case above(AnalysisVariable, AnalysisVariable)

    /// The facts the guard reads.
    var facts: [String] {
      switch self {
      case .present(let name), .absent(let name): [name]
      case .atLeastOne(let variable): [variable.name]
      case .atMost(let variable, let limit), .above(let variable, let limit): [variable.name, limit.name]
      }
    }
  }

  /// The propagators.
  private(set) var propagators: [Propagator] = []
  /// For each fact, the propagators that read it.
  private var watchers: [String: [Int]] = [:]
  /// The facts that can be absent.
  private var optional: Set<String> = []

  /// No relations.
  static let none = RelationAxioms()

  private init() {}

  /// The propagators of `relations` over the facts of `slots` (a relation naming a fact the
  /// slots lack constrains nothing). Facts a policy declares itself are not the schema's.
  init(relations: [FactRelation], slots: [WitnessSlot]) {
    var plain: [String: WitnessSlot] = [:]
    var members: [String: [(key: Value, slot: WitnessSlot)]] = [:]
    for slot in slots {
      switch slot.origin {
      case .schema: plain[slot.name] = slot
      case .family(let family, let key): members[family, default: []].append((key, slot))
      case .declaration: continue
      }
      if slot.isOptional { optional.insert(slot.name) }
    }
    func variable(_ slot: WitnessSlot) -> AnalysisVariable? {
      if slot.type == .instant { return AnalysisVariable(name: slot.name, isAge: true, kind: .age) }
      return VariableKind(valueOf: slot.type).map { AnalysisVariable(name: slot.name, isAge: false, kind: $0) }
    }
    func each(_ name: String) -> [WitnessSlot] {
      (plain[name].map { [$0] } ?? []) + (members[name] ?? []).map(\.slot)
    }
    func order(_ lower: WitnessSlot, _ upper: WitnessSlot, guard condition: Guard? = nil) {
      guard let low = variable(lower), let high = variable(upper), low.kind == high.kind, low.kind != .string else {
        return
      }
      // An earlier instant has the greater age.
      if low.isAge {
        propagators.append(
          .order(lower: high, lowerFact: upper.name, upper: low, upperFact: lower.name, guard: condition))
      } else {
        propagators.append(
          .order(lower: low, lowerFact: lower.name, upper: high, upperFact: upper.name, guard: condition))
      }
    }
    func bound(_ bound: FactBound, guard condition: Guard?) {
      if let lower = plain[bound.lower], let upper = plain[bound.upper] { order(lower, upper, guard: condition) }
      for (key, lower) in members[bound.lower] ?? [] {
        if let upper = members[bound.upper]?.first(where: { $0.key == key })?.slot {
          order(lower, upper, guard: condition)
        } else if members[bound.upper] == nil, let upper = plain[bound.upper] {
          order(lower, upper, guard: condition)
        }
      }
    }
    for relation in relations {
      switch relation.kind {
      case .bound(let relation): bound(relation, guard: nil)
      case .boundWhen(let relation, let condition):
        guard let fact = plain[condition.fact] else {
          // A family's condition holds where it holds for one of its members.
          for (_, member) in members[condition.fact] ?? [] where member.isOptional {
            switch condition {
            case .present: bound(relation, guard: .present(member.name))
            case .absent: bound(relation, guard: .absent(member.name))
            case .positive, .isTrue: continue
            }
          }
          continue
        }
        switch condition {
        case .present: bound(relation, guard: .present(fact.name))
        case .absent: bound(relation, guard: .absent(fact.name))
        case .positive, .isTrue:
          if let variable = variable(fact) { bound(relation, guard: .atLeastOne(variable)) }
        }
      case .minimum(let name, let value):
        guard let key = PolicyTranslator.key(of: value) else { continue }
        for slot in each(name) {
          if let variable = variable(slot), !variable.isAge {
            propagators.append(.minimum(variable, fact: slot.name, key))
          }
        }
      case .notAfterNow(let name):
        for slot in each(name) {
          if let variable = variable(slot), variable.isAge {
            propagators.append(.minimum(variable, fact: slot.name, AnalysisKey(word: 0)))
          }
        }
      case .increasing(let name):
        let sorted = (members[name] ?? []).sorted { $0.key.ordering(comparedWith: $1.key) < 0 }
        for (smaller, larger) in zip(sorted, sorted.dropFirst()) { order(smaller.slot, larger.slot) }
      case .presence(let name, let condition):
        guard plain[name] != nil, let other = plain[condition.fact] else { continue }
        switch condition {
        case .present: propagators.append(.samePresence(fact: name, other: other.name))
        case .absent: continue
        case .positive, .isTrue:
          if let variable = variable(other) { propagators.append(.presentWhenPositive(fact: name, variable)) }
        }
      case .wholeUnits(let countName, let sinceName, let unit):
        guard let count = plain[countName].flatMap(variable), let age = plain[sinceName].flatMap(variable),
          age.isAge, unit.milliseconds > 0
        else { continue }
        propagators.append(.wholeUnits(count: count, age: age, unit: unit.milliseconds))
      case .window(let familyName, let latestName):
        guard let latest = plain[latestName], let age = variable(latest), age.isAge else { continue }
        for (key, slot) in members[familyName] ?? [] {
          guard case .duration(let window) = key, let count = variable(slot) else { continue }
          propagators.append(.window(count: count, latest: latest.name, age: age, window: window.milliseconds))
        }
      case .boundWhenAtMost(let relation, let name, let limitName):
        guard let first = plain[name].flatMap(variable), let second = plain[limitName].flatMap(variable) else {
          continue
        }
        bound(relation, guard: .atMost(first, second))
      case .boundWhenAbove(let relation, let name, let limitName):
        guard let first = plain[name].flatMap(variable), let second = plain[limitName].flatMap(variable),
          first.isAge == second.isAge
        else { continue }
        // An instant after another has the smaller age.
        bound(relation, guard: first.isAge ? .above(second, first) : .above(first, second))
      case .presentFrom(let name, let countName, let minimum):
        guard let count = plain[countName].flatMap(variable), !count.isAge else { continue }
        for slot in each(name) where slot.isOptional {
          propagators.append(.presentFrom(fact: slot.name, count, minimum: minimum))
        }
      case .presentTogether(let familyName, let fromKey, let otherName):
        // Consecutive members share presence, so all of them do.
        let together = (members[familyName] ?? []).filter { member in
          guard case .int(let key) = member.key else { return false }
          return key >= fromKey && member.slot.isOptional
        }
        for (one, next) in zip(together, together.dropFirst()) {
          propagators.append(.samePresence(fact: one.slot.name, other: next.slot.name))
        }
        if let other = otherName.flatMap({ plain[$0] }), other.isOptional, let first = together.first {
          propagators.append(.presentWith(fact: other.name, other: first.slot.name))
        }
      case .membersSum(let familyName, let totalName):
        guard let total = plain[totalName].flatMap(variable), !total.isAge else { continue }
        // A member the slots lack is still at least each member of a family below it with the
        // same key (`events("a")` <= `total_events("a")`), so those count for it.
        let below = relations.compactMap { relation -> String? in
          guard case .bound(let bound) = relation.kind, bound.upper == familyName, bound.lower != familyName else {
            return nil
          }
          return bound.lower
        }
        var parts: [Value: [AnalysisVariable]] = [:]
        for family in [familyName] + below {
          for (key, slot) in members[family] ?? [] {
            if let part = variable(slot), !part.isAge { parts[key, default: []].append(part) }
          }
        }
        let keyed = parts.keys.sorted { $0.description < $1.description }.compactMap { parts[$0] }
        if !keyed.isEmpty { propagators.append(.sum(members: keyed, total: total)) }
      case .windowCovers(let familyName, let countName, let sinceName, let latestName, let longest, let kept):
        guard let count = plain[countName].flatMap(variable), !count.isAge, let since = plain[sinceName],
          !since.isOptional, let age = variable(since), age.isAge
        else { continue }
        let latestAge = plain[latestName].flatMap(variable).flatMap { $0.isAge ? $0 : nil }
        for (key, member) in members[familyName] ?? [] {
          guard case .duration(let window) = key, let within = variable(member), !within.isAge else { continue }
          propagators.append(
            .covers(
              count: count, member: within, age: age, latest: latestName, latestAge: latestAge,
              window: window.milliseconds, longest: longest.milliseconds, kept: kept))
        }
      case .distinct(let firstName, let secondName):
        guard let first = plain[firstName], let second = plain[secondName], let one = variable(first),
          let other = variable(second), one.kind == other.kind, one.kind != .string, !one.isAge
        else { continue }
        propagators.append(.distinct(one, fact: first.name, other, other: second.name))
      }
    }
    for (index, propagator) in propagators.enumerated() {
      for fact in Set(propagator.facts) { watchers[fact, default: []].append(index) }
    }
  }

  /// Whether there is nothing to propagate.
  var isEmpty: Bool { propagators.isEmpty }

  // MARK: - Propagation

  /// What a propagation found.
  enum Propagation {
    /// No fact set satisfying the relations is left.
    case contradiction
    /// The budget ran out.
    case outOfBudget
    /// The state is narrowed as far as the propagators go; whether it changed.
    case narrowed(changed: Bool)
  }

  /// Narrows `state` until no propagator changes it (or each has run 32 times). `changed` names
  /// the facts changed since the state was last propagated; nil means any may have.
  func propagate(_ state: inout TheoryState, changed: Set<String>? = nil, budget: SearchBudget) -> Propagation {
    guard !propagators.isEmpty else { return .narrowed(changed: false) }
    var queue: [Int]
    var queued: [Bool]
    if let changed {
      queued = Array(repeating: false, count: propagators.count)
      queue = []
      for fact in changed {
        for index in watchers[fact] ?? [] where !queued[index] {
          queued[index] = true
          queue.append(index)
        }
      }
    } else {
      queue = Array(propagators.indices)
      queued = Array(repeating: true, count: propagators.count)
    }
    // Each fact's bounds only ever narrow; the cap stops a slow walk of a bound through a huge domain.
    var applications = 0
    var changedAny = false
    let limit = propagators.count * 32
    while let index = queue.popLast() {
      queued[index] = false
      applications += 1
      guard applications <= limit else { break }
      guard budget.spend() else { return .outOfBudget }
      var touched: [String] = []
      guard apply(propagators[index], to: &state, touched: &touched) else { return .contradiction }
      changedAny = changedAny || !touched.isEmpty
      for fact in touched {
        for other in watchers[fact] ?? [] where other != index && !queued[other] {
          queued[other] = true
          queue.append(other)
        }
      }
    }
    return .narrowed(changed: changedAny)
  }

  /// The orders of `state`: those it assumed, and those the relations state there, each bound
  /// between two facts that are present and whose condition, if any, holds (see ``OrderEdge``).
  func orders(in state: TheoryState) -> [OrderEdge] {
    var edges = Array(state.orders)
    var open: [(edge: OrderEdge, condition: Guard)] = []
    for propagator in propagators {
      guard case .order(let lower, let lowerFact, let upper, let upperFact, let condition) = propagator,
        isPresent(lowerFact, state), isPresent(upperFact, state)
      else { continue }
      let edge = OrderEdge(lower, upper, strict: false)
      guard let condition else {
        edges.append(edge)
        continue
      }
      switch holds(condition, state) {
      case true?: edges.append(edge)
      case false?: continue
      case nil: open.append((edge, condition))
      }
    }
    guard !open.isEmpty, !state.orders.isEmpty else { return edges }
    // A condition that compares two facts also holds where the orders already imply it
    // (`total_sessions > sessions` written in the policy).
    let known = OrderGraph(edges)
    for (edge, condition) in open {
      switch condition {
      case .above(let variable, let other):
        if known.reaches(from: other, to: variable, strictly: true) { edges.append(edge) }
      case .atMost(let variable, let limit):
        if known.reaches(from: variable, to: limit, strictly: false) { edges.append(edge) }
      case .present, .absent, .atLeastOne: continue
      }
    }
    return edges
  }

  /// Whether `condition` holds in `state`: nil when that is not known yet.
  private func holds(_ condition: Guard, _ state: TheoryState) -> Bool? {
    switch condition {
    case .present(let fact): return state.presence[fact]
    case .absent(let fact): return state.presence[fact].map { !$0 }
    case .atLeastOne(let variable):
      guard let known = state.ordered[variable] else { return nil }
      if known.lower >= AnalysisKey(word: 1) { return true }
      if known.upper <= AnalysisKey(word: 0) { return false }
      return nil
    case .atMost(let variable, let limit):
      guard state.ordered[variable] != nil || state.ordered[limit] != nil else { return nil }
      let (value, most) = (domain(variable, state), domain(limit, state))
      if value.upper <= most.lower { return true }
      if value.lower > most.upper { return false }
      return nil
    case .above(let variable, let other):
      let presence = [variable.name, other.name].map { optional.contains($0) ? state.presence[$0] : true }
      if presence.contains(false) { return false }
      guard state.ordered[variable] != nil || state.ordered[other] != nil else { return nil }
      let (value, below) = (domain(variable, state), domain(other, state))
      if value.upper <= below.lower { return false }
      if value.lower > below.upper, !presence.contains(nil) { return true }
      return nil
    }
  }

  /// Whether fact `name` is known present in `state` (facts that cannot be absent always are).
  private func isPresent(_ name: String, _ state: TheoryState) -> Bool {
    !optional.contains(name) || state.presence[name] == true
  }

  /// Applies one propagator: false on a contradiction; `touched` gets the facts it narrowed.
  private func apply(_ propagator: Propagator, to state: inout TheoryState, touched: inout [String]) -> Bool {
    switch propagator {
    case .order(let lower, let lowerFact, let upper, let upperFact, let condition):
      guard isPresent(lowerFact, state), isPresent(upperFact, state) else { return true }
      let low = domain(lower, state)
      let high = domain(upper, state)
      guard state.ordered[lower] != nil || state.ordered[upper] != nil else { return true }
      if let condition {
        switch holds(condition, state) {
        case false?: return true
        case true?: break
        case nil:
          // Unknown: only when the order cannot hold must the guard fail.
          guard low.lower > high.upper else { return true }
          switch condition {
          case .present(let fact): return setPresence(fact, false, &state, &touched)
          case .absent(let fact): return setPresence(fact, true, &state, &touched)
          case .atLeastOne(let variable): return narrow(variable, atMost: AnalysisKey(word: 0), &state, &touched)
          case .atMost(let variable, let limit):
            // The guard fails: the variable is above the limit.
            let (value, most) = (domain(variable, state), domain(limit, state))
            guard most.lower < AnalysisKey(word: .max), value.upper > AnalysisKey(word: .min) else { return false }
            return narrow(variable, atLeast: most.lower.successor, &state, &touched)
              && narrow(limit, atMost: value.upper.predecessor, &state, &touched)
          case .above(let variable, let other):
            // The guard fails: one of the facts is absent, or the first is not above the second.
            let present = [variable.name, other.name].allSatisfy { isPresent($0, state) }
            guard present else { return true }
            let (value, below) = (domain(variable, state), domain(other, state))
            return narrow(variable, atMost: below.upper, &state, &touched)
              && narrow(other, atLeast: value.lower, &state, &touched)
          }
        }
      }
      return narrow(upper, atLeast: low.lower, &state, &touched)
        && narrow(lower, atMost: high.upper, &state, &touched)
    case .minimum(let variable, let fact, let key):
      guard isPresent(fact, state), state.ordered[variable] != nil else { return true }
      return narrow(variable, atLeast: key, &state, &touched)
    case .presentWith(let fact, let other):
      switch (state.presence[fact], state.presence[other]) {
      case (true?, _): return setPresence(other, true, &state, &touched)
      case (_, false?): return setPresence(fact, false, &state, &touched)
      case (false?, _), (nil, _): return true
      }
    case .samePresence(let fact, let other):
      switch (state.presence[fact], state.presence[other]) {
      case (let a?, let b?): return a == b
      case (let a?, nil): return setPresence(other, a, &state, &touched)
      case (nil, let b?): return setPresence(fact, b, &state, &touched)
      case (nil, nil): return true
      }
    case .presentWhenPositive(let fact, let variable):
      let one = AnalysisKey(word: 1)
      let zero = AnalysisKey(word: 0)
      switch state.presence[fact] {
      case true?: return narrow(variable, atLeast: one, &state, &touched)
      case false?: return narrow(variable, atMost: zero, &state, &touched)
      case nil:
        guard let known = state.ordered[variable] else { return true }
        if known.lower >= one { return setPresence(fact, true, &state, &touched) }
        if known.upper <= zero { return setPresence(fact, false, &state, &touched) }
        return true
      }
    case .wholeUnits(let count, let age, let unit):
      guard state.ordered[count] != nil || state.ordered[age] != nil else { return true }
      guard narrow(age, atLeast: AnalysisKey(word: 0), &state, &touched) else { return false }
      let counts = domain(count, state)
      // From the count: whole units, so the age is in [lower * unit, (upper + 1) * unit - 1].
      let lowestCount = max(counts.lower.word, 0)
      let (lowestAge, overflow) = lowestCount.multipliedReportingOverflow(by: unit)
      guard !overflow else { return false }
      guard narrow(age, atLeast: AnalysisKey(word: lowestAge), &state, &touched) else { return false }
      if counts.upper.word < 0 { return false }
      let (next, nextOverflow) = counts.upper.word.addingReportingOverflow(1)
      if !nextOverflow {
        let (highestAge, highOverflow) = next.multipliedReportingOverflow(by: unit)
        if !highOverflow, !narrow(age, atMost: AnalysisKey(word: highestAge - 1), &state, &touched) { return false }
      }
      // From the age.
      let ages = domain(age, state)
      return narrow(count, atLeast: AnalysisKey(word: max(ages.lower.word, 0) / unit), &state, &touched)
        && narrow(count, atMost: AnalysisKey(word: max(ages.upper.word, 0) / unit), &state, &touched)
    case .window(let count, let latest, let age, let window):
      let one = AnalysisKey(word: 1)
      let zero = AnalysisKey(word: 0)
      let counts = domain(count, state)
      if counts.lower >= one {
        guard setPresence(latest, true, &state, &touched) else { return false }
        guard window > Int64.min else { return false }
        return narrow(age, atMost: AnalysisKey(word: window - 1), &state, &touched)
      }
      switch state.presence[latest] {
      case false?: return narrow(count, atMost: zero, &state, &touched)
      case true?:
        let ages = domain(age, state)
        if ages.lower.word >= window { return narrow(count, atMost: zero, &state, &touched) }
        if ages.upper.word < window { return narrow(count, atLeast: one, &state, &touched) }
        if counts.upper <= zero && state.ordered[count] != nil {
          return narrow(age, atLeast: AnalysisKey(word: window), &state, &touched)
        }
        return true
      case nil: return true
      }
    case .covers(let count, let member, let age, let latest, let latestAge, let window, let longest, let kept):
      guard state.ordered[count] != nil || state.ordered[member] != nil || state.ordered[age] != nil else {
        return true
      }
      // Without a latest occurrence the count is 0, which every window holds.
      if state.presence[latest] == false { return true }
      let ages = domain(age, state)
      let counts = domain(count, state)
      let within = domain(member, state)
      let least = min(counts.lower.word, kept)
      if ages.lower.word >= window { return true }
      // How long after `since` the latest occurrence is: its age below the age of `since`.
      let latestAges = latestAge.map { domain($0, state) }
      let gapLow = latestAges.map { saturating(ages.lower.word, minus: $0.upper.word) } ?? Int64.min
      let gapHigh = saturating(ages.upper.word, minus: max(latestAges?.lower.word ?? 0, 0))
      if gapLow > longest { return true }
      let inWindow = ages.upper.word < window
      if inWindow && gapHigh <= longest {
        // It applies: the window holds at least the count (up to `kept`).
        guard narrow(member, atLeast: AnalysisKey(word: least), &state, &touched) else { return false }
        if within.upper.word < kept { return narrow(count, atMost: within.upper, &state, &touched) }
        return true
      }
      // Unknown: when the window cannot hold the count, one of the conditions fails; narrow
      // the other when the first holds for sure.
      guard least > within.upper.word else { return true }
      if gapHigh <= longest { return narrow(age, atLeast: AnalysisKey(word: window), &state, &touched) }
      guard inWindow, let latestAge, isPresent(latest, state), let latestAges else { return true }
      // The latest occurrence is more than `longest` after `since`.
      let (lowestSince, overflow) = latestAges.lower.word.addingReportingOverflow(longest)
      if !overflow, lowestSince < Int64.max,
        !narrow(age, atLeast: AnalysisKey(word: lowestSince + 1), &state, &touched)
      {
        return false
      }
      let highestLatest = saturating(domain(age, state).upper.word, minus: longest)
      guard highestLatest > Int64.min else { return false }
      return narrow(latestAge, atMost: AnalysisKey(word: highestLatest - 1), &state, &touched)
    case .presentFrom(let fact, let count, let minimum):
      switch state.presence[fact] {
      case true?: return true
      case false?:
        return minimum <= Int64.min || narrow(count, atMost: AnalysisKey(word: minimum - 1), &state, &touched)
      case nil:
        guard state.ordered[count] != nil, domain(count, state).lower.word >= minimum else { return true }
        return setPresence(fact, true, &state, &touched)
      }
    case .sum(let members, let total):
      // The total is at least the members' least sum. Only the total narrows: narrowing each
      // member to what the others leave would wake this propagator once per member, and a
      // family of n members would cost n^2 reads per change (a remote update has 64 events). A
      // member above its room still fails here once its lower bound rises.
      var least: Int64 = 0
      for member in members {
        let low = member.reduce(0) { max($0, state.ordered[$1]?.lower.word ?? 0) }
        guard low > 0 else { continue }
        let (next, overflow) = least.addingReportingOverflow(low)
        least = overflow ? Int64.max : next
      }
      return least == 0 || narrow(total, atLeast: AnalysisKey(word: least), &state, &touched)
    case .distinct(let one, let fact, let other, let otherFact):
      guard isPresent(fact, state), isPresent(otherFact, state) else { return true }
      // A variable settled to one value excludes it from the other.
      for (settled, open) in [(one, other), (other, one)] {
        let known = domain(settled, state)
        guard state.ordered[settled] != nil, known.lower == known.upper, known.admits(known.lower) else { continue }
        guard domain(open, state).admits(known.lower) else { continue }
        guard narrow(open, .noneOf([known.lower]), &state, &touched) else { return false }
      }
      return true
    }
  }

  private func domain(_ variable: AnalysisVariable, _ state: TheoryState) -> OrderedDomain {
    state.ordered[variable] ?? OrderedDomain(kind: variable.kind)
  }

  /// `a - b`, held at the ends of `Int64` rather than overflowing.
  private func saturating(_ a: Int64, minus b: Int64) -> Int64 {
    let (difference, overflow) = a.subtractingReportingOverflow(b)
    guard overflow else { return difference }
    return b < 0 ? .max : .min
  }

  /// Raises the lower bound of `variable` to `key` (no change when it is already there).
  private func narrow(
    _ variable: AnalysisVariable, atLeast key: AnalysisKey, _ state: inout TheoryState, _ touched: inout [String]
  ) -> Bool {
    key > domain(variable, state).lower ? narrow(variable, .atLeast(key), &state, &touched) : true
  }

  /// Lowers the upper bound of `variable` to `key` (no change when it is already there).
  private func narrow(
    _ variable: AnalysisVariable, atMost key: AnalysisKey, _ state: inout TheoryState, _ touched: inout [String]
  ) -> Bool {
    key < domain(variable, state).upper ? narrow(variable, .atMost(key), &state, &touched) : true
  }

  /// Applies the bound `relation` to `variable`'s domain, keeping its ends admissible: false
  /// when no value is left.
  private func narrow(
    _ variable: AnalysisVariable, _ relation: Relation, _ state: inout TheoryState, _ touched: inout [String]
  ) -> Bool {
    var current = domain(variable, state)
    current.apply(relation)
    current.normalize()
    guard current.isSatisfiable else { return false }
    state.ordered[variable] = current
    touched.append(variable.name)
    return true
  }

  /// Sets the presence of `fact`: false when it is known otherwise (or constrained while made absent).
  private func setPresence(_ fact: String, _ value: Bool, _ state: inout TheoryState, _ touched: inout [String])
    -> Bool
  {
    if let known = state.presence[fact] { return known == value }
    if !optional.contains(fact) { return value }
    state.presence[fact] = value
    touched.append(fact)
    return true
  }
}

extension OrderedDomain {
  /// Moves the bounds past excluded keys, so both are admissible (or the domain is empty); at
  /// most as many steps as there are excluded keys.
  mutating func normalize() {
    guard !excluded.isEmpty, allowed == nil else { return }
    for _ in 0...excluded.count where lower <= upper && excluded.contains(lower) {
      if lower == upper {
        allowed = []
        return
      }
      lower = lower.successor
    }
    for _ in 0...excluded.count where lower <= upper && excluded.contains(upper) {
      if lower == upper {
        allowed = []
        return
      }
      upper = upper.predecessor
    }
  }
}

extension RelationAxioms {
  /// The related facts of `slots`, each after every fact an order relation puts below it (the
  /// smaller count, the later instant) and every age a count is worked out from, otherwise in the slots' order: each then takes the value
  /// it prefers within what the facts below it left, so examples stay small and tight.
  func labelingOrder(_ slots: [WitnessSlot]) -> [WitnessSlot] {
    let related = slots.filter { watchers[$0.name] != nil }
    let position = Dictionary(related.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    var below = Array(repeating: 0, count: related.count)
    var above: [[Int]] = Array(repeating: [], count: related.count)
    for propagator in propagators {
      // An age comes before the counts it determines.
      let edge: (String, String)
      switch propagator {
      case .order(_, let lower, _, let upper, _): edge = (lower, upper)
      case .wholeUnits(let count, let age, _): edge = (age.name, count.name)
      case .window(let count, let latest, _, _): edge = (latest, count.name)
      case .covers(let count, let member, _, _, _, _, _, _): edge = (count.name, member.name)
      case .minimum, .samePresence, .presentWith, .presentWhenPositive, .distinct, .sum, .presentFrom: continue
      }
      guard let low = position[edge.0], let high = position[edge.1], low != high else { continue }
      below[high] += 1
      above[low].append(high)
    }
    // Kahn's algorithm, taking the earliest ready slot each time; what a cycle leaves comes last.
    var ready = related.indices.filter { below[$0] == 0 }
    var order: [Int] = []
    var placed = Array(repeating: false, count: related.count)
    while let next = ready.min() {
      ready.removeAll { $0 == next }
      order.append(next)
      placed[next] = true
      for high in above[next] {
        below[high] -= 1
        if below[high] == 0 { ready.append(high) }
      }
    }
    order += related.indices.filter { !placed[$0] }
    return order.map { related[$0] }
  }

  /// `state` with every fact of `slots` settled to one value (or to absence) that the relations
  /// allow, preferring what `preferred` names for each (as ``WitnessBuilder`` would pick it);
  /// nil when some fact has no value left that the propagators accept. Bounded: each fact tries
  /// at most three values, each propagation at most 32 passes of each propagator. With
  /// `presentFirst`, an optional fact left open is tried present before absent.
  func label(
    _ state: TheoryState, slots: [WitnessSlot], presentFirst: Bool = false,
    preferred: (WitnessSlot, AnalysisVariable, OrderedDomain) -> AnalysisKey?
  ) -> TheoryState? {
    let budget = SearchBudget(steps: max(10_000, propagators.count * slots.count * 8))
    var current = state
    guard case .narrowed = propagate(&current, budget: budget) else { return nil }
    func settled(_ trial: inout TheoryState, _ fact: String) -> Bool {
      guard case .narrowed = propagate(&trial, changed: [fact], budget: budget) else { return false }
      // The policy's orders between facts (`days < total_days`) narrow the facts not settled yet.
      guard !trial.orders.isEmpty else { return true }
      var narrowed = Set<String>()
      let edges = orders(in: trial)
      guard budget.spend(edges.count), OrderEdge.propagateBounds(edges, &trial, narrowed: &narrowed) else {
        return false
      }
      if narrowed.isEmpty { return true }
      if case .narrowed = propagate(&trial, changed: narrowed, budget: budget) { return true }
      return false
    }
    for slot in labelingOrder(slots) {
      if slot.isOptional && current.presence[slot.name] == nil {
        var first = current
        first.presence[slot.name] = presentFirst
        if settled(&first, slot.name) {
          current = first
        } else {
          current.presence[slot.name] = !presentFirst
          guard settled(&current, slot.name) else { return nil }
        }
      }
      guard current.presence[slot.name] ?? !slot.isOptional else { continue }
      let variable: AnalysisVariable
      if slot.type == .instant {
        variable = AnalysisVariable(name: slot.name, isAge: true, kind: .age)
      } else if let kind = VariableKind(valueOf: slot.type), kind != .string {
        variable = AnalysisVariable(name: slot.name, isAge: false, kind: kind)
      } else {
        continue
      }
      let domain = current.ordered[variable] ?? OrderedDomain(kind: variable.kind)
      var candidates: [AnalysisKey] = []
      if let key = preferred(slot, variable, domain) { candidates.append(key) }
      candidates += [domain.lower, domain.upper].filter(domain.admits)
      var done = false
      for key in candidates {
        var trial = current
        trial.ordered[variable] = domain
        trial.ordered[variable]?.apply(.oneOf([key]))
        if settled(&trial, slot.name) {
          current = trial
          done = true
          break
        }
      }
      guard done else { return nil }
    }
    return current
  }
}
