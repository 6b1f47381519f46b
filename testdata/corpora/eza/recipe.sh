#!/usr/bin/env bash
# Recreates repo.git of the eza corpus from the published eza packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of eza-0.17.0.crate   (tags base, v0.17.0)
#   later  = the contents of eza-0.18.0.crate   (tags later, v0.18.0)
# Each tree is the package as published (src/ with the binary and its library, man/ with the
# markdown sources of eza.1, eza_colors.5 and eza_colors-explanation.5, completions/, docs/,
# benches/, snap/, build.rs, Cargo.lock, README.md, INSTALL.md, CHANGELOG.md, LICENCE and the
# project documents), with two packaging artefacts removed so that it looks like the upstream
# repository: Cargo.toml is replaced by Cargo.toml.orig (the manifest as the authors wrote it,
# not cargo's normalized copy) and .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io sparse index,
# https://index.crates.io/3/e/eza, also found in any Cargo.lock) and the resulting commit ids,
# and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding eza-0.17.0.crate and eza-0.18.0.crate; when a file is
#              missing there, the script downloads it from
#              https://static.crates.io/crates/eza/eza-VERSION.crate (the file cargo itself
#              downloads), so that no other package is fetched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_static_release eza 0.17.0 7918af629059fb98a64b6d27b776aba5c22556ad2785f4bcf02d5b41e053dd08 \
    2023-12-13T12:00:00+00:00 eza-community/eza edcf392c78abd8abea76d4f59fb639ad134a0d8b base v0.17.0
crate_static_release eza 0.18.0 c326561a923913356b0d6ed4feea12d0b1a16ff2b248b4656d46e9438b047f7b \
    2024-02-01T12:00:00+00:00 eza-community/eza 1e091f18b89b878ab3bfffd2b4f95ea800e562b7 later v0.18.0
expect_commit base 7301a537411d2252709000004e1354392738c6b6 "eza 0.17.0"
expect_commit later 8a46f918cfb6b2862edd92ca882cbb7901ffc924 "eza 0.18.0"
publish gc
