#!/usr/bin/env bash
# Recreates testdata/corpora/tealdeer/repo.git from the published tealdeer packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of tealdeer-1.5.0.crate   (tags base, v1.5.0)
#   later  = the contents of tealdeer-1.7.0.crate   (tags later, v1.7.0)
# Each tree is the package as published (src/, tests/, README.md, Cargo.lock, LICENSE-MIT,
# LICENSE-APACHE, and the shell completions: bash_tealdeer and fish_tealdeer at the top in
# 1.5.0, completion/ in 1.7.0), with two packaging artefacts removed so that it looks like the
# upstream repository: Cargo.toml is replaced by Cargo.toml.orig (the manifest as the authors
# wrote it, not cargo's normalized copy) and .cargo_vcs_info.json is dropped. The packages hold
# no CHANGELOG and no docs/ (the mdbook user manual is not published in the crate).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding tealdeer-1.5.0.crate and tealdeer-1.7.0.crate; when a file is
#              missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release tealdeer 1.5.0 46c3d82c5ccab6019ab4a4e51dcb0d60e584eb51b389a71f033a74547eae1085 \
    2021-12-31T12:00:00+00:00 tealdeer-rs/tealdeer 81c30bfb77fcb4ac1d9ee2d645ef9a17c516d48e base v1.5.0
crate_release tealdeer 1.7.0 34c65aaf99666214fec465a31fe7f46b71d217f44010b927e8db7d0f3f266013 \
    2024-10-02T12:00:00+00:00 tealdeer-rs/tealdeer d44613cf59445b910a75b7df489466f1948b5d44 later v1.7.0
expect_commit base 98e12759adcaa95ca00542ead31f7bd75b254b15 "tealdeer 1.5.0"
expect_commit later 76bd8b4fdd994a41073d07911e37554dc9a78869 "tealdeer 1.7.0"
publish gc
