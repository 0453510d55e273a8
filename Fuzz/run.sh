#!/usr/bin/env bash
# Builds one libFuzzer target and runs it.
#
#   Fuzz/run.sh TARGET SECONDS [extra libFuzzer args]
#
# TARGET is pipeline, facts, testfile, store, analyzer, behaviour, legacy, lsp, update or records (see Fuzz/README.md). SECONDS 0 only builds.
# The binary goes to .build-fuzz/bin/TARGET (rebuilt when a source is newer); new corpus
# inputs to .build-fuzz/corpus/TARGET; crash reproducers to .build-fuzz/artifacts/TARGET/. The
# committed corpus, Fuzz/corpus/TARGET.tar.xz, is unpacked by Fuzz/tools/corpus.sh into
# .build-fuzz/committed-corpus/TARGET (again only when the archive changed) and read from there,
# never written. The exit status is libFuzzer's: 0 when nothing was found.
#
# Environment: FUZZ_BUILD_DIR (default .build-fuzz), FUZZ_JOBS (libFuzzer -jobs/-workers, default 1),
# FUZZ_TIMEOUT (seconds of wall time one input may take before it is a finding, default 20),
# FUZZ_OPT (default "-O": optimised, with assertions kept by -assert-config Debug), FUZZ_SANITIZE
# (default "fuzzer,address"; a long campaign may use "fuzzer" alone in its own FUZZ_BUILD_DIR for
# about twice the speed: the harnesses' own checks still run, and CI replays the corpus under ASan).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

if [ $# -lt 2 ]; then
  echo "usage: Fuzz/run.sh TARGET SECONDS [extra libFuzzer args]" >&2
  echo "targets: pipeline facts testfile store analyzer behaviour legacy lsp update records" >&2
  exit 2
fi
target=$1
seconds=$2
shift 2

OUT=${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz}
mkdir -p "$OUT/bin" "$OUT/modules" "$OUT/corpus/$target" "$OUT/artifacts/$target" "$OUT/module-cache"

# The package's library modules each target links, in dependency order.
case "$target" in
  store) modules=(PolicyCore ReviewPolicy) ;;
  legacy) modules=(PolicyCore ReviewPolicy ReviewMigration) ;;
  pipeline) modules=(PolicyCore PolicyAnalysis ReviewPolicy) ;;
  update) modules=(PolicyCore PolicyAnalysis ReviewPolicy ReviewAnalysis ReliabilitySupport) ;;
  facts | testfile | behaviour | lsp | analyzer | records)
    modules=(PolicyCore PolicyAnalysis ReviewPolicy ReviewAnalysis PolicyTools)
    ;;
  *)
    echo "unknown target \`$target\`; the targets are pipeline, facts, testfile, store, analyzer, behaviour, legacy, lsp, update and records" >&2
    exit 2
    ;;
esac
harness="Fuzz/$target.swift"
binary="$OUT/bin/$target"

# Every module is compiled as itself from all the Swift files under Sources/MODULE (found
# recursively), instrumented for libFuzzer and AddressSanitizer, optimised with assertions and
# preconditions kept (-assert-config Debug), and with -enable-testing so harnesses can use
# `@testable import`. A module is rebuilt when one of its files, a module it imports or this
# script is newer than its object. Each is compiled from a snapshot, so edits made during the
# build cannot break it; the prefix map makes crash reports name the files in the repository.
flags=(-sanitize="${FUZZ_SANITIZE:-fuzzer,address}" -parse-as-library ${FUZZ_OPT:--O} -assert-config Debug -g -enable-testing
  -package-name reviewpolicy -module-cache-path "$OUT/module-cache" -I "$OUT/modules" -suppress-warnings)
case "${FUZZ_SANITIZE:-fuzzer,address}" in
  *address*) ;;
  *) flags+=(-D FUZZ_NO_ASAN) ;;
esac
objects=()
rebuilt=0
for module in "${modules[@]}"; do
  object="$OUT/modules/$module.o"
  sources=()
  while IFS= read -r file; do sources+=("$file"); done < <(find "Sources/$module" -name '*.swift' | LC_ALL=C sort)
  needs_build=$rebuilt
  if [ ! -f "$object" ] || [ ! -f "$OUT/modules/$module.swiftmodule" ]; then
    needs_build=1
  else
    # A module an earlier run rebuilt for another target (objects so far) counts as a change too.
    for file in "${sources[@]}" "$0" "${objects[@]}"; do
      if [ "$file" -nt "$object" ]; then
        needs_build=1
        break
      fi
    done
  fi
  if [ "$needs_build" = 1 ]; then
    echo "building module $module (${#sources[@]} sources)" >&2
    snapshot="$OUT/src/$module"
    rm -rf "$snapshot"
    mkdir -p "$snapshot"
    for file in "${sources[@]}"; do
      mkdir -p "$snapshot/$(dirname "$file")"
      cp "$file" "$snapshot/$file"
    done
    (
      cd "$snapshot"
      # shellcheck disable=SC2086
      swiftc "${flags[@]}" -wmo -module-name "$module" -file-prefix-map "$snapshot=$ROOT" \
        -emit-module -emit-module-path "$OUT/modules/$module.swiftmodule" -c -o "$object.tmp" "${sources[@]}"
    )
    mv "$object.tmp" "$object"
    rebuilt=1
  fi
  objects+=("$object")
done

# The harness and Fuzz/FuzzSupport.swift form the executable's module, linked with the modules.
needs_build=$rebuilt
if [ ! -x "$binary" ]; then
  needs_build=1
else
  for file in "$harness" Fuzz/FuzzSupport.swift "${objects[@]}"; do
    if [ "$file" -nt "$binary" ]; then
      needs_build=1
      break
    fi
  done
fi
if [ "$needs_build" = 1 ]; then
  echo "building $binary (${modules[*]} + $harness)" >&2
  swiftc "${flags[@]}" -use-ld=lld -module-name PolicyFuzz -o "$binary.tmp" Fuzz/FuzzSupport.swift "$harness" \
    "${objects[@]}"
  mv "$binary.tmp" "$binary"
fi

if [ "$seconds" = 0 ]; then
  exit 0
fi

args=(-max_total_time="$seconds" -artifact_prefix="$OUT/artifacts/$target/" -print_final_stats=1
  -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 -max_len=16384)
if [ -f "Fuzz/$target.dict" ]; then
  args+=(-dict="Fuzz/$target.dict")
fi
jobs=${FUZZ_JOBS:-1}
if [ "$jobs" != 1 ]; then
  args+=(-jobs="$jobs" -workers="$jobs")
fi
# The committed seeds and campaign inputs (libFuzzer reads the folder recursively).
seeds=$(Fuzz/tools/corpus.sh unpack "$target")
# The Swift runtime backtracer fights ASan over the crash signal; libFuzzer prints the stack.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
exec "$binary" "${args[@]}" "$@" "$OUT/corpus/$target" "$seeds"
