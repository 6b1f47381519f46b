#!/usr/bin/env bash
# Recreates testdata/corpora/dotenv/repo.git (bare) from two PyPI sdists of python-dotenv.
#
# The repository holds two commits on branch main:
#   base   = the contents of python-dotenv-0.19.2.tar.gz   (tags base, v0.19.2)
#   later  = the contents of python-dotenv-1.0.0.tar.gz    (tags later, v1.0.0)
# Each tree is the whole sdist as published (src/dotenv/, src/python_dotenv.egg-info/, tests/,
# README.md, CHANGELOG.md, LICENSE, PKG-INFO, setup.py, setup.cfg included; 1.0.0 also carries
# docs/ and mkdocs.yml), with the tarball's top directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding python-dotenv-0.19.2.tar.gz and python-dotenv-1.0.0.tar.gz; a
#              file missing there is fetched with
#              `pip download --no-deps --no-binary :all: python-dotenv==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release python-dotenv python-dotenv 0.19.2 python-dotenv-0.19.2.tar.gz \
    a5de49a31e953b45ff2d2fd434bbc2670e8db5273606c1e737cc6b93eff3655f \
    2021-11-11T12:00:00+00:00 base v0.19.2
sdist_release python-dotenv python-dotenv 1.0.0 python-dotenv-1.0.0.tar.gz \
    a8df96034aae6d2d50a4ebe8216326c61c3eb64836776504fcca410e5937a3ba \
    2023-02-24T12:00:00+00:00 later v1.0.0
expect_commit base 7061aa6aad6633283955af9d69b1997770c4fcbd "python-dotenv 0.19.2"
expect_commit later aa86439d5dd9a7be134446933b78ce686706654d "python-dotenv 1.0.0"
publish repack
