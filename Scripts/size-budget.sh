#!/usr/bin/env bash
# What ReviewManager adds to an app's executable (issue 27): the smallest program that creates a
# ReviewManager and records one event, against the same program without it, both optimised as a
# release build does (-O, whole module), one section per function and linked with unused sections
# dropped (as Xcode's dead-code stripping drops unused symbols of a Mach-O app), and stripped. The
# Swift runtime and Foundation are linked dynamically, as on iOS and macOS, where the system
# provides them: the difference is the package's own code and the generic code it specialises.
#
#   Scripts/size-budget.sh            # the figure, by module and the largest contributors
#   Scripts/size-budget.sh --top 40   # more contributors
#   Scripts/size-budget.sh --check    # exit 1 when over the budget (1 MiB)
#
# Builds go to .build-size (SIZE_BUILD_DIR). Contributors are symbol sizes of the unstripped
# program, grouped by the type they belong to (demangled), so a regression names its cause.
set -euo pipefail
usage() {
  echo "usage: Scripts/size-budget.sh [-h | --help] [--top N] [--check]"
  echo
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
}
top=25
check=0
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --top)
      [ $# -ge 2 ] || { echo "size-budget.sh: --top needs a number" >&2; exit 2; }
      top=$2; shift ;;
    --check) check=1 ;;
    *) echo "size-budget.sh: unknown option \`$1\` (see --help)" >&2; exit 2 ;;
  esac
  shift
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
OUT=${SIZE_BUILD_DIR:-$ROOT/.build-size}
mkdir -p "$OUT"
cd "$OUT"
budget=$((1024 * 1024))

flags=(-O -wmo -swift-version 6 -package-name ReviewPolicy -parse-as-library -Xfrontend -function-sections)
library() {
  local module=$1
  swiftc "${flags[@]}" -module-name "$module" -I . -emit-module -emit-module-path "$module.swiftmodule" \
    -emit-library -static -o "lib$module.a" $(find "$ROOT/Sources/$module" -name '*.swift' | sort)
}
echo "building PolicyCore and ReviewPolicy (-O, whole module)" >&2
library PolicyCore
library ReviewPolicy

cat >with.swift <<'EOF'
import Foundation
import ReviewPolicy

@main
struct Probe {
  static func main() throws {
    let manager = try ReviewManager(configuration: .init(appVersion: "1.0", bundledPolicy: "ask when uses >= 3\n"))
    print(manager.significantEvent("export"), Date())
  }
}
EOF
cat >without.swift <<'EOF'
import Foundation

@main
struct Probe {
  static func main() throws {
    print(CommandLine.arguments.count > 5, Date())
  }
}
EOF
for program in with without; do
  swiftc -O -parse-as-library -I . -L . "$program.swift" -lReviewPolicy -lPolicyCore -Xlinker --gc-sections \
    -o "$program-full"
  cp "$program-full" "$program"
  strip "$program"
done
with=$(stat -c %s with)
without=$(stat -c %s without)
added=$((with - without))

python3 - "$added" "$budget" "$top" <<'EOF'
import collections, re, subprocess, sys
added, budget, top = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rows = []
for line in subprocess.run(["nm", "-S", "--size-sort", "with-full"], capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) >= 4:
        rows.append((int(parts[1], 16), parts[3]))
names = subprocess.run(["swift-demangle", "--simplified", "--compact"], input="\n".join(n for _, n in rows),
                       capture_output=True, text=True).stdout.split("\n")
modules = collections.Counter()
types = collections.Counter()
for (size, symbol), name in zip(rows, names):
    module = "PolicyCore" if symbol.startswith("$s10PolicyCore") else (
        "ReviewPolicy" if symbol.startswith("$s12ReviewPolicy") else "generic code and runtime metadata")
    modules[module] += size
    match = re.search(r"\b([A-Z][A-Za-z0-9_]*)\.", name)
    types[match.group(1) if match else name[:60]] += size
def mib(n): return f"{n / 1048576:.2f} MiB"
verdict = "within" if added <= budget else f"over by {mib(added - budget)}"
print(f"ReviewManager adds {added:,} bytes ({mib(added)}) to a stripped executable; budget {mib(budget)}: {verdict}")
print("by module (symbol sizes before stripping):")
for module, size in modules.most_common():
    print(f"  {module:<36} {size:>10,}")
print(f"largest contributors, by type:")
for name, size in types.most_common(top):
    print(f"  {name:<60} {size:>10,}")
EOF
if [ "$check" = 1 ] && [ "$added" -gt "$budget" ]; then
  exit 1
fi
