#!/usr/bin/env bash
# Recreates testdata/corpora/cobra/repo.git from two published spf13/cobra releases, as Debian's
# archive holds them (the upstream source tarballs of golang-github-spf13-cobra).
#
# The repository holds two commits on branch main:
#   base   = the contents of golang-github-spf13-cobra_1.6.1.orig.tar.gz   (tags base, v1.6.1)
#   later  = the contents of golang-github-spf13-cobra_1.8.1.orig.tar.gz   (tags later, v1.8.1)
# Each orig tarball is GitHub's archive of the upstream tag (top directory cobra-VERSION/, the
# tagged commit's id in its pax header), so each tree is the upstream repository at that tag as
# published: the Go code, the tests, doc/, the markdown documentation (at the top in 1.6.1, under
# site/content/ in 1.8.1), .github/, go.mod, go.sum, LICENSE.txt and the rest. Nothing is added
# or removed: the archive has no packaging artefacts (Debian's changes are in the separate
# .debian.tar.xz, which is not used).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both tarballs (the ones in Debian's Sources indexes: bookworm for 1.6.1,
# trixie for 1.8.1), the upstream commit id each tarball records, and the resulting commit ids,
# and fails if any differs. Dates are those of the upstream tagged commits (the tarballs' file
# times), at 12:00 UTC.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding the two .orig.tar.gz files; when a file is missing there, the
#            script downloads it from Debian's pool by its exact name
#            (http://deb.debian.org/debian/pool/main/g/golang-github-spf13-cobra/FILE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

POOL=http://deb.debian.org/debian/pool/main/g/golang-github-spf13-cobra

# fetch_orig FILE SHA256: a Debian orig tarball, taken from TGZ_DIR or downloaded from the pool;
# its sha256 is the one the archive's Sources index lists for the file.
fetch_orig() {
    local sum
    if ! from_pkgs "$1"; then
        mkdir -p "$RECIPE_WORK/orig"
        RECIPE_FILE=$RECIPE_WORK/orig/$1
        curl --fail --silent --show-error --location -o "$RECIPE_FILE" "$POOL/$1"
    fi
    sum=$(sha256sum "$RECIPE_FILE" | cut -d' ' -f1)
    [ "$sum" = "$2" ] || die "$RECIPE_FILE has sha256 $sum, expected $2"
}

# cobra_release VERSION SHA256 UPSTREAM_COMMIT DATE TAG...
cobra_release() {
    local version=$1 sha256=$2 upstream=$3 date=$4 file got
    shift 4
    file=golang-github-spf13-cobra_$version.orig.tar.gz
    fetch_orig "$file" "$sha256"
    got=$(gzip -dc "$RECIPE_FILE" | git get-tar-commit-id) || true
    [ "$got" = "$upstream" ] || die "$file records upstream commit '$got', expected $upstream"
    unpack "$RECIPE_FILE"
    commit "$date" "cobra $version as published (Debian's $file)

The contents of $file (deb.debian.org, pool/main/g/golang-github-spf13-cobra)
without its top directory: GitHub's archive of upstream commit
$upstream of spf13/cobra (tag v$version)." "$@"
}

cobra_release 1.6.1 f38f8b26895903be06089ff20882fc771dbca12f41cf81d7bd823be65e6cec52 \
    b43be995ebb4bee335a787bd44498b91aef7619c 2022-10-24T12:00:00+00:00 base v1.6.1
cobra_release 1.8.1 5d45f6fcce63f9f4dd12b34a15669335a35ca3f7bf297ba465c3fbf62308e5fe \
    e94f6d0dd9a5e5738dca6bce03c4b1207ffbc0ec 2024-06-01T12:00:00+00:00 later v1.8.1
expect_commit base 5f992f7ce8bc63dc5258140e4474f776b649f8db "cobra 1.6.1"
expect_commit later 5a8fe39062e6da42bc853971f13b7ff3abf450e5 "cobra 1.8.1"
publish gc
