#!/usr/bin/env bash
# Checks that the committed bare repositories are exactly what recipe.sh produces: same head
# commit per repository, and a clean fsck. Exit 1 on any difference.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1

"$HERE/recipe.sh" "$TMP" > "$TMP/expected.txt"
status=0
while read -r name sha; do
  repo=$HERE/repos/$name.git
  got=$(git -C "$repo" rev-parse --verify -q main || echo missing)
  if [ "$got" != "$sha" ]; then
    echo "MISMATCH $name: committed $got, recipe $sha"
    status=1
  elif ! git -C "$repo" fsck --full --no-dangling >/dev/null 2>&1; then
    echo "FSCK-FAIL $name"
    status=1
  else
    # Pack bytes may differ between git versions; the commit SHAs are what must match.
    if diff -rq "$TMP/$name.git" "$repo" >/dev/null; then same="byte-identical"; else same="same commits, different pack bytes"; fi
    echo "ok $name $sha ($same)"
  fi
done < "$TMP/expected.txt"
for repo in "$HERE"/repos/*.git; do
  name=$(basename "$repo" .git)
  grep -q "^$name " "$TMP/expected.txt" || { echo "EXTRA $name: not made by recipe.sh"; status=1; }
done
exit $status
