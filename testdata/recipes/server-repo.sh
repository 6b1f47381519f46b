#!/usr/bin/env bash
# Creates the "server" source repository used by the source-reading tests, deterministically:
# fixed names, emails and dates, so every commit id is the same on every machine.
#
#   server-repo.sh DIR      (DIR must not exist)
#
# History (branch main, then branch feature):
#   c1  six-language sources, text edge cases (binary, Latin-1, UTF-16, CRLF, empty, long files)
#   c2  edit src/lib.rs, rename app/main.py -> app/core.py, delete web/util.js,
#       move go/server.go -> cmd/server/server.go, add symlinks and a submodule entry
#   c3  (branch feature) edit README.md
# Prints the three commit ids, one per line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$1"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME="${TMPDIR:-/tmp}"
export GIT_AUTHOR_NAME="Ontoly Test" GIT_AUTHOR_EMAIL="test@ontoly.invalid"
export GIT_COMMITTER_NAME="Ontoly Test" GIT_COMMITTER_EMAIL="test@ontoly.invalid"
commit() {
  export GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1"
  [ "${3:-}" = staged ] || git -C "$dir" add -A
  git -C "$dir" commit -q -m "$2"
  git -C "$dir" rev-parse HEAD
}
mkdir -p "$dir"
git -C "$dir" init -q -b main
git -C "$dir" config core.autocrlf false
git -C "$dir" config core.symlinks true
mkdir -p "$dir"/{src,app,web,go,java/com/acme,data,big}
cp "$here/server/lib.rs" "$dir/src/lib.rs"
cp "$here/server/main.py" "$dir/app/main.py"
cp "$here/server/app.ts" "$dir/web/app.ts"
cp "$here/server/view.tsx" "$dir/web/view.tsx"
cp "$here/server/util.js" "$dir/web/util.js"
cp "$here/server/server.go" "$dir/go/server.go"
cp "$here/server/Server.java" "$dir/java/com/acme/Server.java"
printf '# server\n\nA small multi-language example.\n' > "$dir/README.md"
printf 'ab\0cd\n' > "$dir/data/bin.dat"
printf 'caf\xe9\n' > "$dir/data/latin1.txt"
printf '\xff\xfeh\0i\0\n\0' > "$dir/data/utf16.txt"
printf 'one\r\ntwo\r\nthree\r\n' > "$dir/data/crlf.txt"
printf 'first\nlast' > "$dir/data/notrail.txt"
: > "$dir/data/empty.txt"
awk 'BEGIN { for (i = 1; i <= 1200; i++) printf "line %d\n", i }' > "$dir/big/long.txt"
# 600 lines of 1000 bytes (999 x + newline): the 256 KiB budget cuts a 500-line read.
head -c 999 /dev/zero | tr '\0' x > "$dir/big/x.tmp"
for i in $(seq 600); do cat "$dir/big/x.tmp"; echo; done > "$dir/big/wide.txt"
rm "$dir/big/x.tmp"
# One line of 300000 bytes: longer than a whole read.
{ head -c 300000 /dev/zero | tr '\0' y; printf '\nafter\n'; } > "$dir/big/huge-line.txt"
c1=$(commit "2026-01-01T00:00:00Z" "c1: sources in six languages and text edge cases")

sed -i 's/count().min(self.limit)/count().min(self.limit.max(1))/' "$dir/src/lib.rs"
git -C "$dir" mv app/main.py app/core.py
git -C "$dir" rm -q web/util.js
mkdir -p "$dir/cmd/server"
git -C "$dir" mv go/server.go cmd/server/server.go
mkdir -p "$dir/links"
ln -s ../src/lib.rs "$dir/links/lib.rs"
ln -s ../../outside.txt "$dir/links/out"
ln -s ../src "$dir/links/srcdir"
ln -s loop "$dir/links/loop"
git -C "$dir" add -A
# A submodule entry (gitlink) without fetching anything: reads must return no content for it.
git -C "$dir" update-index --add --cacheinfo "160000,$c1,vendor/sub"
c2=$(commit "2026-01-02T00:00:00Z" "c2: edit, rename, delete, move; symlinks and a submodule" staged)

git -C "$dir" checkout -q -b feature 2>/dev/null
printf '# server\n\nA small multi-language example, feature branch.\n' > "$dir/README.md"
c3=$(commit "2026-01-03T00:00:00Z" "c3: feature branch edit")
git -C "$dir" checkout -q main
echo "$c1"
echo "$c2"
echo "$c3"
