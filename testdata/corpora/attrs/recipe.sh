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
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding attrs-22.2.0.tar.gz and attrs-23.2.0.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: attrs==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release attrs attrs 22.2.0 attrs-22.2.0.tar.gz \
    c9227bfc2f01993c03f68db37d1d15c9690188323c067c641f1a35ca58185f99 \
    2022-12-21T12:00:00+00:00 base v22.2.0
sdist_release attrs attrs 23.2.0 attrs-23.2.0.tar.gz \
    935dc3b529c262f6cf76e50877d35a4bd3c1de194fd41f47a2b7ae8f19971f30 \
    2023-12-31T12:00:00+00:00 later v23.2.0
expect_commit base 6546f673caa0c8cf5e1026aa114dc252473d1330 "attrs 22.2.0"
expect_commit later e5f262181648d0b16a56596344efedd554693209 "attrs 23.2.0"
publish repack
