#!/usr/bin/env bash
# Recreates testdata/corpora/click/repo.git (bare) from two PyPI sdists of click.
#
# The repository holds two commits on branch main:
#   base   = the contents of click-8.0.4.tar.gz   (tags base, v8.0.4)
#   later  = the contents of click-8.1.7.tar.gz   (tags later, v8.1.7)
# Each tree is the whole sdist as published (docs/, tests/, examples/, artwork/, LICENSE.rst
# included), with the tarball's top directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding click-8.0.4.tar.gz and click-8.1.7.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: click==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release click click 8.0.4 click-8.0.4.tar.gz \
    8458d7b1287c5fb128c90e23381cf99dcde74beaf6c7ff6384ce84d6fe090adb \
    2022-02-18T12:00:00+00:00 base v8.0.4
sdist_release click click 8.1.7 click-8.1.7.tar.gz \
    ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de \
    2023-08-17T12:00:00+00:00 later v8.1.7
expect_commit base 9753cb027af20d8e47b40d67302061d060999cf7 "click 8.0.4"
expect_commit later 93f8f5ded6f100b0884721f0c4e0bd881f198453 "click 8.1.7"
publish repack
