#!/usr/bin/env bash
# Recreates testdata/corpora/arrow/repo.git (bare) from two PyPI sdists of arrow.
#
# The repository holds two commits on branch main:
#   base   = the contents of arrow-1.2.3.tar.gz   (tags base, v1.2.3)
#   later  = the contents of arrow-1.3.0.tar.gz   (tags later, v1.3.0)
# Each tree is the whole sdist as published (arrow/, docs/, tests/, requirements/, LICENSE,
# PKG-INFO, setup.py, setup.cfg included; the setuptools-built 1.2.3 sdist also carries
# arrow.egg-info/ and MANIFEST.in, the flit-built 1.3.0 sdist pyproject.toml, .github/ and a
# generated setup.py), with the tarball's top directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files) and the resulting
# commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding arrow-1.2.3.tar.gz and arrow-1.3.0.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: arrow==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release arrow arrow 1.2.3 arrow-1.2.3.tar.gz \
    3934b30ca1b9f292376d9db15b19446088d12ec58629bc3f0da28fd55fb633a1 \
    2022-09-03T12:00:00+00:00 base v1.2.3
sdist_release arrow arrow 1.3.0 arrow-1.3.0.tar.gz \
    d4540617648cb5f895730f1ad8c82a65f2dad0166f57b75f3ca54759c4d67a85 \
    2023-09-30T12:00:00+00:00 later v1.3.0
expect_commit base 3c4cbfb61fa863d6370f78c8862c1887eb23a8aa "arrow 1.2.3"
expect_commit later 3153d81144988096a6c07aaf3725fcea3b709321 "arrow 1.3.0"
publish repack
