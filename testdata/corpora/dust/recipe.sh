#!/usr/bin/env bash
# Recreates testdata/corpora/dust/repo.git from the published du-dust packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of du-dust-0.8.3.crate   (tags base, v0.8.3)
#   later  = the contents of du-dust-0.9.0.crate   (tags later, v0.9.0)
# Each tree is the package as published (src/, tests/, README.md, build.rs, Cargo.lock, LICENSE,
# ci/, config/config.toml, media/snap.png, .github/workflows/CICD.yml, .gitignore, and the
# shell completions in completions/; 0.9.0 also ships man-page/dust.1 and src/progress.rs),
# with two packaging artefacts removed so that it looks like the upstream repository:
# Cargo.toml is replaced by Cargo.toml.orig (the manifest as the authors wrote it, not cargo's
# normalized copy) and .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding du-dust-0.8.3.crate and du-dust-0.9.0.crate; when a file is
#              missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release du-dust 0.8.3 1d2a6dc6d55539c1c5bd32f75937c3f6a3555cfce62e572a5afcb496477051b5 \
    2022-09-01T12:00:00+00:00 bootandy/dust c363e5ff8b7d141a7f93d059e1109f79778430eb base v0.8.3
crate_release du-dust 0.9.0 1d76298a215e5c82cfb3dad725fdff2f03004486a83cf7960c309ba80be68671 \
    2024-01-09T12:00:00+00:00 bootandy/dust fead40b6283255173345e3742c22e74f3dd30673 later v0.9.0
expect_commit base db0d8c1cf5f6bab5df8c13dd6b41e43fb06c1437 "du-dust 0.8.3"
expect_commit later 61fb042596274d1c20fa3e90dd84073dc2697119 "du-dust 0.9.0"
publish gc
