#!/usr/bin/env bash
# Recreates testdata/corpora/jinja/repo.git (bare) from two PyPI sdists of Jinja2.
#
# The repository holds two commits on branch main:
#   base   = the contents of Jinja2-3.0.3.tar.gz   (tags base, v3.0.3)
#   later  = the contents of jinja2-3.1.4.tar.gz   (tags later, v3.1.4)
# Each tree is the whole sdist as published (docs/, tests/, examples/, LICENSE.rst included),
# with the tarball's top directory stripped; nothing is added or removed.
#
# Deterministic: fixed author/committer names, e-mails and dates, branch main, global and
# system git config ignored, no end-of-line conversion, single-threaded packing. The script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding Jinja2-3.0.3.tar.gz and jinja2-3.1.4.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: jinja2==VERSION`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
base_version=3.0.3
later_version=3.1.4
base_file=Jinja2-3.0.3.tar.gz
later_file=jinja2-3.1.4.tar.gz
base_sdist_sha256=611bb273cd68f3b993fabdc4064fc858c5b47a973cb5aa7999ec1ba405c87cd7
later_sdist_sha256=4a3aee7acbbe7303aede8e9648d13b8bf88a429282aa6122a993f0ac800cb369
expect_base=a038da347d881c92d1dee43dc0227126f4d9cefa
expect_later=e01f0550408a9e8cf7bfc6e1eb1666ccf6a67a96

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sdists=${2:-$work/sdists}
mkdir -p "$sdists"

# fetch VERSION FILE SHA256: make sure SDIST_DIR/FILE exists and has the expected sha256.
fetch() {
    local f="$sdists/$2"
    if [ ! -f "$f" ]; then
        python3 -m pip download --quiet --no-deps --no-binary :all: "jinja2==$1" -d "$sdists"
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
        -m "Jinja2 $1 as published on PyPI

The contents of $2 (files.pythonhosted.org) without its top directory."
}
commit "$base_version" "$base_file" "2021-11-09T12:00:00+00:00"
g -C "$tree" tag base
g -C "$tree" tag "v$base_version"
commit "$later_version" "$later_file" "2024-05-05T12:00:00+00:00"
g -C "$tree" tag later
g -C "$tree" tag "v$later_version"

base=$(g -C "$tree" rev-parse "base^{commit}")
later=$(g -C "$tree" rev-parse "later^{commit}")
echo "base  $base (Jinja2 $base_version)"
echo "later $later (Jinja2 $later_version)"
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
