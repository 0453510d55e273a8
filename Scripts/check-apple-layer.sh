#!/usr/bin/env bash
# Compiles the Apple layer (Sources/ReviewPolicy/Apple/*.swift) and the iOS guide's Apple snippets
# (docs/ios.md, ```swift apple) on Linux, in Swift 6 mode with warnings as errors, for real Apple
# targets: the toolchain's own standard library and _Concurrency interfaces are built once per
# platform (cached in .build/apple-layer), and Tests/AppleLayer/Stubs/ stand in for Foundation,
# UIKit, AppKit, SwiftUI, StoreKit and StoreKit's SwiftUI overlay. So `os(...)`, `#available`,
# `@available` (deprecations and app-extension unavailability included), `@MainActor` and `Sendable`
# are checked as Xcode checks them, against the declarations the stubs copy from the SDKs.
# Then every known-wrong variant (Tests/AppleLayer/Variants/*.patch) must fail with its diagnostic.
# Installs nothing. Usage: bash Scripts/check-apple-layer.sh [-h | --help] [configuration ...]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swiftc >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

stubs=Tests/AppleLayer/Stubs
variants=Tests/AppleLayer/Variants
layer=(Sources/ReviewPolicy/Apple/*.swift)
out="${APPLE_LAYER_BUILD:-.build/apple-layer}"

# configuration: client target (the package's floor), platform, framework stubs in build order,
# what is compiled (layer; swiftui / uikit: the guide's snippets; extension: -application-extension).
configs=(
  "ios x86_64-apple-ios16.0-simulator ios-simulator UIKit SwiftUI StoreKit : layer swiftui uikit"
  "catalyst x86_64-apple-ios16.0-macabi ios-macabi UIKit SwiftUI StoreKit : layer swiftui uikit"
  "macos x86_64-apple-macos13.0 macos AppKit SwiftUI StoreKit : layer swiftui"
  "visionos x86_64-apple-xros1.0-simulator xros-simulator UIKit SwiftUI StoreKit : layer swiftui uikit"
  "tvos x86_64-apple-tvos16.0-simulator tvos-simulator UIKit SwiftUI StoreKit : layer"
  "watchos x86_64-apple-watchos9.0-simulator watchos-simulator UIKit SwiftUI StoreKit : layer"
  "extension-ios x86_64-apple-ios16.0-simulator ios-simulator UIKit SwiftUI StoreKit : layer extension"
  "extension-catalyst x86_64-apple-ios16.0-macabi ios-macabi UIKit SwiftUI StoreKit : layer extension"
  "extension-macos x86_64-apple-macos13.0 macos AppKit SwiftUI StoreKit : layer extension"
  "extension-visionos x86_64-apple-xros1.0-simulator xros-simulator UIKit SwiftUI StoreKit : layer extension"
  "extension-tvos x86_64-apple-tvos16.0-simulator tvos-simulator UIKit SwiftUI StoreKit : layer extension"
)

usage() {
  cat <<USAGE
usage: Scripts/check-apple-layer.sh [-h | --help] [configuration ...]

Type-checks the Apple layer and the iOS guide's Apple snippets against SDK stubs, for every
configuration (or only those named), then checks that each known-wrong variant fails.
Installs nothing; caches the standard libraries in \$APPLE_LAYER_BUILD (default: .build/apple-layer).

configurations: $(for spec in "${configs[@]}"; do words=($spec); echo "${words[0]}"; done | paste -sd ' ')
USAGE
}
for argument in "$@"; do
  case "$argument" in
    -h|--help) usage; exit 0 ;;
    -*) echo "check-apple-layer.sh: error: unknown option \`$argument\`" >&2; usage >&2; exit 2 ;;
    *)
      known=0
      for spec in "${configs[@]}"; do words=($spec); [ "${words[0]}" != "$argument" ] || known=1; done
      if [ $known -eq 0 ]; then
        echo "check-apple-layer.sh: error: unknown configuration \`$argument\`" >&2; usage >&2; exit 2
      fi ;;
  esac
done
lib="$(cd "$(dirname "$(command -v swiftc)")/../lib/swift" && pwd)"

# The standard library for a platform: the Linux interfaces retargeted (x86_64 keeps Float80 as the
# interface has it), built at a recent OS version so clients at the floor see its real availability.
build_stdlib() {
  local platform=$1 dir="$stdlib_root/$1" target
  target="x86_64-apple-${platform/-/26.0-}"
  [ "$platform" = macos ] && target=x86_64-apple-macos26.0
  [ -f "$dir/.done" ] && return 0
  mkdir -p "$dir/interfaces"
  for module in Swift _Concurrency SwiftOnoneSupport; do
    # Linux-built interfaces print `@backDeployed` on functions without bodies: drop the attribute.
    sed -e "s/-target x86_64-unknown-linux-gnu/-target $target/" -e 's/^ *@backDeployed(before: [^)]*)$//' \
      "$lib/linux/$module.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" >"$dir/interfaces/$module.swiftinterface"
    swiftc -frontend -compile-module-from-interface "$dir/interfaces/$module.swiftinterface" -module-name "$module" \
      -parse-stdlib -disable-availability-checking -target "$target" -I "$dir" -I "$lib/shims" \
      -o "$dir/$module.swiftmodule"
  done
  touch "$dir/.done"
}

# Compiler flags of a configuration's client code.
flags() { # target platform modules-dir [extension]
  local f=(-target "$1" -I "$stdlib_root/$2" -I "$3" -swift-version 6 -warnings-as-errors
    -disable-objc-interop -disable-implicit-string-processing-module-import -enable-cross-import-overlays)
  [ "${4:-}" = extension ] && f+=(-application-extension)
  echo "${f[@]}"
}

# The framework stubs and ReviewPolicy (the stub of what the layer calls, with the layer) as modules.
build_modules() { # name target platform frameworks... -> $out/$name/modules
  local name=$1 target=$2 platform=$3
  shift 3
  local dir="$out/$name/modules" ext=""
  [[ $name == extension-* ]] && ext=extension
  rm -rf "$dir" && mkdir -p "$dir"
  local f
  read -r -a f <<<"$(flags "$target" "$platform" "$dir" $ext)"
  for module in Foundation "$@" _StoreKit_SwiftUI; do
    swiftc -frontend -emit-module "$stubs/$module.swift" -module-name "$module" -enable-library-evolution \
      "${f[@]}" -o "$dir/$module.swiftmodule"
  done
  mkdir -p "$dir/StoreKit.swiftcrossimport"
  printf 'version: 1\nmodules:\n- name: _StoreKit_SwiftUI\n' >"$dir/StoreKit.swiftcrossimport/SwiftUI.swiftoverlay"
}

# Type-checks the layer (or a variant of it) as the module ReviewPolicy; emits it with `emit`.
check_layer() { # target platform modules-dir ext emit files...
  local target=$1 platform=$2 dir=$3 ext=$4 emit=$5
  shift 5
  local f
  read -r -a f <<<"$(flags "$target" "$platform" "$dir" "$ext")"
  swiftc -frontend -typecheck -module-name ReviewPolicy "${f[@]}" "$stubs/ReviewPolicy.swift" "$@" || return 1
  if [ "$emit" = emit ]; then
    swiftc -frontend -emit-module -module-name ReviewPolicy "${f[@]}" "$stubs/ReviewPolicy.swift" "$@" \
      -o "$dir/ReviewPolicy.swiftmodule"
  fi
}

# The guide's ```swift apple blocks, one file each: guide-snippet-N.swift (SwiftUI or UIKit by import).
extract_snippets() { # dir
  awk -v dir="$1" '
    $0 == "```swift apple" { n++; file = sprintf("%s/guide-snippet-%d.swift", dir, n); inside = 1; next }
    inside && $0 == "```" { inside = 0; close(file); next }
    inside { print > file }
  ' docs/ios.md
}

run_config() { # "name target platform frameworks... : parts..."
  local spec=($1) name target platform frameworks=() parts=() seen=0
  name=${spec[0]} target=${spec[1]} platform=${spec[2]}
  for word in "${spec[@]:3}"; do
    if [ "$word" = : ]; then seen=1; elif [ $seen = 0 ]; then frameworks+=("$word"); else parts+=("$word"); fi
  done
  local ext="" dir="$out/$name/modules" start=$SECONDS compiled="layer (${#layer[@]} files)"
  [[ " ${parts[*]} " == *" extension "* ]] && ext=extension
  build_modules "$name" "$target" "$platform" "${frameworks[@]}"
  check_layer "$target" "$platform" "$dir" "$ext" emit "${layer[@]}"
  local snippets="$out/$name/snippets"
  rm -rf "$snippets" && mkdir -p "$snippets"
  extract_snippets "$snippets"
  local f
  read -r -a f <<<"$(flags "$target" "$platform" "$dir" "$ext")"
  for snippet in "$snippets"/guide-snippet-*.swift; do
    [ -e "$snippet" ] || continue
    local kind=uikit
    grep -q '^import SwiftUI' "$snippet" && kind=swiftui
    [[ " ${parts[*]} " == *" $kind "* ]] || continue
    swiftc -frontend -typecheck -parse-as-library -module-name Darkroom "${f[@]}" "$stubs/GuideSupport.swift" "$snippet"
    compiled+=", $(basename "$snippet" .swift) ($kind)"
  done
  echo "apple layer: $name ($target${ext:+, -application-extension}): $compiled: 0 errors, 0 warnings in $((SECONDS - start)) s"
}

# Each known-wrong variant is a patch of one layer file, headed by `# configuration:` and `# expect:`
# lines; the patched layer must fail to compile in that configuration with the expected diagnostic.
run_variant() { # patch
  local patch=$1 name config expect target platform dir work log ext=""
  name=$(basename "$patch" .patch)
  config=$(sed -n 's/^# configuration: //p' "$patch")
  expect=$(sed -n 's/^# expect: //p' "$patch")
  for spec in "${configs[@]}"; do
    local words=($spec)
    [ "${words[0]}" = "$config" ] && target=${words[1]} platform=${words[2]}
  done
  [[ $config == extension-* ]] && ext=extension
  dir="$out/$config/modules"
  work="$out/variants/$name"
  rm -rf "$work" && mkdir -p "$work"
  cp "${layer[@]}" "$work/"
  patch -s -d "$work" -p4 <"$patch"
  log="$work/compile.log"
  if check_layer "$target" "$platform" "$dir" "$ext" no "$work"/*.swift >"$log" 2>&1; then
    echo "apple layer: variant $name compiled in $config, but must fail with: $expect" >&2
    return 1
  fi
  if ! grep -qF -- "$expect" "$log"; then
    echo "apple layer: variant $name failed in $config without: $expect" >&2
    cat "$log" >&2
    return 1
  fi
  echo "apple layer: variant $name fails in $config: $(grep -F -m1 -- "$expect" "$log" | sed 's/^[^ ]*: //')"
}

selected=("$@")
started=$SECONDS
# The standard library cache is keyed by the compiler and the function that builds it.
key="$( (swiftc --version 2>&1; declare -f build_stdlib) | sha256sum | cut -c1-12)"
stdlib_root="$out/stdlib-$key"
mkdir -p "$out"
find "$out" -maxdepth 1 -name 'stdlib-*' ! -name "stdlib-$key" -exec rm -rf {} +
platforms=$(for spec in "${configs[@]}"; do
  words=($spec)
  if [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" ${words[0]} "* ]]; then echo "${words[2]}"; fi
done | sort -u)
export -f build_stdlib
export lib stdlib_root
# Two platforms at a time (2 cores); each standard library takes about half a minute, once.
echo "$platforms" | xargs -P 2 -I{} bash -c 'build_stdlib {}'
echo "apple layer: standard libraries ready in $((SECONDS - started)) s ($stdlib_root)"

for spec in "${configs[@]}"; do
  words=($spec)
  if [ ${#selected[@]} -eq 0 ] || [[ " ${selected[*]} " == *" ${words[0]} "* ]]; then run_config "$spec"; fi
done
if [ ${#selected[@]} -eq 0 ]; then
  count=0
  for patch in "$variants"/*.patch; do
    run_variant "$patch"
    count=$((count + 1))
  done
  [ $count -ge 4 ] || { echo "apple layer: expected at least 4 known-wrong variants, found $count" >&2; exit 1; }
fi
echo "apple layer: done in $((SECONDS - started)) s"
