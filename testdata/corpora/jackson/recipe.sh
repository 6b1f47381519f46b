#!/usr/bin/env bash
# Recreates testdata/corpora/jackson/repo.git (bare) from the Debian source packages of Jackson
# 2.14 (the upstream release tarballs as Debian ships them, "orig" tarballs).
#
# The repository holds one commit on branch main (tag base), whose tree is
#   jackson-databind/     files of jackson-databind_2.14.0.orig.tar.xz
#   jackson-core/         files of jackson-core_2.14.1.orig.tar.xz
#   jackson-annotations/  files of jackson-annotations_2.14.0.orig.tar.xz
# each with its top directory stripped, and of each package only the files listed in files.txt:
# the source files the corpus's pages cite and the package's LICENSE. (The whole three packages
# make a 4.9 MB repository; the cited files are all a reference, a symbol or a digest reads.)
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, packing). This script checks each
# tarball's sha256 (the Checksums-Sha256 of its Debian .dsc) and the resulting commit id, and
# fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [PKG_DIR]
#   OUT_DIR  where repo.git is written, replacing an existing one (default: this directory)
#   PKG_DIR  a directory holding the three .orig.tar.xz files (`apt-get source --download-only`
#            with a deb-src entry for Debian 12 puts them in the current directory); a file
#            missing there is downloaded from https://deb.debian.org/debian/pool/main/j/NAME/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

# orig NAME VERSION SHA256: the Debian orig tarball of NAME VERSION, fetched when missing and
# checked; its files listed in files.txt under NAME/ are put at NAME/ of the work tree.
orig() {
    local file="$1_$2.orig.tar.xz" sum
    if ! from_pkgs "$file"; then
        mkdir -p "$RECIPE_WORK/debian"
        RECIPE_FILE=$RECIPE_WORK/debian/$file
        curl --fail --silent --show-error --location --proto '=https' \
            -o "$RECIPE_FILE" "https://deb.debian.org/debian/pool/main/j/$1/$file"
    fi
    sum=$(sha256sum "$RECIPE_FILE" | cut -d' ' -f1)
    [ "$sum" = "$3" ] || die "$RECIPE_FILE has sha256 $sum, expected $3"
    mkdir -p "$RECIPE_TREE/$1"
    # The tarball's top directory is NAME-NAME-VERSION/ (GitHub's archive of tag NAME-VERSION).
    grep "^$1/" "$here/files.txt" | sed "s|^$1/|$1-$1-$2/|" > "$RECIPE_WORK/list"
    tar -xJf "$RECIPE_FILE" -C "$RECIPE_TREE/$1" --strip-components=1 --no-same-owner \
        --no-same-permissions -T "$RECIPE_WORK/list"
    [ "$(find "$RECIPE_TREE/$1" -type f | wc -l)" = "$(wc -l < "$RECIPE_WORK/list")" ] ||
        die "$file lacks some of the files listed for $1"
}

orig jackson-databind 2.14.0 ec086218027c3ecf235fcda042bf04d87b4178ee225f0633f062cd20e64f74a9
orig jackson-core 2.14.1 d9eb6aa1898c4d5a582c52e69da249efae25e4d2c809c57dc6b6ee01c4b0fb3b
orig jackson-annotations 2.14.0 d13d3488fba932cb3e2ba8187adc3cef92b8e6cdf6d50904b51020d57a75be86
commit 2024-01-01T00:00:00+00:00 \
    "jackson-databind 2.14.0, jackson-core 2.14.1, jackson-annotations 2.14.0: the cited files" base
expect_commit base 13459771b8a064bc7cfc34d36d475729a0faed43 "the cited files of the three packages"
publish gc
