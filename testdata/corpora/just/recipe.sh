#!/usr/bin/env bash
# Recreates testdata/corpora/just/repo.git from the published just packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of just-1.14.0.crate (tags base, v1.14.0)
#   later  = the contents of just-1.25.2.crate (tags later, v1.25.2)
# Each tree is the package as published, with two packaging artefacts removed so that it looks
# like the upstream repository: Cargo.toml is replaced by Cargo.toml.orig (the manifest as the
# authors wrote it, not cargo's normalized copy) and .cargo_vcs_info.json is dropped.
#
# Deterministic: fixed author/committer names, e-mails and dates, `git init -b main`, global and
# system git config ignored, single-threaded packing. The script checks the sha256 of both
# packages (the checksums of the crates.io index, also found in any Cargo.lock) and the
# resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding just-1.14.0.crate and just-1.25.2.crate; when a
#              file is missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE}
CRATES=${2:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 TZ=UTC LC_ALL=C
g() { git -c commit.gpgsign=false -c core.autocrlf=false -c core.fileMode=true "$@"; }

BASE_VER=1.14.0
LATER_VER=1.25.2
BASE_CRATE_SHA256=3ad25fe62999a7972b8cfac6608e1a18ad9245c353e1e8b9e6c7c9fa0f6a4e4d
LATER_CRATE_SHA256=d987074c36bf7e4767ba6e590cb58a5ecf9f61c12ac08bb38ebdd10d1d303b42
EXPECT_BASE=11fbf8730b1bdddac251d3d22e86cd67bb91a66e
EXPECT_LATER=a4d7dbe411ebe8a95a5fad7074a5a5e9aa86e641

# crate_file VERSION: print the path of just-VERSION.crate, fetching it with cargo if needed.
crate_file() {
  local ver=$1 name="just-$1.crate"
  if [ -n "$CRATES" ] && [ -f "$CRATES/$name" ]; then
    printf '%s\n' "$CRATES/$name"
    return
  fi
  local proj=$WORK/fetch-$ver
  mkdir -p "$proj/src"
  : > "$proj/src/lib.rs"
  cat > "$proj/Cargo.toml" <<EOF
[package]
name = "fetch-just"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
just = "=$ver"
EOF
  (cd "$proj" && cargo fetch -q) >&2
  local cache=${CARGO_HOME:-$HOME/.cargo}/registry/cache
  local found
  found=$(find "$cache" -name "$name" -type f | head -n 1)
  [ -n "$found" ] || { echo "recipe.sh: $name not found in $cache after cargo fetch" >&2; exit 1; }
  printf '%s\n' "$found"
}

# unpack VERSION SHA256: replace the work tree's contents with the package's files.
unpack() {
  local file
  file=$(crate_file "$1")
  local sum
  sum=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$sum" != "$2" ]; then
    echo "recipe.sh: $file has sha256 $sum, expected $2" >&2
    exit 1
  fi
  find "$WORK/tree" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  tar -xzf "$file" -C "$WORK/tree" --strip-components=1 --no-same-owner
  mv "$WORK/tree/Cargo.toml.orig" "$WORK/tree/Cargo.toml"
  rm -f "$WORK/tree/.cargo_vcs_info.json"
}

# commit DATE MESSAGE
commit() {
  g -C "$WORK/tree" add -A
  GIT_AUTHOR_NAME="ontoly corpus" GIT_AUTHOR_EMAIL="corpus@ontoly.invalid" GIT_AUTHOR_DATE=$1 \
  GIT_COMMITTER_NAME="ontoly corpus" GIT_COMMITTER_EMAIL="corpus@ontoly.invalid" \
  GIT_COMMITTER_DATE=$1 g -C "$WORK/tree" commit -q -m "$2"
}

mkdir -p "$WORK/tree"
g init -q -b main --template= "$WORK/tree"

unpack "$BASE_VER" "$BASE_CRATE_SHA256"
commit "2023-06-05T12:00:00+00:00" "just $BASE_VER as published on crates.io

Upstream commit 8e3a2a088213692f874ae9314e5ecd9ed56e2bc6 of casey/just (from the
package's .cargo_vcs_info.json). Cargo.toml is the package's Cargo.toml.orig."
g -C "$WORK/tree" tag base
g -C "$WORK/tree" tag "v$BASE_VER"

unpack "$LATER_VER" "$LATER_CRATE_SHA256"
commit "2024-03-15T12:00:00+00:00" "just $LATER_VER as published on crates.io

Upstream commit ffbe500d3f98166ac0912068bfe2999dae3ce796 of casey/just (from the
package's .cargo_vcs_info.json). Cargo.toml is the package's Cargo.toml.orig."
g -C "$WORK/tree" tag later
g -C "$WORK/tree" tag "v$LATER_VER"

base=$(g -C "$WORK/tree" rev-parse base)
later=$(g -C "$WORK/tree" rev-parse later)
if [ "$base" != "$EXPECT_BASE" ] || [ "$later" != "$EXPECT_LATER" ]; then
  echo "recipe.sh: got base $base later $later," >&2
  echo "           expected base $EXPECT_BASE later $EXPECT_LATER" >&2
  exit 1
fi

# Publish as a small bare repository: one aggressively packed pack, loose refs, no hooks, logs
# or bitmaps.
bare=$OUT/repo.git
rm -rf "$bare"
mkdir -p "$OUT"
g init -q --bare -b main --template= "$bare"
g -C "$WORK/tree" push -q "$bare" main --tags
g -C "$bare" -c pack.threads=1 -c repack.writeBitmaps=false -c pack.writeReverseIndex=false \
  -c gc.reflogExpire=now -c gc.pruneExpire=now gc -q --aggressive
rm -rf "$bare/objects/info" "$bare/hooks" "$bare/logs" "$bare/info" "$bare/description" \
  "$bare/FETCH_HEAD"
# gc packs the refs; write them back as loose files so the tree is plain files only.
if [ -f "$bare/packed-refs" ]; then
  grep -v '^[#^]' "$bare/packed-refs" | while read -r sha ref; do
    mkdir -p "$(dirname "$bare/$ref")"
    printf '%s\n' "$sha" > "$bare/$ref"
  done
  rm -f "$bare/packed-refs"
fi
g -C "$bare" fsck --no-progress
printf 'base  %s (just %s)\nlater %s (just %s)\n' "$base" "$BASE_VER" "$later" "$LATER_VER"
