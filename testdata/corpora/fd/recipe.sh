#!/usr/bin/env bash
# Recreates testdata/corpora/fd/repo.git from the published fd-find packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of fd-find-8.7.1.crate   (tags base, v8.7.1)
#   later  = the contents of fd-find-10.5.0.crate  (tags later, v10.5.0)
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
#   CRATE_DIR  a directory holding fd-find-8.7.1.crate and fd-find-10.5.0.crate; when a file
#              is missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release fd-find 8.7.1 66cb1e921cbd148d9f3dfb26b644e8ce3833ca0b47a4be07905a6af2a7d20064 \
    2023-10-01T12:00:00+00:00 sharkdp/fd 4f81778774463bf414a184cbe6d5219ad2229646 base v8.7.1
crate_release fd-find 10.5.0 f35becce49c551724fd26d9824ec01d6578868cecbcc4e3d060658f9f8ad1e4d \
    2025-06-01T12:00:00+00:00 sharkdp/fd 6b5fe1c6344e9e2dc979ab3ce797e755c63a5159 later v10.5.0
expect_commit base 46746648b35ebe34be3b42cdbc4fc4faa7261eb1 "fd-find 8.7.1"
expect_commit later ad9078cb307f278d9971b72f9ca94f3ae14dbbf9 "fd-find 10.5.0"
publish gc
