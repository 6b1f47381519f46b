#!/usr/bin/env bash
# Recreates testdata/corpora/ws/repo.git from the published ws packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of ws-8.13.0.tgz   (tags base, v8.13.0)
#   later  = the contents of ws-8.16.0.tgz   (tags later, v8.16.0)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped; nothing is added or removed (the package's LICENSE, MIT, is kept as published).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both tarballs against the registry's `dist.integrity` (sha512) and `dist.shasum`
# (sha1), as printed by `npm view ws@VERSION dist`, and the resulting commit ids, and
# fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding ws-8.13.0.tgz and ws-8.16.0.tgz; when a file is
#            missing there, the script downloads it with `npm pack ws@VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

npm_release ws 8.13.0 \
    x9vcZYTrFPC7aSIbj7sRCYo7L/Xb8Iy+pW0ng0wt2vCJv7M9HOMy0UoN3rr+IFC7hb7vXoqS+P9ktyLLLhO+LA== \
    9a9fb92f93cf41512a0735c8f4dd09b8a1211cd0 2023-03-15T12:00:00+00:00 base v8.13.0
npm_release ws 8.16.0 \
    HS0c//TP7Ina87TfiPUz1rQzMhHrl/SG2guqRcTOIUYD2q8uhUdNHZYJUaQ8aTGPzCh+c6oawMKW35nFl1dxyQ== \
    d1cd774f36fbc07165066a60e40323eab6446fd4 2024-01-01T12:00:00+00:00 later v8.16.0
expect_commit base f92c7866dea8e04feab799e15165985dc6e404f9 "ws 8.13.0"
expect_commit later d0cb99c5f896e98e9e9b31eb98b2984b6f73acce "ws 8.16.0"
publish gc
