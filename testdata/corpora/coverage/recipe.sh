#!/usr/bin/env bash
# Recreates the coverage corpus's repo.git (bare) from two PyPI sdists of coverage.py.
#
# The repository holds two commits on branch main:
#   base   = the contents of coverage-7.2.7.tar.gz   (tags base, v7.2.7)
#   later  = the contents of coverage-7.6.1.tar.gz   (tags later, v7.6.1)
# Each tree is the whole sdist as published, with the tarball's top directory stripped; nothing
# is added or removed: coverage/ (with the C tracer's sources under coverage/ctracer/ and the
# HTML report's assets under coverage/htmlfiles/), coverage.egg-info/, doc/, tests/, lab/, ci/,
# requirements/, .github/, CHANGES.rst, CONTRIBUTORS.txt, README.rst, LICENSE.txt, NOTICE.txt,
# setup.py, setup.cfg, pyproject.toml, tox.ini, igor.py, howto.txt, metacov.ini, pylintrc,
# Makefile, MANIFEST.in, PKG-INFO, __main__.py and the dot files (.editorconfig,
# .readthedocs.yml, .git-blame-ignore-revs). Both sdists were built with setuptools.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files in its simple index,
# https://pypi.org/simple/coverage/) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding coverage-7.2.7.tar.gz and coverage-7.6.1.tar.gz; a file
#              missing there is fetched with
#              `pip download --no-deps --no-binary :all: coverage==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release coverage coverage 7.2.7 coverage-7.2.7.tar.gz \
    924d94291ca674905fe9481f12294eb11f2d3d3fd1adb20314ba89e94f44ed59 \
    2023-05-29T12:00:00+00:00 base v7.2.7
sdist_release coverage coverage 7.6.1 coverage-7.6.1.tar.gz \
    953510dfb7b12ab69d20135a0662397f077c59b1e6379a768e97c59d852ee51d \
    2024-08-04T12:00:00+00:00 later v7.6.1
expect_commit base 98ea162c3cf92bda753880afd68f8c9e2839fd1c "coverage 7.2.7"
expect_commit later f574ee178bcebf81efcf8abd14cd8987aa84cf10 "coverage 7.6.1"
publish repack
