#!/usr/bin/env bash
# Recreates testdata/corpora/nodemon/repo.git from two published nodemon packages (npm).
#
# The repository holds two commits on branch main:
#   base   = the contents of nodemon-2.0.22.tgz   (tags base, v2.0.22)
#   later  = the contents of nodemon-3.1.4.tgz    (tags later, v3.1.4)
# Each tree is the package as published, with the tarball's leading `package/` directory
# stripped and nothing else removed: bin/nodemon.js, the binary bin/windows-kill.exe (kept as
# published, in both versions), lib/, doc/cli/*.txt, package.json, README.md, LICENSE and, in
# 3.1.4 only, index.d.ts, jsconfig.json and .prettierrc.json. Neither package ships tests,
# faq.md or the other doc/*.md files the README links. An npm tarball has no packaging
# artefacts of the kind cargo adds (package.json is the authors' manifest), and the packages
# record no upstream commit (package.json has no gitHead), so the commit messages name none.
#
# The plumbing is ../tools/recipe-lib.sh (deterministic git, checksums, packing). This script
# checks both tarballs against the registry's `dist.integrity` (sha512) and `dist.shasum`
# (sha1), as printed by `npm view nodemon@VERSION dist`, and the resulting commit ids, and fails
# if any differs.
#
# Usage: recipe.sh [OUT_DIR] [TGZ_DIR]
#   OUT_DIR  where repo.git is written (default: the directory of this script)
#   TGZ_DIR  a directory holding nodemon-2.0.22.tgz and nodemon-3.1.4.tgz; when a file is
#            missing there, the script downloads it with `npm pack nodemon@VERSION`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=../tools/recipe-lib.sh
. "$here/../tools/recipe-lib.sh"
recipe_start "${1:-$here}" "${2:-}"

npm_release nodemon 2.0.22 \
    B8YqaKMmyuCO7BowF1Z1/mkPqLk6cs/l63Ojtd6otKjMx47Dq1utxfRxcavH1I7VSaL8n5BUaoutadnsX3AAVQ== \
    182c45c3a78da486f673d6c1702e00728daf5258 2023-03-22T12:00:00+00:00 base v2.0.22
npm_release nodemon 3.1.4 \
    wjPBbFhtpJwmIeY2yP7QF+UKzPfltVGtfce1g/bB15/8vCGZj8uxD62b/b9M9/WVgme0NZudpownKN+c0plXlQ== \
    c34dcd8eb46a05723ccde60cbdd25addcc8725e4 2024-06-18T12:00:00+00:00 later v3.1.4
expect_commit base f707d232db9e2a4ff28c334355ef81878ed33ea3 "nodemon 2.0.22"
expect_commit later 93d62dadf00cc93a61070c165d4648748d54ba0f "nodemon 3.1.4"
publish gc
