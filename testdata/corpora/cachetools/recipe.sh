#!/usr/bin/env bash
# Recreates testdata/corpora/cachetools/repo.git (bare) from the PyPI sdist of cachetools 5.3.3.
#
# The repository holds one commit on branch main:
#   base = the contents of cachetools-5.3.3.tar.gz   (tags base, v5.3.3)
# The tree is the whole sdist as published (src/cachetools/, src/cachetools.egg-info/, docs/,
# tests/, README.rst, CHANGELOG.rst, LICENSE, PKG-INFO, setup.py, setup.cfg, tox.ini included),
# with the tarball's top directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sdist's sha256 (the digest PyPI publishes for the file) and the resulting commit
# id, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding cachetools-5.3.3.tar.gz; when it is missing there it is fetched
#              with `pip download --no-deps --no-binary :all: cachetools==5.3.3`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release cachetools cachetools 5.3.3 cachetools-5.3.3.tar.gz \
    ba29e2dfa0b8b556606f097407ed1aa62080ee108ab0dc5ec9d6a723a007d105 \
    2024-02-26T12:00:00+00:00 base v5.3.3
expect_commit base 503fa54c44f2d4227e400c2a99430e9fa9726c31 "cachetools 5.3.3"
publish repack
