#!/usr/bin/env bash
# CI for the fuzz targets: for each target (pipeline, facts, testfile, store, analyzer, behaviour, legacy, lsp, update, records), build it, replay the
# inputs in Fuzz/regressions/TARGET (each run once), then fuzz it for FUZZ_SECONDS (default 20)
# from the committed corpus (seeds and campaign inputs, Fuzz/corpus/TARGET.tar.xz, which run.sh
# unpacks into .build-fuzz/committed-corpus/TARGET and replays in full before fuzzing). Any crash,
# invariant failure, leak or timeout fails the script.
#
#   Fuzz/ci.sh                       # 20 s per target
#   FUZZ_SECONDS=5 Fuzz/ci.sh        # a quick check
#   Fuzz/ci.sh store                 # only some targets
#
# Builds go to .build-fuzz (FUZZ_BUILD_DIR); a crash's input is written to
# .build-fuzz/artifacts/TARGET/ and named in the output.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
OUT=${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz}
seconds=${FUZZ_SECONDS:-20}
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=(pipeline facts testfile store analyzer behaviour legacy lsp update records)
fi
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

started=$(date +%s)
for target in "${targets[@]}"; do
  echo "== fuzz target $target" >&2
  Fuzz/run.sh "$target" 0

  shopt -s nullglob
  regressions=(Fuzz/regressions/"$target"/*)
  shopt -u nullglob
  if [ ${#regressions[@]} -gt 0 ]; then
    echo "replaying ${#regressions[@]} regression input(s) for $target" >&2
    log="$OUT/artifacts/$target/regressions.log"
    mkdir -p "$(dirname "$log")"
    if ! "$OUT/bin/$target" -artifact_prefix="$OUT/artifacts/$target/" -timeout=20 -rss_limit_mb=2048 \
      "${regressions[@]}" >"$log" 2>&1; then
      tail -n 60 "$log" >&2
      echo "FAIL: a regression input of $target crashes (log: $log)" >&2
      exit 1
    fi
  fi

  if [ "$seconds" != 0 ]; then
    log="$OUT/artifacts/$target/fuzz.log"
    if ! Fuzz/run.sh "$target" "$seconds" >"$log" 2>&1; then
      grep -E "ERROR|FUZZ INVARIANT|Fatal error|SUMMARY|Test unit written" "$log" >&2 || tail -n 60 "$log" >&2
      echo "FAIL: fuzzing $target found a crash (log: $log)" >&2
      exit 1
    fi
    grep -E "^INFO: seed corpus: |^stat::(number_of_executed_units|average_exec_per_sec)" "$log" |
      sed "s/^/  $target /" >&2 || true
  fi
done
echo "fuzz CI passed: ${targets[*]} (${seconds}s each) in $(($(date +%s) - started))s" >&2
