#!/usr/bin/env bash
# Build benchmark (issue 10): for 1k, 10k and 100k generated sections (1M with --1m), the floor
# (`ontoly hash-inputs`: read + blake3 of the inputs), cold, warm and one-page-changed builds,
# peak RSS, snapshot size against the input bytes, and the fresh-process `ontoly evidence` time
# with a warm snapshot, each beside the floor measured in the same run. See scripts/bench.py.
#
#   scripts/bench-build.sh [--bin PATH] [--sizes 1000,10000] [--1m] [--repeat N] [--json FILE]
#   scripts/bench-build.sh --bin /path/to/other/ontoly      # time another binary
#
# Without --bin the release binary is built first (PROFILE=profiling: with line tables, for
# perf). REPEAT=N is the same as --repeat N.
set -euo pipefail
exec python3 "$(dirname "$0")/bench.py" "$@"
