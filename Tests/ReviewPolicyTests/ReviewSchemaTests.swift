import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

@Suite("the standard review schema")
struct ReviewSchemaTests {
  @Test("the schema is valid: it is the same list as its definitions, not the empty fallback")
  func schemaIsValid() throws {
    let rebuilt = try FactSchema(facts: ReviewSchema.facts, families: ReviewSchema.families)
      .relating(scopes: ReviewSchema.scopes, relations: ReviewSchema.relations)
    #expect(rebuilt == ReviewSchema.standard)
    #expect(ReviewSchema.standard.facts.count == ReviewSchema.facts.count)
    #expect(ReviewSchema.standard.facts.count > 20)
    #expect(ReviewSchema.standard.relations.count == ReviewSchema.relations.count)
  }

  @Test("scopes pair each per-version fact with its lifetime counterpart")
  func scopesAndCounterparts() throws {
    let schema = ReviewSchema.standard
    let lifetime = try #require(schema.scopes.first { $0.name == "the whole install" })
    let version = try #require(schema.scopes.first { $0.name == "this version" })
    #expect(schema.counterpart(of: "declined", in: lifetime) == "declined_any")
    #expect(schema.counterpart(of: "rated", in: lifetime) == "rated_any")
    #expect(schema.counterpart(of: "total_days", in: version) == "days")
    #expect(schema.counterpart(of: "days", in: version) == "days")
    #expect(schema.scope(of: "total_uses")?.name == "the whole install")
  }

  @Test("a relation naming an unknown fact, or facts of different types, is refused")
  func invalidRelations() throws {
    let schema = try FactSchema(facts: ReviewSchema.facts, families: ReviewSchema.families)
    #expect(throws: FactSchema.DefinitionError.invalidRelation("dayz")) {
      try schema.relating(scopes: [FactScope("x", facts: ["dayz"])], bounds: [])
    }
    #expect(throws: FactSchema.DefinitionError.invalidRelation("days")) {
      try schema.relating(scopes: [], bounds: [FactBound("days", atMost: "declined_any", because: "no")])
    }
    // A bound may be conditioned on an optional family's presence, not on a count or flag of it.
    let sessions = FactBound("total_sessions", atMost: "sessions", because: "")
    #expect(throws: Never.self) {
      try schema.relating(
        scopes: [], relations: [FactRelation(.boundWhen(sessions, when: .absent("average_score")), because: "")])
    }
    for condition: PresenceCondition in [.positive("average_score"), .present("events"), .absent("average_scores")] {
      #expect(throws: FactSchema.DefinitionError.invalidRelation("total_sessions")) {
        try schema.relating(scopes: [], relations: [FactRelation(.boundWhen(sessions, when: condition), because: "")])
      }
    }
    let bound = FactBound("days", atMost: "total_days", because: "part")
    #expect(bound.isBroken(lower: .int(50), upper: .int(40)))
    #expect(!bound.isBroken(lower: .int(40), upper: .int(40)))
    #expect(
      FactBound("declined", atMost: "declined_any", because: "").isBroken(lower: .bool(true), upper: .bool(false)))
  }

  @Test("every plain fact is declared once with its source: each computed fact once, each stored member once")
  func declarationsCoverSchema() {
    #expect(ReviewSchema.declarations.map(\.definition.name) == ReviewSchema.facts.map(\.name))
    var computed: [ComputedFact] = []
    var keys: [String] = []
    for declaration in ReviewSchema.declarations {
      switch declaration.source {
      case .computed(let fact): computed.append(fact)
      case .count(_, let key, _), .flag(_, let key, _): keys.append(key)
      }
    }
    #expect(computed.count == ComputedFact.allCases.count)
    #expect(Set(computed).count == ComputedFact.allCases.count)
    #expect(Set(keys).count == keys.count)
    // A stored member's key is the one the state's `Codable` writes (every member set, so none is left out).
    var state = ReviewState()
    for count in StoredFacts.counts { state[keyPath: count.path] = 7 }
    for flag in StoredFacts.flags { state[keyPath: flag.path] = true }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let foundation = (try? encoder.encode(state)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    for key in keys { #expect(foundation.contains("\"\(key)\":7") || foundation.contains("\"\(key)\":true"), "\(key)") }
    #expect(Set(StandardFamily.allCases.map(\.rawValue)) == Set(ReviewSchema.families.map(\.name)))
  }

  @Test("a per-version fact is part of a lifetime fact of its type, and the bounds say so")
  func partsAreBounds() throws {
    for declaration in ReviewSchema.declarations {
      guard let whole = declaration.partOf else { continue }
      let lifetime = try #require(ReviewSchema.declarations.first { $0.definition.name == whole })
      #expect(declaration.scope == .version, "\(declaration.definition.name)")
      #expect(lifetime.scope == .install, "\(whole)")
      #expect(lifetime.definition.type == declaration.definition.type, "\(whole)")
      #expect(ReviewSchema.standard.bounds.contains { $0.lower == declaration.definition.name && $0.upper == whole })
    }
  }

  @Test("the facts the issue names are present with their types")
  func requiredFacts() throws {
    let expected: [(String, PolicyType, Bool)] = [
      ("days", .int, false), ("uses", .int, false), ("events", .int, false), ("declined", .bool, false),
      ("rated", .bool, false), ("total_days", .int, false), ("total_uses", .int, false),
      ("total_events", .int, false), ("declined_any", .bool, false), ("rated_any", .bool, false),
      ("last_prompt", .instant, true), ("last_reminder", .instant, true), ("version", .version, false),
      ("last_prompt_version", .version, true), ("sessions", .int, false), ("session_score", .number, false),
    ]
    for (name, type, optional) in expected {
      let fact = try #require(ReviewSchema.standard.fact(named: name), "missing \(name)")
      #expect(fact.type == type, "\(name)")
      #expect(fact.isOptional == optional, "\(name)")
      #expect(!fact.meaning.isEmpty)
    }
    #expect(ReviewSchema.standard.family(named: "events")?.keyType == .string)
    #expect(ReviewSchema.standard.family(named: "average_score")?.isOptional == true)
  }

  @Test("every fact and family has an example that compiles cleanly against the schema")
  func examplesCompile() throws {
    var examples: [String] = ReviewSchema.facts.compactMap(\.example)
    examples += ReviewSchema.families.compactMap(\.example)
    #expect(examples.count == ReviewSchema.facts.count + ReviewSchema.families.count)
    for example in examples {
      let compilation = PolicyCompiler.compile(example, path: "example", schema: ReviewSchema.standard)
      #expect(compilation.diagnostics.isEmpty, "\(example): \(compilation.diagnostics.map(\.message))")
      #expect(compilation.policy != nil)
    }
  }

  @Test("defaults have the fact's type, and required facts without a default are exactly the instants and the version")
  func defaults() {
    for fact in ReviewSchema.facts {
      if let value = fact.defaultValue { #expect(value.type == fact.type, "\(fact.name)") }
    }
    let noDefault = ReviewSchema.facts.filter { !$0.isOptional && $0.defaultValue == nil }.map(\.name).sorted()
    #expect(noDefault == ["first_use", "install_date", "version"])
  }
}
