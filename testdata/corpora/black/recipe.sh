#!/usr/bin/env bash
# Recreates repo.git (bare) for the black corpus from two PyPI sdists of black, as two commits
# with fixed author/committer identity and dates, and checks the resulting commit SHAs.
#
#   testdata/corpora/black/recipe.sh [OUT_DIR]
#
# OUT_DIR defaults to the directory of this script (it writes OUT_DIR/repo.git, replacing an
# existing one). Sdists are fetched with `pip download` (PyPI) unless SDIST_DIR names a directory
# that already holds black-23.1.0.tar.gz and black-24.2.0.tar.gz; their sha256 is checked either
# way. Each commit holds the whole sdist tree (top directory stripped), unfiltered.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
base_version=23.1.0
later_version=24.2.0
base_sdist_sha256=b0bd97bea8903f5a2ba7219257a44e3f1f9d00073d6cc1add68f0beec69692ac
later_sdist_sha256=bce4f25c27c3435e4dace4815bcb2008b87e167e3bf4ee47ccdc5ce906eb4894
expect_base=bc22853791e715153867ccc7af16172375975118
expect_later=1d6d248909483f675e55db78f9c1c60338c8b553

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sdists=${SDIST_DIR:-$work/sdists}
mkdir -p "$sdists"

fetch() {
    local v=$1 sum=$2 f="$sdists/black-$1.tar.gz"
    if [ ! -f "$f" ]; then
        # pip prepares the sdist's metadata after downloading it, which needs its build backend
        # (hatchling) from PyPI as well; only the .tar.gz is kept.
        python3 -m pip download --quiet --no-deps --no-binary :all: "black==$v" -d "$sdists"
    fi
    echo "$sum  $f" | sha256sum --check --quiet
}
fetch "$base_version" "$base_sdist_sha256"
fetch "$later_version" "$later_sdist_sha256"

export GIT_AUTHOR_NAME="ontoly corpus" GIT_AUTHOR_EMAIL="corpus@ontoly.invalid"
export GIT_COMMITTER_NAME="ontoly corpus" GIT_COMMITTER_EMAIL="corpus@ontoly.invalid"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null TZ=UTC

tree=$work/tree
git init -q "$tree"
git -C "$tree" symbolic-ref HEAD refs/heads/main
# No end-of-line conversion or filters, whatever .gitattributes the sdist carries.
echo '* -text -filter -diff' > "$tree/.git/info/attributes"

commit() {
    local v=$1 date=$2
    find "$tree" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    tar -xzf "$sdists/black-$v.tar.gz" -C "$tree" --strip-components=1 --no-same-owner
    git -C "$tree" -c core.autocrlf=false add -A -f .
    GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date" \
        git -C "$tree" -c core.autocrlf=false commit -q --no-verify --allow-empty \
        -m "black $v (PyPI sdist black-$v.tar.gz)"
    git -C "$tree" tag "$v"
}
commit "$base_version" "2023-02-01T12:00:00+00:00"
commit "$later_version" "2024-02-12T12:00:00+00:00"

base=$(git -C "$tree" rev-parse "$base_version^{commit}")
later=$(git -C "$tree" rev-parse "$later_version^{commit}")
echo "base  $base_version $base"
echo "later $later_version $later"
if [ "$base" != "$expect_base" ] || [ "$later" != "$expect_later" ]; then
    echo "error: SHAs differ from the expected $expect_base / $expect_later" >&2
    exit 1
fi

# Publish as a small bare repository: one pack packed as `gc --aggressive` would (window and
# depth 250, single-threaded for a stable pack), loose refs (so refs/ exists in a plain checkout
# of the repository that stores it), no hooks, logs or bitmaps.
bare=$out/repo.git
rm -rf "$bare"
git init -q --bare --template= "$bare"
git -C "$bare" symbolic-ref HEAD refs/heads/main
git -C "$tree" push -q "$bare" main "refs/tags/$base_version" "refs/tags/$later_version"
git -C "$bare" -c pack.threads=1 -c repack.writeBitmaps=false -c pack.writeReverseIndex=false \
    repack -q -a -d -f --window=250 --depth=250
rm -rf "$bare/objects/info" "$bare/hooks" "$bare/logs" "$bare/info" "$bare/description" \
    "$bare/FETCH_HEAD" "$bare/packed-refs"
git -C "$bare" fsck --no-progress --no-dangling
echo "wrote $bare ($(du -sh "$bare" | cut -f1))"
