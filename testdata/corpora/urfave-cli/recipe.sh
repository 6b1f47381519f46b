#!/usr/bin/env bash
# Recreates repo.git of the urfave-cli corpus from two published urfave/cli v2 releases, as
# Debian's archive holds them (the upstream source tarballs of golang-github-urfave-cli-v2).
#
# The repository holds two commits on branch main:
#   base   = the contents of golang-github-urfave-cli-v2_2.3.0.orig.tar.gz    (tags base, v2.3.0)
#   later  = the contents of golang-github-urfave-cli-v2_2.25.7.orig.tar.gz   (tags later, v2.25.7)
# Each orig tarball is GitHub's archive of the upstream tag (top directory cli-VERSION/, the
# tagged commit's id in its pax header), so each tree is the upstream repository at that tag as
# published: the Go package at the top (app.go, command.go, context.go, flag*.go, help.go, ...),
# altsrc/, autocomplete/, internal/, the tests, docs/ (manual, migration guide, changelog),
# .github/, go.mod, go.sum, LICENSE and the rest. Nothing is added or removed: the archive has no
# packaging artefacts (Debian's changes are in the separate .debian.tar.xz, which is not used).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both tarballs (the ones in Debian's Sources indexes: bookworm for 2.3.0,
# trixie for 2.25.7), the upstream commit id each tarball records, and the resulting commit ids,
# and fails if any differs. Dates are those of the upstream tagged commits (the tarballs' file
# times), at 12:00 UTC.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding the two .orig.tar.gz files; when a file is missing there, the
#            script downloads it from Debian's pool by its exact name
#            (http://deb.debian.org/debian/pool/main/g/golang-github-urfave-cli-v2/FILE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

orig_release golang-github-urfave-cli-v2 urfave/cli urfave/cli \
    2.3.0 b17376246f1477157daab86d4a1562d6b004f5be0d15dfc61ebd8bb129384e6b \
    09ac54c2f97f4249282baf266c54a09fab1bef58 2020-11-01T12:00:00+00:00 base v2.3.0
orig_release golang-github-urfave-cli-v2 urfave/cli urfave/cli \
    2.25.7 522cd93947f10022794126f5d5b6d3d6c3c47b739fe4fbf3f483695bb233d9b7 \
    c023d9bc5a3122830c9355a0a8c17137e0c8556f 2023-06-14T12:00:00+00:00 later v2.25.7
expect_commit base c3fe0d372b4c4e0b5379501edd1daf74ea164596 "urfave/cli 2.3.0"
expect_commit later 306b24f871586c427b42eade2cd9b533fef7db3c "urfave/cli 2.25.7"
publish gc
