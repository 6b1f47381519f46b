#!/usr/bin/env bash
# Recreates testdata/corpora/commander/repo.git from the published commander packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of commander-11.1.0.tgz   (tags base, v11.1.0)
#   later  = the contents of commander-12.1.0.tgz   (tags later, v12.1.0)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped; nothing is added or removed (the package's LICENSE, MIT, is kept as published).
#
# Deterministic: fixed author/committer names, e-mails and dates, `git init -b main`, global and
# system git config ignored, single-threaded packing. The script checks both tarballs against
# the registry's `dist.integrity` (sha512) and `dist.shasum` (sha1), as printed by
# `npm view commander@VERSION dist`, and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding commander-11.1.0.tgz and commander-12.1.0.tgz; when a file is
#            missing there, the script downloads it with `npm pack commander@VERSION`.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE}
TGZS=${2:-}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 TZ=UTC LC_ALL=C
g() { git -c commit.gpgsign=false -c core.autocrlf=false -c core.fileMode=true "$@"; }

BASE_VER=11.1.0
LATER_VER=12.1.0
BASE_SHA512=yPVavfyCcRhmorC7rWlkHn15b4wDVgVmBA7kV4QVBsF7kv/9TKJAbAXVTxvTnwP8HHKjRCJDClKbciiYS7p0DQ==
BASE_SHA1=62fdce76006a68e5c1ab3314dc92e800eb83d906
LATER_SHA512=Vw8qHK3bZM9y/P10u3Vib8o/DdkvA2OtPtZvD871QKjy74Wj1WSKFILMPRPSdUSx5RFK1arlJzEtA4PkFgnbuA==
LATER_SHA1=01423b36f501259fdaac4d0e4d60c96c991585d3
EXPECT_BASE=c851177996e7eca799923232093879f58026d99e
EXPECT_LATER=a9bd7363dd54a13d66714ff1f46794fdbad8c42a

# tgz_file VERSION: print the path of commander-VERSION.tgz, downloading it with npm if needed.
tgz_file() {
  local name="commander-$1.tgz"
  if [ -n "$TGZS" ] && [ -f "$TGZS/$name" ]; then
    printf '%s\n' "$TGZS/$name"
    return
  fi
  mkdir -p "$WORK/npm"
  (cd "$WORK/npm" && npm pack --silent "commander@$1") >/dev/null
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
commit "2023-11-01T12:00:00+00:00" "commander $BASE_VER as published on npm

The contents of commander-$BASE_VER.tgz (registry.npmjs.org) without the package/ prefix."
g -C "$WORK/tree" tag base
g -C "$WORK/tree" tag "v$BASE_VER"

unpack "$LATER_VER" "$LATER_SHA512" "$LATER_SHA1"
commit "2024-06-01T12:00:00+00:00" "commander $LATER_VER as published on npm

The contents of commander-$LATER_VER.tgz (registry.npmjs.org) without the package/ prefix."
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
printf 'base  %s (commander %s)\nlater %s (commander %s)\n' "$base" "$BASE_VER" "$later" "$LATER_VER"
