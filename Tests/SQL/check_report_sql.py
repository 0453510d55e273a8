"""The rollout read-out three ways on one simulated population (issue 26).

Simulates a two-arm `bucket()` rollout with `policyc simulate --records`, reads it out with
`policyc report --format json`, runs `policyc report --sql` in DuckDB over the same records, and
fails unless the SQL gives exactly the report's figures (counts equal, shares and intervals equal
to 6 decimals), the report's 95% intervals hold the model's true rates, and `policyc replay`
under the producing policy decides every prompt check as the records say.

Usage: python3 check_report_sql.py POLICYC WORKDIR [USERS]
"""

import json
import subprocess
import sys
import time
from pathlib import Path

import duckdb

POLICY = """\
ask new when bucket("new") < 10 and uses >= 1
ask old when bucket("new") >= 10 and uses >= 2
never once when total_prompts >= 1
"""

# The behaviour model's answer mix (policyc simulate --rate/--remind/--decline): the true shares
# of prompted installs that rate and that decline, since the policy asks each install at most once.
RATE, REMIND, DECLINE = 0.25, 0.35, 0.30


def run(arguments, **kwargs):
    started = time.monotonic()
    result = subprocess.run(arguments, capture_output=True, text=True, **kwargs)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"check-sql: {' '.join(map(str, arguments))} exited {result.returncode}:\n{result.stderr}")
    return result.stdout, elapsed


def main():
    policyc, work = sys.argv[1], Path(sys.argv[2])
    users = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    work.mkdir(parents=True, exist_ok=True)
    policy = work / "rollout.policy"
    policy.write_text(POLICY)
    records = work / "records.jsonl"
    _, simulated = run([
        policyc, "simulate", str(policy), "--users", str(users), "--days", "14", "--seed", "26",
        "--heavy-share", "0", "--light-open-rate", "5%", "--sessions", "1", "--event-rate", "0.2",
        "--rate", str(RATE), "--remind", str(REMIND), "--decline", str(DECLINE),
        "--records", str(records), "--format", "json", "--no-progress",
    ])
    lines = sum(1 for _ in records.open("rb"))
    report_text, reported = run([policyc, "report", str(records), "--policy", str(policy), "--format", "json"])
    report = json.loads(report_text)
    sql, _ = run([policyc, "report", "--sql", "--policy", str(policy)])

    # The view the SQL's header describes for DuckDB.
    con = duckdb.connect()
    con.execute(f"""
        CREATE VIEW records AS SELECT *, buckets['new'] AS "bucket_new"
        FROM read_json('{records}', format = 'newline_delimited', columns = {{install: 'VARCHAR',
          time: 'TIMESTAMP', event: 'VARCHAR', policy: 'VARCHAR', asked: 'BOOLEAN', answer: 'VARCHAR',
          buckets: 'MAP(VARCHAR, INTEGER)'}})
    """)
    queries = [q.strip() for q in sql.split(";\n") if q.strip() and not all(
        line.startswith("--") or not line.strip() for line in q.strip().splitlines())]
    if len(queries) != 2:
        sys.exit(f"check-sql: expected 2 queries, found {len(queries)}")
    started = time.monotonic()
    arms = con.execute(queries[0]).fetchall()
    arm_columns = [d[0] for d in con.description]
    comparisons = con.execute(queries[1]).fetchall()
    comparison_columns = [d[0] for d in con.description]
    queried = time.monotonic() - started

    def decimal(value):
        return None if value is None else f"{value:.6f}"

    [read] = report["policies"]
    failures = []
    if len(arms) != len(read["arms"]):
        failures.append(f"{len(arms)} arms in SQL, {len(read['arms'])} in the report")
    for row, arm in zip(arms, read["arms"]):
        row = dict(zip(arm_columns, row))
        expected = {
            "policy": read["fingerprint"], "arm": arm["arm"], "installs": arm["installs"],
            "checks": arm["checks"], "asks": arm["asks"], "shown": arm["shown"],
            "prompted_installs": arm["prompted"]["successes"], "rated_installs": arm["ratedPerPrompted"]["successes"],
            "declined_installs": arm["declinedPerPrompted"]["successes"],
        }
        for share, key in [("prompted", "prompted"), ("rated", "ratedPerPrompted"), ("declined", "declinedPerPrompted")]:
            for part in ["rate", "low", "high"]:
                expected[f"{share}_{part}"] = decimal(arm[key][part])
        for column, value in expected.items():
            got = decimal(row[column]) if column.endswith(("_rate", "_low", "_high")) else row[column]
            if got != value:
                failures.append(f"arm {arm['arm']}: {column} is {got} in SQL, {value} in the report")
        # The model's true rates lie within the report's 95% intervals.
        for key, truth in [("ratedPerPrompted", RATE), ("declinedPerPrompted", DECLINE)]:
            low, high = float(arm[key]["low"]), float(arm[key]["high"])
            if not low <= truth <= high:
                failures.append(f"arm {arm['arm']}: the true {key} {truth} is outside {low}-{high}")
    if len(comparisons) != len(read["comparisons"]):
        failures.append(f"{len(comparisons)} comparisons in SQL, {len(read['comparisons'])} in the report")
    for row, comparison in zip(comparisons, read["comparisons"]):
        row = dict(zip(comparison_columns, row))
        for column, key in [("arm", "arm"), ("other", "other")]:
            if row[column] != comparison[key]:
                failures.append(f"comparison {column}: {row[column]} in SQL, {comparison[key]} in the report")
        for column, key in [("prompted_ratio", "promptedRatio"), ("rated_difference", "ratedDifference"),
                            ("rated_difference_low", "ratedDifferenceLow"),
                            ("rated_difference_high", "ratedDifferenceHigh")]:
            if decimal(row[column]) != decimal(comparison[key]):
                failures.append(f"comparison {column}: {decimal(row[column])} in SQL, {comparison[key]} in the report")
    arm_sizes = {arm["arm"]: arm["installs"] for arm in read["arms"]}
    if sum(arm_sizes.values()) != users or not 0.08 < arm_sizes.get("new", 0) / users < 0.12:
        failures.append(f"the arms' installs {arm_sizes} do not split {users} installs about 10/90")

    # Replay under the producing policy: every recorded decision again.
    replay_text, replayed = run([policyc, "replay", str(policy), "--records", str(records), "--format", "json"])
    replay = json.loads(replay_text)
    comparison = replay["policies"][0]["comparison"]
    if comparison["sameDecisions"] != replay["checks"] or replay["installs"] != users:
        failures.append(f"replay decided {comparison['sameDecisions']} of {replay['checks']} checks the same")

    print(f"check-sql: {users:,} installs, {lines:,} record lines (simulated in {simulated:.1f} s)")
    print(f"check-sql: policyc report {reported:.2f} s ({lines / reported / 1e6:.2f} M lines/s), "
          f"DuckDB SQL {queried:.2f} s, policyc replay {replayed:.2f} s ({lines / replayed / 1e6:.2f} M lines/s)")
    for arm in read["arms"]:
        print(f"check-sql: arm {arm['arm']}: {arm['installs']:,} installs, prompted {arm['prompted']['rate']}, "
              f"rated per prompted {arm['ratedPerPrompted']['rate']} ({arm['ratedPerPrompted']['low']}-"
              f"{arm['ratedPerPrompted']['high']}), declined {arm['declinedPerPrompted']['rate']}")
    print(f"check-sql: replay decided {comparison['sameDecisions']:,} of {replay['checks']:,} checks as recorded")
    for row in comparisons:
        print(f"check-sql: {dict(zip(comparison_columns, row))}")
    if failures:
        sys.exit("check-sql: FAILED\n  " + "\n  ".join(failures))
    print("check-sql: the SQL gives the report's figures exactly")


if __name__ == "__main__":
    main()
