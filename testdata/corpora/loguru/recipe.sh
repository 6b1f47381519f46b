#!/usr/bin/env bash
# Recreates testdata/corpora/loguru/repo.git (bare) from two PyPI sdists of loguru.
#
# The repository holds two commits on branch main:
#   base   = the contents of loguru-0.6.0.tar.gz   (tags base, v0.6.0)
#   later  = the contents of loguru-0.7.2.tar.gz   (tags later, v0.7.2)
# Each tree is the whole sdist as published (loguru/, tests/, README.rst, LICENSE, PKG-INFO,
# setup.py, setup.cfg, MANIFEST.in and loguru.egg-info/ included), with the tarball's top
# directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding loguru-0.6.0.tar.gz and loguru-0.7.2.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: loguru==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release loguru loguru 0.6.0 loguru-0.6.0.tar.gz \
    066bd06758d0a513e9836fd9c6b5a75bfb3fd36841f4b996bc60b547a309d41c \
    2022-01-29T12:00:00+00:00 base v0.6.0
sdist_release loguru loguru 0.7.2 loguru-0.7.2.tar.gz \
    e671a53522515f34fd406340ee968cb9ecafbc4b36c679da03c18fd8d0bd51ac \
    2023-09-11T12:00:00+00:00 later v0.7.2
expect_commit base 5a3a9bdf2556839aa390dd4cc9067623c5252bf2 "loguru 0.6.0"
expect_commit later 0ac9e6b544aa4e58e0c81d3ddd29ec1e15b262b0 "loguru 0.7.2"
publish repack
