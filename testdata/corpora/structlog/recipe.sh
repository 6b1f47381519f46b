#!/usr/bin/env bash
# Recreates testdata/corpora/structlog/repo.git (bare) from two PyPI sdists of structlog.
#
# The repository holds two commits on branch main:
#   base   = the contents of structlog-22.1.0.tar.gz   (tags base, v22.1.0)
#   later  = the contents of structlog-23.2.0.tar.gz   (tags later, v23.2.0)
# Each tree is the whole sdist as published (src/structlog/, docs/, tests/, CHANGELOG.md,
# LICENSE-*, PKG-INFO, pyproject.toml included), with the tarball's top directory stripped;
# nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding structlog-22.1.0.tar.gz and structlog-23.2.0.tar.gz; a file
#              missing there is fetched with
#              `pip download --no-deps --no-binary :all: structlog==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release structlog structlog 22.1.0 structlog-22.1.0.tar.gz \
    94b29b1d62b2659db154f67a9379ec1770183933d6115d21f21aa25cfc9a7393 \
    2022-07-20T12:00:00+00:00 base v22.1.0
sdist_release structlog structlog 23.2.0 structlog-23.2.0.tar.gz \
    334666b94707f89dbc4c81a22a8ccd34449f0201d5b1ee097a030b577fa8c858 \
    2023-10-09T12:00:00+00:00 later v23.2.0
expect_commit base ab219c60395aaeb3a9153c5daa6a0a29c9972b68 "structlog 22.1.0"
expect_commit later 077ec0d14f6ec9967fd30567fb05f93f08e4b9dc "structlog 23.2.0"
publish repack
