#!/usr/bin/env bash
# Recreates repo.git of the kong corpus from two published alecthomas/kong releases, as Debian's
# archive holds them (the upstream source tarballs of golang-github-alecthomas-kong).
#
# The repository holds two commits on branch main:
#   base   = the contents of golang-github-alecthomas-kong_0.7.1.orig.tar.gz   (tags base, v0.7.1)
#   later  = the contents of golang-github-alecthomas-kong_0.9.0.orig.tar.gz   (tags later, v0.9.0)
# Each orig tarball is GitHub's archive of the upstream tag (top directory kong-VERSION/, the
# tagged commit's id in its pax header), so each tree is the upstream repository at that tag as
# published: the Go package at the top (kong.go, options.go, tag.go, build.go, model.go,
# context.go, mapper.go, help.go, ...), _examples/, the tests, README.md, .github/, go.mod,
# go.sum, COPYING and the rest. Nothing is added or removed: the archive has no packaging
# artefacts (Debian's changes are in the separate .debian.tar.xz, which is not used).
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks the sha256 of both tarballs (the ones in Debian's Sources indexes: bookworm for 0.7.1,
# trixie for 0.9.0), the upstream commit id each tarball records, and the resulting commit ids,
# and fails if any differs. Dates are those of the upstream tagged commits (the tarballs' file
# times), at 12:00 UTC.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding the two .orig.tar.gz files; when a file is missing there, the
#            script downloads it from Debian's pool by its exact name
#            (http://deb.debian.org/debian/pool/main/g/golang-github-alecthomas-kong/FILE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

orig_release golang-github-alecthomas-kong kong alecthomas/kong \
    0.7.1 37d2278fd9635a94767fd57d19d3594e216c9f1253a9476c93dca4d79e10130f \
    d974d7270ae0502ee5c9336ecbe4c39dcd4661e5 2022-11-12T12:00:00+00:00 base v0.7.1
orig_release golang-github-alecthomas-kong kong alecthomas/kong \
    0.9.0 2cee58d51974a28a4c96a9996405d5396362044a5588ce08b23b10520ada45a4 \
    a41b2e8f4ed34d80305fff68cf819f819c06ae7e 2024-03-08T12:00:00+00:00 later v0.9.0
expect_commit base bf694877dab45c6e051a1d78ac483c65965f1b9b "kong 0.7.1"
expect_commit later f7e0b12f6a73d26d2a6eb8600da1dd317979dfce "kong 0.9.0"
publish gc
