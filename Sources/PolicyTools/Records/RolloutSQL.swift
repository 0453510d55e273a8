/// The rollout read-out as plain SQL (issue 26): the same figures as `policyc report`, one query
/// per report table, for records kept in a warehouse (docs/records.md, "The read-out in SQL").
///
/// The queries read a table or view `records` with the format's columns (`install`, `time`,
/// `event`, `policy`, `asked`, `answer`) and one column `bucket_NAME` per `bucket("NAME")` the
/// given policies read (the value of `buckets.NAME`): how to make it differs by engine (the
/// header says how in DuckDB; docs/records.md for others). Everything after it is standard SQL
/// (`CASE`, `||`, `SUBSTR`, `NULLIF`, `COALESCE`, `ROW_NUMBER() OVER`, `SQRT`) that DuckDB,
/// BigQuery, Snowflake, PostgreSQL and Spark SQL run as written.
package enum RolloutSQL {
  /// The 97.5th percentile of the standard normal distribution, as in ``Proportion/z``.
  static let z = "1.959963984540054"

  /// The queries for `policies` (fingerprints with their arm rules), as one script: a header
  /// comment, then the arms query, then the comparisons query, each ending in `;`.
  package static func script(policies: [String: [RolloutTally.ArmRule]]) -> String {
    let buckets = Set(policies.values.flatMap { $0.flatMap(\.ranges.keys) }).sorted()
    var out = """
      -- The rollout read-out of `policyc report` as SQL (docs/records.md, "The read-out in SQL").
      -- It reads a table or view `records` with the record format's columns\(buckets.isEmpty ? "." : " and one column per bucket:")

      """
    for name in buckets { out += "--   \(column(name)): the value of buckets.\(name)\n" }
    out += """
      -- In DuckDB:
      --   CREATE VIEW records AS SELECT *\(buckets.map { ", buckets['\(literalBody($0))'] AS \(column($0))" }.joined())
      --   FROM read_json('records.jsonl', format = 'newline_delimited', columns = {install: 'VARCHAR',
      --     time: 'TIMESTAMP', event: 'VARCHAR', policy: 'VARCHAR', asked: 'BOOLEAN', answer: 'VARCHAR',
      --     buckets: 'MAP(VARCHAR, INTEGER)'});
      -- Query 1, arms: per policy and rollout arm, the installs, checks, asks, prompts shown, and the
      -- shares of installs prompted and of prompted installs that rated or declined, each with its
      -- 95% Wilson score interval. Query 2, comparisons: the arms compared as `policyc report`
      -- compares them, with the ratio of prompted shares and the difference in the rated share with
      -- Newcombe's hybrid score interval.


      """
    let installs = installsCTE(policies: policies)
    out += "WITH " + installs + ",\n" + armsCTE + "\n" + armsSelect + ";\n\n"
    out += "WITH " + installs + ",\n" + armsCTE + ",\n" + comparisonsCTE + "\n" + comparisonsSelect + ";\n"
    return out
  }

  /// `bucket_NAME`, quoted.
  static func column(_ bucket: String) -> String {
    "\"bucket_" + bucket.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `text` for the inside of a single-quoted SQL literal.
  static func literalBody(_ text: String) -> String {
    text.replacingOccurrences(of: "'", with: "''")
  }

  /// `text` as a single-quoted SQL literal.
  static func literal(_ text: String) -> String { "'" + literalBody(text) + "'" }

  /// The arm of a check: per known policy, the rules whose bucket ranges hold, joined by `+`
  /// (`rest` when none does); `all` for another policy.
  static func armExpression(policies: [String: [RolloutTally.ArmRule]]) -> String {
    var cases: [String] = []
    for fingerprint in policies.keys.sorted() {
      guard let rules = policies[fingerprint], !rules.isEmpty else { continue }
      let parts = rules.map { rule in
        let holds = rule.ranges.keys.sorted().compactMap { name -> String? in
          guard let range = rule.ranges[name] else { return nil }
          return "\(column(name)) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        }
        return "CASE WHEN \(holds.joined(separator: " AND ")) THEN \(literal("+" + rule.name)) ELSE '' END"
      }
      cases.append(
        "      WHEN policy = \(literal(fingerprint)) THEN COALESCE(NULLIF(SUBSTR(\n        "
          + parts.joined(separator: "\n        || ") + ", 2), ''), 'rest')")
    }
    guard !cases.isEmpty else { return "'all'" }
    return "CASE\n" + cases.joined(separator: "\n") + "\n      ELSE 'all'\n    END"
  }

  /// The per-install counts with each install's arm (of its earliest check).
  static func installsCTE(policies: [String: [RolloutTally.ArmRule]]) -> String {
    """
    checks AS (
      SELECT install, time, policy,
        \(armExpression(policies: policies)) AS arm
      FROM records
      WHERE asked IS NOT NULL AND policy IS NOT NULL
    ),
    first_checks AS (
      SELECT install, policy, arm FROM (
        SELECT install, policy, arm,
          ROW_NUMBER() OVER (PARTITION BY install ORDER BY time, policy, arm) AS position
        FROM checks
      ) ranked
      WHERE position = 1
    ),
    per_install AS (
      SELECT install,
        SUM(CASE WHEN asked IS NOT NULL THEN 1 ELSE 0 END) AS checks,
        SUM(CASE WHEN asked THEN 1 ELSE 0 END) AS asks,
        SUM(CASE WHEN event = 'promptShown' THEN 1 ELSE 0 END) AS shown,
        MAX(CASE WHEN event = 'response' AND answer = 'rated' THEN 1 ELSE 0 END) AS rated,
        MAX(CASE WHEN event = 'response' AND answer = 'declined' THEN 1 ELSE 0 END) AS declined
      FROM records
      GROUP BY install
    )
    """
  }

  /// The shares of the read-out: name, successes and trials.
  static let shares = [
    ("prompted", "prompted_installs", "installs"), ("rated", "rated_installs", "prompted_installs"),
    ("declined", "declined_installs", "prompted_installs"),
  ]

  /// The arms' counts, then their shares with the Wilson interval's centre and half-width, then
  /// the interval clamped to 0...1 (null with no trials).
  static let armsCTE: String = {
    let z2 = "(\(z) * \(z))"
    let rates = shares.map { name, successes, trials in
      "    CASE WHEN \(trials) = 0 THEN NULL ELSE 1.0 * \(successes) / \(trials) END AS \(name)_rate,\n"
        + "    CASE WHEN \(trials) = 0 THEN NULL ELSE 1.0 * \(trials) END AS \(name)_n"
    }
    let terms = shares.map { name, _, _ in
      "    (\(name)_rate + \(z2) / (2 * \(name)_n)) / (1 + \(z2) / \(name)_n) AS \(name)_center,\n"
        + "    \(z) / (1 + \(z2) / \(name)_n)\n"
        + "      * SQRT(\(name)_rate * (1 - \(name)_rate) / \(name)_n + \(z2) / (4 * \(name)_n * \(name)_n)) AS \(name)_half"
    }
    let intervals = shares.map { name, _, _ in
      "    \(name)_rate,\n"
        + "    CASE WHEN \(name)_center - \(name)_half < 0 THEN 0 ELSE \(name)_center - \(name)_half END AS \(name)_low,\n"
        + "    CASE WHEN \(name)_center + \(name)_half > 1 THEN 1 ELSE \(name)_center + \(name)_half END AS \(name)_high"
    }
    return """
      arm_counts AS (
        SELECT f.policy, f.arm,
          COUNT(*) AS installs,
          SUM(i.checks) AS checks,
          SUM(i.asks) AS asks,
          SUM(i.shown) AS shown,
          SUM(CASE WHEN i.shown > 0 THEN 1 ELSE 0 END) AS prompted_installs,
          SUM(CASE WHEN i.shown > 0 AND i.rated = 1 THEN 1 ELSE 0 END) AS rated_installs,
          SUM(CASE WHEN i.shown > 0 AND i.declined = 1 THEN 1 ELSE 0 END) AS declined_installs
        FROM first_checks f JOIN per_install i ON i.install = f.install
        GROUP BY f.policy, f.arm
      ),
      share_rates AS (
        SELECT arm_counts.*,

      """ + rates.joined(separator: ",\n") + """

          FROM arm_counts
        ),
        share_terms AS (
          SELECT share_rates.*,

        """ + terms.joined(separator: ",\n") + """

            FROM share_rates
          ),
          arms AS (
            SELECT policy, arm, installs, checks, asks, shown, prompted_installs, rated_installs, declined_installs,

          """ + intervals.joined(separator: ",\n") + """

            FROM share_terms
          )
          """
  }()

  /// Query 1's select.
  static let armsSelect = """
    SELECT policy, arm, installs, checks, asks, shown, prompted_installs, rated_installs, declined_installs,
      prompted_rate, prompted_low, prompted_high, rated_rate, rated_low, rated_high,
      declined_rate, declined_low, declined_high
    FROM arms
    ORDER BY policy, arm
    """

  /// The pairs of arms compared, as ``RolloutReport/pairs(_:)`` pairs them: two arms in name
  /// order; of more, each with the one with the most installs (the first by name among equals).
  static let comparisonsCTE = """
    ranked AS (
      SELECT arms.*,
        ROW_NUMBER() OVER (PARTITION BY policy ORDER BY arm) AS by_name,
        ROW_NUMBER() OVER (PARTITION BY policy ORDER BY installs DESC, arm) AS by_size,
        COUNT(*) OVER (PARTITION BY policy) AS arm_count
      FROM arms
    ),
    pairs AS (
      SELECT a.policy, a.arm AS arm, b.arm AS other,
        a.prompted_rate AS pa, b.prompted_rate AS pb,
        a.rated_rate AS r1, a.rated_low AS l1, a.rated_high AS h1,
        b.rated_rate AS r2, b.rated_low AS l2, b.rated_high AS h2
      FROM ranked a JOIN ranked b ON a.policy = b.policy
      WHERE (a.arm_count = 2 AND a.by_name = 1 AND b.by_name = 2)
        OR (a.arm_count > 2 AND b.by_size = 1 AND a.by_size > 1)
    )
    """

  /// Query 2's select.
  static let comparisonsSelect = """
    SELECT policy, arm, other,
      CASE WHEN pa IS NULL OR pb IS NULL OR pb = 0 THEN NULL ELSE pa / pb END AS prompted_ratio,
      CASE WHEN r1 IS NULL OR r2 IS NULL THEN NULL ELSE r1 - r2 END AS rated_difference,
      CASE WHEN r1 IS NULL OR r2 IS NULL THEN NULL
        WHEN r1 - r2 - SQRT((r1 - l1) * (r1 - l1) + (h2 - r2) * (h2 - r2)) < -1 THEN -1
        ELSE r1 - r2 - SQRT((r1 - l1) * (r1 - l1) + (h2 - r2) * (h2 - r2)) END AS rated_difference_low,
      CASE WHEN r1 IS NULL OR r2 IS NULL THEN NULL
        WHEN r1 - r2 + SQRT((h1 - r1) * (h1 - r1) + (r2 - l2) * (r2 - l2)) > 1 THEN 1
        ELSE r1 - r2 + SQRT((h1 - r1) * (h1 - r1) + (r2 - l2) * (r2 - l2)) END AS rated_difference_high
    FROM pairs
    ORDER BY policy, arm
    """
}
