#!/usr/bin/env bash
# Recreates the pino corpus's repo.git from two published pino packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of pino-8.14.1.tgz   (tags base, v8.14.1)
#   later  = the contents of pino-9.4.0.tgz    (tags later, v9.4.0)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped and nothing else removed: pino.js, pino.d.ts, file.js, browser.js, bin.js, lib/,
# docs/, test/, benchmarks/, package.json, README.md, LICENSE and the project documents. An
# npm tarball has no packaging artefacts of the kind cargo adds (package.json is the authors'
# manifest), and the packages record no upstream commit (package.json has no gitHead), so the
# commit messages name none.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both tarballs against the registry's `dist.integrity` (sha512) and `dist.shasum`
# (sha1), as printed by `npm view pino@VERSION dist`, and the resulting commit ids, and fails
# if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding pino-8.14.1.tgz and pino-9.4.0.tgz; when a file is
#            missing there, the script downloads it with `npm pack pino@VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

npm_release pino 8.14.1 \
    8LYNv7BKWXSfS+k6oEc6occy5La+q2sPwU3q2ljTX5AZk7v+5kND2o5W794FyRaqha6DJajmkNRsWtPpFyMUdw== \
    bb38dcda8b500dd90c1193b6c9171eb777a47ac8 2023-05-18T12:00:00+00:00 base v8.14.1
npm_release pino 9.4.0 \
    nbkQb5+9YPhQRz/BeQmrWpEknAaqjpAqRK8NwJpmrX/JHu7JuZC5G1CeAwJDJfGes4h+YihC6in3Q2nGb+Y09w== \
    e4600ff199efc744856a5b3b71c53e38998eae5a 2024-08-26T12:00:00+00:00 later v9.4.0
expect_commit base b0fde1b20bdef4a1cc7ccb4a28a1871316de54d9 "pino 8.14.1"
expect_commit later 0e01ce356f736fae25802530f2ae54842cc045f3 "pino 9.4.0"
publish gc
