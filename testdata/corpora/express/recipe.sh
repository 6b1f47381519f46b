#!/usr/bin/env bash
# Recreates testdata/corpora/express/repo.git from four published express packages (npm).
#
# The repository holds four commits on branch main, one per release, each tree the package as
# published with the tarball's leading `package/` directory stripped and only the code kept:
#   base   = express-4.18.2.tgz   (tags base, v4.18.2)
#            express-4.19.2.tgz   (tag v4.19.2)
#            express-4.21.1.tgz   (tag v4.21.1)
#   later  = express-5.0.1.tgz    (tags later, v5.0.1)
# Kept: lib/, index.js, package.json and the MIT LICENSE (History.md and Readme.md, 130 KB that
# no page cites, are dropped so the committed repository stays small).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks every tarball against the registry's `dist.integrity` (sha512) and `dist.shasum` (sha1),
# as printed by `npm view express@VERSION dist`, and the resulting commit ids, and fails if any
# differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding express-VERSION.tgz for the four versions; when a file is
#            missing there, the script downloads it with `npm pack express@VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

# express_release VERSION SHA512_BASE64 SHA1 DATE TAG...: npm_release with only the code kept.
express_release() {
    local version=$1 sha512=$2 sha1=$3 date=$4
    shift 4
    fetch_npm express "$version" "$sha512" "$sha1"
    unpack "$RECIPE_FILE"
    find "$RECIPE_TREE" -mindepth 1 -maxdepth 1 ! -name .git ! -name lib ! -name index.js \
        ! -name package.json ! -name LICENSE -exec rm -rf {} +
    commit "$date" "$(npm_message express "$version")

Only lib/, index.js, package.json and LICENSE are kept." "$@"
}

express_release 4.18.2 \
    5/PsL6iGPdfQ/lKM1UuielYgv3BUoJfz1aUwU9vHZ+J7gyvwdQXFEBIEIaxeGf0GIcreATNyBExtalisDbuMqQ== \
    3fabe08296e930c796c19e3c516979386ba9fd59 2024-01-01T00:00:00+00:00 base v4.18.2
express_release 4.19.2 \
    5T6nhjsT+EOMzuck8JjBHARTHfMht0POzlA60WV2pMD3gyXw2LZnZ+ueGdNxG+0calOJcWKbpFcuzLZ91YWq9Q== \
    e25437827a3aa7f2a827bc8171bbbb664a356465 2024-01-01T00:01:00+00:00 v4.19.2
express_release 4.21.1 \
    YSFlK1Ee0/GC8QaO91tHcDxJiE/X4FbpAyQWkxAvG6AXCuR65YzK8ua6D9hvi/TzUfZMpc+BwuM1IPw8fmQBiQ== \
    9dae5dda832f16b4eec941a4e44aa89ec481b281 2024-01-01T00:02:00+00:00 v4.21.1
express_release 5.0.1 \
    ORF7g6qGnD+YtUG9yx4DFoqCShNMmUKiXuT5oWMHiOvt/4WFbHC6yCwQMTSBMno7AqntNCAzzcnnjowRkTL9eQ== \
    5d359a2550655be33124ecbc7400cd38436457e9 2024-01-01T00:03:00+00:00 later v5.0.1
expect_commit base 3e5447955ffdb056eb0c9aeb54e2e7b2d2efdd58 "express 4.18.2"
expect_commit v4.19.2 822162e94de1eba4addf5eac00e4a206cb493784 "express 4.19.2"
expect_commit v4.21.1 82649d917d5da1a788d8a225dc62f4044ad63928 "express 4.21.1"
expect_commit later df32a4a269585ffb674ef5ee60870ab915cde59c "express 5.0.1"
publish gc
