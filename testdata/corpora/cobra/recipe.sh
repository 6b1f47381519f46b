#!/usr/bin/env bash
# Recreates testdata/corpora/cobra/repo.git from two published spf13/cobra releases, as Debian's
# archive holds them (the upstream source tarballs of golang-github-spf13-cobra).
#
# The repository holds two commits on branch main:
#   base   = the contents of golang-github-spf13-cobra_1.6.1.orig.tar.gz   (tags base, v1.6.1)
#   later  = the contents of golang-github-spf13-cobra_1.8.1.orig.tar.gz   (tags later, v1.8.1)
# Each orig tarball is GitHub's archive of the upstream tag (top directory cobra-VERSION/, the
# tagged commit's id in its pax header), so each tree is the upstream repository at that tag as
# published: the Go code, the tests, doc/, the markdown documentation (at the top in 1.6.1, under
# site/content/ in 1.8.1), .github/, go.mod, go.sum, LICENSE.txt and the rest. Nothing is added
# or removed: the archive has no packaging artefacts (Debian's changes are in the separate
# .debian.tar.xz, which is not used).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both tarballs (the ones in Debian's Sources indexes: bookworm for 1.6.1,
# trixie for 1.8.1), the upstream commit id each tarball records, and the resulting commit ids,
# and fails if any differs. Dates are those of the upstream tagged commits (the tarballs' file
# times), at 12:00 UTC.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding the two .orig.tar.gz files; when a file is missing there, the
#            script downloads it from Debian's pool by its exact name
#            (http://deb.debian.org/debian/pool/main/g/golang-github-spf13-cobra/FILE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

orig_release golang-github-spf13-cobra cobra spf13/cobra \
    1.6.1 f38f8b26895903be06089ff20882fc771dbca12f41cf81d7bd823be65e6cec52 \
    b43be995ebb4bee335a787bd44498b91aef7619c 2022-10-24T12:00:00+00:00 base v1.6.1
orig_release golang-github-spf13-cobra cobra spf13/cobra \
    1.8.1 5d45f6fcce63f9f4dd12b34a15669335a35ca3f7bf297ba465c3fbf62308e5fe \
    e94f6d0dd9a5e5738dca6bce03c4b1207ffbc0ec 2024-06-01T12:00:00+00:00 later v1.8.1
expect_commit base 5f992f7ce8bc63dc5258140e4474f776b649f8db "cobra 1.6.1"
expect_commit later 5a8fe39062e6da42bc853971f13b7ff3abf450e5 "cobra 1.8.1"
publish gc
