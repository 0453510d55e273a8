#!/usr/bin/env python3
"""Writes the campaign's table, summed from Fuzz/campaign-ledger.tsv, between the
<!-- campaign-table --> markers of Fuzz/README.md and docs/reliability.md.

    python3 Fuzz/tools/campaign-table.py [--check]

--check prints the table and changes nothing (`Fuzz/campaign.sh --report` runs it so).
FUZZ_LEDGER names another ledger (default Fuzz/campaign-ledger.tsv). The bugs column comes from FOUND below, kept by hand
in step with Fuzz/README.md's "What the campaign found"; every other figure is the ledger's.
"""
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORDER = ["pipeline", "analyzer", "facts", "testfile", "store", "behaviour", "legacy", "lsp"]
# Bugs found per target: (count, what they were).
FOUND = {
    "pipeline": (4, "formatter comments; one found just before"),
    "analyzer": (0, "2 harness mistakes"),
    "store": (2, '"no thanks" lost'),
    "lsp": (3, "framing, version overflow; in the first runs"),
    "analyzer, every witness's history replayed (since 2026-11-29)": (
        7, "diff counterexamples beyond the 730 days of prompts kept; fixed: the relation takes the latest prompt;"
        " a history refused for 2^63 prompts without saying it was the replay's limit; fixed;"
        " an event name beyond the 128 bytes the tracker keeps refused as impossible; fixed;"
        " a prompt before every session, only with the clock set back, refused as impossible; fixed;"
        " a witness with no average after a session of an earlier version (a missing relation); fixed;"
        " a diff counterexample whose history records an event only the other policy reads, which the replay"
        " refused; fixed;"
        " a counterexample with more sessions since the last prompt than this version's sessions, though this"
        " version showed that prompt (a missing relation); fixed"),
}

# Targets that gained a check: a row of their own counts the runs since (ledger stamps sort as
# times), so a figure about the check is not inflated by executions made before it existed.
SINCE = {
    "analyzer": ("20261129T041940Z", "analyzer, every witness's history replayed (since 2026-11-29)"),
}


def read_ledger():
    totals = {}
    ledger = Path(os.environ.get("FUZZ_LEDGER") or ROOT / "Fuzz/campaign-ledger.tsv")
    if not ledger.exists():
        sys.exit(f"no campaign has run yet ({ledger})")
    for line in ledger.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 9:
            continue
        targets = [cols[1]]
        if cols[1] in SINCE and cols[0] >= SINCE[cols[1]][0]:
            targets.append(SINCE[cols[1]][1])
        for target in targets:
            add(totals, target, cols)
    return totals


def add(totals, target, cols):
    t = totals.setdefault(target, dict(runs=0, secs=0, execs=0, cov=0, ft=0, crashing=0))
    t["secs"] += int(cols[2])
    t["execs"] += int(cols[3])
    t["cov"] = max(t["cov"], int(cols[4]))
    t["ft"] = max(t["ft"], int(cols[5]))
    if cols[7] == "carried":
        parts = dict(p.split("=") for p in cols[8].split(","))
        t["runs"] += int(parts["runs"])
        t["crashing"] += int(parts["crashing"])
    else:
        t["runs"] += 1
        if re.search(r"/(crash|leak|timeout|oom)-", cols[8]):
            t["crashing"] += 1


def table(totals):
    rows = ["| Target | Runs | Hours | Executions | Edges (cov) | Features (ft) | Crashing runs | Bugs found |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    since = {label for _, label in SINCE.values()}
    names = [n for n in ORDER if n in totals] + sorted(n for n in totals if n not in ORDER and n not in since)
    for target, (_, label) in SINCE.items():
        if label in totals and target in names:
            names.insert(names.index(target) + 1, label)
    for n in names:
        t = totals[n]
        count, what = FOUND.get(n, (0, ""))
        bugs = f"{count} ({what})" if what else str(count)
        rows.append(f"| {n} | {t['runs']} | {t['secs'] / 3600:.1f} | {t['execs']:,} | {t['cov']:,} | "
                    f"{t['ft']:,} | {t['crashing']} | {bugs} |")
    whole = [t for n, t in totals.items() if n not in since]
    runs = sum(t["runs"] for t in whole)
    hours = sum(t["secs"] for t in whole) / 3600
    execs = sum(t["execs"] for t in whole)
    crashing = sum(t["crashing"] for t in whole)
    bugs = sum(c for c, _ in FOUND.values())
    rows.append(f"| all | {runs} | {hours:.1f} | {execs:,} | | | {crashing} | {bugs} |")
    return rows


def main():
    rows = table(read_ledger())
    if "--check" in sys.argv:
        print("\n".join(rows))
        return
    for name in ["Fuzz/README.md", "docs/reliability.md"]:
        path = ROOT / name
        text = path.read_text()
        pattern = re.compile(r"^([ \t]*)<!-- campaign-table -->\n.*?^[ \t]*<!-- /campaign-table -->$", re.S | re.M)
        match = pattern.search(text)
        if not match:
            sys.exit(f"{name}: no <!-- campaign-table --> markers")
        indent = match.group(1)
        body = "\n".join(indent + r for r in [ "<!-- campaign-table -->", *rows, "<!-- /campaign-table -->"])
        path.write_text(text[: match.start()] + body + text[match.end():])
        print(f"{name}: table written")


if __name__ == "__main__":
    main()
