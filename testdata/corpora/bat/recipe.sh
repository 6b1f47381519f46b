#!/usr/bin/env bash
# Recreates repo.git of the bat corpus from the published bat packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of bat-0.22.1.crate   (tags base, v0.22.1)
#   later  = the contents of bat-0.24.0.crate   (tags later, v0.24.0)
# Each tree is the package as published (src/ with the library and the bin/bat binary, assets/
# with the man page template, completions and the prebuilt syntaxes.bin/themes.bin, doc/,
# tests/, examples/, build.rs, Cargo.lock, README.md, CHANGELOG.md, the licence files), with two
# packaging artefacts removed so that it looks like the upstream repository: Cargo.toml is
# replaced by Cargo.toml.orig (the manifest as the authors wrote it, not cargo's normalized
# copy) and .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding bat-0.22.1.crate and bat-0.24.0.crate; when a file is
#              missing there, the script downloads it from
#              https://static.crates.io/crates/bat/bat-VERSION.crate (the file cargo itself
#              downloads), so that no other package is fetched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_static_release bat 0.22.1 fbfdea7507f0848118a3be1a76643a92705a9ff675796f9cadb309b7e95ab65d \
    2022-09-10T12:00:00+00:00 sharkdp/bat e5d95796141a719e208208182a5d3c2090a009c6 base v0.22.1
crate_static_release bat 0.24.0 9dcc9e5637c2330d8eb7b920f2aa5d9e184446c258466f825ea1412c7614cc86 \
    2023-10-11T12:00:00+00:00 sharkdp/bat fc9546854f5a7b38823f4990453c6cde386bfd3b later v0.24.0
expect_commit base f3f6edbc9f3bfaa3dd6c5905da54c048bfb43494 "bat 0.22.1"
expect_commit later 64918200628addd74b4779dd8c94f7ec1f5c180b "bat 0.24.0"
publish gc
