#!/usr/bin/env bash
# Recreates the werkzeug corpus's repo.git (bare) from two PyPI sdists of Werkzeug.
#
# The repository holds two commits on branch main:
#   base   = the contents of Werkzeug-2.2.3.tar.gz   (tags base, v2.2.3)
#   later  = the contents of werkzeug-3.0.3.tar.gz   (tags later, v3.0.3)
# Each tree is the whole sdist as published, with the tarball's top directory stripped; nothing
# is added or removed: src/werkzeug/, docs/, tests/, examples/, requirements/, CHANGES.rst,
# the README and licence, PKG-INFO and tox.ini. The 2.2.3 sdist was built with setuptools and
# also carries setup.py, setup.cfg, MANIFEST.in, artwork/ and src/Werkzeug.egg-info/; the 3.0.3
# one was built with flit and carries pyproject.toml instead (and README.md and LICENSE.txt in
# place of README.rst and LICENSE.rst).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files in its simple index,
# https://pypi.org/simple/werkzeug/) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding Werkzeug-2.2.3.tar.gz and werkzeug-3.0.3.tar.gz; a file
#              missing there is fetched with
#              `pip download --no-deps --no-binary :all: werkzeug==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release werkzeug Werkzeug 2.2.3 Werkzeug-2.2.3.tar.gz \
    2e1ccc9417d4da358b9de6f174e3ac094391ea1d4fbef2d667865d819dfd0afe \
    2023-02-14T12:00:00+00:00 base v2.2.3
sdist_release werkzeug Werkzeug 3.0.3 werkzeug-3.0.3.tar.gz \
    097e5bfda9f0aba8da6b8545146def481d06aa7d3266e7448e2cccf67dd8bd18 \
    2024-05-05T12:00:00+00:00 later v3.0.3
expect_commit base a6dc1f9a11148e4631d0f93fb4c3386da1998ae0 "Werkzeug 2.2.3"
expect_commit later 8c3769793794a6c131ccbfddb3c7d5734701f2c6 "Werkzeug 3.0.3"
publish repack
