#!/bin/sh
# Checks Scripts/install.sh: installs into a temporary PREFIX and runs the installed policyc.
# For CI: `bash Scripts/test-install.sh` (it builds policyc in release).
set -eu

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="$(mktemp -d)"
trap 'rm -rf "$PREFIX"' EXIT

PREFIX="$PREFIX" sh "$ROOT/Scripts/install.sh"

version="$(sed -n 's/^ *\(public\|package\) static let version = "\(.*\)"$/\2/p' "$ROOT/Sources/PolicyCLI/VersionCommand.swift")"
if [ -z "$version" ]; then
  echo "test-install: no version found in Sources/PolicyCLI/VersionCommand.swift" >&2
  exit 1
fi
expected="policyc $version"
actual="$("$PREFIX/bin/policyc" --version)"
if [ "$actual" != "$expected" ]; then
  echo "test-install: expected \`$expected\`, got \`$actual\`" >&2
  exit 1
fi
# The installed binary works on its own: it checks a shipped example.
"$PREFIX/bin/policyc" check "$ROOT/Examples/review.policy" >/dev/null
echo "test-install: ok ($actual installed in a temporary PREFIX)"
