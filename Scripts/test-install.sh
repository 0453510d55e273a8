#!/bin/sh
# Checks Scripts/install.sh: installs into a temporary PREFIX and runs the installed policyc.
# First, without building, every script under Scripts/ must answer `--help` and `-h` with its
# usage (exit 0, no build, nothing installed) and reject an unknown option (exit 2).
# For CI: `bash Scripts/test-install.sh` (it builds policyc in release); `--help-only` runs only
# the first part.
set -eu

usage() {
  cat <<'USAGE'
usage: Scripts/test-install.sh [-h | --help] [--help-only]

Checks that every script under Scripts/ answers --help and -h (exit 0, no work done) and rejects
an unknown option (exit 2); then builds policyc in release, installs it into a temporary PREFIX
with Scripts/install.sh and runs the installed policyc.

options:
  --help-only   only the --help checks: no build
USAGE
}

help_only=0
for argument in "$@"; do
  case "$argument" in
    -h|--help) usage; exit 0 ;;
    --help-only) help_only=1 ;;
    -*) echo "test-install: error: unknown option \`$argument\`" >&2; usage >&2; exit 2 ;;
    *) echo "test-install: error: unexpected argument \`$argument\`" >&2; usage >&2; exit 2 ;;
  esac
done

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="$(mktemp -d)"
trap 'rm -rf "$PREFIX"' EXIT

# `swift` and `swiftc` stand-ins record any call: answering --help must build nothing.
mkdir "$PREFIX/shims"
for tool in swift swiftc; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 97\n' "$tool" "$PREFIX" > "$PREFIX/shims/$tool"
  chmod 755 "$PREFIX/shims/$tool"
done
for script in "$ROOT"/Scripts/*; do
  case "$script" in
    *.sh) run="bash" ;;
    *.py) run="python3" ;;
    *) continue ;;
  esac
  name="${script#"$ROOT"/}"
  for flag in --help -h; do
    status=0
    output="$(PATH="$PREFIX/shims:$PATH" PREFIX="$PREFIX/install" $run "$script" "$flag" 2>"$PREFIX/stderr")" || status=$?
    if [ "$status" -ne 0 ] || ! printf '%s\n' "$output" | grep -q "^usage: "; then
      echo "test-install: \`$name $flag\` exited $status without a usage on standard output:" >&2
      printf '%s\n' "$output" >&2
      cat "$PREFIX/stderr" >&2
      exit 1
    fi
  done
  status=0
  PATH="$PREFIX/shims:$PATH" PREFIX="$PREFIX/install" $run "$script" --no-such-option >/dev/null 2>"$PREFIX/stderr" \
    || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "unknown option \`--no-such-option\`" "$PREFIX/stderr"; then
    echo "test-install: \`$name --no-such-option\` exited $status, not 2 with \`unknown option\`:" >&2
    cat "$PREFIX/stderr" >&2
    exit 1
  fi
  if [ -e "$PREFIX/calls" ] || [ -e "$PREFIX/install" ]; then
    echo "test-install: \`$name\` did work while answering --help or rejecting an option:" >&2
    cat "$PREFIX/calls" >&2 2>/dev/null || echo "(it created $PREFIX/install)" >&2
    exit 1
  fi
done
echo "test-install: every script under Scripts/ answers --help and -h and rejects an unknown option"
if [ "$help_only" -eq 1 ]; then exit 0; fi

PREFIX="$PREFIX/install" sh "$ROOT/Scripts/install.sh"
PREFIX="$PREFIX/install"

version="$(sed -n 's/^ *\(public\|package\) static let version = "\(.*\)"$/\2/p' "$ROOT/Sources/PolicyCLI/VersionCommand.swift")"
if [ -z "$version" ]; then
  echo "test-install: no version found in Sources/PolicyCLI/VersionCommand.swift" >&2
  exit 1
fi
expected="policyc $version"
for flag in --version -v; do
  actual="$("$PREFIX/bin/policyc" "$flag")"
  if [ "$actual" != "$expected" ]; then
    echo "test-install: expected \`$expected\` from \`policyc $flag\`, got \`$actual\`" >&2
    exit 1
  fi
done
# The installed binary works on its own: it checks a shipped example.
"$PREFIX/bin/policyc" check "$ROOT/Examples/review.policy" >/dev/null
echo "test-install: ok ($actual installed in a temporary PREFIX)"
