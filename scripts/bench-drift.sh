#!/usr/bin/env bash
# Drift at scale beside its floor, in one run: generates a workspace of ~100k references in 50
# repositories (testdata/generated/drift100k, reused when present), adds a later commit to
# every repository (tag drift-later), then runs
#   - the capability bench (Drift end to end on an opened session vs. reading both versions of
#     every cited file and diffing the changed ones), and
#   - `ontoly drift --to drift-later` as a process, warm (graph snapshot cached) and cold.
# Figures depend on the machine and its load: read them as ratios to the floor.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
ws="${DRIFT_WS:-testdata/generated/drift100k}"
if [ ! -f "$ws/knowledge/structure.yaml" ]; then
  python3 testdata/gen/generate.py --out "$ws" --articles 2000 --sections-per-article 20 \
    --refs-per-section 2-3 --repos 50 --files-per-repo 100 --git
  python3 testdata/gen/drift_later.py "$ws"
fi
ONTOLY_BENCH_DRIFT_WS="$(cd "$ws" && pwd)" cargo bench --quiet -p ontoly-capabilities --bench drift
cargo build --quiet --release --locked -p ontoly
bin="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/ontoly"
"$bin" build --workspace "$ws" >/dev/null
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
echo "process: ontoly drift --to drift-later --format json, warm graph cache: $(secs "$bin" drift --workspace "$ws" --to drift-later --format json) s"
echo "process: the same, --no-cache (builds and verifies the graph first): $(secs "$bin" drift --workspace "$ws" --no-cache --to drift-later --format json) s"
