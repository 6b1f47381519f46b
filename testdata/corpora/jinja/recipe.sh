#!/usr/bin/env bash
# Recreates testdata/corpora/jinja/repo.git (bare) from two PyPI sdists of Jinja2.
#
# The repository holds two commits on branch main:
#   base   = the contents of Jinja2-3.0.3.tar.gz   (tags base, v3.0.3)
#   later  = the contents of jinja2-3.1.4.tar.gz   (tags later, v3.1.4)
# Each tree is the whole sdist as published (docs/, tests/, examples/, LICENSE.rst included),
# with the tarball's top directory stripped; nothing is added or removed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both sdists' sha256 (the digests PyPI publishes for these files; `pip download
# --require-hashes` accepted them) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [SDIST_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   SDIST_DIR  a directory holding Jinja2-3.0.3.tar.gz and jinja2-3.1.4.tar.gz; a file missing
#              there is fetched with `pip download --no-deps --no-binary :all: jinja2==VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

sdist_release jinja2 Jinja2 3.0.3 Jinja2-3.0.3.tar.gz \
    611bb273cd68f3b993fabdc4064fc858c5b47a973cb5aa7999ec1ba405c87cd7 \
    2021-11-09T12:00:00+00:00 base v3.0.3
sdist_release jinja2 Jinja2 3.1.4 jinja2-3.1.4.tar.gz \
    4a3aee7acbbe7303aede8e9648d13b8bf88a429282aa6122a993f0ac800cb369 \
    2024-05-05T12:00:00+00:00 later v3.1.4
expect_commit base a038da347d881c92d1dee43dc0227126f4d9cefa "Jinja2 3.0.3"
expect_commit later e01f0550408a9e8cf7bfc6e1eb1666ccf6a67a96 "Jinja2 3.1.4"
publish repack
