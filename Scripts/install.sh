#!/bin/sh
# Builds policyc in release and installs it as $PREFIX/bin/policyc (PREFIX defaults to ~/.local).
#
#   Scripts/install.sh                      # ~/.local/bin/policyc
#   PREFIX=/usr/local sudo -E Scripts/install.sh
#
# Run it from anywhere; it builds the package this script belongs to.
set -eu

usage() {
  cat <<'USAGE'
usage: Scripts/install.sh [-h | --help]

Builds policyc in release and installs it as $PREFIX/bin/policyc.

environment:
  PREFIX   where to install (default: ~/.local, so ~/.local/bin/policyc)

Run it from anywhere; it builds the package this script belongs to.
USAGE
}

for argument in "$@"; do
  case "$argument" in
    -h|--help) usage; exit 0 ;;
    -*) echo "install.sh: error: unknown option \`$argument\`" >&2; usage >&2; exit 2 ;;
    *) echo "install.sh: error: unexpected argument \`$argument\`" >&2; usage >&2; exit 2 ;;
  esac
done

PREFIX="${PREFIX:-$HOME/.local}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

echo "building policyc in release (this takes a few minutes the first time)..."
swift build --package-path "$ROOT" -c release --product policyc
BIN_DIR="$(swift build --package-path "$ROOT" -c release --show-bin-path)"

mkdir -p "$PREFIX/bin"
# Copy to a temporary name, then rename: a running policyc is never half-written.
cp "$BIN_DIR/policyc" "$PREFIX/bin/.policyc.tmp.$$"
chmod 755 "$PREFIX/bin/.policyc.tmp.$$"
mv -f "$PREFIX/bin/.policyc.tmp.$$" "$PREFIX/bin/policyc"

echo "installed $PREFIX/bin/policyc: $("$PREFIX/bin/policyc" --version)"
case ":${PATH:-}:" in
  *":$PREFIX/bin:"*) ;;
  *) echo "note: $PREFIX/bin is not on your PATH; add this line to your shell profile:"
     echo "  export PATH=\"$PREFIX/bin:\$PATH\"" ;;
esac
