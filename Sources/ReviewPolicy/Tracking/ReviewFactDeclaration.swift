import PolicyCore

/// One standard review fact, declared once: its schema entry, where its value comes from, which
/// span it covers, and the lifetime fact it is part of.
///
/// A fact stored in ``ReviewState`` as a count or a flag needs nothing else: the binder reads it,
/// a new app version resets it (per-version facts), merging two copies of a state combines it
/// (a count takes the higher value, a flag either side's), a stored state that lost it is found
/// behind (lifetime facts), the JSON codec reads and writes it, and the analyzer learns its
/// relation to the lifetime fact, all from this declaration (``ReviewSchema/declarations``).
/// Computed facts (days, instants, versions, session facts) are filled by the binder's switch
/// over ``ComputedFact``.
struct ReviewFactDeclaration: Sendable {
  /// The span a fact covers.
  enum Scope: Sendable, Hashable {
    /// This app version: starts again when the version changes.
    case version
    /// The whole install.
    case install
  }

  /// Where a fact's value comes from.
  enum Source: Sendable {
    /// A count stored in the state under `key` in its JSON.
    case count(WritableKeyPath<ReviewState, Int> & Sendable, key: String, coding: Coding)
    /// A flag stored in the state under `key` in its JSON.
    case flag(WritableKeyPath<ReviewState, Bool> & Sendable, key: String, coding: Coding)
    /// Computed from the state by ``ReviewFactBinder``.
    case computed(ComputedFact)
  }

  /// How a stored member is written.
  enum Coding: Sendable, Hashable {
    /// Always written.
    case always
    /// Left out while 0 or false, and read as such when absent: a member added after states
    /// were first stored (older states load, and a state that never set it is written as before).
    /// Its property carries ``OmittedWhenZero``.
    case omittedWhenZero
  }

  /// The fact as policies see it.
  let definition: FactDefinition
  /// Where its value comes from.
  let source: Source
  /// The span it covers, for the analyzer and `policyc facts`; nil when it is not a count or an
  /// answer of one span (versions, sessions, prompts).
  let scope: Scope?
  /// The lifetime fact this per-version one is part of (`uses` of `total_uses`, `declined` of
  /// `declined_any`): the analyzer learns `uses` ≤ `total_uses` and `declined` ⇒ `declined_any`.
  let partOf: String?

  /// A fact stored as a count.
  @inline(never)
  static func count(
    _ name: String, _ path: WritableKeyPath<ReviewState, Int> & Sendable, key: String, scope: Scope,
    partOf: String? = nil, coding: Coding = .always, meaning: String, unit: String, example: String
  ) -> ReviewFactDeclaration {
    ReviewFactDeclaration(
      definition: FactDefinition(
        name, .int, meaning: meaning, unit: unit, defaultValue: .int(0), example: example),
      source: .count(path, key: key, coding: coding), scope: scope, partOf: partOf)
  }

  /// A fact stored as a flag.
  static func flag(
    _ name: String, _ path: WritableKeyPath<ReviewState, Bool> & Sendable, key: String, scope: Scope,
    partOf: String? = nil, coding: Coding = .always, meaning: String, example: String
  ) -> ReviewFactDeclaration {
    ReviewFactDeclaration(
      definition: FactDefinition(name, .bool, meaning: meaning, defaultValue: .bool(false), example: example),
      source: .flag(path, key: key, coding: coding), scope: scope, partOf: partOf)
  }

  /// A fact the binder computes.
  static func computed(
    _ fact: ComputedFact, _ definition: FactDefinition, scope: Scope? = nil, partOf: String? = nil
  ) -> ReviewFactDeclaration {
    ReviewFactDeclaration(definition: definition, source: .computed(fact), scope: scope, partOf: partOf)
  }
}

/// The stored counts and flags of the standard review facts, from their declarations: what the
/// state's reset, merge, bounds and codec iterate over.
enum StoredFacts {
  /// A stored count: its key path, JSON key, coding and span.
  struct Count: Sendable {
    let path: WritableKeyPath<ReviewState, Int> & Sendable
    let key: String
    let coding: ReviewFactDeclaration.Coding
    let scope: ReviewFactDeclaration.Scope?
  }

  /// A stored flag: its key path, JSON key, coding and span.
  struct Flag: Sendable {
    let path: WritableKeyPath<ReviewState, Bool> & Sendable
    let key: String
    let coding: ReviewFactDeclaration.Coding
    let scope: ReviewFactDeclaration.Scope?
  }

  /// Every stored count, in declaration order.
  static let counts: [Count] = ReviewSchema.declarations.compactMap { declaration in
    guard case .count(let path, let key, let coding) = declaration.source else { return nil }
    return Count(path: path, key: key, coding: coding, scope: declaration.scope)
  }

  /// Every stored flag, in declaration order.
  static let flags: [Flag] = ReviewSchema.declarations.compactMap { declaration in
    guard case .flag(let path, let key, let coding) = declaration.source else { return nil }
    return Flag(path: path, key: key, coding: coding, scope: declaration.scope)
  }
}
