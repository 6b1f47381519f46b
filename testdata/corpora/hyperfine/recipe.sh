#!/usr/bin/env bash
# Recreates testdata/corpora/hyperfine/repo.git from the published hyperfine packages (crates.io).
#
# The repository holds two commits on branch main:
#   base   = the contents of hyperfine-1.16.1.crate (tags base, v1.16.1)
#   later  = the contents of hyperfine-1.18.0.crate (tags later, v1.18.0)
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
#   CRATE_DIR  a directory holding hyperfine-1.16.1.crate and hyperfine-1.18.0.crate; when a
#              file is missing there, the script fetches the package with `cargo fetch` through a
#              throwaway manifest and takes it from cargo's registry cache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

crate_release hyperfine 1.16.1 3fc9e639c43500724e686985134f024d344ba7a9e5564c8d8a5c1a1d19aefb81 \
    2023-03-20T12:00:00+00:00 sharkdp/hyperfine \
    b4cfbfaf7b4a1e3ec688a4b6b404fd0ca1038a15 base v1.16.1
crate_release hyperfine 1.18.0 5e1dfaa90af21f38b00bbcf41bae306caf201238ea7a7ee1e27784e31e31c090 \
    2023-10-10T12:00:00+00:00 sharkdp/hyperfine \
    24a0d5da1bff11567bbf307315d11cb0e10733ec later v1.18.0
expect_commit base cffd703f7f02f70b59c514da3173c328d0b07bcf "hyperfine 1.16.1"
expect_commit later b99409e896e71952157312358eb580fc8ba9db7a "hyperfine 1.18.0"
publish gc
