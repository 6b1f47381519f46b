#!/usr/bin/env bash
# Recreates testdata/corpora/xh/repo.git from the published xh packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of xh-0.17.0.crate   (tags base, v0.17.0)
#   later  = the contents of xh-0.20.1.crate   (tags later, v0.20.1)
# Each tree is the package as published (src/, doc/, completions/, assets/, tests/, README.md,
# CHANGELOG.md, Cargo.lock, LICENSE included), with two packaging artefacts removed so that it
# looks like the upstream repository: Cargo.toml is replaced by Cargo.toml.orig (the manifest as
# the authors wrote it, not cargo's normalized copy) and .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding xh-0.17.0.crate and xh-0.20.1.crate; when a file is missing
#              there, the script fetches the package with `cargo fetch` through a throwaway
#              manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release xh 0.17.0 882580f5d019ac39543d7b18b63c865b8062dd2860b77da984dfd9733f7fc29e \
    2022-11-08T12:00:00+00:00 ducaale/xh 7300f3bf93b8810c7d184af7c04d3fd00a38583f base v0.17.0
crate_release xh 0.20.1 e918c30050c6e0c02a26523153347295a05b93720544f018d614f1a2ad6e9f68 \
    2023-11-19T12:00:00+00:00 ducaale/xh b694c7776b4e016cd5dfcbff42be6729fbdaa0af later v0.20.1
expect_commit base ba99790dad796fc764e0c4d08ab5065a1a66ed0d "xh 0.17.0"
expect_commit later 9ea1d26fdb760253d4197969c1ff539d982a9064 "xh 0.20.1"
publish gc
