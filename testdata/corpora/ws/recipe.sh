#!/usr/bin/env bash
# Recreates testdata/corpora/ws/repo.git from the published ws packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of ws-8.13.0.tgz   (tags base, v8.13.0)
#   later  = the contents of ws-8.16.0.tgz   (tags later, v8.16.0)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped; nothing is added or removed (the package's LICENSE, MIT, is kept as published).
#
# Deterministic: fixed author/committer names, e-mails and dates, `git init -b main`, global and
# system git config ignored, single-threaded packing. The script checks both tarballs against
# the registry's `dist.integrity` (sha512) and `dist.shasum` (sha1), as printed by
# `npm view ws@VERSION dist`, and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding ws-8.13.0.tgz and ws-8.16.0.tgz; when a file is
#            missing there, the script downloads it with `npm pack ws@VERSION`.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)  # absolute: git -C below would resolve a relative path elsewhere
TGZS=${2:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 TZ=UTC LC_ALL=C
g() { git -c commit.gpgsign=false -c core.autocrlf=false -c core.fileMode=true "$@"; }

BASE_VER=8.13.0
LATER_VER=8.16.0
BASE_SHA512=x9vcZYTrFPC7aSIbj7sRCYo7L/Xb8Iy+pW0ng0wt2vCJv7M9HOMy0UoN3rr+IFC7hb7vXoqS+P9ktyLLLhO+LA==
BASE_SHA1=9a9fb92f93cf41512a0735c8f4dd09b8a1211cd0
LATER_SHA512=HS0c//TP7Ina87TfiPUz1rQzMhHrl/SG2guqRcTOIUYD2q8uhUdNHZYJUaQ8aTGPzCh+c6oawMKW35nFl1dxyQ==
LATER_SHA1=d1cd774f36fbc07165066a60e40323eab6446fd4
EXPECT_BASE=f92c7866dea8e04feab799e15165985dc6e404f9
EXPECT_LATER=d0cb99c5f896e98e9e9b31eb98b2984b6f73acce

# tgz_file VERSION: print the path of ws-VERSION.tgz, downloading it with npm if needed.
tgz_file() {
  local name="ws-$1.tgz"
  if [ -n "$TGZS" ] && [ -f "$TGZS/$name" ]; then
    printf '%s\n' "$TGZS/$name"
    return
  fi
  mkdir -p "$WORK/npm"
  (cd "$WORK/npm" && npm pack --silent "ws@$1") >/dev/null
  [ -f "$WORK/npm/$name" ] || { echo "recipe.sh: npm pack did not produce $name" >&2; exit 1; }
  printf '%s\n' "$WORK/npm/$name"
}

# unpack VERSION SHA512_BASE64 SHA1: replace the work tree's contents with the package's files.
unpack() {
  local file sha512 sha1
  file=$(tgz_file "$1")
  sha512=$(openssl dgst -sha512 -binary "$file" | base64 -w0)
  sha1=$(sha1sum "$file" | cut -d' ' -f1)
  if [ "$sha512" != "$2" ] || [ "$sha1" != "$3" ]; then
    echo "recipe.sh: $file has sha512-$sha512 / sha1 $sha1, expected sha512-$2 / sha1 $3" >&2
    exit 1
  fi
  find "$WORK/tree" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  tar -xzf "$file" -C "$WORK/tree" --strip-components=1 --no-same-owner --no-same-permissions
}

# commit DATE MESSAGE
commit() {
  g -C "$WORK/tree" add -A
  GIT_AUTHOR_NAME="ontoly corpus" GIT_AUTHOR_EMAIL="corpus@ontoly.invalid" GIT_AUTHOR_DATE=$1 \
  GIT_COMMITTER_NAME="ontoly corpus" GIT_COMMITTER_EMAIL="corpus@ontoly.invalid" \
  GIT_COMMITTER_DATE=$1 g -C "$WORK/tree" commit -q -m "$2"
}

umask 022
mkdir -p "$WORK/tree"
g init -q -b main --template= "$WORK/tree"

unpack "$BASE_VER" "$BASE_SHA512" "$BASE_SHA1"
commit "2023-03-15T12:00:00+00:00" "ws $BASE_VER as published on npm

The contents of ws-$BASE_VER.tgz (registry.npmjs.org) without the package/ prefix."
g -C "$WORK/tree" tag base
g -C "$WORK/tree" tag "v$BASE_VER"

unpack "$LATER_VER" "$LATER_SHA512" "$LATER_SHA1"
commit "2024-01-01T12:00:00+00:00" "ws $LATER_VER as published on npm

The contents of ws-$LATER_VER.tgz (registry.npmjs.org) without the package/ prefix."
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
printf 'base  %s (ws %s)\nlater %s (ws %s)\n' "$base" "$BASE_VER" "$later" "$LATER_VER"
