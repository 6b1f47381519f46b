#!/usr/bin/env bash
# Recreates testdata/corpora/tqdm/repo.git (bare) from two PyPI sdists of tqdm.
#
# The repository holds two commits on branch main:
#   base   = the contents of tqdm-4.64.1.tar.gz   (tags base, v4.64.1)
#   later  = the contents of tqdm-4.66.2.tar.gz   (tags later, v4.66.2)
# Each tree is the whole sdist as published (tqdm/, tests/, examples/, README.rst, LICENCE,
# PKG-INFO, setup.cfg, tqdm.egg-info/ and the other files the sdist carries), with the tarball's
# top directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding tqdm-4.64.1.tar.gz and tqdm-4.66.2.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: tqdm==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release tqdm tqdm 4.64.1 tqdm-4.64.1.tar.gz \
    5f4f682a004951c1b450bc753c710e9280c5746ce6ffedee253ddbcbf54cf1e4 \
    2022-09-03T12:00:00+00:00 base v4.64.1
sdist_release tqdm tqdm 4.66.2 tqdm-4.66.2.tar.gz \
    6cd52cdf0fef0e0f543299cfc96fec90d7b8a7e88745f411ec33eb44d5ed3531 \
    2024-02-10T12:00:00+00:00 later v4.66.2
expect_commit base 2c11d1d7cb07e4150669a7946da0943fb1d30abc "tqdm 4.64.1"
expect_commit later 24d3457b3d84c7233cf07dbf911fd568658361c9 "tqdm 4.66.2"
publish repack
