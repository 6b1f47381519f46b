#!/usr/bin/env bash
# Recreates testdata/corpora/commander/repo.git from the published commander packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of commander-11.1.0.tgz   (tags base, v11.1.0)
#   later  = the contents of commander-12.1.0.tgz   (tags later, v12.1.0)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped; nothing is added or removed (the package's LICENSE, MIT, is kept as published).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both tarballs against the registry's `dist.integrity` (sha512) and `dist.shasum`
# (sha1), as printed by `npm view commander@VERSION dist`, and the resulting commit ids, and
# fails if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding commander-11.1.0.tgz and commander-12.1.0.tgz; when a file is
#            missing there, the script downloads it with `npm pack commander@VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

npm_release commander 11.1.0 \
    yPVavfyCcRhmorC7rWlkHn15b4wDVgVmBA7kV4QVBsF7kv/9TKJAbAXVTxvTnwP8HHKjRCJDClKbciiYS7p0DQ== \
    62fdce76006a68e5c1ab3314dc92e800eb83d906 2023-11-01T12:00:00+00:00 base v11.1.0
npm_release commander 12.1.0 \
    Vw8qHK3bZM9y/P10u3Vib8o/DdkvA2OtPtZvD871QKjy74Wj1WSKFILMPRPSdUSx5RFK1arlJzEtA4PkFgnbuA== \
    01423b36f501259fdaac4d0e4d60c96c991585d3 2024-06-01T12:00:00+00:00 later v12.1.0
expect_commit base c851177996e7eca799923232093879f58026d99e "commander 11.1.0"
expect_commit later a9bd7363dd54a13d66714ff1f46794fdbad8c42a "commander 12.1.0"
publish gc
