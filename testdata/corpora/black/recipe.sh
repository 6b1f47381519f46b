#!/usr/bin/env bash
# Recreates repo.git (bare) for the black corpus from two PyPI sdists of black, as two commits
# with fixed author/committer identity and dates, and checks the resulting commit SHAs.
#
#   testdata/corpora/black/recipe.sh [OUT_DIR]
#
# OUT_DIR defaults to the directory of this script (it writes OUT_DIR/repo.git, replacing an
# existing one). Sdists are fetched with `pip download` (PyPI) unless SDIST_DIR names a directory
# that already holds black-23.1.0.tar.gz and black-24.2.0.tar.gz; their sha256 is checked either
# way. Each commit holds the whole sdist tree (top directory stripped), unfiltered. The plumbing
# is ../tools/recipe-lib.sh; unlike the other corpora, the commits are tagged with the bare
# versions only (no base/later tags) and carry a one-line message.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${SDIST_DIR:-}"

# release VERSION SHA256 DATE
release() {
    fetch_sdist black "$1" "black-$1.tar.gz" "$2"
    unpack "$RECIPE_FILE"
    commit "$3" "black $1 (PyPI sdist black-$1.tar.gz)" "$1"
}
release 23.1.0 b0bd97bea8903f5a2ba7219257a44e3f1f9d00073d6cc1add68f0beec69692ac \
    2023-02-01T12:00:00+00:00
release 24.2.0 bce4f25c27c3435e4dace4815bcb2008b87e167e3bf4ee47ccdc5ce906eb4894 \
    2024-02-12T12:00:00+00:00
expect_commit 23.1.0 bc22853791e715153867ccc7af16172375975118 "black 23.1.0" base
expect_commit 24.2.0 1d6d248909483f675e55db78f9c1c60338c8b553 "black 24.2.0" later
publish repack
