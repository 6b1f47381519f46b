#!/usr/bin/env bash
# Recreates the flask corpus's repo.git (bare) from two PyPI sdists of Flask.
#
# The repository holds two commits on branch main:
#   base   = the contents of Flask-2.2.5.tar.gz   (tags base, v2.2.5)
#   later  = the contents of flask-3.0.3.tar.gz   (tags later, v3.0.3)
# Each tree is the whole sdist as published, with the tarball's top directory stripped; nothing
# is added or removed: src/flask/, docs/, tests/, examples/, requirements/, CHANGES.rst,
# CONTRIBUTING.rst, the README and licence, PKG-INFO and tox.ini. The 2.2.5 sdist was built with
# setuptools and also carries setup.py, setup.cfg, MANIFEST.in, artwork/ and src/Flask.egg-info/;
# the 3.0.3 one was built with flit and carries pyproject.toml instead (and README.md and
# LICENSE.txt in place of README.rst and LICENSE.rst).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files in its simple index)
# and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding Flask-2.2.5.tar.gz and flask-3.0.3.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: flask==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release flask Flask 2.2.5 Flask-2.2.5.tar.gz \
    edee9b0a7ff26621bd5a8c10ff484ae28737a2410d99b0bb9a6850c7fb977aa0 \
    2023-05-02T12:00:00+00:00 base v2.2.5
sdist_release flask Flask 3.0.3 flask-3.0.3.tar.gz \
    ceb27b0af3823ea2737928a4d99d125a06175b8512c445cbd9a9ce200ef76842 \
    2024-04-07T12:00:00+00:00 later v3.0.3
expect_commit base f4a6569b355c594102c2185302c24d060ea024e6 "Flask 2.2.5"
expect_commit later e09557e08955b59ce56074cd20ab8c8e70dd5b8d "Flask 3.0.3"
publish repack
