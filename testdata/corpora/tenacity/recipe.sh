#!/usr/bin/env bash
# Recreates testdata/corpora/tenacity/repo.git (bare) from two PyPI sdists of tenacity.
#
# The repository holds two commits on branch main:
#   base   = the contents of tenacity-8.2.2.tar.gz   (tags base, v8.2.2)
#   later  = the contents of tenacity-9.0.0.tar.gz   (tags later, v9.0.0)
# Each tree is the whole sdist as published (tenacity/, doc/, tests/, releasenotes/, .github/,
# LICENSE, PKG-INFO, setup.cfg, tenacity.egg-info/ included), with the tarball's top directory
# stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding tenacity-8.2.2.tar.gz and tenacity-9.0.0.tar.gz; a file
#              missing there is fetched with
#              `pip download --no-deps --no-binary :all: tenacity==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release tenacity tenacity 8.2.2 tenacity-8.2.2.tar.gz \
    43af037822bd0029025877f3b2d97cc4d7bb0c2991000a3d59d71517c5c969e0 \
    2023-02-28T12:00:00+00:00 base v8.2.2
sdist_release tenacity tenacity 9.0.0 tenacity-9.0.0.tar.gz \
    807f37ca97d62aa361264d497b0e31e92b8027044942bfa756160d908320d73b \
    2024-07-29T12:00:00+00:00 later v9.0.0
expect_commit base b245003797d21e9031c97ce4279ed8b1310fe421 "tenacity 8.2.2"
expect_commit later ccade3a2189498793f4f8c89039262c1e8a5d032 "tenacity 9.0.0"
publish repack
