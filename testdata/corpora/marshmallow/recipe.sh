#!/usr/bin/env bash
# Recreates testdata/corpora/marshmallow/repo.git (bare) from two PyPI sdists of marshmallow.
#
# The repository holds two commits on branch main:
#   base   = the contents of marshmallow-3.19.0.tar.gz   (tags base, v3.19.0)
#   later  = the contents of marshmallow-3.22.0.tar.gz   (tags later, v3.22.0)
# Each tree is the whole sdist as published (src/marshmallow/, docs/, tests/, LICENSE, PKG-INFO,
# CHANGELOG.rst included; the 3.19.0 sdist also carries setup.py, setup.cfg, examples/ and
# src/marshmallow.egg-info/), with the tarball's top directory stripped; nothing is added or
# removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding marshmallow-3.19.0.tar.gz and marshmallow-3.22.0.tar.gz; a
#              file missing there is fetched with
#              `pip download --no-deps --no-binary :all: marshmallow==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release marshmallow marshmallow 3.19.0 marshmallow-3.19.0.tar.gz \
    90032c0fd650ce94b6ec6dc8dfeb0e3ff50c144586462c389b81a07205bedb78 \
    2022-11-11T12:00:00+00:00 base v3.19.0
sdist_release marshmallow marshmallow 3.22.0 marshmallow-3.22.0.tar.gz \
    4972f529104a220bb8637d595aa4c9762afbe7f7a77d82dc58c1615d70c5823e \
    2024-08-20T12:00:00+00:00 later v3.22.0
expect_commit base 333a4c8ed0f1df8f62a80208fe163871584d196d "marshmallow 3.19.0"
expect_commit later a5a53038f6dc93a3ae79b50882bb887e48dd864a "marshmallow 3.22.0"
publish repack
