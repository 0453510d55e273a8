#!/usr/bin/env bash
# Builds one libFuzzer target and runs it.
#
#   Fuzz/run.sh TARGET SECONDS [extra libFuzzer args]
#
# TARGET is pipeline, facts, testfile or store (see Fuzz/README.md). SECONDS 0 only builds.
# The binary goes to .build-fuzz/bin/TARGET (rebuilt when a source is newer); new corpus
# inputs to .build-fuzz/corpus/TARGET (the committed seeds in Fuzz/corpus/TARGET are read,
# never written); crash reproducers to .build-fuzz/artifacts/TARGET/. The exit status is
# libFuzzer's: 0 when nothing was found.
#
# Environment: FUZZ_BUILD_DIR (default .build-fuzz), FUZZ_JOBS (libFuzzer -jobs/-workers, default 1),
# FUZZ_OPT (default "-O": optimised, with assertions kept by -assert-config Debug).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

if [ $# -lt 2 ]; then
  echo "usage: Fuzz/run.sh TARGET SECONDS [extra libFuzzer args]" >&2
  echo "targets: pipeline facts testfile store" >&2
  exit 2
fi
target=$1
seconds=$2
shift 2

OUT=${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz}
mkdir -p "$OUT/bin" "$OUT/stubs" "$OUT/corpus/$target" "$OUT/artifacts/$target" "$OUT/module-cache"

core=(Sources/PolicyCore/*/*.swift)
review=(Sources/ReviewPolicy/*.swift)
case "$target" in
  pipeline) sources=("${core[@]}" Sources/ReviewPolicy/ReviewSchema.swift) ;;
  facts) sources=("${core[@]}" Sources/ReviewPolicy/ReviewSchema.swift Sources/PolicyCLI/JSONDocument.swift
    Sources/PolicyCLI/FactsFile.swift) ;;
  testfile) sources=("${core[@]}" "${review[@]}" Sources/PolicyCLI/JSONDocument.swift Sources/PolicyCLI/FactsFile.swift
    Sources/PolicyCLI/PolicyTestFile.swift) ;;
  store) sources=("${core[@]}" "${review[@]}") ;;
  *)
    echo "unknown target \`$target\`; the targets are pipeline, facts, testfile and store" >&2
    exit 2
    ;;
esac
harness="Fuzz/$target.swift"
sources+=(Fuzz/FuzzSupport.swift)
binary="$OUT/bin/$target"

# Every source is compiled into one module. The library sources `import PolicyCore` and
# `import ReviewPolicy`; those names resolve to empty stub modules, so the files compile
# unchanged (and crash reports point at the real source paths).
stub_sources="$OUT/stubs/empty.swift"
if [ ! -f "$OUT/stubs/PolicyCore.swiftmodule" ] || [ ! -f "$OUT/stubs/ReviewPolicy.swiftmodule" ]; then
  echo "// An empty module standing in for PolicyCore / ReviewPolicy in fuzz builds." >"$stub_sources"
  for module in PolicyCore ReviewPolicy; do
    swiftc -emit-module -parse-as-library -module-name "$module" -module-cache-path "$OUT/module-cache" \
      -o "$OUT/stubs/$module.swiftmodule" "$stub_sources"
  done
fi

needs_build=0
if [ ! -x "$binary" ]; then
  needs_build=1
else
  for file in "${sources[@]}" "$harness" "$0"; do
    if [ "$file" -nt "$binary" ]; then
      needs_build=1
      break
    fi
  done
fi
if [ "$needs_build" = 1 ]; then
  echo "building $binary (${#sources[@]} sources + $harness)" >&2
  # Compile a snapshot, so edits made during the build cannot break it; the prefix map makes
  # crash reports name the files in the repository.
  snapshot="$OUT/src/$target"
  rm -rf "$snapshot"
  mkdir -p "$snapshot"
  for file in "${sources[@]}" "$harness"; do
    mkdir -p "$snapshot/$(dirname "$file")"
    cp "$file" "$snapshot/$file"
  done
  (
    cd "$snapshot"
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -parse-as-library ${FUZZ_OPT:--O} -assert-config Debug -g -use-ld=lld \
      -module-name PolicyFuzz -I "$OUT/stubs" -module-cache-path "$OUT/module-cache" \
      -file-prefix-map "$snapshot=$ROOT" -suppress-warnings -o "$binary.tmp" "${sources[@]}" "$harness"
  )
  mv "$binary.tmp" "$binary"
fi

if [ "$seconds" = 0 ]; then
  exit 0
fi

args=(-max_total_time="$seconds" -artifact_prefix="$OUT/artifacts/$target/" -print_final_stats=1
  -timeout=20 -rss_limit_mb=2048 -max_len=16384)
if [ -f "Fuzz/$target.dict" ]; then
  args+=(-dict="Fuzz/$target.dict")
fi
jobs=${FUZZ_JOBS:-1}
if [ "$jobs" != 1 ]; then
  args+=(-jobs="$jobs" -workers="$jobs")
fi
seeds=()
if [ -d "Fuzz/corpus/$target" ]; then
  seeds=("Fuzz/corpus/$target")
fi
# The Swift runtime backtracer fights ASan over the crash signal; libFuzzer prints the stack.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
exec "$binary" "${args[@]}" "$@" "$OUT/corpus/$target" "${seeds[@]}"
