#!/usr/bin/env bash
# Recreates testdata/corpora/viper/repo.git (bare) from Debian's package of spf13/viper 1.10.1.
#
# The repository holds one commit on branch main (tags base, v1.10.1), whose tree is the Go
# source that golang-github-spf13-viper-dev_1.10.1-1_all.deb installs under
# usr/share/gocode/src/github.com/spf13/viper (that directory stripped; nothing added or
# removed). That is the tree, identity, date and message the stop 52 walk committed and its
# pages pin, so the commit is the one they cite.
#
# The .deb (64 KB) is checked in beside this script: Debian's archive drops superseded versions,
# so `apt-get download` is only a fallback. This script checks the package's sha256 (the one in
# the archive's Packages index) and the resulting commit id, and fails if either differs. The
# plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing).
#
# Usage: recipe.sh [OUT_DIR] [DEB_DIR]
#   OUT_DIR  where repo.git is written, replacing an existing one (default: this directory)
#   DEB_DIR  a directory holding golang-github-spf13-viper-dev_1.10.1-1_all.deb (default: this
#            directory); when it is missing there it is fetched with
#            `apt-get download golang-github-spf13-viper-dev=1.10.1-1`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
# The walk committed its tree as this identity; keeping it reproduces the commit its pages pin.
export GIT_AUTHOR_NAME=Doc GIT_AUTHOR_EMAIL=doc@example.invalid
export GIT_COMMITTER_NAME=Doc GIT_COMMITTER_EMAIL=doc@example.invalid
recipe_start "${1:-$here}" "${2:-$here}"

fetch_deb golang-github-spf13-viper-dev 1.10.1-1 golang-github-spf13-viper-dev_1.10.1-1_all.deb \
    2506cd72663b1ea239207546697dc4151517813a9c87f606897b84c9e1d19e73
unpack_deb_dir "$RECIPE_FILE" usr/share/gocode/src/github.com/spf13/viper
commit 2024-01-01T00:00:00+00:00 \
    "viper 1.10.1 (Debian golang-github-spf13-viper-dev 1.10.1-1)" base v1.10.1
expect_commit base f458e706cfde2a048fa304d9555f920c75d789b7 "viper 1.10.1, Debian 1.10.1-1"
publish gc
