#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets under fuzz/seeds/<target>/ from the fixtures,
# the conformance cases and the demo workspace. Run by scripts/fuzz.sh; safe to run again.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../testdata"
out="$here/seeds"
rm -rf "$out"
mkdir -p "$out"/{markers,structure_diff,registry,source_ref,plugin,reads,mcp_transport}
seed() { # seed TARGET < bytes: stored under its content hash (often called in a subshell)
    local tmp sum
    tmp=$(mktemp "$out/.seed-XXXXXX")
    cat > "$tmp"
    sum=$(sha1sum < "$tmp" | cut -c1-16)
    mv "$tmp" "$out/$1/$sum"
}
FF=$(printf '\377')

# Pages, structures and registries of every fixture, conformance case and the demo.
while IFS= read -r -d '' f; do seed markers < "$f"; done \
    < <(find "$data/fixtures" "$data/conformance" "$data/demo/knowledge" -name '*.md' -print0)
while IFS= read -r -d '' f; do seed structure_diff < "$f"; done \
    < <(find "$data" -path '*/knowledge/structure.yaml' -size -64k -print0)
while IFS= read -r -d '' f; do
    { cat "$f"; printf '%sacme/server' "$FF"; } | seed registry
done < <(find "$data" -path '*/sources/*/index.yaml' -print0)

# source_ref | path | start | end | digest | registry | knowledge repository
digest=sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae
c40=0123456789abcdef0123456789abcdef01234567
for ref in repo:acme/server "repo-content:team/kb@$c40" "repo-content:https://github.com/team/kb@$c40+worktree" \
    note:20260101/meeting.md sessions:20260101/s.md lark:design file:docs/spec; do
    printf '%s%ssrc/main.go%s3%s9%s%s%s%s' "$ref" "$FF" "$FF" "$FF" "$FF" "$digest" "$FF" "$FF" | seed source_ref
    {
        printf '%s%sa.md%s1%s2%s%s%s' "$ref" "$FF" "$FF" "$FF" "$FF" "$digest" "$FF"
        cat "$data/fixtures/valid/sources/repo/index.yaml"
        printf '%shttps://github.com/team/kb' "$FF"
    } | seed source_ref
done
while IFS= read -r -d '' f; do
    { printf 'lark:design%sdoc.md%s1%s2%s%s%s' "$FF" "$FF" "$FF" "$FF" "$digest" "$FF"; cat "$f"; } | seed source_ref
done < <(find "$data" -path '*/sources/*/index.yaml' -print0)

# request | page | structure | registry, from every conformance case.
while IFS= read -r -d '' req; do
    dir=$(dirname "$req")
    first() { find "$dir" -path "$1" 2>/dev/null | sort | head -n1 || true; }
    page=$(first '*/knowledge/*.md')
    structure=$(first '*/knowledge/structure.yaml')
    registry=$(first '*/sources/repo/index.yaml')
    {
        cat "$req"; printf '%s' "$FF"
        if [ -n "$page" ]; then cat "$page"; fi; printf '%s' "$FF"
        if [ -n "$structure" ]; then cat "$structure"; fi; printf '%s' "$FF"
        if [ -n "$registry" ]; then cat "$registry"; fi
    } | seed plugin
done < <(find "$data/conformance" -name request.json -print0)

# A credentialed repo-content reference and a lark URL with a token: what defect 8 of issue
# 13 echoed, so that the credential invariants start from it.
{
    printf '{"abi_version":2,"operation":"read","files":[{"item_id":"i","path":"knowledge/faq/guide.md","start_line":1,"end_line":30}]}%s%s' "$FF" "$FF"
    sed "s|- source_ref: note:20260101/meeting.md|- source_ref: repo-content:https://u:SECRETTOKEN@github.com/team/kb@$c40|" \
        "$data/fixtures/valid/knowledge/structure.yaml"
} | seed plugin

# op byte (0 read, 1 read_many, 2 search, 3 resolve) + JSON, against the demo's clones.
for repo in acme/shop-api github.com/acme/shop-worker https://github.com/acme/shop-web.git shop/cli; do
    printf '\000{"repository":"%s","path":"src/main.rs","start_line":3,"end_line":40}' "$repo" | seed reads
    printf '\000{"repository":"%s","revision":"main","path":"README.md"}' "$repo" | seed reads
    printf '\001{"repository":"%s","items":[{"path":"src/checkout.rs","start_line":70},{"path":"Cargo.toml"}]}' "$repo" | seed reads
    printf '\002{"repository":"%s","pattern":"fn \\\\w+","glob":["src/*.rs"],"ignore_case":true}' "$repo" | seed reads
    printf '\003{"repository":"%s","revision":"d6e6a37f40f1119c82f6e0d515cc54a413c68617"}' "$repo" | seed reads
done

# config byte + JSON-RPC lines (valid, malformed, oversized, notifications, CRLF, BOM).
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}'
printf '\007%s\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n' "$init" | seed mcp_transport
printf '\012{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"repository":"a/b","path":"x"}}}\r\n\n  \n{"jsonrpc":"2.0","id":"s","method":"nope"}\n' | seed mcp_transport
printf '\001{"jsonrpc":"2.0","id":4,\n[1,2]\n{"method":"x"}\n{"id":5}\n\357\273\277{"jsonrpc":"2.0","id":6,"method":"ping"}' | seed mcp_transport
{ printf '\000'; head -c 700 /dev/zero | tr '\0' 'x'; printf '\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n'; } | seed mcp_transport
echo "seeds: $(find "$out" -type f | wc -l) inputs under fuzz/seeds/"
