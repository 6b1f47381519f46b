#!/usr/bin/env bash
# Times a cold `ontoly evidence` process end to end (process start, snapshot load of the graph
# and of the search index, the query, the JSON pack on stdout) on generated workspaces.
# The first run builds the graph and stores the snapshot and the index artifact; the measured
# runs then start from that snapshot, as a CI job or an agent's tool call would.
#
#   scripts/bench-evidence.sh [DIRS...]   # default: testdata/generated/10k
#   REPEAT=10 scripts/bench-evidence.sh testdata/generated/10k testdata/generated/100k
#
# Generate workspaces first: python3 testdata/gen/generate.py --out DIR --sections N --git
set -euo pipefail
cd "$(dirname "$0")/.."
DIRS=("${@:-testdata/generated/10k}")
REPEAT=${REPEAT:-10}
# PROFILE=profiling builds the release code with line tables, for `perf record` on the same
# runs (the release profile strips symbols).
PROFILE=${PROFILE:-release}
cargo build --profile "$PROFILE" -q -p ontoly
BIN=$PWD/target/$PROFILE/ontoly
for ws in "${DIRS[@]}"; do
  [ -f "$ws/knowledge/structure.yaml" ] || { echo "skip $ws: not generated" >&2; continue; }
  # Warm the snapshot (graph + search-index artifact).
  t0=$EPOCHREALTIME
  "$BIN" --workspace "$ws" evidence "warm up the snapshot" --format json >/dev/null
  t1=$EPOCHREALTIME
  first=$(echo "$t1 - $t0" | bc)
  times=()
  for i in $(seq "$REPEAT"); do
    t0=$EPOCHREALTIME
    "$BIN" --workspace "$ws" evidence "how does section $i handle retries and cache eviction" \
      --format json >/dev/null
    t1=$EPOCHREALTIME
    times+=("$(echo "($t1 - $t0) * 1000" | bc)")
  done
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  p50=$(echo "$sorted" | awk -v n="$REPEAT" 'NR == int((n + 1) / 2) {print}')
  max=$(echo "$sorted" | tail -1)
  printf '%s: first run (build + store) %.2f s; cold process from snapshot: p50 %.1f ms, max %.1f ms over %d runs\n' \
    "$ws" "$first" "$p50" "$max" "$REPEAT"
done
