#!/usr/bin/env bash
# Recreates testdata/corpora/httpx/repo.git (bare) from two PyPI sdists of httpx.
#
# The repository holds two commits on branch main:
#   base   = the contents of httpx-0.23.0.tar.gz   (tags base, v0.23.0)
#   later  = the contents of httpx-0.25.0.tar.gz   (tags later, v0.25.0)
# Each tree is the whole sdist as published (httpx/, README.md, CHANGELOG.md, LICENSE.md,
# PKG-INFO, tests/ where shipped; the 0.23.0 sdist also carries setup.py, setup.cfg,
# MANIFEST.in and httpx.egg-info/, the 0.25.0 sdist pyproject.toml and .gitignore), with the
# tarball's top directory stripped; nothing is added or removed. Neither sdist ships docs/.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding httpx-0.23.0.tar.gz and httpx-0.25.0.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: httpx==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release httpx httpx 0.23.0 httpx-0.23.0.tar.gz \
    f28eac771ec9eb4866d3fb4ab65abd42d38c424739e80c08d8d20570de60b0ef \
    2022-05-23T12:00:00+00:00 base v0.23.0
sdist_release httpx httpx 0.25.0 httpx-0.25.0.tar.gz \
    47ecda285389cb32bb2691cc6e069e3ab0205956f681c5b2ad2325719751d875 \
    2023-09-11T12:00:00+00:00 later v0.25.0
expect_commit base 6b036eca3f5fccaf58a4a4acf5141c34c2a13da1 "httpx 0.23.0"
expect_commit later 1aa9eb139b01b927bfbf07dc9073027d4e76cee9 "httpx 0.25.0"
publish repack
