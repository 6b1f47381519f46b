#!/usr/bin/env bash
# Recreates testdata/corpora/zoxide/repo.git from the published zoxide packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of zoxide-0.8.3.crate   (tags base, v0.8.3)
#   later  = the contents of zoxide-0.9.4.crate   (tags later, v0.9.4)
# Each tree is the package as published (src/, templates/, man/man1/, contrib/, tests/,
# .github/, README.md, CHANGELOG.md, Cargo.lock, LICENSE, install.sh, ...), with two packaging
# artefacts removed so that it looks like the upstream repository: Cargo.toml is replaced by
# Cargo.toml.orig (the manifest as the authors wrote it, not cargo's normalized copy) and
# .cargo_vcs_info.json is dropped.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both packages (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if either differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written (default: the directory of this script)
#   CRATE_DIR  a directory holding zoxide-0.8.3.crate and zoxide-0.9.4.crate; when a file is
#              missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release zoxide 0.8.3 830aefa5b59b41e0b301a4f00d34856077ef566b712cc2810576b844df16bb78 \
    2022-09-02T12:00:00+00:00 ajeetdsouza/zoxide 0e21153107e245e254e0ee8c63fd7cbc44a1433c base v0.8.3
crate_release zoxide 0.9.4 b63454ebcaef48ff750df7662a274f0c70f822e354878687c834dd3e56330397 \
    2024-02-21T12:00:00+00:00 ajeetdsouza/zoxide 418a78d348445ddca0e15b1e95c4f17e4c628b19 later v0.9.4
expect_commit base 33041ea4900358488877457d5804bf172b2325da "zoxide 0.8.3"
expect_commit later b742d5740113d4af70a25eef66dbe8cdef69a2df "zoxide 0.9.4"
publish gc
