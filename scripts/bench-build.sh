#!/usr/bin/env bash
# Times `ontoly build` on generated workspaces of 1k, 10k and 100k sections (2–3 references
# each): the floor (read + blake3 every input file: `ontoly hash-inputs`), a cold build (no
# cache on disk), and a warm build (the snapshot is loaded). Reports the best of $REPEAT runs
# (wall clock) and the peak resident memory of that kind of run (/usr/bin/time).
#
#   scripts/bench-build.sh [SIZES...]        # default: 1000 10000 100000
#   REPEAT=5 scripts/bench-build.sh 10000
#
# Workspaces are generated once into testdata/generated/<N> (git-ignored) by
# testdata/gen/generate.py and reused. The release binary is built first.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=("${@:-1000 10000 100000}")
# shellcheck disable=SC2206
SIZES=(${SIZES[*]})
REPEAT=${REPEAT:-3}
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
# PROFILE=profiling builds the release code with line tables, for `perf record` on the same
# runs (the release profile strips symbols).
PROFILE=${PROFILE:-release}
cargo build --profile "$PROFILE" -q -p ontoly
BIN=$PWD/target/$PROFILE/ontoly

# run <label> <cmd...>: best wall time (s) over REPEAT runs and the max RSS (MB) of the runs.
best=""; rss=""
measure() {
  local prep=$1; shift
  best=""; rss=0
  for _ in $(seq "$REPEAT"); do
    eval "$prep"
    local t0 t1 out kb
    t0=$EPOCHREALTIME
    out=$( { /usr/bin/time -f '%M' "$@" >/dev/null; } 2>&1 | tail -1 )
    t1=$EPOCHREALTIME
    kb=$out
    local dt
    dt=$(python3 -c "print(f'{$t1-$t0:.3f}')")
    if [[ -z $best ]] || python3 -c "import sys; sys.exit(0 if $dt < $best else 1)"; then best=$dt; fi
    (( kb > rss )) && rss=$kb
  done
  rss=$(( rss / 1024 ))
}

printf '| sections | input MB | floor s | cold s | warm s | cold/floor | warm/cold | peak MB cold | peak MB warm |\n'
printf '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for n in "${SIZES[@]}"; do
  ws=testdata/generated/$n
  if [[ ! -f $ws/knowledge/structure.yaml ]]; then
    python3 testdata/gen/generate.py --out "$ws" --sections "$n" --force >/dev/null
  fi
  mb=$(du -sm --exclude=.ontoly "$ws" | cut -f1)
  measure ":" "$BIN" --workspace "$ws" hash-inputs; floor=$best
  measure "rm -rf '$ws/.ontoly'" "$BIN" --workspace "$ws" build; cold=$best; cold_rss=$rss
  measure ":" "$BIN" --workspace "$ws" build; warm=$best; warm_rss=$rss
  ratio=$(python3 -c "print(f'{$cold/max($floor,0.001):.1f}x')")
  wratio=$(python3 -c "print(f'{100*$warm/max($cold,0.001):.0f}%')")
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$n" "$mb" "$floor" "$cold" "$warm" "$ratio" "$wratio" "$cold_rss" "$warm_rss"
done
