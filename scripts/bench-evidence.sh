#!/usr/bin/env bash
# Query benchmark (issue 10): `ontoly evidence <query> --format json` as a fresh process with a
# warm snapshot (graph + search index), several queries per size, median and spread, beside
# the floor (`ontoly hash-inputs`) measured in the same run. See scripts/bench.py.
#
#   scripts/bench-evidence.sh [--bin PATH] [--sizes 1000,10000,100000] [--1m] [--repeat N]
#
# Without --bin the release binary is built first (PROFILE=profiling: with line tables, for
# perf). REPEAT=N is the same as --repeat N.
set -euo pipefail
exec python3 "$(dirname "$0")/bench.py" --only evidence "$@"
