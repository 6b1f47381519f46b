#!/usr/bin/env bash
# `ontoly drift --to <later> --format json` must agree with the drift.yaml of each corpus
# (computed with git by testdata/corpora/tools/drift.py) and of the drift fixture (its
# repository made by testdata/recipes/drift-repo.sh): statuses, moved ranges, mapped ranges.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo build --quiet --locked -p ontoly
bin="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/debug/ontoly"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for corpus in requests fd black commander jinja hyperfine click just attrs ws marshmallow tenacity loguru ripgrep zoxide structlog arrow xh tqdm tealdeer dust httpx tokei dotenv express cobra fastify flask urfave-cli bat werkzeug eza pino coverage kong nodemon; do
  dir="testdata/corpora/$corpus"
  later="$(sed -n 's/^head_commit: *//p' "$dir/drift.yaml")"
  printf '%-13s ' "$corpus:"
  "$bin" drift --workspace "$dir/ws" --no-cache --to "$later" --format json \
    | python3 scripts/drift-compare.py - "$dir/drift.yaml"
done
bash testdata/recipes/drift-repo.sh "$tmp/repo" >/dev/null
cp -R testdata/fixtures/drift/ws "$tmp/ws"
printf '%-13s ' "fixture:"
"$bin" drift --workspace "$tmp/ws" --no-cache --to v2 --format json \
  | python3 scripts/drift-compare.py - testdata/fixtures/drift/drift.yaml
