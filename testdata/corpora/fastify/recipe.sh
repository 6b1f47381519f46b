#!/usr/bin/env bash
# Recreates testdata/corpora/fastify/repo.git from two published fastify packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of fastify-4.17.0.tgz   (tags base, v4.17.0)
#   later  = the contents of fastify-4.28.1.tgz   (tags later, v4.28.1)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped and nothing else removed: fastify.js, fastify.d.ts, lib/, types/, docs/ (Reference,
# Guides), test/, examples/, build/, integration/, package.json, README.md, LICENSE and the
# project documents. An npm tarball has no packaging artefacts of the kind cargo adds
# (package.json is the authors' manifest), and the packages record no upstream commit
# (package.json has no gitHead), so the commit messages name none.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both tarballs against the registry's `dist.integrity` (sha512) and `dist.shasum`
# (sha1), as printed by `npm view fastify@VERSION dist`, and the resulting commit ids, and fails
# if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding fastify-4.17.0.tgz and fastify-4.28.1.tgz; when a file is
#            missing there, the script downloads it with `npm pack fastify@VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

npm_release fastify 4.17.0 \
    tzuY1tgWJo2Y6qEKwmLhFvACUmr68Io2pqP/sDKU71KRM6A6R3DrCDqLGqANbeLZcKUfdfY58ut35CGqemcTgg== \
    b2c8245e572edef0b02a167d2d411a3c8a46d01a 2023-04-27T12:00:00+00:00 base v4.17.0
npm_release fastify 4.28.1 \
    kFWUtpNr4i7t5vY2EJPCN2KgMVpuqfU4NjnJNCgiNB900oiDeYqaNDRcAfeBbOF5hGixixxcKnOU4KN9z6QncQ== \
    39626dedf445d702ef03818da33064440b469cd1 2024-06-27T12:00:00+00:00 later v4.28.1
expect_commit base 7b2c00c9e1dd978d1c8c843d31e159c640383bd5 "fastify 4.17.0"
expect_commit later a9aad3a92adf7b7ed2b672d0cb8a42c11dd2ec9d "fastify 4.28.1"
publish gc
