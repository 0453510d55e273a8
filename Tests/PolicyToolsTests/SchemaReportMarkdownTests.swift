import PolicyCore
import PolicyTools
import Testing

/// `SchemaReport.markdown` on a small schema of its own, so the layout is pinned down apart from
/// the review schema (whose page, docs/facts.md, `FactsReferenceTests` checks).
@Suite("SchemaReport.markdown")
struct SchemaReportMarkdownTests {
  static func schema() throws -> FactSchema {
    try FactSchema(
      facts: [
        FactDefinition("score", .int, meaning: "points in this run", unit: "points", defaultValue: .int(0)),
        FactDefinition("total_score", .int, meaning: "points in all runs", unit: "points", defaultValue: .int(0)),
        FactDefinition(
          "seen", .instant, isOptional: true, meaning: "when it was seen; absent if never", example: "since(seen) > 1d"),
        FactDefinition("label", .string, isOptional: true, meaning: "a label | a tag", example: "has label"),
        FactDefinition("started", .instant, meaning: "when the run started"),
      ],
      families: [
        FactFamilyDefinition(
          "hits", key: .string, keyMeaning: "event name", .int, meaning: "hits in this run", defaultValue: .int(0),
          example: "hits(\"a\") > 1", keyIsEventName: true),
        FactFamilyDefinition(
          "total_hits", key: .string, keyMeaning: "event name", .int, meaning: "hits in all runs",
          defaultValue: .int(0)),
      ]
    ).relating(
      scopes: [
        FactScope("this run", facts: ["score", "hits"]), FactScope("all runs", facts: ["total_score", "total_hits"]),
      ],
      relations: [
        .bound("score", atMost: "total_score", because: "a run is part of all runs"),
        .bound("hits", atMost: "total_hits", because: "a run's hits are hits"),
        .bound("started", atMost: "seen", because: "nothing is seen before the start"),
        FactRelation(.minimum("score", .int(0)), because: "points are never negative"),
      ])
  }

  static let page = SchemaReport.Page(
    header: "generated; do not edit", title: "Toy facts", introduction: "A toy schema.\n",
    sections: [SchemaReport.Section(title: "Notes", body: "Some notes.")])

  @Test("the page: header, title, introduction, a table per scope, other facts, relations, then the sections")
  func page() throws {
    let expected = #"""
      generated; do not edit

      # Toy facts

      A toy schema.

      In the tables, `?` after a type means the fact can be absent, and *absent* says when.
      *Default* is the value until the host sets one (a fact that can be absent is then absent;
      — means the host always sets it). A keyed family, such as `name(key)`, is one fact per
      literal key, written `name("x")`; its type names the key's type too.

      ## This run

      | fact | type | meaning | unit | default | absent | example |
      |---|---|---|---|---|---|---|
      | `score` | `int` | points in this run | points | `0` | — | — |
      | `hits(event_name)` | `int`; key `string`, an event name | hits in this run | — | `0` | — | `hits("a") > 1` |

      ## All runs

      | fact | type | meaning | unit | default | absent | example |
      |---|---|---|---|---|---|---|
      | `total_score` | `int` | points in all runs | points | `0` | — | — |
      | `total_hits(event_name)` | `int`; key `string` | hits in all runs | — | `0` | — | — |

      ## Other facts

      Facts in no scope.

      | fact | type | meaning | unit | default | absent | example |
      |---|---|---|---|---|---|---|
      | `seen` | `instant?` | when it was seen | — | absent | if never | `since(seen) > 1d` |
      | `label` | `string?` | a label \| a tag | — | absent | can be absent | `has label` |
      | `started` | `instant` | when the run started | — | — | — | — |

      ## Relations

      The schema states how its facts relate in every real history. The analyzer and `policyc
      diff` search only fact sets that satisfy every relation, so each warning, example and
      counterexample describes a user who can exist, and a rule that needs facts breaking one is
      reported as never holding (PC310, PC312; PC319 when no one is ever asked). `policyc eval`,
      `explain` and `test` check facts files against the relations: a given fact that the policy
      never reads is a warning that names the fact it reads instead, its counterpart in the other
      scope (PC409), and given facts that break a relation, with each other or with the default
      of a fact the policy reads, are an error (PC410).

      ### Scopes

      A scope holds the facts that describe one span of time.

      | scope | facts |
      |---|---|
      | this run | `score`, `hits` |
      | all runs | `total_score`, `total_hits` |

      ### Bounds

      Every real history satisfies each bound.

      | bound | because |
      |---|---|
      | `score` ≤ `total_score` | a run is part of all runs |
      | `hits(k)` ≤ `total_hits(k)` for every key | a run's hits are hits |
      | `started` is not after `seen` | nothing is seen before the start |

      ### Other relations

      Every real history satisfies each of these too.

      | relation | because |
      |---|---|
      | `score` >= 0 | points are never negative |

      ## Notes

      Some notes.

      """#
    let output = SchemaReport.markdown(try Self.schema(), page: Self.page)
    #expect(output == expected)
  }

  @Test("a schema without scopes or bounds has one table of facts and no relations")
  func plainSchema() throws {
    let schema = try FactSchema(facts: [FactDefinition("n", .int, meaning: "a number", defaultValue: .int(1))])
    let output = SchemaReport.markdown(schema, page: SchemaReport.Page(title: "T", introduction: "I"))
    #expect(output.hasPrefix("# T\n\nI\n\n"))
    #expect(output.contains("\n## Facts\n\n| fact |"))
    #expect(output.contains("| `n` | `int` | a number | — | `1` | — | — |\n"))
    #expect(!output.contains("## Relations"))
    #expect(!output.contains("Other facts"))
    #expect(output.hasSuffix("|\n") && !output.hasSuffix("\n\n"))
  }
}
