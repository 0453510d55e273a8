#!/usr/bin/env bash
# Regenerates the seed corpora in Fuzz/corpus (committed; rerun after the examples or tests change):
#   pipeline  Examples/*.policy and the policies of Tests/PolicyCLITests/Golden/check
#   facts     facts files from Examples/review.test.json and EvalCommandTests, plus ones for the
#             fixed policy of Fuzz/facts.swift (Fuzz/tools/text-seeds.py)
#   testfile  Examples/review.test.json, the test files of TestCommandTests and every history step
#             form (Fuzz/tools/text-seeds.py)
#   store     states written by the real JSONFileStore (Fuzz/tools/store-seeds.swift)
#
#   Fuzz/tools/make-seeds.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
rm -rf Fuzz/corpus/pipeline Fuzz/corpus/facts Fuzz/corpus/testfile
mkdir -p Fuzz/corpus/pipeline
cp Examples/*.policy Tests/PolicyCLITests/Golden/check/*.policy Fuzz/corpus/pipeline/
python3 Fuzz/tools/text-seeds.py

OUT=${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz}
mkdir -p "$OUT/bin" "$OUT/stubs" "$OUT/module-cache"
stub_sources="$OUT/stubs/empty.swift"
if [ ! -f "$OUT/stubs/PolicyCore.swiftmodule" ] || [ ! -f "$OUT/stubs/ReviewPolicy.swiftmodule" ]; then
  echo "// An empty module standing in for PolicyCore / ReviewPolicy in fuzz builds." >"$stub_sources"
  for module in PolicyCore ReviewPolicy; do
    swiftc -emit-module -parse-as-library -module-name "$module" -module-cache-path "$OUT/module-cache" \
      -o "$OUT/stubs/$module.swiftmodule" "$stub_sources"
  done
fi
swiftc -parse-as-library -Onone -module-name StoreSeeds -I "$OUT/stubs" -module-cache-path "$OUT/module-cache" \
  -suppress-warnings -o "$OUT/bin/store-seeds" Sources/PolicyCore/*/*.swift Sources/ReviewPolicy/*.swift \
  Fuzz/tools/store-seeds.swift
rm -rf Fuzz/corpus/store
"$OUT/bin/store-seeds" Fuzz/corpus/store
for target in pipeline facts testfile store; do
  echo "$target: $(ls Fuzz/corpus/$target | wc -l) seeds, $(cat Fuzz/corpus/$target/* | wc -c) bytes"
done
