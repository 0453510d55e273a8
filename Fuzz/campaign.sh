#!/usr/bin/env bash
# A long fuzzing campaign: runs each named target for SECONDS, one after another, from the corpus
# the campaign has grown so far, and appends one line per run to the campaign's ledger
# (Fuzz/campaign-ledger.tsv, committed: UTC time, target, seconds, executions, edges (`cov:`),
# features (`ft:`), corpus files, exit status, crash input; `#` starts a comment). Runs continue
# where the last stopped: the ledger's executions add up across runs, sessions and machines. A run
# killed before its end (the machine went down, the session ended) writes no ledger line;
# `--recover` adds one for each such log that no process still has open, with the executions and
# coverage of the log's last status line (a lower bound: libFuzzer prints a status line at each new
# input and each power of two) and `killed` in place of the exit status.
#
#   Fuzz/campaign.sh SECONDS TARGET...    # e.g. Fuzz/campaign.sh 3600 pipeline store
#   Fuzz/campaign.sh --report             # executions, edges, features and findings per target
#   Fuzz/campaign.sh --recover            # ledger lines for runs killed before their end
#   Fuzz/campaign.sh --minimize TARGET... # the campaign's inputs that add coverage beyond the seeds,
#                                         # minimised, into TARGET/campaign/ of Fuzz/corpus/TARGET.tar.xz
#
# Campaign builds leave out AddressSanitizer for speed (FUZZ_SANITIZE=fuzzer; every harness check
# still runs); Fuzz/ci.sh replays the committed corpus and regressions under ASan. The committed
# corpus is read from (and --minimize written to) its unpacked copy in
# FUZZ_CAMPAIGN_DIR/committed-corpus/TARGET (Fuzz/tools/corpus.sh unpack / pack). Environment:
# FUZZ_CAMPAIGN_DIR (default .build-fuzz-campaign), FUZZ_LEDGER (default Fuzz/campaign-ledger.tsv;
# a campaign run from a second work tree points it at the main one), NICE (default 19: the
# campaign takes idle CPU). A ledger line whose status is `carried` sums earlier runs, with
# `runs=N,crashing=M` in place of the crash input.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
OUT=${FUZZ_CAMPAIGN_DIR:-$ROOT/.build-fuzz-campaign}
# A niced campaign yields the CPU to other work, so an input's wall time can pass 20 s without the
# input being slow (two analyzer runs stopped on such "timeouts" that replay in 0.7 s): campaigns
# allow 120 s (FUZZ_TIMEOUT); libFuzzer still saves inputs slower than 10 s as slow-unit-*, and
# Fuzz/ci.sh replays everything with 20 s.
export FUZZ_BUILD_DIR=$OUT FUZZ_SANITIZE=${FUZZ_SANITIZE:-fuzzer} FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-120}
ledger=${FUZZ_LEDGER:-$ROOT/Fuzz/campaign-ledger.tsv}
mkdir -p "$OUT/logs"

if [ "${1:-}" = "--report" ]; then
  # One reader of the ledger: the tool that writes the docs' campaign tables prints its table.
  FUZZ_LEDGER=$ledger exec python3 Fuzz/tools/campaign-table.py --check
fi

if [ "${1:-}" = "--recover" ]; then
  touch "$ledger"
  open=$(ls -l /proc/[0-9]*/fd 2>/dev/null || true)
  for log in "$OUT"/logs/*-[0-9]*T[0-9]*Z.log; do
    [ -e "$log" ] || continue
    name=$(basename "$log" .log)
    target=${name%-*}
    stamp=${name##*-}
    awk -F'\t' -v s="$stamp" -v t="$target" '$1 == s && $2 == t { found = 1 } END { exit !found }' "$ledger" && continue
    grep -q '^stat::number_of_executed_units' "$log" && continue
    # A log still open (by libFuzzer or the campaign writing it) belongs to a run in progress.
    if grep -qF -- "$log" <<<"$open"; then continue; fi
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
    [ -n "$last" ] || continue
    execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
    rate=$(sed -n 's/.*exec\/s: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.*corp: \([0-9]*\)\/.*/\1/p' <<<"$last")
    seconds=$((${rate:-0} > 0 ? execs / rate : 0))
    crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$target" "$seconds" "$execs" "${cov:-0}" \
      "${ft:-0}" "${corpus:-0}" killed "${crash:--}" >>"$ledger"
    echo "$target $stamp: killed after $execs executions (about $seconds s), cov ${cov:-0}, ft ${ft:-0}" >&2
  done
  exit 0
fi

if [ "${1:-}" = "--minimize" ]; then
  shift
  for target in "$@"; do
    Fuzz/run.sh "$target" 0 || exit 1
    # The committed corpus, unpacked: the seeds at its top, the campaign's inputs so far in campaign/.
    corpus=$(Fuzz/tools/corpus.sh unpack "$target") || exit 1
    seeds="$OUT/minimized/$target-seeds"
    merged="$OUT/minimized/$target"
    rm -rf "$seeds" "$merged"
    mkdir -p "$seeds"
    # The seeds are the files at the top of the corpus; the campaign's inputs are in its campaign/
    # folder and the campaign's own corpus.
    find "$corpus" -maxdepth 1 -type f -exec cp {} "$seeds/" \;
    cp -r "$seeds" "$merged"
    # A target minimised for the first time has no campaign folder yet.
    mkdir -p "$corpus/campaign"
    # -merge=1 adds to the first folder the smallest set of inputs of the others that covers
    # every feature the first does not: what the campaign found beyond the seeds.
    SWIFT_BACKTRACE=enable=no "$OUT/bin/$target" -merge=1 -timeout=20 -rss_limit_mb=2048 "$merged" \
      "$corpus/campaign" "$OUT/corpus/$target" >"$OUT/logs/$target-merge.log" 2>&1 || {
      tail -n 20 "$OUT/logs/$target-merge.log" >&2
      exit 1
    }
    rm -rf "$corpus/campaign"
    mkdir -p "$corpus/campaign"
    for input in "$merged"/*; do
      [ -e "$seeds/$(basename "$input")" ] || mv "$input" "$corpus/campaign/"
    done
    rm -rf "$seeds" "$merged"
    echo "$target: $(ls "$corpus/campaign" | wc -l) campaign inputs beyond the seeds," \
      "$(du -sk "$corpus/campaign" | cut -f1) KiB" >&2
    # Back into the committed archive (commit Fuzz/corpus/TARGET.tar.xz).
    Fuzz/tools/corpus.sh pack "$target" || exit 1
  done
  exit 0
fi

if [ $# -lt 2 ]; then
  echo "usage: Fuzz/campaign.sh SECONDS TARGET... | --report | --minimize TARGET..." >&2
  exit 2
fi
seconds=$1
shift
# Under Linux's autogroup scheduling, `nice` only ranks processes within one session, so a
# campaign started in its own session (`setsid`) would take an equal share beside a build or
# CI run; the session's own nice value is what yields it. Only a campaign that leads its own
# session sets it, so a campaign run from a terminal leaves the terminal's session alone.
if [ -w /proc/self/autogroup ] && [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ]; then
  echo "${NICE:-19}" >/proc/self/autogroup 2>/dev/null || true
fi
for target in "$@"; do
  Fuzz/run.sh "$target" 0 || exit 1
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  log="$OUT/logs/$target-$stamp.log"
  started=$(date +%s)
  nice -n "${NICE:-19}" Fuzz/run.sh "$target" "$seconds" >"$log" 2>&1
  status=$?
  # The seconds the run took: less than asked when it was stopped (SIGINT: libFuzzer prints its
  # final statistics and exits with 72) or found a crash.
  elapsed=$(($(date +%s) - started))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
  corpus=$(ls "$OUT/corpus/$target" | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$target" "$elapsed" "${execs:-0}" "${cov:-0}" \
    "${ft:-0}" "$corpus" "$status" "${crash:--}" >>"$ledger"
  echo "$target: ${execs:-0} executions, cov ${cov:-0}, ft ${ft:-0}, exit $status ${crash:+(crash: $crash)}" >&2
done
