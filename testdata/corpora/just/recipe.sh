#!/usr/bin/env bash
# Recreates testdata/corpora/just/repo.git from the published just packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of just-1.14.0.crate (tags base, v1.14.0)
#   later  = the contents of just-1.25.2.crate (tags later, v1.25.2)
# Each tree is the package as published, with two packaging artefacts removed so that it looks
# like the upstream repository: Cargo.toml is replaced by Cargo.toml.orig (the manifest as the
# authors wrote it, not cargo's normalized copy) and .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding just-1.14.0.crate and just-1.25.2.crate; when a
#              file is missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release just 1.14.0 3ad25fe62999a7972b8cfac6608e1a18ad9245c353e1e8b9e6c7c9fa0f6a4e4d \
    2023-06-05T12:00:00+00:00 casey/just 8e3a2a088213692f874ae9314e5ecd9ed56e2bc6 base v1.14.0
crate_release just 1.25.2 d987074c36bf7e4767ba6e590cb58a5ecf9f61c12ac08bb38ebdd10d1d303b42 \
    2024-03-15T12:00:00+00:00 casey/just ffbe500d3f98166ac0912068bfe2999dae3ce796 later v1.25.2
expect_commit base 11fbf8730b1bdddac251d3d22e86cd67bb91a66e "just 1.14.0"
expect_commit later a4d7dbe411ebe8a95a5fad7074a5a5e9aa86e641 "just 1.25.2"
publish gc
