#!/usr/bin/env bash
# Recreates testdata/corpora/toml/repo.git (bare) from three crates.io packages of toml-rs/toml.
#
# The repository holds one commit on branch main (tags base, v0.8.19), whose tree is
#   crates/toml/           the contents of toml-0.8.19.crate
#   crates/toml_edit/      the contents of toml_edit-0.22.22.crate
#   crates/toml_datetime/  the contents of toml_datetime-0.6.8.crate
# each package with its top directory stripped and cargo's two packaging artefacts removed
# (.cargo_vcs_info.json, Cargo.toml.orig; Cargo.toml is the normalized manifest as published).
# This is the layout, identity, date and message of the tree the corpus's pages were written
# against (stop 51's Rust trace walk), so the commit is the one they pin.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks each package's sha256 (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit id, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   CRATE_DIR  a directory holding toml-0.8.19.crate, toml_edit-0.22.22.crate and
#              toml_datetime-0.6.8.crate; a file missing there is downloaded from
#              https://static.crates.io/crates/NAME/NAME-VERSION.crate (cargo's registry cache,
#              ~/.cargo/registry/cache/*/, holds them after any build that used them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
# The walk committed its tree as this identity; keeping it reproduces the commit its pages pin.
export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=t@example.invalid
export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=t@example.invalid
recipe_start "${1:-$here}" "${2:-}"

fetch_crate_static toml 0.8.19 a1ed1f98e3fdc28d6d910e6737ae6ab1a93bf1985935a1193e68f93eeb68d24e
unpack_crate_at "$RECIPE_FILE" crates/toml
fetch_crate_static toml_edit 0.22.22 4ae48d6208a266e853d946088ed816055e556cc6028c5e8e2b84d9fa5dd7c7f5
unpack_crate_at "$RECIPE_FILE" crates/toml_edit
fetch_crate_static toml_datetime 0.6.8 0dd7358ecb8fc2f8d014bf86f6f638ce72ba252a2c3a2572f2a795f1d23efb41
unpack_crate_at "$RECIPE_FILE" crates/toml_datetime
commit 2024-01-01T00:00:00+00:00 \
    "toml 0.8.19, toml_edit 0.22.22, toml_datetime 0.6.8 from crates.io" base v0.8.19
expect_commit base 9969fd546d807717ad532fdb16b4d343a91b8704 "toml 0.8.19, toml_edit 0.22.22, toml_datetime 0.6.8"
publish gc
