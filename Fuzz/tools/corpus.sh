#!/usr/bin/env bash
# The committed fuzz corpus: one reproducible archive per target, Fuzz/corpus/TARGET.tar.xz, holding
# TARGET/ (the seeds at its top, the campaign's minimised inputs in TARGET/campaign/). The fuzz
# scripts never read the archive itself but the folder it unpacks to:
#
#   Fuzz/tools/corpus.sh unpack TARGET...  # into DIR/TARGET, only when the archive changed; prints the folder
#   Fuzz/tools/corpus.sh pack TARGET...    # DIR/TARGET back into Fuzz/corpus/TARGET.tar.xz
#   Fuzz/tools/corpus.sh path TARGET...    # prints DIR/TARGET (unpacks nothing)
#
# DIR is FUZZ_CORPUS_DIR, by default FUZZ_BUILD_DIR/committed-corpus (.build-fuzz/committed-corpus;
# not .build-fuzz/corpus, where libFuzzer writes the inputs it finds). Beside each folder,
# DIR/TARGET.unpacked holds the hash of the archive it was unpacked from (or packed into) and the
# folder's files then (size and path): an unpack whose archive has that hash does nothing, any
# other replaces the folder. Files added, removed or edited in the folder since then are not in the
# archive until packed: unpack warns while they are not, and refuses to replace them unless FORCE=1
# (which also makes an unpack of an unchanged archive drop them).
#
# An archive is reproducible: names sorted, mtime 0, owner and group 0, modes 644/755, GNU tar
# format, `xz -9e` single-threaded (the same bytes for the same files with the same xz). Needs GNU
# tar and xz (Debian: tar, xz-utils).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARCHIVES=$ROOT/Fuzz/corpus
DIR=${FUZZ_CORPUS_DIR:-${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz}/committed-corpus}
export LC_ALL=C

usage() {
  echo "usage: Fuzz/tools/corpus.sh unpack|pack|path TARGET..." >&2
  exit 2
}

hash_of() {
  if [ -f "$1" ]; then sha256sum "$1" | cut -d' ' -f1; else echo none; fi
}

# The files of a folder, one line each: size and path inside it.
listing() {
  (cd "$1" && find . -type f -printf '%s %P\n' | sort)
}

# Writes the stamp of DIR/TARGET: the archive's hash, then the folder's listing.
write_stamp() {
  { hash_of "$ARCHIVES/$1.tar.xz"; listing "$DIR/$1"; } >"$DIR/$1.unpacked.tmp"
  mv "$DIR/$1.unpacked.tmp" "$DIR/$1.unpacked"
}

# Whether DIR/TARGET differs from its stamp: files added or removed, sizes changed, or files
# written since (tar restores the archive's mtime 0, so a file newer than the stamp was edited).
locally_changed() {
  local stamp="$DIR/$1.unpacked"
  [ -f "$stamp" ] || return 1
  [ "$(tail -n +2 "$stamp")" != "$(listing "$DIR/$1")" ] ||
    [ -n "$(find "$DIR/$1" -type f -newer "$stamp" -print -quit)" ]
}

unpack() {
  local target=$1 archive="$ARCHIVES/$1.tar.xz" folder="$DIR/$1" stamp="$DIR/$1.unpacked"
  local hash
  hash=$(hash_of "$archive")
  if [ -d "$folder" ] && [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$hash" ]; then
    if ! locally_changed "$target"; then
      echo "$folder"
      return 0
    fi
    if [ "${FORCE:-0}" != 1 ]; then
      echo "note: $folder has files added, removed or edited since it was unpacked, not in $archive:" \
        "Fuzz/tools/corpus.sh pack $target keeps them, FORCE=1 Fuzz/tools/corpus.sh unpack $target drops them" >&2
      echo "$folder"
      return 0
    fi
  elif [ -d "$folder" ] && [ "${FORCE:-0}" != 1 ] && locally_changed "$target"; then
    echo "error: $archive changed, but $folder has files added, removed or edited since it was" \
      "unpacked: pack them (Fuzz/tools/corpus.sh pack $target) or drop them (FORCE=1)" >&2
    return 1
  fi
  mkdir -p "$DIR"
  local staging="$DIR/.$target.unpacking"
  rm -rf "$staging"
  mkdir -p "$staging"
  if [ "$hash" = none ]; then
    # A target with no archive yet starts with an empty corpus; pack creates the archive.
    mkdir -p "$staging/$target"
  else
    tar -xJf "$archive" -C "$staging"
    if [ ! -d "$staging/$target" ]; then
      echo "error: $archive holds no folder $target/" >&2
      return 1
    fi
  fi
  rm -rf "$folder" "$stamp"
  mv "$staging/$target" "$folder"
  rm -rf "$staging"
  write_stamp "$target"
  echo "unpacked $archive: $(find "$folder" -type f | wc -l) files in $folder" >&2
  echo "$folder"
}

pack() {
  local target=$1 archive="$ARCHIVES/$1.tar.xz" folder="$DIR/$1"
  if [ ! -d "$folder" ]; then
    echo "error: no folder $folder to pack (Fuzz/tools/corpus.sh unpack $target first)" >&2
    return 1
  fi
  mkdir -p "$ARCHIVES"
  tar -C "$DIR" --sort=name --format=gnu --mtime=@0 --owner=0 --group=0 --numeric-owner \
    --mode=a=rX,u+w -cf - "$target" | xz -9e -T1 >"$archive.tmp"
  mv "$archive.tmp" "$archive"
  write_stamp "$target"
  echo "packed $(find "$folder" -type f | wc -l) files of $folder into $archive ($(stat -c %s "$archive") bytes)" >&2
}

[ $# -ge 2 ] || usage
command=$1
shift
for target in "$@"; do
  case "$target" in
    "" | */* | .*)
      echo "error: \`$target\` is not a target name" >&2
      exit 2
      ;;
  esac
done
case "$command" in
  unpack) for target in "$@"; do unpack "$target"; done ;;
  pack) for target in "$@"; do pack "$target"; done ;;
  path) for target in "$@"; do echo "$DIR/$target"; done ;;
  *) usage ;;
esac
