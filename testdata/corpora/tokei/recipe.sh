#!/usr/bin/env bash
# Recreates testdata/corpora/tokei/repo.git from the published tokei packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of tokei-12.0.4.crate   (tags base, v12.0.4)
#   later  = the contents of tokei-13.0.0.crate   (tags later, v13.0.0)
# Each tree is the package as published (src/, languages.json, build.rs, Cargo.lock, the two
# licence files; 13.0.0 also carries README.md), with two packaging artefacts removed so that it
# looks like the upstream repository: Cargo.toml is replaced by Cargo.toml.orig (the manifest as
# the authors wrote it, not cargo's normalized copy) and .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding tokei-12.0.4.crate and tokei-13.0.0.crate; when a file is
#              missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release tokei 12.0.4 61fef2813bec8a83ec1c0f7e25a650cd57047b220e1ce8828b6cc752b9cf5ba8 \
    2020-06-24T12:00:00+00:00 XAMPPRocky/tokei ca4bab1124aeccf00e888b666313d1a1a5d78c32 base v12.0.4
crate_release tokei 13.0.0 3a9791c506cf4a8b6ab053c88ec41a1e2ae19df2f6e81f3bfc34380d1d6e2964 \
    2025-11-25T12:00:00+00:00 XAMPPRocky/tokei 6f3556bd664c6483661d432a1270b1d2a69b82ec later v13.0.0
expect_commit base 836304845dae216288d1a5063ad255cd1e5798a7 "tokei 12.0.4"
expect_commit later 178dbeafa33b587ed377f16873c6e4c9aff215cb "tokei 13.0.0"
publish gc
