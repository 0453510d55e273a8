#!/usr/bin/env bash
# Builds the DocC archives of PolicyCore, ReviewPolicy and PolicyTools from their catalogs
# (Sources/<module>/<module>.docc) with the toolchain's docc, into .build/docc/<module>.doccarchive.
#   bash docs/docc.sh            # warnings are printed; the exit status is docc's
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
swift build --target PolicyTools >&2
modules=".build/debug/Modules"
[ -d "$modules" ] || modules=".build/debug"
triple=$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)",/\1/p' | head -1)
for module in PolicyCore PolicyAnalysis ReviewPolicy ReviewAnalysis PolicyTools; do
  graphs=".build/docc/symbol-graphs/$module"
  rm -rf "$graphs" && mkdir -p "$graphs"
  swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" \
    -minimum-access-level public -output-dir "$graphs"
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.reviewpolicy.$module" \
    --output-path ".build/docc/$module.doccarchive"
done
