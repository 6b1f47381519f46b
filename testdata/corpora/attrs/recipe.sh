#!/usr/bin/env bash
# Recreates testdata/corpora/attrs/repo.git (bare) from two PyPI sdists of attrs.
#
# The repository holds two commits on branch main:
#   base   = the contents of attrs-22.2.0.tar.gz   (tags base, v22.2.0)
#   later  = the contents of attrs-23.2.0.tar.gz   (tags later, v23.2.0)
# Each tree is the whole sdist as published (src/attr/, src/attrs/, docs/, tests/, changelog.d/,
# .github/, LICENSE, PKG-INFO included; the 22.2.0 sdist also carries src/attrs.egg-info/),
# with the tarball's top directory stripped; nothing is added or removed.
#
# Deterministic: fixed author/committer names, e-mails and dates, branch main, global and
# system git config ignored, no end-of-line conversion, single-threaded packing. The script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding attrs-22.2.0.tar.gz and attrs-23.2.0.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: attrs==VERSION`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
base_version=22.2.0
later_version=23.2.0
base_file=attrs-22.2.0.tar.gz
later_file=attrs-23.2.0.tar.gz
base_sdist_sha256=c9227bfc2f01993c03f68db37d1d15c9690188323c067c641f1a35ca58185f99
later_sdist_sha256=935dc3b529c262f6cf76e50877d35a4bd3c1de194fd41f47a2b7ae8f19971f30
expect_base=6546f673caa0c8cf5e1026aa114dc252473d1330
expect_later=e5f262181648d0b16a56596344efedd554693209

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sdists=${2:-$work/sdists}
mkdir -p "$sdists"

# fetch VERSION FILE SHA256: make sure SDIST_DIR/FILE exists and has the expected sha256.
fetch() {
    local f="$sdists/$2"
    if [ ! -f "$f" ]; then
        python3 -m pip download --quiet --no-deps --no-binary :all: "attrs==$1" -d "$sdists"
    fi
    [ -f "$f" ] || { echo "recipe.sh: pip download did not produce $2" >&2; exit 1; }
    echo "$3  $f" | sha256sum --check --quiet
}
fetch "$base_version" "$base_file" "$base_sdist_sha256"
fetch "$later_version" "$later_file" "$later_sdist_sha256"

export GIT_AUTHOR_NAME="ontoly corpus" GIT_AUTHOR_EMAIL="corpus@ontoly.invalid"
export GIT_COMMITTER_NAME="ontoly corpus" GIT_COMMITTER_EMAIL="corpus@ontoly.invalid"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null TZ=UTC LC_ALL=C
g() { git -c commit.gpgsign=false -c core.autocrlf=false -c core.fileMode=true "$@"; }

umask 022
tree=$work/tree
g init -q --template= "$tree"
g -C "$tree" symbolic-ref HEAD refs/heads/main
mkdir -p "$tree/.git/info"
# No end-of-line conversion or filters, whatever .gitattributes the sdist carries.
echo '* -text -filter -diff' > "$tree/.git/info/attributes"

# commit VERSION FILE DATE
commit() {
    find "$tree" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    tar -xzf "$sdists/$2" -C "$tree" --strip-components=1 --no-same-owner --no-same-permissions
    g -C "$tree" add -A -f .
    GIT_AUTHOR_DATE="$3" GIT_COMMITTER_DATE="$3" g -C "$tree" commit -q --no-verify \
        -m "attrs $1 as published on PyPI

The contents of $2 (files.pythonhosted.org) without its top directory."
}
commit "$base_version" "$base_file" "2022-12-21T12:00:00+00:00"
g -C "$tree" tag base
g -C "$tree" tag "v$base_version"
commit "$later_version" "$later_file" "2023-12-31T12:00:00+00:00"
g -C "$tree" tag later
g -C "$tree" tag "v$later_version"

base=$(g -C "$tree" rev-parse "base^{commit}")
later=$(g -C "$tree" rev-parse "later^{commit}")
echo "base  $base (attrs $base_version)"
echo "later $later (attrs $later_version)"
if [ "$base" != "$expect_base" ] || [ "$later" != "$expect_later" ]; then
    echo "recipe.sh: commit ids differ from the expected $expect_base / $expect_later" >&2
    exit 1
fi

# Publish as a small bare repository: one pack, packed as `gc --aggressive` would (window and
# depth 250, single-threaded for a stable pack), loose refs, no hooks, logs or bitmaps.
bare=$out/repo.git
rm -rf "$bare"
mkdir -p "$out"
g init -q --bare --template= "$bare"
g -C "$bare" symbolic-ref HEAD refs/heads/main
g -C "$tree" push -q "$bare" main --tags
g -C "$bare" -c pack.threads=1 -c repack.writeBitmaps=false -c pack.writeReverseIndex=false \
    repack -q -a -d -f --window=250 --depth=250
rm -rf "$bare/objects/info" "$bare/hooks" "$bare/logs" "$bare/info" "$bare/description" \
    "$bare/FETCH_HEAD" "$bare/packed-refs"
g -C "$bare" fsck --no-progress --no-dangling
echo "wrote $bare ($(du -sh "$bare" | cut -f1))"
