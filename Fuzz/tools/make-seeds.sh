#!/usr/bin/env bash
# Regenerates the seeds of four targets (rerun after the examples or tests change), in the committed
# corpus archives Fuzz/corpus/TARGET.tar.xz: each is unpacked (Fuzz/tools/corpus.sh), its seeds (the
# files at its top) are replaced, its campaign/ inputs kept, and it is packed again:
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
swiftc -parse-as-library -Onone -module-name StoreSeeds -package-name reviewpolicy -I "$OUT/stubs" \
  -module-cache-path "$OUT/module-cache" -suppress-warnings -o "$OUT/bin/store-seeds" \
  Sources/PolicyCore/*/*.swift Sources/ReviewPolicy/*.swift Fuzz/tools/store-seeds.swift

# Built first: the seeds are replaced only once every generator is ready.
targets=(pipeline facts testfile store)
for target in "${targets[@]}"; do
  folder=$(Fuzz/tools/corpus.sh unpack "$target")
  find "$folder" -maxdepth 1 -type f -delete
done
corpus=$(dirname "$folder")
cp Examples/*.policy Tests/PolicyCLITests/Golden/check/*.policy "$corpus/pipeline/"
python3 Fuzz/tools/text-seeds.py "$corpus"
"$OUT/bin/store-seeds" "$corpus/store"
for target in "${targets[@]}"; do
  echo "$target: $(find "$corpus/$target" -maxdepth 1 -type f | wc -l) seeds," \
    "$(find "$corpus/$target" -maxdepth 1 -type f -exec cat {} + | wc -c) bytes"
done
Fuzz/tools/corpus.sh pack "${targets[@]}"
