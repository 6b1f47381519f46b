#!/usr/bin/env bash
# Recreates testdata/corpora/ripgrep/repo.git (bare) from two crates.io packages of ripgrep.
#
# The repository holds two commits on branch main:
#   base   = the contents of ripgrep-13.0.0.crate   (tags base, v13.0.0)
#   later  = the contents of ripgrep-14.0.0.crate   (tags later, v14.0.0)
# Each tree is the whole package as published (crates/core/, tests/, doc/, README.md,
# GUIDE.md, FAQ.md, CHANGELOG.md, the licence files, Cargo.toml as cargo normalized it,
# Cargo.toml.orig, Cargo.lock and .cargo_vcs_info.json; 13.0.0 also carries .github/,
# benchsuite/, ci/, complete/, pkg/ and scripts/),
# with the tarball's top directory stripped; nothing is added, removed or renamed.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both packages' sha256 (the checksums of the crates.io index, also found in any
# Cargo.lock) and the resulting commit ids, and fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [CRATE_DIR]
#   OUT_DIR    where repo.git is written, replacing an existing one (default: this directory)
#   CRATE_DIR  a directory holding ripgrep-13.0.0.crate and ripgrep-14.0.0.crate; a file missing
#              there is fetched with `cargo fetch` through a throwaway manifest and taken from
#              cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

# crate_as_published VERSION SHA256 DATE UPSTREAM_COMMIT TAG...: one ripgrep package, committed
# exactly as published (unlike crate_release, which swaps in Cargo.toml.orig).
crate_as_published() {
    local version=$1 sha256=$2 date=$3 upstream=$4
    shift 4
    fetch_crate ripgrep "$version" "$sha256"
    unpack "$RECIPE_FILE"
    commit "$date" "$(published_message "$version" "$upstream")" "$@"
}

# published_message VERSION UPSTREAM_COMMIT
published_message() {
    printf 'ripgrep %s as published on crates.io\n\n' "$1"
    printf 'Upstream commit %s of BurntSushi/ripgrep (from the\n' "$2"
    printf "package's .cargo_vcs_info.json). The whole package as published."
}

crate_as_published 13.0.0 f37c9d2c2bc7e00bd2653e13771397b94e452583da9b9494eabef627618d64bf \
    2021-06-12T12:00:00+00:00 af6b6c543b224d348a8876f0c06245d9ea7929c5 base v13.0.0
crate_as_published 14.0.0 68f689aa694f2ee1b1814b8495ccd1d0fa8ca7696ff5aad7351de19929698fe2 \
    2023-11-26T12:00:00+00:00 eeffcd50b71e84a6345c83d8a4c574d3543462ab later v14.0.0
expect_commit base 73a33a6192e3f3167dfcb11d661bc8bece626660 "ripgrep 13.0.0"
expect_commit later 74ce5339ac5da45b8f36b0d80740661d1925f715 "ripgrep 14.0.0"
publish gc
